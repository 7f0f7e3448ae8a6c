#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/mount/options.sh - the mount helpers' command line and every option
# of every table, through the real binary: -f -v prints the exact mount(2)
# call the helper would make (the same text strace shows), so each check
# compares that line. Names are resolved against a test /etc/passwd and
# /etc/group bind-mounted in a private mount namespace (root only).
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/mount/lib-mount.sh"

T=$(scratch mountopt)
trap 'rm -rf "$T"' EXIT
for a in mount.vboxsf mount.9p mount.virtiofs mount-shared; do
	ln -s "$FORKLESS" "$T/$a"
done
need_applet mount.vboxsf mount.9p mount.virtiofs mount-shared || exit 0

# call NAME APPLET ARGS... EXPECTED-LINE: -f -v output must equal EXPECTED.
call() {
	local name=$1 applet=$2 expected=${!#}
	local args=("${@:3:$#-3}")
	run_capture "$T/$applet" "${args[@]}" -f -v
	if [ "$RC" != 0 ]; then
		fail "$name" "exit $RC" "args: ${args[*]}" "stderr: $ERR"
		return
	fi
	check "$name" "$expected" "${OUT%$'\n'}"
}
# refuse NAME APPLET ARGS... STATUS PATTERN: exit STATUS, stderr matches.
refuse() {
	local name=$1 applet=$2 pattern=${!#} status=${@:$#-1:1}
	local args=("${@:3:$#-4}")
	run_capture "$T/$applet" "${args[@]}" -f
	if [ "$RC" != "$status" ]; then
		fail "$name" "exit $RC, expected $status" "args: ${args[*]}" \
			"stderr: $ERR"
	elif [[ $ERR != *"$pattern"* ]]; then
		fail "$name" "message does not say '$pattern'" "stderr: $ERR"
	elif [ -n "$OUT" ]; then
		fail "$name" "printed a mount call although refused: $OUT"
	else
		pass "$name"
	fi
}
V='mount("s", "/d", "vboxsf", MS_NODEV'
N='mount("t", "/d", "9p", 0, "trans=virtio,version=9p2000.L,msize=512000'

# ---- help and usage -------------------------------------------------------
for a in mount.vboxsf mount.9p mount.virtiofs mount-shared; do
	for h in --help -h; do
		run_capture "$T/$a" $h
		if [ "$RC" = 0 ] && [[ $OUT == *$'\nExit status:\n  0     mounted'* ]] &&
			[[ $OUT == *$'\n  1     usage or bad option\n  2     system error\n  32    mount failure'* ]]; then
			pass "mount/help/$a$h"
		else
			fail "mount/help/$a$h" "exit $RC or no exit codes in the help" "$OUT"
		fi
	done
done
refuse mount/usage/no-operands mount.vboxsf 1 "missing operand"
refuse mount/usage/one-operand mount.9p t 1 "missing operand: expected TAG DIR"
refuse mount/usage/three-operands mount.9p t /d x 1 "too many operands"
refuse mount/usage/unknown-letter mount.vboxsf s /d -x 1 "unknown option -x"
run_capture "$T/mount.vboxsf" s /d -f -o
[ "$RC" = 1 ] && [[ $ERR == *"missing value for -o"* ]] && pass mount/usage/o-without-value ||
	fail mount/usage/o-without-value "exit $RC: $ERR"
refuse mount/usage/bad-namespace mount.9p t /d -N /nonexistent/ns 2 "-N /nonexistent/ns"

# ---- output that cannot be written: exit 2 (system error), named -----------
# lost NAME STDOUT-REDIRECTION APPLET ARGS...
lost() {
	local name=$1 redir=$2 applet=$3 err
	shift 3
	err=$(eval '"$T/$applet" "$@" 2>&1 '"$redir")
	local rc=$?
	exit_seen "$applet" "$rc"
	[ "$rc" = 2 ] && [[ $err == *"$applet: cannot write to stdout: "* ]] && pass "$name" ||
		fail "$name" "exit $rc, expected 2" "stderr: $err"
}
lost mount/output/v-line-full '>/dev/full' mount.9p t /d -f -v
lost mount/output/v-line-closed '>&-' mount.9p t /d -f -v
lost mount/output/help-full '>/dev/full' mount.vboxsf -h
lost mount/output/virtiofs-v-line-full '>/dev/full' mount.virtiofs t /d -f -v
if command -v strace >/dev/null; then
	# -v is written before mount(2): a lost -v line mounts nothing
	n=$(strace -f -e trace=mount -e inject=mount:retval=0 "$T/mount.virtiofs" t /d -v 2>&1 >/dev/full | grep -c '^mount(')
	check mount/output/v-line-lost-no-mount 0 "$n"
fi

# ---- options in any position, as mount(8) and people call helpers -------
call mount/argv/mount8-order mount.vboxsf s /d -o rw,uid=1 "$V, \"uid=1\")"
call mount/argv/options-first mount.vboxsf -o rw,uid=1 s /d "$V, \"uid=1\")"
call mount/argv/options-between mount.vboxsf s -o uid=1 /d "$V, \"uid=1\")"
call mount/argv/attached-value mount.vboxsf s /d -ouid=1 "$V, \"uid=1\")"
call mount/argv/bundled mount.vboxsf s /d -snv -o uid=1 "$V, \"uid=1\")"
call mount/argv/repeated-o mount.vboxsf s /d -o uid=1 -o gid=2,uid=3 "$V, \"gid=2,uid=3\")"
run_capture "$T/mount.vboxsf" -f -v -o uid=1 -- s /d
check mount/argv/double-dash "$V, \"uid=1\")"$'\n' "$OUT"
call mount/argv/r mount.vboxsf s /d -r 'mount("s", "/d", "vboxsf", MS_RDONLY|MS_NODEV, NULL)'
call mount/argv/w-after-ro mount.vboxsf s /d -o ro -w "$V, NULL)"
call mount/argv/n-accepted mount.9p t /d -n "$N\")"

# ---- VFS flag words and mount(8)'s own words ----------------------------
call mount/flags/nodev-default mount.vboxsf s /d "$V, NULL)"
call mount/flags/dev-lifts-nodev mount.vboxsf s /d -o dev 'mount("s", "/d", "vboxsf", 0, NULL)'
call mount/flags/9p-no-nodev mount.9p t /d -o ro "mount(\"t\", \"/d\", \"9p\", MS_RDONLY, \"trans=virtio,version=9p2000.L,msize=512000\")"
call mount/flags/all-set mount.virtiofs t /d -o ro,noexec,nosuid,nodev,sync,dirsync,noatime,nodiratime,lazytime,nosymfollow,silent,mand,remount \
	'mount("t", "/d", "virtiofs", MS_RDONLY|MS_NOSUID|MS_NODEV|MS_NOEXEC|MS_SYNCHRONOUS|MS_REMOUNT|MS_MANDLOCK|MS_DIRSYNC|MS_NOSYMFOLLOW|MS_NOATIME|MS_NODIRATIME|MS_SILENT|MS_LAZYTIME, NULL)'
call mount/flags/all-cleared mount.virtiofs t /d -o ro,noexec,nosuid,nodev,sync,noatime,nodiratime,lazytime,nosymfollow,silent,mand,rw,exec,suid,dev,async,atime,diratime,nolazytime,symfollow,loud,nomand \
	'mount("t", "/d", "virtiofs", 0, NULL)'
call mount/flags/relatime mount.virtiofs t /d -o noatime,relatime 'mount("t", "/d", "virtiofs", MS_RELATIME, NULL)'
call mount/flags/strictatime mount.virtiofs t /d -o relatime,strictatime 'mount("t", "/d", "virtiofs", MS_STRICTATIME, NULL)'
call mount/flags/norelatime mount.virtiofs t /d -o relatime,norelatime,nostrictatime 'mount("t", "/d", "virtiofs", 0, NULL)'
call mount/flags/user-implies mount.virtiofs t /d -o user 'mount("t", "/d", "virtiofs", MS_NOSUID|MS_NODEV|MS_NOEXEC, NULL)'
call mount/flags/owner-implies mount.virtiofs t /d -o owner 'mount("t", "/d", "virtiofs", MS_NOSUID|MS_NODEV, NULL)'
call mount/flags/fstab-words-dropped mount.vboxsf s /d \
	-o defaults,auto,noauto,nofail,_netdev,nouser,x-systemd.automount,x-systemd.device-timeout=5,X-mount.mkdir,comment=x,helper=h,uhelper=udisks2,user=bob,relatime,uid=7 \
	'mount("s", "/d", "vboxsf", MS_NODEV|MS_RELATIME, "uid=7")'
call mount/flags/empty-options mount.vboxsf s /d -o ,,uid=1,,,gid=2, "$V, \"uid=1,gid=2\")"
call mount/flags/only-commas mount.vboxsf s /d -o , "$V, NULL)"
call mount/flags/empty-o mount.vboxsf s /d -o '' "$V, NULL)"
refuse mount/flags/flag-with-value mount.vboxsf s /d -o ro=yes 1 "unknown vboxsf option 'ro=yes'"

# ---- vboxsf table ------------------------------------------------------------
call mount/vboxsf/mainline-options mount.vboxsf s /d \
	-o nls=utf8,uid=1000,gid=1000,ttl=200,dmode=755,fmode=644,dmask=022,fmask=133 \
	"$V, \"nls=utf8,uid=1000,gid=1000,ttl=200,dmode=0755,fmode=0644,dmask=022,fmask=0133\")"
call mount/vboxsf/iocharset-as-nls mount.vboxsf s /d -o iocharset=iso8859-1 "$V, \"nls=iso8859-1\")"
call mount/vboxsf/umask mount.vboxsf s /d -o umask=0027 "$V, \"dmask=027,fmask=027\")"
call mount/vboxsf/octal-leading-zeros mount.vboxsf s /d -o dmode=0000755 "$V, \"dmode=0755\")"
call mount/vboxsf/octal-zero mount.vboxsf s /d -o fmask=0 "$V, \"fmask=0\")"
call mount/vboxsf/duplicates-last-wins mount.vboxsf s /d -o uid=1,ttl=5,uid=2,nls=a,iocharset=b \
	"$V, \"ttl=5,uid=2,nls=b\")"
call mount/vboxsf/uid-max mount.vboxsf s /d -o uid=4294967294 "$V, \"uid=4294967294\")"
refuse mount/vboxsf/dmode-not-octal mount.vboxsf s /d -o dmode=789 1 "bad option 'dmode=789': not an octal number"
refuse mount/vboxsf/dmode-too-big mount.vboxsf s /d -o dmode=1777 1 "within 0777"
refuse mount/vboxsf/fmode-too-big mount.vboxsf s /d -o fmode=10000 1 "'fmode=10000'"
refuse mount/vboxsf/dmask-too-big mount.vboxsf s /d -o dmask=17777 1 "within 07777"
refuse mount/vboxsf/fmask-sign mount.vboxsf s /d -o fmask=-1 1 "'fmask=-1'"
refuse mount/vboxsf/umask-hex mount.vboxsf s /d -o umask=0x1f 1 "'umask=0x1f'"
refuse mount/vboxsf/ttl-text mount.vboxsf s /d -o ttl=fast 1 "bad option 'ttl=fast': not a decimal number"
refuse mount/vboxsf/ttl-range mount.vboxsf s /d -o ttl=4294967296 1 "out of range"
refuse mount/vboxsf/uid-minus-one mount.vboxsf s /d -o uid=4294967295 1 "4294967295 is not a valid id"
refuse mount/vboxsf/uid-empty mount.vboxsf s /d -o uid= 1 "'uid=': empty value"
refuse mount/vboxsf/gid-no-value mount.vboxsf s /d -o gid 1 "'gid': needs a value"
refuse mount/vboxsf/nls-empty mount.vboxsf s /d -o nls= 1 "'nls=': empty value"
refuse mount/vboxsf/unknown mount.vboxsf s /d -o uid=1,cache2=x 1 "unknown vboxsf option 'cache2=x'"
refuse mount/vboxsf/9p-option mount.vboxsf s /d -o msize=8192 1 "unknown vboxsf option 'msize=8192'"
# VirtualBox-only options: the driver on this machine is not VirtualBox's
# (no /sys/module/vboxsf/version), so they are dropped with a warning.
if [ -e /sys/module/vboxsf/version ]; then
	skip mount/vboxsf/vbox-only-dropped "VirtualBox's vboxsf driver is loaded here"
else
	run_capture "$T/mount.vboxsf" s /d -f -v -o dcachettl=10,inodettl=20,maxiopages=64,dirbuf=131072,cache=read,tag=auto,uid=5
	n=$(grep -c "dropping '.*': only VirtualBox's own vboxsf driver takes it" <<<"$ERR")
	if [ "$RC" = 0 ] && [ "$n" = 6 ] && [ "$OUT" = "$V, \"uid=5\")"$'\n' ]; then
		pass mount/vboxsf/vbox-only-dropped
	else
		fail mount/vboxsf/vbox-only-dropped "exit $RC, $n warnings" "out: $OUT" "err: $ERR"
	fi
fi
refuse mount/vboxsf/vbox-cache-bad mount.vboxsf s /d -o cache=loose 1 "accepted: default, none, strict, read, readwrite"
refuse mount/vboxsf/vbox-dirbuf-range mount.vboxsf s /d -o dirbuf=16777217 1 "accepted: 0..16777216"
refuse mount/vboxsf/vbox-maxiopages-text mount.vboxsf s /d -o maxiopages=many 1 "'maxiopages=many'"

# ---- sloppy ------------------------------------------------------------------
run_capture "$T/mount.vboxsf" s /d -s -f -v -o foo,uid=1,bar=2
if [ "$RC" = 0 ] && [ "$OUT" = "$V, \"uid=1\")"$'\n' ] &&
	[[ $ERR == *"ignoring unknown option 'foo' (-s)"* ]] &&
	[[ $ERR == *"ignoring unknown option 'bar=2' (-s)"* ]]; then
	pass mount/sloppy/drops-with-warning
else
	fail mount/sloppy/drops-with-warning "exit $RC" "out: $OUT" "err: $ERR"
fi
refuse mount/sloppy/bad-value-still-refused mount.vboxsf s /d -s -o ttl=x 1 "'ttl=x'"

# ---- 9p table ----------------------------------------------------------------
call mount/9p/defaults mount.9p t /d "$N\")"
call mount/9p/user-values-kept mount.9p t /d -o msize=65536,version=9p2000.u,trans=virtio \
	'mount("t", "/d", "9p", 0, "msize=65536,version=9p2000.u,trans=virtio")'
call mount/9p/xen-msize mount.9p t /d -o trans=xen \
	"mount(\"t\", \"/d\", \"9p\", 0, \"trans=xen,version=9p2000.L,msize=$( [ "$(printf '%s\n' "$(uname -r)" 5.8 | sort -V | head -1)" = 5.8 ] && echo 262144 || echo 65536)\")"
call mount/9p/tcp-no-msize mount.9p 10.0.0.1 /d -o trans=tcp,port=564 \
	'mount("10.0.0.1", "/d", "9p", 0, "trans=tcp,port=564,version=9p2000.L")'
call mount/9p/every-option mount.9p t /d \
	-o cache=loose,access=user,posixacl,dfltuid=1,dfltgid=2,afid=3,uname=u,aname=/a,cachetag=c,nodevmap,noextend,noxattr,directio,ignoreqv,locktimeout=4,debug=0x3,privport,rfdno=5,wfdno=6,sq=7,rq=8,timeout=9 \
	"mount(\"t\", \"/d\", \"9p\", 0, \"cache=loose,access=user,posixacl,dfltuid=1,dfltgid=2,afid=3,uname=u,aname=/a,cachetag=c,nodevmap,noextend,noxattr,directio,ignoreqv,locktimeout=4,debug=0x3,privport,rfdno=5,wfdno=6,sq=7,rq=8,timeout=9,trans=virtio,version=9p2000.L,msize=512000\")"
for c in none loose fscache mmap readahead writeback; do
	call mount/9p/cache-$c mount.9p t /d -o cache=$c "mount(\"t\", \"/d\", \"9p\", 0, \"cache=$c,trans=virtio,version=9p2000.L,msize=512000\")"
done
for a in any client 0; do
	call mount/9p/access-$a mount.9p t /d -o access=$a "mount(\"t\", \"/d\", \"9p\", 0, \"access=$a,trans=virtio,version=9p2000.L,msize=512000\")"
done
refuse mount/9p/msize-too-small mount.9p t /d -o msize=4095 1 "accepted: 4096..4294967295"
refuse mount/9p/trans-unknown mount.9p t /d -o trans=vsock 1 "accepted: virtio, xen, tcp, unix, fd, rdma, usbg"
refuse mount/9p/version-unknown mount.9p t /d -o version=9P2000.L 1 "accepted: 9p2000, 9p2000.u, 9p2000.L"
refuse mount/9p/cache-unknown mount.9p t /d -o cache=all 1 "'cache=all'"
refuse mount/9p/access-unknown mount.9p t /d -o access=nobody_such 1 "or a user id or name"
refuse mount/9p/posixacl-value mount.9p t /d -o posixacl=1 1 "'posixacl=1': takes no value"
refuse mount/9p/port-range mount.9p t /d -o port=70000 1 "accepted: 0..65535"
refuse mount/9p/debug-bad-hex mount.9p t /d -o debug=0xzz 1 "'debug=0xzz'"
refuse mount/9p/vboxsf-option mount.9p t /d -o dmode=755 1 "unknown 9p option 'dmode=755'"

# ---- virtiofs table ----------------------------------------------------------
call mount/virtiofs/none mount.virtiofs t /d 'mount("t", "/d", "virtiofs", 0, NULL)'
call mount/virtiofs/dax mount.virtiofs t /d -o dax 'mount("t", "/d", "virtiofs", 0, "dax")'
for m in always never inode; do
	call mount/virtiofs/dax-$m mount.virtiofs t /d -o dax=$m "mount(\"t\", \"/d\", \"virtiofs\", 0, \"dax=$m\")"
done
refuse mount/virtiofs/dax-bad mount.virtiofs t /d -o dax=yes 1 "accepted: always, never, inode"
refuse mount/virtiofs/unknown mount.virtiofs t /d -o cache=auto 1 "unknown virtiofs option 'cache=auto'"

# ---- quoted values: an MLS context as libmount passes it ---------------------
# (the quotes go to the kernel; -v escapes them as strace does: \")
call mount/quotes/mls-context mount.vboxsf s /d -o 'context="system_u:object_r:tmp_t:s0,c1"' \
	"$V, \"context=\\\"system_u:object_r:tmp_t:s0,c1\\\"\")"
call mount/quotes/between-options mount.9p t /d -o 'cache=loose,context="u:r:t:s0:c1,c2",ro' \
	'mount("t", "/d", "9p", MS_RDONLY, "cache=loose,context=\"u:r:t:s0:c1,c2\",trans=virtio,version=9p2000.L,msize=512000")'
refuse mount/quotes/open-quote mount.vboxsf s /d -o 'uid=1,context="u:r:t:s0,c1' 1 \
	"bad option 'context=\"u:r:t:s0,c1': unclosed double quote"

# ---- 4 KiB and beyond: a clear error, never truncated data ----------------
long=$(head -c 4091 /dev/zero | tr '\0' a)
call mount/long/4095-bytes-fit mount.vboxsf s /d -o "nls=$long" "$V, \"nls=$long\")"
refuse mount/long/4096-bytes-refused mount.vboxsf s /d -o "nls=${long}a" 1 "would be 4096 bytes, the kernel takes at most 4095"
refuse mount/long/8k-refused mount.9p t /d -o "aname=$long$long" 1 "the kernel takes at most 4095"
call mount/long/8k-of-fstab-words mount.vboxsf s /d -o "$(printf 'nofail,%.0s' $(seq 1200))uid=3" "$V, \"uid=3\")"
if command -v strace >/dev/null; then
	n=$(strace -f -e trace=mount "$T/mount.vboxsf" s /d -o "nls=${long}a" 2>&1 | grep -c '^mount(')
	check mount/long/no-mount-call-when-too-long 0 "$n"
fi

# ---- names from /etc/passwd and /etc/group (private mount namespace) -----
if need_root mount/names; then
	cat >"$T/passwd" <<-'EOF'
	root:x:0:0:root:/root:/bin/sh
	tuser:x:4321:4321::/home/tuser:/bin/sh
	tuser2:x:4322:4321::/home/tuser2:/bin/sh
	EOF
	cat >"$T/group" <<-'EOF'
	root:x:0:
	tgroup:x:8765:tuser
	EOF
	export T V
	unshare -m bash -c '
		. "'"$TOP"'/tests/lib.sh"
		mount --bind "$T/passwd" /etc/passwd && mount --bind "$T/group" /etc/group || exit 3
		c() { local name=$1 exp=${!#}; out=$("${@:2:$#-2}" -f -v 2>&1); check "$name" "$exp" "$out"; }
		c mount/names/uid-gid "$T/mount.vboxsf" s /d -o uid=tuser,gid=tgroup "$V, \"uid=4321,gid=8765\")"
		c mount/names/tuser2-not-prefix "$T/mount.vboxsf" s /d -o uid=tuser2 "$V, \"uid=4322\")"
		c mount/names/numbers-untouched "$T/mount.vboxsf" s /d -o uid=0099,gid=1 "$V, \"uid=99,gid=1\")"
		c mount/names/9p-dflt "$T/mount.9p" t /d -o dfltuid=tuser,dfltgid=tgroup,access=tuser \
			"mount(\"t\", \"/d\", \"9p\", 0, \"dfltuid=4321,dfltgid=8765,access=4321,trans=virtio,version=9p2000.L,msize=512000\")"
		out=$("$T/mount.vboxsf" s /d -f -o uid=nosuch 2>&1); rc=$?
		[ $rc = 1 ] && [[ $out == *"bad option '"'"'uid=nosuch'"'"': no such user in /etc/passwd"* ]] &&
			pass mount/names/unknown-user || fail mount/names/unknown-user "exit $rc: $out"
		out=$("$T/mount.vboxsf" s /d -f -o gid=tuser 2>&1); rc=$?
		[ $rc = 1 ] && [[ $out == *"no such group in /etc/group"* ]] &&
			pass mount/names/user-is-not-group || fail mount/names/user-is-not-group "exit $rc: $out"
		mount --bind /dev/null /etc/group
		out=$("$T/mount.vboxsf" s /d -f -o gid=tgroup 2>&1); rc=$?
		[ $rc = 1 ] && [[ $out == *"no such group"* ]] && pass mount/names/empty-group-file ||
			fail mount/names/empty-group-file "exit $rc: $out"
		chmod 000 "$T/passwd"
		out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$T/mount.vboxsf" s /d -f -o uid=tuser 2>&1); rc=$?
		[ $rc = 2 ] && [[ $out == *"option '"'"'uid=tuser'"'"': cannot read /etc/passwd: Permission denied"* ]] &&
			pass mount/names/unreadable-passwd-is-system-error ||
			fail mount/names/unreadable-passwd-is-system-error "exit $rc: $out"
	' || fail mount/names "the namespace test could not run (exit $?)"
fi

# ---- -N: the mount happens in the given namespace ---------------------------
if need_root mount/namespace && command -v strace >/dev/null; then
	unshare -m sleep 30 &
	nspid=$!
	sleep 0.3
	out=$(strace -f -e trace=setns,mount -e inject=mount:retval=0 "$T/mount.9p" t /d -N "$nspid" 2>&1)
	if grep -Eq 'setns\(3, CLONE_NEWNS\) += 0' <<<"$out" && grep -q '^mount("t", "/d", "9p"' <<<"$out"; then
		pass mount/namespace/pid
	else
		fail mount/namespace/pid "no setns before mount" "$out"
	fi
	out=$(strace -f -e trace=openat,setns,mount -e inject=mount:retval=0 "$T/mount.9p" t /d -N "/proc/$nspid/ns/mnt" 2>&1)
	grep -q "/proc/$nspid/ns/mnt" <<<"$out" && grep -Eq 'setns\(3, CLONE_NEWNS\) += 0' <<<"$out" &&
		pass mount/namespace/path || fail mount/namespace/path "$out"
	kill "$nspid" 2>/dev/null
	wait "$nspid" 2>/dev/null
fi
exit 0
