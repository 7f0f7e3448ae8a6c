#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/xen/init-list.sh - xen-init-list against a stand-in xenstored
# (tests/xenstored-standin.py) on /var/run/xenstored/socket, in a
# private mount namespace (tmpfs /run and /dev: the host's are not seen):
# the lines for no domU, one, three (domid order, not the store's), names
# as they are (spaces, UTF-8, control bytes, a NUL), incomplete or stale
# entries, stub domains; a xenstore that never answers (bounded), no
# xenstore at all, the xenbus device when there is no socket; stdout
# closed or a broken pipe; one process, no exec, one connection, one write.
# The same lines as Debian's script in a real dom0: tests/vm (README).
. "$(dirname "$0")/../lib.sh"
need_root xen-init-list || exit 0
need_applet xen-init-list || exit 0
for p in python3 unshare strace timeout; do
	command -v $p >/dev/null || { fail xen-init-list "$p is not installed"; exit 0; }
done
if [ -z "${XIL_IN_NS:-}" ]; then
	XIL_IN_NS=1 exec unshare -m --propagation private bash "$0" "$@"
fi
base=$(scratch xen-init-list)
X="$FORKLESS xen-init-list"
mount -t tmpfs tmpfs /run && mount -t tmpfs -o mode=755 tmpfs /dev || { fail xen-init-list "private /run, /dev"; exit 0; }
mknod -m 666 /dev/null c 1 3; mknod -m 666 /dev/zero c 1 5
ln -s /proc/self/fd /dev/fd; ln -s /proc/self/fd/0 /dev/stdin
ln -s /proc/self/fd/1 /dev/stdout; ln -s /proc/self/fd/2 /dev/stderr
mkdir -p /run/xenstored /dev/xen /dev/pts
mount -t devpts -o newinstance,ptmxmode=0666 devpts /dev/pts && ln -s pts/ptmx /dev/ptmx
. "$TOP/tests/lib-xenstored.sh"
cleanup() { [ -n "$XS_STANDIN_PID" ] && kill "$XS_STANDIN_PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$base"; }
trap cleanup EXIT

# xs_start [ARGS] < <(TREE): (re)start the stand-in with TREE (PATH=VALUE
# lines, Python bytes escapes) and ARGS (--silent, --pty).
xs_start() {
	if [ -n "$XS_STANDIN_PID" ]; then kill "$XS_STANDIN_PID" 2>/dev/null; wait "$XS_STANDIN_PID" 2>/dev/null; XS_STANDIN_PID=; fi
	rm -rf "$base/xs"; mkdir -p "$base/xs"
	cat >"$base/xs/tree.in"
	xenstored_standin "$base/xs" "$@" && return 0
	fail xen-init-list "the stand-in xenstored did not start"
	exit 0
}
# dom ID NAME [KEY=VALUE...]: the tree lines of a domain as libxl writes them
dom() {
	local id=$1 name=$2 kv
	shift 2
	printf '/local/domain/%s/domid=%s\n/local/domain/%s/vm=/vm/00000000-0000-0000-0000-%012d\n' "$id" "$id" "$id" "$id"
	printf '/local/domain/%s/name=%s\n' "$id" "$name"
	for kv; do printf '/local/domain/%s/%s\n' "$id" "$kv"; done
}
dom0() { printf '/local/domain/0/domid=0\n/local/domain/0/name=Domain-0\n'; }
listed() { local n=$1 w=$2; shift 2; expect "xen-init-list/$n" 0 "$w" "" -- $X "$@"; }
ERR_PREFIX="xen-init-list: "

# ---- the lines -----------------------------------------------------------------
xs_start < <(dom0)
listed "no domU: nothing, exit 0" ""
xs_start < <({ dom0; dom 3 guest1; })
listed "one domU" "3 guest1"$'\n'
xs_start < <({ dom0; dom 10 ten; dom 2 two; dom 9 nine; })
listed "three, in domid order (the store lists 10 before 2)" "2 two"$'\n'"9 nine"$'\n'"10 ten"$'\n'
xs_start < <({ dom0; dom 1 'my guest'; dom 2 'gäst Ω'; dom 3 'tab\there'; dom 4 'esc\x1b[31mred'; dom 5 'bad\xff\xfeutf8'; })
listed "names as they are: spaces, UTF-8, control bytes, bytes that are not UTF-8" \
	"1 my guest"$'\n'"2 gäst Ω"$'\n'"3 tab"$'\t'"here"$'\n'"4 esc"$'\e'"[31mred"$'\n'"5 bad"$'\xff\xfe'"utf8"$'\n'
xs_start < <({ dom0; dom 6 'two\nlines'; dom 7 'cut\x00here'; dom 8 ''; })
listed "a newline as it is, a NUL ends the name (libxl reads a C string), an empty name" \
	"6 two"$'\n'"lines"$'\n'"7 cut"$'\n'"8 "$'\n'
odd_tree() {
	dom0; dom 4 four
	printf '/local/domain/5/domid=5\n'   # being created or destroyed: no name
	printf '/local/domain/6/name=stale\n'
	dom 7 'guest-dm' target=2            # a device-model stub domain
	printf '/local/domain/00=zero\n/local/domain/012/name=octal\n/local/domain/abc/name=x\n'
	printf '/local/domain/32752/name=reserved\n/local/domain/32751/name=last\n'
}
xs_start < <(odd_tree)
printf '0\n4\n5\n7\n32751\n' >"$base/xs/introduced"   # 6: its domain is gone
listed "incomplete, stale, stub, non-numeric and reserved entries left out" \
	"4 four"$'\n'"32751 last"$'\n'
rm "$base/xs/introduced"
big=$(head -c 4000 /dev/zero | tr '\0' x)
xs_start < <({ dom0; dom 1 "$big"; dom 2 "$big"; dom 3 "$big"; })
run_capture $X
check "xen-init-list/names of 4000 bytes, 12 KiB of lines" \
	"$(printf '1 %s\n2 %s\n3 %s\n' "$big" "$big" "$big")"$'\n' "$OUT"

# ---- as xendomains reads it ---------------------------------------------------
xs_start < <({ dom0; dom 3 'web 1'; dom 5 db; })
got=$($X | while read id name discard; do printf '[%s|%s|%s]' "$id" "$name" "$discard"; done)
check "xen-init-list/| while read id name discard" "[3|web|1][5|db|]" "$got"

# ---- failures: exit 1, a message naming the socket or device, no stdout --------
xs_start --silent < <(dom0)
start=$(date +%s%N)
expect "xen-init-list/a xenstore that never answers: 5 s, then exit 1" 1 "" \
	"${ERR_PREFIX}/var/run/xenstored/socket: no reply from xenstore within 5 s (is xenstored running?)"$'\n' -- timeout 20 $X
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$ms" -ge 4900 ] && [ "$ms" -le 8000 ] && pass "xen-init-list/bounded wait ($ms ms)" ||
	fail "xen-init-list/bounded wait" "$ms ms, want about 5000"
kill "$XS_STANDIN_PID"; wait "$XS_STANDIN_PID" 2>/dev/null; XS_STANDIN_PID=
rm -f /var/run/xenstored/socket
expect "xen-init-list/no xenstore at all" 1 "" \
	"${ERR_PREFIX}no xenstore: no xenstored on /var/run/xenstored/socket and no /dev/xen/xenbus (not a Xen dom0, or xenstored not started)"$'\n' -- $X
# the kernel's device, as libxenstore falls back to it: a pty stands in
xs_start --pty < <({ dom0; dom 3 viadev; })
rm -f /var/run/xenstored/socket
ln -sf "$(cat "$base/xs/pty")" /dev/xen/xenbus
listed "no socket: the xenbus device" "3 viadev"$'\n'
xs_start --pty --silent < <(dom0)
rm -f /var/run/xenstored/socket
ln -sf "$(cat "$base/xs/pty")" /dev/xen/xenbus
expect "xen-init-list/a xenbus device with no xenstored behind it" 1 "" \
	"${ERR_PREFIX}/dev/xen/xenbus: no reply from xenstore within 5 s (is xenstored running?)"$'\n' -- timeout 20 $X
rm -f /dev/xen/xenbus
python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' /run/xenstored/socket
expect "xen-init-list/a stale socket, nobody listening (libxenstore then tries the device)" 1 "" \
	"${ERR_PREFIX}no xenstore: no xenstored on /var/run/xenstored/socket and no /dev/xen/xenbus (not a Xen dom0, or xenstored not started)"$'\n' -- $X
rm -f /run/xenstored/socket

# ---- stdout ------------------------------------------------------------------------
xs_start < <({ dom0; dom 3 guest1; })
expect "xen-init-list/stdout closed" 1 "" "${ERR_PREFIX}cannot write to stdout: Bad file descriptor"$'\n' \
	-- bash -c "exec $X >&-"
expect "xen-init-list/a broken pipe, SIGPIPE ignored" 1 "" "${ERR_PREFIX}cannot write to stdout: Broken pipe"$'\n' \
	-- bash -c "trap '' PIPE; { sleep 0.3; exec $X; } | true; exit \${PIPESTATUS[0]}"
run_capture bash -c "{ sleep 0.3; exec $X; } | true; echo \${PIPESTATUS[0]}"
check "xen-init-list/a broken pipe: killed by SIGPIPE, no message" "141"$'\n' "$OUT$ERR"

# ---- usage ---------------------------------------------------------------------------
expect "xen-init-list/an argument" 2 "" "${ERR_PREFIX}takes no arguments (try xen-init-list --help)"$'\n' -- $X all
run_capture $X --help
if [ "$RC" = 0 ] && grep -q '^Usage: xen-init-list$' <<<"$OUT" && grep -qx 'Exit status:' <<<"$OUT" &&
   grep -q '^  0     the list was printed' <<<"$OUT" && grep -q '^  2     usage error$' <<<"$OUT"; then
	pass "xen-init-list/--help: usage and exit codes"
else
	fail "xen-init-list/--help: usage and exit codes" "exit $RC" "$OUT"
fi
mkdir "$base/root"
if "$FORKLESS" --install "$base/root" >"$base/install.log" 2>&1 &&
   [ -x "$base/root/usr/lib/xen-common/bin/xen-init-list" ]; then
	expect "xen-init-list/--install: /usr/lib/xen-common/bin/xen-init-list" 0 "3 guest1"$'\n' "" \
		-- "$base/root/usr/lib/xen-common/bin/xen-init-list"
else
	fail "xen-init-list/--install: /usr/lib/xen-common/bin/xen-init-list" "$(cat "$base/install.log")"
fi

# ---- cost: one process, no exec, one connection, one write ---------------------------
xs_start < <({ dom0; dom 1 a; dom 2 b; dom 3 c; })
if [ -z "${FORKLESS_SANITIZED:-}" ]; then
	strace -f -qq -o "$base/strace.log" $X >/dev/null
	pids=$(awk '{print $1}' "$base/strace.log" | sort -u | wc -l)
	check "xen-init-list/one process, one execve (its own): no xl, no python3" "1 1" \
		"$pids $(grep -c 'execve(' "$base/strace.log")"
	check "xen-init-list/one connection" "1" "$(grep -Ec '^ *[0-9]+ +connect\(' "$base/strace.log")"
	check "xen-init-list/one write to stdout" "1" "$(grep -Ec '^ *[0-9]+ +write\(1,' "$base/strace.log")"
	check "xen-init-list/1 + 3 x 3 requests" "10" "$(grep -vc CONNECT "$base/xs/log")"
	n=$(grep -c . "$base/strace.log")
	# 4 per request (clock_gettime, write, poll, read) and 10 more, for the default build
	if [ "$FORKLESS" = "$TOP/forkless" ]; then
		[ "$n" -le 50 ] && pass "xen-init-list/at most 50 syscalls for 3 domUs ($n)" ||
			fail "xen-init-list/at most 50 syscalls for 3 domUs" "$n"
	fi
	info "xen-init-list: $n syscalls for 3 domUs: $(sed -E 's/^ *[0-9]+ +//; s/\(.*//' "$base/strace.log" | tr '\n' ' ')"
fi
exit 0
