#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/harness/make-help.sh - `make help` names every target the Makefile
# declares (.PHONY), and tests/run's selection: a family is exactly its
# folder, FAMILY/SCRIPT one script, and a selection that names nothing is
# refused, not a green run of nothing.
. "$(dirname "$0")/../lib.sh"
help=$(make -s -C "$TOP" help 2>&1)
phony=$(sed -n '/^\.PHONY:/,/[^\\]$/p' "$TOP/Makefile" | sed 's/^\.PHONY://; s/\\$//' | tr -s ' \t' '\n' | sed '/^$/d')
[ -n "$phony" ] || { fail harness/make-help ".PHONY not found in the Makefile"; exit 0; }
missing=
for t in $phony; do
	grep -qE "(^|[[:space:]])$t([[:space:]]|$)" <<<"$help" || missing="$missing $t"
done
check "harness/make-help: every .PHONY target is listed" "" "$missing"

# tests/run's selection, without running anything: a run with a selection
# that does not exist exits 2 with a message naming it
run_capture bash "$TOP/tests/run" no-such-family
[ "$RC" = 2 ] && grep -q "'no-such-family' is no family" <<<"$ERR" && pass "harness/run: an unknown family is refused" ||
	fail "harness/run: an unknown family is refused" "exit $RC" "$OUT" "$ERR"
run_capture bash "$TOP/tests/run" xen/no-such-script
[ "$RC" = 2 ] && grep -q "'xen/no-such-script' is no family" <<<"$ERR" && pass "harness/run: an unknown script is refused" ||
	fail "harness/run: an unknown script is refused" "exit $RC" "$OUT" "$ERR"
exit 0
