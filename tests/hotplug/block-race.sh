#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/hotplug/block-race.sh - block against a local user who can write a
# directory on a disk's path, and remove against a stale node: a symlink
# swapped in while the add waits for the lock changes nothing (file: the
# loop device gets the file the path named when the call began; phy:
# physical-device is the device checked); a remove detaches only the loop
# device its add attached, the file it recorded (forkless-backing)
# wherever that file's name is now (docs/hotplug.md).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-hotplug.sh"
hp_prepare block-race || exit 0
hp_enter "$@"
hp_root || { fail block-race/setup "cannot build the test dom0"; exit 0; }

BE=backend/vbd/1/51712
BLK_ENV=(script=/etc/xen/scripts/block XENBUS_TYPE=vbd XENBUS_PATH=$BE
	XENBUS_BASE_PATH=backend)
# the user's directory on the image's path, the image in it; a root-only
# file and a raw disk the user wants a guest to get
mkdir -m 1777 "$HP/user"
IMG=$HP/user/disk.img
truncate -s 8M "$IMG"
ln "$IMG" "$HP/orig.img"   # (the image's inode, once its name is taken)
truncate -s 8M "$HP/secret.img" "$HP/phys.img" "$HP/raw.img" "$HP/other.img"
chmod 600 "$HP/secret.img"
PHYS=$(losetup -f --show "$HP/phys.img") && RAW=$(losetup -f --show "$HP/raw.img") ||
	{ fail block-race/setup "no loop devices for the phy: disks"; exit 0; }
mkdir -m 700 /var/run/xen-hotplug
hp_use forkless block

# the keys libxl writes for disk = ['PARAMS,xvda,MODE'] before it runs block
br_reset() {   # br_reset PARAMS MODE
	losetup -l -n -O NAME,BACK-FILE | awk -v a="$HP/phys.img" -v b="$HP/raw.img" \
		'$2 != a && $2 != b { print $1 }' | while read -r l; do
		losetup -l -n -O BACK-FILE "$l" | grep -qF "$HP/" && losetup -d "$l"; done
	xs rm /local/domain 2>/dev/null
	local be=$BE
	xs write /local/domain/1/vm /vm/00000000-0000-0000-0000-000000000001 \
		$be/frontend /local/domain/1/device/vbd/51712 $be/frontend-id 1 \
		$be/online 1 $be/state 2 $be/dev xvda $be/type phy $be/mode "$2" \
		$be/params "$1" $be/script /etc/xen/scripts/block $be/hotplug-status ""
	rm -f "$IMG" "$HP/user/phy" "$HP/user/moved.img"
	ln "$HP/orig.img" "$IMG"
}
# add_while_swapped TARGET PATH: block add while a shell holds the lock
# (locking.sh's claim_lock) for 1.5 s, replacing PATH by a symlink to
# TARGET (rename(2): atomic) before it lets go
add_while_swapped() {
	local holder
	rm -f "$HP/held"
	( . /etc/xen/scripts/locking.sh; claim_lock block; touch "$HP/held"; sleep 1.5
	  ln -s "$1" "$2.new"; mv -T "$2.new" "$2"; release_lock block ) &
	holder=$!
	for _ in $(seq 100); do [ -e "$HP/held" ] && break; sleep 0.05; done
	hp_call "${BLK_ENV[@]}" -- block add
	wait "$holder"
}
# the inode of the file behind node (the loop device's backing file)
node_ino() {
	local n
	n=$(xs read $BE/node 2>/dev/null) && losetup -l -n -O BACK-INO "$n" | tr -d ' '
}

# NODE when it is bound to a file still (losetup -j finds a device by its
# backing file's name: not once the file is moved)
bound() { losetup -l -n -O NAME | sed 's/ *$//' | grep -xF "$1"; }

# ---- file: a symlink swapped in during the lock wait --------------------
# The call resolved the path (readlink -f, as the script) before the
# lock; a call that opens it by name after the wait attaches the
# root-only file the symlink points to (and ran its checks on the image).
br_reset "$IMG" w
add_while_swapped "$HP/secret.img" "$IMG"
check "block-race/file-swap: the guest gets the image, not the swapped-in file" \
	"0 connected $(stat -c %i "$HP/orig.img")" "$RC $(xs read $BE/hotplug-status) $(node_ino)"
check "block-race/file-swap: the root-only file on no loop device" "" \
	"$(losetup -j "$HP/secret.img" -n -O NAME)"
check "block-race/file-swap: physical-device is node's" \
	"$(n=$(xs read $BE/node) && stat -L -c %t:%T "$n")" "$(xs read $BE/physical-device)"

# the same read-only (r opens the file read-only)
br_reset "$IMG" r
add_while_swapped "$HP/secret.img" "$IMG"
check "block-race/file-swap-r: the guest gets the image" \
	"0 $(stat -c %i "$HP/orig.img") 1" \
	"$RC $(node_ino) $(n=$(xs read $BE/node) && losetup -l -n -O RO "$n" | tr -d ' ')"

# A symlink in the configured path (an admin's) is followed, once: the
# loop device records the file's own name, as losetup after readlink -f.
br_reset "$HP/link.img" w
ln -sfn "$IMG" "$HP/link.img"
hp_call "${BLK_ENV[@]}" -- block add
check "block-race/file-symlink: a configured symlink still works" \
	"0 connected $(stat -c %i "$HP/orig.img") $IMG" \
	"$RC $(xs read $BE/hotplug-status) $(node_ino) $(losetup -l -n -O BACK-FILE "$(xs read $BE/node)" | sed 's/ *$//')"
rm -f "$HP/link.img"

# ---- phy: a symlink swapped in during the lock wait ---------------------
# A device node in the user's directory (as an admin's /srv/disks/NAME);
# the call checks its device for sharing: the one published, not what the
# name points to after the wait (the raw disk).
br_reset "$HP/user/phy" w
read -r ma mi < <(stat -c '%t %T' "$PHYS")
mknod "$HP/user/phy" b $((16#$ma)) $((16#$mi))
add_while_swapped "$RAW" "$HP/user/phy"
check "block-race/phy-swap: physical-device is the device checked, not the raw disk" \
	"0 connected $(stat -L -c %t:%T "$PHYS")" \
	"$RC $(xs read $BE/hotplug-status) $(xs read $BE/physical-device)"

# ---- remove: only the loop device the add attached ----------------------
# node stale: its device detached behind the call's back and attached
# since to another guest's file. The script (and forkless before) detach
# it; now refused, the other guest's device left attached.
br_reset "$IMG" w
hp_call "${BLK_ENV[@]}" -- block add
node=$(xs read $BE/node)
losetup -d "$node" && losetup "$node" "$HP/other.img"
HP_STRACE=$HP/stale.strace hp_call "${BLK_ENV[@]}" -- block remove
check "block-race/remove-stale-node: the other file's device left attached" \
	"1 error $node" "$RC $(xs read $BE/hotplug-status) $(losetup -j "$HP/other.img" -n -O NAME)"
check "block-race/remove-stale-node: hotplug-error" \
	"$node is not the loop device of $BE (forkless-backing $(xs read $BE/forkless-backing), physical-device $(xs read $BE/physical-device)): not detached" \
	"$(xs read $BE/hotplug-error)"
losetup -d "$node"

# node naming another guest's loop device of the same image (w!: two
# devices on one file): physical-device tells them apart
br_reset "$IMG" 'w!'
hp_call "${BLK_ENV[@]}" -- block add
mine=$(xs read $BE/node)
theirs=$(losetup -f --show "$IMG")
xs write $BE/node "$theirs"
hp_call "${BLK_ENV[@]}" -- block remove
check "block-race/remove-foreign-node: neither device detached" \
	"1 $(printf '%s\n' "$mine" "$theirs" | sort | tr '\n' ' ')" \
	"$RC $(losetup -j "$HP/orig.img" -n -O NAME | sort | tr '\n' ' ')"

# The add records the file it attached: MAJ:MIN:INO, as losetup shows
# the loop device's backing file
br_reset "$IMG" w
hp_call "${BLK_ENV[@]}" -- block add
check "block-race/add-records-backing: forkless-backing is node's backing file" \
	"$(losetup -l -n -O BACK-MAJ:MIN,BACK-INO "$(xs read $BE/node)" | awk '{ print $1 ":" $2 }')" \
	"$(xs read $BE/forkless-backing)"

# params naming another file now: the device the add attached is still
# the one to detach (before the record: refused, the device leaked)
xs write $BE/params "$HP/other.img"
hp_call "${BLK_ENV[@]}" -- block remove
check "block-race/remove-other-params: the add's device detached" \
	"0 " "$RC $(losetup -j "$HP/orig.img" -n -O NAME)"

# The image moved after the add: params names nothing. Debian's script
# (params not a file) and forkless before detached nothing: the loop
# device leaked. The recorded file is node's backing: detached.
br_reset "$IMG" w
hp_call "${BLK_ENV[@]}" -- block add
node=$(xs read $BE/node)
mv "$IMG" "$HP/user/moved.img"
hp_call "${BLK_ENV[@]}" -- block remove
check "block-race/remove-moved: the add's device detached" \
	"0 " "$RC $(bound "$node")"

# The image deleted after the add (its last name gone): detached too
br_reset "$HP/user/gone.img" w
truncate -s 8M "$HP/user/gone.img"
hp_call "${BLK_ENV[@]}" -- block add
node=$(xs read $BE/node)
rm "$HP/user/gone.img"
hp_call "${BLK_ENV[@]}" -- block remove
check "block-race/remove-deleted: the add's device detached" \
	"0 " "$RC $(bound "$node")"

# The image replaced at its path, and node's device detached and attached
# since to the new file (the same MM:mm, another backing file): params'
# file is node's backing now, but not the file the add attached. Before:
# detached; now refused.
br_reset "$IMG" w
hp_call "${BLK_ENV[@]}" -- block add
node=$(xs read $BE/node)
rm "$IMG" && truncate -s 8M "$IMG"
losetup -d "$node" && losetup "$node" "$IMG"
hp_call "${BLK_ENV[@]}" -- block remove
check "block-race/remove-replaced: the new file's device left attached" \
	"1 error $node" "$RC $(xs read $BE/hotplug-status) $(losetup -j "$IMG" -n -O NAME)"
check "block-race/remove-replaced: hotplug-error" \
	"$node is not the loop device of $BE (forkless-backing $(xs read $BE/forkless-backing), physical-device $(xs read $BE/physical-device)): not detached" \
	"$(xs read $BE/hotplug-error)"
losetup -d "$node"

# The image moved, node's device re-attached to another file: before,
# params naming nothing, exit 0 and nothing said; now refused, said
br_reset "$IMG" w
hp_call "${BLK_ENV[@]}" -- block add
node=$(xs read $BE/node)
mv "$IMG" "$HP/user/moved.img"
losetup -d "$node" && losetup "$node" "$HP/other.img"
hp_call "${BLK_ENV[@]}" -- block remove
check "block-race/remove-moved-stale: the other file's device left attached" \
	"1 error $node" "$RC $(xs read $BE/hotplug-status) $(losetup -j "$HP/other.img" -n -O NAME)"
losetup -d "$node"

# A record that is not MAJ:MIN:INO detaches nothing
br_reset "$IMG" w
hp_call "${BLK_ENV[@]}" -- block add
node=$(xs read $BE/node)
xs write $BE/forkless-backing "$(xs read $BE/forkless-backing)x"
hp_call "${BLK_ENV[@]}" -- block remove
check "block-race/remove-bad-record: nothing detached" \
	"1 $node forkless-backing $(xs read $BE/forkless-backing) is not MAJ:MIN:INO: not detached" \
	"$RC $(losetup -j "$HP/orig.img" -n -O NAME) $(xs read $BE/hotplug-error)"

# An add without the record (Debian's script, an older forkless): the
# rule before it, params' current file. params unchanged: detached.
br_reset "$IMG" w
hp_call "${BLK_ENV[@]}" -- block add
xs rm $BE/forkless-backing
hp_call "${BLK_ENV[@]}" -- block remove
check "block-race/remove-no-record: the add's device detached" \
	"0 " "$RC $(losetup -j "$HP/orig.img" -n -O NAME)"
# params naming another file now: node is not its loop device, refused
br_reset "$IMG" w
hp_call "${BLK_ENV[@]}" -- block add
node=$(xs read $BE/node)
xs rm $BE/forkless-backing
xs write $BE/params "$HP/other.img"
hp_call "${BLK_ENV[@]}" -- block remove
check "block-race/remove-no-record-other-params: the image's device left attached" \
	"1 $node" "$RC $(losetup -j "$HP/orig.img" -n -O NAME)"
# the image moved: params names nothing, nothing detached (as Debian's)
br_reset "$IMG" w
hp_call "${BLK_ENV[@]}" -- block add
node=$(xs read $BE/node)
xs rm $BE/forkless-backing
mv "$IMG" "$HP/user/moved.img"
hp_call "${BLK_ENV[@]}" -- block remove
check "block-race/remove-no-record-moved: nothing detached, as Debian's" \
	"0 $node" "$RC $(bound "$node")"

# the add's own device is detached, as before
br_reset "$IMG" w
hp_call "${BLK_ENV[@]}" -- block add
HP_STRACE=$HP/remove.strace hp_call "${BLK_ENV[@]}" -- block remove
check "block-race/remove: the add's device detached" "0 " \
	"$RC $(losetup -j "$HP/orig.img" -n -O NAME)"
exit 0
