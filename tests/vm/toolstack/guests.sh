#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/vm/toolstack/guests.sh — PVH and HVM domUs in the real dom0, with Debian's hotplug
# scripts and with forkless's applets (README "Xen hotplug scripts"). Sourced by
# tests/vm/toolstack/dom0.sh after seed.sh (it uses seed_query, seed_field, and dom0.sh's
# mkcfg, pass, fail, fail_with, info, save, use_scripts, in_list, wait_gone, wait_exit, nap,
# strace_start, oneline; T, O, D, V, K, XL_TIMEOUT, TOKEN). Nothing runs on source.
#
#   guest_run TYPE SET     TYPE pvh or hvm, SET debian or forkless (/etc/xen/scripts as
#                          use_scripts left it). One domU, 128 MB, booted with
#                          domu-init.sh in mode seed, a vif on xenbr0 and an 8 MB file: disk:
#       1. `xl create` (traced: trace-guest-TYPE-SET-create.txt; the strace lasts as long
#          as xl's daemon, i.e. until the domain is gone)
#       2. its report on the console: a boot marker, eth0's link-local address, its disk's
#          first line; it wrote "DOMU-WROTE TOKEN" into the disk's second block (read here
#          from the image); dom0 pings it over xenbr0 (ping6)
#       3. `xl save` to the xensave share (traced), a new first line in the disk image,
#          `xl restore` (traced): the same marker (the same boot), the new line read, ping6
#       4. `xl destroy` (traced): gone, its loop device detached
#   PVH: no device model (kernel = the ELF vmlinux, its PVH entry). HVM: QEMU's Xen device
#   model (qemu-system-xen, in the dom0 root by tests/vm/xenroot) and hvmloader + SeaBIOS,
#   the kernel booted by QEMU (bzImage, `kernel=` of an HVM guest), the NIC `type=ioemu`:
#   libxl runs vif-bridge twice per NIC, `type_if=tap` for QEMU's tap vifDOMID.0-emu and
#   `type_if=vif` for the PV vif. The guest's kernel unplugs only the emulated disk
#   (xen_emul_unplug=ide-disks: its disk is PV, xvda), keeps the emulated NIC (rtl8139,
#   8139cp) and loads no PV NIC driver (module_blacklist=xen_netfront): its eth0 is
#   QEMU's, so the pings go through QEMU and the tap, which must be on the bridge and carry
#   them. (By default Linux unplugs the emulated NIC, QEMU closes the tap, eth0 is PV.)
#   The console: hvc0 for PVH, the emulated serial port for HVM (`serial = "pty"`).
#   tests/vm/proctable counts each lifecycle's hotplug processes (its guest-types table).
GUEST_SAVE=/var/lib/xen/save

# guest_alive TAG NAME [TEXT]: its report (with TEXT), the ping6 from dom0; sets GUEST_MARK
guest_alive() {
	local tag=$1 n=$2 addr
	if ! seed_query "$n" "${3:-}"; then
		fail_with "$tag" $O/seed-console-$n.txt /var/log/xen/xl-$n.log "no report on the console within ${XL_TIMEOUT}s"
		return 1
	fi
	GUEST_MARK=$(seed_field marker)
	addr=$(seed_field ll)
	if [ -n "$addr" ] && $V/busybox ping6 -c 1 -w 20 -I xenbr0 "$addr" >$T/guest-ping-$n.txt 2>&1; then
		pass "$tag"
	else
		fail_with "$tag" $O/seed-console-$n.txt /var/log/xen/xl-$n.log "$SEED_ANS; ping6 $addr: $(oneline $T/guest-ping-$n.txt)"
		return 1
	fi
}

guest_run() { # pvh|hvm debian|forkless
	local type=$1 set=$2 n=$1-$2 img=/var/lib/xen/images/$1-$2.img f=$GUEST_SAVE/$1-$2 rc mark
	local tr=$T/trace-guest-$1-$2 emu
	if [ $type = hvm ]; then
		for f in $BIN/../boot/hvmloader /usr/libexec/xen-qemu-system-i386 /usr/share/seabios/bios-256k.bin $D/bzImage; do
			[ -e $f ] || { fail "guest-$n" "$f missing in the dom0 root"; return 1; }
		done
		f=$GUEST_SAVE/$n
	fi
	grep -q " $GUEST_SAVE 9p " /proc/mounts ||
		{ fail "guest-$n" "$GUEST_SAVE is not the host's 9p share (tests/vm/guest/init.sh mounts tag xensave)"; return 1; }
	use_scripts $set
	mkcfg $n seed /etc/xen/scripts $type 128
	seed_disk $n "GUEST-DISK first $n"
	rm -f /tmp/seed-cin && mkfifo /tmp/seed-cin
	sleep 3600 >/tmp/seed-cin &
	local holder=$!
	# 1. create
	strace_start $tr-create.txt timeout $XL_TIMEOUT xl -vvv create $D/$n.cfg >$T/xl-guest-$n.log 2>&1
	rc=$?
	if [ $rc != 0 ] || ! in_list $n; then
		fail_with "guest-$n-create" /dev/null $T/xl-guest-$n.log "xl create rc=$rc"
		show_log /var/log/xen/qemu-dm-$n.log 12
		xl destroy $n >/dev/null 2>&1
		kill $holder 2>/dev/null
		return 1
	fi
	pass "guest-$n-create"
	# 2. up: its report, ping6, its own disk write
	guest_alive "guest-$n-ping6" $n || { xl destroy $n >/dev/null 2>&1; kill $holder; return 1; }
	mark=$GUEST_MARK
	if dd if=$img bs=512 skip=1 count=1 2>/dev/null | grep -aq "DOMU-WROTE $TOKEN-$n"; then
		pass "guest-$n-disk-written"
	else
		fail "guest-$n-disk-written" "block 1 of $img: $(dd if=$img bs=512 skip=1 count=1 2>/dev/null | head -c 64 | tr -c '[:print:]' .)"
	fi
	[ "$(seed_field disk)" = "GUEST-DISK first $n" ] && pass "guest-$n-disk-read" ||
		fail "guest-$n-disk-read" "first line read: [$(seed_field disk)]"
	if [ $type = hvm ]; then
		# QEMU's tap for the emulated NIC, put on the bridge by vif-bridge type_if=tap
		# QEMU's tap for the emulated NIC, put on the bridge by vif-bridge type_if=tap, and
		# the guest's pings through it (the packets the tap carried)
		emu=$(ip -o link show master xenbr0 | awk -F': ' '{ sub("@.*", "", $2); print $2 }' | grep -- '-emu$')
		if [ -n "$emu" ] && [ "$(cat /sys/class/net/$emu/statistics/tx_packets)" -gt 0 ] &&
			[ "$(cat /sys/class/net/$emu/statistics/rx_packets)" -gt 0 ]; then
			pass "guest-$n-tap-on-bridge"
		else
			fail "guest-$n-tap-on-bridge" "no *-emu port on xenbr0 carrying packets ($emu: rx $(cat /sys/class/net/$emu/statistics/rx_packets 2>&1), tx $(cat /sys/class/net/$emu/statistics/tx_packets 2>&1)): $(ip -o link show master xenbr0 | tr '\n' '|')"
		fi
	fi
	save
	# 3. save, the disk changed meanwhile, restore
	rm -f $f
	strace_start $tr-save.txt timeout $XL_TIMEOUT xl save $n $f >$T/xl-guest-$n-save.log 2>&1
	rc=$?
	if [ $rc = 0 ] && wait_gone $n 30 && [ -s $f ]; then
		pass "guest-$n-saved"
	else
		fail_with "guest-$n-saved" /dev/null $T/xl-guest-$n-save.log "xl save rc=$rc, image $(ls -l $f 2>&1)"
		xl destroy $n >/dev/null 2>&1
		kill $holder 2>/dev/null
		return 1
	fi
	seed_disk $n "GUEST-DISK after-save $n $TOKEN"
	strace_start $tr-restore.txt timeout $XL_TIMEOUT xl restore $f >$T/xl-guest-$n-restore.log 2>&1
	rc=$?
	rm -f $f
	if [ $rc = 0 ] && in_list $n; then
		pass "guest-$n-restored"
		if guest_alive "guest-$n-ping6-restored" $n "GUEST-DISK after-save $n $TOKEN"; then
			[ "$GUEST_MARK" = "$mark" ] && pass "guest-$n-same-boot" ||
				fail "guest-$n-same-boot" "marker before $mark, after $GUEST_MARK"
		fi
	else
		fail_with "guest-$n-restored" /dev/null $T/xl-guest-$n-restore.log "xl restore rc=$rc"
	fi
	save
	# 4. destroy
	strace_start $tr-destroy.txt timeout $XL_TIMEOUT xl destroy $n >$T/xl-guest-$n-destroy.log 2>&1
	rc=$?
	if [ $rc = 0 ] && wait_gone $n 30 && [ -z "$(losetup -n -O NAME -j "$img" 2>&1)" ]; then
		pass "guest-$n-destroyed"
	else
		fail_with "guest-$n-destroyed" /dev/null $T/xl-guest-$n-destroy.log "xl destroy rc=$rc; listed: $(in_list $n && echo yes); loop: $(losetup -j $img 2>&1)"
		xl destroy $n >/dev/null 2>&1
	fi
	kill $holder 2>/dev/null
	cp /var/log/xen/xl-$n.log /var/log/xen/qemu-dm-$n.log $T/ 2>/dev/null
	echo "$type $set" >>$T/guest-runs
	save
}
