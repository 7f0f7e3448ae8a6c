#!/bin/bash
# SPDX-License-Identifier: MIT
# cgroup-resolve -w: fanotify events, listing without a gap, short-lived
# cgroups, queue overflow and rescan, the rescanning fallback, signals.
. "$(dirname "$0")/lib-cgroup.sh"
cg_setup cgroup/watch || exit 0

TAB=$'\t'
rel=${T#"$M"}

# wait_for FILE GREP-PATTERN [SECONDS]: until a line matches (fixed string)
wait_for() {
	local i
	for ((i = 0; i < ${3:-5} * 20; i++)); do
		grep -qF -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# The cgroups a watch output says exist at its end: apply +/- in order.
alive_ids() {
	awk -F'\t' -v t="$2" '
		/^\+/ { id = substr($1, 2); if ($2 == t || index($2, t "/") == 1) a[id] = 1 }
		/^-/  { delete a[substr($1, 2)] }
		END   { for (i in a) print i }' "$1" | sort -n
}

# start_watch OUT ARGS...: run the watcher in the background (WPID)
start_watch() {
	local out=$1
	shift
	$CR "$@" >"$out" 2>"$out.err" &
	WPID=$!
	CG_KILL_PIDS+=" $WPID"
}

# watch_stderr FILE: the watcher's stderr but for the complaints about
# another run's cgroups: the hierarchy is one for every mount of it, and
# tests/hostile/cgroup.sh makes paths over 8 KiB in it, which a watcher
# reports as "cgroup-resolve: ID: Filename too long". This test's tree
# has no such path.
watch_stderr() { grep -v -x 'cgroup-resolve: [0-9]*: Filename too long' "$1"; }

stop_watch() {   # stop_watch SIGNAL: sets WRC
	kill -"$1" "$WPID"
	WRC=0
	wait "$WPID" || WRC=$?
}

# ---- listing, then events with no gap; short-lived cgroups ---------------
mkdir -p "$T/pre/x"
W=$CG_WORK/w1
start_watch "$W" -m "$M" -w -l
if wait_for "$W" "	$T/pre/x"; then
	pass watch/lists-existing-first
else
	fail watch/lists-existing-first "no + line for $T/pre/x" "$(head -c 500 "$W" "$W.err")"
fi
head -n 1 "$W" | grep -qxF "+1	$M" && pass watch/root-first || fail watch/root-first "$(head -n 1 "$W")"
nlisted=$(wc -l <"$W")
for i in $(seq 1 30); do mkdir "$T/fast$i"; rmdir "$T/fast$i"; done
mkdir "$T/stay" "$T/stay/child"
mkdir "$T/tab${TAB}x"
rmdir "$T/pre/x"
if wait_for "$W" "	$T/stay/child" && wait_for "$W" "	$T/tab\\011x" &&
	wait_for "$W" "$T/fast30"; then
	sleep 0.2
fi
seen=0
for i in $(seq 1 30); do
	plus=$(grep -P "^\+\d+\t\Q$T/fast$i\E\$" "$W" | cut -f1)
	minus=$(grep -P "^-\d+\t\Q$T/fast$i\E\$" "$W" | cut -f1)
	[ -n "$plus" ] && [ "${plus#+}" = "${minus#-}" ] &&
		[ "$(grep -n -F "$T/fast$i" "$W" | head -n1 | cut -d: -f2 | cut -c1)" = + ] &&
		seen=$((seen + 1))
done
check watch/created-and-removed-within-ms "30 of 30" "$seen of 30"
check watch/nested-create "+$(cg_id "$T/stay")	$T/stay
+$(cg_id "$T/stay/child")	$T/stay/child" "$(grep -F "$T/stay" "$W")"
# (this test's cgroup: another run's tests on the machine make their own tab\011x)
check watch/escaped "+$(cg_id "$T/tab${TAB}x")	$T/tab\\011x" "$(grep -F "	$T/tab\\011x" "$W")"
grep -qP "^-\d+\t\Q$T/pre/x\E\$" "$W" && pass watch/remove-of-listed ||
	fail watch/remove-of-listed "no - line for $T/pre/x"
dups=$(sed -n "$((nlisted + 1)),\$p" "$W" | cut -f1 | sort | uniq -d | head -n 3)
check watch/no-duplicate-lines "" "$dups"
stop_watch TERM
check watch/sigterm-exit-0 0 "$WRC"
check watch/quiet-stderr "" "$(watch_stderr "$W.err")"
check watch/final-state-matches-tree "$(find "$T" -type d -printf '%i\n' | sort -n)" \
	"$(alive_ids "$W" "$T")"

# ---- without -l: only events; -r; SIGINT ---------------------------------
W=$CG_WORK/w2
if env --default-signal=INT true 2>/dev/null; then sigint="env --default-signal=INT"; else sigint=; fi
$sigint $CR -m "$M" -w -r >"$W" 2>"$W.err" &
WPID=$! CG_KILL_PIDS+=" $WPID"
# Ready means marked and walked: with no listing to wait for, cgroups are
# made and removed until one is reported (only the event loop prints).
cg_watch_ready "$W" probe
mkdir "$T/quiet"
wait_for "$W" "$rel/quiet"
# (its lines below $T: another suite's cgroups may come and go meanwhile)
check watch/events-only-relative "+$(cg_id "$T/quiet")	$rel/quiet" \
	"$(grep -vP "^[-+]\d+\t\Q$rel/probe\E\$" "$W" | grep -P "^[-+]\d+\t\Q$rel/\E")"
grep -qP "^[-+]\d+\t\Q$rel/probe\E\$" "$W" && pass watch/events-only-ready ||
	fail watch/events-only-ready "no event for $rel/probe: $(head -c 300 "$W" "$W.err")"
if [ -n "$sigint" ]; then
	stop_watch INT
	check watch/sigint-exit-0 0 "$WRC"
else
	stop_watch TERM
	skip watch/sigint-exit-0 "env --default-signal is missing (coreutils < 8.31)"
fi

# ---- a bind-mounted subtree: events outside it are not reported ----------
B=$CG_WORK/sub
mkdir -p "$B" "$T/sub"
mount --bind "$T/sub" "$B"
W=$CG_WORK/w3
start_watch "$W" -m "$B" -w -l
wait_for "$W" "	$B"
mkdir "$T/outside" "$T/sub/inside"
wait_for "$W" "$B/inside"
sleep 0.2
check watch/bind-subtree-only "+$(cg_id "$T/sub")	$B
+$(cg_id "$T/sub/inside")	$B/inside" "$(cat "$W")"
stop_watch TERM
umount "$B"

# ---- queue overflow: the reader stopped while thousands of cgroups come ---
qmax=$(cat /proc/sys/fs/fanotify/max_queued_events 2>/dev/null || echo 16384)
nflood=$((qmax + 2000))
mkdir "$T/flood"
for i in $(seq 1 50); do mkdir "$T/old$i"; done
W=$CG_WORK/w4
start_watch "$W" -m "$M" -w -l
wait_for "$W" "	$T/old50"
kill -STOP "$WPID"
(cd "$T/flood" && printf 'd%s\0' $(seq 1 "$nflood") | xargs -0 mkdir)
# after the queue is full: only a rescan can report these removals
for i in $(seq 1 50); do rmdir "$T/old$i"; done
mkdir "$T/late"
kill -CONT "$WPID"
expect=$(find "$T" -type d -printf '%i\n' | sort -n)
for ((i = 0; i < 200; i++)); do
	[ "$(alive_ids "$W" "$T")" = "$expect" ] && break
	sleep 0.1
done
check watch/overflow-rescan-final-state "$(wc -l <<<"$expect") cgroups match" \
	"$(comm -3 <(echo "$expect") <(alive_ids "$W" "$T") | wc -l | sed 's/^0$//')$(wc -l <<<"$expect") cgroups match"
removed=$(grep -cP "^-\d+\t\Q$T/old\E\d+\$" "$W")
check watch/overflow-reports-removals "50" "$removed"
# (the cgroups of this test's tree: other runs' come and go in the same mount
# while the watcher is stopped)
plus_dups=$(grep -P "^\+\d+\t\Q$T\E(/|\$)" "$W" | cut -f1 | sort | uniq -d | wc -l)
check watch/overflow-no-duplicates 0 "$plus_dups"
info "overflow: $nflood mkdirs while stopped (queue $qmax), $(grep -c . "$W") lines"
stop_watch TERM
check watch/overflow-sigterm-exit-0 0 "$WRC"
find "$T/flood" -mindepth 1 -maxdepth 1 -type d -print0 | xargs -0 rmdir
rmdir "$T/flood" "$T/late"

# ---- no fanotify (no CAP_SYS_ADMIN): the rescanning fallback -------------
if setpriv --inh-caps=-all --bounding-set=-sys_admin true 2>/dev/null; then
	W=$CG_WORK/w5
	setpriv --inh-caps=-all --bounding-set=-sys_admin \
		$CR -m "$M" -w -l -i 100 >"$W" 2>"$W.err" &
	WPID=$! CG_KILL_PIDS+=" $WPID"
	wait_for "$W" "	$T/stay/child"
	mkdir "$T/polled"
	wait_for "$W" "+$(cg_id "$T/polled")	$T/polled" 3 &&
		pass watch/fallback-sees-create || fail watch/fallback-sees-create "$(tail -n 3 "$W")"
	id=$(cg_id "$T/polled")
	rmdir "$T/polled"
	wait_for "$W" "-$id	$T/polled" 3 &&
		pass watch/fallback-sees-remove || fail watch/fallback-sees-remove "$(tail -n 3 "$W")"
	stop_watch TERM
	check watch/fallback-sigterm-exit-0 0 "$WRC"
	check watch/fallback-said-once \
		"cgroup-resolve: fanotify: Operation not permitted; rescanning every 100 ms, short-lived cgroups may be missed" \
		"$(watch_stderr "$W.err")"
else
	skip watch/fallback-sees-create "setpriv cannot drop CAP_SYS_ADMIN"
fi

# ---- churn: memory stays bounded ------------------------------------------
# Short-lived cgroups by the thousand (ebpf_exporter#457): removed nodes
# are compacted away by a rescan once they are most of the index, so the
# watcher's memory does not grow per cgroup made and removed. Three
# rounds of 5,000 made and removed: VmRSS after the third no higher than
# after the second (64 KiB of slack; the first grows the arrays to their
# peak), and every cgroup has its + and - lines (a compacting rescan may
# say a cgroup twice: + - + -, which applied in order ends the same).
# The watcher sees this churn alone: it runs in its own cgroup
# namespace, rooted at $T/churn (its cgroup), with cgroup2 mounted in its
# own mount namespace, where the paths start at that root. On the host's
# mount it also saw the cgroups other runs make on the same hierarchy at
# the same time (make check runs this test in the ASan rerun and in
# Debian 13's root beside the plain run), which grew its memory.
C=$T/churn
mkdir "$C" "$CG_WORK/churnmnt"
churn() {   # churn ROUND: 5,000 cgroups, made and removed, 50 at a time
	local i j
	for ((i = 0; i < 100; i++)); do
		(cd "$C" && mkdir $(seq -f "churn$1-$i-%g" 1 50) && rmdir $(seq -f "churn$1-$i-%g" 1 50))
	done
}
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$WPID/status"; }
bash -c 'echo $$ >"$1/cgroup.procs" && exec unshare -C -m --propagation private \
	sh -c '\''mount -t cgroup2 none "$0" && exec "$@"'\'' "$2" "${@:3}"' \
	- "$C" "$CG_WORK/churnmnt" $CR -m "$CG_WORK/churnmnt" -w -r \
	>"$CG_WORK/churn.out" 2>"$CG_WORK/churn.out.err" &
WPID=$! CG_KILL_PIDS+=" $WPID"
if T=$C M=$C cg_watch_ready "$CG_WORK/churn.out" ready-churn; then
	churn 1
	for ((i = 0; i < 100; i++)); do
		[ "$(grep -c "	/churn1-" "$CG_WORK/churn.out")" -ge 10000 ] && break
		sleep 0.1
	done
	rss1=$(rss)
	churn 2
	for ((i = 0; i < 100; i++)); do
		[ "$(grep -c "	/churn2-" "$CG_WORK/churn.out")" -ge 10000 ] && break
		sleep 0.1
	done
	rss2=$(rss)
	churn 3
	for ((i = 0; i < 100; i++)); do
		[ "$(grep -c "	/churn3-" "$CG_WORK/churn.out")" -ge 10000 ] && break
		sleep 0.1
	done
	rss3=$(rss)
	stop_watch TERM
	info "watch VmRSS: $rss1 KiB after 5,000 cgroups made and removed, $rss2 after 10,000, $rss3 after 15,000"
	check watch/churn-every-line "15000 15000 0" "$(awk -F'\t' -v p="/churn" '
		index($2, p) == 1 { s = substr($1, 1, 1); if (s == "+") { plus[$2] = 1; live[$2] = 1 } else { minus[$2] = 1; delete live[$2] } }
		END { for (k in plus) np++; for (k in minus) nm++; for (k in live) nl++; print np + 0, nm + 0, nl + 0 }' "$CG_WORK/churn.out")"
	[ "$rss3" -le $((rss2 + 64)) ] &&
		pass watch/churn-memory-flat || fail watch/churn-memory-flat "$rss1 -> $rss2 -> $rss3 KiB"
else
	stop_watch TERM
	fail watch/churn-memory-flat "the watcher never got ready"
fi
