#!/bin/bash
# SPDX-License-Identifier: MIT
# cgroup-resolve under a hostile caller: argc 0, odd argv[0], fds 0-2
# closed, /dev/full, SIGPIPE ignored, a small RLIMIT_NOFILE, a
# non-blocking stdin, long lines; and hostile trees: paths longer than
# /proc's readlink gives, 1,000 levels, `..` out of the mount, cgroups that
# live and die (nested, or under a reused name) while the watcher lags.
# Each case names the defect it pins down. Real kernel: a private mount
# namespace and a fresh cgroup2 mount (tests/cgroup/lib-cgroup.sh).
. "$(dirname "$0")/../cgroup/lib-cgroup.sh"
cg_setup hostile/cgroup || exit 0

TAB=$'\t'
rel=${T#"$M"}

# A launcher for what bash cannot do: argc 0, any argv[0], a stdin with
# O_NONBLOCK (set on the pipe's reading end, as a parent may hand it over).
#   hexec [-0] [-a ARGV0] [-n] PROG [ARG...]
HEXEC=$CG_WORK/hexec
cat >"$CG_WORK/hexec.c" <<'EOF'
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	int i = 1, argc0 = 0, nonblock = 0;
	char *argv0 = NULL, *none[] = { NULL };
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-0")) argc0 = 1;
		else if (!strcmp(argv[i], "-n")) nonblock = 1;
		else if (!strcmp(argv[i], "-a") && i + 1 < argc) argv0 = argv[++i];
		else break;
	}
	if (i >= argc) return 127;
	if (nonblock && fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK) < 0)
		return perror("F_SETFL"), 127;
	char *prog = argv[i];
	if (argv0) argv[i] = argv0;
	execv(prog, argc0 ? none : argv + i);
	perror(prog);
	return 127;
}
EOF
if ! gcc -o "$HEXEC" "$CG_WORK/hexec.c" 2>"$CG_WORK/hexec.err"; then
	skip hostile/cgroup "cannot build the launcher: $(cat "$CG_WORK/hexec.err")"
	exit 0
fi
LINK=$CG_WORK/bin/cgroup-resolve
mkdir -p "$CG_WORK/bin"
ln -s "$FORKLESS" "$LINK"

mkdir -p "$T/a/b"
id_a=$(cg_id "$T/a") id_b=$(cg_id "$T/a/b") id_t=$(cg_id "$T")

# ---- argv: argc 0, empty, long and odd argv[0] ---------------------------
# argc 0: no name to dispatch on -- the multiplexer's usage, never a crash.
run_capture "$HEXEC" -0 "$LINK"
[ "$RC" -ge 1 ] && [ "$RC" -le 2 ] && [ -n "$ERR$OUT" ] &&
	pass argv/argc-0 || fail argv/argc-0 "exit $RC [$OUT] [$ERR]"
run_capture "$HEXEC" -a "" "$LINK" -m "$M" "$id_a"
[ "$RC" -ge 1 ] && [ "$RC" -le 2 ] && [ -z "$OUT" ] &&
	pass argv/empty-argv0 || fail argv/empty-argv0 "exit $RC [$OUT] [$ERR]"
long0=/$(head -c 5000 /dev/zero | tr '\0' x)/cgroup-resolve
for case in "long|$long0" "login-dash|-cgroup-resolve" "relative|./cgroup-resolve" \
	"trailing-slash-dir|x/y/cgroup-resolve"; do
	expect "argv/argv0-${case%%|*}" 0 "$T/a
" "" -- "$HEXEC" -a "${case#*|}" "$LINK" -m "$M" "$id_a"
done

# ---- fds 0-2 closed, /dev/full, SIGPIPE ignored ---------------------------
# (13) fd 0 closed used to be taken by the mount: "stdin: Is a directory".
expect fds/stdin-closed 1 "" "cgroup-resolve: stdin: Bad file descriptor
" -- bash -c 'exec "$@" <&-' - $CR -m "$M" -
expect fds/stdin-closed-ids-still-work 0 "$T/a
" "" -- bash -c 'exec "$@" <&-' - $CR -m "$M" "$id_a"
expect fds/stdout-closed 1 "" "cgroup-resolve: stdout: Bad file descriptor
" -- bash -c 'exec "$@" >&-' - $CR -m "$M" "$id_a"
# stderr closed: the message cannot be shown; the status still says it
expect fds/stderr-closed 1 "" "" -- bash -c 'exec "$@" 2>&-' - $CR -m "$M" 999999999999
expect fds/all-closed-list 1 "" "" -- bash -c 'exec "$@" <&- >&- 2>&-' - $CR -m "$M" -l
expect fds/dev-full 1 "" "cgroup-resolve: stdout: No space left on device
" -- bash -c 'exec "$@" >/dev/full' - $CR -m "$M" -l
# SIGPIPE ignored: EPIPE ends the run with a message, even while stdin
# never ends (it used to read on for ever).
# (The reason is errno_text()'s: any text, after "stdout: ".)
run_capture timeout 20 bash -c 'trap "" PIPE; yes 1 2>/dev/null | "$@" | head -n 1; exit ${PIPESTATUS[1]}' - $CR -m "$M" -r -
check fds/sigpipe-ignored-stdin "1|1$TAB/
|cgroup-resolve: stdout: " "$RC|$OUT|${ERR%%stdout: *}stdout: "
[ "$(grep -c . <<<"$ERR")" = 1 ] && pass fds/sigpipe-ignored-stdin-one-message ||
	fail fds/sigpipe-ignored-stdin-one-message "$ERR"
run_capture timeout 20 bash -c 'trap "" PIPE; "$@" $(yes '"$id_a"' 2>/dev/null | head -n 5000) | head -n 1; exit ${PIPESTATUS[0]}' - $CR -m "$M"
check fds/sigpipe-ignored-ids "1|$T/a
|cgroup-resolve: stdout: " "$RC|$OUT|${ERR%%stdout: *}stdout: "

# ---- RLIMIT_NOFILE --------------------------------------------------------
# (13) EMFILE used to read as "no cgroup2 mount found (use -m DIR)".
# (The reason is errno_text()'s for EMFILE: any text after the name.)
run_capture bash -c 'ulimit -n 3 && exec "$@"' - $CR "$id_a"
check rlimit/emfile-at-start "1||cgroup-resolve: /proc/self/mountinfo: " \
	"$RC|$OUT|${ERR%%mountinfo: *}mountinfo: "
run_capture bash -c 'ulimit -n 3 && exec "$@"' - $CR -m "$M" "$id_a"
check rlimit/emfile-m "1||cgroup-resolve: $M: $(printf '%s' "$ERR" | sed 's/.*: //')" \
	"$RC|$OUT|${ERR%$'\n'}"
# (14) a walk deeper than 128 levels held ~134 fds: with RLIMIT_NOFILE
# <= 133 a 1,000-level tree died. The window now shrinks to the limit.
deep=d
for i in $(seq 2 1000); do deep+=/d; done
mkdir -p "$T/deep/$deep" "$T/deep/${deep:0:599}/side/x"
deep_oracle=$(cg_oracle_list "$T/deep")
deep_id=$(cg_id "$T/deep/$deep")
for n in 133 20 8; do
	# (digests: a failure must not print 1,000 paths of 2 KB)
	run_capture bash -c 'ulimit -n '$n' && exec "$@"' - $CR -m "$M" -l
	check "rlimit/walk-1000-levels-nofile-$n" "$(md5sum <<<"$deep_oracle")||0" \
		"$(grep -F "	$T/deep" <<<"$OUT" | sort | md5sum)|${ERR:0:300}|$RC"
	run_capture bash -c 'ulimit -n '$n' && exec "$@"' - $CR -m "$M" --walk "$deep_id"
	check "rlimit/walk-id-1000-levels-nofile-$n" "$(md5sum <<<"$T/deep/$deep")||0" \
		"$(md5sum <<<"${OUT%$'\n'}")|${ERR:0:300}|$RC"
done
find "$T/deep" -depth -type d -print0 | xargs -0 rmdir

# ---- stdin: non-blocking, long lines ---------------------------------------
# (5) a non-blocking stdin died with "stdin: Resource temporarily
# unavailable" after the first batch; a coprocess must wait and go on.
for walk in "" --walk; do
	expect "stdin/non-blocking${walk:+ $walk}" 0 "$id_a$TAB$T/a
$id_b$TAB$T/a/b
" "" -- bash -c '{ echo '"$id_a"'; sleep 0.3; echo '"$id_b"'; } | "$@"' - \
		"$HEXEC" -n "$FORKLESS" cgroup-resolve -m "$M" $walk -
done
# (13) a bad input was cut at 256 bytes with nothing to say so
long=$(head -c 300 /dev/zero | tr '\0' 7)
expect stdin/bad-id-cut-with-dots 1 "" "cgroup-resolve: ${long:0:252}...: not a cgroup id
" -- $CR -m "$M" "$long"
long=$(head -c 100000 /dev/zero | tr '\0' 7)
expect stdin/100k-line-cut-with-dots 1 "$id_a$TAB$T/a
" "cgroup-resolve: ${long:0:252}...: not a cgroup id
" -- bash -c 'printf "%s\n%s\n" "$1" "$2" | "${@:3}"' - "$long" "$id_a" $CR -m "$M" -
# control bytes are escaped, and the cut never splits an escape
bad=$(printf 'x%.0s' $(seq 248))$'\001\001'
expect stdin/bad-id-escaped-cut 1 "" "cgroup-resolve: ${bad:0:248}\\001...: not a cgroup id
" -- $CR -m "$M" "$bad"

# ---- -r -p and `..` (11) -----------------------------------------------------
# `..` used to leave -m DIR (`-m SUB -r -p /..` printed the parent's id
# while `-m SUB -r ID` says "no such cgroup") and the mount itself.
expect dotdot/m-subdir-parent 1 "" "cgroup-resolve: /..: not on the cgroup2 mount $T/a
" -- $CR -m "$T/a" -r -p /..
expect dotdot/m-subdir-out-and-in 1 "" "cgroup-resolve: /../a/b: not on the cgroup2 mount $T/a
" -- $CR -m "$T/a" -r -p /../a/b
expect dotdot/lexical-inside 0 "$id_b
$id_a
$id_a
" "" -- $CR -m "$T/a" -r -p /b/../b /b/.. //./b/../
expect dotdot/root-parent 1 "" "cgroup-resolve: /..: not on the cgroup2 mount $M
" -- $CR -m "$M" -r -p /..
# the hybrid layout: up to the tmpfs and back in through unified/
H=$CG_WORK/hybrid
mkdir -p "$H"
if mount -t tmpfs none "$H" && mkdir "$H/unified" && mount -t cgroup2 none "$H/unified"; then
	expect dotdot/hybrid-out-and-back 1 "" "cgroup-resolve: /../unified$rel/a: not on the cgroup2 mount $H/unified
" -- $CR -m "$H/unified" -r -p "/../unified$rel/a"
	umount "$H/unified"
	umount "$H"
else
	skip dotdot/hybrid-out-and-back "cannot build the tmpfs + cgroup2 layout"
fi

# ---- paths longer than readlink gives (3) ------------------------------------
# readlink of /proc/self/fd/N stops at a page: handle mode said "ID:
# Filename too long" where --walk and unprivileged runs printed the path.
# Every mode now gives the same answer; 8,192 bytes and more are too long
# for all of them.
n250=$(printf 'x%.0s' $(seq 250))
long_id=$(cd "$T" && for i in $(seq 20); do mkdir "$n250" && cd "$n250" || exit; done; stat -c %i .)
long_rel=$rel$(printf "/$n250%.0s" $(seq 20))
huge_id=$(cd "$T" && for i in $(seq 20); do cd "$n250" || exit; done &&
	for i in $(seq 14); do mkdir "$n250" && cd "$n250" || exit; done; stat -c %i .)
info "paths: ${#long_rel} bytes below the root (id $long_id), and $(( ${#long_rel} + 14 * 251 )) (id $huge_id)"
modes=("handles|" "walk|--walk")
nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all)
"${nobody[@]}" true 2>/dev/null && modes+=("nobody|")
for m in "${modes[@]}"; do
	name=${m%%|*} flag=${m#*|} pre=()
	[ "$name" = nobody ] && pre=("${nobody[@]}")
	expect "longpath/5000-bytes-$name" 0 "$long_rel
" "" -- "${pre[@]}" $CR -m "$M" -r $flag "$long_id"
	expect "longpath/5000-bytes-stdin-$name" 0 "$long_id$TAB$M$long_rel
" "" -- bash -c 'echo '"$long_id"' | "$@"' - "${pre[@]}" $CR -m "$M" $flag -
	expect "longpath/over-8k-$name" 1 "" "cgroup-resolve: $huge_id: Filename too long
" -- "${pre[@]}" $CR -m "$M" -r $flag "$huge_id"
done
(cd "$T" && for i in $(seq 34); do cd "$n250" || exit; done &&
	for i in $(seq 34); do cd .. && rmdir "$n250"; done)

# ---- watch: short-lived cgroups while the watcher lags (12) -------------------
rmdir "$T/a/b" "$T/a"   # from here on, $T holds only what the watchers saw made
# wait_for FILE STRING: until a line holds it (5 s)
wait_for() {
	local i
	for ((i = 0; i < 100; i++)); do
		grep -qF -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}
# lag_watch OUT CMDS: start a watcher (-r), wait until it is ready, stop
# it, run CMDS (bash, in $T), let it go on and stop it once it has seen
# a marker cgroup made last. OUT gets its lines below $T, minus the
# probes: the watcher reports the whole hierarchy, and another suite's
# cgroups come and go there meanwhile (make check runs this family in
# the Debian 13 root beside the host's cgroup family).
lag_watch() {
	local out=$1 i
	$CR -m "$M" -w -r >"$out.raw" 2>"$out.err" &
	WPID=$! CG_KILL_PIDS+=" $WPID"
	cg_watch_ready "$out.raw"
	kill -STOP "$WPID"
	(cd "$T" && eval "$2")
	mkdir "$T/marker"
	kill -CONT "$WPID"
	wait_for "$out.raw" "$rel/marker"
	kill -TERM "$WPID"
	wait "$WPID"
	rmdir "$T/marker"
	grep -vF -e "$rel/ready" -e "$rel/marker" "$out.raw" |
		awk -F'\t' -v t="$rel/" 'index($2, t) == 1' >"$out"
}
# SIGN PATH per line, ids left out (they are checked apart)
signs_paths() { sed 's/^\([-+]\)[0-9]*\t/\1 /' "$1"; }
# Each id's lines: "+ -" for a cgroup made and removed; the path the same.
pairs_ok() {
	awk -F'\t' '{ s = substr($1, 1, 1); id = substr($1, 2)
		seq[id] = seq[id] s; if (s == "+") p[id] = $2; else if (p[id] != $2) bad = 1 }
		END { for (i in seq) if (seq[i] != "+-" && seq[i] != "+") bad = 1; print bad ? "bad" : "ok" }' "$1"
}
# What a consumer keyed by path ends with: PATH<TAB>ID, sorted.
by_path() {
	awk -F'\t' '{ s = substr($1, 1, 1); id = substr($1, 2)
		if (s == "+") m[$2] = id; else if (m[$2] == id) delete m[$2] }
		END { for (k in m) print k "\t" m[k] }' "$1" | sort
}
tree_by_path() {   # the same for what is below $T now, -r paths
	find "$T" -mindepth 1 -type d -printf "$rel/%P\t%i\n" | sort
}
# nested: s2's events named a parent the index never held; only
# +s1 -s1 used to be printed. Every cgroup gets + (parents first) and -
# (children first).
W=$CG_WORK/lag1
lag_watch "$W" 'mkdir -p s1/s2/s3; rmdir s1/s2/s3 s1/s2 s1'
check watch/lag-nested-short-lived "+ $rel/s1
+ $rel/s1/s2
+ $rel/s1/s2/s3
- $rel/s1/s2/s3
- $rel/s1/s2
- $rel/s1" "$(signs_paths "$W")"
check watch/lag-nested-ids-paired ok "$(pairs_ok "$W")"
# a reused name: the new + used to come before the old pair, so a
# consumer keyed by path ended without s3
W=$CG_WORK/lag2
lag_watch "$W" 'mkdir s3; rmdir s3; mkdir s3'
check watch/lag-reused-name "+ $rel/s3
- $rel/s3
+ $rel/s3" "$(signs_paths "$W")"
check watch/lag-reused-name-new-id-last "+$(cg_id "$T/s3")" "$(tail -n 1 "$W" | cut -f1)"
check watch/lag-reused-name-by-path "$(tree_by_path)" "$(by_path "$W")"
rmdir "$T/s3"
# both at once, over and over, with survivors: the consumer's view is
# the tree
W=$CG_WORK/lag3
lag_watch "$W" 'for i in 1 2 3 4 5; do mkdir -p r/x/y q; rmdir r/x/y r/x r q; done; mkdir -p r/x q/z; rmdir q/z; mkdir q/z2'
check watch/lag-churn-by-path "$(tree_by_path)" "$(by_path "$W")"
check watch/lag-churn-ids-paired ok "$(pairs_ok "$W")"
check watch/lag-churn-count "$((5 * 4 + 5))" "$(grep -c '^+' "$W")"
check watch/lag-quiet-stderr "" "$(cat "$CG_WORK"/lag*.err)"
# (3) in watch mode too: a cgroup made 5,000 bytes deep is reported when
# made (name_to_handle_at of a path that long used to fail, so only its
# removal said it had existed).
W=$CG_WORK/deepwatch
$CR -m "$M" -w -r >"$W" 2>"$W.err" &
WPID=$! CG_KILL_PIDS+=" $WPID"
cg_watch_ready "$W"
deep_id=$(cd "$T" && for i in $(seq 20); do mkdir "$n250" && cd "$n250" || exit; done; stat -c %i .)
wait_for "$W" "+$deep_id	"
check watch/deep-create-reported "+$deep_id	$long_rel" "$(grep -F "+$deep_id	" "$W")"
kill -TERM "$WPID"
wait "$WPID"
(cd "$T" && for i in $(seq 20); do cd "$n250" || exit; done &&
	for i in $(seq 20); do cd .. && rmdir "$n250"; done)
