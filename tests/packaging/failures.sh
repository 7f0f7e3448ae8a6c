#!/bin/bash
# SPDX-License-Identifier: MIT
# forkless-xen through the dpkg runs that fail or interleave, in a real
# Debian root of each release (lib-pkg.sh, run_per_release; checks named
# packaging/RELEASE/...) with the archive's xen-utils-common:
#   - a conflicting diversion (a local xl -> xl.orig): the install stops
#     naming the path and the diversion, and the root is as it was (no
#     half-installed package, the diversion list and Debian's files as
#     before);
#   - an unpack that fails after preinst ran (a test-only .deb that also
#     ships a file of base-files): a first install gives back a local
#     diversion it took over; an upgrade to a "2.0" that newly diverts
#     vif-route leaves 1.0 installed, vif-route Debian's, undiverted;
#   - remove and purge remove every diversion forkless-xen owns;
#   - dpkg --root with --force-script-chrootless (DPKG_ROOT set): refused
#     by the preinst with a message, the root and this machine unchanged;
#   - xen-utils-common and forkless-xen in one dpkg run, in either order,
#     fresh or both upgraded: Debian's scripts end at PATH.distrib, the
#     content of the package's file and the md5sum dpkg records for the
#     conffile; purge puts them back at PATH, likewise.
# Debian 13 runs it all; Debian 12 (lib-pkg.sh, full_run) only what
# Debian 13 cannot: the runs that upgrade xen-utils-common (Debian 13's
# archive has one version of it).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-pkg.sh"

need_root packaging/failures || exit 0
pkg_need_tools || { fail packaging/failures "could not install the packaging tools"; exit 0; }
run_per_release "$0" failures

work=$(scratch pkg-fail)
trap 'rm -rf "$work"' EXIT
debs=$PKG_DEBS
base=$work/base
if ! new_root "$base"; then
	fail $P/failures/root "mmdebstrap of $PKG_RELEASE failed" "$(root_log)"
	exit 0
fi
xdeb=$(ls "$debs"/forkless-xen_*.deb)
cp "$debs"/forkless_*.deb "$base/tmp/forkless.deb"
cp "$xdeb" "$base/tmp/forkless-xen.deb"
# 1.0 diverts all but vif-route, 2.0 newly diverts it; 2.0-bad fails to
# unpack (it ships /etc/debian_version, base-files').
route=/etc/xen/scripts/vif-route
deb_variant "$xdeb" "$base/tmp/fx-1.0.deb" 1.0 "$route" &&
deb_variant "$xdeb" "$base/tmp/fx-2.0.deb" 2.0 &&
deb_variant "$xdeb" "$base/tmp/fx-2.0-bad.deb" 2.0 "" /etc/debian_version ||
	{ fail $P/failures/variants "could not repack $(basename "$xdeb")"; exit 0; }

mapfile -t versions < <(xen_versions "$base")
old=${versions[0]} new=${versions[${#versions[@]}-1]}
xuc_deb() { ls "$base"/var/cache/apt/archives/xen-utils-common_"${1/:/%3a}"_*.deb 2>/dev/null | head -n1; }
# The hotplug scripts and the init scripts forkless-xen diverts,
# conffiles of xen-utils-common.
scripts=$(grep -oE '/etc/(xen|init\.d)/[^ "]*' <<<"$(dpkg-deb -I "$xdeb" preinst | grep '^DIVERSIONS=')")
check $P/failures/conffiles-diverted "/etc/init.d/xendomains
/etc/init.d/xen" "$(grep '^/etc/init\.d/' <<<"$scripts")"
# The old version as installed here has each of them changed by a
# comment line, so that an upgrade that kept the old script at
# PATH.distrib (as a lost security fix would be) shows.
d=$(mktemp -d -p "$TMPBASE")
dpkg-deb -R "$(xuc_deb "$old")" "$d"
for f in $scripts; do echo "# xen-utils-common $old, as tests/packaging/failures.sh changes it" >>"$d$f"; done
deb_build "$d" "$base/tmp/xuc-old.deb" ||
	{ fail $P/failures/variants "could not repack xen-utils-common $old"; exit 0; }
cp "$(xuc_deb "$new")" "$base/tmp/xuc-new.deb"
# xen-utils-common's dependencies from the archive, xen-utils-common
# itself installed ($old) in $base; $bare is the same without it.
run_capture in_root "$base" env DEBIAN_FRONTEND=noninteractive apt-get -y -q \
	--no-install-recommends install "xen-utils-common=$old"
if [ "$RC" != 0 ]; then
	fail $P/failures/apt "apt-get install xen-utils-common=$old: exit $RC" "$(tail -20 <<<"$OUT$ERR")"
	exit 0
fi
expect $P/failures/xuc-old 0 @any @any -- in_root "$base" dpkg -i /tmp/xuc-old.deb
bare=$work/bare
if full_run; then
	cp -a "$base" "$bare"
	in_root "$bare" dpkg --purge xen-utils-common >/dev/null 2>&1
fi

R=
fresh() { local s=$(date +%s%N); rm -rf "$work/r"; cp -a "$1" "$work/r"; R=$work/r; echo "FRESHTIME $(( ($(date +%s%N)-s)/1000000 ))" >>/tmp/freshtime; }
# The state a failed run must leave as it was: every diversion, what
# xen-utils-common has on disk (a file's sha256 or a link's target, at
# the name dpkg-divert says holds it), and forkless-xen's status.
state() {
	in_root "$R" sh -c '
	echo "status: $(dpkg-query -W -f="\${db:Status-Status} \${Version}" forkless-xen 2>/dev/null || echo not-installed)"
	dpkg-divert --list | LC_ALL=C sort
	dpkg-query -L xen-utils-common | grep "^/" | while read -r f; do
		t=$(dpkg-divert --truename "$f")
		if [ -L "$t" ]; then echo "$f L $(readlink "$t")"
		elif [ -f "$t" ]; then echo "$f F $(sha256sum <"$t" | cut -c1-64)"
		elif [ ! -d "$t" ]; then echo "$f missing"
		fi
	done | LC_ALL=C sort
	find / -xdev \( -name "*.dpkg-new" -o -name "*.dpkg-tmp" \) -print | LC_ALL=C sort' |
		sed 's/^status: not-installed .*/status: not-installed/'
}
# (A package dpkg knows as not installed reads "not-installed" either way.)
# unchanged NAME BEFORE: the state is BEFORE; else the diff.
unchanged() {
	check "$1" "" "$(diff <(printf '%s\n' "$2") <(state))"
}

if full_run; then
# ---- 10: a conflicting diversion stops the install before any change ----
fresh "$base"
in_root "$R" dpkg-divert --local --rename --divert /usr/sbin/xl.orig --add /usr/sbin/xl >/dev/null
s0=$(state)
run_capture in_root "$R" dpkg -i /tmp/forkless.deb /tmp/forkless-xen.deb
if [ "$RC" != 0 ] && grep -q '/usr/sbin/xl' <<<"$ERR" && grep -q 'local diversion to /usr/sbin/xl.orig' <<<"$ERR"; then
	pass $P/failures/conflict/message
else
	fail $P/failures/conflict/message "expected dpkg -i to fail naming /usr/sbin/xl and its diversion to xl.orig" \
		"exit $RC" "$(tail -8 <<<"$ERR")"
fi
unchanged $P/failures/conflict/unchanged "$s0"

# ---- 10: an unpack that fails after preinst took a local diversion
# over gives it back, Debian's file where it was ----
fresh "$base"
in_root "$R" dpkg -i /tmp/forkless.deb >/dev/null
in_root "$R" dpkg-divert --local --rename --add /usr/sbin/xen >/dev/null
s0=$(state)
expect $P/failures/abort-install/fails 1 @any @any -- in_root "$R" dpkg -i /tmp/fx-2.0-bad.deb
unchanged $P/failures/abort-install/unchanged "$s0"

# ---- 3: an upgrade that newly diverts a path and fails to unpack ----
fresh "$base"
expect $P/failures/upgrade/1.0 0 @any @any -- in_root "$R" dpkg -i /tmp/forkless.deb /tmp/fx-1.0.deb
expect $P/failures/upgrade/1.0-leaves-vif-route 0 "" "" -- in_root "$R" dpkg-divert --listpackage "$route"
s0=$(state)
expect $P/failures/upgrade/2.0-fails 1 @any @any -- in_root "$R" dpkg -i /tmp/fx-2.0-bad.deb
unchanged $P/failures/upgrade/unchanged "$s0"
expect $P/failures/upgrade/2.0 0 @any @any -- in_root "$R" dpkg -i /tmp/fx-2.0.deb
expect $P/failures/upgrade/2.0-diverts-vif-route 0 "forkless-xen"$'\n' "" -- \
	in_root "$R" dpkg-divert --listpackage "$route"

# ---- 3: remove and purge remove every diversion forkless-xen owns,
# whichever version's list made it ----
fresh "$base"
s0=$(state)
in_root "$R" dpkg -i /tmp/forkless.deb /tmp/fx-1.0.deb >/dev/null 2>&1
in_root "$R" dpkg-divert --package forkless-xen --rename --divert "$route.distrib" --add "$route" >/dev/null
expect $P/failures/purge-all/purge 0 @any @any -- in_root "$R" dpkg --purge forkless-xen forkless
unchanged $P/failures/purge-all/unchanged "$s0"

# ---- 2 (issue 39): dpkg's chrootless mode, the maintainer scripts run
# outside the root with DPKG_ROOT naming it: refused with a message,
# before any change, in the root and on this machine ----
fresh "$base"
in_root "$R" dpkg -i /tmp/forkless.deb >/dev/null
s0=$(state)
host0=$(dpkg-divert --list | LC_ALL=C sort)
run_capture dpkg --root="$R" --force-script-chrootless -i "$R/tmp/forkless-xen.deb"
if [ "$RC" != 0 ] && grep -q "forkless-xen: preinst install refused: DPKG_ROOT=$R " <<<"$ERR" &&
	grep -q 'without --force-script-chrootless' <<<"$ERR"; then
	pass $P/failures/chrootless/refused
else
	fail $P/failures/chrootless/refused "expected dpkg --force-script-chrootless -i to fail with the preinst's message" \
		"exit $RC" "$(tail -8 <<<"$ERR")"
fi
unchanged $P/failures/chrootless/unchanged "$s0"
check $P/failures/chrootless/host-unchanged "$host0" "$(dpkg-divert --list | LC_ALL=C sort)"
fi

# ---- 4: both packages in one dpkg run ----
# debian_scripts WHERE: each conffile of xen-utils-common that
# forkless-xen diverts, as `PATH CHECK`: ok when the file at WHERE
# (distrib: PATH.distrib; path: PATH) is the .deb's file for it, byte for
# byte, and its md5sum the one dpkg records for the conffile.
debian_scripts() {
	local ver=$1 where=$2 d f got md5
	d=$(mktemp -d -p "$TMPBASE")
	dpkg-deb -x "$R/tmp/xuc-$ver.deb" "$d"
	for f in $scripts; do
		got=$R$f
		[ "$where" = distrib ] && got=$R$f.distrib
		md5=$(in_root "$R" dpkg-query -W -f='${Conffiles}\n' xen-utils-common | awk -v f="$f" '$1 == f { print $2 }')
		if [ -L "$got" ] || [ ! -f "$got" ]; then echo "$f not a file"
		elif ! cmp -s "$d$f" "$got"; then echo "$f differs from xen-utils-common $ver's"
		elif [ "$(md5sum <"$got" | cut -c1-32)" != "$md5" ]; then echo "$f md5sum is not dpkg's ($md5)"
		else echo "$f ok"
		fi
	done
	rm -rf "$d"
}
want_ok=$(for f in $scripts; do echo "$f ok"; done)
links() {
	for f in $scripts; do echo "$f -> $(in_root "$R" readlink -f "$f")"; done
}
want_links=$(for f in $scripts; do echo "$f -> /usr/bin/forkless"; done)
# one_run NAME ROOT VER DPKG-ARGS...: in a copy of ROOT, one dpkg -i of
# DPKG-ARGS; Debian's scripts at PATH.distrib (xen-utils-common VER's),
# forkless's at PATH, nothing left over; then purge: Debian's at PATH.
one_run() {
	local name=$1 root=$2 ver=$3
	shift 3
	fresh "$root"
	expect "$P/failures/$name/dpkg-i" 0 @any @any -- in_root "$R" dpkg -i "$@"
	check "$P/failures/$name/distrib" "$want_ok" "$(debian_scripts "$ver" distrib)"
	check "$P/failures/$name/links" "$want_links" "$(links)"
	check "$P/failures/$name/no-dpkg-new" "" \
		"$(in_root "$R" find / -xdev \( -name '*.dpkg-new' -o -name '*.dpkg-tmp' \) -print)"
	expect "$P/failures/$name/purge" 0 @any @any -- in_root "$R" dpkg --purge forkless-xen forkless
	check "$P/failures/$name/purged" "$want_ok" "$(debian_scripts "$ver" path)"
	check "$P/failures/$name/no-diversions" "" "$(in_root "$R" dpkg-divert --list | grep forkless)"
}
info "xen-utils-common versions: ${versions[*]}"
if full_run; then
	one_run xuc-first "$bare" new /tmp/xuc-new.deb /tmp/forkless.deb /tmp/forkless-xen.deb
	one_run forkless-first "$bare" new /tmp/forkless.deb /tmp/forkless-xen.deb /tmp/xuc-new.deb
fi
if [ "$old" != "$new" ]; then
	one_run upgrade/xuc-first "$base" new /tmp/xuc-new.deb /tmp/forkless.deb /tmp/forkless-xen.deb
	one_run upgrade/forkless-first "$base" new /tmp/forkless.deb /tmp/forkless-xen.deb /tmp/xuc-new.deb
	# Both upgraded, forkless-xen's new version newly diverting vif-route.
	in_root "$base" dpkg -i /tmp/forkless.deb /tmp/fx-1.0.deb >/dev/null 2>&1
	one_run upgrade/both "$base" new /tmp/xuc-new.deb /tmp/fx-2.0.deb
else
	skip $P/failures/upgrade "the archive has one version of xen-utils-common ($old): no upgrade to test"
fi
