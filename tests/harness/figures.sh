#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/harness/figures.sh - the figures check itself (tests/figures.sh),
# on scratch documents and measurements: a right number passes, a wrong
# one fails naming the file, line, documented and measured values; a name
# used twice, an unknown name, a marker without a number and a name
# measured with two values fail; an unmeasured one is skipped.
. "$(dirname "$0")/../lib.sh"
T=$(scratch figures)
trap 'rm -rf "$T"' EXIT

# figures NAME DOC-TEXT MEASURED-LINES: runs the check on DOC-TEXT (in
# $T/doc.md) with MEASURED-LINES as the run's measurements; OUT, RC.
figures() {
	printf '%s\n' "$2" >"$T/doc.md"
	printf '%s' "$3" >"$T/measured"
	run_capture env -u TEST_MATCH FIGURES="$T/measured" bash "$TOP/tests/figures.sh" "$T/doc.md"
}
# has NAME PATTERN: passes when a line of OUT matches PATTERN (grep -E),
# fails showing OUT otherwise
has() {
	if [ "$RC" = 0 ] && grep -qE -- "$2" <<<"$OUT"; then pass "$1"; else fail "$1" "no line /$2/ (exit $RC)" "$OUT"; fi
}

figures x "a wrapper of 4<!--fig:xl-syscalls--> syscalls" "xl-syscalls 4"$'\n'
has "harness/figures/right value passes" '^PASS: figures/xl-syscalls$'

figures x $'line one\nit takes 5<!--fig:xl-syscalls--> syscalls' "xl-syscalls 4"$'\n'
has "harness/figures/wrong value fails with file, line and both values" \
	"^FAIL: figures/xl-syscalls: .*doc\.md:2: documented 5, measured 4$"

figures x "96,768<!--fig:size-full--> bytes" "size-full 96768"$'\n'
has "harness/figures/commas in the number" '^PASS: figures/size-full$'

figures x "2.02<!--fig:cgroup-syscalls-per-id--> per id" "cgroup-syscalls-per-id 2.02"$'\n'
has "harness/figures/a decimal number" '^PASS: figures/cgroup-syscalls-per-id$'

figures x $'4<!--fig:xl-syscalls--> here\nand 4<!--fig:xl-syscalls--> again' "xl-syscalls 4"$'\n'
has "harness/figures/a name used twice fails" "^FAIL: figures/xl-syscalls: .*doc\.md:2: the marker is used twice \(first at .*doc\.md:1\)"

figures x "11<!--fig:toolstack-start-procs-trixie-->" "toolstack-start-procs-trixie 11"$'\n'
has "harness/figures/a VM figure of Debian 13 (-trixie)" '^PASS: figures/toolstack-start-procs-trixie$'

figures x "1<!--fig:size-full-trixie-->" ""
has "harness/figures/-trixie only for the VM suite's names" '^FAIL: figures/size-full-trixie: .*unknown figure name'

figures x "7<!--fig:no-such-figure-->" ""
has "harness/figures/an unknown name fails" '^FAIL: figures/no-such-figure: .*unknown figure name'

figures x "many<!--fig:xl-syscalls-->" "xl-syscalls 4"$'\n'
has "harness/figures/a marker without a number fails" '^FAIL: figures/xl-syscalls: .*no number before the marker'

figures x "149<!--fig:domu-procs-debian--> processes" "xl-syscalls 4"$'\n'
has "harness/figures/not measured in this run: skipped" '^SKIPPED: figures/domu-procs-debian: .*not measured in this run'

figures x "1<!--fig:hotplug-procs-call-->" $'hotplug-procs-call 1\nhotplug-procs-call 1\nhotplug-procs-call 2\n'
has "harness/figures/measured twice with different values fails" '^FAIL: figures/hotplug-procs-call: .*measured different values: 1 2$'

figures x "1<!--fig:hotplug-procs-call--> and 4<!--fig:xl-syscalls-->" $'hotplug-procs-call 1\nxl-syscalls 4\n'
[ "$(grep -c '^PASS: ' <<<"$OUT")" = 2 ] && pass "harness/figures/two markers on a line" ||
	fail "harness/figures/two markers on a line" "expected two PASS lines" "$OUT"

figures x 'written as `4<!--fig:xl-syscalls-->` in an example' "xl-syscalls 5"$'\n'
[ -z "$(grep -E '^(PASS|FAIL|SKIPPED): ' <<<"$OUT")" ] && pass "harness/figures/a marker in \`code\` is an example" ||
	fail "harness/figures/a marker in \`code\` is an example" "it was checked" "$OUT"

# every name the check knows is documented in docs/testing.md
missing=
while read -r name _; do
	grep -q "\`$name\`" "$TOP/docs/testing.md" 2>/dev/null || missing="$missing $name"
done < <(bash "$TOP/tests/figures.sh" --names)
check "harness/figures/every name is in docs/testing.md" "" "$missing"
exit 0
