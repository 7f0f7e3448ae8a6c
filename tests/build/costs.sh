#!/bin/bash
# SPDX-License-Identifier: MIT
# Each Kconfig prompt's stated size is what the option costs, measured:
#   "(~C KiB"           C: what the option adds to the default build
#                       (full_defconfig against full_defconfig without it);
#   "~A KiB alone"      A: what it adds to a build of nothing else
#                       (allnoconfig plus the option, against allnoconfig).
# A figure is right within 25 % or 0.5 KiB, whichever is larger (they are
# rounded, and the sizes move by a few hundred bytes as code changes).
# The measured figures are printed (INFO), to correct a prompt by.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-build.sh"
cd "$TOP" || exit 2
cb=build/costs KB=$cb
mkdir -p "$cb"

# size_of NAME: the size in bytes of NAME's binary, or 0 when its build failed
size_of() { stat -c %s "$cb/$1/forkless" 2>/dev/null || echo 0; }
# kib BYTES: as KiB with one decimal
kib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1024 }'; }
# near STATED_KIB BYTES: within 25 % or 0.5 KiB
near() {
	awk -v s="$1" -v b="$2" 'BEGIN { m = b / 1024; d = s - m; if (d < 0) d = -d
		tol = m * 0.25; if (tol < 0.5) tol = 0.5; exit !(d <= tol) }'
}

# SYM COST [ALONE]: the options whose prompt states a size
prompts=$(awk '
	/^(\/\/config:)?config [A-Z0-9_]+$/ { sym = $NF; next }
	sym && /^(\/\/config:)?[ \t]*bool "/ {
		c = ""; a = ""
		if (match($0, /\(~[0-9.]+ KiB/)) c = substr($0, RSTART + 2, RLENGTH - 6)
		if (match($0, /~[0-9.]+ KiB alone/)) a = substr($0, RSTART + 1, RLENGTH - 11)
		if (c != "") print sym, c, a
		sym = "" }' Config.in applets/*/*.c)
[ -n "$prompts" ] || { fail "costs/prompts" "no prompt states a size"; exit 0; }

# Every configuration first, then the builds, as many at once as there are
# CPUs (each in its own directory), then the sizes.
configure full --defconfig=config/full_defconfig
configure allno --allnoconfig
names="full allno"
while read -r sym cost alone; do
	grep -q "^CONFIG_$sym=y" "$cb/full/.config" || continue
	configure "no-$sym" --defconfig=config/full_defconfig && set_sym "no-$sym" "$sym" n
	names="$names no-$sym"
	if [ -n "$alone" ]; then
		configure "one-$sym" --allnoconfig && set_sym "one-$sym" "$sym" y
		names="$names one-$sym"
	fi
done <<<"$prompts"
# shellcheck disable=SC2086
build_all $names
full=$(size_of full)
allno=$(size_of allno)
if [ "$full" = 0 ] || [ "$allno" = 0 ]; then
	fail "costs/reference builds" "full: $full, allnoconfig: $allno bytes"
	exit 0
fi
while read -r sym cost alone; do
	if ! grep -q "^CONFIG_$sym=y" "$cb/full/.config"; then
		fail "costs/$sym" "states a cost in the default build, but is not in full_defconfig"
		continue
	fi
	without=$(size_of "no-$sym")
	[ "$without" != 0 ] || { fail "costs/$sym" "the build without it failed: $(tail -3 "$cb/no-$sym.log")"; continue; }
	c=$((full - without))
	if [ -n "$alone" ]; then
		one=$(size_of "one-$sym")
		[ "$one" != 0 ] || { fail "costs/$sym" "the build of it alone failed: $(tail -3 "$cb/one-$sym.log")"; continue; }
		a=$((one - allno))
		info "$sym: ~$(kib $c) KiB in the default build (prompt: ~$cost), ~$(kib $a) KiB alone (prompt: ~$alone)"
		near "$alone" "$a" && pass "costs/$sym alone: ~$alone KiB" ||
			fail "costs/$sym alone" "the prompt says ~$alone KiB, measured $(kib $a) KiB ($a bytes)"
	else
		info "$sym: ~$(kib $c) KiB in the default build (prompt: ~$cost)"
	fi
	near "$cost" "$c" && pass "costs/$sym: ~$cost KiB" ||
		fail "costs/$sym" "the prompt says ~$cost KiB, measured $(kib $c) KiB ($c bytes)"
done <<<"$prompts"
exit 0
