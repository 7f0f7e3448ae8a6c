#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/fuzz/passwd.sh - fuzz the passwd/group lookup (fuzz_passwd.c:
# libcommon/passwd.c and its line reader against a whole-file reference;
# corpus tests/fuzz/corpus-passwd) for a bounded time; see lib-fuzz.sh.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-fuzz.sh"
fuzz_target passwd "$TOP/tests/fuzz/corpus-passwd" \
	"$TOP/tests/fuzz/fuzz_passwd.c"
exit 0
