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
# name that is not UTF-8), the state gives the applet's expected result
# explicitly and the test prints `INFO: differs: STATE: REASON`.
# Debian's results per state are kept in build/tests/xendomains/STATE/
# debian.{out,err,rc,calls,files,doms,execs} (the applet's beside them).
# Without the applet built in, Debian's side runs alone (and its results
# are checked against what this file records of them).
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
# and, where the applet is meant to differ, the applet's expected results:
#   DIFFERS=REASON  WANT_CALLS= WANT_OUT= WANT_ERR= WANT_RC= WANT_FILES= WANT_DOMS=
# (a WANT_ left unset: Debian's result; one starting with ~: an extended
# regular expression the applet's result must match).
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

# fresh STATE: everything a run sees, from nothing
fresh() {
	local st=$1
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
# debian_record below: "rc N", "call XL-ARGS", "out LINE" (normalised),
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
check "xendomains/the stand-in xenstored: WATCH, its first event, @releaseDomain when a domain goes, UNWATCH" \
	"WATCH 1 OK|
WATCH_EVENT 0 @releaseDomain|rel|
WATCH 2 OK|
WATCH_EVENT 0 /local/domain/7/device|dev|
WRITE 3 OK|
WATCH_EVENT 0 /local/domain/7/device/vif/0|dev|
RM 4 OK|
WATCH_EVENT 0 @releaseDomain|rel|
WATCH_EVENT 0 /local/domain/7/device|dev|
RM 5 OK|
UNWATCH 6 OK|
ERROR 7 ENOENT|
" "$OUT$ERR"
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
	WANT_ERR='xendomains: /var/lib/xen/save/.web.saving: removed: the save of web failed, its image is not whole'
	WANT_FILES='(dir 700)'$'\n''db'
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
	WANT_ERR='xendomains: /var/lib/xen/save/.web.saving: an unfinished save (the stop that wrote it ended first): kept, not restored'
}
st_stop_sigterm() {
	# systemd's stop timeout: SIGTERM to the main process alone (KillMode=process)
	# while web's 2 s save runs
	ACTION=stop; dom 3 web; dom 5 db; dom 12 mail
	rule save '*' delay 2
	KILL_AFTER="TERM 1" LIMIT=40
	DIFFERS="Debian's bash dies, its pipeline's subshell goes on saving (no shutdown step), until systemd's final kill cuts an xl save short and leaves a partial image to restore; the applet waits for web's save, starts no other action, exits 143"
	WANT_CALLS='save 3 /var/lib/xen/save/web'
	WANT_OUT='Saving Xen domain web (3)...done.'$'\n''Saving Xen domain db (5)...failed (not started: xendomains got a stop signal).'$'\n''Saving Xen domain mail (12)...failed (not started: xendomains got a stop signal).'
	WANT_ERR='xendomains: SIGTERM: no further domain action is started; the running ones are waited for'
	WANT_FILES='(dir 700)'$'\n''web'
	WANT_DOMS='0 Domain-0'$'\n''5 db'$'\n''12 mail'
}
st_stop_xenstore_gone() {
	# xenstored killed once db's save has begun (the stand-in xl kills it):
	# web is saved, db's save fails
	ACTION=stop; dom 3 web; dom 5 db
	rule save db killxs
	DIFFERS="Debian's script leaves db's partial image as db (restored at the next start), its python3 xen-init-list fails (a traceback) and it exits 0; the applet removes the partial image, ends the stop naming db, exit 1"
	WANT_ERR='~^xendomains: /var/lib/xen/save/\.db\.saving: removed: the save of db failed, its image is not whole
xendomains: /var/run/xenstored/socket: .*: xenstore is gone, the stop ends here$'
	WANT_OUT='~^Saving Xen domain web \(3\)\.\.\.done\.
Saving Xen domain db \(5\)\.\.\.failed\.
Saving to /var/lib/xen/save/db new xl format \(info 0x3/0x0/1397\)
libxl: error: xenstore: .*
Xen domain db \(5\) is left as it is: xenstore is gone\.$'
	WANT_RC=1
	WANT_FILES='(dir 700)'$'\n''web'
}
st_restart() { ACTION=restart; dom 3 web; auto web.cfg web; auto db.cfg db; }
st_defaults_missing() {
	# no XENDOMAINS_STOP_MAXWAIT: Debian's wait loop (seq 0 "") gives up at once
	ACTION=stop; rm /etc/default/xendomains; dom 3 web
	rule shutdown web never
	DIFFERS="the applet says that XENDOMAINS_STOP_MAXWAIT is not set (Debian's script gives no time silently)"
	WANT_ERR="xendomains: XENDOMAINS_STOP_MAXWAIT is not set: migrations, saves and waits get no time, as with Debian's script"
}
st_defaults_directory() {
	ACTION=stop; rm /etc/default/xendomains; mkdir /etc/default/xendomains; dom 3 web
	HANDOVER=1
	DIFFERS="handed over to xendomains.distrib (the hand-over said on stderr), bash's error names the script as run"
	WANT_ERR='xendomains: handing over to /etc/init.d/xendomains.distrib: /etc/default/xendomains: Is a directory'$'\n''/etc/init.d/xendomains.distrib: line 30: .: /etc/default/xendomains: is a directory'
}
st_defaults_shell() {
	image web
	set_var XENDOMAINS_SAVE '$(echo /var/lib/xen/save)'
	HANDOVER=1
	DIFFERS="the hand-over is said on stderr"
	WANT_ERR='xendomains: handing over to /etc/init.d/xendomains.distrib: /etc/default/xendomains:18: command substitution $(...)'
}
st_defaults_shell_not_diverted() {
	image web
	set_var XENDOMAINS_SAVE '$(echo /var/lib/xen/save)'
	HANDOVER=1 NO_DISTRIB=1
	DIFFERS="the hand-over is said on stderr; Debian's script not diverted: it is run where it is"
	WANT_ERR='xendomains: handing over to /etc/init.d/xendomains: /etc/default/xendomains:18: command substitution $(...)'
}
st_names_utf8_control() { ACTION=stop; dom 3 'g\xc3\xa4st-\xce\xa9'; dom 5 'esc\x1b[31mred'; }
st_names_spaces_stop() {
	ACTION=stop; dom 3 'web 1'; dom 5 db
	DIFFERS="Debian's \`read id name discard\` cuts the name at the space: it saves domain 3 as \"web\""
	WANT_CALLS='save 3 /var/lib/xen/save/web\x201'$'\n''save 5 /var/lib/xen/save/db'
	WANT_OUT='Saving Xen domain web 1 (3)...done.'$'\n''Saving Xen domain db (5)...done.'
	WANT_FILES='(dir 700)'$'\n''db'$'\n''web\x201'
}
st_names_spaces_start() {
	image 'web 1'; auto web1.cfg 'web 1'
	DIFFERS="Debian's \`[ -f \$file ]\` (unquoted) fails on the image \"web 1\" (bash's error): it boots the domain afresh from its auto config and leaves the image"
	WANT_CALLS='restore /var/lib/xen/save/web\x201'
	WANT_OUT='Restoring Xen domain web 1 (from /var/lib/xen/save/web 1)...done.'
	WANT_ERR= WANT_FILES='(dir 755)'
	WANT_DOMS='0 Domain-0'$'\n''10 web\x201'
}
st_names_not_utf8() {
	ACTION=stop; dom 3 'bad\xff'; dom 5 db
	DIFFERS="Debian's python3 xen-init-list dies (UnicodeDecodeError) on a name that is not UTF-8: no domain is saved or shut down"
	WANT_CALLS='save 3 /var/lib/xen/save/bad\xff'$'\n''save 5 /var/lib/xen/save/db'
	WANT_OUT=$'Saving Xen domain bad\xff (3)...done.\nSaving Xen domain db (5)...done.'
	WANT_ERR= WANT_FILES='(dir 700)'$'\n''bad\xff'$'\n''db'
	WANT_DOMS='0 Domain-0'
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
	WANT_ERR="xendomains: XENDOMAINS_PARALLEL='abc' is not a number of domains from 1 to 64: one at a time"
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
	WANT_CALLS= WANT_ERR= WANT_RC=3
	WANT_OUT='Xen domain db (from /etc/xen/auto/db.cfg) is not running.'$'\n''Xen domain web (from /etc/xen/auto/web.cfg) is running.'$'\n''Xen domain other (5) is running, not from XENDOMAINS_AUTO.'$'\n''Saved image /var/lib/xen/save/mail is waiting to be restored.'
}
st_not_dom0() { ACTION=stop; NO_PRIVCMD=1; dom 3 web; image db; }
st_xenstored_silent() {
	XS_ARGS=(--silent); LIMIT_DEBIAN=4; LIMIT=15; image web
	DIFFERS="Debian's script hangs in its first \`xen list\` (killed by timeout 4 here: exit 124); the applet gives up within its bound, with a message naming xenstore"
	WANT_RC='~^[1-9]$' WANT_ERR='~xenstore' WANT_CALLS= WANT_OUT=
}

# debian_check STATE: Debian's results as this file records them (below),
# so that Debian's side is checked even without the applet, and a change of
# the oracle (lsb-base, xen-utils-common) shows.
debian_check() {
	local want got
	want=$(debian_record "$1")
	got=$(cat "$RES/$1/debian.summary")
	if [ "$want" == "$got" ]; then
		pass "xendomains/$1: Debian's script as recorded"
	else
		fail "xendomains/$1: Debian's script as recorded" "the record vs this run" \
			"$(diff -u --label record --label debian <(printf '%s\n' "$want") <(printf '%s\n' "$got"))"
	fi
}
debian_record() {
	case $1 in
	stop_xenstore_gone) cat <<'EOF'
rc 0
call save 3 /var/lib/xen/save/web
call save 5 /var/lib/xen/save/db
out Saving Xen domain web (3)...done.
out Saving Xen domain db (5)...failed.
out Saving to /var/lib/xen/save/db new xl format (info 0x3/0x0/1397)
out libxl: error: xenstore: [Errno 32] Broken pipe
err libxl: error: xenstore: [Errno 111] Connection refused
err Traceback (most recent call last):
err subprocess.CalledProcessError: Command '('xen', 'list', '-l')' returned non-zero exit status 1.
err libxl: error: xenstore: [Errno 111] Connection refused
err Traceback (most recent call last):
err subprocess.CalledProcessError: Command '('xen', 'list', '-l')' returned non-zero exit status 1.
file (dir 700)
file db
file web
dom 0 Domain-0
dom 5 db
EOF
		;;
	stop_save_partial) cat <<'EOF'
rc 0
call save 3 /var/lib/xen/save/web
call save 5 /var/lib/xen/save/db
call shutdown 3
out Saving Xen domain web (3)...failed.
out Saving to /var/lib/xen/save/web new xl format (info 0x3/0x0/1397)
out libxl: error: libxl_stream_write.c:329:libxl__xc_domain_save_done: saving domain: No space left on device
out Saving Xen domain db (5)...done.
out Shutting down Xen domain web (3)...Shutting down domain 3
out done.
file (dir 700)
file db
file web
dom 0 Domain-0
EOF
		;;
	start_truncated_image) cat <<'EOF'
rc 0
call restore /var/lib/xen/save/db
call restore /var/lib/xen/save/web
out Restoring Xen domain db (from /var/lib/xen/save/db)...done.
out Restoring Xen domain web (from /var/lib/xen/save/web)...failed.
out Loading new save file /var/lib/xen/save/web (new xl fmt info 0x3/0x0/1397)
out  Savefile contains xl domain config in JSON format
out Parsing config from <saved>
out libxl: error: libxl_stream_read.c:850:libxl__xc_domain_restore_done: restoring domain: Input/output error
out Starting Xen domain web (from /etc/xen/auto/web.cfg)...failed (restore failed).
file (dir 755)
file web
dom 0 Domain-0
dom 10 db
EOF
		;;
	start_unfinished_save) cat <<'EOF'
rc 0
call create --quiet --defconfig /etc/xen/auto/web.cfg
out Starting Xen domain web (from /etc/xen/auto/web.cfg)...done.
file (dir 755)
file .web.saving
dom 0 Domain-0
dom 10 web
EOF
		;;
	stop_sigterm) cat <<'EOF'
rc 143
call save 3 /var/lib/xen/save/web
call save 5 /var/lib/xen/save/db
call save 12 /var/lib/xen/save/mail
out Saving Xen domain web (3)...done.
out Saving Xen domain db (5)...done.
out Saving Xen domain mail (12)...done.
file (dir 700)
file db
file mail
file web
dom 0 Domain-0
EOF
		;;
	parallel_invalid) cat <<'EOF'
rc 0
call save 3 /var/lib/xen/save/web
out Saving Xen domain web (3)...done.
file (dir 700)
file web
dom 0 Domain-0
EOF
		;;
	stop_save_parallel) cat <<'EOF'
rc 0
call save 3 /var/lib/xen/save/web
call save 5 /var/lib/xen/save/db
call save 7 /var/lib/xen/save/mail
out Saving Xen domain web (3)...done.
out Saving Xen domain db (5)...done.
out Saving Xen domain mail (7)...done.
file (dir 700)
file db
file mail
file web
dom 0 Domain-0
EOF
		;;
	start_restore_parallel) cat <<'EOF'
rc 0
call restore /var/lib/xen/save/db
call restore /var/lib/xen/save/mail
call restore /var/lib/xen/save/web
out Restoring Xen domain db (from /var/lib/xen/save/db)...done.
out Restoring Xen domain mail (from /var/lib/xen/save/mail)...done.
out Restoring Xen domain web (from /var/lib/xen/save/web)...done.
file (dir 755)
dom 0 Domain-0
dom 10 db
dom 11 mail
dom 12 web
EOF
		;;
	stop_wait_event) cat <<'EOF'
rc 0
call shutdown 3
out Shutting down Xen domain web (3)...Shutting down domain 3
out done.
out Waiting for Xen domain web (3) to shut down...done.
file (no save dir)
dom 0 Domain-0
EOF
		;;
	status) cat <<'EOF'
rc 3
out Usage: /etc/init.d/xendomains {start|stop|restart|reload|force-reload}
file (dir 755)
file mail
dom 0 Domain-0
dom 3 web
dom 5 other
EOF
		;;
	start_no_savedir) cat <<'EOF'
rc 0
call create --quiet --defconfig /etc/xen/auto/web.cfg
out Starting Xen domain web (from /etc/xen/auto/web.cfg)...done.
file (no save dir)
dom 0 Domain-0
dom 10 web
EOF
		;;
	start_0_images) cat <<'EOF'
rc 0
file (dir 755)
dom 0 Domain-0
EOF
		;;
	start_1_image) cat <<'EOF'
rc 0
call restore /var/lib/xen/save/web
out Restoring Xen domain web (from /var/lib/xen/save/web)...done.
file (dir 755)
dom 0 Domain-0
dom 10 web
EOF
		;;
	start_3_images) cat <<'EOF'
rc 0
call restore /var/lib/xen/save/db
call restore /var/lib/xen/save/mail
call restore /var/lib/xen/save/web
out Restoring Xen domain db (from /var/lib/xen/save/db)...done.
out Restoring Xen domain mail (from /var/lib/xen/save/mail)...done.
out Restoring Xen domain web (from /var/lib/xen/save/web)...done.
file (dir 755)
dom 0 Domain-0
dom 10 db
dom 11 mail
dom 12 web
EOF
		;;
	start_restore_fails) cat <<'EOF'
rc 0
call restore /var/lib/xen/save/db
call restore /var/lib/xen/save/web
out Restoring Xen domain db (from /var/lib/xen/save/db)...done.
out Restoring Xen domain web (from /var/lib/xen/save/web)...failed.
out Loading new save file /var/lib/xen/save/web (new xl fmt info 0x3/0x0/1397)
out  Savefile contains xl domain config in JSON format
out Parsing config from <saved>
out libxl: error: libxl_stream_read.c:850:libxl__xc_domain_restore_done: restoring domain: Invalid argument
out Starting Xen domain web (from /etc/xen/auto/web.cfg)...failed (restore failed).
file (dir 755)
file web
dom 0 Domain-0
dom 10 db
EOF
		;;
	start_auto) cat <<'EOF'
rc 0
call restore /var/lib/xen/save/mail
call create --quiet --defconfig /etc/xen/auto/broken.cfg
call create --quiet --defconfig /etc/xen/auto/web.cfg
out Restoring Xen domain mail (from /var/lib/xen/save/mail)...done.
out Starting Xen domain bad (from /etc/xen/auto/broken.cfg)...failed.
out libxl: error: libxl_create.c:1234:domcreate_rebuild_done: cannot (re-)build domain: -3
out Xen domain db already running.
out Starting Xen domain web (from /etc/xen/auto/web.cfg)...done.
file (dir 755)
dom 0 Domain-0
dom 3 db
dom 10 mail
dom 11 web
EOF
		;;
	stop_save_1 | stop_maxwait_blank) cat <<'EOF'
rc 0
call save 3 /var/lib/xen/save/web
out Saving Xen domain web (3)...done.
file (dir 700)
file web
dom 0 Domain-0
EOF
		;;
	stop_save_3) cat <<'EOF'
rc 0
call save 3 /var/lib/xen/save/web
call save 5 /var/lib/xen/save/db
call save 12 /var/lib/xen/save/mail
out Saving Xen domain web (3)...done.
out Saving Xen domain db (5)...done.
out Saving Xen domain mail (12)...done.
file (dir 700)
file db
file mail
file web
dom 0 Domain-0
EOF
		;;
	stop_migrate) cat <<'EOF'
rc 0
call migrate 3 otherhost --live
call migrate 5 otherhost --live
call save 5 /var/lib/xen/save/db
out Migrating Xen domain web (3)...done.
out Migrating Xen domain db (5)...failed.
out migration target: Connection refused
out Saving Xen domain db (5)...done.
file (dir 700)
file db
dom 0 Domain-0
EOF
		;;
	stop_shutdown) cat <<'EOF'
rc 0
call shutdown 3
call shutdown 5
out Shutting down Xen domain web (3)...Shutting down domain 3
out done.
out Shutting down Xen domain db (5)...Shutting down domain 5
out done.
out Waiting for Xen domain db (5) to shut down...done.
file (no save dir)
dom 0 Domain-0
EOF
		;;
	stop_save_deadline) cat <<'EOF'
rc 0
call save 3 /var/lib/xen/save/web
call save 5 /var/lib/xen/save/db
call shutdown 3
out Saving Xen domain web (3)...failed.
out Saving to /var/lib/xen/save/web new xl format (info 0x3/0x0/1397)
out Saving Xen domain db (5)...done.
out Shutting down Xen domain web (3)...Shutting down domain 3
out done.
file (dir 700)
file db
dom 0 Domain-0
EOF
		;;
	stop_shutdown_deadline) cat <<'EOF'
rc 0
call shutdown 3
call shutdown 5
out Shutting down Xen domain web (3)...Shutting down domain 3
out done.
out Shutting down Xen domain db (5)...Shutting down domain 5
out done.
out Waiting for Xen domain web (3) to shut down...failed.
file (no save dir)
dom 0 Domain-0
dom 3 web
EOF
		;;
	restart) cat <<'EOF'
rc 0
call save 3 /var/lib/xen/save/web
call restore /var/lib/xen/save/web
call create --quiet --defconfig /etc/xen/auto/db.cfg
out Saving Xen domain web (3)...done.
out Restoring Xen domain web (from /var/lib/xen/save/web)...done.
out Starting Xen domain db (from /etc/xen/auto/db.cfg)...done.
file (dir 700)
dom 0 Domain-0
dom 10 web
dom 11 db
EOF
		;;
	defaults_missing) cat <<'EOF'
rc 0
call shutdown 3
out Shutting down Xen domain web (3)...Shutting down domain 3
out done.
out Waiting for Xen domain web (3) to shut down...failed.
file (no save dir)
dom 0 Domain-0
dom 3 web
EOF
		;;
	defaults_directory) cat <<'EOF'
rc 0
call shutdown 3
out Shutting down Xen domain web (3)...Shutting down domain 3
out done.
err /etc/init.d/xendomains: line 30: .: /etc/default/xendomains: is a directory
file (no save dir)
dom 0 Domain-0
EOF
		;;
	defaults_shell) cat <<'EOF'
rc 0
call restore /var/lib/xen/save/web
out Restoring Xen domain web (from /var/lib/xen/save/web)...done.
file (dir 755)
dom 0 Domain-0
dom 10 web
EOF
		;;
	defaults_shell_not_diverted) cat <<'EOF'
rc 0
call restore /var/lib/xen/save/web
out Restoring Xen domain web (from /var/lib/xen/save/web)...done.
file (dir 755)
dom 0 Domain-0
dom 10 web
EOF
		;;
	names_utf8_control) cat <<'EOF'
rc 0
call save 3 /var/lib/xen/save/g\xc3\xa4st-\xce\xa9
call save 5 /var/lib/xen/save/esc\x1b[31mred
out Saving Xen domain g\xc3\xa4st-\xce\xa9 (3)...done.
out Saving Xen domain esc\x1b[31mred (5)...done.
file (dir 700)
file esc\x1b[31mred
file g\xc3\xa4st-\xce\xa9
dom 0 Domain-0
EOF
		;;
	names_spaces_stop) cat <<'EOF'
rc 0
call save 3 /var/lib/xen/save/web
call save 5 /var/lib/xen/save/db
out Saving Xen domain web (3)...done.
out Saving Xen domain db (5)...done.
file (dir 700)
file db
file web
dom 0 Domain-0
EOF
		;;
	names_spaces_start) cat <<'EOF'
rc 0
call create --quiet --defconfig /etc/xen/auto/web1.cfg
out Starting Xen domain web 1 (from /etc/xen/auto/web1.cfg)...done.
err /etc/init.d/xendomains: line 90: [: /var/lib/xen/save/web: binary operator expected
file (dir 755)
file web\x201
dom 0 Domain-0
dom 10 web\x201
EOF
		;;
	names_not_utf8) cat <<'EOF'
rc 0
err Traceback (most recent call last):
err UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 296: invalid start byte
err Traceback (most recent call last):
err UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 296: invalid start byte
err Traceback (most recent call last):
err UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 296: invalid start byte
file (dir 700)
dom 0 Domain-0
dom 3 bad\xff
dom 5 db
EOF
		;;
	unknown_action) cat <<'EOF'
rc 3
out Usage: /etc/init.d/xendomains {start|stop|restart|reload|force-reload}
file (no save dir)
dom 0 Domain-0
dom 3 web
EOF
		;;
	not_dom0) cat <<'EOF'
rc 0
file (dir 755)
file db
dom 0 Domain-0
dom 3 web
EOF
		;;
	xenstored_silent) cat <<'EOF'
rc 124
file (dir 755)
file web
dom 0 Domain-0
EOF
		;;
	esac
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
	check "xendomains/notify: stop, three saves (MAXWAIT 300): 311 s each" \
		"$(printf 'EXTEND_TIMEOUT_USEC=311000000\n%.0s' 1 2 3)"$'\nexit 0\n' "$OUT$ERR"
	notify_run start_3_images start
	check "xendomains/notify: start, three restores: 300 s each" \
		"$(printf 'EXTEND_TIMEOUT_USEC=300000000\n%.0s' 1 2 3)"$'\nexit 0\n' "$OUT$ERR"
	notify_run stop_shutdown_deadline stop
	# (db is gone before the wait: only web's, bounded by MAXWAIT 1)
	check "xendomains/notify: stop, two shutdown requests (300 s), a wait (MAXWAIT 1: 12 s)" \
		$'EXTEND_TIMEOUT_USEC=300000000\nEXTEND_TIMEOUT_USEC=300000000\nEXTEND_TIMEOUT_USEC=12000000\nexit 0\n' "$OUT$ERR"
fi

info "xendomains: $(( ($(date +%s%N) - T0) / 1000000 )) ms in all${SHARD:+ (copy $SHARD)}"
exit 0
