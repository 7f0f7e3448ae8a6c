#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/vm/toolstack/dom0.sh — the real Xen toolstack in dom0 (tests/vm/run, README
# "Testing on a real hypervisor"). Runs as /vmtest/dom0.sh chrooted into the Debian root
# that tests/vm/xenroot built (/xen in the initramfs); guest/init.sh mounts /proc, /sys,
# /dev, /run, /tmp and the 9p share "xenout" on /vmtest/out, and runs a syslogd (/dev/log).
#
#  1. bring-up as Debian: `forkless --install -s /` first, then xenfs, the backend
#     modules, Debian's own `/etc/init.d/xen start` (oxenstored, xen-init-dom0, xenconsoled)
#  2. xl info / list / vcpu-list, xentop, xenstore-ls through forkless's links = direct;
#     every name Debian links to xen-utils-wrapper reaches the real tool through forkless
#  3. per script set (SCRIPT_SETS: NAME=DIR; Debian's scripts, then forkless's applets, both
#     in /etc/xen/scripts, swapped by use_scripts): one PV domU
#     checked end to end and shut down (traced), three at once (traced); then five rounds
#     of one domU destroyed per set, the sets in turn (untraced: the kernel's sched events,
#     each call's own time; the first's xl -vvv lines stamped, the scripts' wall times)
#  4. xen-init-name and xen-init-list against Debian's Python scripts with the real xl,
#     Debian's /etc/init.d/xendomains start/stop with forkless's pair (xendomains.sh); the
#     founding scenario, five domUs saved and restored by Debian's xendomains and by the
#     applet, sequentially and five at a time (seed.sh); a PVH and an HVM domU, each set
#     (guests.sh); a driver domain running xl devd with forkless's applets (driver.sh)
#  5. the hotplug applets' other paths in the real dom0: a disk already in use refused as
#     Debian's block script refuses it, a hook file handed to Debian's script (hotplug.sh)
#  6. live migration: a PVH domU moved to localhost over ssh, xen-migrate-shell the receiving
#     account's login shell; xendomains stop with XENDOMAINS_MIGRATE (migrate.sh)
#  7. xendomains when a save or a restore fails: a full disk, SIGTERM mid-save, a truncated
#     image, xenstored killed during stop (faults.sh): LAST, as oxenstored dies in it
# Results: VMTEST PASS/FAIL/INFO/LOG lines on the console (LOG: the console and libxl lines
# after a FAIL); the traces, xl -vvv logs and consoles in /vmtest/out, from which the host
# (tests/vm/proctable) makes the process table.
set -u
export PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C
V=/vmtest D=/vmtest/domu
# Everything is written to T (tmpfs) and copied to the share O after each step: a write to
# 9p costs a round trip through QEMU, and xl -vvv, strace and the consoles write line by
# line while the hotplug scripts race libxl's 40 s limit.
O=/vmtest/out T=/tmp/ts
mkdir -p $T
save() { cp -f $T/* $O/ 2>/dev/null; }
XL_TIMEOUT=240   # seconds for one xl command or one guest milestone (TCG is slow)
TOKEN=$(cat $V/token 2>/dev/null || echo notoken)
# the running Xen's MAJOR.MINOR: 4.17 (Debian 12) or 4.20 (Debian 13); its tools' directory
XV=$(cat /sys/hypervisor/version/major).$(cat /sys/hypervisor/version/minor)
BIN=/usr/lib/xen-$XV/bin

pass() { echo "VMTEST PASS xen-toolstack/$1"; }
fail() { local n=$1; shift; echo "VMTEST FAIL xen-toolstack/$n: $*"; }
info() { echo "VMTEST INFO $*"; }
secs_since() { awk "BEGIN { printf \"%.0f\", $EPOCHREALTIME - $1 }"; } # T0: whole seconds since
oneline() { tr '\n' '|' <"$1" | head -c 300; }
# after a FAIL: the last lines of a guest console and the libxl errors/warnings of an xl log
show_log() { # FILE LINES [REGEX]
	[ -f "$1" ] || return 0
	tr -d '\r' <"$1" | grep -aE "${3:-.}" | tail -n "$2" | sed "s|^|VMTEST LOG ${1##*/}: |"
}
# `xl ...` with -vvv and each stderr line stamped with the time it was read
# (/vmtest/vmstamp, tests/vm/stub.c: a block per read; a bash `read` loop makes a syscall
# per byte of a pipe, on dom0's one vCPU, while the hotplug calls being stamped run)
stamp() { $V/vmstamp; }
# The waits below poll with bash builtins only (read, kill -0, [[ ]]): a poller that forks
# grep and sleep twice a second would compete with the hotplug scripts it waits for.
mkfifo /tmp/tick 2>/dev/null
exec 9<>/tmp/tick
nap() { read -r -t "$1" -u 9; }           # sleep SECONDS, no process
in_file() { # FILE TEXT
	local l
	[ -f "$1" ] || return 1
	while IFS= read -r l || [ -n "$l" ]; do [[ $l == *"$2"* ]] && return 0; done <"$1"
	return 1
}
# wait_for FILE TEXT SECONDS [PID]: until TEXT is in FILE (no longer once PID has gone)
wait_for() {
	local i=0
	while [ $i -lt $(($3 * 2)) ]; do
		in_file "$1" "$2" && return 0
		[ -n "${4:-}" ] && ! kill -0 "$4" 2>/dev/null && ! in_file "$1" "$2" && return 1
		nap 0.5
		i=$((i + 1))
	done
	return 1
}
# wait_exit PID SECONDS: until PID has ended
wait_exit() {
	local i=0
	while kill -0 "$1" 2>/dev/null && [ $i -lt $(($2 * 2)) ]; do nap 0.5; i=$((i + 1)); done
	! kill -0 "$1" 2>/dev/null
}
# All processes of CMD, with times: the calls that make a process or a program (and the
# exits, which strace reports anyway). Nothing else stops the tracee (--seccomp-bpf): under
# TCG a ptrace stop is dear, and libxl kills a hotplug script after 40 s.
STRACE_XL=(strace -f -q -ttt --seccomp-bpf -e trace=clone,clone3,fork,vfork,execve)
strace_xl() { # OUT CMD...
	"${STRACE_XL[@]}" -o "$@"
}
# strace_start OUT CMD...: CMD under STRACE_XL into OUT, in the background; its status once
# CMD itself has ended (the daemons it started stay traced, their forks in OUT)
strace_start() {
	local out=$1 pid= l i=0
	shift
	rm -f "$out"
	"${STRACE_XL[@]}" -o "$out" "$@" &
	while [ $i -lt $((XL_TIMEOUT * 5)) ]; do
		[ -n "$pid" ] || pid=$(awk 'NR == 1 && $3 ~ /^execve/ { print $1 }' "$out" 2>/dev/null)
		if [ -n "$pid" ]; then
			l=$(grep -aE "^$pid +[0-9.]+ \+\+\+ (exited with|killed by) " "$out")
			case $l in
			*"exited with "*) l=${l##*exited with }; return "${l%% *}" ;;
			*"killed by "*) return 137 ;;
			esac
		fi
		nap 0.2
		i=$((i + 1))
	done
	return 124
}

# the parts of sections 4 and 5 (functions only: nothing runs when sourced)
. $V/xendomains.sh
. $V/seed.sh
. $V/hotplug.sh
. $V/guests.sh
. $V/driver.sh
. $V/faults.sh
. $V/migrate.sh
# VM_TOOLSTACK_ONLY on the host (tests/vm/run): run only these parts of sections 3-5
ONLY=$(cat $V/only 2>/dev/null)
want() { [ -z "$ONLY" ] || [[ " $ONLY " == *" $1 "* ]]; }

# ---- 1. dom0 bring-up ------------------------------------------------------------------------
# The names Debian links to its wrapper, read before forkless replaces the wrapper.
WRAPPED=
for l in /usr/sbin/* /usr/bin/*; do
	[ "$(readlink "$l")" = ../lib/xen-common/bin/xen-utils-wrapper ] && WRAPPED="$WRAPPED ${l##*/}"
done
# Debian's hotplug scripts as a dom0 with forkless's packages has them: each one forkless
# replaces diverted to NAME.distrib (what the applets hand unusual calls to); a copy of
# the whole directory as it was seeds the script sets a host asks for (their scripts
# source their helpers from their own directory).
cp -a /etc/xen/scripts $V/scripts-debian
# Debian's Python xen-init-name and xen-init-list, kept for section 4 (forkless replaces them)
xendomains_keep_debian
for p in $($V/forkless --list-full); do
	case $p in etc/xen/scripts/*) [ -f "/$p" ] && mv "/$p" "/$p.distrib" ;; esac
done
if $V/forkless --install -s / >$T/install.log 2>&1; then
	t=$(readlink -f /usr/sbin/xl)
	[ "$t" = /usr/bin/forkless ] && pass install || fail install "/usr/sbin/xl resolves to $t, not /usr/bin/forkless"
else
	fail install "forkless --install -s / failed: $(oneline $T/install.log)"
fi
# forkless-xen's postinst: the stamp that vouches for Debian's hotplug files (each call
# stats them instead of hashing them: docs/hotplug.md)
$V/forkless vif-bridge --stamp >>$T/install.log 2>&1 || fail install "forkless vif-bridge --stamp failed"
# What udev makes on a Debian host and devtmpfs does not: Xen's locking.sh (claim_lock)
# stats /dev/stdin, and without it the block script loops until libxl kills it (40 s).
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
mkdir -p /run/lock /var/log/xen /var/lib/xen
# xenfs on /proc/xen, then the backend modules. On a Debian host udev loads xen-netback and
# xen-blkback from the backend devices' modaliases and the bridge/loop modules on first use;
# there is no udev here, so they are loaded by name (modprobe: modules.dep is in the root).
modfail=
for m in xenfs xen-netback xen-blkback xen-gntalloc bridge loop tun; do
	modprobe "$m" 2>>$T/modprobe.err || modfail="$modfail $m"
done
mount -t xenfs xenfs /proc/xen 2>>$T/modprobe.err || modfail="$modfail mount-xenfs"
[ -z "$modfail" ] && pass dom0-modules || fail dom0-modules "failed:$modfail: $(oneline $T/modprobe.err)"
# The domUs' kernel: the ELF inside Debian's bzImage (tests/vm/run's domu_kernel), which xl
# loads as it is; from the bzImage each `xl create` would unpack its xz payload first (6-8 s
# here). Unpacked into /run, a tmpfs of its own: 66 MB do not fit beside the root.
K=/run/domu-vmlinux
gunzip -c $D/vmlinux.gz >$K 2>$T/gunzip.err ||
	fail domu-kernel "gunzip -c $D/vmlinux.gz >$K: $(oneline $T/gunzip.err)"
# Debian's init script as a Debian boot runs it; it calls xen-version and xen-dir (forkless).
# Traced (init-xen.txt): the toolstack start's processes, against the xencommons applet's
# in the noshell boot (tests/vm/proctable)
strace_start $T/init-xen.txt /etc/init.d/xen start >$T/init-xen.log 2>&1
rc=$?
pid=$(cat /run/xenstore.pid 2>/dev/null)
exe=$(readlink "/proc/$pid/exe" 2>/dev/null)
name=$(timeout 30 xenstore-read /local/domain/0/name 2>&1)
cpid=$(cat /run/xenconsoled.pid 2>/dev/null)
cexe=$(readlink "/proc/$cpid/exe" 2>/dev/null)
if [ $rc = 0 ] && [ "$exe" = $BIN/oxenstored ] && [ "$name" = Domain-0 ] &&
	[ "$cexe" = $BIN/xenconsoled ]; then
	pass init-xen-start
else
	fail init-xen-start "rc=$rc xenstored=[$exe] /local/domain/0/name=[$name] xenconsoled=[$cexe]; output: $(oneline $T/init-xen.log)"
	info "xen-toolstack: no toolstack, the domU checks are not run"
	save
	exit 1
fi

T_UP=$SECONDS
# ---- 2. the tools through forkless's links, against the same tools run directly ---------------
# The CPU-time columns change between two runs and are masked: xl list's Time(s), xl
# vcpu-list's Time(s), xentop's CPU(sec) and CPU(%). xl vcpu-list also shows which vCPU runs
# xl itself at that moment (State r) and the physical CPU each vCPU is on: masked too.
mask() { # TOOL
	case $1 in
	list) awk 'NR > 1 { $NF = "T" } { print }' ;;
	vcpu-list) awk 'NR > 1 { $4 = "C"; $5 = "S"; $6 = "T" } { print }' ;;
	xentop) awk '$1 != "NAME" && NF > 4 { $3 = "T"; $4 = "T" } { print }' ;;
	*) cat ;;
	esac
}
same() { # NAME MASK LINK REAL ARGS...: stdout, stderr, status identical
	local n=$1 m=$2 link=$3 real=$4
	shift 4
	timeout 60 "$link" "$@" </dev/null >$T/l.out 2>$T/l.err
	echo $? >>$T/l.err
	timeout 60 "$real" "$@" </dev/null >$T/d.out 2>$T/d.err
	echo $? >>$T/d.err
	mask "$m" <$T/l.out >$T/l.outm
	mask "$m" <$T/d.out >$T/d.outm
	if cmp -s $T/l.outm $T/d.outm && cmp -s $T/l.err $T/d.err; then
		pass "$n"
	else
		fail "$n" "through $link: [$(oneline $T/l.out)] [$(oneline $T/l.err)]; direct: [$(oneline $T/d.out)] [$(oneline $T/d.err)]"
	fi
}
same xl-info-via-forkless info /usr/sbin/xl $BIN/xl info
same xl-list-via-forkless list /usr/sbin/xl $BIN/xl list
same xl-vcpu-list-via-forkless vcpu-list /usr/sbin/xl $BIN/xl vcpu-list
same xentop-via-forkless xentop /usr/sbin/xentop $BIN/xentop -b -i 1
# xenstore-ls is xenstore-utils' own program (no wrapper in Debian): dom0's entries, as
# xen-init-dom0 wrote them when the init script ran it, read back
xenstore-ls /local/domain/0 >$T/xenstore-ls.txt 2>&1
grep -q '^name = "Domain-0"' $T/xenstore-ls.txt && grep -q '^domid = "0"' $T/xenstore-ls.txt &&
	pass xenstore-ls-dom0 || fail xenstore-ls-dom0 "$(oneline $T/xenstore-ls.txt)"

# Every name Debian links to its wrapper: the link resolves to forkless, the last execve is
# the real tool, and the answer is the one the tool gives when run directly. Each tool gets
# a call that only reads or prints its usage: most print usage when run without arguments;
# the daemons (xenstored, oxenstored, xenconsoled) and xentrace (which would start tracing
# to stdout) get --help; xl and xentop their read-only list. Two have no safe call:
# xen-lowmemd has no option at all and is a daemon, xen-mceinj without arguments injects a
# machine check. For them the exec of the real tool is made to fail (strace -P PATH
# inject, which touches only the execve of that path),
# which shows where forkless went without running it.
safe_args() {
	case $1 in
	xl) echo list ;;
	xentop) echo -b -i 1 ;;
	xenstored | oxenstored | xenconsoled | xentrace) echo --help ;;
	esac
}
bad= n=0
for t in $WRAPPED; do
	[ -x $BIN/$t ] || continue # a name with no tool in xen-utils-$XV
	n=$((n + 1))
	link=/usr/sbin/$t
	[ -e $link ] || link=/usr/bin/$t
	[ "$(readlink -f $link)" = /usr/bin/forkless ] || { bad="$bad $t(link: $(readlink -f $link))"; continue; }
	if [ $t = xen-lowmemd ] || [ $t = xen-mceinj ]; then
		strace -f -qq -P $BIN/$t -e trace=execve -e inject=execve:error=ENOEXEC -o $T/x.trace \
			timeout 30 $link </dev/null >/dev/null 2>&1
		grep -q "^[0-9]* *execve(\"$BIN/$t\", .* = -1 ENOEXEC .*(INJECTED)" $T/x.trace ||
			bad="$bad $t(exec: $(grep execve $T/x.trace | tail -n 1))"
		continue
	fi
	# shellcheck disable=SC2046
	strace -f -qq --seccomp-bpf -e trace=execve -o $T/x.trace timeout 30 $link $(safe_args $t) </dev/null >$T/l.out 2>$T/l.err
	echo $? >>$T/l.err
	last=$(grep -E 'execve\(.* = 0$' $T/x.trace | tail -n 1 | sed 's/^[0-9]* *execve("\([^"]*\)".*/\1/')
	# shellcheck disable=SC2046
	timeout 30 $BIN/$t $(safe_args $t) </dev/null >$T/d.out 2>$T/d.err
	echo $? >>$T/d.err
	mask "$( [ $t = xl ] && echo list || echo $t)" <$T/l.out >$T/l.outm
	mask "$( [ $t = xl ] && echo list || echo $t)" <$T/d.out >$T/d.outm
	echo "$t $(safe_args $t): $(tail -n 1 $T/d.err) $(head -n 1 $T/d.out $T/d.err | tr '\n' ' ' | head -c 100)" >>$T/wrapped.txt
	[ "$last" = $BIN/$t ] || { bad="$bad $t(exec: $last)"; continue; }
	cmp -s $T/l.outm $T/d.outm && cmp -s $T/l.err $T/d.err ||
		bad="$bad $t(output: [$(oneline $T/l.err)] vs [$(oneline $T/d.err)])"
done
[ $n -gt 20 ] && [ -z "$bad" ] && pass "wrapped-names-reach-real-tools" ||
	fail wrapped-names-reach-real-tools "$n names checked; wrong:$bad"
save
info "xen-toolstack: $n wrapped names checked:$WRAPPED (dom0 up ${T_UP}s, names done ${SECONDS}s)"

# ---- 3. domU lifecycles ----------------------------------------------------------------------
# The bridge the vifs join: dom0's side of the guests' only network. IPv6 link-local only,
# no address configured anywhere; QEMU has no network device, so nothing leaves the VM.
ip link add xenbr0 type bridge && ip link set xenbr0 up || fail bridge "ip link add xenbr0 failed"
mkdir -p /var/lib/xen/images
# mkcfg NAME MODE SCRIPTDIR [TYPE] [MEMORY]: a domU (TYPE pv, pvh or hvm; pv), MEMORY MB (96),
# booted with domu-init.sh in MODE, one vif on xenbr0 (HVM: QEMU's NIC, type=ioemu), one
# 8 MB file-backed disk; SCRIPTDIR other than /etc/xen/scripts: its vif-bridge and block.
# HVM: the kernel booted by QEMU (bzImage), its console the emulated serial port; its
# kernel unplugs the emulated disk only and loads no PV NIC driver (guests.sh says why).
mkcfg() {
	local img=/var/lib/xen/images/$1.img type=${4:-pv}
	local args="quiet panic=-1 fltest.mode=$2 fltest.token=$TOKEN-$1" vif=bridge=xenbr0
	rm -f "$img" && truncate -s 8M "$img"
	{
		echo "name = \"$1\""
		echo "type = \"$type\""
		echo "ramdisk = \"$D/initrd.gz\""
		echo "memory = ${5:-96}"
		echo 'vcpus = 1'
		if [ $type = hvm ]; then
			echo "kernel = \"$D/bzImage\""
			echo "cmdline = \"console=hvc0 console=ttyS0 xen_emul_unplug=ide-disks module_blacklist=xen_netfront $args\""
			echo 'serial = "pty"'
			echo 'vnc = 0'
			echo 'vga = "none"'
			vif=$vif,type=ioemu
		else
			echo "kernel = \"$K\""
			echo "extra = \"console=hvc0 $args\""
		fi
		if [ "$3" = /etc/xen/scripts ]; then # Debian's defaults: vif-bridge, block
			echo "vif = [ '$vif' ]"
			echo "disk = [ 'file:$img,xvda,w' ]"
		else
			echo "vif = [ '$vif,script=$3/vif-bridge' ]"
			echo "disk = [ 'format=raw,vdev=xvda,access=rw,script=$3/block,target=$img' ]"
		fi
		echo 'on_poweroff = "destroy"'
		echo 'on_reboot = "destroy"'
		echo 'on_crash = "destroy"'
	} >$D/$1.cfg
}
# a paused-domU config (sections 4 and 5: `xl create -p` makes its devices and runs the
# hotplug calls, no guest boots), 96 MB (a PV kernel this size needs that much)
paused_cfg() { # NAME [DISK] [VIF] -> $D/NAME.cfg
	{
		echo "name = \"$1\""
		echo 'type = "pv"'
		echo "kernel = \"$K\""
		echo "ramdisk = \"$D/initrd.gz\""
		echo 'memory = 96'
		[ -n "${2:-}" ] && echo "disk = [ '$2' ]"
		[ -n "${3:-}" ] && echo "vif = [ '$3' ]"
	} >"$D/$1.cfg"
}
in_list() { xl list 2>/dev/null | awk 'NR > 1 { print $1 }' | grep -qx "$1"; }
wait_gone() { # NAME SECONDS
	local i=0
	while in_list "$1" && [ $i -lt $2 ]; do nap 1; i=$((i + 1)); done
	! in_list "$1"
}
# a FAIL with what explains it: the guest's console and libxl's own lines
fail_with() { # CHECK CONSOLE XLLOG DETAILS...
	local n=$1 c=$2 x=$3
	shift 3
	fail "$n" "$*"
	show_log "$c" 12
	show_log "$x" 12 '^libxl: (error|warning)|^xl|[Ee]rror|[Ff]ail|timeout'
}

# One domU checked end to end, then shut down cleanly. `xl create -c` (the guest's console
# through xl) and `xl shutdown -w` run under strace -f: every process of the lifecycle.
domu_checked() { # SET DIR
	local set=$1 n=chk-$1 c=$T/console-chk-$1.txt x=$T/xl-chk-$1.log
	local img=/var/lib/xen/images/chk-$1.img dom0ll
	mkcfg $n check "$2"
	rm -f /tmp/cin && mkfifo /tmp/cin
	sleep 900 >/tmp/cin & # xenconsole's stdin: open, silent
	local holder=$!
	strace_xl $T/trace-$set-1create.txt xl -vvv create -c $D/$n.cfg </tmp/cin >$c 2>$x &
	local xlpid=$!
	if ! wait_for $c DOMU-MARKER $XL_TIMEOUT $xlpid; then
		fail_with "domu-console-$set" $c $x "no DOMU-MARKER on the console of xl create -c (xl create ended or ${XL_TIMEOUT}s); the other checks of this domU are not run"
		xl destroy $n >/dev/null 2>&1
		kill $holder $xlpid 2>/dev/null
		return 1
	else
		pass "domu-console-$set"
		if wait_for $c DOMU-READY $XL_TIMEOUT $xlpid; then
			grep -aq 'DOMU-DEVICES block=.*xvda.* net=.*eth0' $c && pass "domu-devices-$set" ||
				fail_with "domu-devices-$set" $c $x "no xvda and eth0: $(grep -a DOMU-DEVICES $c | tr -d '\r')"
			# dom0's side of the link: xenbr0's link-local address must have answered
			dom0ll=$(ip -6 -o addr show dev xenbr0 scope link | awk '{ sub("/.*", "", $4); print $4 }')
			if [ -n "$dom0ll" ] && grep -a '^DOMU-PING' $c | grep -q "from $dom0ll:"; then
				pass "domu-ping6-bridge-$set"
			else
				fail_with "domu-ping6-bridge-$set" $c $x "xenbr0 ($dom0ll) did not answer: $(grep -a '^DOMU-PING' $c | tr -d '\r' | tr '\n' '|')"
			fi
		else
			fail_with "domu-checks-$set" $c $x "no DOMU-READY within ${XL_TIMEOUT}s"
		fi
	fi
	strace_xl $T/trace-$set-1shutdown.txt timeout $XL_TIMEOUT xl shutdown -w $n >$T/xl-shutdown-$set.log 2>&1
	local rc=$?
	wait_exit $xlpid $XL_TIMEOUT
	kill $holder 2>/dev/null
	if [ $rc = 0 ] && wait_gone $n 30; then
		pass "domu-shutdown-$set"
	else
		fail_with "domu-shutdown-$set" $c /var/log/xen/xl-$n.log "xl shutdown -w rc=$rc: $(oneline $T/xl-shutdown-$set.log); xl list: $(xl list | awk 'NR>1{print $1}' | tr '\n' ' ')"
		xl destroy $n >/dev/null 2>&1
	fi
	# block remove detached the disk's loop device
	if [ -z "$(losetup -n -O NAME -j "$img" 2>&1)" ]; then
		pass "domu-loop-detached-$set"
	else
		fail_with "domu-loop-detached-$set" $c $x "losetup -j $img: $(losetup -j "$img" 2>&1)"
	fi
	# the guest wrote DISK-TOKEN at the start of xvda: now in the backing file
	if head -c 512 "$img" | grep -aq "FORKLESS-DISK $TOKEN-$n"; then
		pass "domu-disk-written-$set"
	else
		fail_with "domu-disk-written-$set" $c $x "first bytes of $img: $(head -c 64 "$img" | tr -c '[:print:]' .)"
	fi
	cp /var/log/xen/xl-$n.log $T/ 2>/dev/null
}

# The kernel's own record of every fork, exec and exit (tracefs, sched_process_* events:
# microsecond stamps, nothing stopped, no ptrace): each hotplug call's own time, exec to
# exit, in the untraced lifecycle below (tests/vm/proctable reads it).
FT=/sys/kernel/tracing
FT_EVENTS="sched_process_fork sched_process_exec sched_process_exit"
ft_start() {
	local e
	[ -d $FT/events/sched ] || mount -t tracefs tracefs $FT 2>/dev/null
	[ -d $FT/events/sched ] || { fail "ftrace" "no tracefs at $FT (the kernel's sched events)"; return 1; }
	echo 0 >$FT/tracing_on
	echo 4096 >$FT/buffer_size_kb
	: >$FT/trace
	for e in $FT_EVENTS; do echo 1 >$FT/events/sched/$e/enable; done
	echo 1 >$FT/tracing_on
}
ft_stop() { # OUT
	local e
	[ -d $FT/events/sched ] || return 1
	echo 0 >$FT/tracing_on
	cat $FT/trace >"$1"
	for e in $FT_EVENTS; do echo 0 >$FT/events/sched/$e/enable; done
}

# One domU created, booted (its devices up) and destroyed with nothing traced: the kernel's
# sched events give each hotplug call's own time, xl's -vvv lines, stamped as read, each
# script's wall time.
# LIFECYCLES times per script set (tests/vm/proctable takes each side's median): on dom0's
# one vCPU a call's time holds whatever else ran meanwhile, which moves a 15-40 ms call by
# 2-5 times and a 3 s script by a third, and one lifecycle in three or four has such an
# outlier on either side: five keep the median clear of two. VM_LIFECYCLES on the host
# (tests/vm/run) sets another number; 0 runs none (make check's, tests/vm/vm.sh: the
# table is a benchmark, and the traced lifecycles above check the calls).
LIFECYCLES=$(cat $V/lifecycles-n 2>/dev/null)
[[ $LIFECYCLES == [0-9] ]] || LIFECYCLES=5
# Debian's side of each comparison (VM_BASELINES on the host, default 1): its script set in
# the lifecycles and guests, its whole stack in the seed scenario. 0 (make check's,
# tests/vm/vm.sh) runs forkless's side only: Debian's is a benchmark's baseline (make
# bench-vm), not a check of forkless, and costs a third of the boot.
BASELINES=$(cat $V/baselines 2>/dev/null)
[[ $BASELINES == [01] ]] || BASELINES=1
echo $LIFECYCLES >$T/lifecycles   # for tests/vm/proctable
domu_destroyed() { # SET DIR I
	local set=$1 n=dst-$1 c=$T/console-dst-$1.txt i=$3 tag=domu-destroy-$1 ft=$T/ftrace-$1.txt
	local vc=$T/vvv-$set-create.txt vd=$T/vvv-$set-destroy.txt
	if [ $i != 1 ]; then
		tag=$tag-$i ft=$T/ftrace-$set-$i.txt vc=$T/vvv-$set-$i-create.txt vd=$T/vvv-$set-$i-destroy.txt
	fi
	mkcfg $n idle "$2"
	ft_start
	timeout $XL_TIMEOUT xl -vvv create $D/$n.cfg 2>&1 >/dev/null | stamp >$vc
	rm -f /tmp/cin2 && mkfifo /tmp/cin2
	sleep 900 >/tmp/cin2 &
	local holder=$!
	timeout $XL_TIMEOUT xl console $n </tmp/cin2 >$c 2>&1 &
	# destroyed once its frontends are up (DOMU-DEVICES: xvda and eth0), not at its first
	# line: the guest loads xen-blkfront and xen-netfront after DOMU-MARKER, and a destroy
	# that lands while they connect tears down whatever state they have reached
	if wait_for $c DOMU-DEVICES $XL_TIMEOUT $!; then
		timeout $XL_TIMEOUT xl -vvv destroy $n 2>&1 >/dev/null | stamp >$vd
		wait_gone $n 30 && pass "$tag" ||
			fail_with "$tag" $c $vd "still listed after xl destroy"
	else
		fail_with "$tag" $c $vc "no DOMU-DEVICES through xl console within ${XL_TIMEOUT}s"
		xl destroy $n >/dev/null 2>&1
	fi
	ft_stop $ft
	kill $holder 2>/dev/null
}

# Three domUs at once: created one after the other, each booted (its marker through an
# untraced `xl console`) before the next is made, so that no guest's boot competes with
# the next one's hotplug scripts for the CPUs; then listed and destroyed. Each xl command
# runs under its own strace -f (an `xl create`'s strace lasts as long as its daemon).
# console_until NAME FILE IN CHECK...: `xl console NAME` (stdin IN, a silent fifo) appended
# to FILE until CHECK... succeeds (tried every second), within XL_TIMEOUT; CHECK's status.
# `xl console` exits at once while xenconsoled has not set a new or restored domain's
# console up (xl create can return before): it is started again.
console_until() {
	local n=$1 c=$2 in=$3 t0=$SECONDS left xp=
	shift 3
	while left=$((XL_TIMEOUT - (SECONDS - t0))) && [ $left -gt 0 ]; do
		timeout $left xl console "$n" <"$in" >>"$c" 2>&1 &
		xp=$!
		while kill -0 $xp 2>/dev/null && [ $((SECONDS - t0)) -lt $XL_TIMEOUT ]; do
			"$@" && break 2
			nap 1
		done
		nap 1
	done
	kill $xp 2>/dev/null
	wait $xp 2>/dev/null
	"$@"
}
# console_marker NAME: DOMU-MARKER on NAME's console
console_marker() {
	: >$T/console-$1.txt
	console_until $1 $T/console-$1.txt /tmp/cin3 in_file $T/console-$1.txt DOMU-MARKER
}

domus_three() { # SET DIR
	local set=$1 names="tri-$1-a tri-$1-b tri-$1-c" n bad= holders=
	rm -f $T/xl-3-$set.log $T/trace-$set-3-*.txt
	rm -f /tmp/cin3 && mkfifo /tmp/cin3
	sleep 900 >/tmp/cin3 &
	holders=$!
	for n in $names; do
		mkcfg $n idle "$2"
		strace_xl $T/trace-$set-3-create-$n.txt xl create $D/$n.cfg >>$T/xl-3-$set.log 2>&1 &
		# xl create returns once the domain runs (its daemon stays traced): find it below
		# the subshell and strace, and wait for it
		local p=$! comm= i=0
		while [ "$comm" != xl ] && [ $i -lt 600 ] && kill -0 $p 2>/dev/null; do
			read -r comm </proc/$p/comm
			[ "$comm" = xl ] && break
			local c=
			read -r c _ </proc/$p/task/$p/children
			if [ -n "$c" ]; then p=$c; else nap 0.1; i=$((i + 1)); fi
		done
		[ "$comm" = xl ] && wait_exit $p $XL_TIMEOUT
		console_marker $n || bad="$bad $n(no marker)"
	done
	strace_xl $T/trace-$set-3-list.txt xl list >$T/xl-list-3.txt 2>>$T/xl-3-$set.log
	for n in $names; do
		strace_xl $T/trace-$set-3-destroy-$n.txt timeout $XL_TIMEOUT xl destroy $n >>$T/xl-3-$set.log 2>&1 ||
			bad="$bad $n(destroy)"
	done
	kill $holders 2>/dev/null
	local listed=0 left=
	for n in $names; do
		awk 'NR > 1 { print $1 }' $T/xl-list-3.txt | grep -qx $n && listed=$((listed + 1))
		wait_gone $n 30 || left="$left $n"
	done
	# the creates' straces end with their daemons, which end with their domains
	local i=0
	while [ -n "$(jobs -rp)" ] && [ $i -lt 60 ]; do nap 1; i=$((i + 1)); done
	if [ $listed = 3 ] && [ -z "$left" ] && [ -z "$bad" ]; then
		pass "three-domus-$set"
	else
		fail_with "three-domus-$set" /dev/null $T/xl-3-$set.log "listed $listed of 3 [$(oneline $T/xl-list-3.txt)]; left:$left; failed:$bad"
		for n in $left; do xl destroy $n >/dev/null 2>&1; done
	fi
}

# The script sets: NAME=DIRECTORY with vif-bridge and block in it. Debian's come first;
# forkless's hotplug applets are added when the binary has them, so both are measured in
# the same boot. Both are /etc/xen/scripts, libxl's default (domU configs with no
# script=): use_scripts puts Debian's scripts there (copies of the *.distrib), or
# forkless's links back (`forkless --install -s /` again). Another set is one more word
# here, or a directory from the host.
use_scripts() { # NAME
	local p
	for p in $($V/forkless --list-full); do
		case $p in etc/xen/scripts/*) ;; *) continue ;; esac
		[ -f "/$p.distrib" ] || continue
		case $1 in
		debian) rm -f "/$p" && cp -a "/$p.distrib" "/$p" ;;
		forkless) ;;
		esac
	done
	[ "$1" = forkless ] && $V/forkless --install -s / >>$T/install.log 2>&1
	return 0
}
SCRIPT_SETS="debian=/etc/xen/scripts"
if /usr/bin/forkless --list 2>/dev/null | grep -qx vif-bridge &&
	/usr/bin/forkless --list | grep -qx block; then
	SCRIPT_SETS="$SCRIPT_SETS forkless=/etc/xen/scripts"
fi
# More sets from the host (VM_EXTRA_SCRIPT_SETS for tests/vm/run, e.g. copy=/vmtest/copy):
# a directory that does not exist is made a copy of Debian's, to check the harness itself.
for s in $(cat $V/extra-sets 2>/dev/null); do
	[ -d "${s#*=}" ] || cp -a $V/scripts-debian "${s#*=}"
	SCRIPT_SETS="$SCRIPT_SETS $s"
done
# without the baselines, forkless's set alone (Debian's when the binary has no hotplug applets)
[ "$BASELINES" = 1 ] || [[ $SCRIPT_SETS != *forkless=* ]] || SCRIPT_SETS=${SCRIPT_SETS#debian=* }
echo "$SCRIPT_SETS" >$T/sets
want lifecycles || SCRIPT_SETS=
for s in $SCRIPT_SETS; do
	t0=$EPOCHREALTIME
	use_scripts "${s%%=*}"
	if [ "${s%%=*}" = forkless ]; then
		[ "$(readlink -f /etc/xen/scripts/vif-bridge)" = /usr/bin/forkless ] &&
			[ "$(readlink -f /etc/xen/scripts/block)" = /usr/bin/forkless ] &&
			pass scripts-forkless-installed ||
			fail scripts-forkless-installed "vif-bridge/block are not forkless's after --install -s /"
	fi
	domu_checked "${s%%=*}" "${s#*=}"
	save
	domus_three "${s%%=*}" "${s#*=}"
	save
	info "xen-toolstack: script set ${s%%=*} (${s#*=}): one domU checked and three at once took $(secs_since $t0)s"
done
# The untraced lifecycles that give each call's own time (tests/vm/proctable): LIFECYCLES
# rounds, each one lifecycle of every set in turn. How fast the emulator runs moves within
# a boot; a slow spell then falls on every set, not on one set's lifecycles.
if [ -n "$SCRIPT_SETS" ] && [ "$LIFECYCLES" -gt 0 ]; then
	t0=$EPOCHREALTIME
	for i in $(seq $LIFECYCLES); do
		for s in $SCRIPT_SETS; do
			use_scripts "${s%%=*}"
			domu_destroyed "${s%%=*}" "${s#*=}" $i
		done
		save
	done
	info "xen-toolstack: $LIFECYCLES rounds of lifecycles, the sets in turn, took $(secs_since $t0)s"
fi

# ---- developers: VM_TOOLSTACK_ONLY=interactive (docs/testing.md) -------------------------------
# One boot for many experiments: with forkless's applets in place, run each $O/cmd-N.sh the
# host writes (N from 0) in this shell (its functions: domu_destroyed, use_scripts, ft_start),
# its output in $O/res-N.txt, then $O/done-N; until the host writes $O/quit. Never in a plain
# run: an empty ONLY (every part) does not include it.
if [[ " $ONLY " == *" interactive "* ]]; then
	use_scripts forkless
	n=0
	while :; do
		if [ -f $O/cmd-$n.sh ]; then
			. $O/cmd-$n.sh >$O/res-$n.txt 2>&1
			save
			touch $O/done-$n
			n=$((n + 1))
		elif [ -f $O/quit ]; then
			break
		else
			nap 1
		fi
	done
fi
# ---- developers: VM_TOOLSTACK_ONLY=floor (docs/testing.md "The floor") ------------------------
# What any one-process hotplug call costs at the same places of a domU's life: LIFECYCLES
# rounds of four lifecycles, forkless's applets, then tests/vm/floor.c as the scripts (MODE
# work: the requests below and the contract's link change or loop detach, each in the
# fewest requests; MODE requests: only the xenstore requests the scripts' contract needs;
# MODE exit: nothing but online's hotplug-status), untraced as the lifecycles above
# (tests/vm/proctable's floor table). requests and exit leave the disk's loop device
# attached: detached once its domU is gone.
# Named only: an empty ONLY does not include it.
if [[ " $ONLY " == *" floor "* ]]; then
	use_scripts forkless
	: >$T/sets   # no script-set tables: the floor table only
	for i in $(seq $LIFECYCLES); do
		domu_destroyed forkless /etc/xen/scripts $i
		for m in work requests exit; do
			domu_destroyed floor-$m $V/floor/$m $i
			losetup -D
		done
		save
	done
fi
# ---- 4. xen-init-name, xen-init-list, xendomains ---------------------------------------------
# with forkless's hotplug applets when it has them (the same in both xendomains runs: only
# xen-init-* and python3 differ), else Debian's scripts
if grep -q 'forkless=' $T/sets; then use_scripts forkless; else use_scripts debian; fi
# part_took PART T0: what a part cost, for the VM budget (docs/testing.md's per-part times)
part_took() { info "xen-toolstack: part $1 took $(secs_since $2)s"; }
if want xen-init; then
	t0=$EPOCHREALTIME
	xen_init_name_differential
	xen_init_list_differential
	part_took xen-init $t0
fi
if want xendomains; then
	t0=$EPOCHREALTIME
	xendomains_run forkless
	part_took xendomains $t0
fi
# the founding scenario: five domUs saved and restored by xendomains (seed.sh), Debian's
# whole stack, then forkless's, then forkless's with XENDOMAINS_PARALLEL. BASELINES=0 (make
# check) runs forkless's alone: Debian's is the benchmark's baseline, and the parallel run's
# code (run_jobs, N at a time) is checked in the real dom0 by the noshell boot's three domUs,
# saved and restored two at a time (noshell.sh); make bench-vm runs all three for the tables
SEED_SETS="debian forkless parallel"
[ "$BASELINES" = 0 ] && SEED_SETS=forkless
if want seed; then
	for s in $SEED_SETS; do
		t0=$EPOCHREALTIME
		seed_run $s
		part_took seed-$s $t0
	done
fi
# PVH and HVM domUs (guests.sh), each with Debian's scripts and with forkless's applets
if want guests; then
	for type in pvh hvm; do
		t0=$EPOCHREALTIME
		for s in $(cat $T/sets); do guest_run $type "${s%%=*}"; done
		part_took guests-$type $t0
	done
fi
# a driver domain backing a domU's vif and disk with forkless's applets (driver.sh)
if want driver; then
	t0=$EPOCHREALTIME
	driver_run
	part_took driver $t0
fi
# ---- 5. the hotplug applets' refusals and fallbacks ------------------------------------------
if want hotplug && [ -n "$(/usr/bin/forkless --list 2>/dev/null | grep -x block)" ]; then
	t0=$EPOCHREALTIME
	busy_disk debian
	busy_disk forkless
	hook_fallback
	xenbus_device
	use_scripts forkless
	part_took hotplug $t0
fi
# ---- 6. live migration to localhost over ssh (migrate.sh) ------------------------------------
# (make check: `migrate-xl` on Debian 12, `migrate-xendomains` on 13, whose noshell boot
# moves a guest by xl migrate; `migrate` runs both)
mig_steps=
want migrate-xl && mig_steps=xl
want migrate-xendomains && mig_steps="$mig_steps xendomains"
want migrate && mig_steps="xl xendomains"
if [ -n "$mig_steps" ]; then
	t0=$EPOCHREALTIME
	# shellcheck disable=SC2086
	[ "$BASELINES" = 1 ] && migrate_run debian $mig_steps
	# shellcheck disable=SC2086
	migrate_run forkless $mig_steps
	use_scripts forkless
	xd_use forkless
	part_took migrate $t0
fi
# ---- 7. faults: xendomains when a save or restore fails (faults.sh) --------------------------
# the last part: xenstored killed during stop ends it (nothing that needs xenstore after it)
if want faults; then
	t0=$EPOCHREALTIME
	[ "$BASELINES" = 1 ] && faults_run debian
	faults_run forkless
	faults_xenstore_gone
	part_took faults $t0
fi
save
timeout 10 xl list >$T/final-xl-list.txt 2>&1
cp /var/log/xen/* $T/ 2>/dev/null
save
sync
