#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/fuzz/xeninitlist.sh - fuzz xen-init-list's reading of the
# DIRECTORY /local/domain reply (fuzz_xeninitlist.c against a naive second
# reading; corpus tests/fuzz/corpus-xeninitlist) for a bounded time; see
# lib-fuzz.sh.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-fuzz.sh"
# (lib-fuzz.sh links all of libcommon)
fuzz_target xeninitlist "$TOP/tests/fuzz/corpus-xeninitlist" \
	"$TOP/tests/fuzz/fuzz_xeninitlist.c" "$TOP/applets/xen/xen-init.c" "$TOP/applets/xen/xlcfg.c"
exit 0
