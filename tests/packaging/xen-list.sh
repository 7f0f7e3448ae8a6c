#!/bin/bash
# debian/xen-utils-common.files, the list debian/split intersects with
# `forkless --list-full` to decide what forkless-xen diverts, is the file
# list of the archive's xen-utils-common (regenerate it as
# debian/list-deb-files says when this fails after a Debian update).
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/xen/lib-xen.sh"

if ! fetch_debian_scripts >/dev/null; then
	fail packaging/xen-list "apt-get download xen-utils-common failed (network or apt lists?)"
	exit 0
fi
deb=$(ls "$DEB_CACHE"/xen-utils-common_*.deb 2>/dev/null | head -n1)
[ -n "$deb" ] || { fail packaging/xen-list "no xen-utils-common .deb in $DEB_CACHE"; exit 0; }
run_capture diff -u "$TOP/debian/xen-utils-common.files" <("$TOP/debian/list-deb-files" "$deb")
if [ "$RC" = 0 ]; then
	pass packaging/xen-list
else
	fail packaging/xen-list "debian/xen-utils-common.files differs from $(basename "$deb")" "$OUT"
fi
