#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/vm/toolstack/xendomains.sh — Debian's /etc/init.d/xendomains in the real dom0, with
# forkless's xen-init-name and xen-init-list and with Debian's Python ones (issue: the two
# Python scripts of /usr/lib/xen-common/bin). Sourced by tests/vm/toolstack/dom0.sh once
# the toolstack is up and its section-3 helpers exist (pass, fail, info, fail_with, mkcfg,
# paused_cfg, in_list, wait_gone, nap, STRACE_XL, save; T, D, K, V, XL_TIMEOUT). Nothing runs
# on source.
#
#   xendomains_keep_debian        BEFORE `forkless --install -s /`: keep Debian's
#                                 xen-init-name and xen-init-list (python3 scripts) in
#                                 $XD_DEBIAN, for the baseline and the differential checks
#   xendomains_run forkless|debian|applet
#                                 /etc/xen/auto with two PV domUs, then
#                                 `xendomains start` (both must run) and
#                                 `stop` (both must be gone), each under strace -f: PASS/FAIL
#                                 lines, and INFO lines with the wall time, processes and
#                                 execs of start and of stop. debian, forkless: Debian's
#                                 /etc/init.d/xendomains with Debian's xen-init-* (python3
#                                 required) or forkless's (python3 made unreachable for the
#                                 run, as a dom0 without it); applet: forkless's
#                                 /usr/lib/xen-common/bin/xendomains, python3 unreachable,
#                                 and no program but xl and the hotplug applets started.
#   xen_init_list_differential    forkless's xen-init-list against Debian's script (real
#                                 xl) with no domU, one, three (names with a space and
#                                 UTF-8), one being destroyed, a stale /local/domain/N and
#                                 one whose name key was removed (README: a documented
#                                 difference, checked as such).
#
#   xen_init_name_differential    forkless's xen-init-name against Debian's script (real
#                                 xl) over tests/xen/init-corpus and Debian's xlexample.*
#                                 (with CRLF copies): same name, or both refuse, except the
#                                 differences README lists (XIN_DIFFERENT below)
#
# Only xen-init-* and python3 differ between the two xendomains runs: `xen`, `xl` and the
# wrapper are forkless's in both (dom0.sh installed them), the hotplug scripts the same set
# in both (dom0.sh section 4 chooses it).
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

# xd_defaults MIGRATE SAVE RESTORE [MAXWAIT]: /etc/default/xendomains as Debian's has
# them (SAVE as written: a path or ""), the configs in /etc/xen/auto, the stop bound
# the suite's (XL_TIMEOUT) unless given
xd_defaults() {
	cat >/etc/default/xendomains <<-CFG
	XENDOMAINS_MIGRATE="$1"
	XENDOMAINS_SAVE=$2
	XENDOMAINS_RESTORE=$3
	XENDOMAINS_AUTO=/etc/xen/auto
	XENDOMAINS_STOP_MAXWAIT=${4:-$XL_TIMEOUT}
	CFG
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
	hash -r # bash remembers where it found python3 (section 4 ran it)
}
xd_restore_python() {
	local f
	for f in $XD_HIDDEN; do mv "$f.xd-hidden" "$f"; done
	XD_HIDDEN=
}

# the execs of xen-init-name and xen-init-list in a trace (a python3 script's execve is
# the script's path: the kernel starts python3 inside it)
# (strace -f splits an execve that another process's call interrupts: "execve(...
# <unfinished ...>" then "PID TIME <... execve resumed>...) = 0")
xd_init_calls() {
	awk '/execve\("[^"]*\/xen-init-(name|list)"/ {
		if (/ = 0$/) n++; else if (/<unfinished \.\.\.>$/) pend[$1] = 1; next }
	     /<\.\.\. execve resumed>/ && ($1 in pend) { if (/ = 0$/) n++; delete pend[$1] }
	     END { print n + 0 }' "$1"
}

# xd_traced OUT RCFILE CMD...: CMD traced as strace_xl traces (with `timeout`, inside a bash
# that writes CMD's status to RCFILE), returning once that bash has ended, with strace's
# pid in XD_TRACER. strace itself goes on as long as what CMD left running: `xendomains
# start` leaves each domain's xl daemon, which must stay traced (strace kills what it
# started when it is stopped) and which does the domain's teardown at stop. Counted with
# CMD: the harness's bash, timeout and mv.
XD_TRACER=
xd_traced() {
	local out=$1 rcf=$2 i=0
	shift 2
	rm -f $rcf
	"${STRACE_XL[@]}" -o $out \
		bash -c "timeout $((XL_TIMEOUT * 3)) \"\$@\"; echo \$? >$rcf.new; mv $rcf.new $rcf" _ "$@" &
	XD_TRACER=$!
	while [ ! -s $rcf ] && kill -0 $XD_TRACER 2>/dev/null && [ $i -lt $((XL_TIMEOUT * 15)) ]; do
		nap 0.2
		i=$((i + 1))
	done
	[ -s $rcf ] || echo 124 >$rcf
	return "$(cat $rcf)"
}

# the programs a trace started (execve that succeeded, an interrupted one's resumption
# included, as xd_init_calls counts them), by basename, one a line, sorted
xd_programs() {
	awk 'function base(l,  p, n, a) { p = l; sub(/^[^"]*execve\("/, "", p); sub(/".*/, "", p);
			n = split(p, a, "/"); return a[n] }
	     /execve\("/ { if (/ = 0$/) print base($0); else if (/<unfinished \.\.\.>$/) pend[$1] = base($0); next }
	     /<\.\.\. execve resumed>/ && ($1 in pend) { if (/ = 0$/) print pend[$1]; delete pend[$1] }' "$1" | sort
}

xendomains_run() { # forkless|debian|applet
	local v=$1 names="xd-$1-a xd-$1-b" n t0 ms rc bad= xd=/etc/init.d/xendomains
	[ $v = applet ] && xd=$XD_BIN/xendomains
	for f in /lib/lsb/init-functions /lib/init/vars.sh $xd; do
		[ -f $f ] || { fail "xendomains-$v" "$f missing in the image (sysvinit-utils, xen-utils-common)"; return 1; }
	done
	if [ $v = debian ]; then
		[ -f $XD_DEBIAN/xen-init-list ] ||
			{ fail "xendomains-$v" "Debian's scripts were not kept (xendomains_keep_debian before --install)"; return 1; }
		xd_have_python ||
			{ fail "xendomains-$v" "no python3 with json and subprocess in the image: the baseline cannot run"; return 1; }
	fi
	xd_use $([ $v = applet ] && echo forkless || echo $v)
	# /etc/xen/auto: two domUs with Debian's hotplug scripts; stop shuts down (no save:
	# saving 2x96 MB under TCG measures the disk, not xendomains)
	rm -rf /etc/xen/auto && mkdir -p /etc/xen/auto
	for n in $names; do
		mkcfg $n idle /etc/xen/scripts
		ln -s $D/$n.cfg /etc/xen/auto/$n.cfg
	done
	xd_defaults "" '""' false
	[ $v != debian ] && xd_hide_python
	if [ $v != debian ] && command -v python3 >/dev/null; then
		fail "xendomains-$v" "python3 still reachable: $(command -v python3)"
	fi

	t0=$EPOCHREALTIME
	xd_traced $T/trace-xendomains-$v-start.txt $T/rc-start $xd start \
		>$T/xendomains-$v-start.log 2>&1
	rc=$?
	ms=$(awk "BEGIN { printf \"%.0f\", ($EPOCHREALTIME - $t0) * 1000 }")
	for n in $names; do in_list $n || bad="$bad $n"; done
	if [ $rc = 0 ] && [ -z "$bad" ]; then
		pass "xendomains-$v-start"
	else
		fail_with "xendomains-$v-start" /dev/null $T/xendomains-$v-start.log \
			"rc=$rc; not running:$bad; output: $(oneline $T/xendomains-$v-start.log)"
	fi
	local t_end=$EPOCHREALTIME tracer=$XD_TRACER
	info "xendomains start ($v): ${ms} ms (processes: tests/vm/proctable's table)"
	# for tests/vm/proctable (the benchmark table): start's part of the trace, and its time
	awk -v b=$t_end '$2 + 0 <= b' $T/trace-xendomains-$v-start.txt >$T/xd-$v-start.txt
	echo $ms >$T/xd-$v-start.ms
	# the guests up (untraced, not timed) before stop: a PV kernel that gets its shutdown
	# request before it can run /sbin/poweroff ignores it (orderly_poweroff without force),
	# and xendomains would wait it out. Up: its netfront connected (frontend state 4),
	# which comes after the initramfs is unpacked. (Their consoles cannot tell: what a
	# guest prints while no `xl console` is attached is not shown to a later one.)
	local id st i
	for n in $names; do
		id=$(xl domid $n 2>/dev/null) i=0 st=
		while [ "$st" != 4 ] && [ $i -lt $XL_TIMEOUT ]; do
			st=$(xenstore-read /local/domain/$id/device/vif/0/state 2>/dev/null)
			[ "$st" = 4 ] || nap 1
			i=$((i + 1))
		done
		[ "$st" = 4 ] || fail "xendomains-$v-guests-up" "$n (domain $id): its vif frontend state is '$st' after ${XL_TIMEOUT}s"
	done
	nap 3

	t0=$EPOCHREALTIME
	xd_traced $T/trace-xendomains-$v-stop.txt $T/rc-stop $xd stop \
		>$T/xendomains-$v-stop.log 2>&1
	rc=$?
	ms=$(awk "BEGIN { printf \"%.0f\", ($EPOCHREALTIME - $t0) * 1000 }")
	wait_exit $XD_TRACER 30
	bad=
	for n in $names; do wait_gone $n 30 || bad="$bad $n"; done
	# the daemons' part of stop (the domains' teardown, the hotplug calls) is in start's
	# trace, which ends with them
	wait_exit $tracer 60 || kill $tracer 2>/dev/null
	if [ $rc = 0 ] && [ -z "$bad" ] && grep -q "Shutting down Xen domain xd-$v-a" $T/xendomains-$v-stop.log; then
		pass "xendomains-$v-stop"
	else
		fail_with "xendomains-$v-stop" /dev/null $T/xendomains-$v-stop.log \
			"rc=$rc; still running:$bad; output: $(oneline $T/xendomains-$v-stop.log)"
		for n in $bad; do xl destroy $n >/dev/null 2>&1; done
	fi
	{ cat $T/trace-xendomains-$v-stop.txt; awk -v a=$t0 '$2 + 0 >= a' $T/trace-xendomains-$v-start.txt; } >$T/xd-$v-stop.txt
	echo $ms >$T/xd-$v-stop.ms
	info "xendomains stop ($v): ${ms} ms"
	if [ $v = forkless ]; then
		# python3 was out of reach, and xen-init-name ran for each file (start) and
		# xen-init-list for each of stop's passes: forkless's, or nothing would have worked
		local ns nl
		ns=$(xd_init_calls $T/trace-xendomains-$v-start.txt)
		nl=$(xd_init_calls $T/trace-xendomains-$v-stop.txt)
		[ "$ns" -ge 2 ] && [ "$nl" -ge 2 ] && [ ! -e /usr/bin/python3 ] &&
			pass "xendomains-forkless-no-python" ||
			fail "xendomains-forkless-no-python" "xen-init-* calls: start $ns, stop $nl; /usr/bin/python3: $(ls -l /usr/bin/python3 2>&1)"
		xd_restore_python
	fi
	if [ $v = applet ]; then
		# python3 was out of reach; beside the harness (bash, timeout, mv) only the
		# applet, xl and the hotplug applets ran: no shell, sleep, seq, cat, xen-init-*
		local other
		other=$(cat $T/trace-xendomains-$v-start.txt $T/trace-xendomains-$v-stop.txt |
			xd_programs /dev/stdin | grep -vxE 'bash|timeout|mv|xendomains|xl|vif-bridge|block' |
			sort | uniq -c | tr -s ' \n' ' ')
		[ -z "$other" ] && [ ! -e /usr/bin/python3 ] &&
			pass "xendomains-applet-only-xl" ||
			fail "xendomains-applet-only-xl" "other programs started: $other; /usr/bin/python3: $(ls -l /usr/bin/python3 2>&1)"
		[ "$(xd_programs $T/trace-xendomains-$v-start.txt | grep -cx bash)" = 1 ] &&
			pass "xendomains-applet-no-shell" ||
			fail "xendomains-applet-no-shell" "bash started $(xd_programs $T/trace-xendomains-$v-start.txt | grep -cx bash) times in start (1: the harness's)"
		xd_restore_python
	fi
	rm -rf /etc/xen/auto
	save
}

# ---- xen-init-list against Debian's script, the real xl -----------------------------------
xd_same_list() { # CHECK LINES: the same LINES lines from both
	local rc_f rc_d
	$XD_BIN/xen-init-list >$T/xil-forkless.txt 2>$T/xil-forkless.err
	rc_f=$?
	timeout 120 /usr/bin/python3 $XD_DEBIAN/xen-init-list >$T/xil-debian.txt 2>$T/xil-debian.err
	rc_d=$?
	if [ $rc_f = 0 ] && [ $rc_d = 0 ] && cmp -s $T/xil-forkless.txt $T/xil-debian.txt &&
		[ "$(wc -l <$T/xil-debian.txt)" = "$2" ]; then
		pass "xen-init-list-$1"
	else
		fail "xen-init-list-$1" "forkless rc=$rc_f [$(oneline $T/xil-forkless.txt)] [$(oneline $T/xil-forkless.err)]; debian rc=$rc_d [$(oneline $T/xil-debian.txt)] [$(oneline $T/xil-debian.err)]"
	fi
}
# a paused PV domU without devices: made in a few seconds, no hotplug script, never boots
xd_paused() { # NAME
	paused_cfg "$1"
	timeout $XL_TIMEOUT xl create -p "$D/$1.cfg" >>$T/xil-create.log 2>&1 ||
		fail "xen-init-list-create-$1" "xl create -p failed: $(tail -n 3 $T/xil-create.log | tr '\n' '|')"
	XIL_IDS="$XIL_IDS $(xl domid "$1" 2>/dev/null)"
}
XIL_IDS=
xen_init_list_differential() {
	local id
	[ -f $XD_DEBIAN/xen-init-list ] && xd_have_python ||
		{ fail xen-init-list-differential "no Debian script or no python3 with json in the image"; return 1; }
	xd_use forkless
	xd_same_list no-domu 0
	xd_paused xil-one
	xd_same_list one-domu 1
	xd_paused 'xil two'
	xd_paused 'xil-gäst-Ω'
	xd_same_list three-domus-space-utf8 3
	# being destroyed: listed while `xl destroy` runs, compared again once it is gone
	id=$(xl domid 'xil two' 2>/dev/null)
	xl destroy "$id" >/dev/null 2>&1 &
	local dpid=$!
	$XD_BIN/xen-init-list >$T/xil-during.txt 2>&1 && grep -q 'xil-one' $T/xil-during.txt &&
		pass xen-init-list-during-destroy ||
		fail xen-init-list-during-destroy "$(oneline $T/xil-during.txt)"
	wait $dpid
	xd_same_list after-destroy 2
	# a stale /local/domain/N (no such domain): neither lists it
	xenstore-write /local/domain/4242/name ghost /local/domain/4242/domid 4242
	xd_same_list stale-entry 2
	grep -q . $T/xil-forkless.err && strace -f -e trace=read,write,sendto,recvfrom -s 80 -x -o $T/xil-stale.trace \
		$XD_BIN/xen-init-list >/dev/null 2>&1; [ -f $T/xil-stale.trace ] && show_log $T/xil-stale.trace 12
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
	xd_same_list cleaned-up 0
	save
}

# ---- xen-init-name against Debian's script, the real xl --------------------------------------
# Where they may differ, file: reason (README "xen-init-name", differences). Anything else
# that differs is a FAIL.
# xl create refuses a PV config without a kernel ("Neither kernel nor bootloader specified")
# before it prints anything: the corpus files (grammar probes, most of them only a name) get
# a kernel line in front, and one file without it shows the difference: xl's checks of the
# values, which forkless does not make (README), as do two files whose lists are named
# `disk` (xl parses each string as a disk). An empty name: Debian prints an empty line,
# forkless refuses it (README).
XIN_DIFFERENT="nokernel-plain.cfg:xl-refuses-a-PV-config-without-kernel
 add-lists-other-key.cfg:xl-refuses-disk-a list-multiline.cfg:xl-refuses-disk-a
 empty-string.cfg:empty-name-refused escape-octal-only-name.cfg:empty-name-refused"
xen_init_name_differential() {
	local c=$V/xin-corpus g=$T/xin-gen f
	[ -f $XD_DEBIAN/xen-init-name ] && xd_have_python ||
		{ fail xen-init-name-differential "no Debian script or no python3 with json in the image"; return 1; }
	xd_use forkless
	rm -rf $g && mkdir -p $g
	for f in /etc/xen/xlexample.*; do
		cp "$f" $g/debian-${f##*/}
		sed 's/$/\r/' "$f" >$g/debian-${f##*/}-crlf
	done
	for f in $c/*.cfg; do
		{ echo "kernel = \"$K\""; cat "$f"; } >$g/${f##*/}
	done
	cp $c/plain.cfg $g/nokernel-plain.cfg
	# Debian's script as xendomains runs it, once per file, all in one python3 process
	# (runpy runs the script's own code as __main__ with sys.argv [script, FILE]; xl's
	# stderr, which xendomains discards, kept per file): a python3 start per file would
	# cost minutes under TCG and change nothing the script does
	python3 - $XD_DEBIAN/xen-init-name $XD_BIN/xen-init-name $T/xin-diff.txt "$XIN_DIFFERENT" \
		$g/* >$T/xin-result.txt 2>&1 <<-'PY'
	import io, os, runpy, subprocess, sys, contextlib, tempfile
	script, ours, out, allowed = sys.argv[1:5]
	allowed = dict(a.split(':', 1) for a in allowed.split() if ':' in a)
	same = diff = known = 0
	with open(out, 'w') as rep:
	    for f in sys.argv[5:]:
	        sys.argv = [script, f]
	        buf = io.StringIO()
	        err = tempfile.TemporaryFile()
	        saved = os.dup(2)
	        os.dup2(err.fileno(), 2)
	        try:
	            with contextlib.redirect_stdout(buf):
	                runpy.run_path(script, run_name='__main__')
	            d = ('ok', buf.getvalue())
	        except BaseException as e:
	            d = ('refused', type(e).__name__)
	        finally:
	            os.dup2(saved, 2)
	            os.close(saved)
	        err.seek(0)
	        xlerr = err.read().decode(errors='replace').strip().replace('\n', '|')[:200]
	        r = subprocess.run([ours, f], capture_output=True)
	        fl = ('ok', r.stdout.decode(errors='replace')) if r.returncode == 0 else ('refused', r.returncode)
	        name = os.path.basename(f)
	        agree = d == fl or (d[0] == 'refused' and fl[0] == 'refused')
	        if agree:
	            same += 1
	            continue
	        line = '%s: debian %r forkless %r xl: %s' % (name, d, fl, xlerr)
	        if name in allowed:
	            known += 1
	            rep.write('documented (%s) %s\n' % (allowed[name], line))
	        else:
	            diff += 1
	            rep.write('DIFFERENT %s\n' % line)
	print(same, known, diff)
	PY
	local same known diff
	read -r same known diff <$T/xin-result.txt
	info "xen-init-name in dom0: $same files agree with Debian's script and the real xl, $known documented differences, ${diff:-?} others"
	grep -q . $T/xin-diff.txt && sed 's/^/VMTEST INFO xen-init-name: /' $T/xin-diff.txt | head -n 40
	if [ "${diff:-x}" = 0 ] && [ "${known:-0}" = "$(echo $XIN_DIFFERENT | wc -w)" ] && [ "${same:-0}" -gt 100 ]; then
		pass xen-init-name-same-as-debian-with-real-xl
	else
		fail xen-init-name-same-as-debian-with-real-xl "$(oneline $T/xin-result.txt)"
	fi
	# one file, each way: python3 + xl against forkless alone
	local t0 ms_d ms_f i
	f=/etc/xen/xlexample.pvlinux
	t0=$EPOCHREALTIME
	for i in 1 2 3; do $XD_DEBIAN/xen-init-name $f >/dev/null 2>&1; done
	ms_d=$(awk "BEGIN { printf \"%.0f\", ($EPOCHREALTIME - $t0) * 1000 / 3 }")
	t0=$EPOCHREALTIME
	for i in 1 2 3; do $XD_BIN/xen-init-name $f >/dev/null 2>&1; done
	ms_f=$(awk "BEGIN { printf \"%.1f\", ($EPOCHREALTIME - $t0) * 1000 / 3 }")
	info "xen-init-name ${f##*/}: Debian's (python3 + xl) ${ms_d} ms, forkless ${ms_f} ms a call"
	save
}
