#!/bin/bash
# lintian on the packages `make deb` builds: no tag at any level down to
# pedantic and info, other than those overridden (each override in
# debian/*.lintian-overrides says why).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-pkg.sh"

need_root packaging/lintian || exit 0
pkg_need_tools || { fail packaging/lintian "could not install the packaging tools"; exit 0; }
work=$(scratch pkg-lintian)
trap 'rm -rf "$work"' EXIT
if ! build_debs "$work/deb"; then
	fail packaging/lintian/build "debian/build-debs failed" "$(tail -20 "$work/deb.log")"
	exit 0
fi
# (lintian's "running with root privileges is not recommended!" on
# stderr is not about the packages.)
run_capture lintian -I -L '>=pedantic' "$work"/deb/*.changes
ERR=$(grep -v '^running with root privileges is not recommended!$' <<<"$ERR")
check packaging/lintian "" "$OUT$ERR"
