#!/bin/sh
# SPDX-License-Identifier: MIT
# target-flags.sh LTO CC...: the flags that depend on what CC builds for, as
# three lines `cflags ...`, `appletcflags ...` (added for applets/ only) and
# `ldflags ...` (the Makefile writes them to $(O)/.target-flags and reads
# them in its recipes).
#
# Asked of the compiler when building, not when make reads the Makefile:
# on a fresh machine CC only exists once need-tools.sh has installed it,
# and the first build must be the same binary as the second.
#
# x86_64: the ELF entry point is forkless_start (core/entry.c), where
# applets' early hooks run before libc initialises. That is before any
# self-relocation a static-pie start file would do, so the binary is linked
# at a fixed address (-no-pie), and its code is compiled for one
# (-fno-pie: absolute addresses, constant tables of pointers in .rodata).
#
# LTO (make's LTO=, default auto): link-time optimisation, with GCC (and
# musl-gcc, which runs it) only: clang's LTO needs a linker plugin that
# GNU ld on Debian does not load by default. It is what keeps the
# Xen-wrapper-only build within its 16 KiB budget (~500 bytes: code
# shared across files is inlined or dropped whole). LTO=no turns it off.
#
# Size: code generation choices that -Os leaves on but that cost bytes here,
# each kept for what it takes off the full build on its own / with the
# others (bytes, x86_64 musl, GCC 12). Only GCC has them all (clang warns
# or stops on most, other targets on -malign-data), so each one is asked
# of CC first and dropped when refused. None changes what the program does.
#   -fno-jump-tables             352 / 304  a switch as compares, no table
#   -fno-shrink-wrap              96 / 112  one prologue, not one per path
#   -fno-partial-inlining         64 / 176  no split-off function heads
#   -malign-data=abi             360 / 344  arrays aligned as the ABI says,
#                                           not to cache lines
#   -fno-expensive-optimizations 416 / 304
#   -fno-caller-saves            320 / 192
#   -fno-move-loop-invariants    288 / 176
#   -fno-ipa-modref              224 / 304
#   -fno-tree-tail-merge          96 / 304
# For applets/ alone: -fno-inline-functions-called-once, 880 bytes (an
# applet's main calls many helpers once each; inlined, their frames merge
# into one big one). On core/ and libcommon/ too it costs 176 bytes more,
# and 208 in the wrapper-only build.
size_cflags="-fno-jump-tables -fno-shrink-wrap -fno-partial-inlining -malign-data=abi
	-fno-expensive-optimizations -fno-caller-saves -fno-move-loop-invariants
	-fno-ipa-modref -fno-tree-tail-merge"
size_appletcflags=-fno-inline-functions-called-once
set -eu
lto=$1
shift
# accepts FLAG CC...: CC compiles with FLAG without a word (-Werror: clang
# only warns on GCC's optimisation flags)
accepts() {
	flag=$1
	shift
	"$@" -Werror "$flag" -S -x c -o /dev/null /dev/null >/dev/null 2>&1
}
# One partition: the smallest code, the same bytes every build, and no
# "serial compilation of N LTRANS jobs" notes.
gcc_lto="-flto -flto-partition=one"
cflags= appletcflags= ldflags=
case $("$@" -dumpmachine 2>/dev/null) in
x86_64*)
	cflags=-fno-pie
	ldflags="-Wl,-no-pie -Wl,-e,forkless_start" ;;
esac
case $lto in
auto) "$@" -v 2>&1 | grep -q '^gcc version' && cflags="$cflags $gcc_lto" ;;
yes) cflags="$cflags $gcc_lto" ;;
no) ;;
*) echo "forkless build: LTO=$lto: use auto, yes or no" >&2; exit 1 ;;
esac
for f in $size_cflags; do
	if accepts "$f" "$@"; then cflags="$cflags $f"; fi
done
for f in $size_appletcflags; do
	if accepts "$f" "$@"; then appletcflags="$appletcflags $f"; fi
done
echo "cflags $cflags"
echo "appletcflags $appletcflags"
echo "ldflags $ldflags"
