#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/xen/xendomains.sh - `forkless xendomains` against Debian's
# /etc/init.d/xendomains (xen-utils-common 4.17, bash, with Debian's
# xen wrapper and python3 xen-init-list/-name) over the same states, with a
# stand-in xl (tests/xen/xl-standin.py, its CLI and behaviour file there)
# keeping its domains in the stand-in xenstored (tests/xenstored-standin.py).
#
# Where: a private mount namespace on the host. /run is a tmpfs (no
# /run/systemd/system, so Debian's LSB hook 40-systemd does not hand over to
# systemctl); /usr, /etc and /var/lib are overlays (Debian's scripts at
# their Debian paths: /usr/sbin/xen, /usr/sbin/xl -> xen-utils-wrapper,
# /usr/lib/xen-common/bin/*, the stand-in as /usr/lib/xen-4.17/bin/xl,
# Debian's script as /etc/init.d/xendomains and, for the hand-over,
# /etc/init.d/xendomains.distrib); /sys is a tmpfs holding
# /sys/hypervisor (xen 4.17) and /proc a tmpfs holding xen/privcmd,
# xen/capabilities and links to the real proc's entries (self, cmdline...).
#
# Each state runs twice from a fresh copy (xenstore tree, save dir,
# /etc/xen/auto, /etc/default/xendomains, the stand-in's rules): Debian's
# script (`/etc/init.d/xendomains ACTION`), then the applet
# (`$FORKLESS xendomains ACTION`, run as forkless-xen installs it: the
# binary as /etc/init.d/xendomains), each under strace -f -e trace=execve,
# stdout and stderr captured apart. Compared: the xl calls (same order,
# same arguments), stdout, stderr, the exit status, the save dir's files
# left, the xenstore domains left. The applet's execve list must be exactly
# its own and one /usr/lib/xen-4.17/bin/xl per call (the path the wrapper
# resolves) (no shell, sleep, seq,
# cat, python3), except where it hands over to xendomains.distrib.
#
# Normalisation (the only one):
#  - runs of the progress mark `...` collapse to one `...` on stdout:
#    Debian's script prints one per second of its `sleep 1` polling (at
#    least one per save, one per second a shutdown is waited for), the
#    applet one per whole second it waited;
#  - Debian's xl calls that only ask (`list`, `list -l`, `domid NAME`,
#    `create --quiet --dryrun --defconfig FILE`: the script's dom0 check,
#    xen-init-list, check_running, xen-init-name) are left out: the applet
#    reads xenstore and the configs itself (issue 29: no xl for a query).
# Where the applet is meant to differ from Debian's script (its unquoted
# expansions split names with spaces; its python3 xen-init-list dies on a
# name that is not UTF-8), the state says why (DIFFERS), its data files
# (below) give the applet's expected result, and the test prints
# `INFO: differs: STATE: REASON`.
# Debian's results per state are kept in build/tests/xendomains.N/STATE/
# (N: the copy that ran it) as debian.{out,err,rc,calls,files,doms,execs}
# and debian.summary (the applet's beside them). Without the applet built
# in, Debian's side runs alone (and its results are checked against the
# record of them).
#
# The expected results are data, in tests/xen/xendomains.expected/:
#   STATE.debian        Debian's results as recorded: the lines of its run's
#                       debian.summary (see COLLECT), compared whole (final
#                       newlines aside); to record them afresh, copy each
#                       build/tests/xendomains.N/STATE/debian.summary there
#   STATE.applet.FIELD  where the applet is meant to differ (the state sets
#                       DIFFERS), its expected FIELD (calls out err rc files
#                       doms, as `field` gives them): the file's text but its
#                       last newline (an empty file: nothing); see WANT_ below
#   STATE.notify        the messages the applet sends to NOTIFY_SOCKET, run
#                       as systemd runs it on STATE, and its exit status
#   watch.replies       the stand-in xenstored's replies to the watch check
# byte for byte (tests/harness/licence.sh exempts the folder: no SPDX line).
. "$(dirname "$0")/../lib.sh"
need_root xendomains || exit 0
for p in python3 unshare strace timeout; do
	command -v $p >/dev/null || { fail xendomains "$p is not installed"; exit 0; }
done
[ -x /usr/bin/python3 ] || { skip xendomains "Debian's xen-init-list needs /usr/bin/python3"; exit 0; }
[ -r /lib/lsb/init-functions ] && [ -r /lib/init/vars.sh ] ||
	{ skip xendomains "Debian's script needs /lib/lsb/init-functions and /lib/init/vars.sh (sysvinit-utils)"; exit 0; }
. "$TOP/tests/xen/lib-xen.sh"
DEBIAN_SCRIPTS=$(fetch_debian_scripts) ||
	{ skip xendomains "cannot download xen-utils-common (apt-get download)"; exit 0; }
APPLET=yes
if [ -z "${XDM_IN_NS:-}" ]; then
	need_applet xendomains || APPLET=
	# four copies at once, each in its namespace (the states mostly wait:
	# Debian's `sleep 1` polls, the stand-ins' 2 s saves; ~130 s in turn,
	# 60 s of CPU); XD_STATES="A B" runs only those (the notify checks in
	# the first copy)
	[ -n "${XD_STATES+set}" ] || { run_shards XD_STATES 4 "$0" "$@"; exit; }
	XDM_IN_NS=1 XDM_APPLET=$APPLET DEBIAN_SCRIPTS=$DEBIAN_SCRIPTS \
		exec unshare -m --propagation private bash "$0" "$@"
fi
APPLET=$XDM_APPLET
# python3 for the stand-ins: the system's, as Debian's scripts' #! (a
# version manager's shim on PATH costs a second a start)
PATH=/usr/bin:$PATH
T0=$(date +%s%N)
base=$(scratch xendomains)
RES=$TMPBASE/xendomains${SHARD:+.$SHARD}
rm -rf "$RES"; mkdir -p "$RES"
. "$TOP/tests/lib-xenstored.sh"
cleanup() {
	[ -n "$XS_STANDIN_PID" ] && kill "$XS_STANDIN_PID" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$base"
}
trap cleanup EXIT

# ---- the namespace ------------------------------------------------------------
setup() {
	local d e n
	mount -t tmpfs tmpfs /run || return 1
	mkdir -p /run/xenstored /run/xl-standin /run/ovl /run/.proc
	for d in usr etc var/lib; do
		n=${d//\//-}
		mkdir -p "/run/ovl/$n/up" "/run/ovl/$n/work"
		mount -t overlay overlay -o "lowerdir=/$d,upperdir=/run/ovl/$n/up,workdir=/run/ovl/$n/work" "/$d" || return 1
	done
	# Debian's xen-utils-common at its paths (a Debian 13 root may have no
	# /etc/init.d: no package of a minimal one ships it)
	mkdir -p /usr/lib/xen-common/bin /usr/lib/xen-4.17/bin /etc/xen/auto /etc/default /etc/init.d /var/lib/xen
	for e in xen-utils-wrapper xen-version xen-dir xen-init-list xen-init-name; do
		install -m 755 "$DEBIAN_SCRIPTS/usr/lib/xen-common/bin/$e" /usr/lib/xen-common/bin/$e || return 1
	done
	install -m 755 "$DEBIAN_SCRIPTS/usr/sbin/xen" /usr/sbin/xen
	ln -sfn ../lib/xen-common/bin/xen-utils-wrapper /usr/sbin/xl
	install -m 755 "$TOP/tests/xen/xl-standin.py" /usr/lib/xen-4.17/bin/xl
	install -m 755 "$DEBIAN_SCRIPTS/etc/init.d/xendomains" /etc/init.d/xendomains
	install -m 755 "$DEBIAN_SCRIPTS/etc/init.d/xendomains" /etc/init.d/xendomains.distrib
	# /sys: the hypervisor files only
	mount -t tmpfs tmpfs /sys || return 1
	mkdir -p /sys/hypervisor/version
	printf 'xen\n' >/sys/hypervisor/type
	printf '4\n' >/sys/hypervisor/version/major
	printf '17\n' >/sys/hypervisor/version/minor
	printf '.7\n' >/sys/hypervisor/version/extra
	# /proc: xen/ and links to the real one's entries (self is a magic link)
	mount --bind /proc /run/.proc || return 1
	mount -t tmpfs tmpfs /proc || return 1
	for e in /run/.proc/*; do
		n=${e##*/}
		case $n in *[!0-9]*) ln -s "$e" "/proc/$n" ;; esac
	done
	mkdir /proc/xen
}
setup || { fail xendomains "the namespace: tmpfs /run, /sys, /proc; overlays on /usr, /etc, /var/lib"; exit 0; }

# ---- a state --------------------------------------------------------------------
# A state function (st_NAME) describes what is there before the run, with:
#   dom ID NAME            a running domain (NAME with printf escapes)
#   image NAME [CONTENT]   a save image (CONTENT: the domain's name, NAME's
#                          by default), printf escapes in both
#   auto FILE NAME         /etc/xen/auto/FILE: a config `name = "NAME"`
#   set_var VAR VALUE      /etc/default/xendomains: VAR=VALUE (Debian's
#                          shipped file otherwise); unset_var VAR: the line
#                          `VAR=` (empty)
#   rule ACTION NAME WHAT [ARG...]  a line of the stand-in's behave file
#   NO_PRIVCMD=1           no /proc/xen/privcmd (not a dom0)
#   XS_ARGS=(--silent)     the stand-in xenstored's options
#   LIMIT=SECONDS          run under timeout SECONDS (30 without it)
#   NEXT_DOMID=N           the first domid xl gives (10)
#   ACTION=WORD            the argument (start, stop...)
#   MAX_MS=N               the applet must be done within N ms (its waits are
#                          events, its parallel saves overlap)
#   ANY_ORDER=1            the applet's xl calls compared in any order (they
#                          start together: XENDOMAINS_PARALLEL), its domains
#                          by name (their ids follow the order restores end in)
# and, where the applet is meant to differ, DIFFERS=REASON; fresh sets the
# applet's expected results WANT_CALLS WANT_OUT WANT_ERR WANT_RC WANT_FILES
# WANT_DOMS from $EXPECTED/STATE.applet.FIELD (a WANT_ left unset, no file:
# Debian's result; one starting with ~: an extended regular expression the
# applet's result must match).
EXPECTED=$TOP/tests/xen/xendomains.expected
SAVE=/var/lib/xen/save
dom() {
	printf '/local/domain/%s/domid=%s\n/local/domain/%s/name=%s\n' "$1" "$1" "$1" "$2" >>"$base/xs/tree.in"
}
image() {
	mkdir -p "$SAVE"
	printf "${2:-$1}" >"$SAVE/$(printf "$1")"
}
auto() { printf 'name = "%s"\nmemory = 128\nkernel = "/boot/vmlinuz"\n' "$(printf "$2")" >"/etc/xen/auto/$(printf "$1")"; }
set_var() {
	if grep -q "^$1=" /etc/default/xendomains; then
		sed -i "s|^$1=.*|$1=$2|" /etc/default/xendomains
	else
		printf '%s=%s\n' "$1" "$2" >>/etc/default/xendomains
	fi
}
unset_var() { set_var "$1" ""; }
rule() { local IFS=$'\t'; printf '%s\n' "$*" >>/run/xl-standin/behave; }

# expected VAR FILE: VAR set to the bytes of $EXPECTED/FILE
expected() {
	local v
	v=$(cat "$EXPECTED/$2"; echo x)
	printf -v "$1" '%s' "${v%x}"
}

# fresh STATE: everything a run sees, from nothing
fresh() {
	local st=$1 f want
	if [ -n "$XS_STANDIN_PID" ]; then
		kill "$XS_STANDIN_PID" 2>/dev/null; wait "$XS_STANDIN_PID" 2>/dev/null; XS_STANDIN_PID=
	fi
	rm -rf "$base/xs" /run/xl-standin /var/lib/xen /etc/xen/auto /proc/xen/* /etc/default/xendomains
	mkdir -p "$base/xs" /run/xl-standin /var/lib/xen /etc/xen/auto
	: >/run/xl-standin/calls
	printf '/local/domain/0/domid=0\n/local/domain/0/name=Domain-0\n' >"$base/xs/tree.in"
	install -m 644 "$DEBIAN_SCRIPTS/etc/default/xendomains" /etc/default/xendomains
	NO_PRIVCMD= XS_ARGS=() LIMIT=30 LIMIT_DEBIAN= NEXT_DOMID=10 ACTION=start DIFFERS= HANDOVER= MAX_MS= ANY_ORDER= NO_DISTRIB= KILL_AFTER=
	install -m 755 "$DEBIAN_SCRIPTS/etc/init.d/xendomains" /etc/init.d/xendomains.distrib
	unset WANT_CALLS WANT_OUT WANT_ERR WANT_RC WANT_FILES WANT_DOMS
	"st_$st"
	for f in calls out err rc files doms; do
		[ -f "$EXPECTED/$st.applet.$f" ] || continue
		expected want "$st.applet.$f"
		printf -v "WANT_${f^^}" '%s' "${want%$'\n'}"
	done
	[ -z "$NO_DISTRIB" ] || rm -f /etc/init.d/xendomains.distrib
	printf '%s\n' "$NEXT_DOMID" >/run/xl-standin/next-domid
	if [ -z "$NO_PRIVCMD" ]; then
		: >/proc/xen/privcmd
		printf 'control_d\n' >/proc/xen/capabilities
	fi
	xenstored_standin "$base/xs" "${XS_ARGS[@]}" || { fail "xendomains/$st" "the stand-in xenstored did not start"; return 1; }
	echo "$XS_STANDIN_PID" >/run/xl-standin/xenstored-pid   # (the stand-in xl's killxs)
}

# The results a run leaves, in one python3 start (the machine may be slow):
# RESULT.files: the save dir's mode ("(dir 700)") and names ("(no save
# dir)" without it);
# RESULT.doms: "ID NAME" of each domain in the stand-in xenstored's tree;
# names with bytes outside 0x21-0x7e or a backslash written \xNN, as the
# stand-in xl logs its calls. RESULT.summary: one line a fact, for
# debian_check below: "rc N", "call XL-ARGS", "out LINE" (normalised),
# "err LINE" (python3's indented traceback frames left out: they name
# python's version), "file NAME", "dom ID NAME"; out and err with bytes
# below 0x20, from 0x7f and the backslash as \xNN.
COLLECT='
import os, re, sys
r, save, tree = sys.argv[1:]
def esc(b):
    return "".join(chr(c) if 0x21 <= c <= 0x7e and c != 0x5c else "\\x%02x" % c for c in b)
def vis(b):
    return "".join(chr(c) if 0x20 <= c < 0x7f and c != 0x5c else "\\x%02x" % c for c in b)
def lines(b):
    return b.split(b"\n")[:-1] if b.endswith(b"\n") else b.split(b"\n") if b else []
if os.path.isdir(save):
    files = ["(dir %o)" % (os.stat(save).st_mode & 0o7777)]
    files += [esc(os.fsencode(f)) for f in sorted(os.listdir(os.fsencode(save)))]
else:
    files = ["(no save dir)"]
doms = []
for l in open(tree, encoding="utf-8"):
    m = re.match(r"/local/domain/([0-9]+)/name=(.*)$", l.rstrip("\n"))
    if m:
        # the stand-in writes utf-8 (backslashreplace), unicode_escape-d
        v = m.group(2).encode().decode("unicode_escape").encode()
        v = re.sub(rb"\\x([0-9a-f]{2})", lambda x: bytes([int(x.group(1), 16)]), v)
        doms.append("%d %s" % (int(m.group(1)), esc(v)))
doms.sort(key=lambda d: int(d.split()[0]))
open(r + ".files", "w").write("".join(f + "\n" for f in files))
open(r + ".doms", "w").write("".join(d + "\n" for d in doms))
rd = lambda ext: open(r + ext, "rb").read()
out = ["rc " + rd(".rc").decode().strip()]
out += ["call " + l for l in rd(".calls").decode().splitlines()]
out += ["out " + vis(l) for l in lines(rd(".nout"))]
out += ["err " + vis(l) for l in lines(rd(".err")) if not l.startswith(b"  ")]
out += ["file " + f for f in files] + ["dom " + d for d in doms]
open(r + ".summary", "w").write("".join(l + "\n" for l in out))
'

# run_side STATE SIDE CMD...: run it, keep its results in $RES/STATE/SIDE.*
run_side() {
	local st=$1 side=$2 r=$RES/$1/$2 t0 limit=$LIMIT
	shift 2
	[ "$side" = debian ] && limit=${LIMIT_DEBIAN:-$LIMIT}
	mkdir -p "$RES/$st"
	t0=$(date +%s%N)
	( cd / && exec timeout -k 2 "$limit" strace -f --seccomp-bpf -qq -e trace=execve -o "$r.strace" \
		env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin TERM=dumb "$@" >"$r.out" 2>"$r.err" ) &
	local sp=$! p
	if [ -n "$KILL_AFTER" ]; then
		# SIG to the init script's process alone (systemd's KillMode=process):
		# strace's child (below the subshell and timeout), found in the real
		# proc (/run/.proc: this namespace's /proc has no PID entries)
		sleep "${KILL_AFTER#* }"
		p=$sp
		while p=$(cat /run/.proc/"$p"/task/*/children 2>/dev/null | awk '{ print $1 }') &&
			[ -n "$p" ] && [ "$(cat /run/.proc/"$p"/comm)" != strace ]; do :; done
		p=$(cat /run/.proc/"${p:-0}"/task/*/children 2>/dev/null | awk '{ print $1 }')
		[ -n "$p" ] && kill -s "${KILL_AFTER% *}" "$p" ||
			echo "KILL_AFTER: no process to send SIG${KILL_AFTER% *} to" >>"$r.err"
	fi
	wait $sp
	echo $? >"$r.rc"
	echo $(( ($(date +%s%N) - t0) / 1000000 )) >"$r.ms"
	# the calls that act (the queries left out: see the header)
	grep -Ev '^(list|list -l|domid .*|create --quiet --dryrun --defconfig .*)$' /run/xl-standin/calls >"$r.calls"
	cp /run/xl-standin/calls "$r.allcalls"
	sed -E 's/(\.\.\.)+/.../g' "$r.out" >"$r.nout"
	/usr/bin/python3 -c "$COLLECT" "$r" "$SAVE" "$base/xs/tree"
	# every program started (execve that succeeded), by path
	# (the first is env's, which strace starts)
	# (an execve another process's call interrupted is split by strace:
	# "PID execve(\"PATH\"... <unfinished ...>", then "PID <... execve resumed>) = 0")
	awk '/^[0-9]+ +execve\("/ { p = $0; sub(/^[^"]*"/, "", p); sub(/".*/, "", p)
			if (/ = 0$/) print p; else if (/<unfinished \.\.\.>$/) pend[$1] = p; next }
	     /<\.\.\. execve resumed>/ && ($1 in pend) { if (/ = 0$/) print pend[$1]; delete pend[$1] }' \
		"$r.strace" | sed 1d >"$r.execs"
	sed -E 's/(\.\.\.)+/.../g' "$r.out" >"$r.nout"
}

# one result field, as compared
field() { # RES-PREFIX FIELD
	case $2 in
	calls) cat "$1.calls" ;; out) cat "$1.nout" ;; err) cat "$1.err" ;;
	rc) cat "$1.rc" ;; files) cat "$1.files" ;; doms) cat "$1.doms" ;;
	esac
}

# state NAME TITLE: run Debian's script and the applet from the same state, compare
state() {
	local st=$1 title=$2 f want got d a n x why
	[ -n "${XD_STATES+set}" ] && [[ " $XD_STATES " != *" $st "* ]] && return 0
	fresh "$st" || return
	install -m 755 "$DEBIAN_SCRIPTS/etc/init.d/xendomains" /etc/init.d/xendomains
	run_side "$st" debian /etc/init.d/xendomains "$ACTION"
	d=$RES/$st/debian
	n=$(grep -c . "$d.execs")
	info "xendomains/$st: Debian's script: exit $(cat "$d.rc"), $(cat "$d.ms") ms, $n programs started ($(sed 's|.*/||' "$d.execs" | sort | uniq -c | awk '{printf "%s%s x%s", s, $2, $1; s=", "}'))"
	debian_check "$st"
	[ -n "$APPLET" ] || return 0
	fresh "$st" || return
	# as forkless-xen installs it: /etc/init.d/xendomains is the binary,
	# which runs the applet of its name (Debian's usage line names $0)
	if [ -n "$NO_DISTRIB" ]; then
		# installed as forkless-xen ships it, Debian's script in place
		install -m 755 "$DEBIAN_SCRIPTS/etc/init.d/xendomains" /etc/init.d/xendomains
		mkdir -p /usr/lib/xen-common/bin
		ln -sfn "$FORKLESS" /usr/lib/xen-common/bin/xendomains
		run_side "$st" applet /usr/lib/xen-common/bin/xendomains "$ACTION"
	else
		ln -sfn "$FORKLESS" /etc/init.d/xendomains
		run_side "$st" applet /etc/init.d/xendomains "$ACTION"
	fi
	a=$RES/$st/applet
	info "xendomains/$st: the applet: exit $(cat "$a.rc"), $(cat "$a.ms") ms, $(grep -c . "$a.execs") programs started"
	exit_seen xendomains "$(cat "$a.rc")"
	if [ -n "$MAX_MS" ]; then
		[ "$(cat "$a.ms")" -le "$MAX_MS" ] && pass "xendomains/$st: $title: done within $MAX_MS ms" ||
			fail "xendomains/$st: $title: done within $MAX_MS ms" "took $(cat "$a.ms") ms (Debian's script: $(cat "$d.ms") ms)"
	fi
	[ -n "$DIFFERS" ] && info "differs: $st: $DIFFERS"
	for f in calls out err rc files doms; do
		x=WANT_${f^^}
		if [ -n "${!x+set}" ]; then want=${!x}; else want=$(field "$d" $f; echo x); want=${want%x}; fi
		got=$(field "$a" $f; echo x); got=${got%x}
		# the applet's xl save writes DIR/.NAME.saving, renamed to DIR/NAME
		# once xl succeeded (the faults' states check the renaming)
		# (and xl says so on a failure: "Saving to DIR/.NAME.saving ...")
		[ "$f" = calls ] && got=$(printf '%s' "$got" | sed -E 's|^(save [0-9]+ .*/)\.(.*)\.saving$|\1\2|'; echo x) && got=${got%x}
		[ "$f" = out ] && got=$(printf '%s' "$got" | sed -E 's|^(Saving to .*/)\.(.*)\.saving( new xl format)|\1\2\3|'; echo x) && got=${got%x}
		if [ "$f" = calls ] && [ -n "$ANY_ORDER" ]; then
			want=$(printf '%s' "$want" | sort; echo x); want=${want%x}
			got=$(printf '%s' "$got" | sort; echo x); got=${got%x}
		elif [ "$f" = doms ] && [ -n "$ANY_ORDER" ]; then
			# the domids follow the order the restores end in
			want=$(printf '%s' "$want" | cut -d' ' -f2- | sort; echo x); want=${want%x}
			got=$(printf '%s' "$got" | cut -d' ' -f2- | sort; echo x); got=${got%x}
		fi
		[ -n "${!x+set}" ] && [ "${want:0:1}" != '~' ] && want=$want$'\n' && [ -z "${!x}" ] && want=
		if [ "${want:0:1}" = '~' ] && [[ ${got%$'\n'} =~ ${want:1} ]] || [ "$want" == "$got" ]; then
			pass "xendomains/$st: $title: $f"
		else
			[ -n "${!x+set}" ] && why="the applet's expected result (differs) vs its result" ||
				why="Debian's result vs the applet's"
			fail "xendomains/$st: $title: $f" "$why" \
				"$(diff -u --label expected --label applet <(printf '%s' "$want") <(printf '%s' "$got"))"
		fi
	done
	# the processes: its own, then one xl per call
	if [ "${HANDOVER:-}" ]; then
		got=$(sed -n 2p "$a.execs") want=/etc/init.d/xendomains.distrib
		[ -z "$NO_DISTRIB" ] || want=/etc/init.d/xendomains
		check "xendomains/$st: $title: handed over to $want" "$want" "$got"
	else
		want=$(echo /etc/init.d/xendomains; sed 's|.*|/usr/lib/xen-4.17/bin/xl|' /run/xl-standin/calls)
		check "xendomains/$st: $title: programs started: itself and one xl per call" \
			"$want" "$(cat "$a.execs")"
	fi
}

# ---- the stand-in xenstored's watches (what the applet waits on) ----------------------
# (in the first copy only: one stand-in's check)
st_watch() { dom 7 seven; }
if [ "${SHARD:-1}" = 1 ]; then
fresh watch
run_capture /usr/bin/python3 -c '
import socket, struct
s = socket.socket(socket.AF_UNIX); s.connect("/var/run/xenstored/socket")
names = {4: "WATCH", 5: "UNWATCH", 11: "WRITE", 13: "RM", 15: "WATCH_EVENT", 16: "ERROR"}
def send(kind, payload, req):
    s.sendall(struct.pack("<4I", kind, req, 0, len(payload)) + payload)
def recv():
    h = b""
    while len(h) < 16: h += s.recv(16 - len(h))
    k, r, t, n = struct.unpack("<4I", h)
    b = b""
    while len(b) < n: b += s.recv(n - len(b))
    print(names.get(k, k), r, b.replace(b"\0", b"|").decode())
send(4, b"@releaseDomain\0rel\0", 1); recv(); recv()
send(4, b"/local/domain/7/device\0dev\0", 2); recv(); recv()
send(11, b"/local/domain/7/device/vif/0\0x", 3); recv(); recv()
send(13, b"/local/domain/7\0", 4); recv(); recv(); recv()
send(13, b"/local/domain/0/x\0", 5); recv()
send(5, b"@releaseDomain\0rel\0", 6); recv()
send(5, b"@releaseDomain\0rel\0", 7); recv()
'
expected want watch.replies
check "xendomains/the stand-in xenstored: WATCH, its first event, @releaseDomain when a domain goes, UNWATCH" \
	"$want" "$OUT$ERR"
fi

# ---- the states -------------------------------------------------------------------
st_start_no_savedir() { auto web.cfg web; }
st_start_0_images() { mkdir -p "$SAVE"; }
st_start_1_image() { image web; }
st_start_3_images() { image web; image db; image mail; }
st_start_restore_fails() {
	image db; image web; auto web.cfg web
	rule restore web fail 1 'libxl: error: libxl_stream_read.c:850:libxl__xc_domain_restore_done: restoring domain: Invalid argument'
}
st_start_auto() {
	dom 3 db; image mail
	auto db.cfg db; auto mail.cfg mail; auto web.cfg web; auto broken.cfg bad
	rule create bad fail 3 'libxl: error: libxl_create.c:1234:domcreate_rebuild_done: cannot (re-)build domain: -3'
}
st_stop_save_1() { ACTION=stop; dom 3 web; }
st_stop_save_3() { ACTION=stop; dom 3 web; dom 5 db; dom 12 mail; }
st_stop_migrate() {
	ACTION=stop; set_var XENDOMAINS_MIGRATE '"otherhost --live"'
	dom 3 web; dom 5 db
	rule migrate db fail 1 'migration target: Connection refused'
}
st_stop_shutdown() {
	ACTION=stop; unset_var XENDOMAINS_SAVE
	dom 3 web; dom 5 db
	rule shutdown db delay 3   # still there when Debian's second xen-init-list runs
}
st_stop_save_deadline() {
	ACTION=stop; set_var XENDOMAINS_STOP_MAXWAIT 1
	dom 3 web; dom 5 db
	rule save web hang
}
st_stop_shutdown_deadline() {
	ACTION=stop; unset_var XENDOMAINS_SAVE; set_var XENDOMAINS_STOP_MAXWAIT 1
	dom 3 web; dom 5 db
	rule shutdown web never
}
st_stop_maxwait_blank() {
	# the script's unquoted `seq 0 $XENDOMAINS_STOP_MAXWAIT`: seq 0 300
	ACTION=stop; set_var XENDOMAINS_STOP_MAXWAIT '"300 "'
	dom 3 web
	rule save web delay 2
}
# ---- faults (docs/xen.md, "Faults"): where the applet keeps a guest or an image the
# script loses
st_stop_save_partial() {
	# a save dir too small: xl writes part of the image, fails, resumes the domain
	ACTION=stop; dom 3 web; dom 5 db
	rule save web partial 1 'libxl: error: libxl_stream_write.c:329:libxl__xc_domain_save_done: saving domain: No space left on device'
	DIFFERS="Debian's script leaves the partial image as /var/lib/xen/save/web (the next start tries it, fails, and does not boot web); the applet's was .web.saving, removed and said"
}
st_start_truncated_image() {
	# what Debian's script leaves after that: tried, kept, its auto config not booted
	image db; auto web.cfg web
	printf 'PARTIAL web' >"$SAVE/web"
}
st_start_unfinished_save() {
	# a stop that ended mid-save (killed) left .web.saving: skipped by the glob, as
	# the script's, its auto config booted; the applet says it is there
	auto web.cfg web
	mkdir -p "$SAVE" && printf 'web' >"$SAVE/.web.saving"
	DIFFERS="the applet names the unfinished save it leaves for the admin"
}
st_stop_sigterm() {
	# systemd's stop timeout: SIGTERM to the main process alone (KillMode=process)
	# while web's 2 s save runs
	ACTION=stop; dom 3 web; dom 5 db; dom 12 mail
	rule save '*' delay 2
	KILL_AFTER="TERM 1" LIMIT=40
	DIFFERS="Debian's bash dies, its pipeline's subshell goes on saving (no shutdown step), until systemd's final kill cuts an xl save short and leaves a partial image to restore; the applet waits for web's save, starts no other action, exits 143"
}
st_stop_xenstore_gone() {
	# xenstored killed once db's save has begun (the stand-in xl kills it):
	# web is saved, db's save fails
	ACTION=stop; dom 3 web; dom 5 db
	rule save db killxs
	DIFFERS="Debian's script leaves db's partial image as db (restored at the next start), its python3 xen-init-list fails (a traceback) and it exits 0; the applet removes the partial image, ends the stop naming db, exit 1"
}
st_restart() { ACTION=restart; dom 3 web; auto web.cfg web; auto db.cfg db; }
st_defaults_missing() {
	# no XENDOMAINS_STOP_MAXWAIT: Debian's wait loop (seq 0 "") gives up at once
	ACTION=stop; rm /etc/default/xendomains; dom 3 web
	rule shutdown web never
	DIFFERS="the applet says that XENDOMAINS_STOP_MAXWAIT is not set (Debian's script gives no time silently)"
}
st_defaults_unused() {
	# Xen's own sysconfig.xendomains names, a typo, another name: neither
	# Debian's script nor the applet reads them
	ACTION=stop; dom 3 web
	set_var XENDOMAINS_AUTO_ONLY true; set_var XENDOMAINS_CREATE_USLEEP 5000000
	set_var XENDOMAINS_SAVE_DIR /srv/save; set_var FOO 1
	DIFFERS="the applet names each setting it does not use, in one line each (Debian's script ignores them silently); what it does is Debian's"
}
st_restore_empty() {
	# XENDOMAINS_RESTORE= (empty, as Debian's file allows): no restore,
	# the auto configs still created
	unset_var XENDOMAINS_RESTORE; image web; auto web.cfg web; auto db.cfg db
}
st_auto_empty() {
	# XENDOMAINS_AUTO= (empty): no auto config created, the images restored
	unset_var XENDOMAINS_AUTO; image web; auto db.cfg db
}
st_defaults_directory() {
	ACTION=stop; rm /etc/default/xendomains; mkdir /etc/default/xendomains; dom 3 web
	HANDOVER=1
	DIFFERS="handed over to xendomains.distrib (the hand-over said on stderr), bash's error names the script as run"
}
st_defaults_shell() {
	image web
	set_var XENDOMAINS_SAVE '$(echo /var/lib/xen/save)'
	HANDOVER=1
	DIFFERS="the hand-over is said on stderr"
}
st_defaults_shell_not_diverted() {
	image web
	set_var XENDOMAINS_SAVE '$(echo /var/lib/xen/save)'
	HANDOVER=1 NO_DISTRIB=1
	DIFFERS="the hand-over is said on stderr; Debian's script not diverted: it is run where it is"
}
st_names_utf8_control() { ACTION=stop; dom 3 'g\xc3\xa4st-\xce\xa9'; dom 5 'esc\x1b[31mred'; }
st_names_spaces_stop() {
	ACTION=stop; dom 3 'web 1'; dom 5 db
	DIFFERS="Debian's \`read id name discard\` cuts the name at the space: it saves domain 3 as \"web\""
}
st_names_spaces_start() {
	image 'web 1'; auto web1.cfg 'web 1'
	DIFFERS="Debian's \`[ -f \$file ]\` (unquoted) fails on the image \"web 1\" (bash's error): it boots the domain afresh from its auto config and leaves the image"
}
st_names_not_utf8() {
	ACTION=stop; dom 3 'bad\xff'; dom 5 db
	DIFFERS="Debian's python3 xen-init-list dies (UnicodeDecodeError) on a name that is not UTF-8: no domain is saved or shut down"
}
st_unknown_action() { ACTION=bogus; dom 3 web; }
# XENDOMAINS_PARALLEL (the applet's; Debian's script ignores it): three 2 s
# saves or restores at once, the lines as the sequential run prints them
st_stop_save_parallel() {
	ACTION=stop; set_var XENDOMAINS_PARALLEL 3
	dom 3 web; dom 5 db; dom 7 mail
	rule save '*' delay 2
	MAX_MS=4500 ANY_ORDER=1
}
st_parallel_invalid() {
	ACTION=stop; set_var XENDOMAINS_PARALLEL abc; dom 3 web
	DIFFERS="the applet says that XENDOMAINS_PARALLEL is not a number (Debian's script does not read it) and saves one at a time"
}
st_start_restore_parallel() {
	set_var XENDOMAINS_PARALLEL 3
	image web; image db; image mail
	rule restore '*' delay 2
	MAX_MS=4500 ANY_ORDER=1
}
# a shutdown that takes 2 s: stop ends with the domain (a watch), not with
# the next `sleep 1` as Debian's script does
st_stop_wait_event() {
	ACTION=stop; unset_var XENDOMAINS_SAVE; dom 3 web
	rule shutdown web delay 2
	MAX_MS=2800
}
st_status() {
	ACTION=status; dom 3 web; dom 5 other; auto web.cfg web; auto db.cfg db; image mail
	DIFFERS="status is the applet's own (Debian's script: its usage line, exit 3)"
}
st_status_xenstore_silent() {
	ACTION=status; XS_ARGS=(--silent); LIMIT_DEBIAN=4; LIMIT=15; dom 3 web; auto web.cfg web
	DIFFERS="status is the applet's own; with xenstore silent it cannot know: it says so, exit 4 (Debian's script hangs in its first \`xen list\`, killed by timeout 4 here)"
}
st_not_dom0() { ACTION=stop; NO_PRIVCMD=1; dom 3 web; image db; }
st_xenstored_silent() {
	XS_ARGS=(--silent); LIMIT_DEBIAN=4; LIMIT=15; image web
	DIFFERS="Debian's script hangs in its first \`xen list\` (killed by timeout 4 here: exit 124); the applet gives up within its bound, with a message naming xenstore"
}

# debian_check STATE: Debian's results as recorded in $EXPECTED/STATE.debian,
# so that Debian's side is checked even without the applet, and a change of
# the oracle (lsb-base, xen-utils-common) shows.
debian_check() {
	local want got
	want=$(cat "$EXPECTED/$1.debian")
	got=$(cat "$RES/$1/debian.summary")
	if [ "$want" == "$got" ]; then
		pass "xendomains/$1: Debian's script as recorded"
	else
		fail "xendomains/$1: Debian's script as recorded" "the record vs this run" \
			"$(diff -u --label record --label debian <(printf '%s\n' "$want") <(printf '%s\n' "$got"))"
	fi
}

state start_no_savedir "start, no save dir, one auto config"
state start_0_images "start, an empty save dir"
state start_1_image "start, one image"
state start_3_images "start, three images (glob order)"
state start_restore_fails "start, a restore fails, its auto config"
state start_auto "start, auto configs: running, restored, to create, failing"
state stop_save_1 "stop, one domain saved"
state stop_save_3 "stop, three domains saved"
state stop_migrate "stop, migrate set: one migrates, one fails then is saved"
state stop_shutdown "stop, no save dir: shut down and waited for"
state stop_save_deadline "stop, a save past XENDOMAINS_STOP_MAXWAIT=1"
state stop_shutdown_deadline "stop, a shutdown past XENDOMAINS_STOP_MAXWAIT=1"
state stop_maxwait_blank "stop, XENDOMAINS_STOP_MAXWAIT=\"300 \" (a blank in the quotes): 300 s"
state stop_save_partial "stop, a save that fails half-written (a full disk)"
state start_truncated_image "start, a truncated image and its auto config"
state start_unfinished_save "start, an unfinished save (.web.saving) and its auto config"
state stop_sigterm "stop, SIGTERM to the main process during a save"
state stop_xenstore_gone "stop, xenstored killed during a save"
state restart "restart"
state defaults_missing "no /etc/default/xendomains"
state defaults_unused "stop, settings neither reads (upstream's names, a typo)"
state restore_empty "start, XENDOMAINS_RESTORE= (empty): no restore, auto configs created"
state auto_empty "start, XENDOMAINS_AUTO= (empty): images restored, no auto config"
state defaults_directory "/etc/default/xendomains a directory"
state defaults_shell "/etc/default/xendomains with a command substitution"
state defaults_shell_not_diverted "the same, the applet in /usr/lib/xen-common/bin, Debian's script not diverted"
state names_utf8_control "names in UTF-8 and with control bytes"
state names_spaces_stop "stop, a name with a space"
state names_spaces_start "start, an image and a config of a name with a space"
state names_not_utf8 "stop, a name that is not UTF-8"
state unknown_action "an unknown action"
state stop_save_parallel "stop, XENDOMAINS_PARALLEL=3, three 2 s saves"
state start_restore_parallel "start, XENDOMAINS_PARALLEL=3, three 2 s restores"
state parallel_invalid "stop, XENDOMAINS_PARALLEL=abc"
state stop_wait_event "stop, a shutdown that takes 2 s"
state status "status: auto domains running and not, another domain, an image"
state status_xenstore_silent "status, xenstored silent: status unknown"
state not_dom0 "not a dom0 (no /proc/xen/privcmd)"
state xenstored_silent "xenstored not answering"
# ---- under systemd: each domain action extends the unit's timeout -----------------------
# (xendomains.service's NotifyAccess=exec: a stop of many domains is not
# killed at TimeoutStopSec.) The applet run as the unit runs it, NOTIFY_SOCKET
# an abstract datagram socket; the messages it received, in order.
notify_run() { # STATE ACTION
	fresh "$1" || return 1
	ln -sfn "$FORKLESS" /etc/init.d/xendomains
	run_capture /usr/bin/python3 -c '
import os, socket, subprocess, sys
name = "forkless-xd-notify-%d" % os.getpid()
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind("\0" + name)
env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "TERM": "dumb", "NOTIFY_SOCKET": "@" + name}
rc = subprocess.run(sys.argv[1:], env=env, stdout=subprocess.DEVNULL, cwd="/").returncode
s.setblocking(False)
try:
    while True:
        print(s.recv(256).decode())
except BlockingIOError:
    pass
print("exit", rc)
' /etc/init.d/xendomains "$2"
}
if [ -n "$APPLET" ] && [ "${SHARD:-1}" = 1 ]; then
	notify_run stop_save_3 stop
	expected want stop_save_3.notify
	check "xendomains/notify: stop, three saves (MAXWAIT 300): 311 s each" "$want" "$OUT$ERR"
	notify_run start_3_images start
	expected want start_3_images.notify
	check "xendomains/notify: start, three restores: 300 s each" "$want" "$OUT$ERR"
	notify_run stop_shutdown_deadline stop
	# (db is gone before the wait: only web's, bounded by MAXWAIT 1)
	expected want stop_shutdown_deadline.notify
	check "xendomains/notify: stop, two shutdown requests (300 s), a wait (MAXWAIT 1: 12 s)" \
		"$want" "$OUT$ERR"
fi

info "xendomains: $(( ($(date +%s%N) - T0) / 1000000 )) ms in all${SHARD:+ (copy $SHARD)}"
exit 0
