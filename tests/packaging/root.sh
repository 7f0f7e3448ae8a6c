#!/bin/bash
# SPDX-License-Identifier: MIT
# The packages in a real Debian root, Debian 12's and Debian 13's in turn
# (lib-pkg.sh, run_per_release; the checks named packaging/RELEASE/...):
# build forkless's .debs (make deb) once, unpack the release's root
# (cached), apt-get install xen-utils-common there from the archive, then
# dpkg -i forkless and forkless-xen and check: the diversions (Debian 13's
# units among them), no file of forkless's that is another package's file
# under its other merged-/usr name, /usr/sbin/xl and the scripts resolving
# to forkless, the applets answering as Debian's scripts do (there is no
# Xen in a chroot: the sysfs error), the units in place of Debian's (or of
# the generated ones), a reinstall of xen-utils-common leaving forkless in
# place and starting no admin's script, the initramfs hook, and purging
# restoring Debian's files byte for byte (dpkg -V xen-utils-common
# silent, no forkless diversion, Debian 13's units enabled as before).
# Debian 13 runs it all; Debian 12 (lib-pkg.sh, full_run) all but the
# initramfs hook, the manual install and the removal of both packages,
# which do not depend on the release: its checks are the diversions,
# units and purge where its xen-utils-common has no units, and its
# upgrade of xen-utils-common (Debian 13's archive has one version).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-pkg.sh"

need_root packaging/root || exit 0
pkg_need_tools || { fail packaging/tools "could not install the packaging tools"; exit 0; }
run_per_release "$0" root

work=$(scratch pkg-root)
trap 'rm -rf "$work"' EXIT
debs=$PKG_DEBS
R=$work/root
if ! new_root "$R"; then
	fail $P/root "mmdebstrap of $PKG_RELEASE failed" "$(root_log)"
	exit 0
fi
# (Under fixed names: the version is debian/changelog's.)
cp "$debs"/forkless_*.deb "$R/tmp/forkless.deb"
cp "$debs"/forkless-xen_*.deb "$R/tmp/forkless-xen.deb"

apt_in_root() {
	in_root "$R" env DEBIAN_FRONTEND=noninteractive apt-get -y -q \
		--no-install-recommends "$@"
}
# What xen-utils-common has on disk, one line per path: a symlink's
# target, a file's sha256, at the path dpkg knows it by or its diverted
# name, whichever holds Debian's copy.
debian_files() {
	in_root "$R" sh -c '
	dpkg-query -L xen-utils-common | grep "^/" | while read -r f; do
		t=$(dpkg-divert --truename "$f")
		if [ -L "$t" ]; then echo "$f L $(readlink "$t")"
		elif [ -f "$t" ]; then echo "$f F $(sha256sum <"$t" | cut -c1-64)"
		elif [ ! -d "$t" ]; then echo "$f missing"
		fi
	done | LC_ALL=C sort'
}

# The oldest version the archive has first (bookworm's release, when a
# security update is out too), so that forkless meets a real upgrade of
# xen-utils-common below.
mapfile -t versions < <(xen_versions "$R")
old=${versions[0]} new=${versions[${#versions[@]}-1]}
info "xen-utils-common versions: ${versions[*]}"
xuc_deb() { ls "$R"/var/cache/apt/archives/xen-utils-common_"${1/:/%3a}"_*.deb 2>/dev/null | head -n1; }
run_capture apt_in_root install "xen-utils-common=$old"
if [ "$RC" != 0 ]; then
	fail $P/apt-xen-utils-common "apt-get install xen-utils-common=$old: exit $RC" "$(tail -20 <<<"$OUT$ERR")"
	exit 0
fi
pass $P/apt-xen-utils-common
before=$(debian_files)
check $P/xen-utils-common-as-shipped "$(deb_files "$(xuc_deb "$old")")" "$before"
# The units of xen and xendomains as the root has them: the file at
# /usr/lib/systemd/system (Debian 13's xen-utils-common ships one, Debian
# 12's none), what the multi-user.target.wants link resolves to, and
# deb-systemd-helper's record of them. A purge must give this back.
units_before=$(units_state)
info "$PKG_RELEASE: xen-utils-common's units: $(grep -c ' F ' <<<"$units_before")"
# Debian's answers, before forkless is there: the oracle for forkless's.
xb=/usr/lib/xen-common/bin
oracle_cmds=("$xb/xen-version" "$xb/xen-dir" "$xb/xen-utils-wrapper" "/usr/sbin/xl list"
	"/usr/sbin/xen list" "$xb/xen-toolstack" "$xb/xen-toolstack-wrapper list")
declare -A o_rc o_out o_err
for c in "${oracle_cmds[@]}"; do
	run_capture in_root "$R" $c
	o_rc[$c]=$RC o_out[$c]=$OUT o_err[$c]=$ERR
done

# Debian's /etc/init.d/xendomains and /etc/init.d/xen as installed: their
# rc links (update-rc.d from their LSB headers), and the units
# systemd-sysv-generator (the host's) makes of them, the oracles for
# xendomains.service's and xen.service's ordering.
rc_links() { (cd "$R/etc" && ls -d rc?.d/*xendomains 2>/dev/null); }
rc_links_xen() { (cd "$R/etc" && ls -d rc?.d/[SK][0-9][0-9]xen 2>/dev/null); }
rc_before=$(rc_links)
check $P/xendomains/debian-rc-links 7 "$(grep -c . <<<"$rc_before")"
rc_before_xen=$(rc_links_xen)
check $P/xen/debian-rc-links 7 "$(grep -c . <<<"$rc_before_xen")"
mkdir -p "$work/units"
cp "$R"/usr/lib/systemd/system/xen*.service "$work/units/" 2>/dev/null
cp "$R/etc/init.d/xendomains" "$work/xendomains.debian"
cp "$R/etc/init.d/xen" "$work/xen.debian"
sysv_gen=/lib/systemd/system-generators/systemd-sysv-generator
if [ -x "$sysv_gen" ]; then
	mkdir -p "$work/gen/init.d" "$work/gen/out" "$work/gen/units"
	cp "$work/xendomains.debian" "$work/gen/init.d/xendomains"
	cp "$work/xen.debian" "$work/gen/init.d/xen"
	SYSTEMD_UNIT_PATH=$work/gen/units SYSTEMD_SYSVINIT_PATH=$work/gen/init.d \
		SYSTEMD_SYSVRCND_PATH=$R/etc SYSTEMD_LOG_LEVEL=err \
		"$sysv_gen" "$work/gen/out" "$work/gen/out" "$work/gen/out"
fi
# A unit's dependencies and ordering, one `Key=unit` a line, sorted.
unit_deps() {
	awk -F= '$1 ~ /^(After|Before|Wants|Requires|Requisite|BindsTo|Conflicts)$/ {
		n = split($2, u, " "); for (i = 1; i <= n; i++) print $1 "=" u[i] }' "$1" | LC_ALL=C sort -u
}

expect $P/dpkg-i 0 @any "" -- \
	in_root "$R" dpkg -i /tmp/forkless.deb /tmp/forkless-xen.deb

# The diversions: exactly the paths both forkless-xen and
# xen-utils-common ship, each to PATH.distrib by forkless-xen.
files_of() {
	in_root "$R" dpkg-query -L "$1" | while read -r f; do
		[ -d "$R$f" ] && [ ! -L "$R$f" ] && continue
		echo "$f"
	done | LC_ALL=C sort
}
# (And the units, which only Debian 13's ships: diverted on Debian 12 as
# well, so that an upgrade to Debian 13's lands at PATH.distrib.)
shared=$(comm -12 <(files_of forkless-xen) <(grep -v ' missing$' <<<"$before" | cut -d' ' -f1))
shared=$(printf '%s\n' "$shared" /usr/lib/systemd/system/xen.service /usr/lib/systemd/system/xendomains.service |
	grep . | LC_ALL=C sort -u)
want_div=$(while read -r f; do echo "diversion of $f to $f.distrib by forkless-xen"; done <<<"$shared")
got_div=$(in_root "$R" dpkg-divert --list | grep ' by forkless-xen$' | LC_ALL=C sort)
check $P/diversions "$want_div" "$got_div"
n=$(grep -c . <<<"$shared")
info "forkless-xen diverts $n paths of xen-utils-common"
check $P/no-aliased-file "" "$(aliased_files "$R")"
for f in /usr/lib/xen-common/bin/xen-utils-wrapper /usr/lib/xen-common/bin/xen-version \
	 /usr/lib/xen-common/bin/xen-dir /usr/lib/xen-common/bin/xen-toolstack \
	 /usr/lib/xen-common/bin/xen-toolstack-wrapper /usr/sbin/xen /usr/sbin/xl /etc/init.d/xendomains /etc/init.d/xen; do
	expect "$P/diverted$f" 0 "forkless-xen"$'\n' "" -- in_root "$R" dpkg-divert --listpackage "$f"
done
# Every path forkless ships is its own (no diversion by another package).
expect $P/forkless-not-diverted 0 "" "" -- \
	in_root "$R" sh -c 'dpkg-query -L forkless | while read -r f; do dpkg-divert --listpackage "$f"; done'

expect $P/xl-is-forkless 0 /usr/bin/forkless$'\n' "" -- in_root "$R" readlink -f /usr/sbin/xl
expect $P/wrapper-is-forkless 0 /usr/bin/forkless$'\n' "" -- \
	in_root "$R" readlink -f /usr/lib/xen-common/bin/xen-utils-wrapper
# Debian's scripts are where the hotplug fallbacks look: PATH.distrib.
expect $P/distrib-is-debian 0 "#!/bin/sh -e"$'\n' "" -- \
	in_root "$R" head -n1 /usr/lib/xen-common/bin/xen-version.distrib

# The hotplug stamp (docs/packaging.md): written at configure, root's
# and 0644; with it a vif-bridge call stats the 8 files it stands in for
# and hashes none (no xenstored in a chroot: the call fails after that).
hp_files() {
	strace -f -o "$work/hp.trace" unshare -m --propagation private sh -c \
		'mount -t proc proc "$0/proc" && exec chroot "$0" env -i XENBUS_PATH=backend/vif/1/0 vif=vif1.0 /etc/xen/scripts/vif-bridge online' \
		"$R" >/dev/null 2>&1
	echo "stat $(grep -c ' stat("/etc/xen/scripts/' "$work/hp.trace")" \
		"hashed$(grep -o 'openat(AT_FDCWD, "/etc/xen/scripts/[a-z-]*\(\.sh\|\.distrib\)"' "$work/hp.trace" |
			sed 's|.*/| |; s|"$||' | tr -d '\n')"
}
stamp=/var/lib/forkless/hotplug-stamp
expect $P/hotplug-stamp 0 "0 0 644"$'\n' "" -- in_root "$R" stat -c '%u %g %a' $stamp
check $P/hotplug-stamp/vouches "stat 8 hashed" "$(hp_files)"

# The applets answer as Debian's scripts did (no Xen in a chroot: the
# sysfs error), and as the diverted scripts still do.
for c in "${oracle_cmds[@]}"; do
	expect "$P/as-debian/${c##*/}" "${o_rc[$c]}" "${o_out[$c]}" "${o_err[$c]}" -- in_root "$R" $c
done
nosysfs="ERROR:  Can't find hypervisor information in sysfs!"$'\n'
check $P/oracle-is-the-sysfs-error "1 $nosysfs" "${o_rc[$xb/xen-version]} ${o_err[$xb/xen-version]}"
for a in xen-version xen-utils-wrapper; do
	expect "$P/distrib/$a" 1 "" "$nosysfs" -- in_root "$R" "$xb/$a.distrib"
done
expect $P/forkless/cgroup-resolve-help 0 @any "" -- in_root "$R" cgroup-resolve --help

# ---- /etc/init.d/xendomains and /etc/init.d/xen: each applet in place of
# Debian's script (the xencommons applet at /etc/init.d/xen though its
# basename is the wrapper's `xen`: its at=/init.d/xen; /usr/sbin/xen still
# runs xl, the as-debian checks above) ----
# init_script NAME APPLET USAGE RC-BEFORE RC-LINKS-FUNCTION UNIT-SETTINGS:
# the link runs the applet; Debian's script at NAME.distrib, byte for
# byte; insserv's override is the script's LSB header, byte for byte
# (update-rc.d reads it for the binary: disable and enable, "cannot find
# a LSB script" without it, toggling the unit's enablement with the rc
# links); the unit ordered as the one systemd-sysv-generator makes of the
# script, with these settings, and accepted by systemd-analyze verify.
init_script() {
	local n=$1 a=$2 usage=$3 before=$4 links=$5 settings=$6 v
	local wants=$R/etc/systemd/system/multi-user.target.wants/$n.service
	local unit=$R/usr/lib/systemd/system/$n.service
	expect $P/$n/init.d-is-forkless 0 /usr/bin/forkless$'\n' "" -- \
		in_root "$R" readlink -f /etc/init.d/$n
	run_capture in_root "$R" /etc/init.d/$n --help
	check "$P/$n/init.d-runs-$a" "0 $usage" "$RC $(head -n1 <<<"$OUT")"
	# (No Xen in a chroot: Debian's script and the applet exit 0, silent.)
	expect $P/$n/as-debian/status 0 "" "" -- in_root "$R" /etc/init.d/$n status
	expect $P/$n/as-debian/distrib-status 0 "" "" -- in_root "$R" /etc/init.d/$n.distrib status
	expect $P/$n/distrib-is-debian 0 "" "" -- cmp "$work/$n.debian" "$R/etc/init.d/$n.distrib"
	check $P/$n/lsb-override "$(sed -n '/^### BEGIN INIT INFO$/,/^### END INIT INFO$/p' "$work/$n.debian")" \
		"$(cat "$R/etc/insserv/overrides/$n")"
	expect $P/$n/unit-enabled 0 /usr/lib/systemd/system/$n.service$'\n' "" -- \
		in_root "$R" readlink -f /etc/systemd/system/multi-user.target.wants/$n.service
	# Debian 13's unit of that name at NAME.service.distrib, byte for byte,
	# where systemd does not load it (not a unit name).
	if [ "$(grep -c " F " <<<"$units_before")" -gt 0 ]; then
		expect $P/$n/unit-distrib-is-debian 0 "" "" -- \
			cmp "$work/units/$n.service" "$R/usr/lib/systemd/system/$n.service.distrib"
	fi
	check $P/$n/unit-distrib-not-loaded "$n.service" \
		"$(systemctl --root="$R" list-unit-files --no-legend "$n.service*" 2>&1 | awk '{ print $1 }')"
	expect $P/$n/update-rc.d-disable 0 "" "" -- in_root "$R" update-rc.d $n disable
	check $P/$n/disabled "$(sed 's|/S|/K|' <<<"$before") no unit link" \
		"$($links | sed 's|/K[0-9]*|/K01|') $([ -L "$wants" ] && echo unit link || echo no unit link)"
	expect $P/$n/update-rc.d-enable 0 "" "" -- in_root "$R" update-rc.d $n enable
	check $P/$n/enabled "$before unit link" \
		"$($links) $([ -L "$wants" ] && echo unit link || echo no unit link)"
	if [ -f "$work/gen/out/$n.service" ]; then
		check $P/$n/unit-ordering "$(unit_deps "$work/gen/out/$n.service")" "$(unit_deps "$unit")"
		info "$n.service ordering, as generated: $(unit_deps "$unit" | tr '\n' ' ')"
	else
		skip $P/$n/unit-ordering "no $sysv_gen on this machine"
	fi
	check $P/$n/unit-service "$settings" \
		"$(grep -E '^(Type|RemainAfterExit|NotifyAccess|ExecStart|ExecStop|KillMode)=' "$unit" | tr '\n' ' ' | sed 's/ $//')"
	if command -v systemd-analyze >/dev/null && [ -d /lib/systemd/system ]; then
		# (The root has no systemd: the host's units, the unit and its
		# program in a root of their own; a warning on stderr is a failure.)
		v=$work/verify-$n
		mkdir -p "$v/lib/systemd" "$v/usr/lib/xen-common/bin"
		cp -a /lib/systemd/system "$v/lib/systemd/"
		cp "$unit" "$v/lib/systemd/system/"
		cp "$R/usr/bin/forkless" "$v/usr/lib/xen-common/bin/$a"
		run_capture systemd-analyze verify --man=no --root="$v" /lib/systemd/system/$n.service
		check $P/$n/unit-verify "0" "$RC$OUT$ERR"
	else
		skip $P/$n/unit-verify "no systemd-analyze on this machine"
	fi
}
init_script xendomains xendomains "Usage: xendomains {start|stop|restart|reload|force-reload|status}" \
	"$rc_before" rc_links \
	"Type=oneshot RemainAfterExit=yes ExecStart=/usr/lib/xen-common/bin/xendomains start ExecStop=/usr/lib/xen-common/bin/xendomains stop NotifyAccess=exec KillMode=process"
# xendomains' stop timeout holds one save at the default
# XENDOMAINS_STOP_MAXWAIT (+ 11 s, as the applet extends it); the applet's
# EXTEND_TIMEOUT_USEC accepted (NotifyAccess=exec, above).
maxwait=$(. "$R/etc/default/xendomains"; echo "$XENDOMAINS_STOP_MAXWAIT")
stop=$(sed -n 's/^TimeoutStopSec=//p' "$R/usr/lib/systemd/system/xendomains.service")
case $stop in *min) stop=$((${stop%min} * 60)) ;; *s) stop=${stop%s} ;; esac
if [ -n "$maxwait" ] && [ "$stop" -ge $((maxwait + 11)) ] 2>/dev/null; then
	pass "$P/xendomains/unit-stop-timeout ($stop s, XENDOMAINS_STOP_MAXWAIT $maxwait)"
else
	fail $P/xendomains/unit-stop-timeout "TimeoutStopSec '$stop' s below XENDOMAINS_STOP_MAXWAIT '$maxwait' + 11"
fi
# xen: what is left in the control group at stop (xenstored) never killed
init_script xen xencommons "Usage: xencommons {start|stop|restart|force-reload|status}" \
	"$rc_before_xen" rc_links_xen \
	"Type=oneshot RemainAfterExit=yes ExecStart=/usr/lib/xen-common/bin/xencommons start ExecStop=/usr/lib/xen-common/bin/xencommons stop KillMode=process"

# dpkg --verify follows the diversions package by package. (Asked for
# several packages at once, dpkg 1.21 lists the regular files
# xen-utils-common has diverted as modified, ?M5: README, "Installing".)
for p in xen-utils-common forkless forkless-xen; do
	expect "$P/dpkg-verify/$p" 0 "" "" -- in_root "$R" dpkg --verify "$p"
done

# An admin's edit of a file, then restored: hashed per call (the stamp
# no longer vouches for it) until a package's change under
# /etc/xen/scripts (the upgrade or reinstall below) triggers a new stamp.
cp -p "$R/etc/xen/scripts/vif-common.sh" "$work/vif-common.sh"
echo "# an admin's edit" >>"$R/etc/xen/scripts/vif-common.sh"
cp "$work/vif-common.sh" "$R/etc/xen/scripts/vif-common.sh"
check $P/hotplug-stamp/restored-hashed "stat 8 hashed vif-common.sh" "$(hp_files)"

# An upgrade of xen-utils-common goes to the diverted names and leaves
# forkless in place; Debian's files are then the new version's, byte for
# byte as its .deb has them.
if [ "$old" != "$new" ]; then
	expect $P/upgrade-xen-utils-common 0 @any @any -- apt_in_root install "xen-utils-common=$new"
	expect $P/upgrade/xl-is-forkless 0 /usr/bin/forkless$'\n' "" -- in_root "$R" readlink -f /usr/sbin/xl
	expect $P/upgrade/xen-version-is-forkless 0 /usr/bin/forkless$'\n' "" -- \
		in_root "$R" readlink -f /usr/lib/xen-common/bin/xen-version
	check $P/upgrade/diversions "$want_div" \
		"$(in_root "$R" dpkg-divert --list | grep ' by forkless-xen$' | LC_ALL=C sort)"
	before=$(deb_files "$(xuc_deb "$new")")
	check $P/upgrade/debian-files "$before" "$(debian_files)"
else
	skip $P/upgrade-xen-utils-common "the archive has one version of xen-utils-common ($old): no upgrade to test"
fi
# A reinstall, likewise.
# (An admin's script of their own at each hotplug script's path, in
# place of forkless's link: the postinst's trigger must not run it.)
for f in block vif-bridge vif-route; do
	mv "$R/etc/xen/scripts/$f" "$work/link-$f"
	printf '#!/bin/sh\necho "$0 $*" >>/tmp/admin-script-ran\n' >"$R/etc/xen/scripts/$f"
	chmod 755 "$R/etc/xen/scripts/$f"
done
expect $P/reinstall-xen-utils-common 0 @any @any -- apt_in_root install --reinstall xen-utils-common
check $P/reinstall/admin-script-not-run "" "$(cat "$R/tmp/admin-script-ran" 2>/dev/null)"
for f in block vif-bridge vif-route; do mv -f "$work/link-$f" "$R/etc/xen/scripts/$f"; done
expect $P/reinstall/xl-is-forkless 0 /usr/bin/forkless$'\n' "" -- in_root "$R" readlink -f /usr/sbin/xl
expect $P/reinstall/xen-version-is-forkless 0 /usr/bin/forkless$'\n' "" -- \
	in_root "$R" readlink -f /usr/lib/xen-common/bin/xen-version
check $P/reinstall/diversions "$want_div" \
	"$(in_root "$R" dpkg-divert --list | grep ' by forkless-xen$' | LC_ALL=C sort)"
check $P/reinstall/debian-files "$before" "$(debian_files)"
check $P/reinstall/xendomains-rc-links "$rc_before" "$(rc_links)"
check $P/reinstall/xen-rc-links "$rc_before_xen" "$(rc_links_xen)"
check $P/reinstall/hotplug-stamp-triggered "stat 8 hashed" "$(hp_files)"

# A reinstall (an upgrade) of forkless-xen keeps its diversions, and its
# postinst removes one it no longer ships (here one made by hand in its
# name), renaming Debian's file back.
in_root "$R" dpkg-divert --package forkless-xen --rename \
	--divert /usr/bin/xen-detect.distrib --add /usr/bin/xen-detect >/dev/null
expect $P/reinstall-forkless-xen 0 @any @any -- in_root "$R" dpkg -i /tmp/forkless-xen.deb
check $P/reinstall-forkless-xen/diversions "$want_div" \
	"$(in_root "$R" dpkg-divert --list | grep ' by forkless-xen$' | LC_ALL=C sort)"
expect $P/reinstall-forkless-xen/obsolete-diversion-undone 0 "" "" -- \
	in_root "$R" sh -c '[ -f /usr/bin/xen-detect ] && [ ! -e /usr/bin/xen-detect.distrib ]'
check $P/reinstall-forkless-xen/debian-files "$before" "$(debian_files)"

# ---- the initramfs-tools hook ----
if full_run; then
# No kernel package in the root: a version with the two files mkinitramfs
# reads (its config, for the compressor; a modules directory).
kver=6.1.0-test
mkdir -p "$R/lib/modules/$kver"
echo CONFIG_RD_GZIP=y >"$R/boot/config-$kver"
for f in modules.builtin modules.builtin.modinfo modules.order; do : >"$R/lib/modules/$kver/$f"; done
# What of forkless an image holds: its files and links, as `PATH` or
# `PATH -> TARGET`.
initramfs_forkless() {
	in_root "$R" mkinitramfs -o /tmp/initrd.img "$kver" >"$work/mkinitramfs.log" 2>&1 ||
		{ echo "mkinitramfs failed: $(tail -5 "$work/mkinitramfs.log")"; return; }
	# (conf/conf.d/forkless is the settings file, which mkinitramfs copies.)
	in_root "$R" lsinitramfs -l /tmp/initrd.img | grep -v ' conf/' | awk '
		$NF == "forkless" || $NF ~ /\/forkless$/ || $(NF-2) ~ /forkless$/ {
			if ($(NF-1) == "->") print $(NF-2), "->", $NF; else print $NF }' | LC_ALL=C sort
}
want_initrd="usr/bin/cgroup-resolve -> forkless
usr/bin/forkless
usr/bin/mount-shared -> forkless
usr/sbin/mount.9p -> ../bin/forkless
usr/sbin/mount.shared -> ../bin/forkless
usr/sbin/mount.vboxsf -> ../bin/forkless
usr/sbin/mount.virtiofs -> ../bin/forkless"
expect $P/initramfs/prereqs 0 $'\n' "" -- \
	in_root "$R" /usr/share/initramfs-tools/hooks/forkless prereqs
check $P/initramfs/default "$want_initrd" "$(initramfs_forkless)"
echo FORKLESS_XEN=y >"$R/etc/initramfs-tools/conf.d/local-forkless"
got=$(initramfs_forkless)
check $P/initramfs/xen-xl "usr/sbin/xl -> ../bin/forkless" "$(grep '^usr/sbin/xl ' <<<"$got")"
check $P/initramfs/xen-version "usr/lib/xen-common/bin/xen-version -> ../../../bin/forkless" \
	"$(grep '^usr/lib/xen-common/bin/xen-version ' <<<"$got")"
echo FORKLESS=n >"$R/etc/initramfs-tools/conf.d/local-forkless"
check $P/initramfs/FORKLESS=n "" "$(initramfs_forkless)"
echo FORKLESS=maybe >"$R/etc/initramfs-tools/conf.d/local-forkless"
run_capture in_root "$R" mkinitramfs -o /tmp/initrd.img "$kver"
if [ "$RC" != 0 ] && grep -qF "E: forkless hook: FORKLESS must be y or n, not 'maybe'" <<<"$ERR"; then
	pass $P/initramfs/FORKLESS=maybe
else
	fail $P/initramfs/FORKLESS=maybe "expected mkinitramfs to fail naming FORKLESS" "exit $RC" "$ERR"
fi
rm -f "$R/etc/initramfs-tools/conf.d/local-forkless"
# A file another hook put there first is left alone (this one sorts
# before forkless's hook).
cat >"$R/usr/share/initramfs-tools/hooks/aaa-test-mount9p" <<'HOOK'
#!/bin/sh
[ "$1" = prereqs ] && exit 0
mkdir -p "$DESTDIR/usr/sbin" && echo other >"$DESTDIR/usr/sbin/mount.9p"
HOOK
chmod 755 "$R/usr/share/initramfs-tools/hooks/aaa-test-mount9p"
check $P/initramfs/no-overwrite "$(grep -v mount.9p <<<"$want_initrd")" "$(initramfs_forkless)"
rm -f "$R/usr/share/initramfs-tools/hooks/aaa-test-mount9p"

fi

# ---- purge: Debian's files back, byte for byte ----
expect $P/purge 0 @any @any -- in_root "$R" dpkg --purge forkless-xen forkless
check $P/purge/no-diversions "" "$(in_root "$R" dpkg-divert --list | grep forkless)"
expect $P/purge/no-hotplug-stamp 1 "" "" -- test -e "$R/var/lib/forkless"
check $P/purge/debian-files "$before" "$(debian_files)"
expect $P/purge/no-distrib 0 "" "" -- \
	in_root "$R" find / -xdev -name '*.distrib' -path '*xen*'
expect $P/purge/xen-version-is-debian 1 "" "$nosysfs" -- \
	in_root "$R" /usr/lib/xen-common/bin/xen-version
expect $P/purge/no-forkless 0 "" "" -- \
	in_root "$R" find /usr /etc -name '*forkless*'
# The units as xen-utils-common had them: none on Debian 12 (no
# enablement left), Debian 13's files, enabled as they were.
check $P/purge/units "$units_before" "$(units_state)"
check $P/purge/no-insserv-override "" "$(cd "$R" && ls -d etc/insserv/overrides/xen* 2>/dev/null)"
expect $P/purge/dpkg-verify-xen-utils-common 0 "" "" -- in_root "$R" dpkg --verify xen-utils-common
expect $P/purge/xendomains-is-debian 0 "755 #!/bin/bash"$'\n' "" -- \
	in_root "$R" sh -c 'echo "$(stat -c %a /etc/init.d/xendomains) $(head -n1 /etc/init.d/xendomains)"'
check $P/purge/xendomains-rc-links "$rc_before" "$(rc_links)"
expect $P/purge/xen-is-debian 0 "755 #!/bin/sh"$'\n' "" -- \
	in_root "$R" sh -c 'echo "$(stat -c %a /etc/init.d/xen) $(head -n1 /etc/init.d/xen)"'
expect $P/purge/xen-script-byte-exact 0 "" "" -- cmp "$work/xen.debian" "$R/etc/init.d/xen"
check $P/purge/xen-rc-links "$rc_before_xen" "$(rc_links_xen)"

full_run || exit 0

# ---- from a manual install (README's former `dpkg-divert --local
# --rename --add` of each script forkless replaces, then `make install`) to
# the packages: the local diversions become forkless-xen's, and a purge
# still gives Debian's files back. (The README's list named the six
# scripts of its time; the scripts are what the binary installs over.)
cp "$FORKLESS" "$R/tmp/forkless-manual"
for p in $("$FORKLESS" --list-full); do
	[ -f "$R/$p" ] && [ ! -L "$R/$p" ] || continue
	in_root "$R" dpkg-query -S "/$p" >/dev/null 2>&1 || continue
	in_root "$R" dpkg-divert --local --rename --add "/$p" >/dev/null
done
check $P/manual/local-diversions "$(grep -c . <<<"$(grep ' F ' <<<"$before" | cut -d' ' -f1 |
	grep -xF -f <("$FORKLESS" --list-full | sed 's|^|/|'))")" \
	"$(in_root "$R" dpkg-divert --list | grep -c '^local diversion')"
in_root "$R" /tmp/forkless-manual --install -s / >/dev/null
expect $P/manual/dpkg-i 0 @any "" -- \
	in_root "$R" dpkg -i /tmp/forkless.deb /tmp/forkless-xen.deb
check $P/manual/diversions "$want_div" \
	"$(in_root "$R" dpkg-divert --list | grep forkless-xen | LC_ALL=C sort)"
check $P/manual/no-local-diversion "" "$(in_root "$R" dpkg-divert --list | grep '^local ')"
expect $P/manual/purge 0 @any @any -- in_root "$R" dpkg --purge forkless-xen forkless
check $P/manual/debian-files "$before" "$(debian_files)"

# ---- xen-utils-common and forkless-xen removed in one run, named in
# that order: dpkg removes forkless-xen first (its Depends), so that
# xen-utils-common's postrm `chmod -x /etc/init.d/xendomains` and
# `chmod -x /etc/init.d/xen` meet Debian's scripts back in place, not the
# links to /usr/bin/forkless.
expect $P/remove-both/dpkg-i 0 @any "" -- \
	in_root "$R" dpkg -i /tmp/forkless.deb /tmp/forkless-xen.deb
expect $P/remove-both/dpkg-r 0 @any @any -- \
	in_root "$R" dpkg -r xen-utils-common forkless-xen
expect $P/remove-both/forkless-executable 0 "755"$'\n' "" -- \
	in_root "$R" stat -c %a /usr/bin/forkless
expect $P/remove-both/xendomains-debian-chmod-x 0 "644 #!/bin/bash"$'\n' "" -- \
	in_root "$R" sh -c 'echo "$(stat -c %a /etc/init.d/xendomains) $(head -n1 /etc/init.d/xendomains)"'
expect $P/remove-both/xen-debian-chmod-x 0 "644 #!/bin/sh"$'\n' "" -- \
	in_root "$R" sh -c 'echo "$(stat -c %a /etc/init.d/xen) $(head -n1 /etc/init.d/xen)"'
