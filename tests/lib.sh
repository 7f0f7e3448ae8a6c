# tests/lib.sh - sourced by every test script (bash).
#
# Each check prints one line that tests/run counts:
#   PASS: NAME
#   FAIL: NAME: DETAILS            (details may follow on indented lines)
#   SKIPPED: NAME: REASON          (only where the machine cannot run it)
#   INFO: TEXT                     (measurements, not counted)
# A script exits 0 unless it could not run at all.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FORKLESS=${FORKLESS:-$TOP/forkless}
TMPBASE=${TMPBASE:-$TOP/build/tests}
mkdir -p "$TMPBASE"

pass() { printf 'PASS: %s\n' "$1"; }
fail() {
	printf 'FAIL: %s: %s\n' "$1" "${2:-}"
	shift 2 2>/dev/null || shift
	[ $# -gt 0 ] && printf '%s\n' "$@" | sed 's/^/    /'
	return 0
}
skip() { printf 'SKIPPED: %s: %s\n' "$1" "$2"; }
info() { printf 'INFO: %s\n' "$*"; }

# check NAME EXPECTED ACTUAL: pass when equal, else fail with both shown.
check() {
	if [ "$2" == "$3" ]; then
		pass "$1"
	else
		fail "$1" "expected vs actual differ" \
			"expected: $(printf '%q' "$2")" "actual:   $(printf '%q' "$3")"
	fi
}

# run_capture CMD...: runs CMD, sets OUT, ERR, RC (stdout, stderr, status).
run_capture() {
	local o e
	o=$(mktemp -p "$TMPBASE") e=$(mktemp -p "$TMPBASE")
	"$@" >"$o" 2>"$e"
	RC=$?
	OUT=$(cat "$o"; echo x) OUT=${OUT%x}
	ERR=$(cat "$e"; echo x) ERR=${ERR%x}
	rm -f "$o" "$e"
}

# A fresh scratch directory, removed by the caller's cleanup.
scratch() { mktemp -d -p "$TMPBASE" "${1:-t}.XXXXXX"; }

need_root() {
	if [ "$(id -u)" != 0 ]; then
		skip "$1" "needs root (chroot, namespaces, mounts)"
		return 1
	fi
}
