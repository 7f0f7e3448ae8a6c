#!/bin/sh
# target-flags.sh CC...: the flags that depend on what CC builds for, as
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
set -eu
case $("$@" -dumpmachine 2>/dev/null) in
x86_64*)
	echo "cflags -fno-pie"
	echo "ldflags -Wl,-no-pie -Wl,-e,forkless_start" ;;
*)
	echo "cflags"
	echo "ldflags" ;;
esac
