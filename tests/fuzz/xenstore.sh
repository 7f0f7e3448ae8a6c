#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/fuzz/xenstore.sh - fuzz the xenstore reply checks and request
# encoding (fuzz_xenstore.c, libcommon/xenstore.c; corpus
# tests/fuzz/corpus-xenstore) for a bounded time; see lib-fuzz.sh.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-fuzz.sh"
# all of libcommon (it knows no applet): whatever the parser calls links
lib=$(ls "$TOP"/libcommon/*.c)
# shellcheck disable=SC2086
fuzz_target xenstore "$TOP/tests/fuzz/corpus-xenstore" "$TOP/tests/fuzz/fuzz_xenstore.c" $lib
exit 0
