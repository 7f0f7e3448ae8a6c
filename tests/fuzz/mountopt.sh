#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/fuzz/mountopt.sh - fuzz the mount option engine (fuzz_mountopt.c,
# corpus tests/fuzz/corpus-mountopt) for a bounded time; see lib-fuzz.sh.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-fuzz.sh"
fuzz_target mountopt "$TOP/tests/fuzz/corpus-mountopt" \
	"$TOP/tests/fuzz/fuzz_mountopt.c" "$TOP/applets/mount/mountopt.c" \
	"$TOP/applets/mount/mountopt-tables.c"
exit 0
