#!/bin/bash
# SPDX-License-Identifier: MIT
# cgroup-resolve: id -> path, path -> id, stdin mode, listing, mount
# detection, escaping, bind-mounted subtrees, no /proc, unprivileged walk.
. "$(dirname "$0")/lib-cgroup.sh"
cg_setup cgroup/resolve || exit 0

# ---- the tree ----------------------------------------------------------
TAB=$'\t'
SPACE="with space"
TABN="tab${TAB}name"
UTF="ünïcødé-✓"
DASH="-dash"
BACK='back\slash'
CTL=$'ctl\001\177'
mkdir -p "$T/a/b/c" "$T/$SPACE" "$T/$TABN" "$T/$UTF" "$T/$DASH" \
	"$T/$BACK" "$T/$CTL" "$T/many"
for i in $(seq 1 20); do mkdir "$T/many/p$i"; for j in $(seq 1 15); do
	mkdir "$T/many/p$i/c$j"; done; done       # 320 more cgroups

id_a=$(cg_id "$T/a") id_c=$(cg_id "$T/a/b/c") id_t=$(cg_id "$T")
id_space=$(cg_id "$T/$SPACE") id_tab=$(cg_id "$T/$TABN")
id_utf=$(cg_id "$T/$UTF") id_dash=$(cg_id "$T/$DASH")
id_back=$(cg_id "$T/$BACK") id_ctl=$(cg_id "$T/$CTL")
rel=${T#"$M"}

# ---- ID... ---------------------------------------------------------------
run_capture $CR -m "$M" "$id_a" "$id_c"
check resolve/ids "$T/a
$T/a/b/c
/0" "$OUT/$RC"
run_capture $CR -m "$M" -r "$id_c"
check resolve/relative "$rel/a/b/c
" "$OUT"
run_capture $CR -m "$M" -r 1
check resolve/relative-root "/
" "$OUT"
run_capture $CR -m "$M" 1
check resolve/root "$M
" "$OUT"
run_capture $CR -m "$M" "0x$(printf %x "$id_c")" "0X$(printf %X "$id_c")"
check resolve/hex "$T/a/b/c
$T/a/b/c
" "$OUT"
run_capture $CR -m "$M" "$id_space" "$id_tab" "$id_utf" "$id_dash" \
	"$id_back" "$id_ctl"
check resolve/escaping "$T/$SPACE
$T/tab\\011name
$T/$UTF
$T/$DASH
$T/back\\134slash
$T/ctl\\001\\177
" "$OUT"

# unknown, removed, zero, huge, malformed: messages, the rest printed
mkdir "$T/gone"; id_gone=$(cg_id "$T/gone"); rmdir "$T/gone"
run_capture $CR -m "$M" -- 999999999999 "$id_a" "$id_gone" 0 \
	18446744073709551615 18446744073709551616 12x -5 "" 0x "$id_c"
check resolve/unknown-out "$T/a
$T/a/b/c
/1" "$OUT/$RC"
check resolve/unknown-err "cgroup-resolve: 999999999999: no such cgroup
cgroup-resolve: $id_gone: no such cgroup
cgroup-resolve: 0: no such cgroup
cgroup-resolve: 18446744073709551615: no such cgroup
cgroup-resolve: 18446744073709551616: not a cgroup id
cgroup-resolve: 12x: not a cgroup id
cgroup-resolve: -5: not a cgroup id
cgroup-resolve: : not a cgroup id
cgroup-resolve: 0x: not a cgroup id
" "$ERR"
# the id of a file (cgroup.procs) is not a cgroup
run_capture $CR -m "$M" "$(cg_id "$T/a/cgroup.procs")"
check resolve/file-id-is-no-cgroup "/1" "$OUT/$RC"

# the walk gives the same answers (and the same messages)
for args in "$id_a $id_c" "-r $id_c" "-r 1" "$id_space $id_tab $id_utf $id_dash $id_back $id_ctl" \
	"999999999999 $id_a $id_gone 0 12x"; do
	run_capture $CR -m "$M" $args; h="$OUT|$ERR|$RC"
	run_capture $CR -m "$M" --walk $args
	check "resolve/walk-same-as-handles ($args)" "$h" "$OUT|$ERR|$RC"
done

# ---- -p PATH... -----------------------------------------------------------
run_capture $CR -p "$T/a" "$T/$SPACE" "$T/$TABN" "$T/$UTF" -- "$T/$DASH"
check path/ids "$id_a
$id_space
$id_tab
$id_utf
$id_dash
/0" "$OUT/$RC"
(cd "$T" && run_capture $CR -p -- "$DASH" a/b/c && check path/relative-to-cwd "$id_dash
$id_c
/0" "$OUT/$RC")
run_capture $CR -m "$M" -r -p "$rel/a/b/c" / "${rel#/}/a"
check path/r-below-mount "$id_c
1
$id_a
/0" "$OUT/$RC"
run_capture $CR -p /tmp "$T/nonexistent" "$T/a/cgroup.procs" "$T/a"
check path/errors "$id_a
/1" "$OUT/$RC"
check path/errors-named "cgroup-resolve: /tmp: not on a cgroup2 mount
cgroup-resolve: $T/nonexistent: No such file or directory
cgroup-resolve: $T/a/cgroup.procs: Not a directory
" "$ERR"
# a cgroup v1 hierarchy has ids too: never accepted
v1=$CG_WORK/v1
mkdir -p "$v1"
if mount -t cgroup -o none,name=forkless-test cgroup "$v1" 2>/dev/null; then
	run_capture $CR -p "$v1"
	check path/v1-refused "/1/cgroup-resolve: $v1: not on a cgroup2 mount
" "$OUT/$RC/$ERR"
	run_capture $CR -m "$v1" 1
	check mount/v1-refused "/1/cgroup-resolve: $v1: not on a cgroup2 mount
" "$OUT/$RC/$ERR"
	umount "$v1"
else
	skip path/v1-refused "cannot mount a named cgroup v1 hierarchy"
fi
run_capture $CR -m /tmp 1
check mount/not-cgroup "1/cgroup-resolve: /tmp: not on a cgroup2 mount
" "$RC/$ERR"

# ---- - (stdin) -------------------------------------------------------------
in=$(printf '%s\n' "$id_a" "  $id_c  " "" "0x$(printf %x "$id_space")" \
	999999999999 bogus "$id_gone" "$id_tab" 0 "1${TAB}2" "$id_utf")
expect="$id_a	$T/a
$id_c	$T/a/b/c
$id_space	$T/$SPACE
999999999999	?
$id_gone	?
$id_tab	$T/tab\\011name
0	?
$id_utf	$T/$UTF
"
run_capture $CR -m "$M" - <<<"$in"
check stdin/answers "$expect/1" "$OUT/$RC"
check stdin/malformed-on-stderr "cgroup-resolve: bogus: not a cgroup id
cgroup-resolve: 1\\0112: not a cgroup id
" "$ERR"
run_capture $CR -m "$M" --walk - <<<"$in"
check stdin/walk-same "$expect/1" "$OUT/$RC"
run_capture $CR -m "$M" - <<<"$id_a"
check stdin/all-resolved-exit-0 "$id_a	$T/a
/0" "$OUT/$RC"
run_capture $CR -m "$M" -r - < <(printf '%s' "$id_c")
check stdin/last-line-without-newline "$id_c	$rel/a/b/c
" "$OUT"
long=$(head -c 20000 /dev/zero | tr '\0' 7)
run_capture $CR -m "$M" - < <(printf '%s\n%s\n' "$long" "$id_a")
check stdin/overlong-line-skipped "$id_a	$T/a
/1" "$OUT/$RC"

# A coprocess: each answer arrives while stdin is still open.
coproc CRP { exec $CR -m "$M" -; }
crp_pid=$CRP_PID
answers=
for id in "$id_a" 999999999999 "$id_c"; do
	echo "$id" >&"${CRP[1]}"
	line=
	read -r -t 5 line <&"${CRP[0]}"
	answers+="$line|"
done
exec {CRP[1]}>&-
wait "$crp_pid"
check stdin/coprocess-flushes-before-blocking "$id_a	$T/a|999999999999	?|$id_c	$T/a/b/c|" "$answers"

# ---- -l ------------------------------------------------------------------
run_capture $CR -m "$M" -l
first=$(head -n 1 <<<"$OUT")
check list/root-first "1	$M" "$first"
order_ok=1 seen=$M
while IFS=$TAB read -r id p; do
	[ "$p" = "$M" ] && { seen="$p"; continue; }
	parent=${p%/*}
	grep -qxF "$parent" <<<"$seen" || { order_ok=0; bad=$p; break; }
	seen+=$'\n'"$p"
done < <(grep -F "$T" <<<"$OUT" | grep -v -e '\\' -e "$UTF")
check list/parents-before-children 1 "$order_ok${bad:+ ($bad)}"
check list/matches-find "$(cg_oracle_list "$T/many")" \
	"$(grep -F "	$T/many" <<<"$OUT" | sort)"
n=$(grep -cF "	$T" <<<"$OUT")
check list/count "$(find "$T" -type d | wc -l)" "$n"
grep -qxF "$id_tab	$T/tab\\011name" <<<"$OUT" && grep -qxF "$id_ctl	$T/ctl\\001\\177" <<<"$OUT" &&
	pass list/escaped || fail list/escaped "no escaped tab/control line"
run_capture $CR -m "$M" -l -r
check list/relative "1	/
$(cg_id "$T")	$rel" "$(head -n 1 <<<"$OUT")
$(grep -xF "$(cg_id "$T")	$rel" <<<"$OUT")"
# A list of the whole mount holds the machine's other cgroups too, which
# come and go (another family's tests beside this one): two lists are
# compared on this test's lines (mine: $T and below).
mine() { awk -F'\t' -v t="$T" '$2 == t || index($2, t "/") == 1' <<<"$1"; }
run_capture $CR -m "$M" -l --walk
l2=$(mine "$OUT")
[ "$(grep -c . <<<"$l2")" -gt 300 ] || fail list/mine "the list has $(grep -c . <<<"$l2") lines of $T, not its tree"
run_capture $CR -m "$M" -l
check list/walk-flag-same "$l2" "$(mine "$OUT")"

# ---- a few hundred ids, every mechanism the same -------------------------
find "$T" -type d -printf '%i\n' | sort -n >"$CG_WORK/ids"
nids=$(wc -l <"$CG_WORK/ids")
$CR -m "$M" - <"$CG_WORK/ids" >"$CG_WORK/handles.out" 2>&1
check batch/handles-all-resolved 0 "$(grep -c '	?$' "$CG_WORK/handles.out")"
check batch/handles-count "$nids" "$(wc -l <"$CG_WORK/handles.out")"
oracle=$(find "$T" -type d -printf '%i\t%p\n' | sort -n | grep -v -e "$TAB.*$TAB" -e '\\' -e "$UTF" -e 'ctl')
check batch/handles-match-find "$oracle" \
	"$(grep -v -e '\\' -e "$UTF" "$CG_WORK/handles.out")"
$CR -m "$M" --walk - <"$CG_WORK/ids" >"$CG_WORK/walk.out" 2>&1
check batch/walk-identical "$(cat "$CG_WORK/handles.out")" "$(cat "$CG_WORK/walk.out")"
info "batch: $nids cgroups resolved by handles and by the walk"

# Without CAP_DAC_READ_SEARCH the walk is taken, with identical output.
if setpriv --inh-caps=-all --bounding-set=-dac_read_search true 2>/dev/null; then
	setpriv --inh-caps=-all --bounding-set=-dac_read_search \
		$CR -m "$M" - <"$CG_WORK/ids" >"$CG_WORK/nocap.out" 2>&1
	check unprivileged/no-dac-read-search-identical \
		"$(cat "$CG_WORK/handles.out")" "$(cat "$CG_WORK/nocap.out")"
	if command -v strace >/dev/null; then
		strace -f -qq -o "$CG_WORK/nocap.strace" \
			-e trace=open_by_handle_at,getdents64 \
			setpriv --inh-caps=-all --bounding-set=-dac_read_search \
			$CR -m "$M" "$id_c" >/dev/null 2>&1
		check unprivileged/took-the-walk \
			"1 EPERM, walked" \
			"$(grep -c 'open_by_handle_at.*EPERM' "$CG_WORK/nocap.strace") EPERM, $(grep -q getdents64 "$CG_WORK/nocap.strace" && echo walked)"
	fi
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		--bounding-set=-all $CR -m "$M" - <"$CG_WORK/ids" \
		>"$CG_WORK/nobody.out" 2>&1
	check unprivileged/nobody-identical \
		"$(cat "$CG_WORK/handles.out")" "$(cat "$CG_WORK/nobody.out")"
	run_capture setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all --bounding-set=-all $CR -m "$M" -l
	check unprivileged/nobody-list "$l2" "$(mine "$OUT")"
else
	skip unprivileged/no-dac-read-search-identical "setpriv cannot drop capabilities"
fi

# ---- default mount detection --------------------------------------------
D=$(cg_default_mount)
if [ -n "$D" ] && [ -d "$D${rel}" ]; then
	run_capture $CR "$id_c"
	check mount/default-from-mountinfo "$D$rel/a/b/c
" "$OUT"
	run_capture $CR -r "$id_c"
	check mount/default-relative "$rel/a/b/c
" "$OUT"
else
	skip mount/default-from-mountinfo "no cgroup2 mount with root / showing our tree"
fi

# The hybrid-host trap, built here: /sys/fs/cgroup a tmpfs holding a v1
# hierarchy, the v2 tree at /sys/fs/cgroup/unified, and no /proc: the
# fallback must skip the tmpfs and never take the v1 hierarchy.
trap_ok=0
if mount -t tmpfs none /sys/fs/cgroup 2>/dev/null; then
	mkdir -p /sys/fs/cgroup/named /sys/fs/cgroup/unified
	mount -t cgroup -o none,name=forkless-trap cgroup /sys/fs/cgroup/named 2>/dev/null
	if mount -t cgroup2 none /sys/fs/cgroup/unified; then
		trap_ok=1
		run_capture $CR "$id_c"
		check mount/mountinfo-picks-v2-not-v1 "/sys/fs/cgroup/unified$rel/a/b/c
" "$OUT"
		if mount -t tmpfs none /proc; then
			run_capture $CR "$id_c" "$id_space" 999999999999
			check noproc/fallback-unified "/sys/fs/cgroup/unified$rel/a/b/c
/sys/fs/cgroup/unified$rel/$SPACE
/1" "$OUT/$RC"
			run_capture $CR -m "$M" - <"$CG_WORK/ids"
			check noproc/walk-identical "$(cat "$CG_WORK/handles.out")
" "$OUT"
			run_capture $CR -m "$M" -l
			check noproc/list "$l2" "$(mine "$OUT")"
			(cd "$M" && run_capture $CR -m . -r "$id_c" && check noproc/relative-m "$rel/a/b/c
" "$OUT")
			(cd "$CG_WORK" && run_capture $CR -m mnt "$id_c" && check noproc/relative-m-absolute-output "$T/a/b/c
" "$OUT")
			umount /proc
		else
			skip noproc/fallback-unified "cannot mount a tmpfs over /proc"
		fi
		umount /sys/fs/cgroup/unified
	fi
	umount /sys/fs/cgroup/named 2>/dev/null
	umount /sys/fs/cgroup
fi
[ $trap_ok = 1 ] || skip mount/mountinfo-picks-v2-not-v1 "cannot build the hybrid layout"

# ---- a bind-mounted subtree: ids outside it are unknown ------------------
B=$CG_WORK/sub
mkdir -p "$B"
mount --bind "$T/a" "$B"
for walk in "" --walk; do
	run_capture $CR -m "$B" $walk "$(cg_id "$T/a/b")" "$id_c" "$id_a" "$id_space" 1 "$id_t"
	check "bind/visible-and-invisible${walk:+ $walk}" "$B/b
$B/b/c
$B
/1" "$OUT/$RC"
	check "bind/invisible-unknown${walk:+ $walk}" "cgroup-resolve: $id_space: no such cgroup
cgroup-resolve: 1: no such cgroup
cgroup-resolve: $id_t: no such cgroup
" "$ERR"
	run_capture $CR -m "$B" -r $walk "$id_c" "$id_a"
	check "bind/relative${walk:+ $walk}" "/b/c
/
" "$OUT"
done
run_capture $CR -m "$B" -l
check bind/list-subtree "$id_a	$B
$(cg_id "$T/a/b")	$B/b
$id_c	$B/b/c
" "$OUT"
umount "$B"

# -p with -m: PATH must be on that mount (without -m: any cgroup2 mount)
mount --bind "$T/a" "$B"
run_capture $CR -m "$B" -p "$B/b" "$T/a/b" "$B"
check path/m-on-that-mount "$(cg_id "$T/a/b")
$id_a
/1" "$OUT/$RC"
check path/m-not-on-that-mount "cgroup-resolve: $T/a/b: not on the cgroup2 mount $B
" "$ERR"
run_capture $CR -m "$M" -p "$B/b"
check path/m-bind-elsewhere "/1/cgroup-resolve: $B/b: not on the cgroup2 mount $M
" "$OUT/$RC/$ERR"
run_capture $CR -p "$B/b" "$T/a/b"
check path/no-m-any-cgroup2 "$(cg_id "$T/a/b")
$(cg_id "$T/a/b")
/0" "$OUT/$RC"
# -r: PATH is below the mount, and ".." does not lead out of it
run_capture $CR -m "$B" -r -p /b "/../${M#"$CG_WORK/"}$rel/a"
check path/r-escaping-the-mount "$(cg_id "$T/a/b")
/1/cgroup-resolve: /../${M#"$CG_WORK/"}$rel/a: not on the cgroup2 mount $B
" "$OUT/$RC/$ERR"
umount "$B"
run_capture $CR -m "$CG_WORK/nonexistent" -p "$T/a"
check path/m-missing "/1/cgroup-resolve: $CG_WORK/nonexistent: No such file or directory
" "$OUT/$RC/$ERR"
run_capture $CR -m /tmp -p "$T/a"
check path/m-not-cgroup2 "/1/cgroup-resolve: /tmp: not on a cgroup2 mount
" "$OUT/$RC/$ERR"

# ---- deeper than the walk holds fds: walk and handles agree --------------
# 600 levels (the walk keeps at most 128 fds down a branch and reopens the
# rest as ".." on the way back up), with side branches deep down, so the
# walk climbs through reopened directories and descends again.
deep=d
for i in $(seq 2 600); do deep+=/d; done
mkdir -p "$T/deep/$deep"
for n in 3 200 450 599; do mkdir -p "$T/deep/${deep:0:$((2 * n - 1))}/s/t"; done
deep_oracle=$(cg_oracle_list "$T/deep")
run_capture $CR -m "$M" -l
check deep/list-all "$deep_oracle||0" "$(grep -F "	$T/deep" <<<"$OUT" | sort)|$ERR|$RC"
deep_paths="$T/deep/$deep $T/deep/${deep:0:399}/s/t $T/deep/${deep:0:1197}/s $T/deep/${deep:0:5}/s/t"
deep_ids=$(for p in $deep_paths; do cg_id "$p"; done)
run_capture $CR -m "$M" $deep_ids
check deep/handles "$(tr ' ' '\n' <<<"$deep_paths")
|0" "$OUT|$RC"
h="$OUT|$ERR|$RC"
run_capture $CR -m "$M" --walk $deep_ids
check deep/walk-same-as-handles "$h" "$OUT|$ERR|$RC"
# the walk holds at most ~130 fds whatever the depth (it used to hold one
# per level, and stop at 512)
run_capture bash -c 'ulimit -n 150 && exec "$@"' - $CR -m "$M" --walk -l
check deep/walk-fds-bounded "$deep_oracle||0" "$(grep -F "	$T/deep" <<<"$OUT" | sort)|$ERR|$RC"
if setpriv --reuid=65534 true 2>/dev/null; then
	run_capture setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all --bounding-set=-all $CR -m "$M" $deep_ids
	check deep/nobody-walk-same-as-handles "$h" "$OUT|$ERR|$RC"
fi
find "$T/deep" -depth -type d -print0 | xargs -0 rmdir

# ---- usage ---------------------------------------------------------------
for args in "" "-x 1" "--bogus 1" "-p" "-l 1" "-w 5" "-p -l x" "-i 10 1" "-w -i 0" "-w -i x" "- 1" "-m"; do
	run_capture $CR $args
	[ "$RC" = 2 ] && [ -z "$OUT" ] && grep -q '^cgroup-resolve: ' <<<"$ERR" &&
		pass "usage/exit-2 ($args)" || fail "usage/exit-2 ($args)" "exit $RC, out [$OUT] err [$ERR]"
done
# The one usage-error style of every applet: "APPLET: MESSAGE (try APPLET
# --help)", the argument named (escaped as inputs are).
while IFS='|' read -r args msg; do
	expect "usage/message ($args)" 2 "" "cgroup-resolve: $msg (try cgroup-resolve --help)
" -- $CR $args
done <<'TABLE'
|missing operand: expected ID... or -
-p|missing operand: expected PATH...
-x 1|unknown option -x
-rq 1|unknown option -q
--bogus 1|unknown option --bogus
--walk=1 1|unknown option --walk=1
-m|missing value for -m
-l 1|-l and -w take no operands, not 1
-p -l x|-p does not go with -l or -w
-i 10 1|-i goes with -w only
-w -i 0|-i wants milliseconds (1..2147483647), not 0
- 1|- (IDs on stdin) goes alone
TABLE
expect "usage/message escapes the argument" 2 "" "cgroup-resolve: unknown option --\\033[2J (try cgroup-resolve --help)
" -- $CR --$'\033[2J' 1
run_capture $CR --help
grep -qx 'Exit status:' <<<"$OUT" && grep -q '^  0     every ID' <<<"$OUT" &&
	grep -qx '  2     usage error' <<<"$OUT" && [ "$RC" = 0 ] &&
	pass usage/help || fail usage/help "exit $RC [$OUT]"
