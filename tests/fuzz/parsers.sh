#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/fuzz/parsers.sh - fuzz the other input parsers (fuzz_parsers.c:
# Xen sysfs values, dash `read` emulation, cgroup ids, cgroup2 mounts in
# mountinfo lines, readlink paths, octal escaping; corpus
# tests/fuzz/corpus-parsers) for a bounded time; see lib-fuzz.sh.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-fuzz.sh"
# (lib-fuzz.sh links all of libcommon)
fuzz_target parsers "$TOP/tests/fuzz/corpus-parsers" \
	"$TOP/tests/fuzz/fuzz_parsers.c" "$TOP/applets/xen/xen.c" "$TOP/applets/cgroup/cgroup-parse.c"
exit 0
