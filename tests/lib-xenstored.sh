# SPDX-License-Identifier: MIT
# tests/lib-xenstored.sh — the stand-in xenstored (tests/xenstored-standin.py, its
# options there) for the host tests that speak xenstore (tests/hotplug, tests/xen's
# init-list.sh, tests/mount's mount-shared through lib-mount.sh). Source it after
# tests/lib.sh, inside the test's private mount namespace (a tmpfs /run).
#
# xenstored_standin STATEDIR [ARGS...]: (re)start the stand-in on the unix socket
# XS_STANDIN_SOCKET (default /var/run/xenstored/socket; - for none, with --pty) with
# STATEDIR (tree.in there, if any, is its first tree) and ARGS (--silent, --pty,
# --delay=SECONDS, --wrong-id=SUFFIX...); its pid in XS_STANDIN_PID. Returns 1 if it is
# not ready in 5 s.
XS_STANDIN_PID=
xenstored_standin() {
	local dir=$1 i
	shift
	if [ -n "$XS_STANDIN_PID" ]; then
		kill "$XS_STANDIN_PID" 2>/dev/null
		wait "$XS_STANDIN_PID" 2>/dev/null
	fi
	rm -f "$dir/ready" "$dir/pty"
	python3 "$TOP/tests/xenstored-standin.py" "${XS_STANDIN_SOCKET:-/var/run/xenstored/socket}" \
		"$dir" "$@" &
	XS_STANDIN_PID=$!
	for i in $(seq 100); do
		[ -e "$dir/ready" ] && return 0
		sleep 0.05
	done
	return 1
}
