# lib-pkg.sh - forkless's .debs and a real Debian 12 root to install them
# in (sourced after tests/lib.sh).
#
# The root is made with mmdebstrap from the Debian archive this machine's
# apt uses (its bookworm sources), once per tree, and kept as a tarball in
# build/packaging-cache; every test run unpacks a fresh copy. Everything
# that runs in a root runs in a private mount namespace (unshare -m), so
# the /proc mounted there, and mmdebstrap's own mounts, leave no trace.

PKG_CACHE=${PKG_CACHE:-$TOP/build/packaging-cache}
ROOT_TAR=$PKG_CACHE/bookworm-root.tar
# Changing what the root holds changes this text, and the cache is remade.
ROOT_RECIPE="bookworm --variant=apt +initramfs-tools +busybox; every version of xen-utils-common the archive has, and its dependencies, downloaded (apt lists kept)"

# The packages that building and testing the .debs need beyond the build
# tools (Build-Depends: debhelper, musl-tools, kconfig-frontends-nox).
pkg_need_tools() {
	"$TOP"/config/need-tools.sh --for tests pkg:debhelper pkg:dpkg-dev \
		pkg:musl-tools pkg:kconfig-frontends-nox pkg:mmdebstrap pkg:lintian \
		unshare
}

# build_debs OUTDIR: `make deb` into OUTDIR; its log in OUTDIR.log.
build_debs() {
	"$TOP"/debian/build-debs "$1" >"$1.log" 2>&1
}

# The bookworm sources of the host's apt, as mmdebstrap takes them: a
# deb822 .sources file by its path, a one-line entry as it is.
host_mirrors() {
	local f line
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] && grep -q '^Suites:.*bookworm' "$f" && printf '%s\n' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		grep -E '^deb[[:space:]].*[[:space:]]bookworm' "$f"
	done
}

# root_tarball: the path of the cached root tarball, made when missing.
root_tarball() {
	local mirrors=()
	if [ -f "$ROOT_TAR" ] && [ "$(cat "$ROOT_TAR.recipe" 2>/dev/null)" = "$ROOT_RECIPE" ]; then
		echo "$ROOT_TAR"; return 0
	fi
	mkdir -p "$PKG_CACHE"
	mapfile -t mirrors < <(host_mirrors)
	[ ${#mirrors[@]} -gt 0 ] || mirrors=(http://deb.debian.org/debian)
	rm -f "$ROOT_TAR" "$ROOT_TAR.recipe"
	unshare -m --propagation private \
		mmdebstrap --variant=apt --format=tar \
		--include=initramfs-tools,busybox \
		--skip=cleanup/apt/lists --skip=cleanup/apt/cache \
		--customize-hook='chroot "$1" sh -c "apt-get clean && for v in \$(apt-cache madison xen-utils-common | cut -d\"|\" -f2); do apt-get install -y -q --download-only xen-utils-common=\$v || exit 1; done"' \
		bookworm "$ROOT_TAR.tmp" "${mirrors[@]}" >"$PKG_CACHE/mmdebstrap.log" 2>&1 ||
		{ rm -f "$ROOT_TAR.tmp"; return 1; }
	mv "$ROOT_TAR.tmp" "$ROOT_TAR"
	printf '%s\n' "$ROOT_RECIPE" >"$ROOT_TAR.recipe"
	echo "$ROOT_TAR"
}

# new_root DIR: a fresh copy of the root in DIR, with a policy-rc.d that
# keeps maintainer scripts from starting services (a chroot has no init).
new_root() {
	mkdir -p "$1" && tar -xf "$(root_tarball)" -C "$1" || return 1
	printf '#!/bin/sh\nexit 101\n' >"$1/usr/sbin/policy-rc.d"
	chmod 755 "$1/usr/sbin/policy-rc.d"
}

# xen_versions DIR: the versions of xen-utils-common the root's apt
# knows, oldest first.
xen_versions() {
	in_root "$1" apt-cache madison xen-utils-common | cut -d'|' -f2 | tr -d ' ' |
		while read -r v; do
			printf '%s\n' "$v"
		done | sort -u | { mapfile -t vs
			# an insertion sort by dpkg's ordering (a handful of versions)
			local i j t
			for ((i = 1; i < ${#vs[@]}; i++)); do
				for ((j = i; j > 0; j--)); do
					dpkg --compare-versions "${vs[j-1]}" gt "${vs[j]}" || break
					t=${vs[j]} vs[j]=${vs[j-1]} vs[j-1]=$t
				done
			done
			printf '%s\n' "${vs[@]}"; }
}

# deb_files DEB: what DEB unpacks, as root.sh's debian_files lists it:
# `PATH L TARGET` for a symlink, `PATH F SHA256` for a file.
deb_files() {
	local d
	d=$(mktemp -d -p "$TMPBASE") || return 1
	dpkg-deb -x "$1" "$d" &&
	(cd "$d" && find . ! -type d | sed 's|^\.||' | while read -r f; do
		if [ -L ".$f" ]; then echo "$f L $(readlink ".$f")"
		else echo "$f F $(sha256sum <".$f" | cut -c1-64)"
		fi
	done | LC_ALL=C sort)
	rm -rf "$d"
}

# in_root DIR CMD...: CMD chrooted into DIR, with /proc, in a private
# mount namespace.
in_root() {
	unshare -m --propagation private sh -c \
		'mount -t proc proc "$0/proc" && exec chroot "$0" "$@"' "$@"
}

# deb_variant IN OUT VERSION [DROP] [CONFLICT]: a test-only copy of the
# forkless-xen .deb IN as OUT, at VERSION: DROP (an absolute path, or "")
# taken out of what it diverts and ships, as if the build's list did not
# have it; CONFLICT (a path another package of the root ships) added as a
# file of its own, so that dpkg's unpack of OUT fails after its preinst
# ran.
deb_variant() {
	local in=$1 out=$2 ver=$3 drop=${4:-} conflict=${5:-} d s
	d=$(mktemp -d -p "$TMPBASE") || return 1
	dpkg-deb -R "$in" "$d" || return 1
	sed -i "s/^Version: .*/Version: $ver/" "$d/DEBIAN/control"
	if [ -n "$drop" ]; then
		rm -f "$d$drop"
		sed -i "\\|^${drop#/}\$|d" "$d/usr/share/forkless-xen/paths"
		for s in preinst postinst postrm; do
			[ -f "$d/DEBIAN/$s" ] || continue
			sed -i "/^DIVERSIONS=/{s| $drop\"|\"|; s|\"$drop |\"|; s| $drop | |}" "$d/DEBIAN/$s"
		done
	fi
	if [ -n "$conflict" ]; then
		mkdir -p "$d${conflict%/*}" && echo forkless-xen test >"$d$conflict"
	fi
	deb_build "$d" "$out"
}

# deb_build DIR OUT: the .deb OUT from DIR (as dpkg-deb -R unpacks one),
# its md5sums made anew; DIR removed.
deb_build() {
	local rc
	(cd "$1" && find . -path ./DEBIAN -prune -o -type f -print | sed 's|^\./||' |
		LC_ALL=C sort | xargs -r md5sum >DEBIAN/md5sums)
	dpkg-deb -b "$1" "$2" >/dev/null
	rc=$?
	rm -rf "$1"
	return $rc
}
