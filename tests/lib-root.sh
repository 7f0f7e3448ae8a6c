# SPDX-License-Identifier: MIT
# lib-root.sh - a Debian root made with mmdebstrap, cached as a tarball,
# and commands run in it as on a machine of its own (sourced after
# tests/lib.sh).
#
# cached_root TAR RECIPE SUITE SOURCES [MMDEBSTRAP-OPTION...]
#     prints TAR, made first with `mmdebstrap --format=tar OPTION... SUITE
#     TAR SOURCES` (SOURCES: a deb822 file, NAME.sources) when it is
#     missing or was made from another RECIPE (a text that says what the
#     root holds: TAR.recipe keeps it); mmdebstrap's output in TAR.log.
#     1 when mmdebstrap fails.
# host_chroot [-b HOSTDIR ROOTDIR]... DIR CMD...
#     CMD as root in DIR, the root (pivot_root) of a private mount
#     namespace that holds what a booted host has: DIR a mount point
#     (unshare -m, which makes / private, fails on a plain directory),
#     where setns(2) into the namespace (mount -N, nsenter) lands, as a
#     chroot would not; /proc; /sys with its cgroup2 mount; /dev, /dev/pts
#     and /dev/shm (the host's: loop and tun devices); /run and /tmp as
#     fresh tmpfs; the host's /etc/resolv.conf (for apt); each HOSTDIR
#     bind-mounted on ROOTDIR (e.g. an apt archive cache). The environment
#     is a login's (PATH, HOME, TERM, LANG) and what CMD's `env` sets. In a
#     PID namespace of its own: when CMD ends, whatever it left running
#     (a daemon of a test) is killed, and the mounts go with the namespace.
#     DIR must have umount (Debian: mount, priority required).

cached_root() {
	local tar=$1 recipe=$2 suite=$3 sources=$4
	shift 4
	if [ -f "$tar" ] && [ "$(cat "$tar.recipe" 2>/dev/null)" = "$recipe" ]; then
		echo "$tar"; return 0
	fi
	mkdir -p "$(dirname "$tar")" && rm -f "$tar" "$tar.recipe" || return 1
	# (a namespace of its own: mmdebstrap's mounts leave no trace)
	unshare -m --propagation private mmdebstrap --format=tar "$@" "$suite" "$tar.tmp" "$sources" \
		>"$tar.log" 2>&1 || { rm -f "$tar.tmp"; return 1; }
	mv "$tar.tmp" "$tar" && printf '%s\n' "$recipe" >"$tar.recipe" && echo "$tar"
}

host_chroot() {
	local binds=()
	while [ "${1:-}" = -b ]; do
		binds+=("$2" "$3")
		shift 3
	done
	local root
	root=$(readlink -f "$1") || return 1
	shift
	cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || :
	unshare -m -p --fork --propagation private sh -ec '
		r=$1 n=$2
		shift 2
		# / a mount point, as on a host (unshare -m inside makes it private)
		mount --bind "$r" "$r"
		mount -t proc proc "$r/proc"
		mount --rbind /sys "$r/sys"
		mount --rbind /dev "$r/dev"
		mount -t tmpfs -o mode=755,nosuid,nodev tmpfs "$r/run"
		mkdir -p "$r/run/lock" && chmod 1777 "$r/run/lock"
		mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$r/tmp"
		while [ "$n" -gt 0 ]; do
			mkdir -p "$r$2" && mount --bind "$1" "$r$2"
			shift 2
			n=$((n - 1))
		done
		# DIR the root of the namespace, not a chroot in it: setns(2) into
		# a mount namespace (mount -N, nsenter) moves the caller to the
		# namespace'"'"'s root, which a plain chroot would escape to
		cd "$r" && pivot_root . . && umount -l .
		chroot . /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root TERM="${TERM:-dumb}" LANG=C.UTF-8 "$@"' \
		host_chroot "$root" $((${#binds[@]} / 2)) "${binds[@]}" "$@"
}
