#!/bin/bash
# SPDX-License-Identifier: MIT
# cgroup-resolve inside a cgroup namespace (unshare -C) and through a
# container-style bind mount of a subtree: ids and paths as the caller
# sees them. With a cgroup2 mount made inside the namespace, paths are
# relative to the namespace root (as /proc/PID/cgroup shows them) and an
# id outside it is "no such cgroup" -- never a "/../.." path -- in every
# mode; with the host's mount, seen from inside as root "/../..", the
# default discovery still finds it, and paths are the mount's.
. "$(dirname "$0")/lib-cgroup.sh"
cg_setup cgroup/namespace || exit 0
if ! unshare -C true 2>/dev/null; then
	skip cgroup/namespace "unshare -C failed"
	exit 0
fi
mkdir -p "$T/ns/a/b" "$T/out"
NSM=$CG_WORK/nsmnt
mkdir -p "$NSM"
id_ns=$(cg_id "$T/ns") id_a=$(cg_id "$T/ns/a") id_b=$(cg_id "$T/ns/a/b") id_out=$(cg_id "$T/out")
rel=${T#"$M"}
# a sleeper in $T/ns/a/b and one in $T/out, to read their /proc/PID/cgroup
sleep 600 & in_pid=$!
sleep 600 & out_pid=$!
disown "$in_pid" "$out_pid"
CG_KILL_PIDS="$in_pid $out_pid"
echo "$in_pid" >"$T/ns/a/b/cgroup.procs"
echo "$out_pid" >"$T/out/cgroup.procs"

cat >"$CG_WORK/inner.sh" <<'INNER'
. "$TOP/tests/lib.sh"
CR="$FORKLESS cgroup-resolve"
check ns/self-at-namespace-root "0::/" "$(grep '^0::' /proc/self/cgroup)"
check ns/inside-pid-cgroup "0::/a/b" "$(grep '^0::' "/proc/$in_pid/cgroup")"
check ns/outside-pid-cgroup "0::/../out" "$(grep '^0::' "/proc/$out_pid/cgroup")"
# the host's mount, from inside: root "/../.."
check ns/host-mount-root "/../.." "$(awk -v m="$M" '$5 == m { print $4 }' /proc/self/mountinfo)"

# ---- a cgroup2 mount made inside the namespace ------------------------
mount -t cgroup2 none "$NSM"
for mode in --handles --walk ""; do
	run_capture $CR -m "$NSM" $mode "$id_b" "$id_ns" "$id_out" 1
	check "ns/own-mount-paths${mode:+ $mode}" "$NSM/a/b
$NSM
/1/cgroup-resolve: $id_out: no such cgroup
cgroup-resolve: 1: no such cgroup
" "$OUT/$RC/$ERR"
	run_capture $CR -m "$NSM" -r $mode "$id_b" "$id_ns"
	check "ns/own-mount-relative${mode:+ $mode}" "/a/b
/
" "$OUT"
	run_capture $CR -m "$NSM" -r $mode - <<<"$id_b
$id_out"
	check "ns/own-mount-stdin${mode:+ $mode}" "$id_b	/a/b
$id_out	?
/1/" "$OUT/$RC/$ERR"
done
# /proc/PID/cgroup's path -> id -> the same path; "/../out" is refused
p=$(sed -n 's/^0:://p' "/proc/$in_pid/cgroup")
run_capture $CR -m "$NSM" -r -p "$p"
check ns/proc-cgroup-path-to-id "$id_b
" "$OUT"
run_capture $CR -m "$NSM" -r "$id_b"
check ns/id-to-proc-cgroup-path "$p
" "$OUT"
p=$(sed -n 's/^0:://p' "/proc/$out_pid/cgroup")
run_capture $CR -m "$NSM" -r -p "$p"
check ns/proc-cgroup-outside-refused "1/cgroup-resolve: /../out: not on the cgroup2 mount $NSM
" "$RC/$ERR"
# -l and the default discovery see the namespace's tree
run_capture $CR -m "$NSM" -r -l
check ns/own-mount-list "$id_ns	/
$id_a	/a
$id_b	/a/b
" "$OUT"
check ns/own-mount-default "$NSM/a/b" "$($CR "$id_b" 2>&1)"
umount "$NSM"

# ---- the host's mount, seen from inside -------------------------------
# Hide every other cgroup2 mount (a tmpfs and a v1 hierarchy over
# /sys/fs/cgroup, as on a hybrid host): only $M, whose root reads
# "/../.." here, is left to find.
if mount -t tmpfs none /sys/fs/cgroup; then
	mkdir -p /sys/fs/cgroup/named
	mount -t cgroup -o none,name=forkless-ns cgroup /sys/fs/cgroup/named 2>/dev/null
	run_capture $CR "$id_b" "$id_out"
	check ns/host-mount-found "$M$rel/ns/a/b
$M$rel/out
/0" "$OUT/$RC"
	run_capture $CR -r "$id_b"
	check ns/host-mount-relative "$rel/ns/a/b
" "$OUT"
	umount /sys/fs/cgroup/named 2>/dev/null
	umount /sys/fs/cgroup
else
	skip ns/host-mount-found "cannot mount a tmpfs over /sys/fs/cgroup"
fi
INNER
export TOP FORKLESS M NSM T rel id_ns id_a id_b id_out in_pid out_pid
# enter the namespace from $T/ns: that is its root
bash -c 'echo $$ >"$T/ns/cgroup.procs"; exec unshare -C bash "$1"' _ "$CG_WORK/inner.sh"

# ---- a container-style bind mount of a subtree --------------------------
# (as a runtime gives a container $T/ns at /sys/fs/cgroup)
B=$CG_WORK/ctr
mkdir -p "$B"
mount --bind "$T/ns" "$B"
for mode in --handles --walk ""; do
	run_capture $CR -m "$B" -r $mode "$id_b" "$id_ns" "$id_out"
	check "bind/container-relative${mode:+ $mode}" "/a/b
/
/1/cgroup-resolve: $id_out: no such cgroup
" "$OUT/$RC/$ERR"
done
run_capture $CR -m "$B" -r -p /a/b
check bind/container-path-to-id "$id_b
" "$OUT"
umount "$B"

# The hybrid layout with cgroup2 at a place of its own: a tmpfs holding a
# v1 hierarchy at /sys/fs/cgroup, no /sys/fs/cgroup/unified, the v2 tree
# only at $M: the default discovery finds $M.
if mount -t tmpfs none /sys/fs/cgroup; then
	mkdir -p /sys/fs/cgroup/named
	mount -t cgroup -o none,name=forkless-hy cgroup /sys/fs/cgroup/named 2>/dev/null
	run_capture $CR "$id_b"
	check mount/hybrid-v2-elsewhere "$M$rel/ns/a/b
/0" "$OUT/$RC"
	umount /sys/fs/cgroup/named 2>/dev/null
	umount /sys/fs/cgroup
fi
echo "$in_pid" >"$M/cgroup.procs"
echo "$out_pid" >"$M/cgroup.procs"
