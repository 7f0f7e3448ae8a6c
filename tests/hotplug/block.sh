#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/hotplug/block.sh - forkless's block against Debian's script
# (bash, real losetup, stat, readlink, xenstore-read/write/list over the
# stand-in xenstored's socket), with real loop devices: file: and phy:
# disks added and removed, every error path, the sharing checks; end
# states compared (exit status, every xenstore key, each loop device's
# backing file and read-only flag, the syslog lines). Then what only
# forkless does: one process per call, the lock shared with the scripts,
# the fallback.
# Every scenario runs against Debian 13's scripts (trixie, Debian's
# stable; checks named trixie/...), a subset against Debian 12's (the
# end of this file; bookworm/...): the two releases' scripts differ
# only in hotplugpath.sh's /usr/lib/xen-4.XX paths, which put a PATH
# directory before /sbin:/bin holding none of the commands the scripts
# run (docs/hotplug.md), so the rest would be the same code compared
# twice, at the cost of a minute or more of `tests/run hotplug`.
HP_RELEASES="trixie bookworm"
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-hotplug.sh"
hp_prepare block || exit 0
hp_enter "$@"
hp_root || { fail block/setup "cannot build the test dom0"; exit 0; }

HP_FAMILY=block
BE=backend/vbd/1/51712
BLK_ENV=(script=/etc/xen/scripts/block XENBUS_TYPE=vbd XENBUS_PATH=$BE
	XENBUS_BASE_PATH=backend)
IMG=$HP/disk.img
truncate -s 8M "$IMG"
truncate -s 8M "$HP/phys.img"
truncate -s 8M "$HP/other.img"

# The loop devices this test made, but the one standing in for a disk.
loops_reset() {
	losetup -l -n -O NAME,BACK-FILE | awk -v d="$HP/" -v keep="$HP/phys.img" \
		'index($2, d) == 1 && $2 != keep { print $1 }' | xargs -r -n1 losetup -d
}
PHYS=$(losetup -f --show "$HP/phys.img") || { fail block/setup "no loop device for the phy: disk"; exit 0; }
PHYS_MM=$(stat -L -c %t:%T "$PHYS")
# The lock's directory as forkless leaves it (0700: tests/hotplug/lock.sh),
# so each call here costs what it costs from the second call on.
mkdir -m 700 /var/run/xen-hotplug

# the keys libxl writes for disk = ['file:IMG,xvda,w'] (backend phy,
# script block) before it runs the script
vbd_keys() {   # vbd_keys DOMID DEVID PARAMS MODE
	local be=backend/vbd/$1/$2
	xs write /local/domain/"$1"/vm /vm/00000000-0000-0000-0000-00000000000"$1" \
		/local/domain/"$1"/device/vbd/"$2"/backend /local/domain/0/$be \
		/local/domain/"$1"/device/vbd/"$2"/state 1 \
		$be/frontend /local/domain/"$1"/device/vbd/"$2" $be/frontend-id "$1" \
		$be/online 1 $be/removable 0 $be/bootable 1 $be/state 2 $be/dev xvda \
		$be/type phy $be/mode "$4" $be/device-type disk $be/params "$3" \
		$be/script /etc/xen/scripts/block $be/hotplug-status ""
}
hp_reset() {
	loops_reset
	# a lock file a fatal exit under the lock left (Debian's is 0644:
	# forkless replaces it, and logs so: tests/hotplug/lock.sh)
	rm -f /var/run/xen-hotplug/block
	xs rm /local/domain 2>/dev/null
	chmod 644 "$IMG"
	vbd_keys 1 51712 "$IMG" w
}
# forkless's add records the file it attached (forkless-backing, for the
# remove: docs/hotplug.md), Debian's script nothing: the key is left out
# of the comparison once it is the image's MAJ:MIN:INO (any other value
# stays, and differs)
state() {
	{
		echo "rc $RC"
		grep -v -e '^/=' -e '^/local=' -e '^/local/domain=' -e '^/local/domain/0=' \
			-e "^/local/domain/0/$BE/forkless-backing=$(stat -c %Hd:%Ld:%i "$IMG")\$" "$HP/xs/tree"
		# this test's loop devices (its images are in $HP): another test's
		# beside it (the ASan run's, a Debian 13 root's) are not its state,
		# nor are the column widths losetup pads to for theirs
		losetup -l -n -O NAME,BACK-FILE,RO | awk -v d="$HP/" 'index($2, d) == 1 { print $1, $2, $3 }' |
			sed "s|$HP/|HP/|"
		hp_syslog
	} | loops_named
}
# Loop devices are the machine's: another user may take loopN between the
# two runs of a scenario, so the ones the scripts attach are compared as
# loopX / 7:X (the test's own phy: disks keep their names); that node and
# physical-device agree is checked on forkless's side.
loops_named() {
	local keep
	keep=$(losetup -l -n -O NAME,BACK-FILE | awk -v a="$HP/phys.img" -v b="$HP/fs.img" \
		'$2 == a || $2 == b { sub("/dev/loop", "", $1); printf "%s ", $1 }')
	awk -v keep="$keep" '
	BEGIN { n = split(keep, k, " "); for (i = 1; i <= n; i++) { kept["/dev/loop" k[i]] = 1; kept[sprintf("7:%x", k[i])] = 1 } }
	{
		out = ""; s = $0
		while (match(s, /\/dev\/loop[0-9]+|7:[0-9a-f]+/)) {
			t = substr(s, RSTART, RLENGTH)
			if (!(t in kept)) t = (t ~ /^7:/) ? "7:X" : "/dev/loopX"
			out = out substr(s, 1, RSTART - 1) t; s = substr(s, RSTART + RLENGTH)
		}
		print out s
	}'
}

scenario file-add-w : "${BLK_ENV[@]}" -- block add
# block evaluates no NAME=VALUE argument; findCommand takes the first word
scenario file-add-w-args : "${BLK_ENV[@]}" -- block add type_if=vbd
# Requests and round trips to xenstored: params, mode, physical-device, frontend-id and
# state at once (state again under the lock only when the call had to wait for it:
# block/lock below), then the script's four writes: node, physical-device and
# physical-device-path together, hotplug-status after them. The frontend's vm only when the
# sharing check finds the device in another domain's backend (block/phy-same-vm below).
check "block/add: xenstore requests (Debian's: $(cat "$HP/file-add-w.debian.xsreq"))" 10 "$(cat "$HP/file-add-w.forkless.xsreq")"
check "block/add: xenstore round trips" 3 "$(hp_xs_trips "$HP/file-add-w.forkless.strace")"
# the syslog lines stamped once, as they are sent; no geteuid (the kernel's AT_EUID);
# the lock's directory made only when missing, its flock once when free; 11 check that
# the files block stands in for are Debian's (the stamp's open, fstat, read, close, a stat
# of each of the 7 files)
if [ -z "${FORKLESS_SANITIZED:-}" ]; then   # (its runtime makes syscalls of its own)
	check "block/add: at most 56 system calls, and the loop devices' walk (Debian's: $(hp_procs "$HP/file-add-w.debian.strace") processes)" \
		yes "$(hp_syscalls_within "$HP/file-add-w.forkless.strace" 56)"
fi
has file-add-w "/local/domain/0/$BE/node=/dev/loop"
has file-add-w "/local/domain/0/$BE/hotplug-status=connected"
grep -q "HP/disk.img *0$" "$HP/file-add-w.forkless" || fail "block/file-add-w: read-write loop" "$(cat "$HP/file-add-w.forkless")"
node=$(xs read $BE/node)
check "block/file-add-w: physical-device is node's, path is node" "$(stat -L -c %t:%T "$node") $node $node" \
	"$(xs read $BE/physical-device) $(xs read $BE/physical-device-path) $(losetup -j "$IMG" -n -O NAME)"

s_ro() { xs write $BE/mode r; }
scenario file-add-r s_ro "${BLK_ENV[@]}" -- block add
grep -q "HP/disk.img *1$" "$HP/file-add-r.forkless" || fail "block/file-add-r: read-only loop" "$(cat "$HP/file-add-r.forkless")"

s_ro_file_rw_mode() { chmod 444 "$IMG"; }
scenario read-only-file s_ro_file_rw_mode "${BLK_ENV[@]}" -- block add
has read-only-file "/local/domain/0/$BE/hotplug-status=busy"
has read-only-file "/local/domain/0/$BE/hotplug-error=File $IMG is read-only, and so I will not\\nmount it read-write in a guest domain."

s_ro_file_excl() { chmod 444 "$IMG"; xs write $BE/mode 'w!'; }
scenario read-only-file-w! s_ro_file_excl "${BLK_ENV[@]}" -- block add

s_state() { xs write $BE/state 4; }
scenario state-not-2 s_state "${BLK_ENV[@]}" -- block add
has state-not-2 "/local/domain/0/$BE/hotplug-error=Path closed or removed during hotplug add: $BE state: 4"

s_nostate() { xs rm $BE/state; }
scenario state-missing s_nostate "${BLK_ENV[@]}" -- block add

s_twice() { xs write $BE/physical-device 7:99; }
scenario add-twice s_twice "${BLK_ENV[@]}" -- block add
has add-twice "rc 0"

s_bad_pd() { xs write $BE/physical-device ""; }
scenario physical-device-empty s_bad_pd "${BLK_ENV[@]}" -- block add

s_noparams() { xs rm $BE/params; }
scenario no-params s_noparams "${BLK_ENV[@]}" -- block add
has no-params "<27>TIME root: /etc/xen/scripts/block: xenstore-read $BE/params failed."
has no-params "/local/domain/0/$BE/hotplug-error=/etc/xen/scripts/block failed; error detected."

s_nofe() { xs rm $BE/frontend-id; }
scenario no-frontend-id s_nofe "${BLK_ENV[@]}" -- block add

s_attached() { losetup -f "$IMG"; xs write $BE/node "$(losetup -j "$IMG" -O NAME -n)"; }
scenario file-remove s_attached "${BLK_ENV[@]}" -- block remove
# params, mode, node, physical-device and forkless-backing (the device and file the add
# attached: tests/hotplug/block-race.sh)
check "block/remove: xenstore requests (Debian's: $(cat "$HP/file-remove.debian.xsreq"))" 5 "$(cat "$HP/file-remove.forkless.xsreq")"
check "block/remove: xenstore round trips" 1 "$(hp_xs_trips "$HP/file-remove.forkless.strace")"
if [ -z "${FORKLESS_SANITIZED:-}" ]; then   # (its runtime makes syscalls of its own)
	# (node's fstat and LOOP_GET_STATUS64: the device the add attached)
	check "block/remove: at most 41 system calls (Debian's: $(hp_procs "$HP/file-remove.debian.strace") processes)" \
		yes "$(hp_syscalls_within "$HP/file-remove.forkless.strace" 41)"
fi
# The reads are sent first, for xenstored to answer while the call logs and looks for hooks
# (in the real dom0 xenstored is busy tearing the domain down: its answers are most of the
# call's time)
for sc in file-remove file-add-w; do
	check "block/${sc#file-}: reads sent before the syslog socket and the hook scan" yes \
		"$(hp_xs_sent_before "$HP/$sc.forkless.strace" 'sun_path="/dev/log"|openat\(AT_FDCWD, "/etc/xen/scripts"')"
done
has file-remove "rc 0"
grep -q "HP/disk.img" "$HP/file-remove.forkless" && fail "block/file-remove: detached" "$(cat "$HP/file-remove.forkless")"

scenario remove-without-node : "${BLK_ENV[@]}" -- block remove
has remove-without-node "<27>TIME root: /etc/xen/scripts/block: xenstore-read $BE/node failed."

# A remove after an add by the same implementation.
s_added() { hp_call "${BLK_ENV[@]}" -- block add; }
scenario add-then-remove s_added "${BLK_ENV[@]}" -- block remove
has add-then-remove "rc 0"
grep -q "HP/disk.img" "$HP/add-then-remove.forkless" && fail "block/add-then-remove: detached" "$(cat "$HP/add-then-remove.forkless")"
# The detach takes the kernel's autoclear path (loopdev.h): node opened a
# second time for LOOP_CLR_FD, both closed, the device free when the call ends.
st=$HP/add-then-remove.forkless.strace
node_open='openat(AT_FDCWD, "/dev/loop[0-9]*", O_RDONLY[|A-Z_]*) = [0-9]'
clr=$(grep -n 'ioctl([0-9]*, LOOP_CLR_FD' "$st" | cut -d: -f1)
node_opens=$(grep -c "$node_open" "$st")
opens_before=$(head -n "${clr:-0}" "$st" | grep -c "$node_open")
check "block/remove: node opened twice, both before LOOP_CLR_FD" "2 2" "$node_opens $opens_before"

s_badnode() { xs write $BE/node /dev/loop250; }
FIXUP='/block: remove XENBUS_PATH/a <27>TIME root: /etc/xen/scripts/block: losetup -d /dev/loopX: No such device or address' \
scenario remove-bad-node s_badnode "${BLK_ENV[@]}" -- block remove
has remove-bad-node "/local/domain/0/$BE/hotplug-error=/etc/xen/scripts/block failed; error detected."

scenario invalid-command : "${BLK_ENV[@]}" -- block change

# phy: the stand-in disk is a real loop device
s_phy() { xs write $BE/params "$PHYS"; }
scenario phy-add s_phy "${BLK_ENV[@]}" -- block add
has phy-add "/local/domain/0/$BE/physical-device=$PHYS_MM"
has phy-add "/local/domain/0/$BE/physical-device-path=$PHYS"

s_phy_link() { ln -sf "$PHYS" /dev/xen-test-disk; xs write $BE/params /dev/xen-test-disk; }
scenario phy-symlink s_phy_link "${BLK_ENV[@]}" -- block add
has phy-symlink "/local/domain/0/$BE/physical-device-path=$PHYS"

scenario phy-remove s_phy "${BLK_ENV[@]}" -- block remove

# another guest (domain 2, another VM) has the disk
s_shared_w() { s_phy; vbd_keys 2 51712 "$PHYS" w; xs write backend/vbd/2/51712/physical-device "$PHYS_MM"; }
scenario phy-used-by-guest s_shared_w "${BLK_ENV[@]}" -- block add
has phy-used-by-guest "/local/domain/0/$BE/hotplug-status=busy"
has phy-used-by-guest "/local/domain/0/$BE/hotplug-error=Device $PHYS is mounted in a guest domain,\\nand so cannot be mounted now."

s_shared_r_w() { s_shared_w; xs write $BE/mode r; }
scenario phy-r-while-guest-w s_shared_r_w "${BLK_ENV[@]}" -- block add
has phy-r-while-guest-w "/local/domain/0/$BE/hotplug-error=Device $PHYS is mounted read-write in a guest domain,\\nand so cannot be mounted read-only now."

s_shared_r_r() { s_shared_r_w; xs write backend/vbd/2/51712/mode r; }
scenario phy-r-while-guest-r s_shared_r_r "${BLK_ENV[@]}" -- block add
has phy-r-while-guest-r "/local/domain/0/$BE/hotplug-status=connected"

s_shared_excl() { s_shared_w; xs write $BE/mode 'w!'; }
scenario phy-w!-skips-the-check s_shared_excl "${BLK_ENV[@]}" -- block add
has phy-w!-skips-the-check "/local/domain/0/$BE/hotplug-status=connected"

s_same_vm() { s_shared_w; xs write /local/domain/2/vm /vm/00000000-0000-0000-0000-000000000001; }
scenario phy-same-vm s_same_vm "${BLK_ENV[@]}" -- block add
has phy-same-vm "/local/domain/0/$BE/hotplug-status=connected"

s_other_pd() { s_phy; vbd_keys 2 51712 "$HP/other.img" w; xs write backend/vbd/2/51712/physical-device "not:a:device"; vbd_keys 3 768 x w; }
scenario phy-other-disks s_other_pd "${BLK_ENV[@]}" -- block add
has phy-other-disks "/local/domain/0/$BE/hotplug-status=connected"

if command -v mkfs.ext2 >/dev/null && mkfs.ext2 -q -F "$HP/fs.img" 4M >/dev/null 2>&1; then
	FSDEV=$(losetup -f --show "$HP/fs.img")
	mkdir -p "$HP/mnt" && mount "$FSDEV" "$HP/mnt"
	s_mounted() { xs write $BE/params "$FSDEV"; }
	scenario phy-mounted-in-dom0 s_mounted "${BLK_ENV[@]}" -- block add
	has phy-mounted-in-dom0 "/local/domain/0/$BE/hotplug-error=Device $FSDEV is mounted in the privileged domain,\\nand so cannot be mounted by a guest."
	s_mounted_r() { s_mounted; xs write $BE/mode r; mount -o remount,ro "$HP/mnt"; }
	scenario phy-r-mounted-ro-in-dom0 s_mounted_r "${BLK_ENV[@]}" -- block add
	has phy-r-mounted-ro-in-dom0 "/local/domain/0/$BE/hotplug-status=connected"
	umount "$HP/mnt"
else
	skip block/phy-mounted-in-dom0 "mkfs.ext2 not installed (e2fsprogs)"
fi

# A device that is gone by the time the script runs: params neither a
# block device nor a file. Debian's script writes connected, then fails
# as block-phy does not exist; forkless hands it over, so the same.
s_vanished() { xs write $BE/params /dev/xen-test-gone; }
# (the log names $0: the diverted script's path)
FIXUP='/block: add XENBUS_PATH/a <29>TIME root: /etc/xen/scripts/block: handing over to /etc/xen/scripts/block.distrib: params is neither a block device nor a file\n<31>TIME root: /etc/xen/scripts/block.distrib: add XENBUS_PATH=backend/vbd/1/51712
s|/etc/xen/scripts/block: Writing|/etc/xen/scripts/block.distrib: Writing|' \
WANT_PROCS=- scenario vanished-device s_vanished "${BLK_ENV[@]}" -- block add
has vanished-device "/local/domain/0/$BE/hotplug-status=connected"
has vanished-device "rc 1"
scenario vanished-device-remove s_vanished "${BLK_ENV[@]}" -- block remove

# ---- deliberate differences --------------------------------------------

# The same file on a loop device a guest (another VM) uses: Debian's
# check_file_sharing compares stat's hex %D with losetup's decimal device
# number, so it never matches and a second loop device is attached
# (rc 0); forkless compares the numbers and refuses with Debian's message.
s_file_shared() {
	local l
	l=$(losetup -f --show "$IMG")
	vbd_keys 2 51712 "$IMG" w
	xs write backend/vbd/2/51712/physical-device "$(stat -L -c %t:%T "$l")" backend/vbd/2/51712/node "$l"
	echo "$l" >"$HP/shared-loop"
}
for how in debian forkless; do
	hp_reset; : >"$HP/syslog"; hp_use $how block; s_file_shared
	hp_call "${BLK_ENV[@]}" -- block add
	eval "${how}_rc=\$RC ${how}_status=\$(xs read $BE/hotplug-status) ${how}_loops=\$(losetup -j \"\$IMG\" | wc -l)"
done
check "block/file-in-use: Debian's script attaches it again" "0 connected 2" "$debian_rc $debian_status $debian_loops"
check "block/file-in-use: forkless refuses" "1 busy 1" "$forkless_rc $forkless_status $forkless_loops"
# (xenstore-read shows a newline as \n)
check "block/file-in-use: Debian's message" "File $IMG is loopback-mounted through $(stat -L -c %t:%T "$(cat "$HP/shared-loop")"),\\nwhich is mounted in a guest domain,\\nand so cannot be mounted now." "$(xs read $BE/hotplug-error)"
# read-only, with the other guest read-only too: allowed
hp_reset; s_file_shared; xs write backend/vbd/2/51712/mode r $BE/mode r
hp_call "${BLK_ENV[@]}" -- block add
check "block/file-in-use-r-r: allowed" "0 connected" "$RC $(xs read $BE/hotplug-status)"

# ---- forkless only -------------------------------------------------------

# The block lock: a shell script holding it (locking.sh's claim_lock)
# keeps forkless waiting until it releases; forkless takes it the same
# way, so the script waits for forkless too.
hp_reset; hp_use forkless block
( . /etc/xen/scripts/locking.sh; claim_lock block; touch "$HP/held"; sleep 1.5
  cp "$HP/syslog" "$HP/syslog-held"; date +%s.%N >"$HP/released"; release_lock block ) &
holder=$!
for _ in $(seq 50); do [ -e "$HP/held" ] && break; sleep 0.05; done
hp_call "${BLK_ENV[@]}" -- block add
date +%s.%N >"$HP/forkless-done"
wait "$holder"
check "block/lock: forkless waited for the shell's lock" "0 yes" \
	"$RC $(awk -v a="$(cat "$HP/released")" -v b="$(cat "$HP/forkless-done")" 'BEGIN { print (b >= a) ? "yes" : "no" }')"
check "block/lock: the lock file is gone after" "" "$(ls /var/run/xen-hotplug/)"
# forkless holds its syslog lines until the call ends, but not while it waits for a lock
grep -q "/etc/xen/scripts/block: add XENBUS_PATH=$BE\$" "$HP/syslog-held" && pass "block/lock: logged before waiting" ||
	fail "block/lock: logged before waiting" "$(cat "$HP/syslog-held")"

# The device torn down while the add waits for the lock: the script reads state once it
# holds the lock; forkless, which read state with its first keys, reads it again after a
# wait, and both refuse (a call that used its early read would attach a loop device).
lock_race() { # debian|forkless
	local holder
	hp_reset; hp_use "$1" block
	( . /etc/xen/scripts/locking.sh; claim_lock block; touch "$HP/held-race"; sleep 1
	  xs write $BE/state 4; release_lock block ) &
	holder=$!
	for _ in $(seq 50); do [ -e "$HP/held-race" ] && break; sleep 0.05; done
	hp_call "${BLK_ENV[@]}" -- block add
	wait "$holder"; rm -f "$HP/held-race"
	echo "$RC $(xs read $BE/hotplug-status) loops:$(losetup -j "$IMG" -n -O NAME | wc -l)"
	xs read $BE/hotplug-error
}
check "block/lock: state read again after waiting (Debian's: $(lock_race debian | head -1))" \
	"1 error loops:0
Path closed or removed during hotplug add: $BE state: 4" "$(lock_race forkless)"
hp_use forkless block

hp_reset
HP_STRACE=$HP/lock.strace hp_call "${BLK_ENV[@]}" -- block add
check "block/lock: flock on /var/run/xen-hotplug/block" 1 \
	"$(grep -c 'openat(AT_FDCWD, "/var/run/xen-hotplug/block", O_RDWR|O_CREAT|.*O_NOFOLLOW.*, 0600) = ' "$HP/lock.strace")"
# taken at once (LOCK_NB, nobody holds it): one flock, exclusive
check "block/lock: exclusive" "flock(LOCK_EX|LOCK_NB) = 0" \
	"$(grep -o 'flock([0-9]*, LOCK_[A-Z_|]*) *= [0-9-]*' "$HP/lock.strace" | sed 's/([0-9]*, /(/; s/) *=/) =/')"
check "block/lock: its directory there, not made again" 0 "$(grep -c 'mkdir(' "$HP/lock.strace")"
# claim_lock's mkdir -p: a call that finds /var/run/xen-hotplug missing makes it
hp_reset; rm -rf /var/run/xen-hotplug
HP_STRACE=$HP/lockdir.strace hp_call "${BLK_ENV[@]}" -- block add
check "block/lock: its directory made when missing, 0700" "0 connected 0700" \
	"$RC $(xs read $BE/hotplug-status) $(stat -c %04a /var/run/xen-hotplug)"
check "block/lock: the lock file is gone after (new directory)" "" "$(ls /var/run/xen-hotplug/)"
check "block/one xenstore connection per call" 1 "$(grep -c 'connect(.*xenstored/socket' "$HP/lock.strace")"
# its five syslog lines in one sendmmsg at the end (one wakeup of the daemon)
check "block/syslog lines sent together" "1 0 5" "$(grep -c 'sendmmsg(' "$HP/lock.strace") $(grep -c 'sendto(' "$HP/lock.strace") \
$(grep -o 'sendmmsg([0-9]*, \[.*\], [0-9]*, MSG_NOSIGNAL) = [0-9]*' "$HP/lock.strace" | sed 's/.* = //')"

# The sharing walk reads each disk's physical-device on one connection:
# 40 other disks known cost 40 reads there, no process.
hp_reset; s_phy
for d in $(seq 2 41); do
	xs write backend/vbd/$d/768/physical-device 7:$((d + 100)) backend/vbd/$d/768/mode w
done
: >"$HP/xs/log"
HP_STRACE=$HP/walk.strace hp_call "${BLK_ENV[@]}" -- block add
check "block/walk of 41 disks: connections" 1 "$(grep -c CONNECT "$HP/xs/log")"
info "block add with 41 disks known: $(grep -vc CONNECT "$HP/xs/log") xenstore requests, 1 process"
check "block/walk of 41 disks: status" "0 connected" "$RC $(xs read $BE/hotplug-status)"
check "block/walk of 41 disks: processes" 1 "$(hp_procs "$HP/walk.strace")"
xs rm $BE/physical-device; xs write $BE/hotplug-status ""
hp_use debian block
HP_STRACE=$HP/walk-debian.strace HP_PROCS_ONLY=1 hp_call "${BLK_ENV[@]}" -- block add
info "Debian's block add with 41 disks known: $(hp_procs "$HP/walk-debian.strace") processes (status $RC, $(xs read $BE/hotplug-status))"
hp_use forkless block

# A hand-over with xenstore's replies pending, without the diverted
# script (so the call is not Debian's: handed over at once): the error
# still reaches xenstore (the connection is opened again, not waiting for
# the replies the first one took along).
hp_reset; s_vanished; mv /etc/xen/scripts/block.distrib "$HP/block.distrib"
hp_call "${BLK_ENV[@]}" -- block add
check "block/no-distrib: hotplug-error" \
	"1 error cannot run /etc/xen/scripts/block.distrib (/etc/xen/scripts/block.distrib is neither Debian 12's nor Debian 13's): No such file or directory" \
	"$RC $(xs read $BE/hotplug-status) $(xs read $BE/hotplug-error)"
mv "$HP/block.distrib" /etc/xen/scripts/block.distrib

# A value longer than forkless holds is an error naming it, not a
# default or a cut value (Debian's script reads any length).
hp_reset; xs write $BE/mode "$(printf 'w%.0s' $(seq 100))"
hp_call "${BLK_ENV[@]}" -- block add
check "block/too-long-value" "1 error xenstore value of $BE/mode is longer than 63 bytes" \
	"$RC $(xs read $BE/hotplug-status) $(xs read $BE/hotplug-error)"

# Hooks in a block-*.d directory: the diverted script runs instead.
hp_reset; : >"$HP/syslog"
mkdir -p /etc/xen/scripts/block-test.d
printf 'true\n' >/etc/xen/scripts/block-test.d/x.hook
chmod +x /etc/xen/scripts/block-test.d/x.hook
hp_call "${BLK_ENV[@]}" -- block add
check "block/hooks: handed over" "0 connected 1" "$RC $(xs read $BE/hotplug-status) $(grep -c 'handing over to /etc/xen/scripts/block.distrib: hooks in /etc/xen/scripts/block-\*.d' "$HP/syslog")"
rm -r /etc/xen/scripts/block-test.d

# ---- Debian 12's scripts (4.17): the subset --------------------------
# a file: and a phy: disk added and removed, a missing key (an error), a
# disk another guest has (refused)
hp_release bookworm
scenario file-add-w : "${BLK_ENV[@]}" -- block add
has file-add-w "/local/domain/0/$BE/hotplug-status=connected"
scenario file-remove s_attached "${BLK_ENV[@]}" -- block remove
scenario phy-add s_phy "${BLK_ENV[@]}" -- block add
scenario phy-remove s_phy "${BLK_ENV[@]}" -- block remove
scenario no-params s_noparams "${BLK_ENV[@]}" -- block add
scenario phy-used-by-guest s_shared_w "${BLK_ENV[@]}" -- block add

exit 0
