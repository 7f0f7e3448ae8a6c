#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/vm/toolstack/seed.sh — the project's founding scenario in the real dom0: a dom0
# reboot's `xendomains stop` (save five domUs) and `xendomains start` (restore them), with
# the guests checked alive afterwards. Sourced by tests/vm/toolstack/dom0.sh after
# xendomains.sh (it uses xd_use, xd_defaults, xd_traced, xd_programs, xd_hide_python, XD_BIN,
# XD_DEBIAN) and the section-3 helpers (pass, fail, info, mkcfg, console_until, in_list,
# wait_gone, wait_exit, nap, use_scripts, save; T, D, O, V, XL_TIMEOUT). Nothing runs on
# source.
#
#   seed_run debian|forkless|parallel
#       five PV domUs (96 MB, a vif on xenbr0, an 8 MB file: disk) in /etc/xen/auto;
#       /etc/default/xendomains as Debian ships it (XENDOMAINS_SAVE=/var/lib/xen/save,
#       XENDOMAINS_RESTORE=true), the save directory a 9p share of the host's disk (tag
#       xensave, mounted by tests/vm/guest/init.sh): not dom0's RAM.
#        1. `xendomains start` creates the five (traced: seed-SET-create.txt)
#        2. each guest asked on its console (domu-init.sh, mode seed): its boot marker
#        3. `xendomains stop` saves the five (traced: seed-SET-stop.txt)
#        4. while they are saved, dom0 writes a new first line into each disk image
#        5. `xendomains start` restores the five (traced: seed-SET-start.txt)
#        6. each guest: the same marker (the same boot, its RAM restored), the new line
#           read from its disk (caches dropped), and it answers ping6 from dom0 on xenbr0
#        7. `xendomains stop` with XENDOMAINS_SAVE="" shuts the five down (traced:
#           seed-SET-down.txt), the path a dom0 without a save directory takes
#       debian: Debian's /etc/init.d/xendomains, its hotplug scripts, its python3
#       xen-init-*; forkless: the applet (python3 out of reach), forkless's hotplug
#       applets; parallel: the same with XENDOMAINS_PARALLEL=$SEED_PARALLEL. The forkless runs also
#       check that no program but the applet, xl and the hotplug applets ran.
#       tests/vm/proctable reads the traces (its seed table; SET-PHASE.ms are the
#       harness's wall times).
SEED_N=5
# Two at a time, not five: with five restores at once dom0's one TCG CPU (reading five
# images from 9p) starves the backends, and libxl gives a vif's backend 10 s to connect
# (ERROR_TIMEDOUT, the image kept): twice in a run alone. Two still overlap every save
# and restore with another.
SEED_PARALLEL=2
SEED_SAVE=/var/lib/xen/save

# seed_query NAME [TEXT]: the guest's report (DOMU-SEED ..., domu-init.sh prints one every
# 3 s) in SEED_ANS: the first whole one seen through `xl console` (console_until), or with
# TEXT the first that holds TEXT (else the last seen), within XL_TIMEOUT. The console's text
# goes to the xenout share as it comes (seed-console-NAME.txt; the earlier queries' in
# seed-console-NAME.all.txt).
seed_query() {
	local c=$O/seed-console-$1.txt
	# each query reads a fresh file; what the earlier ones saw is kept in
	# seed-console-NAME.all.txt (a guest's oops stays there for the reader)
	[ -s $c ] && cat $c >>$O/seed-console-$1.all.txt
	: >$c
	SEED_ANS=
	console_until "$1" $c /tmp/seed-cin seed_seen $c "${2:-}"
	[ -n "$SEED_ANS" ]
}
seed_seen() { # FILE TEXT: the last whole report of FILE in SEED_ANS; does it hold TEXT?
	local l
	l=$(tr -d '\r' <"$1" | grep -a 'DOMU-SEED marker=.*]$' | tail -n 1)
	[ -n "$l" ] && SEED_ANS=$l
	[ -n "$SEED_ANS" ] && [[ -z $2 || $SEED_ANS == *"$2"* ]]
}
# the field NAME of SEED_ANS ("marker", "ll", "up", "disk": disk's value is in brackets)
seed_field() {
	local re="$1=([^ ]*)"
	[ "$1" = disk ] && re='disk=\[([^]]*)\]'
	[[ $SEED_ANS =~ $re ]] && echo "${BASH_REMATCH[1]}"
}
seed_disk() { # NAME TEXT: TEXT as the first 512-byte block of NAME's image
	printf '%s\n' "$2" | dd of=/var/lib/xen/images/$1.img bs=512 count=1 conv=notrunc,sync 2>/dev/null
}

# seed_images MINBYTES: how many regular files of SEED_SAVE are over MINBYTES (-1: all; no find(1)
# in the dom0 root)
seed_images() {
	local f k=0
	for f in $SEED_SAVE/*; do
		[ -f "$f" ] && [ "$(stat -c %s "$f")" -gt "$1" ] && k=$((k + 1))
	done
	echo $k
}

# seed_phase SET PHASE ACTION: `xendomains ACTION` traced into seed-SET-PHASE.txt; its
# output in seed-SET-PHASE.log, written to the xenout share as it comes, the harness's
# wall time in .ms; its status in SEED_RC
SEED_TRACERS=
seed_phase() {
	local v=$1 ph=$2 t0
	t0=$EPOCHREALTIME
	xd_traced $T/seed-$v-$ph.txt $T/rc-seed $SEED_XD $3 >$O/seed-$v-$ph.log 2>&1
	SEED_RC=$?
	awk "BEGIN { printf \"%.0f\\n\", ($EPOCHREALTIME - $t0) * 1000 }" >$T/seed-$v-$ph.ms
	SEED_TRACERS="$SEED_TRACERS $XD_TRACER"
	info "seed ($v): $ph (xendomains $3) rc=$SEED_RC, $(cat $T/seed-$v-$ph.ms) ms"
}

seed_run() { # debian|forkless|parallel
	local v=$1 n i names= bad= m free addr
	declare -A mark
	case $v in
	debian) SEED_XD=/etc/init.d/xendomains ;;
	*) SEED_XD=$XD_BIN/xendomains ;;
	esac
	for f in /lib/lsb/init-functions /lib/init/vars.sh $SEED_XD; do
		[ -f $f ] || { fail "seed-$v" "$f missing in the image"; return 1; }
	done
	if [ $v = debian ]; then
		[ -f $XD_DEBIAN/xen-init-list ] && xd_have_python ||
			{ fail "seed-$v" "Debian's python3 xen-init-* or python3 missing: the baseline cannot run"; return 1; }
	fi
	grep -q " $SEED_SAVE 9p " /proc/mounts ||
		{ fail "seed-$v" "$SEED_SAVE is not the host's 9p share (tests/vm/guest/init.sh mounts tag xensave)"; return 1; }
	free=$(xl info 2>/dev/null | awk '$1 == "free_memory" { print $3 }')
	[ "${free:-0}" -ge $((SEED_N * 100)) ] ||
		{ fail "seed-$v" "Xen has ${free:-?} MB free, five domUs need $((SEED_N * 100))"; return 1; }
	if [ $v = debian ]; then use_scripts debian; xd_use debian; else use_scripts forkless; xd_use forkless; fi
	rm -rf /etc/xen/auto $SEED_SAVE/* && mkdir -p /etc/xen/auto
	for i in $(seq $SEED_N); do
		n=seed-$v-$i
		names="$names $n"
		mkcfg $n seed /etc/xen/scripts
		ln -s $D/$n.cfg /etc/xen/auto/$n.cfg
		seed_disk $n "SEED-DISK first $n"
	done
	# Debian's /etc/default/xendomains, the stop bound the suite's
	xd_defaults "" $SEED_SAVE true
	[ $v = parallel ] && echo XENDOMAINS_PARALLEL=$SEED_PARALLEL >>/etc/default/xendomains &&
		echo $SEED_PARALLEL >$T/seed-parallel-n
	if [ $v != debian ]; then
		xd_hide_python
		command -v python3 >/dev/null && fail "seed-$v-no-python" "python3 still reachable: $(command -v python3)"
	fi
	SEED_TRACERS=
	# `xl console`'s stdin: a fifo a writer holds open (no EOF), nothing ever written
	rm -f /tmp/seed-cin && mkfifo /tmp/seed-cin
	sleep 3600 >/tmp/seed-cin &
	local holder=$!

	# 1. boot: the five created from /etc/xen/auto
	seed_phase $v create start
	for n in $names; do in_list $n || bad="$bad $n"; done
	[ $SEED_RC = 0 ] && [ -z "$bad" ] && pass "seed-$v-create" ||
		fail "seed-$v-create" "rc=$SEED_RC; not running:$bad; output: $(oneline $O/seed-$v-create.log)"
	# 2. each guest up, its marker
	bad=
	for n in $names; do
		if seed_query $n; then
			mark[$n]=$(seed_field marker)
		else
			bad="$bad $n"
		fi
	done
	if [ -z "$bad" ]; then
		pass "seed-$v-guests-up"
	else
		# why a guest is gone: xl's log of it ("shut down, reason
		# code ..."), and Xen's last lines
		n=${bad##* }
		{ tail -n 5 /var/log/xen/xl-$n.log; xl dmesg | tail -n 5; } >$O/seed-gone-$n.txt 2>&1
		fail "seed-$v-guests-up" "no answer on the console of:$bad (xl's log and Xen's: $(oneline $O/seed-gone-$n.txt); console: $(oneline $O/seed-console-$n.txt))"
	fi
	save

	# 3. dom0's shutdown: the five saved
	seed_phase $v stop stop
	bad=
	for n in $names; do in_list $n && bad="$bad $n"; done
	m=$(seed_images 1048576)
	[ $SEED_RC = 0 ] && [ -z "$bad" ] && [ "$m" = $SEED_N ] && pass "seed-$v-saved" ||
		fail "seed-$v-saved" "rc=$SEED_RC; still running:$bad; $m images in $SEED_SAVE: $(ls -l $SEED_SAVE | tr '\n' '|'); output: $(oneline $O/seed-$v-stop.log)"
	info "seed ($v): saved images $(du -sm $SEED_SAVE | cut -f1) MB on the 9p share"
	# 4. the disks changed while the guests are saved
	for n in $names; do seed_disk $n "SEED-DISK after-save $n $TOKEN"; done

	# 5. dom0's boot: the five restored
	seed_phase $v start start
	bad=
	for n in $names; do in_list $n || bad="$bad $n"; done
	m=$(seed_images -1)
	[ $SEED_RC = 0 ] && [ -z "$bad" ] && [ "$m" = 0 ] && pass "seed-$v-restored" ||
		fail "seed-$v-restored" "rc=$SEED_RC; not running:$bad; $m images left; output: $(oneline $O/seed-$v-start.log)"
	# 6. the same boot, its disk, its vif
	local same= disk= ping=
	for n in $names; do
		if ! seed_query $n "SEED-DISK after-save $n $TOKEN"; then
			same="$same $n:no-answer"
			continue
		fi
		[ -n "${mark[$n]}" ] && [ "$(seed_field marker)" = "${mark[$n]}" ] || same="$same $n:${mark[$n]}/$(seed_field marker)"
		[ "$(seed_field disk)" = "SEED-DISK after-save $n $TOKEN" ] || disk="$disk $n:[$(seed_field disk)]"
		addr=$(seed_field ll)
		$V/busybox ping6 -c 1 -w 20 -I xenbr0 "$addr" >$T/seed-ping-$n.txt 2>&1 || ping="$ping $n:$addr"
	done
	[ -z "$same" ] && pass "seed-$v-same-boot" || fail "seed-$v-same-boot" "marker before/after:$same"
	[ -z "$disk" ] && pass "seed-$v-disk-read" || fail "seed-$v-disk-read" "first line read:$disk"
	[ -z "$ping" ] && pass "seed-$v-ping6" ||
		fail "seed-$v-ping6" "no answer from:$ping ($(oneline $T/seed-ping-${ping##* }.txt 2>/dev/null))"
	save

	# 7. a dom0 without a save directory: the five shut down
	sed -i "s|^XENDOMAINS_SAVE=.*|XENDOMAINS_SAVE=\"\"|" /etc/default/xendomains
	seed_phase $v down stop
	bad=
	for n in $names; do wait_gone $n 30 || bad="$bad $n"; done
	[ $SEED_RC = 0 ] && [ -z "$bad" ] && pass "seed-$v-shutdown" ||
		fail "seed-$v-shutdown" "rc=$SEED_RC; still running:$bad; output: $(oneline $O/seed-$v-down.log)"
	for n in $bad; do xl destroy $n >/dev/null 2>&1; done
	for p in $SEED_TRACERS; do wait_exit $p 30 || kill $p 2>/dev/null; done
	kill $holder 2>/dev/null

	if [ $v != debian ]; then
		# beside the harness (bash, timeout, mv): the applet, xl and libxl's save helper
		# (xl save and xl restore run it), the hotplug applets
		local other
		other=$(cat $T/seed-$v-create.txt $T/seed-$v-stop.txt $T/seed-$v-start.txt $T/seed-$v-down.txt |
			xd_programs /dev/stdin | grep -vxE 'bash|timeout|mv|xendomains|xl|libxl-save-helper|vif-bridge|block' |
			sort | uniq -c | tr -s ' \n' ' ')
		[ -z "$other" ] && [ ! -e /usr/bin/python3 ] && pass "seed-$v-only-xl" ||
			fail "seed-$v-only-xl" "other programs started: $other; /usr/bin/python3: $(ls -l /usr/bin/python3 2>&1)"
		xd_restore_python
	fi
	rm -rf /etc/xen/auto $SEED_SAVE/*
	echo $v >>$T/seed-sets
	save
}
