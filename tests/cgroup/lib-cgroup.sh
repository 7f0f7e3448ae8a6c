# SPDX-License-Identifier: MIT
# tests/cgroup/lib-cgroup.sh - sourced by the cgroup-resolve tests.
#
# cg_setup NAME: re-runs the calling script in a private mount namespace
# (unshare -m), mounts a fresh cgroup2 at $M and makes $T, a directory of
# our own in that hierarchy (a second cgroup2 mount shows the SAME tree as
# the host's, so everything goes below $T, removed on exit). Sets CR (the
# applet's command) and sources tests/lib.sh. Returns 1 (after a SKIPPED
# line) where the machine cannot do it.
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

CR="$FORKLESS cgroup-resolve"

cg_setup() {
	local name=$1
	need_root "$name" || return 1
	if [ -z "${CG_IN_PRIVATE_NS:-}" ]; then
		CG_IN_PRIVATE_NS=1 exec unshare -m --propagation private \
			bash "$0" "$@"
		skip "$name" "unshare -m failed"
		return 1
	fi
	need_applet cgroup-resolve || return 1
	CG_WORK=$(scratch cgroup) || return 1
	chmod 755 "$CG_WORK"   # unprivileged runs must reach the mount
	M=$CG_WORK/mnt
	mkdir -p "$M"
	if ! mount -t cgroup2 none "$M" 2>"$CG_WORK/mount.err"; then
		skip "$name" "mount -t cgroup2: $(cat "$CG_WORK/mount.err")"
		rm -rf "$CG_WORK"
		return 1
	fi
	T=$M/forkless-test.$$
	if ! mkdir "$T" 2>"$CG_WORK/mkdir.err"; then
		skip "$name" "cannot create cgroups: $(cat "$CG_WORK/mkdir.err")"
		umount "$M"
		rm -rf "$CG_WORK"
		return 1
	fi
	trap cg_cleanup EXIT
	return 0
}

# cg_own_ns CMD: CMD (bash) in a cgroup namespace rooted at $T, with that
# namespace's cgroup2 mounted on $O ($CG_WORK/own: $T is its root), and
# O, CR and CG_WORK set. For checks that count the whole mount (the walk's
# cost, nr_descendants): there they see $T's tree alone, not the other
# cgroups of the machine (another test's churn beside this one: a Debian
# 13 root's run of this family while the host's watch tests make
# thousands).
cg_own_ns() {
	O=$CG_WORK/own
	mkdir -p "$O"
	O=$O CR=$CR CG_WORK=$CG_WORK bash -c 'echo $$ >"$1/cgroup.procs" &&
		exec unshare -C -m --propagation private bash -c "mount -t cgroup2 none \"\$O\" && $2"' _ "$T" "$1"
}

# Remove every cgroup below $T (children first), unmount, clean up.
cg_cleanup() {
	local pid
	for pid in ${CG_KILL_PIDS:-}; do
		kill -CONT "$pid" 2>/dev/null
		kill -KILL "$pid" 2>/dev/null
	done
	if [ -n "${T:-}" ] && [ -d "$T" ]; then
		find "$T" -depth -mindepth 1 -type d -print0 2>/dev/null |
			xargs -0 -r rmdir 2>/dev/null
		rmdir "$T" 2>/dev/null
	fi
	grep -q " $CG_WORK/" /proc/self/mountinfo 2>/dev/null &&
		awk -v w="$CG_WORK/" 'index($5, w) == 1 { print $5 }' \
			/proc/self/mountinfo | sort -r | xargs -r -n1 umount -l
	rm -rf "$CG_WORK"
}

# The id of a directory, from the kernel's inode number (test oracle).
cg_id() { stat -c %i "$1"; }

# The first cgroup2 mount with root "/" in mountinfo: what the applet's
# default detection must choose (never a cgroup v1 hierarchy).
cg_default_mount() {
	awk '{ for (i = 7; $i != "-"; i++); if ($(i+1) == "cgroup2" && $4 == "/") { print $5; exit } }' \
		/proc/self/mountinfo | sed 's/\\040/ /g'
}

# cg_watch_ready OUT [NAME]: wait until a watcher started with -r, writing
# to OUT, is ready (marked and walked): only the event loop reports a
# cgroup made and removed after the walk, so $T/NAME is made and removed
# until OUT has its line (10 s at most; 1: never).
cg_watch_ready() {
	local out=$1 name=${2:-ready} i
	for ((i = 0; i < 200; i++)); do
		mkdir "$T/$name" && rmdir "$T/$name"
		grep -qF "	${T#"$M"}/$name" "$out" && return 0
		sleep 0.05
	done
	return 1
}

# Every directory below $1 (inclusive) as ID<TAB>PATH, sorted: the oracle
# for listings (plain names only).
cg_oracle_list() { find "$1" -type d -printf '%i\t%p\n' | sort; }
