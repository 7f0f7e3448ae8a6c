# SPDX-License-Identifier: MIT
# tests/lib.sh - sourced by every test script (bash).
#
# Each check prints one line that tests/run counts:
#   PASS: NAME
#   FAIL: NAME: DETAILS            (details may follow on indented lines)
#   SKIPPED: NAME: REASON          (only where the machine cannot run it)
#   INFO: TEXT                     (measurements, not counted)
# A script exits 0 unless it could not run at all.
# TEST_MATCH=PATTERN (tests/run -k): only the checks whose NAME contains
# PATTERN (shell wildcards allowed) print their line; the others still
# run, silently (later checks may depend on what they did).

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FORKLESS=${FORKLESS:-$TOP/forkless}
TMPBASE=${TMPBASE:-$TOP/build/tests}
mkdir -p "$TMPBASE"

# Only fds 0-2 from the caller: tests count the fds a program leaves open
# and run tools under `ulimit -n 4`, where an inherited fd (the lock a
# `flock FILE make check` holds, a CI runner's pipe) would be counted or
# take a slot. The one bash reads this script from (255) stays.
_lib_self=$(readlink -f "$0" 2>/dev/null)
for _lib_fd in /proc/$$/fd/*; do
	_lib_n=${_lib_fd##*/}
	case $_lib_n in 0|1|2|*[!0-9]*) continue ;; esac
	[ -n "$_lib_self" ] && [ "$(readlink -f "$_lib_fd" 2>/dev/null)" = "$_lib_self" ] && continue
	eval "exec $_lib_n>&-"
done
unset _lib_self _lib_fd _lib_n

# wanted NAME: whether the check NAME is reported (TEST_MATCH).
wanted() { [ -z "${TEST_MATCH:-}" ] || [[ $1 == *$TEST_MATCH* ]]; }
pass() { wanted "$1" || return 0; printf 'PASS: %s\n' "$1"; }
fail() {
	wanted "$1" || return 0
	printf 'FAIL: %s: %s\n' "$1" "${2:-}"
	shift 2 2>/dev/null || shift
	[ $# -gt 0 ] && printf '%s\n' "$@" | sed 's/^/    /'
	return 0
}
skip() { wanted "$1" || return 0; printf 'SKIPPED: %s: %s\n' "$1" "$2"; }
info() { printf 'INFO: %s\n' "$*"; }

# figure NAME VALUE: records a deterministic count this run measured (one
# line "NAME VALUE" in $FIGURES, build/tests/figures by default, which
# tests/run empties first). tests/figures.sh, run last, compares it with
# the documentation's `VALUE<!--fig:NAME-->` marker; docs/testing.md lists
# the names and the test that measures each.
figure() {
	# (not the ASan/UBSan build's: tests/asan/suite.sh runs its own binary)
	[ -n "${FORKLESS_SANITIZED:-}" ] && return 0
	printf '%s %s\n' "$1" "$2" >>"${FIGURES:-$TOP/build/tests/figures}"
	info "figure $1 = $2"
}

# check NAME EXPECTED ACTUAL: pass when equal, else fail with both shown.
check() {
	if [ "$2" == "$3" ]; then
		pass "$1"
	else
		fail "$1" "expected vs actual differ" \
			"expected: $(printf '%q' "$2")" "actual:   $(printf '%q' "$3")"
	fi
}

# exit_seen APPLET STATUS: records that this test saw APPLET exit with
# STATUS (one line "APPLET STATUS SCRIPT" in $EXITS, build/tests/exits by
# default, which tests/run empties first). tests/exits.sh, run last,
# fails on a status the applet's header does not declare (//exit:), and,
# in a whole run, on a declared one no test saw. run_capture and expect
# record what they run when it is $FORKLESS (exit_seen_cmd); a test that
# runs an applet another way (in a namespace, against Debian's script)
# calls exit_seen itself where it compares the status.
exit_seen() {
	printf '%s %s %s\n' "$1" "$2" "${0#"$TOP"/}" >>"${EXITS:-$TOP/build/tests/exits}"
}

# exit_seen_cmd STATUS CMD [ARGS...]: exit_seen for CMD when it is
# $FORKLESS (the same file, by any name or link): the applet that name
# runs, as core/dispatch.c decides (a `forkless` name: its first
# argument, unless an option; an at= path; the applet of that name; else
# the FALLBACK applet, xen-utils-wrapper).
exit_seen_cmd() {
	local rc=$1 p base
	p=$(command -v -- "$2" 2>/dev/null) || return 0
	[ -n "$p" ] && [ "$p" -ef "$FORKLESS" ] || return 0
	base=${2##*/} base=${base#-}
	case $base in
	forkless*) case ${3:-} in ''|-*) return 0 ;; esac; base=$3 ;;
	esac
	case $2 in */init.d/xen) base=xencommons ;; esac
	[ -n "${_lib_applets:-}" ] || _lib_applets=" $("$FORKLESS" --list 2>/dev/null | tr '\n' ' ')"
	case $_lib_applets in *" $base "*) ;; *) base=xen-utils-wrapper ;; esac
	exit_seen "$base" "$rc"
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
	exit_seen_cmd "$RC" "$@"
}

# A fresh scratch directory, removed by the caller's cleanup.
scratch() { mktemp -d -p "$TMPBASE" "${1:-t}.XXXXXX"; }

# allyes_autoconf DIR: DIR/.config with every option on (so the code of
# every ENABLE_X is compiled), DIR/symbols and DIR/autoconf.h as the build
# makes them, for the unit tests and the fuzz targets; status 1 on failure.
allyes_autoconf() {
	( cd "$TOP" && KCONFIG_CONFIG=$1/.config kconfig-conf --allyesconfig Config.in >/dev/null &&
	  sed -n 's/^[[:space:]]*config[[:space:]]\{1,\}\([A-Za-z0-9_]*\).*/\1/p' \
		Config.in build/gen/applets/*/Config.in >"$1/symbols" &&
	  config/gen-autoconf.sh "$1/.config" "$1/symbols" "$1/autoconf.h" )
}

# libcommon_archive NAME DIR CC CFLAGS...: prints the path of libcommon
# compiled with CC and CFLAGS (and -I DIR, where autoconf.h is) as an
# archive, for test programs that link all of it (tests/unit, the fuzz
# targets); CC's errors in DIR/build.log. Each of them compiled the same
# files again (fuzz: 7 of a target's 9 seconds). Kept in
# $TMPBASE/libcommon-NAME-KEY (KEY: the sources, autoconf.h, CC's
# version and the flags; the other keys of NAME removed), made by one
# run at a time.
libcommon_archive() {
	local name=$1 dir=$2 cc=$3 key d rc=0
	shift 3
	key=$( { "$cc" --version; printf '%s\n' "$@"; cat "$dir/autoconf.h" \
		"$TOP"/libcommon/*.[ch]; } | sha256sum | cut -c1-16)
	d=$TMPBASE/libcommon-$name-$key
	exec 7>"$TMPBASE/libcommon-$name.lock" && flock 7 || return 1
	if [ ! -f "$d/libcommon.a" ]; then
		rm -rf "$TMPBASE/libcommon-$name"-*/ && mkdir -p "$d/o" &&
		printf '%s\0' "$TOP"/libcommon/*.c | xargs -0 -P "$(nproc)" -I{} sh -c \
			'd=$1 f=$2; shift 2; exec "$@" -c -o "$d/o/$(basename "$f" .c).o" "$f"' \
			- "$d" {} "$cc" "$@" -I"$dir" 2>"$dir/build.log" &&
		ar rcs "$d/libcommon.a.tmp" "$d"/o/*.o && mv "$d/libcommon.a.tmp" "$d/libcommon.a" || rc=1
	fi
	exec 7>&-
	[ "$rc" = 0 ] && echo "$d/libcommon.a"
}

# tree_key: a key for the working tree's content (the hash of HEAD, the
# diff to it and the new files' content), for what a test keeps from one
# run to the next (built .debs, binaries); status 1 without git.
tree_key() {
	local h
	h=$(cd "$TOP" && git rev-parse HEAD 2>/dev/null && git diff HEAD -- . &&
		git ls-files -o --exclude-standard -z | xargs -0 -r sha256sum) || return 1
	sha256sum <<<"$h" | cut -c1-16
}

# run_shards VAR N SCRIPT ARGS...: a comparison whose states mostly wait
# (timeouts, daemons' grace periods, sleeps) run as N copies of SCRIPT at
# once, each given in VAR the states it runs: every Nth of the `state NAME
# ...` lines of SCRIPT, in order, so neighbours (often alike in cost) go
# to different copies; SHARD is the copy's number, 1..N. Each copy's
# output is printed whole, in turn; the status is the first non-zero one.
# The caller runs it where VAR is unset (not in a copy), and each copy
# keeps its files apart (SHARD in their names):
#   [ -n "${XC_STATES+set}" ] || { run_shards XC_STATES 4 "$0" "$@"; exit; }
run_shards() {
	local var=$1 n=$2 script=$3 i d rc=0 r
	shift 3
	d=$(scratch shards) || return 1
	for ((i = 1; i <= n; i++)); do
		env "$var=$(awk -v n="$n" -v i="$i" '/^state [A-Za-z0-9_]+ / && k++ % n == i - 1 { printf "%s ", $2 }' "$script")" \
			SHARD=$i bash "$script" "$@" >"$d/$i" 2>&1 &
	done
	for ((i = 1; i <= n; i++)); do
		wait -n; r=$?
		[ "$rc" != 0 ] || rc=$r
	done
	for ((i = 1; i <= n; i++)); do cat "$d/$i"; done
	rm -rf "$d"
	return "$rc"
}

need_root() {
	if [ "$(id -u)" != 0 ]; then
		skip "$1" "needs root (chroot, namespaces, mounts)"
		return 1
	fi
}

# need_applet NAME...: 0 when $FORKLESS has every applet NAME built in;
# else one SKIPPED line per missing applet, naming it and its Kconfig
# symbol, and 1. The one rule for a test whose applet is configured out:
#   need_applet mount.9p || exit 0
need_applet() {
	local list name sym missing=0
	list=$("$FORKLESS" --list 2>/dev/null)
	for name; do
		grep -qxF -- "$name" <<<"$list" && continue
		sym=$(awk -v n="$name" '/^\/\/applet:/ { sub(/^\/\/applet:/, ""); if ($2 == n) { print $1; exit } }' \
			"$TOP"/applets/*/*.c)
		skip "$name" "applet $name is not built in (Kconfig ${sym:-symbol unknown}: make menuconfig)"
		missing=1
	done
	return $missing
}

# expect NAME RC STDOUT STDERR [--] CMD...: runs CMD (as run_capture does)
# and passes when its exit status, stdout and stderr are exactly RC, STDOUT
# and STDERR (toybox's testcmd, with the status and both streams checked).
# A field given as @any is not compared. On failure it prints a `diff -u`
# of what was expected against what came, one block per stream.
expect() {
	local name=$1 want_rc=$2 want_out=$3 want_err=$4 want got
	shift 4
	[ "${1:-}" = -- ] && shift
	run_capture "$@"
	[ "$want_rc" = @any ] && want_rc=$RC
	[ "$want_out" = @any ] && want_out=$OUT
	[ "$want_err" = @any ] && want_err=$ERR
	if [ "$RC" = "$want_rc" ] && [ "$OUT" == "$want_out" ] &&
	   [ "$ERR" == "$want_err" ]; then
		pass "$name"
		return 0
	fi
	want=$(printf 'exit status: %s\n--- stdout\n%s\n--- stderr\n%s\n' \
		"$want_rc" "$want_out" "$want_err")
	got=$(printf 'exit status: %s\n--- stdout\n%s\n--- stderr\n%s\n' \
		"$RC" "$OUT" "$ERR")
	fail "$name" "exit status or output differ ($*)" \
		"$(diff -u --label expected --label actual \
			<(printf '%s\n' "$want") <(printf '%s\n' "$got"))"
	return 1
}
