#!/bin/busybox sh
# SPDX-License-Identifier: MIT
# tests/vm/toolstack/noshell.sh — a dom0 with no shell and no python3 at all (the Xen boot
# "noshell" of tests/vm/run; tests/vm/guest/init.sh runs it with busybox sh, OUTSIDE the
# dom0 root, after mounting /proc, /sys, /dev, /run, /tmp and the xenout and xensave shares
# in it). The root is the real Debian dom0 of the Xen boot (tests/vm/xenroot) with
# every shell (sh, dash, bash, rbash), python3 and start-stop-daemon replaced by
# tests/vm/tripwire (it records who ran it and exits 127). Each step below is one program
# run in the root by `chroot`, under `strace -f` (its forks and execs; with --seccomp-bpf the
# daemons it leaves run at full speed; noshell-STEP.trace in the xenout share):
#   0. Debian's /etc/init.d/xen start fails at its first step (its #!/bin/sh is the
#      tripwire): the proof is not empty
#   1. forkless --install -s /, the backend modules by modprobe (what udev loads on a host)
#   2. xencommons start: modules, xenfs, oxenstored, xen-init-dom0, xenconsoled
#   3. xl list, xl info, xentop, xenstore-read through the wrapper; xen-init-list
#   4. three domUs (PV, ns-1 PVH; a vif on xenbr0, a file: disk) in /etc/xen/auto: xendomains start
#      creates them; each reports on its console (domu-init.sh, mode seed), writes its disk
#      and answers ping6 from dom0; xen-init-name names their configs
#   5. xendomains stop saves them (the xensave share), xendomains start restores them: the
#      same boot (marker), pinging again; XENDOMAINS_PARALLEL=2, so that make check (whose
#      seed scenario runs one at a time, dom0.sh) has the applet's N-at-a-time actions in a
#      real dom0
#   6. live migration with no shell at either end: ns-1 (PVH) moved to localhost over ssh
#      (migrate-ssh.sh), xl's `sh -c` taken by forkless's sh, sshd running
#      xen-migrate-shell as the receiving account's login shell; the same boot after, its
#      new vif answering ping6
#   7. xl destroy each
# forkless is tests/vm/run's build for this boot: dom0_defconfig with XEN_MIGRATE_SHELL_SH,
# so that `forkless --install` makes /bin/sh forkless's sh. Then: no execve of a shell
# (but that sh), python3 or start-stop-daemon in any trace, the tripwire log empty, and
# no `sh -c` refused in the syslog (nothing else asked for a shell). Results: VMTEST lines
# on the console.
B=/bin/busybox X=/xen
V=$X/vmtest O=$X/vmtest/out T=/tmp/noshell
TOKEN=$(cat $V/token 2>/dev/null || echo notoken)
TMO=240      # seconds for one step or one guest milestone (TCG is slow)
NAMES="ns-1 ns-2 ns-3"
XD=/usr/lib/xen-common/bin/xendomains
XC=/usr/lib/xen-common/bin/xencommons
F=forkless-noshell   # in $V: dom0_defconfig with XEN_MIGRATE_SHELL_SH (tests/vm/run)
$B mkdir -p $T
# the applets this boot needs (a build configured without them has nothing to prove here)
for a in xencommons xendomains xen-init-list xen-init-name vif-bridge block xen-migrate-shell sh; do
	$V/$F --list | $B grep -qx $a && continue
	echo "VMTEST SKIP noshell: forkless was built without $a"
	exit 0
done

pass() { echo "VMTEST PASS $1"; }
fail() { n=$1; shift; echo "VMTEST FAIL $n: $*"; }
info() { echo "VMTEST INFO $*"; }
oneline() { $B tr '\n' '|' <"$1" 2>/dev/null | $B head -c 300; }

# in_root STEP PROGRAM ARGS...: PROGRAM run in the root under strace -f (forks and execs),
# its output in $T/STEP.log, its status in RC once PROGRAM itself has ended: strace goes on
# in the background while what it started lives (the domains' xl daemons), and the rest
# of a domain's life (its devices' remove calls) lands in the same trace
STEPS=
in_root() {
	s=$1
	shift
	STEPS="$STEPS $s"
	tr=$O/noshell-$s.trace
	$B rm -f $tr
	$B chroot $X /usr/bin/strace -f -q -ttt --seccomp-bpf -e trace=clone,clone3,fork,vfork,execve \
		-o /vmtest/out/noshell-$s.trace \
		"$@" >$T/$s.log 2>&1 </dev/null &
	k=0 RC=124 pid=
	while [ $k -lt $((TMO * 5)) ]; do
		[ -n "$pid" ] || pid=$($B head -n 1 $tr 2>/dev/null | $B awk '$3 ~ /^execve/ { print $1 }')
		l=
		[ -z "$pid" ] || l=$($B grep -aE "^$pid +[0-9.]+ \+\+\+ (exited with|killed by) " $tr 2>/dev/null)
		case $l in
		*"exited with "*) RC=$(echo "$l" | $B sed 's/.*exited with \([0-9]*\).*/\1/'); return ;;
		*"killed by "*) RC=137; return ;;
		esac
		$B sleep 0.2
		k=$((k + 1))
	done
}
# plain PROGRAM ARGS...: a program in the root, untraced (the driver's own look around)
plain() { $B timeout 60 $B chroot $X "$@" </dev/null; }

# ---- the root without shells ------------------------------------------------------------
tripped=
for p in /bin/sh /bin/dash /bin/bash /bin/rbash /usr/bin/python3 /sbin/start-stop-daemon; do
	t=$(plain readlink -f $p 2>/dev/null)
	[ -n "$t" ] && [ -f "$X$t" ] || continue
	case " $tripped " in *" $t "*) continue ;; esac
	$B mv "$X$t" "$X$t.noshell" && $B cp $V/tripwire "$X$t" && tripped="$tripped $t"
done
for p in $X/usr/bin/python3.*; do
	case $p in *.noshell) continue ;; esac
	[ -f "$p" ] && ! $B cmp -s "$p" $V/tripwire || continue
	$B mv "$p" "$p.noshell" && $B cp $V/tripwire "$p" && tripped="$tripped ${p#$X}"
done
info "replaced by the tripwire:$tripped"
case "$tripped" in
*/bash*) ;;
*) fail tripwires "bash not replaced (only:$tripped)" ;;
esac
: >$O/tripwire.log

# 0. Debian's init script cannot run here
$B timeout 60 $B chroot $X /etc/init.d/xen start >$T/debian-xen.log 2>&1 </dev/null
rc=$?
if [ $rc = 127 ] && $B grep -q "TRIPWIRE /bin/sh /etc/init.d/xen" $O/tripwire.log; then
	pass debian-init-script-cannot-run
else
	fail debian-init-script-cannot-run "rc=$rc (want 127, its /bin/sh the tripwire); tripwire log: $(oneline $O/tripwire.log); output: $(oneline $T/debian-xen.log)"
fi
: >$O/tripwire.log

# 1. forkless in place of Debian's scripts (the hotplug scripts diverted as the package does)
for p in $($V/$F --list-full); do
	case $p in etc/xen/scripts/*) [ -f "$X/$p" ] && $B mv "$X/$p" "$X/$p.distrib" ;; esac
done
in_root install /vmtest/$F --install -s /
[ $RC = 0 ] && [ "$($B readlink -f $X/usr/sbin/xl)" = $X/usr/bin/forkless ] && pass install ||
	fail install "rc=$RC: $(oneline $T/install.log)"
# the hotplug stamp, as README's no-shell install writes it (forkless-xen's postinst)
in_root stamp /vmtest/$F vif-bridge --stamp
[ $RC = 0 ] && [ -s $X/var/lib/forkless/hotplug-stamp ] && pass stamp ||
	fail stamp "rc=$RC: $(oneline $T/stamp.log)"
$B mkdir -p $X/run/lock $X/var/log/xen $X/var/lib/xen/images $X/etc/xen/auto
bad=
for m in xen-netback xen-blkback xen-gntalloc bridge loop; do
	in_root modprobe-$m /sbin/modprobe $m
	[ $RC = 0 ] || bad="$bad $m"
done
[ -z "$bad" ] && pass backend-modules || fail backend-modules "modprobe failed:$bad"

# 2. the toolstack started by the applet
read -r t0 _ </proc/uptime
in_root xencommons-start $XC start
read -r t1 _ </proc/uptime
pid=$(cat $X/run/xenstore.pid 2>/dev/null)
exe=$($B readlink /proc/$pid/exe 2>/dev/null)
cpid=$(cat $X/run/xenconsoled.pid 2>/dev/null)
cexe=$($B readlink /proc/$cpid/exe 2>/dev/null)
name=$(plain /usr/bin/xenstore-read /local/domain/0/name 2>&1)
oom=$(cat /proc/$pid/oom_score_adj 2>/dev/null)
if [ $RC = 0 ] && [ "$name" = Domain-0 ] && [ "${exe##*/}" = oxenstored ] && [ "${cexe##*/}" = xenconsoled ]; then
	pass xencommons-start
	# as Debian's `choom -n -1000`: xenstored is the last process the OOM killer may pick
	[ "$oom" = -1000 ] && pass xenstored-oom-score-adj ||
		fail xenstored-oom-score-adj "xenstored's oom_score_adj is [$oom], not -1000"
else
	fail xencommons-start "rc=$RC xenstored=[$exe] xenconsoled=[$cexe] /local/domain/0/name=[$name]; output: $(oneline $T/xencommons-start.log)"
	info "no toolstack: the rest is not run"
	exit 1
fi
info "xencommons start: $(echo "$t0 $t1" | $B awk '{ printf "%.1f", $2 - $1 }') s (traced); output: $(oneline $T/xencommons-start.log)"

# 3. the tools
in_root xl-list /usr/sbin/xl list
[ $RC = 0 ] && $B grep -q '^Domain-0 ' $T/xl-list.log && pass xl-list || fail xl-list "rc=$RC: $(oneline $T/xl-list.log)"
in_root xl-info /usr/sbin/xl info
[ $RC = 0 ] && $B grep -q '^xen_version' $T/xl-info.log && pass xl-info || fail xl-info "rc=$RC: $(oneline $T/xl-info.log)"
in_root xentop /usr/sbin/xentop -b -i 1
[ $RC = 0 ] && $B grep -q 'Domain-0' $T/xentop.log && pass xentop || fail xentop "rc=$RC: $(oneline $T/xentop.log)"
in_root xen-init-list-0 /usr/lib/xen-common/bin/xen-init-list
[ $RC = 0 ] && pass xen-init-list-dom0-only || fail xen-init-list-dom0-only "rc=$RC: $(oneline $T/xen-init-list-0.log)"

# 4. three domUs from /etc/xen/auto, by the xendomains applet
$B ip link add xenbr0 type bridge && $B ip link set xenbr0 up || fail bridge "ip link add xenbr0 failed"
$B gunzip -c $V/domu/vmlinux.gz >$X/run/domu-vmlinux
for n in $NAMES; do
	img=/var/lib/xen/images/$n.img
	$B rm -f $X$img && $B truncate -s 8M $X$img
	printf 'SEED-DISK first %s\n' $n | $B dd of=$X$img bs=512 count=1 conv=notrunc,sync 2>/dev/null
	# ns-1 is PVH: it is the one migrated (step 6), and Debian's Xen has no shadow
	# paging, which a PV guest's live migration needs (migrate.sh)
	type=pv mem=96
	[ $n = ns-1 ] && type=pvh mem=128
	cat >$X/etc/xen/auto/$n.cfg <<-CFG
	name = "$n"
	type = "$type"
	kernel = "/run/domu-vmlinux"
	ramdisk = "/vmtest/domu/initrd.gz"
	extra = "console=hvc0 quiet panic=-1 fltest.mode=seed fltest.token=$TOKEN-$n"
	memory = $mem
	vcpus = 1
	vif = [ 'bridge=xenbr0' ]
	disk = [ 'file:$img,xvda,w' ]
	on_poweroff = "destroy"
	on_reboot = "destroy"
	on_crash = "destroy"
	CFG
done
cat >$X/etc/default/xendomains <<-CFG
XENDOMAINS_MIGRATE=""
XENDOMAINS_SAVE=/var/lib/xen/save
XENDOMAINS_RESTORE=true
XENDOMAINS_AUTO=/etc/xen/auto
XENDOMAINS_STOP_MAXWAIT=$TMO
XENDOMAINS_PARALLEL=2
CFG
in_root xd-create $XD start
bad=
for n in $NAMES; do plain /usr/sbin/xl domid $n >/dev/null 2>&1 || bad="$bad $n"; done
[ $RC = 0 ] && [ -z "$bad" ] && pass xendomains-create ||
	fail xendomains-create "rc=$RC; not running:$bad; output: $(oneline $T/xd-create.log)"
bad=
for n in $NAMES; do
	in_root xen-init-name-$n /usr/lib/xen-common/bin/xen-init-name /etc/xen/auto/$n.cfg
	[ $RC = 0 ] && [ "$(cat $T/xen-init-name-$n.log)" = $n ] || bad="$bad $n:[$(oneline $T/xen-init-name-$n.log)]"
done
[ -z "$bad" ] && pass xen-init-name || fail xen-init-name "$bad"
in_root xen-init-list-3 /usr/lib/xen-common/bin/xen-init-list
[ $RC = 0 ] && [ "$($B awk '{ print $2 }' $T/xen-init-list-3.log | $B tr '\n' ' ')" = "ns-1 ns-2 ns-3 " ] &&
	pass xen-init-list || fail xen-init-list "rc=$RC: $(oneline $T/xen-init-list-3.log)"

# query NAME [TEXT]: the guest's last DOMU-SEED report (with TEXT: one holding it) in ANS,
# through `xl console` (run in the root, untraced: the driver's), within TMO
$B mkfifo $T/cin
$B sleep 3600 >$T/cin &
query() {
	c=$O/noshell-console-$1.txt
	: >$c
	ANS=
	k=0
	while [ $k -lt $((TMO / 5)) ]; do
		$B timeout 5 $B chroot $X /usr/sbin/xl console $1 <$T/cin >>$c 2>&1
		ANS=$($B tr -d '\r' <$c | $B grep -a 'DOMU-SEED marker=.*]$' | $B tail -n 1)
		[ -n "$ANS" ] && { [ -z "${2:-}" ] || case $ANS in *"$2"*) true ;; *) false ;; esac; } && break
		k=$((k + 1))
	done
	[ -n "$ANS" ]
}
field() { echo "$ANS" | $B sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
# ping NAME: dom0 pings the guest's link-local address (ANS) over xenbr0
ping_guest() { $B ping6 -c 1 -w 20 -I xenbr0 "$(field ll)" >$T/ping-$1.txt 2>&1; }

up= pinged= wrote=
for n in $NAMES; do
	if query $n; then
		eval "mark_$($B echo $n | $B tr - _)=$(field marker)"
		ping_guest $n || pinged="$pinged $n"
		w=$($B dd if=$X/var/lib/xen/images/$n.img bs=512 skip=1 count=1 2>/dev/null | $B head -n 1)
		[ "$w" = "DOMU-WROTE $TOKEN-$n" ] || wrote="$wrote $n:[$w]"
	else
		up="$up $n"
	fi
done
[ -z "$up" ] && pass guests-up || fail guests-up "no report on the console of:$up ($(oneline $O/noshell-console-${up##* }.txt))"
[ -z "$pinged" ] && [ -z "$up" ] && pass guests-ping6 || fail guests-ping6 "no answer from:$pinged"
[ -z "$wrote" ] && [ -z "$up" ] && pass guests-wrote-disk || fail guests-wrote-disk "second block of the image:$wrote"

# 5. saved and restored by the applet
in_root xd-stop $XD stop
k=0
for f in $X/var/lib/xen/save/*; do [ -f "$f" ] && [ "$($B stat -c %s "$f")" -gt 1048576 ] && k=$((k + 1)); done
[ $RC = 0 ] && [ $k = 3 ] && pass xendomains-save ||
	fail xendomains-save "rc=$RC; $k images; output: $(oneline $T/xd-stop.log)"
in_root xd-restore $XD start
bad= same= pinged=
for n in $NAMES; do plain /usr/sbin/xl domid $n >/dev/null 2>&1 || bad="$bad $n"; done
[ $RC = 0 ] && [ -z "$bad" ] && pass xendomains-restore ||
	fail xendomains-restore "rc=$RC; not running:$bad; output: $(oneline $T/xd-restore.log)"
for n in $NAMES; do
	eval "m=\$mark_$($B echo $n | $B tr - _)"
	if query $n && [ -n "$m" ] && [ "$(field marker)" = "$m" ]; then
		ping_guest $n || pinged="$pinged $n"
	else
		same="$same $n:$m/$(field marker)"
	fi
done
[ -z "$same" ] && pass restored-same-boot || fail restored-same-boot "marker before/after:$same"
[ -z "$pinged" ] && [ -z "$same" ] && pass restored-ping6 || fail restored-ping6 "no answer from:$pinged"

# 6. live migration with no shell at either end (migrate-ssh.sh: sshd, the account, keys)
. $V/migrate-ssh.sh
# hotplug N TRACE: the calls of script N a trace started
hotplug() { $B grep -c "execve(\"/etc/xen/scripts/$1\"," $2; }
# (readlink -f: `chroot` is busybox's, which runs its own readlink, without -e)
sh_t=$(plain readlink -f /bin/sh)
if [ "$sh_t" != /usr/bin/forkless ] || [ ! -f $X/usr/bin/forkless ]; then
	fail migrate-bin-sh "/bin/sh is [$sh_t], not forkless's sh"
elif ! MB=$B mig_ssh_setup $X $B chroot $X; then
	fail migrate-sshd "$MIG_WHY"
else
	pass migrate-bin-sh
	# sshd and what it runs traced until the end (its sessions, the receiving xl)
	in_root sshd /usr/sbin/sshd -f $MIG_SSHD_CONFIG
	[ $RC = 0 ] && [ -s $X/run/sshd.pid ] && pass migrate-sshd || fail migrate-sshd "rc=$RC: $(oneline $T/sshd.log)"
	id0=$(plain /usr/sbin/xl domid ns-1)
	in_root migrate /usr/sbin/xl migrate ns-1 $MIG_HOST
	id1=$(plain /usr/sbin/xl domid ns-1)
	[ $RC = 0 ] && [ -n "$id1" ] && [ "$id1" != "$id0" ] && pass xl-migrate ||
		fail xl-migrate "rc=$RC; domid $id0 -> [$id1]; output: $(oneline $T/migrate.log)"
	# the same boot, reading its disk through the new backend, its new vif answering
	printf 'MIG-DISK after-migrate ns-1 %s\n' "$TOKEN" |
		$B dd of=$X/var/lib/xen/images/ns-1.img bs=512 count=1 conv=notrunc,sync 2>/dev/null
	if query ns-1 "MIG-DISK after-migrate ns-1 $TOKEN" && [ "$(field marker)" = "$mark_ns_1" ]; then
		pass migrated-same-boot
		ping_guest ns-1 && pass migrated-ping6 || fail migrated-ping6 "$(oneline $T/ping-ns-1.txt)"
	else
		fail migrated-same-boot "marker $mark_ns_1 -> [$(field marker)]: $(oneline $O/noshell-console-ns-1.txt)"
	fi
	# each end's shell: forkless's sh ran xl's ssh command, sshd ran xen-migrate-shell
	# (which ran the real xl); a vif and a disk call on each side
	st=$O/noshell-migrate.trace rt=$O/noshell-sshd.trace bad=
	$B grep -E 'execve\("[^"]*/sh", \["sh", "-c", "exec ssh ' $st | $B grep -q ' = 0$' ||
		bad="no sh -c 'exec ssh ...' by xl"
	$B grep -q 'execve("/usr/bin/ssh", ' $st || bad="$bad; no exec of ssh"
	MB=$B mig_receiver $rt || bad="$bad; $MIG_WHY"
	[ -z "$bad" ] && pass migrate-both-ends-forkless || fail migrate-both-ends-forkless "${bad#; }"
	calls="sender vif-bridge $(hotplug vif-bridge $st) block $(hotplug block $st), receiver vif-bridge $(hotplug vif-bridge $rt) block $(hotplug block $rt)"
	info "migration's hotplug calls: $calls"
	[ "$calls" = "sender vif-bridge 1 block 1, receiver vif-bridge 1 block 1" ] && pass migrate-hotplug-both-sides ||
		fail migrate-hotplug-both-sides "$calls (want a vif-bridge and a block call each)"
	# no more sessions: its trace ends with ns-1's receiving xl, in step 7
	$B kill "$(cat $X/run/sshd.pid)" 2>/dev/null
fi

# 7. destroyed
bad=
for n in $NAMES; do
	in_root destroy-$n /usr/sbin/xl destroy $n
	[ $RC = 0 ] || bad="$bad $n:$(oneline $T/destroy-$n.log)"
done
[ -z "$bad" ] && pass xl-destroy || fail xl-destroy "$bad"
# the domains' xl daemons run their devices' remove calls (traced by xd-restore), then end
k=0
while $B pgrep -x strace >/dev/null && [ $k -lt 60 ]; do $B sleep 1; k=$((k + 1)); done

# no shell, no python3, anything the tripwires caught
progs=$($B cat $O/noshell-*.trace | $B sed -n 's/.*execve("\([^"]*\)".*/\1/p' | $B sort | $B uniq -c |
	$B awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $2, $1 }')
info "execve calls in the steps, by path: $progs"
# (a path that is not there ran nothing: execlp's tries along PATH; /bin/sh is forkless's)
bad=
for p in $($B cat $O/noshell-*.trace | $B sed -n 's/.*execve("\([^"]*\)".*/\1/p' |
	$B grep -E '/(sh|dash|bash|rbash|python3[.0-9]*|start-stop-daemon|busybox)$' | $B sort -u); do
	t=$(plain readlink -f "$p")
	[ -z "$t" ] || [ ! -e "$X$t" ] || [ "$t" = /usr/bin/forkless ] || bad="$bad $p"
done
[ -z "$bad" ] && pass no-shell-no-python-exec || fail no-shell-no-python-exec "execve of:$bad"
[ -s $O/tripwire.log ] && fail tripwire-untouched "$(oneline $O/tripwire.log)" || pass tripwire-untouched
# forkless's sh refuses and logs every command but xl's ssh: nothing else asked for a shell
$B grep 'xen-migrate-shell' $X/var/log/messages >$T/sh-refused.txt 2>/dev/null
[ -s $T/sh-refused.txt ] && fail no-sh-refused "$(oneline $T/sh-refused.txt)" || pass no-sh-refused
n=$($B cat $O/noshell-*.trace | $B grep -c 'execve(')
info "$n execve calls in $(echo $STEPS | $B wc -w) traced steps"
