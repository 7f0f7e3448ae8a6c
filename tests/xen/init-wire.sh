#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/xen/init-wire.sh - libcommon/xenstore.h's message types are xs_wire.h's.
#
# Every XS_* type forkless sends (libcommon/xenstore.h) against the same name in
# Xen's own xs_wire.h (Debian's libxen-dev, the package lib-oracle.sh downloads).
# A wrong number is not caught by the stand-in xenstored (it is written from the
# same understanding): IS_DOMAIN_INTRODUCED was once sent as 14, SET_PERMS, which
# the real oxenstored refused with EINVAL for every domain.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-oracle.sh"

lib=$(fetch_libxlutil) || { fail xen-init/wire "cannot fetch libxen-dev (apt-get download libxen-dev)"; exit 0; }
inc=${lib%/usr/lib/*}/usr/include
[ -f "$inc/xen/io/xs_wire.h" ] || { fail xen-init/wire "no xen/io/xs_wire.h in libxen-dev ($inc)"; exit 0; }
base=$(scratch xs-wire)
trap 'rm -rf "$base"' EXIT
names=$(sed -n 's/^[[:space:]]*\(XS_[A-Z_]*\) = [0-9]*,.*/\1/p' "$TOP/libcommon/xenstore.h")
[ "$(echo "$names" | wc -w)" -ge 8 ] || { fail xen-init/wire "read only [$names] from libcommon/xenstore.h"; exit 0; }
prog() { # HEADER -> a C program printing NAME VALUE for each name
	echo "#include <stdio.h>"
	echo "$1"
	echo "int main(void) {"
	for n in $names; do echo "	printf(\"$n %d\\n\", (int)$n);"; done
	echo "	return 0; }"
}
prog '#include <stdint.h>
#include <xen/io/xs_wire.h>' >"$base/xen.c"
prog "#include \"$TOP/libcommon/xenstore.h\"" >"$base/ours.c"
if cc -I"$inc" -o "$base/xen" "$base/xen.c" 2>"$base/cc.err" &&
	cc -o "$base/ours" "$base/ours.c" 2>>"$base/cc.err"; then
	expect "xen-init/wire: XS_* types are xs_wire.h's ($(echo $names))" 0 "$("$base/xen")"$'\n' "" -- "$base/ours"
else
	fail xen-init/wire "cannot compile the comparison" "$(cat "$base/cc.err")"
fi
