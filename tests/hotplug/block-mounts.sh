#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/hotplug/block-mounts.sh - block's "mounted in dom0" check
# (docs/hotplug.md, "Mounted in dom0") on the mounts that broke a check by
# /proc/mounts lines and stat(): a mount whose /proc/mounts line is over
# 8191 bytes (the disk being attached is mounted there: refused), a long
# line whose tail after 8191 bytes names an unmounted disk (not busy), a
# FUSE mount (and a tmpfs) whose user-chosen source names the disk (not
# busy), a mount whose source is a path inside a FUSE mount whose daemon
# never answers (the add does not hang), and which mounts count as
# read-only for mode r (the mount's or the superblock's ro, as
# /proc/mounts's "ro"), each against Debian's script where it answers.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-hotplug.sh"
hp_prepare block-mounts || exit 0
hp_enter "$@"
hp_root || { fail block-mounts/setup "cannot build the test dom0"; exit 0; }

BE=backend/vbd/1/51712
BLK_ENV=(script=/etc/xen/scripts/block XENBUS_TYPE=vbd XENBUS_PATH=$BE
	XENBUS_BASE_PATH=backend)
HELPER=$TOP/tests/hotplug/mount-helper.py
mkdir -m 700 /var/run/xen-hotplug
truncate -s 8M "$HP/phys.img"
PHYS=$(losetup -f --show "$HP/phys.img") || { fail block-mounts/setup "no loop device for the phy: disk"; exit 0; }
FUSE_PIDS=
trap 'kill $FUSE_PIDS 2>/dev/null; hp_cleanup' EXIT
# Debian's message (xenstore-read shows the newline as \n)
local_busy() { printf '%s\n' "Device $1 is mounted in the privileged domain,\\nand so cannot be mounted by a guest."; }

# add HOW DEV [MODE]: a phy: add of DEV by Debian's script or forkless;
# GOT="RC STATUS ERROR"
add() {
	local be=$BE
	rm -f /var/run/xen-hotplug/block
	xs rm /local/domain 2>/dev/null
	xs write /local/domain/1/vm /vm/00000000-0000-0000-0000-000000000001 \
		$be/frontend /local/domain/1/device/vbd/51712 $be/frontend-id 1 \
		$be/state 2 $be/type phy $be/mode "${3:-w}" $be/params "$2" \
		$be/script /etc/xen/scripts/block $be/hotplug-status ""
	hp_use "$1" block
	hp_call "${BLK_ENV[@]}" -- block add
	GOT="$RC $(xs read $be/hotplug-status) $(xs read $be/hotplug-error 2>/dev/null)"
	GOT=${GOT% }
}
# proc_mounts_line PATTERN: the longest /proc/mounts line containing it, its length
proc_mounts_line() { grep -F -- "$1" /proc/mounts | awk '{ if (length > n) n = length } END { print n + 0 }'; }

# ---- 6: lines of any length -------------------------------------------

if command -v mkfs.ext2 >/dev/null && mkfs.ext2 -q -F "$HP/fs.img" 4M >/dev/null 2>&1; then
	FSDEV=$(losetup -f --show "$HP/fs.img")
	# mounted only on a mount point of 9000 bytes (a private tmpfs holds
	# the directories: detached with it)
	mkdir -p /run/long && mount -t tmpfs tmpfs /run/long
	python3 "$HELPER" deep /run/long 9000 m "$FSDEV" ext2 ||
		fail block-mounts/long-line/setup "cannot mount $FSDEV on a long mount point"
	check "block-mounts/long-line: /proc/mounts line of $FSDEV over 8191 bytes" yes \
		"$([ "$(proc_mounts_line "$FSDEV ")" -gt 8191 ] && echo yes || echo no)"
	add debian "$FSDEV"
	info "block-mounts/long-line: Debian's script: $GOT"
	add forkless "$FSDEV"
	check "block-mounts/long-line: a disk mounted in dom0 on a long mount point is refused" \
		"1 busy $(local_busy "$FSDEV")" "$GOT"
	umount -l /run/long

	# read-only for mode r: the mount or its superblock, as /proc/mounts's ro
	mkdir -p /run/a /run/b
	ro_case() {   # ro_case NAME SB-OPTS BIND-OPTS: FSDEV seen only through the bind mount
		mount -t ext2 -o "$2" "$FSDEV" /run/a && mount --bind /run/a /run/b &&
			mount -o "remount,bind,$3" /run/b && umount /run/a ||
			{ fail "block-mounts/$1/setup" "cannot mount $FSDEV"; return; }
		local mi
		mi=$(grep -F " - ext2 $FSDEV " /proc/self/mountinfo | awk '{ print $6, $NF }' | sed 's/,[^ ]*//g')
		for mode in r w; do
			add debian "$FSDEV" $mode; local deb=$GOT
			add forkless "$FSDEV" $mode
			check "block-mounts/$1 (mountinfo: mount $mi): mode $mode as Debian's script" "$deb" "$GOT"
		done
		umount /run/b
	}
	ro_case mount-ro-superblock-rw rw ro
	ro_case mount-rw-superblock-ro ro rw
	ro_case mount-rw-superblock-rw rw rw
	add forkless "$FSDEV" r
	check "block-mounts/unmounted: mode r connected" "0 connected" "$GOT"
else
	skip block-mounts/long-line "mkfs.ext2 not installed (e2fsprogs)"
fi

# btrfs: its mounts show an anonymous MAJ:MIN (0:N), its source the device
if command -v mkfs.btrfs >/dev/null && grep -qw btrfs /proc/filesystems &&
	truncate -s 128M "$HP/btrfs.img" && mkfs.btrfs -q -f "$HP/btrfs.img" >/dev/null 2>&1; then
	BTDEV=$(losetup -f --show "$HP/btrfs.img")
	mkdir -p /run/bt && mount -t btrfs "$BTDEV" /run/bt
	check "block-mounts/btrfs: mountinfo shows an anonymous device" "0 btrfs $BTDEV" \
		"$(awk '$5 == "/run/bt" { split($3, d, ":"); for (i = 7; $i != "-"; i++); print d[1], $(i + 1), $(i + 2) }' /proc/self/mountinfo)"
	add debian "$BTDEV"
	deb=$GOT
	add forkless "$BTDEV"
	check "block-mounts/btrfs: a mounted btrfs device is busy, as in Debian's script" \
		"1 busy $(local_busy "$BTDEV") = Debian's" "$GOT = $([ "$deb" = "$GOT" ] && echo "Debian's" || echo "$deb")"
	# the source through a link below /dev (as /dev/disk/by-uuid/...)
	umount /run/bt && ln -s "${BTDEV#/dev/}" /dev/bt-link && python3 "$HELPER" mount /dev/bt-link /run/bt btrfs
	add forkless "$BTDEV"
	check "block-mounts/btrfs: mounted through a link in /dev ($(awk '$5 == "/run/bt" { for (i = 7; $i != "-"; i++); print $(i + 2) }' /proc/self/mountinfo))" \
		"1 busy $(local_busy "$BTDEV")" "$GOT"
	umount /run/bt
	add forkless "$BTDEV" r
	check "block-mounts/btrfs: unmounted, connected" "0 connected" "$GOT"
else
	skip block-mounts/btrfs "no btrfs here (btrfs-progs, the kernel's btrfs)"
fi

# A tmpfs on a mount point whose /proc/mounts line ("tmpfs MOUNT-POINT
# ...") has /dev/loopN, the unmounted disk, from byte 8191 on: a reader
# with an 8 KiB line buffer dropped the first 8191 bytes and read the rest
# as a mount of the disk.
mkdir -p /run/tail && mount -t tmpfs tmpfs /run/tail
python3 "$HELPER" deep /run/tail $((8191 - 6 + ${#PHYS})) "${PHYS#/}" tmpfs tmpfs ||
	fail block-mounts/crafted-tail/setup "cannot mount the crafted mount point"
tail_at=$(grep -F "tmpfs /run/tail/d" /proc/mounts | cut -c 8192- | cut -d' ' -f1)
check "block-mounts/crafted-tail: the line's bytes from 8192 on are $PHYS" "$PHYS" "$tail_at"
add debian "$PHYS"
info "block-mounts/crafted-tail: Debian's script: $GOT"
add forkless "$PHYS"
check "block-mounts/crafted-tail: an unmounted disk is not busy" "0 connected" "$GOT"
umount -l /run/tail

# ---- 7: sources users choose --------------------------------------------

# a tmpfs whose source names the disk (mount(2) takes any string)
mkdir -p /run/tsrc
python3 "$HELPER" mount "$PHYS" /run/tsrc tmpfs
add debian "$PHYS"
info "block-mounts/tmpfs-source: Debian's script: $GOT"
add forkless "$PHYS"
check "block-mounts/tmpfs-source: a tmpfs named like the disk does not make it busy" "0 connected" "$GOT"
umount /run/tsrc

# A real FUSE mount (/dev/fuse; the daemon is mount-helper.py, which never
# answers): any user may make one with fusermount, fsname= its source.
mknod -m 666 /dev/fuse c 10 229
fuse_mount() {   # fuse_mount SOURCE TARGET: FUSE_PID
	mkdir -p "$2"; rm -f "$HP/fuse-ready"
	python3 "$HELPER" fuse "$1" "$2" "$HP/fuse-ready" &
	FUSE_PID=$!
	FUSE_PIDS="$FUSE_PIDS $FUSE_PID"
	for _ in $(seq 50); do [ -e "$HP/fuse-ready" ] && return 0; sleep 0.05; done
	return 1
}
if fuse_mount "$PHYS" /run/fsrc; then
	add debian "$PHYS"
	info "block-mounts/fuse-source: Debian's script: $GOT"
	add forkless "$PHYS"
	check "block-mounts/fuse-source: a FUSE mount with fsname=$PHYS does not make it busy" "0 connected" "$GOT"
	kill "$FUSE_PID"; wait "$FUSE_PID"; umount -l /run/fsrc

	# a mount whose source is a name inside a FUSE mount that never answers
	fuse_mount fuse-hung /run/hung || fail block-mounts/hung-source/setup "no second FUSE mount"
	hung=$FUSE_PID
	mkdir -p /run/hsrc
	python3 "$HELPER" mount /run/hung/dev/sdb /run/hsrc tmpfs
	# each add in the background, given 10 s ($HP/hung.HOW: its GOT, or
	# how it hung)
	for how in debian forkless; do
		( add "$how" "$PHYS"; echo "$GOT" >"$HP/hung.tmp"; mv "$HP/hung.tmp" "$HP/hung.$how" ) &
		caller=$!
		for _ in $(seq 100); do [ -e "$HP/hung.$how" ] && break; sleep 0.1; done
		if [ ! -e "$HP/hung.$how" ]; then
			# let the call go: the daemon's end aborts its requests
			kill "$hung"; wait "$caller"
			echo "hung for 10 s, then: $(cat "$HP/hung.$how")" >"$HP/hung.$how"
			umount -l /run/hung
			fuse_mount fuse-hung /run/hung || fail block-mounts/hung-source/setup "no FUSE mount again"
			hung=$FUSE_PID
		fi
		wait "$caller"
	done
	info "block-mounts/hung-source: Debian's script: $(cat "$HP/hung.debian")"
	check "block-mounts/hung-source: a source inside a FUSE mount that never answers does not hang the add" \
		"0 connected" "$(cat "$HP/hung.forkless")"
	umount /run/hsrc
else
	skip block-mounts/fuse-source "no FUSE mount here (/dev/fuse, the fuse module)"
fi
kill $FUSE_PIDS 2>/dev/null
exit 0
