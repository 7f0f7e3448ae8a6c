#!/bin/sh
# SPDX-License-Identifier: MIT
# The chain of the xen-utils-wrapper Debian shipped before 2020, rebuilt for
# tests/bench/xen.sh from its documented behaviour (docs/benchmarks.md): the
# command's name from basename(1), the tools' directory from xen-dir (a
# second script, which asks a third, xen-version), then exec. Its helpers
# sit under /old/lib in the benchmark's root.
name=$(basename $0)
dir=$(/old/lib/xen-dir)
exec "$dir/bin/$name" "$@"
