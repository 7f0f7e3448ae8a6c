#!/bin/bash
# SPDX-License-Identifier: MIT
# The message helpers take a typed string array: a call that passes a
# non-string argument must not compile (with the project's -Werror), and
# the same calls with strings must. Negative compile tests, with musl-gcc
# (the build's compiler) and, when installed, gcc and clang.
. "$(dirname "$0")/../lib.sh"
out=$TMPBASE/typed-messages
mkdir -p "$out"
: >"$out/autoconf.h"
cat >"$out/calls.c" <<'C'
#include <stddef.h>
#include "libcommon.h"
void calls(int n, size_t len, const char *s);
void calls(int n, size_t len, const char *s)
{
	(void)n; (void)len;
	warn_msg("count: ", ARG);
	write_strs(1, "x", ARG, "\n");
	if (n > 99)
		die_usage(2, "bad: ", ARG);
	die_msg(1, "count: ", ARG);
}
C
for cc in musl-gcc gcc clang; do
	command -v $cc >/dev/null || { [ $cc = musl-gcc ] && fail "typed-messages/$cc" "not installed"; continue; }
	build() { $cc -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -I"$TOP/libcommon" -I"$out" \
		-c -o "$out/calls.o" "$out/calls.c" "$@" 2>"$out/log"; }
	if build -DARG=s; then
		pass "typed-messages/$cc: strings compile"
	else
		fail "typed-messages/$cc: strings compile" "$(cat "$out/log")"
	fi
	for arg in n len "'c'" 0.5; do
		if build "-DARG=$arg"; then
			fail "typed-messages/$cc: $arg is a compile error" "it compiled"
		else
			pass "typed-messages/$cc: $arg is a compile error"
		fi
	done
done
exit 0
