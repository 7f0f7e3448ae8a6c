# SPDX-License-Identifier: MIT
# lib-pkg.sh - forkless's .debs and a real Debian root to install them
# in (sourced after tests/lib.sh), for Debian 12 (bookworm) and Debian 13
# (trixie).
#
# The scripts that install the packages run once per release of
# PKG_RELEASES (run_per_release): the .debs built once, each run with
# PKG_RELEASE set and its checks named packaging/RELEASE/...; the same
# code for both, the releases' differences said where they are checked.
# A root per release is made with mmdebstrap from that release's archive
# (tests/apt-release RELEASE sources: Debian 12's on a Debian 13 host and
# the other way round), once per tree, and kept as a tarball in
# build/packaging-cache; every test run unpacks a fresh copy. Everything
# that runs in a root runs in a private mount namespace (unshare -m), so
# the /proc mounted there, and mmdebstrap's own mounts, leave no trace.

PKG_CACHE=${PKG_CACHE:-$TOP/build/packaging-cache}
PKG_RELEASES=${PKG_RELEASES:-bookworm trixie}
# The release whose runs check everything: on the others, a script runs
# only the checks its header names as release-specific (both releases in
# full took twice the packaging family's 20 minutes). PKG_FULL_RELEASE=all
# runs everything on each.
PKG_FULL_RELEASE=${PKG_FULL_RELEASE:-trixie}
full_run() { [ "$PKG_FULL_RELEASE" = all ] || [ "$PKG_RELEASE" = "$PKG_FULL_RELEASE" ]; }
# (A script run by hand without run_per_release: Debian 12.)
PKG_RELEASE=${PKG_RELEASE:-bookworm}
# The prefix of the check names of this release's run.
P=packaging/$PKG_RELEASE

# The packages that building and testing the .debs need beyond the build
# tools (Build-Depends: debhelper, musl-tools, kconfig-frontends-nox).
pkg_need_tools() {
	"$TOP"/config/need-tools.sh --for tests pkg:debhelper pkg:dpkg-dev \
		pkg:musl-tools pkg:kconfig-frontends-nox pkg:mmdebstrap pkg:lintian \
		unshare
}

# build_debs OUTDIR: `make deb` into OUTDIR; its log in OUTDIR.log. The
# .debs are built once for a tree's content (each packaging script needs
# them; a build is most of a minute) and kept in PKG_CACHE/debs-KEY, KEY
# tests/lib.sh's tree_key;
# without git every call builds.
build_debs() {
	local key c
	key=$(tree_key) || key=
	c=$PKG_CACHE/debs-$key
	if [ -n "$key" ] && [ -f "$c/ok" ]; then
		mkdir -p "$1" && cp "$c"/*.deb "$1"/ && echo "reused the .debs of $c" >"$1.log"
		return
	fi
	"$TOP"/debian/build-debs "$1" >"$1.log" 2>&1 || return
	[ -n "$key" ] || return 0
	rm -rf "$PKG_CACHE"/debs-*
	mkdir -p "$c" && cp "$1"/*.deb "$c"/ && touch "$c/ok"
}

# run_per_release SCRIPT NAME [RELEASE...]: in SCRIPT run as the suite
# runs it (no PKG_DEBS), build the .debs once (check packaging/NAME/debs),
# run SCRIPT again for each RELEASE (default PKG_RELEASES) with
# PKG_RELEASE and PKG_DEBS set, and exit. In those runs it returns, and
# the script goes on with the .debs in $PKG_DEBS.
run_per_release() {
	local script=$1 name=$2 work rel
	shift 2
	[ -n "${PKG_DEBS:-}" ] && return 0
	work=$(scratch "pkg-$name")
	if ! build_debs "$work/deb"; then
		fail "packaging/$name/debs" "debian/build-debs failed" "$(tail -20 "$work/deb.log")"
		rm -rf "$work"
		exit 0
	fi
	pass "packaging/$name/debs"
	for rel in ${*:-$PKG_RELEASES}; do
		PKG_RELEASE=$rel PKG_DEBS=$work/deb bash "$script"
	done
	rm -rf "$work"
	exit 0
}

# old_debs: the directory of forkless's .debs as debian/ was before
# forkless-xen moved its units to /usr/lib/systemd/system (0.1, commit
# PKG_OLD_COMMIT), built once into the cache.
PKG_OLD_COMMIT=b59f077ee2fa35ecd12ba30559eb5b33cf39f864
old_debs() {
	local d=$PKG_CACHE/old-debs-$PKG_OLD_COMMIT src
	if ! ls "$d"/forkless-xen_*.deb >/dev/null 2>&1; then
		src=$(mktemp -d -p "$TMPBASE") || return 1
		git -C "$TOP" archive "$PKG_OLD_COMMIT" | tar -x -C "$src" &&
			"$src"/debian/build-debs "$d.tmp" >"$d.log" 2>&1 || { rm -rf "$src" "$d.tmp"; return 1; }
		rm -rf "$src" "$d.tmp/src" && mv "$d.tmp" "$d" || return 1
	fi
	echo "$d"
}

# root_tarball [EXTRA]: the path of the cached root tarball of
# PKG_RELEASE (with the package EXTRA and its dependencies installed,
# when given), made when missing.
root_tarball() {
	local extra=${1:-} rel=$PKG_RELEASE tar sources recipe
	tar=$PKG_CACHE/$rel${extra:++$extra}-root.tar
	mkdir -p "$PKG_CACHE" || return 1
	sources=$PKG_CACHE/$rel.sources
	"$TOP"/tests/apt-release "$rel" sources >"$sources.new" && mv "$sources.new" "$sources" || return 1
	# Changing what the root holds changes this text, and the cache is remade.
	recipe="$rel --variant=apt +initramfs-tools +busybox${extra:+ +$extra}; every version of xen-utils-common the archive has, and its dependencies, downloaded (apt lists kept); $(tr '\n' ' ' <"$sources")"
	# (one maker at a time: another run of the suite may want it too)
	exec 8>"$tar.lock" && flock 8 || return 1
	if [ -f "$tar" ] && [ "$(cat "$tar.recipe" 2>/dev/null)" = "$recipe" ]; then
		exec 8>&-
		echo "$tar"; return 0
	fi
	rm -f "$tar" "$tar.recipe"
	unshare -m --propagation private \
		mmdebstrap --variant=apt --format=tar \
		--include=initramfs-tools,busybox${extra:+,$extra} \
		--skip=cleanup/apt/lists --skip=cleanup/apt/cache \
		--customize-hook='chroot "$1" sh -c "apt-get clean && for v in \$(apt-cache madison xen-utils-common | cut -d\"|\" -f2); do apt-get install -y -q --download-only xen-utils-common=\$v || exit 1; done"' \
		"$rel" "$tar.tmp" "$sources" >"$tar.log" 2>&1 ||
		{ rm -f "$tar.tmp"; exec 8>&-; return 1; }
	mv "$tar.tmp" "$tar"
	printf '%s\n' "$recipe" >"$tar.recipe"
	exec 8>&-
	echo "$tar"
}

# new_root DIR [EXTRA]: a fresh copy of PKG_RELEASE's root (root_tarball
# EXTRA) in DIR, with a policy-rc.d that keeps maintainer scripts from
# starting services (a chroot has no init). On failure, mmdebstrap's log
# is in root_log.
root_log() { tail -20 "$PKG_CACHE/$PKG_RELEASE${1:++$1}-root.tar.log" 2>/dev/null; }
new_root() {
	local tar
	tar=$(root_tarball "${2:-}") && mkdir -p "$1" && tar -xf "$tar" -C "$1" || return 1
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

# aliased_files ROOT: each file of forkless's installed packages that
# another package of ROOT ships by that name (not a diversion of
# forkless-xen's) or by its other name on merged /usr (/lib, /bin, /sbin
# against /usr/lib, /usr/bin, /usr/sbin: one file that dpkg takes for two,
# so an unpack overwrites the other package's and a remove deletes it), as
# `PATH: PACKAGE (NAME)`. dpkg -S asked for both names.
aliased_files() {
	in_root "$1" sh -c '
	for p in forkless forkless-xen; do dpkg-query -L "$p" 2>/dev/null; done | LC_ALL=C sort -u |
	while read -r f; do
		[ -d "$f" ] && continue
		case $f in
		/usr/lib/*|/usr/bin/*|/usr/sbin/*) a=${f#/usr} ;;
		/lib/*|/bin/*|/sbin/*) a=/usr$f ;;
		*) a= ;;
		esac
		for n in "$f" $a; do
			dpkg-query -S "$n" 2>/dev/null | grep -v "^diversion " | while IFS= read -r line; do
				[ "${line##*: }" = "$n" ] || continue
				for pkg in $(echo "${line%: *}" | tr , " "); do
					case $pkg in forkless|forkless-xen) continue ;; esac
					[ "$n" = "$f" ] && [ "$(dpkg-divert --listpackage "$f")" = forkless-xen ] && continue
					echo "$f: $pkg ($n)"
				done
			done
		done
	done'
}

# units_state: the units of the root $R as it has them: each of
# xen.service and xendomains.service in /usr/lib/systemd/system (its
# sha256, or none), the multi-user wants link, deb-systemd-helper's
# records (root.sh, upgrade.sh: before forkless-xen and after its purge).
units_state() {
	local n f
	for n in xen xendomains; do
		f=$R/usr/lib/systemd/system/$n.service
		if [ -f "$f" ]; then echo "$n.service F $(sha256sum <"$f" | cut -c1-64)"; else echo "$n.service none"; fi
		echo "$n.service wanted by multi-user: $(in_root "$R" sh -c '[ -L "$0" ] && readlink -f "$0" || echo none' \
			/etc/systemd/system/multi-user.target.wants/$n.service)"
	done
	(cd "$R/var/lib/systemd/deb-systemd-helper-enabled" 2>/dev/null && find . -name 'xen*' | LC_ALL=C sort)
}
