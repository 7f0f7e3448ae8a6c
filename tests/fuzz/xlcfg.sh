#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/fuzz/xlcfg.sh - fuzz xen-init-name's parser (applets/xen/xlcfg.c)
# against Debian's real one (libxlutil.a from libxen-dev, fetched as
# tests/xen/init-corpus.sh does): same verdict and same name for every
# input (fuzz_xlcfg.c; corpus tests/fuzz/corpus-xlcfg) for a bounded
# time; see lib-fuzz.sh. Without libxen-dev this FAILs.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-fuzz.sh"
. "$TOP/tests/xen/lib-oracle.sh"
lib=$(fetch_libxlutil) ||
	{ fail fuzz/xlcfg "cannot fetch libxen-dev (apt-get download libxen-dev): xlcfg was NOT fuzzed"; exit 0; }
fuzz_target xlcfg "$TOP/tests/fuzz/corpus-xlcfg" \
	"$TOP/tests/fuzz/fuzz_xlcfg.c" "$TOP/applets/xen/xlcfg.c" "$lib"
exit 0
