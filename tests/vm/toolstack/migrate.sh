#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/vm/toolstack/migrate.sh — live migration in the real dom0: a PVH domU moved to
# localhost over ssh, the receiving account's login shell xen-migrate-shell (README "Live
# migration without a shell"; the ssh side is migrate-ssh.sh's, shared with the noshell
# boot). Sourced by dom0.sh after seed.sh (it uses seed_query, seed_field, seed_disk;
# xd_use, xd_defaults, xd_traced, xd_programs, XD_BIN; mkcfg, in_list, wait_gone, strace_start,
# strace_xl, use_scripts, save, pass, fail, info; T, D, O, V, XL_TIMEOUT, TOKEN). Nothing
# runs on source.
#
#   migrate_run debian|forkless [xl] [xendomains]   (the steps, 2-3 and 5; both when none
#   is named; 1 and 4 always)
#     0. (once) sshd started under strace -f for the rest of the boot (mig-sshd.txt): the
#        receiving side of every migration, from sshd to the hotplug calls of the new domain
#     1. mig-SET, a PVH domU (128 MB) in seed mode (a marker in RAM; a report every 3 s),
#        created. Not PV: Debian builds Xen without shadow paging (CONFIG_SHADOW_PAGING
#        unset in /boot/xen-*.config, 4.17 and 4.20), and a PV guest's live migration
#        needs its log-dirty mode ("xc: error: Failed to enable logdirty: 95"); a PVH or
#        HVM guest's log-dirty mode is HAP's
#     2. `xl migrate mig-SET xen-migrate@localhost`, traced (mig-SET-send.txt); what sshd's
#        trace gained meanwhile in mig-SET-recv.txt
#     3. the guest: a new domid, the same marker (the same boot), a line dom0 wrote into
#        its disk image after the move read back, ping6 from dom0 over its new vif; a vif
#        and a disk call on each side, the receiver's login shell xen-migrate-shell (for
#        forkless's set: no shell at all on the receiving side)
#     4. (forkless's set) what else the account may ask, through the same sshd: a command
#        and a login, each refused (126), the domU untouched
#     5. `xendomains stop` with XENDOMAINS_MIGRATE=xen-migrate@localhost and
#        XENDOMAINS_SAVE="" (traced: mig-SET-xd.txt, the receiving side mig-SET-xdrecv.txt):
#        migrated again (a new domid), then shut down
#   debian: Debian's hotplug scripts and /etc/init.d/xendomains (its python3 xen-init-list);
#   forkless: the applets. tests/vm/proctable counts the processes (its migrate table).
. $V/migrate-ssh.sh
MIG_SSHD_TRACE=$T/mig-sshd.txt
MIG_STATE=   # 0 sshd up, 1 it could not be started
mig_sshd() {
	[ -z "$MIG_STATE" ] || return $MIG_STATE
	MIG_STATE=1
	if ! MB= mig_ssh_setup ""; then
		fail migrate-sshd "$MIG_WHY"
		return 1
	fi
	strace_start $MIG_SSHD_TRACE /usr/sbin/sshd -f $MIG_SSHD_CONFIG >$T/mig-sshd.log 2>&1
	local rc=$?
	if [ $rc = 0 ] && [ -s /run/sshd.pid ]; then
		pass migrate-sshd
		MIG_STATE=0
	else
		fail migrate-sshd "sshd -f $MIG_SSHD_CONFIG: rc=$rc, $(oneline $T/mig-sshd.log)"
	fi
	return $MIG_STATE
}
# mig_recv_from: where sshd's trace is now; mig_recv OUT: what it gained since, once
# strace has written it (the receiving xl returns before its sender)
mig_recv_from() { MIG_FROM=$(($(wc -l <$MIG_SSHD_TRACE) + 1)); }
mig_recv() { nap 1; tail -n +$MIG_FROM $MIG_SSHD_TRACE >"$1"; }
# mig_calls TRACE: "vif-bridge N block M", the hotplug calls a trace started
mig_calls() {
	local p
	p=$(xd_programs "$1")
	echo "vif-bridge $(grep -cx vif-bridge <<<"$p") block $(grep -cx block <<<"$p")"
}
mig_domid() { xl domid "$1" 2>/dev/null; }
# mig_no_xl: until no xl process is left (30 s at most; builtins only)
mig_no_xl() {
	local i=0 f c busy
	while [ $i -lt 60 ]; do
		busy=
		for f in /proc/[0-9]*/comm; do
			read -r c <"$f" 2>/dev/null && [ "$c" = xl ] && busy=1 && break
		done
		[ -z "$busy" ] && return 0
		nap 0.5
		i=$((i + 1))
	done
	return 1
}
# mig_sides SET CHECK SEND RECV WANT-SEND WANT-RECV: the hotplug calls of each side's
# trace ("vif-bridge N block M"); the receiver ran xen-migrate-shell, then the real xl's
# migrate-receive (mig_receiver), and (forkless's set, its hotplug applets) no shell at all
mig_sides() {
	local v=$1 tag=$2 sc rc_ bad= p
	shift
	sc=$(mig_calls "$2") rc_=$(mig_calls "$3")
	info "migrate: $tag: hotplug calls: sender $sc, receiver $rc_; the receiver ran: $(xd_programs "$3" | sort | uniq -c | tr -s ' \n' ' ')"
	[ "$sc" = "$4" ] && [ "$rc_" = "$5" ] && pass "$tag-hotplug-both-sides" ||
		fail "$tag-hotplug-both-sides" "sender: $sc (want $4); receiver: $rc_ (want $5)"
	MB= mig_receiver "$3" || bad=$MIG_WHY
	[ $v = forkless ] && p=$(xd_programs "$3" | grep -xE 'sh|dash|bash|rbash|python3.*' | sort -u) &&
		[ -n "$p" ] && bad="$bad; a shell on the receiving side: $p"
	[ -z "$bad" ] && pass "$tag-receiver-no-shell" || fail "$tag-receiver-no-shell" "${bad#; }"
}

migrate_run() { # debian|forkless [xl] [xendomains]: the steps (both when none is named)
	local v=$1 n=mig-$1 id0 id1 mark rc steps=" ${*:2} "
	[ "$steps" != "  " ] || steps=" xl xendomains "
	mig_sshd || return 1
	use_scripts $v
	xd_use $v
	rm -f /tmp/seed-cin && mkfifo /tmp/seed-cin
	sleep 3600 >/tmp/seed-cin &
	local holder=$!
	# 1. the guest
	mkcfg $n seed /etc/xen/scripts pvh 128
	seed_disk $n "MIG-DISK first $n"
	if ! timeout $XL_TIMEOUT xl create $D/$n.cfg >$T/mig-$v-create.log 2>&1 || ! seed_query $n; then
		fail "migrate-$v-guest-up" "xl create or its first report failed: $(oneline $T/mig-$v-create.log); console: $(oneline $O/seed-console-$n.txt)"
		xl destroy $n >/dev/null 2>&1
		kill $holder
		return 1
	fi
	mark=$(seed_field marker)
	id1=$(mig_domid $n)
	if [[ $steps == *" xl "* ]]; then
		# 2. moved
		id0=$id1
		mig_recv_from
		strace_xl $T/mig-$v-send.txt timeout $XL_TIMEOUT xl migrate $n $MIG_HOST >$T/mig-$v-send.log 2>&1
		rc=$?
		mig_recv $T/mig-$v-recv.txt
		id1=$(mig_domid $n)
		if [ $rc = 0 ] && [ -n "$id1" ] && [ "$id1" != "$id0" ] && ! in_list $n--migratedaway && ! in_list $n--incoming; then
			pass "migrate-$v-xl-migrate"
		else
			fail "migrate-$v-xl-migrate" "xl migrate $n $MIG_HOST: rc=$rc, domid $id0 -> [$id1]; xl list: $(xl list | awk 'NR > 1 { printf "%s ", $1 }'); output: $(oneline $T/mig-$v-send.log)"
			show_log /var/log/xen/xl-$n.log 12
		fi
		# 3. the same guest, its disk and its new vif; the calls on each side: the old
		# domain's vif and disk taken down by the sender, the new one's set up by the receiver
		seed_disk $n "MIG-DISK after-migrate $n $TOKEN"
		if seed_query $n "MIG-DISK after-migrate $n $TOKEN"; then
			[ "$(seed_field marker)" = "$mark" ] && pass "migrate-$v-same-boot" ||
				fail "migrate-$v-same-boot" "marker before/after: $mark/$(seed_field marker)"
			[ "$(seed_field disk)" = "MIG-DISK after-migrate $n $TOKEN" ] && pass "migrate-$v-disk-read" ||
				fail "migrate-$v-disk-read" "first line read: [$(seed_field disk)]"
			$V/busybox ping6 -c 1 -w 20 -I xenbr0 "$(seed_field ll)" >$T/mig-$v-ping.txt 2>&1 &&
				pass "migrate-$v-ping6" || fail "migrate-$v-ping6" "$(seed_field ll): $(oneline $T/mig-$v-ping.txt)"
		else
			fail "migrate-$v-same-boot" "no report after the move: $(oneline $O/seed-console-$n.txt)"
		fi
		mig_sides $v migrate-$v $T/mig-$v-send.txt $T/mig-$v-recv.txt "vif-bridge 1 block 1" "vif-bridge 1 block 1"
	fi
	# 4. nothing else for the account (once)
	if [ $v = forkless ]; then
		timeout 60 ssh -T $MIG_HOST xl destroy $n </dev/null >$T/mig-refused.log 2>&1
		rc=$?
		timeout 60 ssh -T $MIG_HOST </dev/null >>$T/mig-refused.log 2>&1
		local rc2=$?
		if [ $rc = 126 ] && [ $rc2 = 126 ] && [ "$(mig_domid $n)" = "$id1" ] &&
			grep -q "^xen-migrate-shell: refused: .*'xl destroy $n'" $T/mig-refused.log; then
			pass migrate-account-refuses-the-rest
		else
			fail migrate-account-refuses-the-rest "ssh $MIG_HOST xl destroy $n: rc=$rc, a login: rc=$rc2; domid $id1 -> [$(mig_domid $n)]; $(oneline $T/mig-refused.log)"
		fi
	fi
	save
	# 5. a dom0's shutdown that migrates its guests away: migrated (a new domid), then shut
	# down; the receiver's xl daemon runs the new domain's remove calls at the shutdown
	if [[ $steps == *" xendomains "* ]]; then
		xd_defaults $MIG_HOST '""' true
		local xd=$XD_BIN/xendomains m s
		[ $v = debian ] && xd=/etc/init.d/xendomains
		mig_recv_from
		xd_traced $T/mig-$v-xd.txt $T/rc-mig $xd stop >$T/mig-$v-xd.log 2>&1
		rc=$?
		wait_gone $n 30
		local gone=$?
		mig_no_xl   # the receiving xl's daemon: the remove calls, then its exit
		mig_recv $T/mig-$v-xdrecv.txt
		m=$(sed -n "s/.*Migrating Xen domain $n (\([0-9]*\)).*/\1/p" $T/mig-$v-xd.log)
		s=$(sed -n "s/.*Shutting down Xen domain $n (\([0-9]*\)).*/\1/p" $T/mig-$v-xd.log)
		if [ $rc = 0 ] && [ "$m" = "$id1" ] && [ -n "$s" ] && [ "$s" != "$m" ] && [ $gone = 0 ]; then
			pass "migrate-$v-xendomains-stop"
		else
			fail "migrate-$v-xendomains-stop" "rc=$rc; migrated domid [$m] (was $id1), shut down as [$s]; xl list: $(xl list | awk 'NR > 1 { printf "%s ", $1 }'); output: $(oneline $T/mig-$v-xd.log)"
			xl destroy $n >/dev/null 2>&1
		fi
		wait_exit $XD_TRACER 30 || kill $XD_TRACER 2>/dev/null
		mig_sides $v migrate-$v-xendomains $T/mig-$v-xd.txt $T/mig-$v-xdrecv.txt "vif-bridge 1 block 1" "vif-bridge 2 block 2"
	else
		xl destroy $n >/dev/null 2>&1
		wait_gone $n 30 || fail "migrate-$v-destroyed" "$n still listed after xl destroy"
	fi
	kill $holder 2>/dev/null
	echo $v >>$T/mig-sets
	save
}
