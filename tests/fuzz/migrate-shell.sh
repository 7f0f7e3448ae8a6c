#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/fuzz/migrate-shell.sh - fuzz xen-migrate-shell's parser
# (fuzz_migrate_shell.c, applets/xen/migrate-shell-parse.c; corpus
# tests/fuzz/corpus-migrate-shell) for a bounded time; see lib-fuzz.sh.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-fuzz.sh"
fuzz_target migrate-shell "$TOP/tests/fuzz/corpus-migrate-shell" \
	"$TOP/tests/fuzz/fuzz_migrate_shell.c" "$TOP/applets/xen/migrate-shell-parse.c"
exit 0
