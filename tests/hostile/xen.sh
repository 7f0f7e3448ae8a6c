#!/bin/bash
# SPDX-License-Identifier: MIT
# Hostile input to the Xen applets: what a broken or malicious system can
# hand them (NULs and FIFOs in sysfs, odd argv, closed or full standard
# fds, SIGPIPE ignored, a tiny RLIMIT_NOFILE). Each run is under timeout,
# so a hang is a FAIL, not a stuck suite. Test roots: tests/xen/lib-xen.sh.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/xen/lib-xen.sh"
need_root hostile-xen || exit 0

STUB=$(build_stub) || { fail hostile-xen/stub "cannot build the stub tool"; exit 0; }
EXEC_ARGV=$(build_exec_argv) || { fail hostile-xen/exec-argv "cannot build exec-argv"; exit 0; }
base=$(scratch hostile-xen)
trap 'rm -rf "$base"' EXIT
root=$base/root
make_root "$root" && install_impl "$root" forkless && set_state "$root" ok ||
	{ fail hostile-xen/root "cannot build the test root"; exit 0; }
cp "$EXEC_ARGV" "$root/usr/bin/exec-argv"
# sleep for the pipe tests, with its libraries (dash's are there already).
cp /bin/sleep "$root/usr/bin/sleep"
for lib in $(ldd /bin/sleep | grep -o '/[^ ]*'); do
	mkdir -p "$root$(dirname "$lib")"; cp -L "$lib" "$root$lib"
done

SYS=/sys/hypervisor
T=10   # seconds before a run counts as hung
# r CMD...: run CMD in the root (clean environment), killed after $T s.
r() {
	timeout -s KILL $T env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin:/usr/lib/xen-common/bin PWD=/ \
		chroot "$root" "$@"
}
# rsh SCRIPT: the same for a dash script.
rsh() { r /bin/sh -c "$1"; }
E="ERROR:  "
n=$'\n'
# tool NAME SCRIPT: the stub tool ran as xl with argument list (its output
# has the environment and fds too: only the argv lines are compared).
tool() {
	run_capture rsh "$2"
	check "$1" "0 argv[0]=/usr/lib/xen-4.17/bin/xl argv[1]=list" \
		"$RC $(grep '^argv' <<<"$OUT" | tr '\n' ' ' | sed 's/ $//')"
}

# ---- NUL bytes in /sys/hypervisor/type: dropped, as dash's `read` does
# (tests/xen/diff-debian.sh compares the same states with Debian's) --------
set_state "$root" type-nul-junk
expect "nul/xen\\0junk is 'xenjunk', as in Debian" 1 "" "${E}Hypervisor is not xen but 'xenjunk'!$n" -- \
	r xen-version
set_state "$root" type-nul-inside
expect "nul/x\\0en is xen, as in Debian" 0 "4.17$n" "" -- r xen-version
set_state "$root" type-nul-only
expect "nul/only NULs is empty, as in Debian" 1 "" "${E}Can't read hypervisor type from sysfs!$n" -- \
	r xen-version

# ---- FIFOs where sysfs has regular files: never a hang ------------------
nonreg="not a regular file"
set_state "$root" major-fifo
for cmd in xen-version xen-dir "xen-dir" "/usr/bin/forkless xl" xl; do
	# shellcheck disable=SC2086
	expect "fifo/major: $cmd says so" 1 "" "${E}Can't read Xen version from $SYS/version/major: $nonreg$n" -- \
		r $cmd
done
set_state "$root" type-fifo
expect "fifo/type: xen-version says so" 1 "" "${E}Can't read hypervisor type from sysfs: $SYS/type: $nonreg$n" -- \
	r xen-version
tool "fifo/type: xl runs the tool (the type is read only to explain a failure)" 'exec xl list'
set_state "$root" type-fifo-tool-missing
expect "fifo/type: xl's slow path says so" 1 "" "${E}Can't read hypervisor type from sysfs: $SYS/type: $nonreg$n" -- \
	r xl list
set_state "$root" ok

# ---- a tiny RLIMIT_NOFILE: fds 0-2 and one more -------------------------
tool "rlimit/4: xl runs the tool" 'ulimit -n 4; exec xl list'
tool "rlimit/4: xen runs the tool" 'ulimit -n 4; exec xen list'
expect "rlimit/4: xen-version" 0 "4.17$n" "" -- rsh 'ulimit -n 4; exec xen-version'
expect "rlimit/4: xen-dir" 0 "/usr/lib/xen-4.17$n" "" -- rsh 'ulimit -n 4; exec xen-dir'
set_state "$root" tool-missing
expect "rlimit/4: a missing tool is blamed, not the type file" 127 "" \
	"${E}Unable to execute /usr/lib/xen-4.17/bin/xl$n" -- rsh 'ulimit -n 4; exec xl list'
set_state "$root" ok
expect "rlimit/3: no fd at all is said, naming the file" 1 "" \
	"${E}Can't read hypervisor type from sysfs: $SYS/type: No file descriptors available$n" -- \
	rsh 'ulimit -n 3; exec xen-version'

# ---- argv: argc 0, empty, long and odd argv[0] ---------------------------
# With argc 0 no name is left to dispatch on: every path is the wrapper
# of an empty tool name.
set_state "$root" tool-missing
for p in /usr/sbin/xl /usr/sbin/xen /usr/lib/xen-common/bin/xen-version; do
	expect "argv/argc 0: $p" 127 "" "${E}Unable to execute /usr/lib/xen-4.17/bin/$n" -- r exec-argv $p
done
expect "argv/empty argv[0]" 127 "" "${E}Unable to execute /usr/lib/xen-4.17/bin/$n" -- \
	r exec-argv /usr/sbin/xl ""
long=$(printf 'y%.0s' $(seq 100000))
printf '%s\n' "$long" >"$root/tmp/long"
run_capture rsh 'read -r long </tmp/long; exec exec-argv /usr/sbin/xl "$long"'
check "argv/a 100000-byte argv[0] is reported whole" \
	"127 ${E}Unable to execute /usr/lib/xen-4.17/bin/$long$n" "$RC $ERR"
expect "argv/control bytes in argv[0] are escaped, as the type is" 127 "" \
	"${E}Unable to execute /usr/lib/xen-4.17/bin/x\\012y\\033[2J$n" -- \
	r exec-argv /usr/sbin/xl $'/dir/x\ny\e[2J'
# A login shell's leading - is dropped (dispatch_name): "--" is "-".
expect "argv/argv[0] -- is the tool -" 127 "" "${E}Unable to execute /usr/lib/xen-4.17/bin/-$n" -- \
	r exec-argv /usr/sbin/xl --
set_state "$root" ok

# ---- closed and full standard fds ----------------------------------------
sums() { cat "$root$SYS/type" "$root$SYS/version/major" "$root$SYS/version/minor" | md5sum; }
expect "fds/0-2 closed: the tool's exit status passes through" 3 "" "" -- \
	rsh 'exec xl fail-with-3 <&- >&- 2>&-'
expect "fds/0-2 closed: xen-version fails (stdout closed)" 1 "" "" -- \
	rsh 'exec xen-version <&- >&- 2>&-'
set_state "$root" tool-missing
before=$(sums)
expect "fds/0-2 closed: the slow path exits 127" 127 "" "" -- rsh 'exec xl list <&- >&- 2>&-'
expect "fds/2 closed: the slow path exits 127" 127 "" "" -- rsh 'exec xl list 2>&-'
check "fds/closed fds: no sysfs file written" "$before" "$(sums)"
expect "fds/stderr on /dev/full: exit 127 all the same" 127 "" "" -- rsh 'exec xl list 2>/dev/full'
set_state "$root" ok
expect "fds/stdout on /dev/full: said, exit 1" 1 "" \
	"xen-version: cannot write to stdout: No space left on device$n" -- rsh 'exec xen-version >/dev/full'
expect "fds/xen-toolstack to /dev/full: said, exit 1" 1 "" \
	"warning: something called deprecated script /usr/lib/xen-common/bin/xen-toolstack${n}xen-toolstack: cannot write to stdout: No space left on device$n" -- \
	rsh 'exec xen-toolstack >/dev/full'
exit_seen xen-toolstack "$RC"   # (run in the root: tests/exits.sh)

# ---- SIGPIPE ignored: a closed pipe is EPIPE, by its name ----------------
for cmd in xen-version xen-dir xen-toolstack; do
	want="$cmd: cannot write to stdout: Broken pipe$n"
	[ $cmd = xen-toolstack ] && want="warning: something called deprecated script /usr/lib/xen-common/bin/xen-toolstack$n$want"
	# ':' has exited (the reader is gone) before the write; the status
	# of the pipeline's first command goes through a file (no PIPESTATUS
	# in dash).
	rm -f "$root/tmp/rc"
	run_capture rsh "trap '' PIPE; { sleep 0.3; $cmd; echo \$? >/tmp/rc; } | :"
	check "sigpipe/$cmd: Broken pipe, exit 1" "1 $want" "$(cat "$root/tmp/rc") $ERR"
done
exit 0
