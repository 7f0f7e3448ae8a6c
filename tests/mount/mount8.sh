#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/mount/mount8.sh - the helpers as util-linux mount(8) runs them.
#
# In a private mount namespace the helpers are made visible at
# /sbin/mount.TYPE (an overlay of a scratch directory over the directory
# /sbin resolves to; /sbin is usually a link to usr/sbin), then real
# `mount -t vboxsf|9p|virtiofs ...` and fstab lines (`mount -T FSTAB`) run
# under `strace -f -e trace=mount -e inject=mount:retval=0`: the mount(2)
# call the helper makes is checked exactly, without a hypervisor. Each
# errno a mount can fail with is injected to check its message and exit 32.
. "$(dirname "$0")/../lib.sh"

need_root mount/mount8 || exit 0
for tool in strace unshare mount; do
	if ! command -v $tool >/dev/null; then
		skip mount/mount8 "$tool not installed (Debian: strace util-linux mount)"
		exit 0
	fi
done
if ! mount --version 2>/dev/null | grep -q util-linux; then
	skip mount/mount8 "mount(8) is not util-linux's"
	exit 0
fi

T=$(scratch mount8)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/sbin" "$T/mnt" "$T/root"
for a in mount.vboxsf mount.9p mount.virtiofs; do
	ln -s "$FORKLESS" "$T/sbin/$a"
done
cat >"$T/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/sh
tuser:x:4321:4321::/home/tuser:/bin/sh
EOF
cat >"$T/group" <<'EOF'
root:x:0:
tgroup:x:8765:tuser
EOF
cat >"$T/fstab" <<EOF
# fstab lines as people write them for shared folders
share   $T/mnt  vboxsf  nofail,_netdev,relatime,uid=tuser,gid=tgroup,dmode=750  0 0
hostshare $T/mnt/9p 9p  nofail,_netdev,relatime,cache=loose,x-systemd.automount 0 0
vfs     $T/mnt/vfs virtiofs defaults,nofail,dax=inode 0 0
xen9p   $T/mnt/xen 9p   trans=xen,noauto,ro 0 0
EOF
mkdir -p "$T/mnt/9p" "$T/mnt/vfs" "$T/mnt/xen"

# The install path: with /sbin a link to usr/sbin (merged /usr), the link
# `forkless --install -s` makes must resolve to the binary.
ln -s usr/sbin "$T/root/sbin"
if "$FORKLESS" --install -s "$T/root" >/dev/null 2>&1; then
	for a in mount.vboxsf mount.9p mount.virtiofs; do
		got=$(cd "$T/root" && readlink -f "sbin/$a")
		check "mount/install/$a-via-sbin-link" "$(readlink -f "$T/root/usr/bin/forkless")" "$got"
	done
else
	fail mount/install "forkless --install -s failed"
fi

export T FORKLESS TOP
cat >"$T/ns.sh" <<'NS'
. "$TOP/tests/lib.sh"
. "$TOP/tests/mount/lib-mount.sh"
sbindir=$(readlink -f /sbin)
mount --make-rprivate / 2>/dev/null
if ! mount -t overlay overlay -o "lowerdir=$T/sbin:$sbindir" "$sbindir" 2>"$T/ovl.err"; then
	skip mount/mount8 "cannot overlay $sbindir: $(cat "$T/ovl.err")"
	exit 0
fi
mount --bind "$T/passwd" /etc/passwd
mount --bind "$T/group" /etc/group
[ -x /sbin/mount.vboxsf ] || { fail mount/mount8/setup "/sbin/mount.vboxsf not visible"; exit 0; }

M=$T/mnt
mounts mount/mount8/vboxsf "mount(\"share\", \"$M\", \"vboxsf\", MS_NODEV, \"uid=4321\")" \
	mount -t vboxsf -o uid=tuser share "$M"
mounts mount/mount8/vboxsf-fstab-words "mount(\"share\", \"$M\", \"vboxsf\", MS_NODEV|MS_RELATIME, \"uid=4321,gid=8765\")" \
	mount -t vboxsf -o nofail,_netdev,relatime,uid=tuser,gid=tgroup share "$M"
mounts mount/mount8/vboxsf-ro "mount(\"share\", \"$M\", \"vboxsf\", MS_RDONLY|MS_NOSUID|MS_NODEV, \"ttl=100\")" \
	mount -r -t vboxsf -o nosuid,ttl=100 share "$M"
mounts mount/mount8/vboxsf-user "mount(\"share\", \"$M\", \"vboxsf\", MS_NOSUID|MS_NODEV|MS_NOEXEC, NULL)" \
	mount -t vboxsf -o user share "$M"
mounts mount/mount8/9p-defaults "mount(\"hostshare\", \"$M\", \"9p\", 0, \"trans=virtio,version=9p2000.L,msize=512000\")" \
	mount -t 9p hostshare "$M"
mounts mount/mount8/9p-options "mount(\"hostshare\", \"$M\", \"9p\", MS_NOATIME, \"cache=loose,dfltuid=4321,trans=virtio,version=9p2000.L,msize=512000\")" \
	mount -t 9p -o noatime,cache=loose,dfltuid=tuser hostshare "$M"
mounts mount/mount8/virtiofs "mount(\"vfs\", \"$M\", \"virtiofs\", 0, \"dax=always\")" \
	mount -t virtiofs -o dax=always vfs "$M"
mounts mount/mount8/fstab-vboxsf "mount(\"share\", \"$M\", \"vboxsf\", MS_NODEV|MS_RELATIME, \"uid=4321,gid=8765,dmode=0750\")" \
	mount -T "$T/fstab" "$M"
mounts mount/mount8/fstab-9p "mount(\"hostshare\", \"$M/9p\", \"9p\", MS_RELATIME, \"cache=loose,trans=virtio,version=9p2000.L,msize=512000\")" \
	mount --fstab "$T/fstab" "$M/9p"
mounts mount/mount8/fstab-virtiofs "mount(\"vfs\", \"$M/vfs\", \"virtiofs\", 0, \"dax=inode\")" \
	mount -T "$T/fstab" "$M/vfs"
case $(printf '%s\n' "$(uname -r)" 5.8 | sort -V | head -1) in
5.8) xm=262144 ;; *) xm=65536 ;;
esac
mounts mount/mount8/fstab-9p-xen "mount(\"xen9p\", \"$M/xen\", \"9p\", MS_RDONLY, \"trans=xen,version=9p2000.L,msize=$xm\")" \
	mount -T "$T/fstab" "$M/xen"
# mount -a with the fstab: every line but the noauto one, one helper each
mount_calls mount -a -T "$T/fstab"
got=$(sort "$T/calls" | tr '\n' '|')
want=$(printf '%s\n' "mount(\"share\", \"$M\", \"vboxsf\", MS_NODEV|MS_RELATIME, \"uid=4321,gid=8765,dmode=0750\")" \
	"mount(\"hostshare\", \"$M/9p\", \"9p\", MS_RELATIME, \"cache=loose,trans=virtio,version=9p2000.L,msize=512000\")" \
	"mount(\"vfs\", \"$M/vfs\", \"virtiofs\", 0, \"dax=inode\")" | sort | tr '\n' '|')
[ "$RC" = 0 ] && check mount/mount8/fstab-mount-a "$want" "$got" || fail mount/mount8/fstab-mount-a "exit $RC: $(cat "$T/err")"

# -s, -f, -v as mount(8) passes them on
mount_calls mount -s -t vboxsf -o foo,uid=1 share "$M"
[ "$RC" = 0 ] && [ "$got" = "mount(\"share\", \"$M\", \"vboxsf\", MS_NODEV, \"uid=1\")" ] &&
	grep -q "ignoring unknown option 'foo' (-s)" "$T/err" && pass mount/mount8/sloppy ||
	fail mount/mount8/sloppy "exit $RC, call '$got'" "$(cat "$T/err")"
mount_calls mount -f -t 9p hostshare "$M"
[ "$RC" = 0 ] && [ -z "$got" ] && pass mount/mount8/fake-no-mount-call ||
	fail mount/mount8/fake-no-mount-call "exit $RC, call '$got'"
mount_calls mount -v -t virtiofs vfs "$M"
grep -qF "mount(\"vfs\", \"$M\", \"virtiofs\", 0, NULL)" "$T/out" && pass mount/mount8/verbose-prints-call ||
	fail mount/mount8/verbose-prints-call "stdout: $(cat "$T/out")"
mount_calls mount -t vboxsf -o uid=1,bogus share "$M"
[ "$RC" = 1 ] && [ -z "$got" ] && grep -q "unknown vboxsf option 'bogus'" "$T/err" &&
	pass mount/mount8/bad-option-exit-1 || fail mount/mount8/bad-option-exit-1 "exit $RC: $(cat "$T/err")"
mount_calls mount -t vboxsf -o "nls=$(head -c 5000 /dev/zero | tr '\0' a)" share "$M"
[ "$RC" = 1 ] && [ -z "$got" ] && grep -q "the kernel takes at most 4095" "$T/err" &&
	pass mount/mount8/too-long-exit-1 || fail mount/mount8/too-long-exit-1 "exit $RC: $(cat "$T/err")"

# ---- each errno of mount(2): the message and exit 32 ---------------------
# errno TYPE SOURCE ERRNO NAME PATTERN
errno_msg() {
	strace -f -qq -o /dev/null -e trace=mount -e inject=mount:error=$3 \
		mount -t "$1" "$2" "$M" >"$T/out" 2>"$T/err"
	local rc=$?
	exit_seen "mount.$1" "$rc"   # (mount(8) passes the helper's status on)
	if [ $rc != 32 ]; then
		fail "mount/errno/$4" "exit $rc, expected 32" "$(cat "$T/err")"
	elif ! grep -qF -- "$5" "$T/err"; then
		fail "mount/errno/$4" "message does not say '$5'" "$(cat "$T/err")"
	else
		pass "mount/errno/$4"
	fi
}
if grep -qw vboxsf /proc/filesystems; then
	errno_msg vboxsf share ENODEV vboxsf-ENODEV "cannot reach the VirtualBox guest device"
else
	errno_msg vboxsf share ENODEV vboxsf-ENODEV "does not know filesystem type vboxsf: load its module (modprobe vboxsf)"
fi
grep -qw 9p /proc/filesystems ||
	errno_msg 9p tag ENODEV 9p-ENODEV "load its module (modprobe 9p 9pnet_virtio)"
grep -qw virtiofs /proc/filesystems ||
	errno_msg virtiofs tag ENODEV virtiofs-ENODEV "(modprobe virtiofs)"
for e in ENOENT ENXIO EPROTO; do
	errno_msg vboxsf myshare $e vboxsf-$e "the host has no shared folder named 'myshare': define it in the VM settings"
done
errno_msg 9p mytag ENOENT 9p-ENOENT "no virtio 9p device has the mount tag 'mytag' (mount-shared -l lists the tags)"
errno_msg 9p mytag EPROTONOSUPPORT 9p-EPROTONOSUPPORT "no 9p transport module loaded (modprobe 9pnet_virtio)"
for t in vboxsf 9p virtiofs; do
	errno_msg $t s EINVAL $t-EINVAL "dmesg | tail"
	errno_msg $t s EBUSY $t-EBUSY "$M is busy, or s is already mounted there"
	errno_msg $t s EPERM $t-EPERM "mounting needs root"
	errno_msg $t s EACCES $t-EACCES "mounting needs root"
	errno_msg $t s ENOMEM $t-other "Out of memory"
done
errno_msg virtiofs s EINVAL virtiofs-EINVAL-tag "no virtio-fs device has this tag"
errno_msg 9p s ENOTDIR 9p-ENOTDIR "is not a directory"
# A missing mount point, helper called directly (mount(8) checks it first).
out=$(strace -f -qq -o /dev/null -e trace=mount -e inject=mount:error=ENOENT \
	/sbin/mount.vboxsf share "$M/nonexistent" 2>&1)
rc=$?
exit_seen mount.vboxsf "$rc"
[ $rc = 32 ] && [[ $out == *"mount point $M/nonexistent: No such file or directory"* ]] &&
	pass mount/errno/missing-mount-point || fail mount/errno/missing-mount-point "exit $rc: $out"

# ---- the budget: a numeric-uid vboxsf mount, execve to exit_group --------
# (not for a sanitizer build, whose runtime makes syscalls of its own)
if [ -z "${FORKLESS_SANITIZED:-}" ]; then
strace -qq -o "$T/all" -e inject=mount:retval=0 /sbin/mount.vboxsf share "$M" -o rw,uid=1000,gid=1000
n=$(grep -c . "$T/all")
if [ "$n" -le 8 ] && head -1 "$T/all" | grep -q '^execve' && grep -q '^exit_group' "$T/all"; then
	pass "mount/budget/vboxsf-numeric-$n-syscalls"
else
	fail mount/budget/vboxsf-numeric "$n syscalls (budget 8)" "$(cat "$T/all")"
fi
info "numeric-uid vboxsf mount: $n syscalls: $(sed 's/(.*//' "$T/all" | tr '\n' ' ')"
strace -qq -o "$T/all" -e inject=mount:retval=0 /sbin/mount.vboxsf share "$M" -o uid=tuser,gid=tgroup
n=$(grep -c . "$T/all")
extra=$(grep -Evc '^(execve|arch_prctl|set_tid_address|mount|exit_group)\(' "$T/all")
pw=$(grep -Ec '^(openat|read|close)\(' "$T/all")
[ "$extra" = "$pw" ] && [ "$pw" -le 6 ] && pass mount/budget/names-add-only-passwd-group-reads ||
	fail mount/budget/names-add-only-passwd-group-reads "$(cat "$T/all")"
fi
NS
unshare -m bash "$T/ns.sh" </dev/null || fail mount/mount8 "the namespace script exited with status $?"
exit 0
