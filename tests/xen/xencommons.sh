#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/xen/xencommons.sh - `xencommons` against Debian's /etc/init.d/xen
# (xen-utils-common 4.17, sh, with start-stop-daemon and choom) over the
# same states, with stand-in daemons: tests/xen/daemon-standin.c compiled
# and copied to /usr/lib/xen-4.17/bin/{xenstored,oxenstored,xenconsoled}
# and /usr/libexec/xen-qemu-system-i386 (start-stop-daemon matches them by
# /proc/PID/exe: real executables), a stand-in xenstore-read
# (tests/xen/xenstore-read-standin.py: Debian's readiness poll), a logging
# modprobe and xen-init-dom0.
#
# Where: a private PID and mount namespace (the daemons die with it). /run
# is a tmpfs; /usr and /etc are overlays; /sys is a tmpfs holding
# /sys/hypervisor (xen 4.17) and /sys/module; /proc is a tmpfs holding
# xen/capabilities and links to the namespace's proc (self, and PIDs 1 to
# 30000, so start-stop-daemon and the applet find /proc/PID/exe).
#
# Each state runs twice from a fresh start: Debian's script
# (/etc/init.d/xen ACTION), then the applet (/usr/lib/xen-common/bin/
# xencommons ACTION), with LC_ALL=C. Compared: stdout, stderr (the
# script's path in its usage line made $0), the exit status, the pid files
# and whose they are, the daemons running and each start's argv,
# XENSTORED_ROOTDIR and oom_score_adj, the SIGTERMs they got (SIGKILL
# leaves no line), /run/xen's mode. Where the applet
# is meant to differ, the state says so (WANT_*), and the test prints
# INFO: differs. XC_STATES="start stop" runs only those states (unset:
# every state, in four copies of this script at once, tests/lib.sh's
# run_shards). The modprobe calls are checked for the applet alone (the
# script runs modprobe for every module; the applet only for a module
# /sys/module lacks).
. "$(dirname "$0")/../lib.sh"
need_root xencommons || exit 0
for p in unshare gcc start-stop-daemon choom python3 timeout; do
	command -v $p >/dev/null || { skip xencommons "$p is not installed"; exit 0; }
done
[ -r /lib/lsb/init-functions ] && [ -r /lib/init/vars.sh ] ||
	{ skip xencommons "Debian's script needs /lib/lsb/init-functions and /lib/init/vars.sh"; exit 0; }
. "$TOP/tests/xen/lib-xen.sh"
DEBIAN_SCRIPTS=$(fetch_debian_scripts) ||
	{ skip xencommons "cannot download xen-utils-common (apt-get download)"; exit 0; }
if [ -z "${XC_IN_NS:-}" ]; then
	if [ -z "${STANDIN:-}" ]; then
		need_applet xencommons || exit 0
		STANDIN=$TMPBASE/daemon-standin
		gcc -O -o "$STANDIN" "$TOP/tests/xen/daemon-standin.c" ||
			{ fail xencommons "cannot build tests/xen/daemon-standin.c"; exit 0; }
		export STANDIN
	fi
	# four copies at once, each in its namespace (the states mostly wait
	# for daemons and timeouts: ~210 s in turn, 52 s of CPU)
	[ -n "${XC_STATES+set}" ] || { run_shards XC_STATES 4 "$0" "$@"; exit; }
	XC_IN_NS=1 DEBIAN_SCRIPTS=$DEBIAN_SCRIPTS \
		exec unshare -m -p -f --propagation private bash "$0" "$@"
fi
PATH=/usr/bin:/usr/sbin:$PATH
export LC_ALL=C
RES=$TMPBASE/xencommons${SHARD:+.$SHARD}
rm -rf "$RES"; mkdir -p "$RES"
BIN=/usr/lib/xen-4.17/bin

# ---- the namespace ------------------------------------------------------------
setup() {
	local d n e
	mount -t tmpfs tmpfs /run || return 1
	mkdir -p /run/ovl /run/.proc
	for d in usr etc; do
		mkdir -p "/run/ovl/$d/up" "/run/ovl/$d/work"
		mount -t overlay overlay -o "lowerdir=/$d,upperdir=/run/ovl/$d/up,workdir=/run/ovl/$d/work" "/$d" || return 1
	done
	mkdir -p /usr/lib/xen-common/bin $BIN /usr/libexec /etc/init.d /etc/default
	for e in xen-version xen-dir; do
		install -m 755 "$DEBIAN_SCRIPTS/usr/lib/xen-common/bin/$e" /usr/lib/xen-common/bin/$e || return 1
	done
	install -m 755 "$DEBIAN_SCRIPTS/etc/init.d/xen" /etc/init.d/xen
	install -m 755 "$TOP/tests/xen/xenstore-read-standin.py" /usr/bin/xenstore-read
	printf '#!/bin/sh\necho "$*" >>/run/standin/modprobe.log\n' >/usr/sbin/modprobe
	chmod 755 /usr/sbin/modprobe
	printf '#!/bin/sh\necho run >>/run/standin/xen-init-dom0.log\nexit $(cat /run/standin/xen-init-dom0.rc 2>/dev/null || echo 0)\n' >$BIN/xen-init-dom0
	chmod 755 $BIN/xen-init-dom0
	ln -sfn "$FORKLESS" /usr/lib/xen-common/bin/xencommons
	mount -t tmpfs tmpfs /sys || return 1
	mount -t proc proc /run/.proc || return 1
	mount -t tmpfs tmpfs /proc || return 1
	python3 - <<'EOF' || return 1
import os
for n in os.listdir('/run/.proc'):
    if not n.isdigit():
        os.symlink('/run/.proc/' + n, '/proc/' + n)
for n in range(1, 30001):
    os.symlink('/run/.proc/%d' % n, '/proc/%d' % n)
EOF
}
# Where this root may not lower an oom score (no CAP_SYS_RESOURCE, as in
# a container), /proc/self is a directory whose oom_score_adj is a plain
# file and /usr/bin/choom a stand-in writing it: both sides then record
# the score they set, in the same file the stand-in daemons read.
oom_shim() {
	rm /proc/self
	mkdir /proc/self
	cat >/usr/bin/choom <<'EOF'
#!/bin/sh
# choom -n SCORE PROGRAM -- ARGS: util-linux's, GNU getopt permuting the
# "--" away from ARGS
[ "$1" = -n ] && printf '%s\n' "$2" >/proc/self/oom_score_adj
shift 2; p=$1; shift; [ "$1" = -- ] && shift
exec "$p" "$@"
EOF
	chmod 755 /usr/bin/choom
}
OOM_SHIM=
if ! choom -n -1000 -- true 2>/dev/null; then
	OOM_SHIM=1
	[ "${SHARD:-1}" != 1 ] ||
		info "xencommons: this root cannot set oom_score_adj -1000: /proc/self/oom_score_adj is a plain file, choom a stand-in"
fi
setup || { fail xencommons "the namespace: tmpfs /run, /sys, /proc; overlays on /usr, /etc"; exit 0; }
[ -n "$OOM_SHIM" ] && oom_shim

# ---- a state --------------------------------------------------------------------
# st_NAME sets up what is there before the run, and:
#   ACTION=WORD   the argument (start by default); PRE=WORD: run before
#                 (each side its own), e.g. start before a stop
#   MID=FUNCTION  run after PRE, before the action (e.g. dpkg's upgrade
#                 of the running daemons' files)
#   LIMIT=S       timeout (45 s)
#   MODULES="..." /sys/module entries present (none by default)
#   WANT_OUT= WANT_ERR= WANT_RC=  the applet's, where it differs (WANT_ERR
#                 starting with ~: an extended regular expression); DIFFERS=
#                 the reason
#   WANT_MODPROBE  the applet's modprobe calls, one a line
#   MAX_MS=N      the applet must be done within N ms
kill_daemons() {
	local p exe
	for p in /run/.proc/[0-9]*; do
		exe=$(readlink "$p/exe" 2>/dev/null) || continue
		case $exe in $BIN/*|/usr/libexec/xen-qemu-system-i386*) kill -9 "${p##*/}" 2>/dev/null ;; esac
	done
}

fresh() {
	kill_daemons
	rm -rf /run/standin /run/xen /run/xenstored /run/xs-db /run/*.pid /proc/xen /sys/hypervisor /sys/module \
		/etc/default/xen /etc/init.d/xen.distrib /usr/libexec/xen-qemu-system-i386 \
		/usr/sbin/oxenstored /usr/local/sbin/xenstored /usr/lib/xen-common/bin/xen-utils-wrapper
	mkdir -p /run/standin /proc/xen /sys/hypervisor/version /sys/module
	printf 'xen\n' >/sys/hypervisor/type
	printf '4\n' >/sys/hypervisor/version/major
	printf '17\n' >/sys/hypervisor/version/minor
	printf 'control_d\n' >/proc/xen/capabilities
	[ -n "$OOM_SHIM" ] && echo 0 >/proc/self/oom_score_adj
	install -m 755 "$STANDIN" $BIN/xenstored
	install -m 755 "$STANDIN" $BIN/xenconsoled
	rm -f $BIN/oxenstored
	install -m 644 "$DEBIAN_SCRIPTS/usr/share/xen-utils-common/default.xen" /etc/default/xen
}

# The results a run leaves: RESULT.{out,err,rc,state,modprobe}
collect() {
	local r=$1 f p
	{
		for f in /run/xenstore.pid /run/xenconsoled.pid /run/qemu-dom0.pid; do
			if [ -f "$f" ]; then
				p=$(cat "$f")
				printf 'pidfile %s: %s\n' "$f" "$(readlink /run/.proc/$p/exe 2>/dev/null || echo dead)"
			else
				printf 'pidfile %s: none\n' "$f"
			fi
		done
		for p in /run/.proc/[0-9]*; do
			f=$(readlink "$p/exe" 2>/dev/null) || continue
			case $f in $BIN/*|/usr/libexec/*) printf 'running %s\n' "$f" ;; esac
		done | sort
		for f in /run/standin/*.log; do
			[ -e "$f" ] || continue
			case $f in */modprobe.log) continue ;; esac
			sed "s|^|${f##*/}: |" "$f"
		done
		[ -e /run/xen ] && printf '/run/xen %s\n' "$(stat -c '%F %a' /run/xen)"
	} >"$r.state"
	cat /run/standin/modprobe.log >"$r.modprobe" 2>/dev/null || : >"$r.modprobe"
}

run_side() {   # SIDE CMD: one run from a fresh state
	local side=$1 cmd=$2 t0 t1
	fresh
	"st_$st"
	[ -n "$PRE" ] && timeout "$LIMIT" "$cmd" "$PRE" >/dev/null 2>&1
	[ -n "$MID" ] && "$MID"
	rm -f /run/standin/modprobe.log
	t0=$(date +%s%N)
	timeout "$LIMIT" "$cmd" "$ACTION" >"$RES/$st.$side.out" 2>"$RES/$st.$side.err"
	echo $? >"$RES/$st.$side.rc"
	[ "$side" = applet ] && exit_seen xencommons "$(cat "$RES/$st.$side.rc")"
	t1=$(date +%s%N)
	MS=$(( (t1 - t0) / 1000000 ))
	sed -i "s|$cmd|\$0|g" "$RES/$st.$side.err"
	collect "$RES/$st.$side"
}

cmp_field() {   # NAME FIELD WANT: the applet's FIELD against WANT (or Debian's)
	local name=$1 field=$2 got want
	got=$(cat "$RES/$st.applet.$field"; echo x); got=${got%x}
	if [ "${3+set}" ]; then want=$3; else want=$(cat "$RES/$st.debian.$field"; echo x); want=${want%x}; fi
	if [[ $want == "~"* ]]; then
		[[ $got =~ ${want#\~} ]] && pass "$name: $field" ||
			fail "$name: $field" "does not match ${want#\~}" "$got"
	elif [ "$got" == "$want" ]; then
		pass "$name: $field"
	else
		printf '%s' "$want" >"$RES/want"; printf '%s' "$got" >"$RES/got"
		fail "$name: $field" "differs" "$(diff -u "$RES/want" "$RES/got" | tail -n +3)"
	fi
}

state() {   # state NAME DESCRIPTION (XC_STATES="A B": only those)
	[ -n "${XC_STATES+set}" ] && [[ " $XC_STATES " != *" $1 "* ]] && return 0
	st=$1
	local name="xencommons/$1: $2" i
	ACTION=start PRE= MID= LIMIT=45 MODULES= DIFFERS= MAX_MS=
	unset WANT_OUT WANT_ERR WANT_RC WANT_STATE WANT_MODPROBE
	fresh; "st_$st"   # the state's variables
	if [ -z "${WANT_MODPROBE+set}" ]; then
		WANT_MODPROBE=
		[ "$ACTION" = start ] && WANT_MODPROBE=$'xenfs\nxen-evtchn\nxen-gntdev\nxen-acpi-processor'
	fi
	run_side debian /etc/init.d/xen
	run_side applet /usr/lib/xen-common/bin/xencommons
	[ -n "$DIFFERS" ] && info "differs: $1: $DIFFERS"
	if [ "${WANT_OUT+set}" ]; then cmp_field "$name" out "$WANT_OUT"; else cmp_field "$name" out; fi
	if [ "${WANT_ERR+set}" ]; then cmp_field "$name" err "$WANT_ERR"; else cmp_field "$name" err; fi
	if [ "${WANT_RC+set}" ]; then cmp_field "$name" rc "$WANT_RC"$'\n'; else cmp_field "$name" rc; fi
	if [ "${WANT_STATE+set}" ]; then cmp_field "$name" state "$WANT_STATE"; else cmp_field "$name" state; fi
	cmp_field "$name" modprobe "${WANT_MODPROBE:+$WANT_MODPROBE$'\n'}"
	if [ -n "$MAX_MS" ]; then
		[ "$MS" -le "$MAX_MS" ] && pass "$name: done in ${MS} ms (<= $MAX_MS)" ||
			fail "$name: time" "took $MS ms, more than $MAX_MS"
	fi
}
modules() { local m; for m; do mkdir -p "/sys/module/$m"; done; }

# ---- the states ---------------------------------------------------------------------
st_start() { :; }
state start "a first start: xenstored, xen-init-dom0, xenconsoled"

st_start_all_modules() { modules xenfs xen_evtchn xen_gntdev xen_acpi_processor; WANT_MODPROBE=; }
state start_all_modules "every module loaded: no modprobe"

st_start_some_modules() { modules xenfs xen_gntdev; WANT_MODPROBE=$'xen-evtchn\nxen-acpi-processor'; }
state start_some_modules "two modules loaded: modprobe for the other two only"

st_oxenstored() { install -m 755 "$STANDIN" $BIN/oxenstored; }
state oxenstored "oxenstored there: preferred to xenstored"

st_xenstored_setting() {
	install -m 755 "$STANDIN" $BIN/oxenstored
	printf 'XENSTORED=%s\nXENSTORED_ARGS="--trace-file /run/trace  -N"\nXENCONSOLED_ARGS=--log=all\nXENSTORED_DIR=/run/xs-db\n' \
		"$BIN/xenstored" >>/etc/default/xen
}
state xenstored_setting "XENSTORED, XENSTORED_ARGS, XENCONSOLED_ARGS, XENSTORED_DIR"

st_qemu() { install -m 755 "$STANDIN" /usr/libexec/xen-qemu-system-i386; }
state qemu "the dom0 QEMU there: started with its arguments"

st_twice() { PRE=start; install -m 755 "$STANDIN" /usr/libexec/xen-qemu-system-i386; }
state twice "run twice: the running daemons left alone"

st_stop() { PRE=start; ACTION=stop; install -m 755 "$STANDIN" /usr/libexec/xen-qemu-system-i386; }
state stop "stop: QEMU and xenconsoled stopped, xenstored left"

st_stop_none() { ACTION=stop; }
state stop_none "stop with nothing running"

st_restart() { PRE=start; ACTION=restart; }
state restart "restart: xenconsoled stopped and started again"

st_force_reload() { PRE=start; ACTION=force-reload; }
state force_reload "force-reload: as restart"

st_stale() {
	printf '%s\n' $$ >/run/xenstore.pid
	printf '29999\n' >/run/xenconsoled.pid
}
state stale "stale pid files (another process's pid, a dead one): started anyway"

st_usage() { ACTION=bogus; }
state usage "an unknown action: the usage line, exit 3"

st_status() {
	ACTION=status PRE=start DIFFERS="status is the applet's (the script has none: usage, 3)"
	WANT_OUT=$'xenstored is running (~' WANT_ERR= WANT_RC=0
	WANT_OUT='~^xenstored is running \([0-9]+\)\.
xenconsoled is running \([0-9]+\)\.
$'
}
state status "status with the daemons running"

st_status_down() {
	ACTION=status DIFFERS="status is the applet's" WANT_ERR= WANT_RC=3
	WANT_OUT=$'xenstored is not running.\nxenconsoled is not running.\n'
}
state status_down "status with nothing running: 3"

st_not_xen() { printf 'kvm\n' >/sys/hypervisor/type; WANT_MODPROBE=; }
state not_xen "not under Xen: exit 0, nothing done"

st_no_utils() { printf '99\n' >/sys/hypervisor/version/minor; WANT_MODPROBE=; }
state no_utils "no /usr/lib/xen-4.99: the warning, exit 1"

st_domu() { : >/proc/xen/capabilities; }
state domu "start in a domU: no control_d, done"

st_domu_stop() { : >/proc/xen/capabilities; ACTION=stop; }
state domu_stop "stop in a domU: exit 1, nothing said"

st_xenstored_missing() { rm -f $BIN/xenstored; }
state xenstored_missing "no xenstored: no suitable binary"

st_xenstored_noexec() { chmod 644 $BIN/xenstored; }
state xenstored_noexec "xenstored not executable"

st_xenstored_fails() { echo fail >/run/standin/xenstored.mode; }
state xenstored_fails "xenstored exits 1 at its start"

st_xenstored_slow() { echo slow >/run/standin/xenstored.mode; }
state xenstored_slow "xenstored's socket after 1 s: waited for"

st_xenstored_crash() {
	echo crash >/run/standin/xenstored.mode
	DIFFERS="the applet sees xenstored end at once (the script polls for 30 s)"
	WANT_ERR="~^xencommons: $BIN/xenstored: /var/run/xenstored/socket: it ended before answering"$'\n$'
	MAX_MS=5000
}
state xenstored_crash "xenstored crashes once daemonized: failed at once, named"

st_xenstored_silent() {
	echo silent >/run/standin/xenstored.mode
	LIMIT=40
	DIFFERS="the script's xenstore-read waits forever on a xenstored that never answers; the applet 30 s"
	WANT_OUT=$'Starting Xen daemons: xenstored failed!\n' WANT_RC=1
	WANT_ERR="~^xencommons: $BIN/xenstored: /var/run/xenstored/socket: no answer within 30 s"$'\n$'
	WANT_STATE="~running $BIN/xenstored"
	MAX_MS=33000
}
state xenstored_silent "xenstored never answers: bounded by 30 s, named"

st_xenfs() {
	rm -f /proc/xen/capabilities
	DIFFERS="mount(8)'s message is the applet's own"
	WANT_ERR='~^xencommons: mount xenfs on /proc/xen: No such device'$'\n$'
}
state xenfs "xenfs not mountable: failed, exit 1"

st_run_xen() { printf 'x' >/run/xen; }
state run_xen "/run/xen not makeable: said, the start goes on"

st_handover() {
	printf 'if true; then XENSTORED_ARGS=-N; fi\n' >>/etc/default/xen
	install -m 755 "$DEBIAN_SCRIPTS/etc/init.d/xen" /etc/init.d/xen.distrib
	DIFFERS="handed over: the line saying so"
	WANT_ERR='~^xencommons: handing over to /etc/init.d/xen.distrib: /etc/default/xen:[0-9]+: '
}
state handover "/etc/default/xen not plain: Debian's script runs it"

# ---- hostile pid files and settings ---------------------------------------------------
st_pidfile_garbage() {
	printf 'abc\n' >/run/xenstore.pid
	printf '99999999999999999999\n' >/run/xenconsoled.pid
}
state pidfile_garbage "pid files holding no pid"

st_args_long() {
	printf 'XENSTORED_ARGS=%s\n' "$(head -c 5000 /dev/zero | tr '\0' a)" >>/etc/default/xen
	install -m 755 "$DEBIAN_SCRIPTS/etc/init.d/xen" /etc/init.d/xen.distrib
	DIFFERS="a value over 4095 bytes: handed over to the script, said"
	WANT_ERR='~^xencommons: handing over to /etc/init.d/xen.distrib: /etc/default/xen(:[0-9]+)?: a value longer than'
}
state args_long "XENSTORED_ARGS of 5000 bytes: handed over"

# ---- which process is the daemon: start-stop-daemon's rules ---------------------------
# (pid file, then --exec: the file /proc/PID/exe names, less " (deleted)";
# --name: the command name; no --user) docs/xen.md has them.

# dpkg's upgrade of the running daemons: each file unpacked beside, then
# renamed over (the running ones' /proc/PID/exe: "PATH (deleted)")
upgrade_files() {
	local f
	for f in $BIN/xenstored $BIN/xenconsoled /usr/libexec/xen-qemu-system-i386; do
		[ -e "$f" ] || continue
		cp "$STANDIN" "$f.dpkg-new" && chmod 755 "$f.dpkg-new" && mv -f "$f.dpkg-new" "$f"
	done
}
st_upgrade_start() {
	PRE=start MID=upgrade_files
	install -m 755 "$STANDIN" /usr/libexec/xen-qemu-system-i386
}
state upgrade_start "start after dpkg renamed new daemons over the running ones: none started twice"

st_upgrade_stop() {
	PRE=start MID=upgrade_files ACTION=stop MAX_MS=5000
	install -m 755 "$STANDIN" /usr/libexec/xen-qemu-system-i386
}
state upgrade_stop "stop after dpkg renamed new daemons over the running ones: QEMU and xenconsoled get SIGTERM"

st_stop_pidfile() { PRE=start ACTION=stop MAX_MS=5000; }
state stop_pidfile "stop: xenconsoled found by its pid file and command name, SIGTERM, gone at once"

# XENSTORED naming a link: a plain symlink to the daemon, the Xen wrapper
# as Debian links /usr/sbin/oxenstored to it (its shell script, or forkless)
st_xenstored_symlink() {
	mkdir -p /usr/local/sbin
	ln -s $BIN/xenstored /usr/local/sbin/xenstored
	printf 'XENSTORED=/usr/local/sbin/xenstored\n' >>/etc/default/xen
}
state xenstored_symlink "XENSTORED a symlink to xenstored"

st_xenstored_wrapper() {
	install -m 755 "$STANDIN" $BIN/oxenstored
	install -m 755 "$DEBIAN_SCRIPTS/usr/lib/xen-common/bin/xen-utils-wrapper" /usr/lib/xen-common/bin/xen-utils-wrapper
	ln -s ../lib/xen-common/bin/xen-utils-wrapper /usr/sbin/oxenstored
	printf 'XENSTORED=/usr/sbin/oxenstored\n' >>/etc/default/xen
}
state xenstored_wrapper "XENSTORED=/usr/sbin/oxenstored, Debian's link to xen-utils-wrapper"

st_xenstored_wrapper_forkless() {
	install -m 755 "$STANDIN" $BIN/oxenstored
	ln -s "$FORKLESS" /usr/sbin/oxenstored
	printf 'XENSTORED=/usr/sbin/oxenstored\n' >>/etc/default/xen
}
state xenstored_wrapper_forkless "XENSTORED=/usr/sbin/oxenstored, a link to forkless (its wrapper applet)"

st_xenstored_wrapper_twice() {
	st_xenstored_wrapper
	PRE=start
}
state xenstored_wrapper_twice "XENSTORED the wrapper, started before: left alone"

# Another user's runs of the world-executable xenconsoled: matched by
# --exec as the script's start-stop-daemon (no --user) matches them, all
# waited for at once (30 s), then SIGKILL: one 30 s wait, not one each.
strays() {
	local i p n=0
	for i in 1 2; do
		setpriv --reuid=65534 --regid=65534 --clear-groups $BIN/xenconsoled
	done
	for p in /run/.proc/[0-9]*; do
		[ "$(readlink "$p/exe" 2>/dev/null)" = $BIN/xenconsoled ] &&
			[ "$(stat -c %u "$p")" = 65534 ] && n=$((n + 1))
	done
	[ $n = 2 ] || fail "xencommons/stop_strays: two xenconsoled of uid 65534 running" "$n found"
}
st_stop_strays() {
	PRE=start MID=strays ACTION=stop LIMIT=75 MAX_MS=34000
	command -v setpriv >/dev/null || MID=
}
state stop_strays "stop: two xenconsoled of another user, one 30 s wait for both, then SIGKILL"
