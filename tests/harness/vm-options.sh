#!/bin/bash
# tests/harness/vm-options.sh - tests/vm/run refuses a bad VM_ICOUNT (the
# shift of QEMU's -icount, 0 to 10) before it builds or boots anything:
# exit status 2 and a message naming the value.
. "$(dirname "$0")/../lib.sh"
for v in x 11 -1 "1,sleep=off" " "; do
	out=$(VM_ICOUNT=$v bash "$TOP/tests/vm/run" /nonexistent/forkless 2>&1 >/dev/null)
	rc=$?
	check "harness/vm-run VM_ICOUNT='$v' refused" \
		"2 tests/vm/run: VM_ICOUNT=$v: not a shift from 0 to 10 (QEMU -icount)" "$rc $out"
done
exit 0
