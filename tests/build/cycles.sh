#!/bin/bash
# SPDX-License-Identifier: MIT
# No include cycle and no call cycle between files: the include graph of
# the sources, and the graph "this object calls into that one" of the
# default build's objects (an undefined symbol of one object defined by
# another). The generated applet table (core/table.o) refers to every
# applet's main as data, which is how core/ reaches applets, not a call:
# its outgoing edges are left out.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 2
base=$(scratch cycles)
trap 'rm -rf "$base"' EXIT

# Includes: FILE -> HEADER for every #include "..." found by -I order.
for f in $(git ls-files -co --exclude-standard -- 'core/*.[ch]' 'libcommon/*.[ch]' 'applets/*.[ch]' 'applets/*/*.[ch]'); do
	sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | while read -r h; do
		for d in "$(dirname "$f")" core libcommon applets; do
			[ -e "$d/$h" ] && { echo "$f $d/$h"; break; }
		done
	done
done >"$base/includes"
if tsort "$base/includes" >/dev/null 2>"$base/inc.err"; then
	pass "cycles/no include cycle ($(wc -l <"$base/includes") includes)"
else
	fail "cycles/no include cycle" "$(cat "$base/inc.err")"
fi

# Objects of a build of their own: one per source of the tree as it is (a
# warm build/ may hold objects of files since moved or removed), without
# LTO (its objects carry no symbol table of their own).
objdir=$base/obj
make -s O="$objdir" BIN="$objdir/forkless" LTO=no >/dev/null 2>&1 ||
	{ fail "cycles/build" "make failed"; exit 0; }
objs=$(for c in core/*.c libcommon/*.c applets/*/*.c; do
	[ -f "$c" ] && echo "build/${c%.c}.o"; done | sort)
obj() { echo "$objdir/${1#build/}"; }
for o in $objs; do nm "$(obj "$o")" | awk -v o="$o" '$2 ~ /^[TDRB]$/ {print $3, o}'; done | sort -u >"$base/defs"
for o in $objs; do
	[ "$o" = build/core/table.o ] && continue
	nm -u "$(obj "$o")" | awk '{print $2}' | sort -u | join - "$base/defs" | awk -v o="$o" '$2 != o {print o, $2}'
done | sort -u >"$base/calls"
if tsort "$base/calls" >/dev/null 2>"$base/calls.err"; then
	pass "cycles/no call cycle between objects ($(wc -l <"$base/calls") edges)"
else
	fail "cycles/no call cycle between objects" "$(cat "$base/calls.err")"
fi
# libcommon/ knows no applet and nothing of core/.
bad=$(grep -E '^build/libcommon/' "$base/calls" | grep -vE ' build/libcommon/' || true)
[ -z "$bad" ] && pass "cycles/libcommon calls only libcommon" || fail "cycles/libcommon calls only libcommon" "$bad"
# (any header found outside libcommon/, by the include graph above, or the
# generated table's: not a hand-kept list of names that misses new ones)
bad=$({ awk '$1 ~ /^libcommon\// && $2 !~ /^libcommon\//' "$base/includes"
	grep -l '#include "applet_table\.h"' libcommon/*.[ch]; } || true)
[ -z "$bad" ] && pass "cycles/libcommon includes no core or applet header" ||
	fail "cycles/libcommon includes no core or applet header" "$bad"
exit 0
