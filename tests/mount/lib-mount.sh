# SPDX-License-Identifier: MIT
# lib-mount.sh - for the mount tests (sourced after tests/lib.sh by
# tests/mount/*.sh and tests/hostile/mount.sh): stand-ins for what
# mount-shared reads, for tests that run in a private mount namespace
# (unshare -m). (Which applets are built: tests/lib.sh's need_applet.)
. "$TOP/tests/lib-xenstored.sh"

# sysfs_standin: empty tmpfs over the sysfs directories mount-shared
# reads, and no /dev/vboxguest. 1 (after a SKIPPED line) when it cannot.
sysfs_standin() {
	local d
	mount --make-rprivate / 2>/dev/null
	for d in /sys/bus/virtio /sys/fs /sys/bus/pci; do
		mkdir -p "$d" 2>/dev/null
		mount -t tmpfs tmpfs "$d" || { skip "$1" "cannot mount tmpfs on $d"; return 1; }
	done
	[ -e /dev/vboxguest ] && mount --bind /dev/null /dev/vboxguest 2>/dev/null && rm -f /dev/vboxguest 2>/dev/null
	if [ -e /dev/vboxguest ]; then
		skip "$1" "this machine is a VirtualBox guest (/dev/vboxguest)"
		return 1
	fi
}

# mount_calls CMD...: CMD under strace with every mount(2) call injected
# to succeed (nothing is mounted): RC its exit status, $T/out and $T/err
# its streams, the mount(2) calls it made in $T/calls and in got, one a
# line (T: the test's scratch directory).
mount_calls() {
	strace -f -qq -s 8192 -o "$T/st" -e trace=mount -e inject=mount:retval=0 "$@" >"$T/out" 2>"$T/err"
	RC=$?
	exit_seen_cmd "$RC" "$@"
	sed -n 's/^[0-9]* *//; s/^\(mount(.*)\) *= 0 (INJECTED)$/\1/p' "$T/st" >"$T/calls"
	got=$(cat "$T/calls")
}

# mounts NAME EXPECTED-CALLS CMD...: passes when CMD exits 0 having made
# exactly these mount(2) calls (mount_calls).
mounts() {
	local name=$1 want=$2
	shift 2
	mount_calls "$@"
	if [ "$RC" != 0 ]; then
		fail "$name" "exit $RC, calls '$got'" "$(cat "$T/err")"
	else
		check "$name" "$want" "$got"
	fi
}

# xenstore_standin NAME DIR [--silent | --delay=SECONDS] [N=TAG...]: the
# stand-in xenstored (tests/lib-xenstored.sh) on a raw pty bound at
# /dev/xen/xenbus, through an overlay on /dev (made when there is no
# /dev/xen/xenbus), its state in DIR/xs; N=TAG: 9pfs device N with tag TAG
# (device/9pfs/N/tag, relative to the stand-in's own domain). Its pid in
# XS_STANDIN_PID. 1 (after a FAIL or SKIPPED line for NAME) when it cannot.
xenstore_standin() {
	local name=$1 dir=$2 a args=()
	shift 2
	XS_OVERLAY=
	if ! command -v python3 >/dev/null; then
		fail "$name" "python3 not installed (the stand-in xenstore; .ci/run installs it)"
		return 1
	fi
	mkdir -p "$dir/xs"
	: >"$dir/xs/tree.in"
	for a; do
		case $a in
		--*) args+=("$a") ;;
		*=*) printf '/local/domain/0/device/9pfs/%s/tag=%s\n' "${a%%=*}" "${a#*=}" >>"$dir/xs/tree.in" ;;
		esac
	done
	XS_STANDIN_SOCKET=- xenstored_standin "$dir/xs" --pty "${args[@]}"
	mkdir -p "$dir/devx/xen" && touch "$dir/devx/xen/xenbus" "$dir/xenbus"
	if ! [ -s "$dir/xs/pty" ] || ! mount --bind "$(cat "$dir/xs/pty")" "$dir/xenbus" ||
		! { [ -e /dev/xen/xenbus ] || { mount -t overlay overlay -o "lowerdir=$dir/devx:/dev" /dev 2>"$dir/xs-err" && XS_OVERLAY=1; }; } ||
		! mount --bind "$dir/xenbus" /dev/xen/xenbus 2>>"$dir/xs-err"; then
		skip "$name" "cannot put a pty at /dev/xen/xenbus: $(cat "$dir/xs-err" 2>/dev/null)"
		kill "$XS_STANDIN_PID"
		return 1
	fi
}

# xenstore_standin_stop DIR: the stand-in gone, /dev/xen/xenbus unbound.
xenstore_standin_stop() {
	kill "$XS_STANDIN_PID" 2>/dev/null
	wait "$XS_STANDIN_PID" 2>/dev/null
	XS_STANDIN_PID=
	umount /dev/xen/xenbus 2>/dev/null
	umount "$1/xenbus" 2>/dev/null
	# the overlay hides /dev/pts, which the next pty needs
	[ -z "$XS_OVERLAY" ] || umount /dev
	return 0
}
