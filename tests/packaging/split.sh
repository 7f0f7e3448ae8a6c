#!/bin/bash
# SPDX-License-Identifier: MIT
# debian/split, the package layout, for applets that do not exist yet:
# a stand-in binary whose --list-full has what the hotplug and xen-init
# applets will add (/etc/xen/scripts/vif-bridge, a conffile of
# xen-utils-common; /usr/lib/xen-common/bin/xen-init-name; a path under
# /etc/xen that Debian does not ship; a non-Xen applet) must land in the
# right package, diverted exactly when xen-utils-common ships the path,
# with no edit to debian/. The xendomains and xencommons applets bring
# their init script links (diverted: /etc/init.d/xendomains and
# /etc/init.d/xen), insserv overrides and units (at /usr/lib/systemd/system,
# diverted: Debian 13's xen-utils-common ships units of the same names).
. "$(dirname "$0")/../lib.sh"

work=$(scratch pkg-split)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/debian"
cp "$TOP/debian/split" "$TOP/debian/xen-utils-common.files" "$TOP"/debian/xendomains.* "$TOP"/debian/xen.lsb "$TOP"/debian/xen.service "$work/debian/"
cat >"$work/fake-forkless" <<'FAKE'
#!/bin/sh
# --list-full and --install -s DIR, as forkless lays them out.
paths="usr/bin/forkless usr/bin/cgroup-resolve usr/sbin/mount.new
usr/lib/xen-common/bin/xen-utils-wrapper usr/lib/xen-common/bin/xen-init-name
usr/sbin/xl etc/xen/scripts/vif-bridge etc/xen/scripts/vif-forkless-only
usr/lib/xen-common/bin/xendomains usr/lib/xen-common/bin/xencommons"
case $1 in
--list-full) printf '%s\n' $paths ;;
--install)
	for p in $paths; do
		mkdir -p "$3/${p%/*}"
		[ "$p" = usr/bin/forkless ] && { : >"$3/$p"; continue; }
		ln -s "$(realpath -m --relative-to="/${p%/*}" /usr/bin/forkless)" "$3/$p"
	done ;;
esac
FAKE
chmod +x "$work/fake-forkless"
run_capture sh -c 'cd "$1" && debian/split ./fake-forkless' sh "$work"
check packaging/split/runs "0" "$RC$ERR"
list() { (cd "$work/debian/$1" && find . ! -type d | sed 's|^\./||' | LC_ALL=C sort); }
check packaging/split/forkless "usr/bin/cgroup-resolve
usr/bin/forkless
usr/sbin/mount.new" "$(list forkless)"
check packaging/split/forkless-xen "etc/init.d/xen
etc/init.d/xendomains
etc/insserv/overrides/xen
etc/insserv/overrides/xendomains
etc/xen/scripts/vif-bridge
etc/xen/scripts/vif-forkless-only
usr/lib/systemd/system/xen.service
usr/lib/systemd/system/xendomains.service
usr/lib/xen-common/bin/xen-init-name
usr/lib/xen-common/bin/xen-utils-wrapper
usr/lib/xen-common/bin/xencommons
usr/lib/xen-common/bin/xendomains
usr/sbin/xl
usr/share/forkless-xen/paths" "$(list forkless-xen)"
check packaging/split/diversions \
	"/usr/lib/xen-common/bin/xen-utils-wrapper /usr/lib/xen-common/bin/xen-init-name /usr/sbin/xl /etc/xen/scripts/vif-bridge /etc/init.d/xendomains /usr/lib/systemd/system/xendomains.service /etc/init.d/xen /usr/lib/systemd/system/xen.service" \
	"$(cat "$work/debian/forkless-xen.diversions")"
check packaging/split/units "xendomains.service xen.service" "$(cat "$work/debian/forkless-xen.units")"
check packaging/split/links "../../../usr/bin/forkless" \
	"$(readlink "$work/debian/forkless-xen/etc/xen/scripts/vif-bridge")"
check packaging/split/init.d-link "../../usr/bin/forkless" \
	"$(readlink "$work/debian/forkless-xen/etc/init.d/xendomains")"
expect packaging/split/xendomains-unit 0 "" "" -- \
	cmp "$TOP/debian/xendomains.service" "$work/debian/forkless-xen/usr/lib/systemd/system/xendomains.service"
expect packaging/split/xendomains-lsb-override 0 "" "" -- \
	cmp "$TOP/debian/xendomains.lsb" "$work/debian/forkless-xen/etc/insserv/overrides/xendomains"
check packaging/split/init.d-xen-link "../../usr/bin/forkless" \
	"$(readlink "$work/debian/forkless-xen/etc/init.d/xen")"
expect packaging/split/xen-unit 0 "" "" -- \
	cmp "$TOP/debian/xen.service" "$work/debian/forkless-xen/usr/lib/systemd/system/xen.service"
expect packaging/split/xen-lsb-override 0 "" "" -- \
	cmp "$TOP/debian/xen.lsb" "$work/debian/forkless-xen/etc/insserv/overrides/xen"

# A path --install makes that --list-full does not name is an error, not
# a file in neither package.
sed -i 's|^--list-full) printf .*|--list-full) printf "%s\\n" usr/bin/forkless ;;|' "$work/fake-forkless"
run_capture sh -c 'cd "$1" && debian/split ./fake-forkless' sh "$work"
if [ "$RC" = 1 ] && grep -q 'does not list' <<<"$ERR"; then
	pass packaging/split/unlisted-path
else
	fail packaging/split/unlisted-path "expected exit 1 naming the paths" "exit $RC" "$ERR"
fi
