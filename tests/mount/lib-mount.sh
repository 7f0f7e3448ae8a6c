# lib-mount.sh - for the mount tests (sourced after tests/lib.sh by
# tests/mount/*.sh and tests/hostile/mount.sh): which applets are built,
# and stand-ins for what mount-shared reads, for tests that run in a
# private mount namespace (unshare -m).

# mount_applets NAME APPLET...: 0 when every APPLET is built into
# $FORKLESS. Else 1 after need_applet's SKIPPED line where tests/lib.sh
# has need_applet, or (before it does) a FAIL line for NAME.
mount_applets() {
	local name=$1 a
	shift
	for a in "$@"; do
		if declare -F need_applet >/dev/null; then
			need_applet "$a" || return 1
		elif ! "$FORKLESS" --list | grep -qx "$a"; then
			fail "$name" "$a is not built into $FORKLESS"
			return 1
		fi
	done
}

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

# xenstore_standin NAME DIR ARGS...: the stand-in xenstore
# (xenstore-standin.py ARGS) on a raw pty bound at /dev/xen/xenbus, through
# an overlay on /dev (made when there is no /dev/xen/xenbus); its pid in
# XS_PID. 1 (after a FAIL or SKIPPED line
# for NAME) when it cannot.
xenstore_standin() {
	local name=$1 dir=$2 _
	shift 2
	XS_OVERLAY=
	if ! command -v python3 >/dev/null; then
		fail "$name" "python3 not installed (the stand-in xenstore; .ci/run installs it)"
		return 1
	fi
	rm -f "$dir/pty"
	python3 "$TOP/tests/mount/xenstore-standin.py" "$dir/pty" "$@" &
	XS_PID=$!
	for _ in $(seq 50); do [ -s "$dir/pty" ] && break; sleep 0.1; done
	mkdir -p "$dir/devx/xen" && touch "$dir/devx/xen/xenbus" "$dir/xenbus"
	if ! [ -s "$dir/pty" ] || ! mount --bind "$(cat "$dir/pty")" "$dir/xenbus" ||
		! { [ -e /dev/xen/xenbus ] || { mount -t overlay overlay -o "lowerdir=$dir/devx:/dev" /dev 2>"$dir/xs-err" && XS_OVERLAY=1; }; } ||
		! mount --bind "$dir/xenbus" /dev/xen/xenbus 2>>"$dir/xs-err"; then
		skip "$name" "cannot put a pty at /dev/xen/xenbus: $(cat "$dir/xs-err" 2>/dev/null)"
		kill "$XS_PID"
		return 1
	fi
}

# xenstore_standin_stop DIR: the stand-in gone, /dev/xen/xenbus unbound.
xenstore_standin_stop() {
	kill "$XS_PID" 2>/dev/null
	wait "$XS_PID" 2>/dev/null
	umount /dev/xen/xenbus 2>/dev/null
	umount "$1/xenbus" 2>/dev/null
	# the overlay hides /dev/pts, which the next pty needs
	[ -z "$XS_OVERLAY" ] || umount /dev
	return 0
}
