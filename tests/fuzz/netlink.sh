#!/bin/bash
# tests/fuzz/netlink.sh - fuzz the rtnetlink reply parser (fuzz_netlink.c,
# libcommon/netlink.c; corpus tests/fuzz/corpus-netlink) for a bounded
# time; see lib-fuzz.sh.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-fuzz.sh"
fuzz_target netlink "$TOP/tests/fuzz/corpus-netlink" "$TOP/tests/fuzz/fuzz_netlink.c" \
	"$TOP/libcommon/netlink.c" "$TOP/libcommon/write.c" "$TOP/libcommon/errno_text.c" \
	"$TOP/libcommon/die.c" "$TOP/libcommon/str.c" "$TOP/libcommon/fmt_num.c"
exit 0
