#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/vm/toolstack/driver.sh — a driver domain backing another domU's vif and disk with
# forkless's hotplug applets under `xl devd` (README "Driver domains"). Sourced by
# tests/vm/toolstack/dom0.sh after guests.sh (it uses dom0.sh's pass, fail, fail_with, info,
# save, in_list, wait_for, in_file, console_until, wait_gone, wait_exit, nap, strace_xl,
# oneline; T, D, K, XL_TIMEOUT, TOKEN). Nothing runs on source.
#
#   driver_run
#       1. `xl create` of a PV domU with driver_domain=1 (tests/vm/toolstack/dd-init.sh:
#          its modules, a bridge xenbr1 with no port, an 8 MB image, `xl devd` through
#          forkless's xl link); its console says DD-READY
#       2. the wrapper's version lock in a domU: `xl` through forkless's link and through
#          Debian's xen-utils-wrapper with /usr/lib/xen-VERSION moved away: the same status
#          and message
#       3. a PV domU whose vif and disk the driver domain backs (backend=), created with
#          `xl create -c` (traced: dom0 runs no hotplug script for it): its eth0 up, ping6
#          answered by the driver domain (the only other node on xenbr1), its write at the
#          start of xvda in the driver domain's image
#       4. `xl shutdown -w` of the domU, then the driver domain's count of its hotplug calls
#          (the kernel's sched events): vif-bridge online/offline and block add/remove, one
#          process each
#       5. the driver domain destroyed
DD_NAME=drvdom DD_GUEST=drvguest

driver_run() {
	local dd=$DD_NAME g=$DD_GUEST c=$T/console-$DD_NAME.txt gc=$T/console-$DD_GUEST.txt
	local x=$T/xl-$DD_GUEST.log rc own from stat f d
	[ -f $D/dd-initrd.gz ] || { fail driver-domain "$D/dd-initrd.gz missing (tests/vm/run)"; return 1; }
	{
		echo "name = \"$dd\""
		echo 'type = "pv"'
		echo "kernel = \"$K\""
		echo "ramdisk = \"$D/dd-initrd.gz\""
		echo 'extra = "console=hvc0 quiet panic=-1"'
		echo 'memory = 192'
		echo 'vcpus = 1'
		echo 'driver_domain = 1'
		echo 'on_poweroff = "destroy"'
		echo 'on_crash = "destroy"'
	} >$D/$dd.cfg
	{
		echo "name = \"$g\""
		echo 'type = "pv"'
		echo "kernel = \"$K\""
		echo "ramdisk = \"$D/initrd.gz\""
		echo "extra = \"console=hvc0 quiet panic=-1 fltest.mode=check fltest.token=$TOKEN-$g\""
		echo 'memory = 96'
		echo "vif = [ 'backend=$dd,bridge=xenbr1' ]"
		echo "disk = [ 'backend=$dd,format=raw,vdev=xvda,access=rw,target=/var/lib/xen/dd-disk.img' ]"
		echo 'on_poweroff = "destroy"'
		echo 'on_crash = "destroy"'
	} >$D/$g.cfg
	rm -f /tmp/dd-cin && mkfifo /tmp/dd-cin
	sleep 3600 >/tmp/dd-cin &
	local holder=$!
	: >$c
	# 1. the driver domain
	timeout $XL_TIMEOUT xl create $D/$dd.cfg >$T/xl-$dd.log 2>&1
	rc=$?
	if [ $rc != 0 ] || ! console_until $dd $c /tmp/dd-cin in_file $c DD-READY; then
		fail_with driver-domain-up $c $T/xl-$dd.log "xl create rc=$rc, no DD-READY on its console"
		xl destroy $dd >/dev/null 2>&1
		kill $holder
		return 1
	fi
	if grep -aq '^DD: ' $c; then
		fail_with driver-domain-up $c /dev/null "$(tr -d '\r' <$c | grep -a '^DD: ' | tr '\n' '|')"
	else
		pass driver-domain-up
	fi
	# 2. the version lock, forkless's wrapper against Debian's
	f=$(tr -d '\r' <$c | grep -a '^DD-WRAP forkless ' | sed 's/^DD-WRAP forkless //')
	d=$(tr -d '\r' <$c | grep -a '^DD-WRAP debian ' | sed 's/^DD-WRAP debian //')
	info "driver domain, xl with no /usr/lib/xen-$XV: forkless $f; Debian's wrapper $d"
	[ -n "$f" ] && [ "$f" = "$d" ] && [[ $f == "rc=127 "* ]] && pass driver-domain-version-lock ||
		fail driver-domain-version-lock "forkless [$f], Debian's wrapper [$d]"
	# 3. the domU it backs
	rm -f /tmp/cin && mkfifo /tmp/cin
	sleep 900 >/tmp/cin &
	local h2=$!
	strace_xl $T/trace-driver-create.txt xl -vvv create -c $D/$g.cfg </tmp/cin >$gc 2>$x &
	local xlpid=$!
	if wait_for $gc DOMU-READY $XL_TIMEOUT $xlpid; then
		own=$(tr -d '\r' <$gc | sed -n 's/^DOMU-PING own=//p')
		from=$(tr -d '\r' <$gc | grep -a '^DOMU-PING .*bytes from' | grep -v "from $own:" | head -n 1)
		[ -n "$own" ] && [ -n "$from" ] && pass driver-domain-ping6 ||
			fail_with driver-domain-ping6 $gc $x "no answer but its own (own=$own): $(tr -d '\r' <$gc | grep -a '^DOMU-PING' | tr '\n' '|')"
		grep -aq '^DOMU-DISK written' $gc && pass driver-domain-guest-disk ||
			fail_with driver-domain-guest-disk $gc $x "$(tr -d '\r' <$gc | grep -a '^DOMU-DISK')"
	else
		fail_with driver-domain-guest $gc $x "no DOMU-READY within ${XL_TIMEOUT}s"
		show_log $c 12
		info "driver domain: its backends: $(xenstore-ls -f /local/domain/$(xl domid $dd 2>/dev/null)/backend 2>&1 |
			grep -E '/(hotplug-status|hotplug-error|physical-device|state) = ' | tr '\n' '|')"
		info "driver domain: its logs (/var/log/xen): $(tr -d '\r' <$c | grep -a '^DD-LOG ' | tr '\n' '|')"
	fi
	# dom0 ran no hotplug script for it: its backends are the driver domain's
	if grep -aq 'execve("/etc/xen/scripts/' $T/trace-driver-create.txt; then
		fail driver-domain-not-dom0 "dom0 ran: $(grep -ao 'execve("/etc/xen/scripts/[^"]*"' $T/trace-driver-create.txt | tr '\n' ' ')"
	else
		pass driver-domain-not-dom0
	fi
	# 4. shut down; the driver domain's count of its calls
	strace_xl $T/trace-driver-shutdown.txt timeout $XL_TIMEOUT xl shutdown -w $g >$T/xl-$g-shutdown.log 2>&1
	rc=$?
	wait_exit $xlpid $XL_TIMEOUT
	kill $h2 2>/dev/null
	[ $rc = 0 ] && wait_gone $g 30 && pass driver-domain-guest-shutdown ||
		{ fail_with driver-domain-guest-shutdown $gc $T/xl-$g-shutdown.log "rc=$rc"; xl destroy $g >/dev/null 2>&1; }
	: >$c
	if console_until $dd $c /tmp/dd-cin in_file $c "calls=4 procs=" &&
		console_until $dd $c /tmp/dd-cin in_file $c "disk=[FORKLESS-DISK $TOKEN-$g]"; then
		stat=$(tr -d '\r' <$c | grep -a '^DD-STAT ' | tail -n 1)
		echo "$stat" >$T/driver-stat
		local scripts=${stat#*scripts=[}
		scripts=$(echo ${scripts%%]*} | tr ' ' '\n' | sort | tr '\n' ' ')
		[[ $stat == *" calls=4 procs=4 "* ]] && [ "$scripts" = "block block vif-bridge vif-bridge " ] &&
			pass driver-domain-one-process-per-call ||
			fail driver-domain-one-process-per-call "$stat"
	else
		fail_with driver-domain-calls $c /dev/null "no DD-STAT with 4 calls and the guest's disk write: $(tr -d '\r' <$c | grep -a '^DD-STAT ' | tail -n 1)"
	fi
	info "driver domain: $(tr -d '\r' <$c | grep -a '^DD-STAT ' | tail -n 1)"
	# 5. gone
	timeout $XL_TIMEOUT xl destroy $dd >$T/xl-$dd-destroy.log 2>&1
	wait_gone $dd 30 || fail driver-domain-destroy "$(oneline $T/xl-$dd-destroy.log)"
	kill $holder 2>/dev/null
	save
}
