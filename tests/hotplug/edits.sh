#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/hotplug/edits.sh - an admin's edit of any file a hotplug applet
# stands in for (NAME.distrib and what it sources) makes the call run
# Debian's script, by exec, with one notice line naming the file; the
# file restored, the call is native again. The same for upstream Xen's
# vif-common.sh (handle_iptable active), a missing file, no stamp (a
# hand install: every file hashed per call) and a stamp another user
# could have written (ignored, logged). The real Debian scripts, each
# check named after the release: all of it with Debian 13's
# xen-utils-common (4.20, trixie/...); then the two releases' files side
# by side (Debian 12's hotplugpath.sh, the only file that differs, among
# Debian 13's files; the stamp across an upgrade and a downgrade); last a
# subset with Debian 12's (4.17, bookworm/...): stamped and hashed,
# native; an edit of a file of each script, and of hotplugpath.sh, handed
# over. The rest would be the same run again: the other 10 files are the
# same bytes in both, and with them the same code decides.
HP_RELEASES="trixie bookworm"
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-hotplug.sh"
need_applet vif-bridge vif-route block || exit 0
hp_prepare edits || exit 0
hp_enter "$@"
hp_root || { fail edits/setup "cannot build the test dom0"; exit 0; }

S=/etc/xen/scripts
STAMP=/var/lib/forkless/hotplug-stamp
VIF_ENV=(script=$S/vif-bridge XENBUS_TYPE=vif XENBUS_PATH=backend/vif/1/0
	XENBUS_BASE_PATH=backend vif=vif1.0 netdev= type_if=vif)
ROUTE_ENV=(script=$S/vif-route XENBUS_TYPE=vif XENBUS_PATH=backend/vif/1/0
	XENBUS_BASE_PATH=backend vif=vif1.0 netdev= type_if=vif)
BE=backend/vbd/1/51712
BLK_ENV=(script=$S/block XENBUS_TYPE=vbd XENBUS_PATH=$BE XENBUS_BASE_PATH=backend)
mkdir -m 700 /var/run/xen-hotplug

hp_use forkless vif-bridge vif-route block
# what each script runs, as Debian's scripts source it ($dir/FILE)
VB_FILES="vif-bridge.distrib vif-common.sh xen-network-common.sh xen-hotplug-common.sh
	hotplugpath.sh logging.sh xen-script-common.sh locking.sh"
BL_FILES="block.distrib block-common.sh xen-hotplug-common.sh hotplugpath.sh
	logging.sh xen-script-common.sh locking.sh"
mkdir "$HP/orig"
cp -a "$S"/*.distrib "$S"/*.sh "$HP/orig/"

# call SCRIPT: the state each script needs, then the call under strace:
# RC, $HP/trace; NATIVE yes (one process, no hand-over) or the notice line
vif_setup() {
	net_reset; vif_xs_reset "$1"
	add_bridge xenbr0 02:00:00:00:00:10 1400; add_vif vif1.0
	xs write backend/vif/1/0/bridge xenbr0 backend/vif/1/0/ip 192.0.2.9
}
call() {
	: >"$HP/syslog"
	case $1 in
	vif-bridge) vif_setup vif-bridge
		HP_STRACE=$HP/trace hp_call "${VIF_ENV[@]}" -- vif-bridge online ;;
	vif-route) vif_setup vif-route
		HP_STRACE=$HP/trace hp_call "${ROUTE_ENV[@]}" -- vif-route online ;;
	block) xs rm /local/domain 2>/dev/null
		xs write $BE/params /nonexistent $BE/mode r $BE/type phy
		HP_STRACE=$HP/trace hp_call "${BLK_ENV[@]}" -- block remove ;;
	esac
	HANDOVER=$(hp_syslog | grep -F 'handing over to ' | sed 's/^<[0-9]*>TIME root: //')
	if [ -z "$HANDOVER" ] && [ "$(hp_procs "$HP/trace")" = 1 ]; then NATIVE=yes; else NATIVE=no; fi
}
# native NAME SCRIPT: the call stays in forkless
native() {
	call "$2"
	check "edits/$1: native" "yes" "$NATIVE${HANDOVER:+: $HANDOVER}"
}
# script NAME SCRIPT FILE: the call execs SCRIPT.distrib, logged naming FILE
script() {
	local want="$S/$2: handing over to $S/$2.distrib: $S/$3 is neither Debian 12's nor Debian 13's"
	call "$2"
	check "edits/$1: $2.distrib runs, logged" "$want" "$HANDOVER"
	check "edits/$1: $2.distrib exec'd" yes \
		"$(grep -q "execve(\"$S/$2.distrib\", .* = 0\$" "$HP/trace" && echo yes || echo no)"
}
restore() { cp "$HP/orig/$1" "$S/$1"; }

native stamped vif-bridge
native stamped vif-route
native stamped block
# The cost with the stamp: its open, fstat, read, close, and one stat per
# file (8 for the vif scripts, 7 for block); none of them is opened.
call vif-bridge
check "edits/stamped: one stat per file, none opened" "8 0 1" \
	"$(grep -c "^[0-9]*  *\(stat(\|newfstatat(AT_FDCWD, \)\"$S/" "$HP/trace") $(grep -c "openat(AT_FDCWD, \"$S/[a-z-]*\(\.sh\|\.distrib\)\"" "$HP/trace") $(grep -c "openat(AT_FDCWD, \"$STAMP\"" "$HP/trace")"
# What the decision costs a call (README's figures): the stamp's syscalls
# (the lines on its descriptor, from its open to its close) and the stats
# of the scripts' directory, in the call's trace.
edits_syscalls() {
	awk -v s="$S/" -v st="$STAMP" '
	index($0, "openat(AT_FDCWD, \"" st "\"") && $NF ~ /^[0-9]+$/ { fd = $NF; n++; next }
	fd != "" && $0 ~ ("[a-z0-9_]+\\(" fd "[,)]") { n++; if ($0 ~ ("close\\(" fd "\\)")) fd = ""; next }
	index($0, " stat(\"" s) || index($0, "newfstatat(AT_FDCWD, \"" s) { n++ }
	END { print n + 0 }' "$HP/trace"
}
figure hotplug-edits-syscalls-vif "$(edits_syscalls)"
call block
figure hotplug-edits-syscalls-block "$(edits_syscalls)"

# Each file edited in turn: the script runs; restored (the same bytes in
# the same inode, its ctime new: hashed): native again.
for f in $VB_FILES; do
	echo "# an admin's edit" >>"$S/$f"
	script "edit-$f" vif-bridge "$f"
	restore "$f"
	native "restored-$f" vif-bridge
done
for f in vif-route.distrib vif-common.sh xen-network-common.sh; do
	echo "# an admin's edit" >>"$S/$f"
	script "edit-$f" vif-route "$f"
	restore "$f"
	native "restored-$f" vif-route
done
for f in $BL_FILES; do
	echo "# an admin's edit" >>"$S/$f"
	script "edit-$f" block "$f"
	restore "$f"
	native "restored-$f" block
done
# An edit of one script's file leaves the others native.
echo "# an admin's edit" >>"$S/block-common.sh"
native block-edit-vif-bridge vif-bridge
restore block-common.sh
echo "# an admin's edit" >>"$S/vif-common.sh"
native vif-edit-block block
restore vif-common.sh
# A same-size edit (one byte): still not Debian's.
sed -i 's/# This function is disabled/# This function is Disabled/' "$S/vif-common.sh"
script same-size vif-bridge vif-common.sh
restore vif-common.sh
# Restored as a new file (another inode): hashed, native.
cp "$HP/orig/vif-common.sh" "$S/vif-common.sh.new" && mv "$S/vif-common.sh.new" "$S/vif-common.sh"
native restored-new-inode vif-bridge

# Upstream Xen's vif-common.sh (Alpine, Fedora, source builds):
# handle_iptable active, its anti-spoofing rules the script's to make.
sed -i '/disabled in Debian packaging/,/^  return 0$/d' "$S/vif-common.sh"
check "edits/upstream: handle_iptable active" 0 "$(grep -c 'return 0$' <(sed -n '/^handle_iptable()/,/^}/p' "$S/vif-common.sh"))"
script upstream-vif-common vif-bridge vif-common.sh
script upstream-vif-common vif-route vif-common.sh
native upstream-vif-common block
restore vif-common.sh

# A missing file: the script (which then fails as it would have).
mv "$S/xen-script-common.sh" "$HP/xsc"
script missing vif-bridge xen-script-common.sh
script missing block xen-script-common.sh
mv "$HP/xsc" "$S/xen-script-common.sh"
native missing-back vif-bridge
# None of them there (a root with forkless's applets alone, such as a
# driver domain's): no script to defer to, native.
mkdir "$HP/away" && mv "$S"/*.distrib "$S"/*.sh "$HP/away/"
native none-there vif-bridge
native none-there vif-route
native none-there block
check "edits/none-there: nothing logged" "" "$(hp_syslog | grep -F 'Debian 12')"
# one back, the others still gone: the first gone one named, and the
# hand-over fails (no vif-bridge.distrib to run), not a native call
cp "$HP/orig/locking.sh" "$S/"
call vif-bridge
check "edits/one-there: handed over, logged, failed" \
	"1 $S/vif-bridge: handing over to $S/vif-bridge.distrib: $S/vif-bridge.distrib is neither Debian 12's nor Debian 13's" \
	"$RC $HANDOVER"
mv "$HP/away"/* "$S/" && rmdir "$HP/away"
native all-back vif-bridge

# No stamp (forkless installed by hand): every file hashed on every call,
# the same decisions.
rm "$STAMP"
native no-stamp vif-bridge
check "edits/no-stamp: each file opened once" 8 \
	"$(grep -c "openat(AT_FDCWD, \"$S/[a-z-]*\(\.sh\|\.distrib\)\", O_RDONLY" "$HP/trace")"
native no-stamp block
echo "# an admin's edit" >>"$S/locking.sh"
script no-stamp-edit vif-bridge locking.sh
script no-stamp-edit block locking.sh
restore locking.sh
native no-stamp-restored block

# A stamp that another user than root could have written: ignored and
# logged, each file hashed (an edit still seen, Debian's still native).
"$FORKLESS" vif-bridge --stamp
chmod 664 "$STAMP"
call vif-bridge
check "edits/stamp-group-writable: ignored, logged" \
	"$S/vif-bridge: $STAMP ignored: not root's alone, or not this build's" \
	"$(hp_syslog | grep -F "$STAMP" | sed 's/^<29>TIME root: //')"
check "edits/stamp-group-writable: native" yes "$NATIVE"
chmod 644 "$STAMP"
chown 1:1 "$STAMP"
echo "# an admin's edit" >>"$S/vif-bridge.distrib"
script stamp-not-roots vif-bridge vif-bridge.distrib
check "edits/stamp-not-roots: logged" 1 "$(hp_syslog | grep -cF "$STAMP ignored")"
restore vif-bridge.distrib
# A stamp of the wrong size (another build's): ignored, logged.
"$FORKLESS" vif-bridge --stamp
truncate -s 100 "$STAMP"
call vif-bridge
check "edits/stamp-short: ignored, logged, native" "1 yes" \
	"$(hp_syslog | grep -cF "$STAMP ignored") $NATIVE"

# The stamp vouches only for Debian's files: written while one is
# edited, it leaves that one to be hashed (still the script), and the
# file restored is native.
echo "# an admin's edit" >>"$S/logging.sh"
"$FORKLESS" block --stamp
script stamp-while-edited vif-bridge logging.sh
restore logging.sh
native stamp-while-edited-restored vif-bridge
expect "edits/--stamp: cannot write" 1 "" \
	"vif-bridge: cannot write $STAMP: Read-only file system"$'\n' \
	-- bash -c "mount -o remount,ro /var/lib && '$FORKLESS' vif-bridge --stamp; r=\$?; mount -o remount,rw /var/lib; exit \$r"

# ---- Debian 12's and Debian 13's files side by side -------------------
BW=$HP_DEBS/bookworm/root/etc/xen/scripts
TX=$HP_DEBS/trixie/root/etc/xen/scripts
check "edits/releases: only hotplugpath.sh differs" "hotplugpath.sh" \
	"$(for f in vif-bridge vif-route block $(cd "$TX" && ls -- *.sh); do cmp -s "$BW/$f" "$TX/$f" || echo "$f"; done)"
# opened NAME: how many of the watched files the last call opened
opened() { grep -c "openat(AT_FDCWD, \"$S/[a-z-]*\(\.sh\|\.distrib\)\", O_RDONLY" "$HP/trace"; }
# releases FILE: whose file the stamp's record of FILE says it is (1
# Debian 12's, 2 Debian 13's, 3 both's; the last 8 bytes of the record,
# one of 11 of equal size, in the order of docs/hotplug.md's table)
releases() {
	local order="vif-bridge.distrib vif-route.distrib block.distrib vif-common.sh
		xen-network-common.sh block-common.sh xen-hotplug-common.sh hotplugpath.sh
		logging.sh xen-script-common.sh locking.sh" f i=0 size
	size=$(( $(stat -c %s "$STAMP") / 11 ))
	for f in $order; do
		[ "$f" = "$1" ] && break
		i=$((i + 1))
	done
	od -An -tu8 -j $(( (i + 1) * size - 8 )) -N 8 "$STAMP" | tr -d ' '
}
# dpkg's way: a new file renamed over the old one (a new inode)
install_as_dpkg() { cp "$1" "$2.dpkg-new" && mv "$2.dpkg-new" "$2"; }
for f in "$HP/orig"/*; do restore "${f##*/}"; done
"$FORKLESS" vif-bridge --stamp
check "edits/trixie-stamp: records Debian 13's hotplugpath.sh, both's locking.sh" "2 3" \
	"$(releases hotplugpath.sh) $(releases locking.sh)"

# Debian 12's hotplugpath.sh among Debian 13's files: every other file is
# both releases', so this is Debian 12's set, native (hashed once).
install_as_dpkg "$BW/hotplugpath.sh" "$S/hotplugpath.sh"
native debian12-hotplugpath vif-bridge
check "edits/debian12-hotplugpath: that file alone hashed" 1 "$(opened)"
native debian12-hotplugpath vif-route
native debian12-hotplugpath block
# A genuine mix (one file Debian 12's alone, another Debian 13's alone)
# cannot be made of the two packages' files, as only hotplugpath.sh
# differs; the rule hands it over naming the first file that is not the
# others' release ("is Debian 13's, the others Debian 12's"). The nearest:
# Debian 12's hotplugpath.sh and a file of a third content, neither
# release's, before or after it: that one named, not hotplugpath.sh.
sed -i 's/# This function is disabled/# This function is Disabled/' "$S/vif-common.sh"
script debian12-hotplugpath-third-before vif-bridge vif-common.sh
restore vif-common.sh
echo "# an admin's edit" >>"$S/locking.sh"
script debian12-hotplugpath-third-after vif-bridge locking.sh
script debian12-hotplugpath-third-after block locking.sh
restore locking.sh
native debian12-hotplugpath-restored vif-bridge

# The upgrade, Debian 12 to 13: Debian 12's files stamped, then replaced
# by Debian 13's as dpkg does it (each a new inode) before the trigger
# writes the stamp again: hotplugpath.sh (the stamp's record is of the
# old file: no stale vouching) hashed, the others still vouched for.
for f in "$HP/orig"/*; do
	b=${f##*/}
	install_as_dpkg "$BW/${b%.distrib}" "$S/$b"
done
"$FORKLESS" vif-bridge --stamp
check "edits/bookworm-stamp: records Debian 12's hotplugpath.sh, both's locking.sh" "1 3" \
	"$(releases hotplugpath.sh) $(releases locking.sh)"
native bookworm-stamped vif-bridge
check "edits/bookworm-stamped: no file hashed" 0 "$(opened)"
install_as_dpkg "$TX/hotplugpath.sh" "$S/hotplugpath.sh"
native upgraded vif-bridge
check "edits/upgraded: hotplugpath.sh hashed, the others vouched for" "1 1" \
	"$(opened) $(grep -c "openat(AT_FDCWD, \"$S/hotplugpath.sh\"" "$HP/trace")"
native upgraded vif-route
native upgraded block
for f in "$HP/orig"/*; do install_as_dpkg "$f" "$S/${f##*/}"; done
native upgraded-all vif-bridge
check "edits/upgraded-all: each file hashed" 8 "$(opened)"
"$FORKLESS" vif-bridge --stamp
native upgraded-restamped vif-bridge
check "edits/upgraded-restamped: no file hashed" 0 "$(opened)"
# The same in place (cp over the file: the same inode, and the same size:
# xen-4.17 and xen-4.20 are as long; only the times differ): hashed.
cp "$BW/hotplugpath.sh" "$S/hotplugpath.sh"
native downgraded-in-place vif-bridge
check "edits/downgraded-in-place: hotplugpath.sh hashed" 1 "$(opened)"
cp "$TX/hotplugpath.sh" "$S/hotplugpath.sh"
native upgraded-in-place block
check "edits/upgraded-in-place: hotplugpath.sh hashed" 1 "$(opened)"

# ---- Debian 12's files alone -------------------------------------------
hp_release bookworm
hp_use forkless vif-bridge vif-route block
rm -r "$HP/orig" && mkdir "$HP/orig" && cp -a "$S"/*.distrib "$S"/*.sh "$HP/orig/"
native stamped vif-bridge
native stamped vif-route
native stamped block
call vif-bridge
check "edits/stamped: one stat per file, none opened" "8 0" \
	"$(grep -c "^[0-9]*  *\(stat(\|newfstatat(AT_FDCWD, \)\"$S/" "$HP/trace") $(opened)"
for f in vif-common.sh hotplugpath.sh; do
	echo "# an admin's edit" >>"$S/$f"
	script "edit-$f" vif-bridge "$f"
	script "edit-$f" vif-route "$f"
	restore "$f"
done
for f in block-common.sh hotplugpath.sh; do
	echo "# an admin's edit" >>"$S/$f"
	script "edit-$f" block "$f"
	restore "$f"
done
native restored vif-bridge
rm "$STAMP"
native no-stamp vif-bridge
check "edits/no-stamp: each file opened once" 8 "$(opened)"
native no-stamp vif-route
native no-stamp block
