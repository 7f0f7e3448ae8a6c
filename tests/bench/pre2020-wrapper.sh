#!/bin/sh
# The xen-utils-wrapper Debian shipped before 2020 (see ../../README.md,
# "Benchmarks"), kept to measure what forkless replaces. Reconstructed from
# its documented form; only the helper paths differ (/old/...).
COMMAND=$(basename $0)
DIR=$(/old/lib/xen-dir)
exec "$DIR/bin/$COMMAND" "$@"
