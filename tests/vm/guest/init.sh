#!/bin/busybox sh
# SPDX-License-Identifier: MIT
# /init of the VM test guest (see tests/vm/run). Runs as PID 1 under busybox sh.
#
# Prints one line per check on the console, read by tests/vm/run:
#   VMTEST PASS <name>
#   VMTEST FAIL <name>: <details>
#   VMTEST INFO <text>
#   VMTEST DONE                     (last line; anything missing before it is a FAIL)
#
# Guest layout (built by tests/vm/run):
#   /bin/busybox        the test driver only. Nothing from busybox is on PATH: busybox sh
#                       runs its own applets (cat, mount, ...) by itself, so no busybox link
#                       can shadow a forkless name.
#   /usr/...            forkless, installed with `forkless --install -s /`
#   /debian/            chroot with Debian's xen-utils-common scripts at their real paths
#                       and /bin/sh = busybox: the peer to compare with
#   /vmtest/stub        stub Xen tool (stub.c), copied to /usr/lib/xen-$XV/bin/{xl,xentop}
#                       during the test; /vmtest/vmclock prints a microsecond clock
#   /vmtest/modules/    kernel modules (load order in /vmtest/modules/order)
#
# Kernel command line parameters for us: vmtest.mode=xen|noxen|noshell, vmtest.n=LOOPS
# (timing).

export PATH=/usr/sbin:/usr/bin:/sbin:/bin
B=/bin/busybox
$B mkdir -p /proc /sys /dev /tmp /mnt
$B mount -t proc proc /proc
$B mount -t sysfs sysfs /sys
$B mount -t devtmpfs devtmpfs /dev
$B mount -t tmpfs tmpfs /tmp
exec </dev/console >/dev/console 2>&1
cd /

MODE=unknown N=1000
for arg in $(cat /proc/cmdline); do
	case $arg in
	vmtest.mode=*) MODE=${arg#*=} ;;
	vmtest.n=*) N=${arg#*=} ;;
	esac
done

pass() { echo "VMTEST PASS $1"; }
fail() { n=$1; shift; echo "VMTEST FAIL $n: $*"; }
info() { echo "VMTEST INFO $*"; }
# a file's content on one line, for details
oneline() { tr '\n' '|' <"$1" | head -c 400; }
finish() {
	echo "VMTEST DONE"
	sync
	poweroff -f
	sleep 1000
}

info "mode=$MODE kernel=$(uname -r) loops=$N"

# ---- kernel modules (no modules.dep in the initramfs: insmod in order) ----
modfail=
for m in $(cat /vmtest/modules/order); do
	insmod /vmtest/modules/$m.ko 2>/tmp/insmod.err || modfail="$modfail $m($(oneline /tmp/insmod.err))"
done
[ -z "$modfail" ] && pass modules || fail modules "insmod failed:$modfail"

# the Debian dom0 root at /xen (tests/vm/xenroot) made ready to run in: its /proc, /sys,
# /dev, /run, /tmp, the xenout and xensave shares, a syslog (Xen boot and noshell boot)
X=/xen
xen_root() {
	mount -t proc proc $X/proc && mount -t sysfs sysfs $X/sys && mount -t devtmpfs devtmpfs $X/dev &&
		mkdir -p $X/dev/pts $X/dev/shm && mount -t devpts devpts $X/dev/pts &&
		mount -t tmpfs tmpfs $X/dev/shm && mount -t tmpfs -o mode=755 tmpfs $X/run &&
		mount -t tmpfs tmpfs $X/tmp || fail xen-toolstack/mounts "mounting /proc, /sys, /dev, /run, /tmp in $X failed"
	# results for the host's process table (a second 9p device, tag xenout)
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 xenout $X/vmtest/out 2>/tmp/mnt.err ||
		fail xen-toolstack/xenout "mount of the xenout share failed: $(oneline /tmp/mnt.err)"
	# xendomains' save directory (tests/vm/toolstack/seed.sh) on the host's disk, as a
	# dom0's /var/lib/xen/save is on its own: not in dom0's RAM (a third 9p device).
	# cache=loose: writes go through the page cache, as on a disk's filesystem; without
	# it 9p hands xl save's buffers (the guest's pages, mapped from Xen) to virtio as they
	# are, and every save fails "Failed to write page data to stream (14 = Bad address)"
	mkdir -p $X/var/lib/xen/save
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,cache=loose xensave $X/var/lib/xen/save 2>/tmp/mnt.err ||
		fail xen-toolstack/xensave "mount of the xensave share failed: $(oneline /tmp/mnt.err)"
	# a syslog, as on a Debian host: the hotplug scripts log with logger(1) to /dev/log
	$B syslogd -O $X/var/log/messages
}

# ---- the noshell boot: a dom0 root with no shell and no python3, driven from here, outside
# it (tests/vm/toolstack/noshell.sh); nothing else runs in this boot ----
if [ "$MODE" = noshell ]; then
	if [ -f $X/vmtest/noshell.sh ]; then
		xen_root
		$B sh $X/vmtest/noshell.sh
		sync
		umount $X/vmtest/out
		umount $X/var/lib/xen/save
	else
		fail noshell "no /xen/vmtest/noshell.sh in the initramfs"
	fi
	finish
fi
# Modules only the mount-helper checks use (the kernel's own vboxsf and
# virtiofs option parsers): loaded when the kernel ships them.
for m in fuse virtiofs vboxguest vboxsf; do
	[ -f /vmtest/modules/extra/$m.ko ] || continue
	insmod /vmtest/modules/extra/$m.ko 2>/tmp/insmod.err || info "insmod $m: $(oneline /tmp/insmod.err)"
done

# ---- the 9p share from the host ----
# (busybox's mount here; tests/vm/guest/mount.sh mounts it again through forkless's
# mount.9p and mount-shared.)
TOKEN=$(cat /proc/cmdline | tr ' ' '\n' | grep '^vmtest.token=' | cut -d= -f2)
if mount -t 9p -o trans=virtio,version=9p2000.L hostshare /mnt 2>/tmp/mnt.err; then
	got=$(cat /mnt/token 2>&1)
	[ "$got" = "$TOKEN" ] && pass 9p-share || fail 9p-share "read '$got' from /mnt/token, expected '$TOKEN'"
	# A virtio-9p channel serves one mount at a time: free it for the
	# mount-helper checks (guest/mount.sh mounts it through mount.9p).
	umount /mnt || fail 9p-share-umount "umount /mnt failed"
else
	fail 9p-share "mount failed: $(oneline /tmp/mnt.err)"
fi

# ---- forkless installed? ----
if [ ! -x /usr/bin/forkless ]; then
	fail forkless-installed "no /usr/bin/forkless in the initramfs"
	finish
fi

# The running Xen's MAJOR.MINOR (4.17 on Debian 12, 4.20 on Debian 13): the directory the
# wrappers look for. The plain boot has no hypervisor: its "installed" state is a
# xen-utils-4.17 directory that neither wrapper may reach (with no version in sysfs,
# Debian's script would look for /usr/lib/xen-.)
XV=$(cat /sys/hypervisor/version/major 2>/dev/null).$(cat /sys/hypervisor/version/minor 2>/dev/null)
[ "$XV" != . ] || XV=4.17
# ---- the Debian chroot: same /sys, /proc, /dev, /tmp and (later) /usr/lib/xen-$XV ----
for d in sys dev tmp; do mount --bind /$d /debian/$d; done
mount -t proc proc /debian/proc

# make_xen_dir: the state "xen-utils-$XV installed": /usr/lib/xen-$XV/bin with the stubs,
# seen identically by forkless (/) and by Debian's scripts (/debian)
make_xen_dir() {
	mkdir -p /usr/lib/xen-$XV/bin /debian/usr/lib/xen-$XV
	cp /vmtest/stub /usr/lib/xen-$XV/bin/xl
	cp /vmtest/stub /usr/lib/xen-$XV/bin/xentop
	mount --bind /usr/lib/xen-$XV /debian/usr/lib/xen-$XV
}

# compare NAME CMD [ARGS...]: run CMD (an absolute path) with forkless in / and with
# Debian's scripts in /debian; stdout, stderr and exit status must be identical.
# The stub's pid/ppid/fd lines differ by nature and are left out.
compare() {
	name=$1
	shift
	"$@" >/tmp/f.out 2>/tmp/f.err
	echo $? >/tmp/f.rc
	chroot /debian "$@" >/tmp/d.out 2>/tmp/d.err
	echo $? >/tmp/d.rc
	diffs=
	for s in out err rc; do
		for w in f d; do grep -Ev '^STUB (pid|ppid|fd)' /tmp/$w.$s >/tmp/$w.$s.n; done
		cmp -s /tmp/f.$s.n /tmp/d.$s.n ||
			diffs="$diffs std$s: forkless=[$(oneline /tmp/f.$s.n)] debian=[$(oneline /tmp/d.$s.n)];"
	done
	[ -z "$diffs" ] && pass "$name" || fail "$name" "${diffs#std}"
}

# exec_check NAME CMD EXPECTED_ARGV0_SUFFIX: the stub must get argv, env and fd 7 intact,
# and the same pid as the shell that exec'd CMD (no fork on the way).
echo "fd seven" >/tmp/fd7
exec_check() {
	name=$1 cmd=$2 want0=$3
	VMTEST_MARK='m a=r k' sh -c 'echo "SHPID=$$"; exec "$0" "a b" "" -x "*" c' "$cmd" \
		>/tmp/x.out 2>/tmp/x.err 7</tmp/fd7
	rc=$?
	shpid=$(grep '^SHPID=' /tmp/x.out | cut -d= -f2)
	stubpid=$(grep '^STUB pid=' /tmp/x.out | cut -d= -f2)
	argv0=$(grep '^STUB argv\[0\]=' /tmp/x.out | sed 's/^[^<]*<//; s/>$//')
	args=$(grep '^STUB argv\[[1-9]' /tmp/x.out | tr '\n' '|')
	fds=$(grep '^STUB fd ' /tmp/x.out | sed 's/^STUB fd //' | tr '\n' '|')
	why=
	[ $rc = 0 ] || why="$why exit=$rc;"
	case $argv0 in *"$want0") ;; *) why="$why argv[0]=<$argv0> does not end in $want0;" ;; esac
	[ "$args" = "STUB argv[1]=<a b>|STUB argv[2]=<>|STUB argv[3]=<-x>|STUB argv[4]=<*>|STUB argv[5]=<c>|" ] ||
		why="$why args=$args;"
	grep -q '^STUB env VMTEST_MARK=<m a=r k>$' /tmp/x.out || why="$why env marker lost;"
	[ -n "$shpid" ] && [ "$shpid" = "$stubpid" ] || why="$why pid: shell=$shpid stub=$stubpid (forked?);"
	[ "$fds" = "0 -> /dev/console|1 -> /tmp/x.out|2 -> /tmp/x.err|7 -> /tmp/fd7|" ] || why="$why fds: $fds;"
	[ -z "$why" ] && pass "$name" || fail "$name" "$why stdout=[$(oneline /tmp/x.out)] stderr=[$(oneline /tmp/x.err)]"
}

# the applets compared with Debian's scripts in the current state (suffix: state name)
compare_all() {
	st=$1
	compare "xen-version-vs-debian-$st" /usr/lib/xen-common/bin/xen-version
	compare "xen-dir-vs-debian-$st" /usr/lib/xen-common/bin/xen-dir
	compare "xl-vs-debian-$st" /usr/sbin/xl "a b" "" c
	compare "xentop-vs-debian-$st" /usr/sbin/xentop -b
	compare "xen-vs-debian-$st" /usr/sbin/xen list "a b"
	compare "xen-toolstack-vs-debian-$st" /usr/lib/xen-common/bin/xen-toolstack
	compare "xen-toolstack-wrapper-vs-debian-$st" /usr/lib/xen-common/bin/xen-toolstack-wrapper "a b"
}

NOTDIR_MSG="ERROR:  Can't find version $XV of xen utils (maybe xen-utils-$XV was already removed before rebooting out of Xen $XV), bailing out!"

if [ "$MODE" = xen ]; then
	t=$(cat /sys/hypervisor/type 2>&1)
	[ "$t" = xen ] && pass hypervisor-type || fail hypervisor-type "/sys/hypervisor/type is '$t'"
	info "xen version $(cat /sys/hypervisor/version/major).$(cat /sys/hypervisor/version/minor)$(cat /sys/hypervisor/version/extra)"

	out=$(/usr/lib/xen-common/bin/xen-version 2>/tmp/e)
	rc=$?
	[ "$out" = "$XV" ] && [ $rc = 0 ] && [ ! -s /tmp/e ] && pass xen-version ||
		fail xen-version "stdout=[$out] exit=$rc stderr=[$(oneline /tmp/e)]"

	# before /usr/lib/xen-$XV exists
	out=$(/usr/lib/xen-common/bin/xen-dir 2>/tmp/e)
	rc=$?
	[ -z "$out" ] && [ $rc = 127 ] && [ "$(cat /tmp/e)" = "$NOTDIR_MSG" ] && pass xen-dir-missing ||
		fail xen-dir-missing "stdout=[$out] exit=$rc stderr=[$(oneline /tmp/e)]"
	compare_all nodir

	make_xen_dir
	out=$(/usr/lib/xen-common/bin/xen-dir 2>/tmp/e)
	rc=$?
	[ "$out" = "/usr/lib/xen-$XV" ] && [ $rc = 0 ] && [ ! -s /tmp/e ] && pass xen-dir ||
		fail xen-dir "stdout=[$out] exit=$rc stderr=[$(oneline /tmp/e)]"
	exec_check exec-xl /usr/sbin/xl /usr/lib/xen-$XV/bin/xl
	exec_check exec-xentop /usr/sbin/xentop /usr/lib/xen-$XV/bin/xentop
	exec_check exec-xen /usr/sbin/xen /usr/lib/xen-$XV/bin/xl
	compare_all dir

	# ---- timing: N calls of `xl -q` (the stub exits at once) a side, in ten rounds of N/10
	# with the sides in turn: how fast the emulator runs moves within a boot (one run of
	# the sides one after the other had the tool's direct exec 14 ms a call against the
	# usual 6-11, and forkless's 1000 calls in that spell, the script's after it) ----
	per=$((N / 10)); [ $per -gt 0 ] || per=1
	loop='i=0; while [ $i -lt '$per' ]; do "$0" -q; i=$((i+1)); done'
	sd=0 sf=0 sb=0 r=0
	while [ $r -lt 10 ]; do
		t0=$(/vmtest/vmclock)
		sh -c "$loop" "/usr/lib/xen-$XV/bin/xl"
		t1=$(/vmtest/vmclock)
		sh -c "$loop" /usr/sbin/xl
		t2=$(/vmtest/vmclock)
		chroot /debian /bin/sh -c "$loop" /usr/sbin/xl
		t3=$(/vmtest/vmclock)
		sd=$((sd + t1 - t0)) sf=$((sf + t2 - t1)) sb=$((sb + t3 - t2)) r=$((r + 1))
	done
	n=$((per * 10))
	direct=$((sd / n)) fl=$((sf / n)) deb=$((sb / n))
	if [ $sf -gt 0 ]; then
		r10=$((sb * 10 / sf))
		info "ratio script/forkless = $((r10 / 10)).$((r10 % 10)) (forkless $fl us/call, script $deb us/call, $n calls each in ten rounds)"
		info "direct exec of the tool $direct us/call: overhead forkless $((fl - direct)) us, script $((deb - direct)) us"
	fi
	[ $sf -lt $sb ] && pass faster-than-script ||
		fail faster-than-script "forkless $fl us/call, script $deb us/call"
else
	if [ -d /sys/hypervisor ]; then
		c=$(ls -A /sys/hypervisor)
		[ -z "$c" ] && pass sys-hypervisor-empty || fail sys-hypervisor-empty "/sys/hypervisor contains: $c"
	else
		fail sys-hypervisor-empty "/sys/hypervisor does not exist on this kernel"
	fi
	compare_all nodir
	make_xen_dir
	compare_all dir
fi

# ---- checks of the other applets: tests/vm/guest/*.sh, each printing its own
# VMTEST lines (cgroup-resolve on this 6.1 kernel, the mount helpers on the share) ----
for g in /vmtest/guest.d/*.sh; do
	[ -f "$g" ] || continue
	$B sh "$g" || fail "$(basename "$g" .sh)" "exited with status $?"
done

# ---- the real Xen toolstack (xl, oxenstored, Debian's hotplug scripts, PV domUs): in the
# Debian root at /xen that tests/vm/xenroot built, see tests/vm/toolstack/dom0.sh ----
if [ "$MODE" = xen ] && [ -x /xen/vmtest/dom0.sh ]; then
	xen_root
	chroot $X /bin/bash /vmtest/dom0.sh
	sync
	umount $X/vmtest/out
	umount $X/var/lib/xen/save
fi

finish
