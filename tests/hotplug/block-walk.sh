#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/hotplug/block-walk.sh - block's sharing walk on a large xenstore
# and on a broken one: a phy: disk another VM has read-write, behind a
# backend/vbd listing longer than one xenstore reply (4096 bytes: 700
# domains with 5-digit ids, or one domain with 700 disks), must be refused
# as Debian's script refuses it on C xenstored (libxenstore pages with
# XS_DIRECTORY_PART); on an oxenstored, which sends the long reply whole
# (libxenstore refuses it: Debian's script then attaches the disk), and
# for a listing or key the walk cannot read, the add fails with
# hotplug-status error and a hotplug-error naming the path, never "not
# shared" (docs/hotplug.md, "Differences from Debian's scripts").
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-hotplug.sh"
hp_prepare block-walk || exit 0
hp_enter "$@"
hp_root || { fail block-walk/setup "cannot build the test dom0"; exit 0; }

BE=backend/vbd/1/51712
BLK_ENV=(script=/etc/xen/scripts/block XENBUS_TYPE=vbd XENBUS_PATH=$BE
	XENBUS_BASE_PATH=backend)
truncate -s 8M "$HP/phys.img"
PHYS=$(losetup -f --show "$HP/phys.img") || { fail block-walk/setup "no loop device for the phy: disk"; exit 0; }
PHYS_MM=$(stat -L -c %t:%T "$PHYS")
BUSY="Device $PHYS is mounted in a guest domain,\\nand so cannot be mounted now."

# walk_tree DOMS DISKS CONFLICT: the stand-in's first tree: domain 1's
# disk (params PHYS, mode w, as libxl writes it before the script) and
# DOMS other domains (ids 10000...) of other VMs with DISKS disks each
# (devids 51712...), read-write; disk 51712 of domain CONFLICT is PHYS.
walk_tree() {
	local doms=$1 disks=$2 conflict=$3 be=/local/domain/0/$BE
	{
		echo "/local/domain/1/vm=/vm/00000000-0000-0000-0000-000000000001"
		echo "/local/domain/1/device/vbd/51712/backend=$be"
		echo "/local/domain/1/device/vbd/51712/state=1"
		for kv in frontend=/local/domain/1/device/vbd/51712 frontend-id=1 online=1 \
			removable=0 bootable=1 state=2 dev=xvda type=phy mode=w device-type=disk \
			params="$PHYS" script=/etc/xen/scripts/block hotplug-status=; do
			echo "$be/$kv"
		done
		awk -v doms="$doms" -v disks="$disks" -v conflict="$conflict" -v mm="$PHYS_MM" 'BEGIN {
			for (d = 10000; d < 10000 + doms; d++) {
				printf "/local/domain/%d/vm=/vm/other-%d\n", d, d
				for (v = 51712; v < 51712 + disks; v++) {
					p = sprintf("/local/domain/0/backend/vbd/%d/%d", d, v)
					printf "%s/mode=w\n", p
					printf "%s/physical-device=%s\n", p, (d == conflict && v == 51712) ? mm : "fe:" v - 51700
				}
			}
		}'
	} >"$HP/xs/tree.in"
}

# walk_run HOW DOMS DISKS CONFLICT [STAND-IN ARGS]: the add by Debian's
# script or forkless on that tree; GOT="RC STATUS ERROR". (Not run in a
# $(...): the stand-in it starts would hold that pipe open.)
walk_run() {
	local how=$1
	walk_tree "$2" "$3" "$4"
	shift 4
	GOT="stand-in did not start"
	hp_xenstored "$@" || return
	: >"$HP/syslog"
	hp_use "$how" block
	hp_call "${BLK_ENV[@]}" -- block add
	GOT="$RC $(xs read $BE/hotplug-status) $(xs read $BE/hotplug-error)"
}

# 700 domains (a 4200-byte listing): C xenstored answers XS_DIRECTORY with
# E2BIG; libxenstore and forkless page it with XS_DIRECTORY_PART.
want="1 busy $BUSY"
walk_run debian 700 1 10650; debian=$GOT
check "block-walk/700-domains: Debian's script refuses" "$want" "$debian"
walk_run forkless 700 1 10650
check "block-walk/700-domains: forkless refuses as Debian's" "$want" "$GOT"
check "block-walk/700-domains: listed in chunks (DIRECTORY_PART requests)" 2 \
	"$(tail -n +$((HP_XS_MARK + 1)) "$HP/xs/log" | grep -c " DIRECTORY_PART 0 backend/vbd ")"
# one domain with 700 disks
walk_run forkless 1 700 10000
check "block-walk/700-disks: forkless refuses" "$want" "$GOT"
# the same number of disks, none of them this one: attached
walk_run forkless 700 1 -1
check "block-walk/700-domains-not-shared: attached" "0 connected " "$GOT"

# oxenstored: the long reply sent whole (over XENSTORE_PAYLOAD_MAX, which
# libxenstore and forkless refuse), DIRECTORY_PART unknown. Debian's
# xenstore-list fails and the script takes it for "no domains".
walk_run debian 700 1 10650 --oxenstored
info "block-walk/oxenstored: Debian's script: $GOT"
walk_run forkless 700 1 10650 --oxenstored
check "block-walk/oxenstored: forkless fails closed, the error written" \
	"1 error Cannot check whether the device is shared: xenstore-list backend/vbd: I/O error" \
	"$GOT"

# A listing or a key the walk cannot read (injected by the stand-in):
# Debian's script reads nothing there and attaches; forkless fails.
walk_run debian 3 1 10002 --fail-read=backend/vbd/10002=EACCES
info "block-walk/list-eacces: Debian's script: $GOT"
walk_run forkless 3 1 10002 --fail-read=backend/vbd/10002=EACCES
check "block-walk/list-eacces: an error naming the listing" \
	"1 error Cannot check whether the device is shared: xenstore-list backend/vbd/10002: Permission denied" \
	"$GOT"
walk_run forkless 3 1 10002 --fail-read=10001/51712/physical-device=EIO
check "block-walk/read-eio: an error naming the key" \
	"1 error Cannot check whether the device is shared: xenstore-read backend/vbd/10001/51712/physical-device: I/O error" \
	"$GOT"
walk_run forkless 3 1 10002 --fail-read=/local/domain/10002/vm=EACCES
check "block-walk/vm-eacces: an error naming the other domain's vm" \
	"1 error Cannot check whether the device is shared: xenstore-read /local/domain/10002/vm: Permission denied" \
	"$GOT"
# a small backend/vbd costs what it did: one XS_DIRECTORY a listing
HP_STRACE=$HP/small.strace walk_run forkless 3 1 -1
check "block-walk/small-not-shared: attached" "0 connected " "$GOT"
check "block-walk/small: no DIRECTORY_PART" 0 \
	"$(tail -n +$((HP_XS_MARK + 1)) "$HP/xs/log" | grep -c " DIRECTORY_PART ")"
if [ -z "${FORKLESS_SANITIZED:-}" ]; then   # (its runtime makes syscalls of its own)
	# 41: paging costs nothing here; the lock directory's check (lock.sh) 1;
	# the mounted-in-dom0 check reads /proc/self/mountinfo and stats no
	# mount's source (it was 67 with a stat per mount of the machine);
	# 11 check that the files block stands in for are Debian's
	check "block-walk/small: phy: add over 3 other disks in at most 52 system calls" \
		yes "$(hp_syscalls_within "$HP/small.strace" 52)"
fi
exit 0
