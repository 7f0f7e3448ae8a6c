#!/bin/bash
# tests/fuzz/xenstore.sh - fuzz the xenstore reply checks and request
# encoding (fuzz_xenstore.c, libcommon/xenstore.c; corpus
# tests/fuzz/corpus-xenstore) for a bounded time; see lib-fuzz.sh.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-fuzz.sh"
fuzz_target xenstore "$TOP/tests/fuzz/corpus-xenstore" "$TOP/tests/fuzz/fuzz_xenstore.c" \
	"$TOP/libcommon/xenstore.c" "$TOP/libcommon/write.c" "$TOP/libcommon/parse_num.c" \
	"$TOP/libcommon/errno_text.c" "$TOP/libcommon/die.c" "$TOP/libcommon/str.c" "$TOP/libcommon/fmt_num.c"
exit 0
