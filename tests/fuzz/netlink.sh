#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/fuzz/netlink.sh - fuzz the rtnetlink reply parser (fuzz_netlink.c,
# libcommon/netlink.c; corpus tests/fuzz/corpus-netlink) for a bounded
# time; see lib-fuzz.sh.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-fuzz.sh"
# (lib-fuzz.sh links all of libcommon)
fuzz_target netlink "$TOP/tests/fuzz/corpus-netlink" "$TOP/tests/fuzz/fuzz_netlink.c"
exit 0
