# SPDX-License-Identifier: MIT
# lib-hotplug.sh - a dom0 without Xen for the hotplug applets' tests
# (sourced after tests/lib.sh by tests/hotplug/*.sh).
#
# hp_enter "$@"    re-run the calling script in a new mount and network
#                  namespace (unshare -m -n): nothing it does is seen
#                  outside, no address leaves the machine.
# hp_release RELEASE
#                  the Debian scripts hp_use installs from now on:
#                  trixie (Debian 13, the default) or bookworm (Debian
#                  12). In a script that sets HP_RELEASES="trixie
#                  bookworm" (before sourcing this), every check's name
#                  starts with "RELEASE/", the release of the moment.
#                  HP_ONLY_RELEASE=RELEASE (the environment): the script
#                  ends (status 0, an INFO line) where it would turn to
#                  another release.
# hp_root          inside it: tmpfs /run (so /var/run/xenstored/socket and
#                  /var/run/xen-hotplug are private), tmpfs /var/log, an
#                  overlay on /etc with an empty /etc/xen/scripts, a tmpfs
#                  /dev with the nodes the scripts use (null, loop*, the
#                  /dev/std* links; net/tun for the taps), a tmpfs /var/lib
#                  (the hotplug stamp) and a /dev/log sink (syslog-sink.py,
#                  datagrams to $HP/syslog); the stand-in xenstored
#                  (tests/xenstored-standin.py) on /var/run/xenstored/socket,
#                  its tree in $HP/xs/tree. Sets HP (the scratch dir).
# hp_use debian|forkless NAME...
#                  /etc/xen/scripts/NAME is Debian's script (HP_RELEASE's:
#                  HP_SCRIPTS), or a link to
#                  forkless with Debian's as NAME.distrib (dpkg-divert),
#                  and the stamp written (`forkless NAME --stamp`).
# xs CMD ARGS      Debian's real xenstore-CMD (libxenstore, the socket).
# hp_call ENV... -- SCRIPT ARGS
#                  run /etc/xen/scripts/SCRIPT as libxl does (env -i with
#                  ENV, stdin /dev/null, cwd /): RC, OUT, ERR as run_capture.
# hp_procs FILE    processes an strace -f -o FILE run made (HP_STRACE=FILE
#                  for hp_call; with HP_PROCS_ONLY=1 too, only the process
#                  calls are traced: enough to count them, and cheaper).
# hp_xs_requests  requests xenstored got during the last hp_call.
# hp_xs_writes FILE the writes on the run's xenstore connection: xenstored's
#                  socket, or the xenbus device (one write a request there).
# hp_xs_trips FILE round trips to xenstored in a run on the socket: its
#                  writes (a batch of requests is one write, and its replies
#                  are all read before the next write).
#
# Debian's scripts come from each release's xen-utils-common, fetched
# with tests/apt-release (Debian 12's or 13's whatever the host runs) into
# build/hotplug-debs/RELEASE and unpacked in its root/ (cached): bookworm
# is Debian 12 (4.17), trixie Debian 13 (4.20). The xenstore clients
# (xenstore-read, -write... : the peer's tools, not the oracle) are
# bookworm's xenstore-utils, libxenstore4 and libxentoolcore1 for both:
# trixie's libxenstore4 needs glibc 2.38, which a Debian 12 host lacks,
# and bookworm's run on Debian 13's glibc; the two print the same error
# lines (`couldn't read path`, `could not write path`), and 4.20 dropped
# only the `-s` option, which the scripts do not use. brctl
# (bridge-utils), ip and losetup are host tools that `make check`
# installs (TEST_TOOLS in the Makefile).

. "$TOP/tests/lib-xenstored.sh"
HP_DEBS=$TOP/build/hotplug-debs
XS_ROOT=$HP_DEBS/bookworm/root
HP_PATH=/usr/sbin:/usr/bin:/sbin:/bin:$XS_ROOT/usr/bin
HP_ERR_LOG=/var/log/xen/xen-hotplug.log

# hp_fetch RELEASE PACKAGE...: build/hotplug-debs/RELEASE/root, unpacked
# from RELEASE's PACKAGEs (once: kept while its stamp file is there)
hp_fetch() {
	local rel=$1 d=$HP_DEBS/$1 p
	shift
	[ -f "$d/root.done" ] && return 0
	rm -rf "$d" && mkdir -p "$d" || return 1
	"$TOP/tests/apt-release" "$rel" download "$d" "$@" >"$d/download.log" 2>&1 || return 1
	for p in "$d"/*.deb; do
		dpkg -x "$p" "$d/root" || return 1
	done
	touch "$d/root.done"
}

# hp_prepare NAME: the packages and tools, or 1 after a SKIPPED/FAIL line.
hp_prepare() {
	local name=$1 p missing=
	need_root "$name" || return 1
	for p in python3 strace unshare ip losetup brctl; do
		command -v "$p" >/dev/null || missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		fail "$name" "missing tools:$missing (.ci/run installs them)"
		return 1
	fi
	hp_fetch bookworm xen-utils-common xenstore-utils libxenstore4 libxentoolcore1 &&
		hp_fetch trixie xen-utils-common ||
		{ fail "$name" "download of Debian's Xen packages failed (build/hotplug-debs/*/download.log)"; return 1; }
}

hp_enter() {
	if [ -z "${HP_IN_NS:-}" ]; then
		HP_IN_NS=1 exec unshare -m -n --propagation private bash "$0" "$@"
	fi
}

hp_release() {
	# a Debian 13 root's run (tests/build/trixie.sh) tests its own release's
	# scripts: Debian 12's with Debian 13's tools is no machine's case
	if [ -n "${HP_ONLY_RELEASE:-}" ] && [ "$1" != "$HP_ONLY_RELEASE" ]; then
		info "hotplug: $1's scripts left out (HP_ONLY_RELEASE=$HP_ONLY_RELEASE)"
		exit 0
	fi
	HP_RELEASE=$1
	HP_SCRIPTS=$HP_DEBS/$1/root/etc/xen/scripts
}
hp_release trixie
if [ "${HP_RELEASES:-trixie}" != trixie ]; then
	eval "hp_lib_$(declare -f pass)"
	eval "hp_lib_$(declare -f fail)"
	eval "hp_lib_$(declare -f skip)"
	pass() { hp_lib_pass "$HP_RELEASE/$1"; }
	fail() { local n=$1; shift; hp_lib_fail "$HP_RELEASE/$n" "$@"; }
	skip() { hp_lib_skip "$HP_RELEASE/$1" "$2"; }
fi

xs() {
	local cmd=$1
	shift
	LD_LIBRARY_PATH=$XS_ROOT/usr/lib/x86_64-linux-gnu "$XS_ROOT/usr/bin/xenstore-$cmd" "$@"
}

hp_root() {
	local i
	HP=$(scratch hotplug)
	# sysfs shows the network namespace of its mounter: a fresh one, so
	# /sys/class/net (the scripts' bridge checks, brctl show) is ours
	mount -t sysfs sysfs /sys || return 1
	mount -t tmpfs tmpfs /run && mount -t tmpfs tmpfs /var/log || return 1
	# /var/lib/forkless/hotplug-stamp: private (hp_use writes it)
	mount -t tmpfs -o mode=755 tmpfs /var/lib || return 1
	mkdir -p /run/xenstored /var/log/xen "$HP/etc-up" "$HP/etc-work" "$HP/xs"
	mount -t overlay overlay -o "lowerdir=/etc,upperdir=$HP/etc-up,workdir=$HP/etc-work" /etc || return 1
	mkdir -p /etc/xen/scripts
	mount -t tmpfs -o mode=755 tmpfs /dev || return 1
	mknod -m 666 /dev/null c 1 3; mknod -m 666 /dev/zero c 1 5
	mknod -m 666 /dev/full c 1 7; mknod -m 666 /dev/urandom c 1 9
	mknod -m 666 /dev/random c 1 8; mknod -m 666 /dev/tty c 5 0
	mknod -m 660 /dev/loop-control c 10 237
	mkdir /dev/net && mknod -m 666 /dev/net/tun c 10 200   # QEMU's taps
	for i in $(seq 0 255); do mknod -m 660 "/dev/loop$i" b 7 "$i"; done
	ln -s /proc/self/fd /dev/fd; ln -s /proc/self/fd/0 /dev/stdin
	ln -s /proc/self/fd/1 /dev/stdout; ln -s /proc/self/fd/2 /dev/stderr
	mkdir /dev/pts /dev/shm /dev/xen
	mount -t devpts -o newinstance,ptmxmode=0666 devpts /dev/pts && ln -s pts/ptmx /dev/ptmx
	python3 "$TOP/tests/hotplug/syslog-sink.py" /dev/log "$HP/syslog" &
	HP_SYSLOG_PID=$!
	hp_xenstored

	for i in $(seq 100); do
		[ -e "$HP/syslog.ready" ] && break
		sleep 0.05
	done
	[ -e "$HP/xs/ready" ] && [ -e "$HP/syslog.ready" ] || return 1
	ip link set lo up
	sysctl -qw net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0 2>/dev/null
	trap hp_cleanup EXIT
}

# hp_xenstored [ARGS]: (re)start the stand-in xenstored with ARGS
# (--silent, --pty), an empty store.
hp_xenstored() { xenstored_standin "$HP/xs" "$@"; }

hp_cleanup() {
	kill "$XS_STANDIN_PID" "$HP_SYSLOG_PID" 2>/dev/null
	wait 2>/dev/null
	# loop devices are global: detach the ones this test attached
	losetup -a 2>/dev/null | grep -F "$HP/" | cut -d: -f1 | xargs -r -n1 losetup -d 2>/dev/null
	umount /etc 2>/dev/null
	rm -rf "$HP"
	return 0
}

# Debian's support files, always there (the diverted scripts source them).
hp_use() {
	local how=$1 f
	shift
	for f in "$HP_SCRIPTS"/*.sh; do
		cp "$f" /etc/xen/scripts/
	done
	for f in "$@"; do
		rm -f "/etc/xen/scripts/$f" "/etc/xen/scripts/$f.distrib"
		if [ "$how" = debian ]; then
			cp "$HP_SCRIPTS/$f" "/etc/xen/scripts/$f"
		else
			cp "$HP_SCRIPTS/$f" "/etc/xen/scripts/$f.distrib"
			ln -s "$FORKLESS" "/etc/xen/scripts/$f"
		fi
	done
	# forkless-xen's postinst: the stamp that vouches for Debian's files
	# (hotplug calls then stat them, not hash them: docs/hotplug.md)
	[ "$how" = debian ] || "$FORKLESS" "$1" --stamp
}

hp_call() {
	local env=()
	while [ "$1" != -- ]; do env+=("$1"); shift; done
	shift
	local script=/etc/xen/scripts/$1
	shift
	# (a sanitized build's options pass: tests/asan/suite.sh)
	[ -n "${ASAN_OPTIONS:-}" ] && env+=("ASAN_OPTIONS=$ASAN_OPTIONS" "UBSAN_OPTIONS=${UBSAN_OPTIONS:-}")
	HP_XS_MARK=$(wc -l <"$HP/xs/log" 2>/dev/null || echo 0)
	run_capture env -C / -i PATH="$HP_PATH" \
		LD_LIBRARY_PATH="$XS_ROOT/usr/lib/x86_64-linux-gnu" "${env[@]}" \
		${HP_STRACE:+strace ${HP_PROCS_ONLY:+--seccomp-bpf -e trace=%process} -s 256 -f -o "$HP_STRACE"} \
		"$script" "$@" </dev/null
	# the applet's status (tests/exits.sh), when the script is forkless
	[ "$script" -ef "$FORKLESS" ] && exit_seen "${script##*/}" "$RC"
	return 0
}

hp_procs() {
	cut -d' ' -f1 "$1" | sort -u | wc -l
}

# The syslog lines so far, the time masked as TIME. The sink may lag
# behind the datagrams queued for it: a marker sent last (with logger)
# must have arrived first.
HP_SYNC=0
hp_syslog() {
	local i
	HP_SYNC=$((HP_SYNC + 1))
	logger -u /dev/log "hp-sync-$HP_SYNC"
	for i in $(seq 100); do
		grep -q "hp-sync-$HP_SYNC\$" "$HP/syslog" && break
		sleep 0.02
	done
	grep -v 'hp-sync-[0-9]*$' "$HP/syslog" | sed 's/^\(<[0-9]*>\)... .. ..:..:.. /\1TIME /'
}

# The xenstore tree as the stand-in saved it, below the given prefixes.
hp_tree() {
	local p pat=
	for p in "$@"; do pat="$pat -e ^$p"; done
	# shellcheck disable=SC2086
	grep $pat "$HP/xs/tree"
}

# scenario NAME SETUP ENV... -- ARGS (for the script $HP_FAMILY, with
# the test's hp_reset and state functions): SETUP (a function) builds the state,
# then each script runs; the two end states must be equal. The states
# stay in $HP/NAME.{debian,forkless} for the checks after it. A
# deliberate difference is stated as FIXUP, a sed script that turns
# Debian's end state into forkless's (the xenstore lines sorted again).
# What each appended to /var/log/xen/xen-hotplug.log (the scripts'
# stderr) must be equal too ($HP/NAME.{debian,forkless}.hplog); Debian's
# script creates the file empty on every call, forkless only when it has
# something to write there (so a file missing after the call is empty).
normalize() {
	sed "${FIXUP:-}" | awk '/^\// { t[++n] = $0; next } { r[++m] = $0 }
		END { print r[1]; c = "sort"; for (i = 1; i <= n; i++) print t[i] | c; close(c)
		      for (i = 2; i <= m; i++) print r[i] }'
}
# scenario_side HOW NAME SETUP ARGS...: one side's run (debian or
# forkless), its end state and logs in $HP/NAME.HOW*. Debian's side is
# traced for its process calls alone: only its processes are counted
# (vif-bridge.sh took 75 s against 92 with every call traced).
scenario_side() {
	local how=$1 name=$2 setup=$3 procs=
	shift 3
	[ $how = debian ] && procs=1
	hp_reset
	: >"$HP/syslog"
	hp_use "$how" "$HP_FAMILY"
	$setup
	rm -f "$HP_ERR_LOG"
	HP_STRACE=$HP/$name.$how.strace HP_PROCS_ONLY=$procs hp_call "$@"
	hp_xs_requests >"$HP/$name.$how.xsreq"
	cat "$HP_ERR_LOG" >"$HP/$name.$how.hplog" 2>/dev/null
	if [ $how = debian ]; then state | normalize; else state | FIXUP= normalize; fi >"$HP/$name.$how"
	printf '%s' "$ERR" >"$HP/$name.$how.err"
}
scenario() {
	local name=$1 setup=$2 tries=1
	shift 2
	# Debian's block takes the free loop device `losetup -f` names, then
	# sets it up: another process that took it in between (the ASan rerun
	# and Debian 13's root run these tests at the same time) fails the
	# call ("Device or resource busy"). Its side runs again then, three
	# times at most; forkless asks the kernel for a free device and
	# retries (libcommon/loopdev.c).
	while scenario_side debian "$name" "$setup" "$@" && [ $tries -lt 3 ] &&
		grep -q 'failed to set up loop device: Device or resource busy' "$HP/$name.debian.hplog"; do
		info "$HP_FAMILY/$name: Debian's losetup lost its loop device to another process: run again"
		tries=$((tries + 1))
	done
	scenario_side forkless "$name" "$setup" "$@"
	if diff -u "$HP/$name.debian" "$HP/$name.forkless" >"$HP/$name.diff"; then
		pass "$HP_FAMILY/$name: same end state as Debian's script"
	else
		fail "$HP_FAMILY/$name: end state differs from Debian's script" "$(cat "$HP/$name.diff")"
	fi
	if diff -u "$HP/$name.debian.hplog" "$HP/$name.forkless.hplog" >"$HP/$name.hplog.diff"; then
		pass "$HP_FAMILY/$name: same xen-hotplug.log lines as Debian's script"
	else
		fail "$HP_FAMILY/$name: xen-hotplug.log differs from Debian's script" "$(cat "$HP/$name.hplog.diff")"
	fi
	# WANT_PROCS=-: a call forkless hands over (the script's processes)
	if [ "${WANT_PROCS:-1}" != - ]; then
		check "$HP_FAMILY/$name: processes (Debian's: $(hp_procs "$HP/$name.debian.strace"))" 1 \
			"$(hp_procs "$HP/$name.forkless.strace")"
		figure hotplug-procs-call "$(hp_procs "$HP/$name.forkless.strace")"
	fi
}
# hp_xs_requests: the requests xenstored got since the last hp_call began (every
# connection's: run it before anything else asks)
hp_xs_requests() {
	tail -n +$((HP_XS_MARK + 1)) "$HP/xs/log" | grep -vc '^[0-9]* CONNECT$'
}
# The awk rules that set fd to the call's xenstore connection in an strace: xenstored's
# socket, or the xenbus device
HP_XS_FD_AWK='match($0, /connect\([0-9]+, \{sa_family=AF_UNIX, sun_path="\/var\/run\/xenstored\/socket"\}, [0-9]+\) = 0/) {
		fd = substr($0, RSTART + 8); sub(/,.*/, "", fd) }
	     match($0, /openat\(AT_FDCWD, "\/dev\/xen\/xenbus", [^)]*\) = [0-9]+/) {
		fd = substr($0, RSTART, RLENGTH); sub(/.* = /, "", fd) }'
hp_xs_writes() {
	awk "$HP_XS_FD_AWK"'
	     fd != "" && index($0, " write(" fd ", ") { n++ }
	     END { print n + 0 }' "$1"
}
hp_xs_trips() { hp_xs_writes "$1"; }
# hp_syscalls_within STRACE N: "yes" when the call made at most N system calls (execve to
# exit_group; under TCG in a Xen dom0 each costs 20-250 us of a 15-40 ms call), else "no: M".
# Not counted: block add's walk for a file already on a loop device, which grows with the
# host's loop devices: a faccessat of each /sys/block/loopN/loop, and for each bound one
# (faccessat = 0) its open, fstat, LOOP_GET_STATUS64 and close. Nor the waits for xenstored's replies
# (clock_gettime, poll, read on its socket): replies that arrive in several pieces take
# more of them, as the stand-in's timing has it (round trips: hp_xs_trips).
hp_syscalls_within() {
	local m walk bound
	m=$(awk 'match($0, /connect\([0-9]+, \{sa_family=AF_UNIX, sun_path="\/var\/run\/xenstored\/socket"/) {
			fd = substr($0, RSTART + 8); sub(/,.*/, "", fd) }
		/^[0-9]+ +(\+\+\+|---) / { next }
		/clock_gettime\(CLOCK_MONOTONIC/ || / poll\(/ { next }
		fd != "" && index($0, " read(" fd ", ") { next }
		{ n++ } END { print n + 0 }' "$1")
	walk=$(grep -Ec 'faccessat\([0-9]+, "loop[0-9]+/loop"' "$1")
	bound=$(grep -Ec 'faccessat2?\([0-9]+, "loop[0-9]+/loop", [^)]*\) += 0$' "$1")
	m=$((m - walk - 4 * bound))
	[ "$m" -le "$2" ] && echo yes || echo "no: $m"
}
# hp_xs_sent_before STRACE REGEX: "yes" when the call's first write to xenstored comes before
# the first line matching REGEX (what it does while xenstored answers), else "no"
hp_xs_sent_before() {
	awk -v re="$2" "$HP_XS_FD_AWK"'
	     fd != "" && index($0, " write(" fd ", ") { print "yes"; done = 1; exit }
	     $0 ~ re { print "no"; done = 1; exit }
	     END { if (!done) print "no" }' "$1"
}
# has NAME TEXT: the forkless end state of scenario NAME has the line TEXT
has() { grep -qF -- "$2" "$HP/$1.forkless" || fail "$HP_FAMILY/$1: end state lacks: $2" "$(cat "$HP/$1.forkless")"; }


# ---- for the vif scripts' tests ----------------------------------------

# The links of a scenario: bridges with fixed MACs, vif1.0 (a veth: the
# guest's end is guest1) with an address to be flushed.
net_reset() {
	local l
	for l in $(ip -o link show | sed -n 's/^[0-9]*: \([^:@]*\).*/\1/p'); do
		[ "$l" = lo ] || ip link del "$l" 2>/dev/null
	done
}
add_bridge() {   # add_bridge NAME MAC [MTU]
	ip link add "$1" address "$2" type bridge && ip link set "$1" mtu "${3:-1500}" up
}
add_vif() {   # add_vif NAME
	ip link add "$1" address 00:16:3e:00:00:01 type veth peer name guest1 address 00:16:3e:00:00:02
	ip addr add 192.0.2.9/24 dev "$1"
	ip -6 addr add 2001:db8::9/64 dev "$1"
}
vif_xs_reset() {   # vif_xs_reset SCRIPT: the keys libxl has written before it runs SCRIPT
	xs rm /local/domain 2>/dev/null
	xs write /local/domain/1/vm /vm/00000000-0000-0000-0000-000000000001 \
		/local/domain/1/device/vif/0/state 1 \
		/local/domain/1/device/vif/0/backend /local/domain/0/backend/vif/1/0 \
		backend/vif/1/0/frontend /local/domain/1/device/vif/0 \
		backend/vif/1/0/frontend-id 1 backend/vif/1/0/online 1 \
		backend/vif/1/0/state 2 backend/vif/1/0/mac 00:16:3e:00:00:01 \
		backend/vif/1/0/script /etc/xen/scripts/"$1" \
		backend/vif/1/0/hotplug-status ""
}
# links (flags, MAC, MTU, master), addresses and routes, indexes masked
net_state() {
	ip -o link show | sed 's/^[0-9]*: //; s/ *\\ */ /g'
	ip -o addr show | sed 's/^[0-9]*: //; s/ *\\ */ /g'
	ip route show table all
}
