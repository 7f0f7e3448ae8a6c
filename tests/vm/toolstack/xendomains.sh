#!/bin/bash
# tests/vm/toolstack/xendomains.sh — Debian's /etc/init.d/xendomains in the real dom0, with
# forkless's xen-init-name and xen-init-list and with Debian's Python ones (issue: the two
# Python scripts of /usr/lib/xen-common/bin). Sourced by tests/vm/toolstack/dom0.sh once
# the toolstack is up and its section-3 helpers exist (pass, fail, info, fail_with, mkcfg,
# in_list, wait_gone, nap, strace_xl, save; T, D, V, XL_TIMEOUT). Nothing runs on source.
#
#   xendomains_keep_debian        BEFORE `forkless --install -s /`: keep Debian's
#                                 xen-init-name and xen-init-list (python3 scripts) in
#                                 $XD_DEBIAN, for the baseline and the differential checks
#   xendomains_run forkless|debian
#                                 /etc/xen/auto with two PV domUs, then
#                                 `/etc/init.d/xendomains start` (both must run) and
#                                 `stop` (both must be gone), each under strace -f: PASS/FAIL
#                                 lines, and INFO lines with the wall time, processes and
#                                 execs of start and of stop. forkless: /usr/lib/xen-common/bin's
#                                 xen-init-* are forkless and python3 is made unreachable
#                                 for the run (no python3 in the image, as a dom0 without
#                                 it); debian: Debian's scripts, python3 required.
#   xen_init_list_differential    forkless's xen-init-list against Debian's script (real
#                                 xl) with no domU, one, three (names with a space and
#                                 UTF-8), one being destroyed, a stale /local/domain/N and
#                                 one whose name key was removed (README: a documented
#                                 difference, checked as such).
#
# Only xen-init-* differ between the two runs: `xen`, `xl` and the wrapper are forkless's in
# both (dom0.sh installed them), the hotplug scripts Debian's in both.
# The image needs python3 (json, subprocess) for the Debian side only; without it those
# checks FAIL with that reason (xenroot: add python3-minimal and libpython3.11-stdlib).
# xendomains itself needs /lib/lsb/init-functions and /lib/init/vars.sh (sysvinit-utils).
XD_DEBIAN=${XD_DEBIAN:-/vmtest/debian-xen-init}
XD_BIN=/usr/lib/xen-common/bin

xendomains_keep_debian() {
	local f
	mkdir -p $XD_DEBIAN
	for f in xen-init-name xen-init-list; do
		head -n 1 $XD_BIN/$f 2>/dev/null | grep -q python3 && cp -f $XD_BIN/$f $XD_DEBIAN/$f
	done
}

xd_have_python() { [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import json, subprocess' 2>/dev/null; }

# xd_use forkless|debian: what /usr/lib/xen-common/bin/xen-init-* are
xd_use() {
	local f
	for f in xen-init-name xen-init-list; do
		rm -f $XD_BIN/$f
		if [ "$1" = forkless ]; then
			ln -s ../../../bin/forkless $XD_BIN/$f
		else
			cp $XD_DEBIAN/$f $XD_BIN/$f && chmod 755 $XD_BIN/$f
		fi
	done
}

# python3 out of reach (renamed) for the forkless run, and back
XD_HIDDEN=
xd_hide_python() {
	local f
	for f in /usr/bin/python3 /usr/bin/python3.*; do
		[ -e "$f" ] && [ "${f%.xd-hidden}" = "$f" ] || continue
		mv "$f" "$f.xd-hidden" && XD_HIDDEN="$XD_HIDDEN $f"
	done
}
xd_restore_python() {
	local f
	for f in $XD_HIDDEN; do mv "$f.xd-hidden" "$f"; done
	XD_HIDDEN=
}

# xd_cost TRACE: "P processes, E execs (python3 N)" of an strace_xl trace
xd_cost() {
	local p e py
	p=$(awk '{ print $1 }' "$1" | sort -u | wc -l)
	e=$(grep -c 'execve(.* = 0$' "$1")
	py=$(grep -c 'execve("[^"]*python3[^"]*".* = 0$' "$1")
	echo "$p processes, $e execs (python3 $py)"
}

xendomains_run() { # forkless|debian
	local v=$1 names="xd-$1-a xd-$1-b" n t0 ms rc bad=
	for f in /lib/lsb/init-functions /lib/init/vars.sh /etc/init.d/xendomains; do
		[ -f $f ] || { fail "xendomains-$v" "$f missing in the image (sysvinit-utils, xen-utils-common)"; return 1; }
	done
	if [ $v = debian ]; then
		[ -f $XD_DEBIAN/xen-init-list ] ||
			{ fail "xendomains-$v" "Debian's scripts were not kept (xendomains_keep_debian before --install)"; return 1; }
		xd_have_python ||
			{ fail "xendomains-$v" "no python3 with json and subprocess in the image: the baseline cannot run"; return 1; }
	fi
	xd_use $v
	# /etc/xen/auto: two domUs with Debian's hotplug scripts; stop shuts down (no save:
	# saving 2x96 MB under TCG measures the disk, not xendomains)
	rm -rf /etc/xen/auto && mkdir -p /etc/xen/auto
	for n in $names; do
		mkcfg $n idle /etc/xen/scripts
		ln -s $D/$n.cfg /etc/xen/auto/$n.cfg
	done
	cat >/etc/default/xendomains <<-CFG
	XENDOMAINS_MIGRATE=""
	XENDOMAINS_SAVE=""
	XENDOMAINS_RESTORE=false
	XENDOMAINS_AUTO=/etc/xen/auto
	XENDOMAINS_STOP_MAXWAIT=$XL_TIMEOUT
	CFG
	[ $v = forkless ] && xd_hide_python
	if [ $v = forkless ] && command -v python3 >/dev/null; then
		fail "xendomains-$v" "python3 still reachable: $(command -v python3)"
	fi

	t0=$EPOCHREALTIME
	strace_xl $T/trace-xendomains-$v-start.txt timeout $((XL_TIMEOUT * 3)) \
		/etc/init.d/xendomains start >$T/xendomains-$v-start.log 2>&1
	rc=$?
	ms=$(awk "BEGIN { printf \"%.0f\", ($EPOCHREALTIME - $t0) * 1000 }")
	for n in $names; do in_list $n || bad="$bad $n"; done
	if [ $rc = 0 ] && [ -z "$bad" ]; then
		pass "xendomains-$v-start"
	else
		fail_with "xendomains-$v-start" /dev/null $T/xendomains-$v-start.log \
			"rc=$rc; not running:$bad; output: $(oneline $T/xendomains-$v-start.log)"
	fi
	info "xendomains start ($v): ${ms} ms, $(xd_cost $T/trace-xendomains-$v-start.txt)"

	t0=$EPOCHREALTIME
	strace_xl $T/trace-xendomains-$v-stop.txt timeout $((XL_TIMEOUT * 3)) \
		/etc/init.d/xendomains stop >$T/xendomains-$v-stop.log 2>&1
	rc=$?
	ms=$(awk "BEGIN { printf \"%.0f\", ($EPOCHREALTIME - $t0) * 1000 }")
	bad=
	for n in $names; do wait_gone $n 30 || bad="$bad $n"; done
	if [ $rc = 0 ] && [ -z "$bad" ] && grep -q "Shutting down Xen domain xd-$v-a" $T/xendomains-$v-stop.log; then
		pass "xendomains-$v-stop"
	else
		fail_with "xendomains-$v-stop" /dev/null $T/xendomains-$v-stop.log \
			"rc=$rc; still running:$bad; output: $(oneline $T/xendomains-$v-stop.log)"
		for n in $bad; do xl destroy $n >/dev/null 2>&1; done
	fi
	info "xendomains stop ($v): ${ms} ms, $(xd_cost $T/trace-xendomains-$v-stop.txt)"
	if [ $v = forkless ]; then
		grep -q 'python3' $T/trace-xendomains-$v-start.txt $T/trace-xendomains-$v-stop.txt &&
			fail "xendomains-forkless-no-python" "python3 was run: $(grep -h python3 $T/trace-xendomains-$v-*.txt | head -n 2)" ||
			pass "xendomains-forkless-no-python"
		xd_restore_python
	fi
	rm -rf /etc/xen/auto
	save
}

# ---- xen-init-list against Debian's script, the real xl -----------------------------------
xd_same_list() { # CHECK
	local rc_f rc_d
	$XD_BIN/xen-init-list >$T/xil-forkless.txt 2>$T/xil-forkless.err
	rc_f=$?
	timeout 120 /usr/bin/python3 $XD_DEBIAN/xen-init-list >$T/xil-debian.txt 2>$T/xil-debian.err
	rc_d=$?
	if [ $rc_f = 0 ] && [ $rc_d = 0 ] && cmp -s $T/xil-forkless.txt $T/xil-debian.txt; then
		pass "xen-init-list-$1"
	else
		fail "xen-init-list-$1" "forkless rc=$rc_f [$(oneline $T/xil-forkless.txt)] [$(oneline $T/xil-forkless.err)]; debian rc=$rc_d [$(oneline $T/xil-debian.txt)] [$(oneline $T/xil-debian.err)]"
	fi
}
# a paused PV domU without devices: made in a few seconds, no hotplug script, never boots
xd_paused() { # NAME
	cat >$D/xil.cfg <<-CFG
	name = "$1"
	type = "pv"
	kernel = "$D/vmlinuz"
	ramdisk = "$D/initrd.gz"
	memory = 32
	CFG
	timeout $XL_TIMEOUT xl create -p $D/xil.cfg >>$T/xil-create.log 2>&1
	XIL_IDS="$XIL_IDS $(xl domid "$1" 2>/dev/null)"
}
XIL_IDS=
xen_init_list_differential() {
	local id
	[ -f $XD_DEBIAN/xen-init-list ] && xd_have_python ||
		{ fail xen-init-list-differential "no Debian script or no python3 with json in the image"; return 1; }
	xd_use forkless
	xd_same_list no-domu
	xd_paused xil-one
	xd_same_list one-domu
	xd_paused 'xil two'
	xd_paused 'xil-gäst-Ω'
	xd_same_list three-domus-space-utf8
	# being destroyed: listed while `xl destroy` runs, compared again once it is gone
	id=$(xl domid 'xil two' 2>/dev/null)
	xl destroy "$id" >/dev/null 2>&1 &
	local dpid=$!
	$XD_BIN/xen-init-list >$T/xil-during.txt 2>&1 && pass xen-init-list-during-destroy ||
		fail xen-init-list-during-destroy "$(oneline $T/xil-during.txt)"
	wait $dpid
	xd_same_list after-destroy
	# a stale /local/domain/N (no such domain): neither lists it
	xenstore-write /local/domain/4242/name ghost /local/domain/4242/domid 4242
	xd_same_list stale-entry
	xenstore-rm /local/domain/4242
	# a name key removed by hand: xl lists the stored name, forkless leaves it out (README)
	id=$(xl domid xil-one 2>/dev/null)
	xenstore-rm /local/domain/$id/name
	$XD_BIN/xen-init-list >$T/xil-forkless.txt 2>&1
	timeout 120 /usr/bin/python3 $XD_DEBIAN/xen-init-list >$T/xil-debian.txt 2>&1
	if grep -qx "$id xil-one" $T/xil-debian.txt && ! grep -q "^$id " $T/xil-forkless.txt; then
		pass "xen-init-list-no-name-key-documented-difference"
	else
		fail "xen-init-list-no-name-key-documented-difference" "debian [$(oneline $T/xil-debian.txt)] forkless [$(oneline $T/xil-forkless.txt)]"
	fi
	# by id: xil-one's name is gone from xenstore
	for id in $XIL_IDS; do xl destroy "$id" >/dev/null 2>&1; done
	XIL_IDS=
	xd_same_list cleaned-up
	save
}
