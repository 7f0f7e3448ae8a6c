#!/bin/sh
# SPDX-License-Identifier: MIT
# gen-autoconf.sh .config Config.in-symbols-file OUT
#
# Turns .config into a header: for every symbol Kconfig knows,
# ENABLE_X is 1 or 0 (so C code says `if (ENABLE_X)` and disabled code is
# still compiled and type-checked, then dropped), CONFIG_X is defined for
# enabled bools and carries the value of strings and numbers. Writes OUT
# only when its content changes (kconfig-conf rewrites its own header on
# every run, which would rebuild everything).
set -eu
config=$1 symbols=$2 out=$3
awk -v symfile="$symbols" '
BEGIN {
	while ((getline line < symfile) > 0) known[line] = 1
	print "/* Generated from .config by config/gen-autoconf.sh. Do not edit. */"
	print "#ifndef FORKLESS_AUTOCONF_H"
	print "#define FORKLESS_AUTOCONF_H"
}
/^CONFIG_[A-Za-z0-9_]+=/ {
	name = $0; sub(/=.*/, "", name); sub(/^CONFIG_/, "", name)
	val = $0; sub(/^[^=]*=/, "", val)
	set[name] = 1
	if (val == "y") { print "#define CONFIG_" name " 1"; print "#define ENABLE_" name " 1" }
	else if (val == "n") { set[name] = 0 }
	else { print "#define CONFIG_" name " " val; print "#define ENABLE_" name " 1" }
}
END {
	for (s in known) if (!set[s]) print "#define ENABLE_" s " 0"
	print "#endif"
}' "$config" >"$out.tmp"
# The END loop order of awk is unspecified: sort the body for a stable file.
{ head -3 "$out.tmp"; sed '1,3d;$d' "$out.tmp" | sort; echo "#endif"; } >"$out.tmp2"
rm -f "$out.tmp"
if cmp -s "$out.tmp2" "$out"; then rm -f "$out.tmp2"; else mv "$out.tmp2" "$out"; fi
