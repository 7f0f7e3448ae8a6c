#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/fuzz/xeninitlist.sh - fuzz xen-init-list's reading of the
# DIRECTORY /local/domain reply (fuzz_xeninitlist.c against a naive second
# reading; corpus tests/fuzz/corpus-xeninitlist) for a bounded time; see
# lib-fuzz.sh.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-fuzz.sh"
lib=$(ls "$TOP"/libcommon/*.c | grep -v -e multicall.c -e install.c -e links.c \
	-e mountopt.c -e passwd.c)
# shellcheck disable=SC2086
fuzz_target xeninitlist "$TOP/tests/fuzz/corpus-xeninitlist" \
	"$TOP/tests/fuzz/fuzz_xeninitlist.c" "$TOP/applets/xen/xen-init.c" "$TOP/applets/xen/xlcfg.c" $lib
exit 0
