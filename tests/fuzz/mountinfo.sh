#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/fuzz/mountinfo.sh - fuzz block's /proc/self/mountinfo stream parser
# (fuzz_mountinfo.c, applets/hotplug/mountinfo.c; corpus
# tests/fuzz/corpus-mountinfo) for a bounded time; see lib-fuzz.sh.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-fuzz.sh"
fuzz_target mountinfo "$TOP/tests/fuzz/corpus-mountinfo" "$TOP/tests/fuzz/fuzz_mountinfo.c" \
	"$TOP/applets/hotplug/mountinfo.c"
exit 0
