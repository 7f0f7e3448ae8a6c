#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/fuzz/shvars.sh - fuzz the plain-assignment reader (fuzz_shvars.c,
# libcommon/shvars.c; corpus tests/fuzz/corpus-shvars) for a bounded time;
# see lib-fuzz.sh. (What bash and dash make of such files:
# tests/unit/shvars-shells.sh.)
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-fuzz.sh"
fuzz_target shvars "$TOP/tests/fuzz/corpus-shvars" "$TOP/tests/fuzz/fuzz_shvars.c"
exit 0
