#!/bin/bash
# SPDX-License-Identifier: MIT
# forkless-xen and the units of xen-utils-common, in a real Debian 13 root
# (lib-pkg.sh, run_per_release; checks named packaging/trixie/...), with
# the archive's xen-utils-common installed:
#   - apt install ./forkless*.deb, apt purge forkless-xen: xen-utils-common
#     verifies clean (dpkg -V silent), no diversion of forkless's is left,
#     its units (Debian 13's) are where and as enabled as they were;
#   - the upgrade from forkless-xen 0.1, which shipped its units at
#     /lib/systemd/system (on merged /usr the files of Debian 13's
#     /usr/lib/systemd/system/{xen,xendomains}.service, overwritten at its
#     install): the new units, at /usr/lib/systemd/system, survive dpkg's
#     removal of 0.1's obsolete /lib names (the same files); no file is
#     another package's under its other name; on Debian 13 the postinst
#     says that Debian's units are lost and which command restores them,
#     and that command does; a purge then leaves dpkg -V silent.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-pkg.sh"

need_root packaging/upgrade || exit 0
pkg_need_tools || { fail packaging/tools "could not install the packaging tools"; exit 0; }
# Debian 13 only: Debian 12 is merged /usr as well, so its run checked the
# same survival with no Debian unit to lose (about 3 minutes of make check)
run_per_release "$0" upgrade trixie

work=$(scratch pkg-upgrade)
trap 'rm -rf "$work"' EXIT
old=$(old_debs) || {
	fail $P/upgrade/old-debs "could not build forkless's .debs of $PKG_OLD_COMMIT" \
		"$(tail -20 "$PKG_CACHE/old-debs-$PKG_OLD_COMMIT.log" 2>/dev/null)"
	exit 0
}
R=$work/root
if ! new_root "$R"; then
	fail $P/upgrade/root "mmdebstrap of $PKG_RELEASE failed" "$(root_log)"
	exit 0
fi
cp "$PKG_DEBS"/forkless_*.deb "$R/tmp/forkless.deb"
cp "$PKG_DEBS"/forkless-xen_*.deb "$R/tmp/forkless-xen.deb"
cp "$old"/forkless_*.deb "$R/tmp/forkless-0.1.deb"
cp "$old"/forkless-xen_*.deb "$R/tmp/forkless-xen-0.1.deb"
apt_in_root() {
	in_root "$R" env DEBIAN_FRONTEND=noninteractive apt-get -y -q \
		--no-install-recommends "$@"
}
run_capture apt_in_root install xen-utils-common
if [ "$RC" != 0 ]; then
	fail $P/upgrade/apt-xen-utils-common "apt-get install xen-utils-common: exit $RC" "$(tail -20 <<<"$OUT$ERR")"
	exit 0
fi
U=/usr/lib/systemd/system
units_before=$(units_state)
debian_units=$(grep -c ' F ' <<<"$units_before")
info "$PKG_RELEASE: xen-utils-common $(in_root "$R" dpkg-query -W -f='${Version}' xen-utils-common) ships $debian_units units"
mkdir -p "$work/units"
cp "$R"$U/xen*.service "$work/units/" 2>/dev/null
expect $P/upgrade/dpkg-verify-before 0 "" "" -- in_root "$R" dpkg --verify xen-utils-common

# purged PHASE: after a purge, xen-utils-common as before forkless-xen.
purged() {
	expect "$P/upgrade/$1/dpkg-verify-xen-utils-common" 0 "" "" -- in_root "$R" dpkg --verify xen-utils-common
	check "$P/upgrade/$1/no-forkless-diversion" "" "$(in_root "$R" dpkg-divert --list | grep forkless)"
	check "$P/upgrade/$1/units" "$units_before" "$(units_state)"
}

# ---- apt install ./forkless*.deb, apt purge forkless-xen ----
expect $P/upgrade/apt-install 0 @any @any -- apt_in_root install /tmp/forkless.deb /tmp/forkless-xen.deb
check $P/upgrade/apt-install/no-aliased-file "" "$(aliased_files "$R")"
expect $P/upgrade/apt-purge 0 @any @any -- apt_in_root purge forkless-xen
purged apt-purge
expect $P/upgrade/apt-purge-forkless 0 @any @any -- apt_in_root purge forkless

# ---- from forkless-xen 0.1 (units at /lib/systemd/system) ----
expect $P/upgrade/install-0.1 0 @any @any -- in_root "$R" dpkg -i /tmp/forkless-0.1.deb /tmp/forkless-xen-0.1.deb
# (What 0.1 did to Debian 13's units: the reason for all this.)
info "$PKG_RELEASE: with forkless-xen 0.1: $(aliased_files "$R" | tr '\n' ';')"
run_capture in_root "$R" dpkg -i /tmp/forkless.deb /tmp/forkless-xen.deb
said=$(grep '^forkless-xen:' <<<"$ERR" | LC_ALL=C sort)
check $P/upgrade/from-0.1 0 "$RC"
# dpkg removes 0.1's /lib/systemd/system/NAME.service only when it is
# not the same file as one the new version ships: on merged /usr it is.
for n in xen xendomains; do
	expect "$P/upgrade/from-0.1/$n-unit-kept" 0 "" "" -- \
		cmp "$TOP/debian/$n.service" "$R$U/$n.service"
done
expect $P/upgrade/from-0.1/dpkg-verify-forkless-xen 0 "" "" -- in_root "$R" dpkg --verify forkless-xen
check $P/upgrade/from-0.1/no-aliased-file "" "$(aliased_files "$R")"
check $P/upgrade/from-0.1/unit-diversions \
	"diversion of $U/xen.service to $U/xen.service.distrib by forkless-xen
diversion of $U/xendomains.service to $U/xendomains.service.distrib by forkless-xen" \
	"$(in_root "$R" dpkg-divert --list "$U/*" | LC_ALL=C sort)"
if [ "$debian_units" = 0 ]; then
	# Debian 12: no unit of Debian's to keep; 0.1's file is replaced in
	# place, not kept at NAME.distrib.
	check $P/upgrade/from-0.1/no-unit-distrib "" "$(cd "$R$U" && ls -d *.distrib 2>/dev/null)"
	check $P/upgrade/from-0.1/no-message "" "$said"
else
	# Debian 13: 0.1 had written its units over Debian's. Not kept as
	# Debian's at NAME.distrib (a purge would bring them back as
	# Debian's); the postinst names the loss and the command.
	check $P/upgrade/from-0.1/no-unit-distrib "" "$(cd "$R$U" && ls -d *.distrib 2>/dev/null)"
	want=$(for n in xendomains xen; do
		echo "forkless-xen: xen-utils-common's $U/$n.service is not on disk (diverted to $U/$n.service.distrib): an earlier forkless-xen wrote its own file over it."
		echo "forkless-xen: 'apt-get install --reinstall xen-utils-common' puts it back."
	done | LC_ALL=C sort)
	check $P/upgrade/from-0.1/message "$want" "$said"
	expect $P/upgrade/from-0.1/reinstall-xen-utils-common 0 @any @any -- \
		apt_in_root install --reinstall xen-utils-common
	for n in xen xendomains; do
		expect "$P/upgrade/from-0.1/$n-unit-distrib-is-debian" 0 "" "" -- \
			cmp "$work/units/$n.service" "$R$U/$n.service.distrib"
	done
	expect $P/upgrade/from-0.1/dpkg-verify-xen-utils-common 0 "" "" -- in_root "$R" dpkg --verify xen-utils-common
fi
expect $P/upgrade/from-0.1/purge 0 @any @any -- in_root "$R" dpkg --purge forkless-xen forkless
purged from-0.1/purge
