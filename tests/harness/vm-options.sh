#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/harness/vm-options.sh - tests/vm/run refuses a bad VM_ICOUNT (the
# shift of QEMU's -icount, 0 to 10), VM_LIFECYCLES (0 to 9), VM_BASELINES
# (0, 1) or VM_RELEASE (bookworm, trixie) before it builds or boots anything: exit status 2 and
# a message naming the value.
. "$(dirname "$0")/../lib.sh"
for v in x 11 -1 "1,sleep=off" " "; do
	out=$(VM_ICOUNT=$v bash "$TOP/tests/vm/run" /nonexistent/forkless 2>&1 >/dev/null)
	rc=$?
	check "harness/vm-run VM_ICOUNT='$v' refused" \
		"2 tests/vm/run: VM_ICOUNT=$v: not a shift from 0 to 10 (QEMU -icount)" "$rc $out"
done
for v in 10 -1 x " "; do
	out=$(VM_LIFECYCLES=$v bash "$TOP/tests/vm/run" /nonexistent/forkless 2>&1 >/dev/null)
	rc=$?
	check "harness/vm-run VM_LIFECYCLES='$v' refused" \
		"2 tests/vm/run: VM_LIFECYCLES=$v: not a number of lifecycles from 0 to 9" "$rc $out"
done
for v in 2 x yes " "; do
	out=$(VM_BASELINES=$v bash "$TOP/tests/vm/run" /nonexistent/forkless 2>&1 >/dev/null)
	rc=$?
	check "harness/vm-run VM_BASELINES='$v' refused" \
		"2 tests/vm/run: VM_BASELINES=$v: not 0 (forkless's side only) or 1 (Debian's too)" "$rc $out"
done
for v in sid buster " "; do
	out=$(VM_RELEASE=$v bash "$TOP/tests/vm/run" /nonexistent/forkless 2>&1 >/dev/null)
	rc=$?
	check "harness/vm-run VM_RELEASE='$v' refused" \
		"2 tests/vm/run: VM_RELEASE=$v: not bookworm or trixie" "$rc $out"
done
exit 0
