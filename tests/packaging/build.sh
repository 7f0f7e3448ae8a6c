#!/bin/bash
# SPDX-License-Identifier: MIT
# The packages `make deb` builds: the binary in forkless_*.deb is byte for
# byte the one the project's make builds from config/defconfig outside any
# package build (dpkg-buildflags' CFLAGS/LDFLAGS do not reach it), the
# control fields (Built-Using the musl-dev version, Conflicts, Depends),
# and lintian, the host's and Debian 13's: no tag at any level down to
# pedantic and info, other than those overridden (each override in
# debian/*.lintian-overrides says why).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-pkg.sh"

need_root packaging/build || exit 0
pkg_need_tools || { fail packaging/build "could not install the packaging tools"; exit 0; }
work=$(scratch pkg-build)
trap 'rm -rf "$work"' EXIT
if ! build_debs "$work/deb"; then
	fail packaging/build/debs "debian/build-debs failed" "$(tail -20 "$work/deb.log")"
	exit 0
fi
deb=$(ls "$work"/deb/forkless_*.deb) xdeb=$(ls "$work"/deb/forkless-xen_*.deb)

o=$work/o
mkdir -p "$o"
if make -C "$TOP" -s O="$o" KCONFIG_CONFIG="$o/.config" BIN="$o/forkless" >"$o.log" 2>&1; then
	if cmp -s "$o/forkless" <(dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/bin/forkless); then
		pass packaging/build/binary-is-make-defconfig
	else
		fail packaging/build/binary-is-make-defconfig "usr/bin/forkless in $(basename "$deb") differs from make's build of config/defconfig"
	fi
else
	fail packaging/build/binary-is-make-defconfig "make of config/defconfig failed" "$(tail -5 "$o.log")"
fi

field() { dpkg-deb -f "$1" "$2"; }
check packaging/build/built-using "musl (= $(dpkg-query -W -f '${source:Version}' musl-dev))" "$(field "$deb" Built-Using)"
check packaging/build/conflicts virtualbox-guest-utils "$(field "$deb" Conflicts)"
check packaging/build/xen-depends "forkless (= $(field "$deb" Version)), xen-utils-common" "$(field "$xdeb" Depends)"

# lintian, the host's and Debian 13's (in a trixie root, lib-pkg.sh,
# cached with lintian installed, whatever the host runs). A tag of the
# host's lintian that Debian 13's no longer has cannot be overridden in a
# package both check (Debian 13's calls the override alien-tag, an error
# no override silences): such a tag is shown as INFO, not a failure. (The
# "running with root privileges is not recommended!" on stderr is not
# about the packages.)
lintian_out() { grep -v '^running with root privileges is not recommended!$' <<<"$OUT$ERR"; }
T=$work/trixie
if PKG_RELEASE=trixie new_root "$T" lintian; then
	mkdir -p "$T/tmp/deb"
	cp "$work"/deb/*.deb "$work"/deb/*.changes "$work"/deb/*.buildinfo "$T/tmp/deb/"
	run_capture in_root "$T" sh -c 'lintian -I -L ">=pedantic" /tmp/deb/*.changes'
	check packaging/trixie/lintian "" "$(lintian_out)"
	info "trixie's lintian: $(in_root "$T" lintian --version)"
else
	fail packaging/trixie/lintian "mmdebstrap of trixie with lintian failed" "$(PKG_RELEASE=trixie root_log lintian)"
	T=
fi
run_capture lintian -I -L '>=pedantic' "$work"/deb/*.changes
host=$(lintian_out)
gone=
if [ -n "$T" ] && [ -n "$host" ]; then
	for tag in $(awk '{ print $3 }' <<<"$host" | sort -u); do
		in_root "$T" lintian-explain-tags "$tag" >/dev/null 2>&1 || gone="$gone $tag"
	done
fi
for tag in $gone; do
	info "host's lintian, a tag Debian 13's lintian no longer has: $(grep -F " $tag " <<<"$host" | tr '\n' ' ')"
	host=$(grep -vF " $tag " <<<"$host")
done
check packaging/lintian "" "$host"
