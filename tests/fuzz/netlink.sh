#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/fuzz/netlink.sh - fuzz the rtnetlink reply parser (fuzz_netlink.c,
# applets/hotplug/netlink.c; corpus tests/fuzz/corpus-netlink) for a bounded
# time; see lib-fuzz.sh.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-fuzz.sh"
# netlink.c and all of libcommon: whatever the parser calls links
lib=$(ls "$TOP"/libcommon/*.c)
# shellcheck disable=SC2086
fuzz_target netlink "$TOP/tests/fuzz/corpus-netlink" "$TOP/tests/fuzz/fuzz_netlink.c" \
	"$TOP/applets/hotplug/netlink.c" $lib
exit 0
