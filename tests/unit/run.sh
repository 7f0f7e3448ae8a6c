#!/bin/bash
# SPDX-License-Identifier: MIT
# Unit tests of the pure helpers: each tests/unit/test_*.c is built with
# gcc and ASan/UBSan against all of libcommon (helpers only: the applet
# table and dispatch are core/'s; compiled once, as an archive) plus the
# sources its `// sources:` line names, one of its first three (after
# the SPDX line):
#   // sources: applets/xen/xen.c
. "$(dirname "$0")/../lib.sh"
out=$TMPBASE/unit
mkdir -p "$out"
# A config with everything enabled, so ENABLE_X code paths are compiled.
allyes_autoconf "$out" || { fail unit/config "the allyesconfig autoconf.h failed"; exit 0; }

flags=(-std=c11 -g -O1 -Wall -Wextra -Werror -D_GNU_SOURCE
	-fsanitize=address,undefined -fno-sanitize-recover=all
	-I"$TOP/libcommon" -I"$TOP/applets")
# libcommon compiled once, for every test (tests/lib.sh)
if ! lib=$(libcommon_archive unit "$out" gcc "${flags[@]}"); then
	fail unit/libcommon "does not compile" "$(cat "$out/build.log")"
	exit 0
fi
for t in "$TOP"/tests/unit/test_*.c; do
	name=$(basename "$t" .c)
	extra=$(sed -n '1,3s,^// sources:,,p' "$t")
	srcs=
	for s in $extra; do srcs="$srcs $TOP/$s"; done
	if ! gcc "${flags[@]}" -I"$out" \
		-o "$out/$name" "$t" $srcs "$lib" 2>"$out/$name.log"; then
		fail "unit/$name/build" "does not compile" "$(cat "$out/$name.log")"
		continue
	fi
	"$out/$name" || fail "unit/$name" "exited with status $?"
done
