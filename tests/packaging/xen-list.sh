#!/bin/bash
# SPDX-License-Identifier: MIT
# debian/xen-utils-common.files, the list debian/split intersects with
# `forkless --list-full` to decide what forkless-xen diverts, is the union
# of the file lists of Debian 12's and Debian 13's current xen-utils-common
# (tests/apt-release; regenerate it as debian/list-deb-files says when
# this fails after a Debian update). Each release's own check says which
# of its paths the list lacks.
. "$(dirname "$0")/../lib.sh"

work=$(scratch pkg-xen-list)
trap 'rm -rf "$work"' EXIT
debs=()
for rel in bookworm trixie; do
	if ! "$TOP"/tests/apt-release "$rel" download "$work/$rel" xen-utils-common >"$work/$rel.log" 2>&1; then
		fail packaging/$rel/xen-list "apt-get download xen-utils-common failed (network or apt lists?)" "$(tail -5 "$work/$rel.log")"
		continue
	fi
	deb=$(ls "$work/$rel"/xen-utils-common_*.deb 2>/dev/null | head -n1)
	[ -n "$deb" ] || { fail packaging/$rel/xen-list "no xen-utils-common .deb in $work/$rel"; continue; }
	debs+=("$deb")
	check packaging/$rel/xen-list "" \
		"$(LC_ALL=C comm -23 <("$TOP/debian/list-deb-files" "$deb" | LC_ALL=C sort) \
			<(LC_ALL=C sort "$TOP/debian/xen-utils-common.files"))"
done
[ ${#debs[@]} = 2 ] || exit 0
run_capture diff -u "$TOP/debian/xen-utils-common.files" <("$TOP/debian/list-deb-files" "${debs[@]}")
if [ "$RC" = 0 ]; then
	pass packaging/xen-list
else
	fail packaging/xen-list "debian/xen-utils-common.files differs from the union of $(basename "${debs[0]}") and $(basename "${debs[1]}")" "$OUT"
fi
