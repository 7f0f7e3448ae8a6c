#!/bin/bash
# SPDX-License-Identifier: MIT
# cgroup-resolve's three ways to answer ids -- --handles, --walk, and the
# choice it makes without either (a walk once the ids outnumber
# cgroups * 7/4, the count from the mount root's cgroup.stat) -- give the
# same output, stderr and exit status, missing ids and bad lines
# included; and the choice is the one documented (seen with strace).
. "$(dirname "$0")/lib-cgroup.sh"
cg_setup cgroup/modes || exit 0
if ! command -v strace >/dev/null; then
	skip cgroup/modes "strace is not installed"
	exit 0
fi
for i in $(seq 1 10); do mkdir -p "$T/p$i"; (cd "$T/p$i" && mkdir $(seq -f 'c%g' 1 20)); done
touch "$T/p1/cgroup.procs" 2>/dev/null   # a file's inode: not a cgroup id
file_id=$(stat -c %i "$T/p1/cgroup.procs")
find "$T" -type d -printf '%i\n' >"$CG_WORK/ids"
nall=$(( $(awk '$1 == "nr_descendants" { print $2 }' "$M/cgroup.stat") + 1 ))
walk_at=$(( nall * 7 / 4 ))
info "$nall cgroups in the mount: a walk for more than $walk_at ids"

# ids with misses, a file's id, the root, hex, bad lines, blanks
{ head -n 5 "$CG_WORK/ids"; echo 999999999999; echo "$file_id"; echo 1
  echo "0x$(printf %x "$(head -n1 "$CG_WORK/ids")")"; echo 12x; echo
  echo "  $(sed -n 7p "$CG_WORK/ids")  "; echo 99999999999999999999999
  sed -n '8,20p' "$CG_WORK/ids"; } >"$CG_WORK/few"
few_args=$(grep -v '^ *$' "$CG_WORK/few" | tr -d ' ')
# many: more ids than the walk's cost, with the same odd lines among them
{ for i in $(seq 1 $(( walk_at / ${#few_args} + 3 ))); do cat "$CG_WORK/ids"; done |
	head -n $(( walk_at + 50 )); cat "$CG_WORK/few"; cat "$CG_WORK/ids"; } >"$CG_WORK/many"
nmany=$(grep -c . "$CG_WORK/many")

# uses OUT: "walk" or "handles" or "both": what a run did, from strace
mode_of() {
	strace -f -qq -o "$CG_WORK/mode.tr" -e trace=getdents64,open_by_handle_at "$@" \
		>/dev/null 2>&1
	local g h
	g=$(grep -c 'getdents64(' "$CG_WORK/mode.tr") h=$(grep -c 'open_by_handle_at(' "$CG_WORK/mode.tr")
	echo "$([ "$g" -gt 0 ] && echo walk)$([ "$g" -gt 0 ] && [ "$h" -gt 1 ] && echo +)$([ "$h" -gt 1 ] && echo handles)"
}

for input in few many; do
	run_capture $CR -m "$M" --handles - <"$CG_WORK/$input"
	want="$OUT/$RC/$ERR"
	[ -n "$OUT" ] && [ "$RC" = 1 ] && grep -q '	?$' <<<"$OUT" &&
		pass "modes/$input-stdin-has-misses" || fail "modes/$input-stdin-has-misses" "$RC"
	run_capture $CR -m "$M" --walk - <"$CG_WORK/$input"
	check "modes/$input-stdin-walk-same" "$want" "$OUT/$RC/$ERR"
	run_capture $CR -m "$M" - <"$CG_WORK/$input"
	check "modes/$input-stdin-auto-same" "$want" "$OUT/$RC/$ERR"
done
args=$(grep -v '^ *$' "$CG_WORK/many" | tr -d ' ')
for input in few_args args; do
	run_capture $CR -m "$M" --handles ${!input}
	want="$OUT/$RC/$ERR"
	grep -q "no such cgroup" <<<"$ERR" && grep -q "not a cgroup id" <<<"$ERR" &&
		pass "modes/$input-errors" || fail "modes/$input-errors" "$ERR"
	run_capture $CR -m "$M" --walk ${!input}
	check "modes/$input-walk-same" "$want" "$OUT/$RC/$ERR"
	run_capture $CR -m "$M" ${!input}
	check "modes/$input-auto-same" "$want" "$OUT/$RC/$ERR"
done

# the choice
check modes/choice-few-args handles "$(mode_of $CR -m "$M" $few_args)"
check modes/choice-many-args walk+handles "$(mode_of $CR -m "$M" $args)"   # (misses by handle)
check modes/choice-forced-handles handles "$(mode_of $CR -m "$M" --handles $args)"
check modes/choice-forced-walk walk "$(mode_of $CR -m "$M" --walk $few_args)"
check modes/choice-few-stdin handles "$(mode_of $CR -m "$M" - <"$CG_WORK/few")"
check modes/choice-many-stdin walk+handles "$(mode_of $CR -m "$M" - <"$CG_WORK/many")"
# stdin: handles for the first walk_at ids, then one walk, then the index.
# (In a cgroup namespace rooted at $T: the cost the applet reads, the
# mount's nr_descendants, is then $T's, which nothing else changes.)
own_walk_at=$(cg_own_ns 'echo $(( ($(awk '\''$1 == "nr_descendants" { print $2 }'\'' "$O/cgroup.stat") + 1) * 7 / 4 ))
	strace -f -qq -o "$CG_WORK/sw.tr" -e trace=getdents64,open_by_handle_at,openat \
		$CR -m "$O" - <"$CG_WORK/many" >/dev/null 2>&1')
before=$(awk '/getdents64\(/ { exit } /open_by_handle_at\(/ { n++ } END { print n - 1 }' "$CG_WORK/sw.tr")
check modes/stdin-switches-after-walk-cost "$own_walk_at" "$before"
check modes/stdin-one-walk 1 "$(grep -c 'openat([0-9]*, "\.",' "$CG_WORK/sw.tr")"
check modes/stdin-reads-cgroup-stat-once 1 "$(grep -c '"cgroup.stat"' "$CG_WORK/sw.tr")"
# few ids as arguments: cgroup.stat is read (2 or more), one id: not even that
strace -f -qq -o "$CG_WORK/one.tr" -e trace=openat $CR -m "$M" "$(head -n1 "$CG_WORK/ids")" >/dev/null
check modes/one-id-no-cgroup-stat 0 "$(grep -c 'cgroup.stat' "$CG_WORK/one.tr")"

# After the switch, a cgroup made later is answered (by handle), not "?",
# with no second walk.
mkfifo "$CG_WORK/in"
strace -f -qq -o "$CG_WORK/late.tr" -e trace=openat $CR -m "$M" - <"$CG_WORK/in" >"$CG_WORK/late.out" 2>/dev/null &
exec {W}>"$CG_WORK/in"
cat "$CG_WORK/many" >&$W
sleep 0.5
mkdir "$T/late"
echo "$(cg_id "$T/late")" >&$W
exec {W}>&-
wait
check modes/late-cgroup-after-walk "$(cg_id "$T/late")	$T/late" "$(tail -n1 "$CG_WORK/late.out")"
check modes/late-cgroup-no-rewalk 1 "$(grep -c 'openat([0-9]*, "\.",' "$CG_WORK/late.tr")"

# The count is the mount's: a bind-mounted subtree of $T/p1 (21 cgroups)
# walks for more than 36 ids, whatever the whole tree holds.
B=$CG_WORK/sub
mkdir -p "$B"
mount --bind "$T/p1" "$B"
sub=$(find "$B" -type d | wc -l)
grep -v '^ *$' "$CG_WORK/many" | tr -d ' ' | head -n $(( sub * 7 / 4 + 1 )) >"$CG_WORK/over"
check modes/bind-choice-walk walk+handles "$(mode_of $CR -m "$B" $(cat "$CG_WORK/over"))"
check modes/bind-choice-handles handles "$(mode_of $CR -m "$B" $(head -n -1 "$CG_WORK/over"))"
run_capture $CR -m "$B" --handles $(cat "$CG_WORK/over")
want="$OUT/$RC/$ERR"
run_capture $CR -m "$B" $(cat "$CG_WORK/over")
check modes/bind-auto-same "$want" "$OUT/$RC/$ERR"
umount "$B"

# usage
run_capture $CR -m "$M" --walk --handles 1
check modes/walk-and-handles-usage "2/cgroup-resolve: --walk and --handles do not go together (try cgroup-resolve --help)
" "$RC/$ERR"
# --handles where they cannot work: said, not a silent walk
if command -v setpriv >/dev/null; then
	run_capture setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		--bounding-set=-all $CR -m "$M" --handles 1
	check modes/handles-unprivileged "1/cgroup-resolve: --handles: open_by_handle_at: Operation not permitted
" "$RC/$ERR"
	run_capture $CR -m "$M" --walk $few_args
	want="$OUT/$RC/$ERR"
	run_capture setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		--bounding-set=-all $CR -m "$M" $few_args
	check modes/unprivileged-auto-walks "$want" "$OUT/$RC/$ERR"
fi
