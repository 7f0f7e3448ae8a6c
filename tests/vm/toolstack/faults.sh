#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/vm/toolstack/faults.sh — what xendomains leaves when a save or a restore fails, in
# the real dom0 (docs/xen.md, "Faults"). Sourced by tests/vm/toolstack/dom0.sh after
# seed.sh (seed_query, seed_field, SEED_SAVE, xd_use, xd_defaults, xd_hide_python, xd_restore_python,
# XD_BIN, XD_DEBIAN) and the section-3 helpers (pass, fail, info, mkcfg, in_list, wait_gone,
# nap, use_scripts, save; T, D, O, XL_TIMEOUT). Nothing runs on source.
#
#   faults_run debian|forkless
#       two PV domUs (fa-SET-1, fa-SET-2: 96 MB, a vif, a file: disk) in /etc/xen/auto, the
#       script or the applet as a dom0's reboots run it:
#        1. start: the two created; each answers on its console
#        2. stop, XENDOMAINS_SAVE a 16 MB tmpfs (a disk too small for an image): each
#           save fails half-written. The guest: shut down cleanly by the stop's shutdown
#           step (xl resumed it); what is left in the save directory
#        3. start from that save directory: forkless boots the two from their auto
#           configs (nothing to restore); Debian's script tries its partial images, fails,
#           and refuses the auto configs ("restore failed")
#        4. stop, the save directory the 9p share, SIGTERM to the main process while the
#           first save runs (systemd's stop timeout, KillMode=process): the xl processes are
#           left to end; what is saved, what runs, what the directory holds
#        5. start with fa-SET-1's image cut to 1 MB (a truncated image): reported, kept,
#           its auto config not booted (as the script does), fa-SET-2 left running
#       Debian's outcome is INFO lines (make bench-vm, VM_BASELINES=1); forkless's is checked.
#   faults_xenstore_gone
#       (last in the boot: it kills oxenstored) the two domUs up, `xendomains stop` saving to the 9p share with
#       XENDOMAINS_STOP_MAXWAIT=20, xenstored killed once the first save has ended: the
#       stop ends within its bound, exit 1, each domain saved or named as left, no
#       image half-written. With BASELINES=1, Debian's script then, xenstored gone: its outcome
#       as INFO.
FA_SMALL=/run/xd-small
FA_MAXWAIT=20

# fa_xd SET ACTION LOGNAME: the script or the applet, its output in $O/faults-LOGNAME.log,
# status in FA_RC
fa_xd() {
	local xd=$XD_BIN/xendomains
	[ $1 = debian ] && xd=/etc/init.d/xendomains
	timeout 600 $xd $2 >$O/faults-$3.log 2>&1
	FA_RC=$?
}
fa_cfg() { xd_defaults "" "$1" true "${2:-}"; } # SAVE-DIR [MAXWAIT]
# fa_say SET CHECK OK DETAIL: forkless's a check, Debian's an INFO line of its outcome
fa_say() {
	if [ $1 = debian ]; then
		info "faults (Debian's script): $2: $([ "$3" = 0 ] && echo as forkless || echo "differs: $4")"
	elif [ "$3" = 0 ]; then
		pass "faults-$2"
	else
		fail "faults-$2" "$4"
	fi
}
fa_files() { ls -A "$1" 2>/dev/null | tr '\n' ' '; }

faults_run() { # debian|forkless
	local v=$1 n a b names= bad= out
	a=fa-$v-1 b=fa-$v-2 names="fa-$v-1 fa-$v-2"
	if [ $v = debian ]; then use_scripts debian; xd_use debian; else use_scripts forkless; xd_use forkless; xd_hide_python; fi
	rm -rf /etc/xen/auto && mkdir -p /etc/xen/auto $FA_SMALL
	mount -t tmpfs -o size=16m tmpfs $FA_SMALL || { fail "faults-$v" "no tmpfs at $FA_SMALL"; return 1; }
	for n in $names; do mkcfg $n seed /etc/xen/scripts && ln -s $D/$n.cfg /etc/xen/auto/$n.cfg; done
	rm -f /tmp/seed-cin && mkfifo /tmp/seed-cin
	sleep 3600 >/tmp/seed-cin &
	local holder=$!

	# 1. both up
	fa_cfg $FA_SMALL
	fa_xd $v start $v-1-start
	for n in $names; do seed_query $n || bad="$bad $n"; done
	[ $FA_RC = 0 ] && [ -z "$bad" ] && pass "faults-$v-up" ||
		fail "faults-$v-up" "rc=$FA_RC; no answer:$bad; $(oneline $O/faults-$v-1-start.log)"

	# 2. the save directory too small
	fa_xd $v stop $v-2-enospc
	bad=
	for n in $names; do in_list $n && bad="$bad $n"; done
	out=$(fa_files $FA_SMALL)
	info "faults ($v): full disk: stop rc=$FA_RC, left running:${bad:- none}, save dir: [${out}] ($(du -sk $FA_SMALL | cut -f1) KB); output: $(oneline $O/faults-$v-2-enospc.log)"
	fa_say $v enospc-guests-shut-down "$([ -z "$bad" ] && echo 0)" "still running:$bad"
	fa_say $v enospc-no-image-left "$([ -z "$out" ] && echo 0)" "the save directory holds: $out"
	fa_say $v enospc-said "$(grep -q "removed: the save of $a failed" $O/faults-$v-2-enospc.log &&
		grep -q "removed: the save of $b failed" $O/faults-$v-2-enospc.log && echo 0)" \
		"no line naming each domain's removed image"
	for n in $names; do xl destroy $n >/dev/null 2>&1; done

	# 3. the next boot from that directory
	fa_xd $v start $v-3-after-enospc
	bad=
	for n in $names; do in_list $n || bad="$bad $n"; done
	info "faults ($v): boot after the full disk: rc=$FA_RC, not running:${bad:- none}; output: $(oneline $O/faults-$v-3-after-enospc.log)"
	# created by this start (xl create succeeded: "done."), not refused; whether the guest's
	# kernel then lives is its own (a 6.12 PV guest under TCG has been seen to crash at
	# boot now and then; the INFO line says which ran when looked at)
	local made=
	for n in $names; do
		grep -q "Starting Xen domain $n (from .*)\.\.\.done\.$" $O/faults-$v-3-after-enospc.log || made="$made $n"
	done
	fa_say $v enospc-next-boot-creates "$([ -z "$made" ] && echo 0)" "not created:$made"
	for n in $bad; do xl create $D/$n.cfg >/dev/null 2>&1; done
	umount $FA_SMALL
	for n in $names; do seed_query $n || true; done

	# 4. SIGTERM while the first save runs
	fa_cfg $SEED_SAVE
	rm -rf $SEED_SAVE/* $SEED_SAVE/.[!.]*
	local xd=$XD_BIN/xendomains pid k=0 first
	[ $v = debian ] && xd=/etc/init.d/xendomains
	first=$(/usr/lib/xen-common/bin/xen-init-list | awk 'NR == 1 { print $2 }')
	$xd stop >$O/faults-$v-4-sigterm.log 2>&1 &
	pid=$!
	while [ $k -lt 300 ] && ! ls -A $SEED_SAVE | grep -q .; do nap 0.2; k=$((k + 1)); done
	nap 1
	kill -TERM $pid
	wait $pid
	FA_RC=$?
	# what it left running (its xl, Debian's subshell) ends on its own (busybox's
	# pgrep: a basic regular expression, no |)
	k=0
	while [ $k -lt $((XL_TIMEOUT * 5)) ] && { $V/busybox pgrep -f "xl save" || $V/busybox pgrep -f "$xd"; } >/dev/null; do nap 0.2; k=$((k + 1)); done
	bad=
	for n in $names; do in_list $n && bad="$bad $n"; done
	out=$(fa_files $SEED_SAVE)
	info "faults ($v): SIGTERM mid-save ($first first): rc=$FA_RC, running after:${bad:- none}, save dir: [$out]; output: $(oneline $O/faults-$v-4-sigterm.log)"
	fa_say $v sigterm-exit-143 "$([ $FA_RC = 143 ] && echo 0)" "rc=$FA_RC"
	fa_say $v sigterm-first-saved "$([ -f $SEED_SAVE/$first ] && ! in_list $first && echo 0)" \
		"$first: image [$out], running:$bad"
	fa_say $v sigterm-no-partial "$(ls -A $SEED_SAVE | grep -q '\.saving$' || echo 0)" "left: $out"
	for n in $names; do
		[ $n = $first ] && continue
		fa_say $v sigterm-others-not-started "$(in_list $n && [ ! -e $SEED_SAVE/$n ] && echo 0)" \
			"$n: running:$bad; save dir: $out"
	done

	# 5. a truncated image at start
	local img=$SEED_SAVE/$first size
	if [ -f $img ]; then
		truncate -s 1M $img
		fa_xd $v start $v-5-truncated
		size=$(stat -c %s $img 2>/dev/null)
		info "faults ($v): truncated image at start: rc=$FA_RC, $first running: $(in_list $first && echo yes || echo no), image: ${size:-removed}; output: $(oneline $O/faults-$v-5-truncated.log)"
		fa_say $v truncated-kept "$([ "$size" = 1048576 ] && echo 0)" "image ${size:-removed}"
		fa_say $v truncated-said "$(grep -q "Restoring Xen domain $first .*failed" $O/faults-$v-5-truncated.log && echo 0)" \
			"$(oneline $O/faults-$v-5-truncated.log)"
		fa_say $v truncated-auto-as-debian "$(grep -q "Starting Xen domain $first .*failed (restore failed)" $O/faults-$v-5-truncated.log &&
			! in_list $first && echo 0)" "$(oneline $O/faults-$v-5-truncated.log)"
	else
		fa_say $v truncated-kept 1 "no image of $first to cut"
	fi
	for n in $names; do xl destroy $n >/dev/null 2>&1; done
	rm -rf /etc/xen/auto $SEED_SAVE/* $SEED_SAVE/.[!.]*
	kill $holder 2>/dev/null
	[ $v = debian ] || xd_restore_python
	save
}

faults_xenstore_gone() {
	local names="fa-xs-1 fa-xs-2" n pid k=0 t0 took bad= out
	use_scripts forkless; xd_use forkless
	rm -rf /etc/xen/auto $SEED_SAVE/* $SEED_SAVE/.[!.]* && mkdir -p /etc/xen/auto
	for n in $names; do mkcfg $n seed /etc/xen/scripts && xl create $D/$n.cfg >/dev/null 2>&1; done
	fa_cfg $SEED_SAVE $FA_MAXWAIT
	rm -f /tmp/seed-cin && mkfifo /tmp/seed-cin
	sleep 3600 >/tmp/seed-cin &
	local holder=$!
	for n in $names; do seed_query $n || bad="$bad $n"; done
	kill $holder
	[ -z "$bad" ] || { fail faults-xenstore-gone "no answer on the console of:$bad"; return 1; }
	local xs_pids xs_left t_kill
	xs_pids=$($V/busybox pidof oxenstored xenstored)
	t0=$EPOCHREALTIME
	timeout 300 $XD_BIN/xendomains stop >$O/faults-xs-gone.log 2>&1 &
	pid=$!
	# killed once the first save has ended (its image renamed into place): the
	# second save, the shutdown step and the waits meet a dom0 without xenstored
	while [ $k -lt 1500 ] && [ ! -f $SEED_SAVE/fa-xs-1 ] && [ ! -f $SEED_SAVE/fa-xs-2 ]; do
		nap 0.2; k=$((k + 1))
	done
	kill -KILL $xs_pids
	t_kill=$(awk "BEGIN { printf \"%.1f\", $EPOCHREALTIME - $t0 }")
	nap 0.5
	xs_left=$($V/busybox pidof oxenstored xenstored)
	wait $pid
	FA_RC=$? took=$(awk "BEGIN { printf \"%d\", $EPOCHREALTIME - $t0 }")
	out=$(fa_files $SEED_SAVE)
	info "faults: xenstored (pids $xs_pids) killed ${t_kill}s into stop (left: ${xs_left:-none}): rc=$FA_RC after ${took}s, save dir: [$out]; output: $(oneline $O/faults-xs-gone.log)"
	# bound: two saves to their deadline, xl's end, a xenstore exchange's 5 s
	[ $FA_RC != 124 ] && [ $took -le $((2 * (FA_MAXWAIT + 1) + 30)) ] && pass faults-xenstore-gone-bounded ||
		fail faults-xenstore-gone-bounded "rc=$FA_RC after ${took}s"
	[ $FA_RC = 1 ] && grep -q "xenstore is gone" $O/faults-xs-gone.log && pass faults-xenstore-gone-said ||
		fail faults-xenstore-gone-said "rc=$FA_RC: $(oneline $O/faults-xs-gone.log)"
	bad=
	# each domain saved (its image in place) or named as left
	for n in $names; do
		[ -f $SEED_SAVE/$n ] || grep -q "Xen domain $n (.*) is left as it is" $O/faults-xs-gone.log || bad="$bad $n"
	done
	[ -z "$bad" ] && pass faults-xenstore-gone-each-saved-or-named ||
		fail faults-xenstore-gone-each-saved-or-named "neither saved nor named:$bad"
	[ -z "$(ls -A $SEED_SAVE | grep '\.saving$')" ] && pass faults-xenstore-gone-no-partial ||
		fail faults-xenstore-gone-no-partial "left: $out"
	if [ "$BASELINES" = 1 ]; then
		xd_use debian
		t0=$EPOCHREALTIME
		timeout 60 /etc/init.d/xendomains stop >$O/faults-xs-gone-debian.log 2>&1
		info "faults (Debian's script): xenstored gone, stop: rc=$? after $(awk "BEGIN { printf \"%d\", $EPOCHREALTIME - $t0 }")s (124: still running at 60 s, killed); output: $(oneline $O/faults-xs-gone-debian.log)"
	fi
	save
}
