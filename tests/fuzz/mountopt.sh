#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/fuzz/mountopt.sh - fuzz the mount option engine (fuzz_mountopt.c,
# corpus tests/fuzz/corpus-mountopt) for a bounded time; see lib-fuzz.sh.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-fuzz.sh"
fuzz_target mountopt "$TOP/tests/fuzz/corpus-mountopt" \
	"$TOP/tests/fuzz/fuzz_mountopt.c" "$TOP/applets/mount/mountopt.c" \
	"$TOP/applets/mount/mountopt-tables.c" \
	"$TOP/libcommon/line_stream.c" "$TOP/libcommon/read_file.c" \
	"$TOP/libcommon/parse_num.c" "$TOP/libcommon/fmt_num.c" "$TOP/libcommon/str.c" \
	"$TOP/libcommon/xenstore.c" "$TOP/libcommon/write.c" "$TOP/libcommon/die.c" \
	"$TOP/libcommon/errno_text.c" "$TOP/libcommon/clock.c" "$TOP/libcommon/escape.c"
exit 0
