#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/fuzz/mountinfo.sh - fuzz the /proc/self/mountinfo stream parser
# (fuzz_mountinfo.c, libcommon/mountinfo.c; corpus
# tests/fuzz/corpus-mountinfo) for a bounded time; see lib-fuzz.sh.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-fuzz.sh"
# (lib-fuzz.sh links all of libcommon)
fuzz_target mountinfo "$TOP/tests/fuzz/corpus-mountinfo" "$TOP/tests/fuzz/fuzz_mountinfo.c"
exit 0
