#!/bin/bash
# SPDX-License-Identifier: MIT
# The test suite under ASan and UBSan: builds forkless with gcc (glibc,
# dynamic, -fsanitize=address,undefined, every applet) and runs the
# behaviour tests against it. Any sanitizer report changes the exit status
# and stderr, so those tests fail. Left out: the syscall-budget tests (the
# sanitizer runtime makes its own syscalls) and the build/VM tests.
. "$(dirname "$0")/../lib.sh"
need_root asan || exit 0
cd "$TOP" || exit 2
d=build/asan
mkdir -p "$d"
if ! { make -s O=$d BIN=$d/forkless KCONFIG_CONFIG=$d/.config defconfig >/dev/null &&
       make -s O=$d BIN=$d/forkless KCONFIG_CONFIG=$d/.config CC=gcc STATIC= STRIP= \
	CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" \
	>"$d.log" 2>&1; }; then
	fail asan/build "the ASan/UBSan build failed" "$(tail -20 "$d.log")"
	exit 0
fi
pass "asan/build"

export FORKLESS=$TOP/$d/forkless FORKLESS_SANITIZED=1
# No LeakSanitizer: it cannot run under ptrace, and the mount tests watch
# the mount(2) call with strace. (Every applet is a short-lived process.)
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The hotplug comparisons against Debian 13's scripts only: Debian 12's
# subset runs the same code on 4.17's files (the plain run has it), and
# under ASan most of a comparison's time is Debian's side.
export HP_ONLY_RELEASE=trixie
for t in tests/xen/applets.sh tests/xen/diff-debian.sh tests/xen/migrate-shell.sh tests/cgroup/*.sh tests/mount/*.sh \
	tests/hotplug/vif-bridge.sh tests/hotplug/vif-route.sh tests/hotplug/block.sh \
	tests/hotplug/edits.sh; do
	[ -x "$t" ] || continue
	case $t in */syscalls.sh) continue ;; esac   # syscall budgets: not with a runtime
	# Prefix every result so the sanitized run is told apart.
	bash "$t" 2>&1 | sed -E 's/^(PASS|FAIL|SKIPPED): /\1: asan\//'
	status=${PIPESTATUS[0]}
	[ "$status" = 0 ] || fail "asan/$t" "the script itself exited with status $status"
done
