# tests/lib-xenstored.sh — the stand-in xenstored (tests/hotplug/xenstored-standin.py)
# for the host tests that speak xenstore (tests/hotplug, tests/xen-init). Source it after
# tests/lib.sh, inside the test's private mount namespace (a tmpfs /run).
#
# xenstored_standin STATEDIR [ARGS...]: (re)start the stand-in on
# /var/run/xenstored/socket with STATEDIR (tree.in there, if any, is its first tree) and
# ARGS (--silent, --pty, --wrong-id=SUFFIX); its pid in XS_STANDIN_PID. Returns 1 if it is not ready in 5 s.
XS_STANDIN_PID=
xenstored_standin() {
	local dir=$1 i
	shift
	if [ -n "$XS_STANDIN_PID" ]; then
		kill "$XS_STANDIN_PID" 2>/dev/null
		wait "$XS_STANDIN_PID" 2>/dev/null
	fi
	rm -f "$dir/ready" "$dir/pty"
	python3 "$TOP/tests/hotplug/xenstored-standin.py" /var/run/xenstored/socket "$dir" "$@" &
	XS_STANDIN_PID=$!
	for i in $(seq 100); do
		[ -e "$dir/ready" ] && return 0
		sleep 0.05
	done
	return 1
}
