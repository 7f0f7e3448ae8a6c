#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/fuzz/xenstore.sh - fuzz the xenstore reply checks and request
# encoding (fuzz_xenstore.c, libcommon/xenstore.c; corpus
# tests/fuzz/corpus-xenstore) for a bounded time; see lib-fuzz.sh.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-fuzz.sh"
# (lib-fuzz.sh links all of libcommon)
fuzz_target xenstore "$TOP/tests/fuzz/corpus-xenstore" "$TOP/tests/fuzz/fuzz_xenstore.c"
exit 0
