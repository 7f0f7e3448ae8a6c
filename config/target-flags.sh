#!/bin/sh
# target-flags.sh LTO CC...: the flags that depend on what CC builds for, as
# two lines `cflags ...` and `ldflags ...` (the Makefile writes them to
# $(O)/.target-flags and reads them in its recipes).
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
set -eu
lto=$1
shift
# One partition: the smallest code, the same bytes every build, and no
# "serial compilation of N LTRANS jobs" notes.
gcc_lto="-flto -flto-partition=one"
cflags= ldflags=
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
echo "cflags $cflags"
echo "ldflags $ldflags"
