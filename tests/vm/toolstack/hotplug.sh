#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/vm/toolstack/hotplug.sh — the hotplug applets' refusals and fallbacks in the real
# dom0 (README "Xen hotplug applets"). Sourced by tests/vm/toolstack/dom0.sh, which calls
# these after the domU lifecycles; they use its helpers (pass, fail, info, save, use_scripts,
# paused_cfg, in_list, wait_gone, oneline; T, D, V, XL_TIMEOUT). Nothing runs on source. The domUs here
# are made paused (`xl create -p`): their devices and hotplug calls are made, no guest boots.
#
#   busy_disk debian|forkless   a file: disk already attached read-write to a domU, asked for
#                               again by a second one: `xl create` fails with the block
#                               script's "busy" message. dom0.sh runs it with Debian's script
#                               and with forkless's, and the messages must be the same.
#   hook_fallback               an executable vif-post.d hook: forkless's vif-bridge hands the
#                               call to Debian's vif-bridge.distrib (exec), which runs the hook
#                               and connects the vif; the fallback is logged once to syslog.
#   xenbus_device               forkless's vif-bridge online and offline with xenstored's socket
#                               hidden (a mount namespace): through the kernel's /dev/xen/xenbus,
#                               as in a driver domain or beside a xenstore stub domain. The
#                               device takes one message a write, which the suite's pty stand-in
#                               (a stream) cannot show: a batch in one write lost all but its
#                               first request there and the call waited out its 30 s budget.

# the message libxl printed for the script's hotplug-error: from "script: " to the next
# libxl line (Debian's messages span several lines)
hp_script_message() { # XL_STDERR_FILE
	awk '/^libxl: / { if (m) exit } m { print } /device_hotplug_child_death_cb: script: / { sub(/.*script: /, ""); print; m = 1 }' "$1"
}

busy_disk() { # debian|forkless
	local set=$1 img=/var/lib/xen/images/busy.img a=busy-$1-a b=busy-$1-b rc_a rc_b
	use_scripts $set
	rm -f $img && truncate -s 8M $img
	paused_cfg $a "file:$img,xvda,w"
	paused_cfg $b "file:$img,xvda,w"
	timeout $XL_TIMEOUT xl create -p $D/$a.cfg >$T/busy-$set-a.log 2>&1
	rc_a=$?
	timeout $XL_TIMEOUT xl create -p $D/$b.cfg >$T/busy-$set-b.log 2>&1
	rc_b=$?
	hp_script_message $T/busy-$set-b.log >$T/busy-$set-message.txt
	if [ $rc_a = 0 ] && [ $rc_b != 0 ] && ! in_list $b && grep -q 'mounted in a guest domain' $T/busy-$set-message.txt; then
		pass "busy-disk-refused-$set"
	else
		fail "busy-disk-refused-$set" "first create rc=$rc_a [$(oneline $T/busy-$set-a.log)], second rc=$rc_b [$(oneline $T/busy-$set-b.log)]"
	fi
	info "busy disk ($set): $(oneline $T/busy-$set-message.txt)"
	# forkless's message is Debian's, word for word (the loop device is the same: the first
	# domU takes the first free one in both runs)
	if [ $set = forkless ]; then
		if [ -s $T/busy-debian-message.txt ] && cmp -s $T/busy-debian-message.txt $T/busy-forkless-message.txt; then
			pass busy-disk-message-same-as-debian
		else
			fail busy-disk-message-same-as-debian "debian [$(oneline $T/busy-debian-message.txt)] forkless [$(oneline $T/busy-forkless-message.txt)]"
		fi
	fi
	timeout $XL_TIMEOUT xl destroy $a >/dev/null 2>&1
	xl destroy $b >/dev/null 2>&1
	wait_gone $a 30 || fail "busy-disk-cleanup-$set" "$a still listed after xl destroy"
	# block remove detached the loop device: none left on the image
	if losetup -j $img | grep -q .; then
		fail "busy-disk-cleanup-$set" "a loop device still backs $img: $(losetup -j $img)"
	fi
	save
}

hook_fallback() {
	local h=/etc/xen/scripts/vif-post.d n=hook-fl ran=/tmp/vif-hook-ran rc before after
	use_scripts forkless
	mkdir -p $h
	# call_hooks sources each executable DIR/*.hook in the script's own shell
	printf '%s\n' 'echo "$vif $command" >>/tmp/vif-hook-ran' >$h/00-forkless-test.hook
	chmod 755 $h/00-forkless-test.hook
	rm -f $ran
	before=$(grep -c 'hooks in /etc/xen/scripts/vif-post.d' /var/log/messages 2>/dev/null)
	paused_cfg $n "" bridge=xenbr0
	timeout $XL_TIMEOUT xl create -p $D/$n.cfg >$T/hook-create.log 2>&1
	rc=$?
	local id
	id=$(xl domid $n 2>/dev/null)
	after=$(grep -c 'hooks in /etc/xen/scripts/vif-post.d' /var/log/messages 2>/dev/null)
	if [ $rc = 0 ] && grep -qx "vif$id.0 online" $ran 2>/dev/null &&
		[ "$(xenstore-read /local/domain/0/backend/vif/$id/0/hotplug-status 2>/dev/null)" = connected ]; then
		pass hook-fallback-runs-debian-script
	else
		fail hook-fallback-runs-debian-script "xl create -p rc=$rc [$(oneline $T/hook-create.log)]; hook ran: [$(cat $ran 2>/dev/null | tr '\n' '|')]"
	fi
	[ $((after - before)) = 1 ] && pass hook-fallback-logged-once ||
		fail hook-fallback-logged-once "$((after - before)) syslog lines naming the hooks: $(grep -a 'vif-post.d' /var/log/messages | tail -n 3 | tr '\n' '|')"
	timeout $XL_TIMEOUT xl destroy $n >/dev/null 2>&1
	wait_gone $n 30
	grep -qx "vif$id.0 offline" $ran 2>/dev/null && pass hook-fallback-offline ||
		fail hook-fallback-offline "hook lines: [$(cat $ran 2>/dev/null | tr '\n' '|')]"
	rm -rf $h
	save
}

xenbus_device() {
	local n=xenbus-dev id be fe vif on=$T/xenbus-device-online.strace rc t0 ms
	use_scripts forkless
	paused_cfg $n "" bridge=xenbr0
	: >$T/xenbus-device.log
	if ! timeout $XL_TIMEOUT xl create -p $D/$n.cfg >>$T/xenbus-device.log 2>&1; then
		fail xenbus-device-online "xl create -p: $(oneline $T/xenbus-device.log)"
		xl destroy $n >/dev/null 2>&1
		return
	fi
	id=$(xl domid $n 2>/dev/null)
	be=/local/domain/0/backend/vif/$id/0 fe=/local/domain/$id/device/vif/0 vif=vif$id.0
	# the paused domain's vif, online through the socket: offline then online again, as
	# libxl runs the script (the libxl contract: applets/hotplug/), in a mount namespace whose
	# /var/run/xenstored is an empty tmpfs (propagation unchanged: the chroot on the
	# initramfs has no root mount to make private; were the mount to leak out, the
	# xenstore-reads below, through the socket, would fail)
	xb_call() { # STRACE ACTION
		env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin script=/etc/xen/scripts/vif-bridge \
			XENBUS_TYPE=vif XENBUS_PATH=backend/vif/$id/0 XENBUS_BASE_PATH=backend vif=$vif \
			unshare -m --propagation unchanged sh -c 'mount -t tmpfs none /var/run/xenstored && exec strace -o "$0" /etc/xen/scripts/vif-bridge "$1" type_if=vif' \
			"$1" "$2" </dev/null >>$T/xenbus-device.log 2>&1
	}
	xb_call $T/xenbus-device-offline.strace offline
	rc=$?
	if [ $rc = 0 ] && ! ip -o link show $vif | grep -q ' master '; then
		pass xenbus-device-offline
	else
		fail xenbus-device-offline "rc=$rc, link [$(ip -o link show $vif)], log [$(oneline $T/xenbus-device.log)]"
	fi
	xenstore-write $be/hotplug-status "" $fe/mtu 0
	t0=$EPOCHREALTIME
	xb_call $on online
	rc=$?
	ms=$(awk "BEGIN { printf \"%.0f\", ($EPOCHREALTIME - $t0) * 1000 }")
	if [ $rc = 0 ] && [ "$(xenstore-read $be/hotplug-status 2>&1)" = connected ] &&
		ip -o link show $vif | grep -q ' master xenbr0 ' && [ "$(xenstore-read $fe/mtu 2>&1)" = 1500 ] &&
		grep -q 'openat(AT_FDCWD, "/dev/xen/xenbus", O_RDWR|[^)]*) = [0-9]' $on &&
		! grep -q 'xenstored/socket"}, [0-9]*) = 0' $on; then
		pass xenbus-device-online
	else
		fail xenbus-device-online "rc=$rc in $ms ms, hotplug-status [$(xenstore-read $be/hotplug-status 2>&1)]," \
			"frontend mtu [$(xenstore-read $fe/mtu 2>&1)], link [$(ip -o link show $vif)]," \
			"log [$(oneline $T/xenbus-device.log)], xenstore fds [$(grep -E 'xenbus|xenstored' $on | tr '\n' '|')]"
	fi
	info "xenbus device: vif-bridge online through /dev/xen/xenbus in $ms ms (strace'd)"
	timeout $XL_TIMEOUT xl destroy $n >/dev/null 2>&1
	wait_gone $n 30 || fail xenbus-device-cleanup "$n still listed after xl destroy"
	save
}
