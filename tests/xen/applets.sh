#!/bin/bash
# SPDX-License-Identifier: MIT
# Integration tests of the multiplexer and the Xen applets: the real static
# binary in a chroot test root (see lib-xen.sh), every applet and error
# path, argv/env/fd passing, and --install's layout against Debian's.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-xen.sh"
need_root xen-applets || exit 0
need_applet xen-utils-wrapper xen-version xen-dir xen xen-toolstack xen-toolstack-wrapper || exit 0

STUB=$(build_stub) || { fail xen/stub "cannot build the stub tool"; exit 0; }
EXEC_ARGV=$(build_exec_argv) || { fail xen/exec-argv "cannot build exec-argv"; exit 0; }
base=$(scratch applets)
trap 'rm -rf "$base"' EXIT
root=$base/root
make_root "$root" && install_impl "$root" forkless && set_state "$root" ok ||
	{ fail xen/root "cannot build the test root"; exit 0; }
cp "$EXEC_ARGV" "$root/usr/bin/exec-argv"

# ---- the multiplexer ------------------------------------------------------
run_capture "$FORKLESS" --list
check "multiplexer/--list has the Xen applets" \
	"xen xen-dir xen-init-list xen-init-name xen-migrate-shell xen-toolstack xen-toolstack-wrapper xen-utils-wrapper xen-version xencommons xendomains" \
	"$(echo "$OUT" | grep '^xen' | tr '\n' ' ' | sed 's/ $//')"
check "multiplexer/--list is sorted" "$(printf %s "$OUT" | LC_ALL=C sort)" "${OUT%$'\n'}"

run_capture "$FORKLESS" --list-full
full=${OUT%$'\n'}
for p in usr/bin/forkless usr/lib/xen-common/bin/xen-utils-wrapper usr/lib/xen-common/bin/xen-version \
	usr/lib/xen-common/bin/xen-dir usr/lib/xen-common/bin/xen-toolstack \
	usr/lib/xen-common/bin/xen-toolstack-wrapper usr/sbin/xen usr/sbin/xl usr/bin/xen-cpuid \
	usr/lib/xen-common/bin/xendomains usr/lib/xen-common/bin/xencommons; do
	if grep -qx "$p" <<<"$full"; then pass "multiplexer/--list-full has $p"; else fail "multiplexer/--list-full has $p" "missing" "$full"; fi
done
run_capture "$FORKLESS"
check "multiplexer/no arguments: usage, exit 2" "2 1" "$RC $(grep -c '^Usage: forkless' <<<"$ERR")"
run_capture "$FORKLESS" --help
check "multiplexer/--help: exit 0, lists applets" "0 1" "$RC $(grep -cx 'xen-version' <<<"$OUT")"
run_capture "$FORKLESS" --help xen-dir
check "multiplexer/--help APPLET" "0 Usage: xen-dir" "$RC $(head -1 <<<"$OUT")"
run_capture "$FORKLESS" --bogus
check "multiplexer/unknown option: exit 2" "2 forkless: unknown option --bogus (try forkless --help)" "$RC ${ERR%$'\n'}"
run_capture "$FORKLESS" no-such-applet x
check "multiplexer/unknown applet: exit 127" "127 forkless: applet not found: no-such-applet" "$RC ${ERR%$'\n'}"
run_capture "$FORKLESS" --help no-such-applet
check "multiplexer/--help unknown applet: exit 127" "127" "$RC"
run_capture bash -c "exec -a forkless.static \"$FORKLESS\" --list"
check "multiplexer/a name starting with forkless is the multiplexer" "0" "$RC"
run_capture bash -c "exec -a /some/dir/-xen-toolstack \"$FORKLESS\""
check "dispatch/leading - stripped, directory ignored" "0 xl" "$RC ${OUT%$'\n'}"

# ---- applets in the test root ----------------------------------------------
run_capture in_root "$root" xen-version --help
check "xen-version/--help" "0 Usage: xen-version" "$RC $(head -1 <<<"$OUT")"
run_capture in_root "$root" xen-version
check "xen-version/prints 4.17" "0 4.17 " "$RC ${OUT%$'\n'} $ERR"
run_capture in_root "$root" xen-dir
check "xen-dir/prints the directory" "0 /usr/lib/xen-4.17" "$RC ${OUT%$'\n'}"
run_capture in_root "$root" xl --help
check "xl/--help goes to the tool" "argv[1]=--help" "$(sed -n 2p <<<"$OUT")"
run_capture in_root "$root" xen --help
check "xen/--help goes to xl" "argv[0]=/usr/lib/xen-4.17/bin/xl argv[1]=--help" "$(sed -n 1,2p <<<"$OUT" | tr '\n' ' ' | sed 's/ $//')"
run_capture in_root "$root" /usr/bin/forkless xl list
check "multiplexer/forkless xl runs the wrapper" "argv[0]=/usr/lib/xen-4.17/bin/xl argv[1]=list" "$(sed -n 1,2p <<<"$OUT" | tr '\n' ' ' | sed 's/ $//')"
run_capture in_root "$root" /usr/bin/forkless xen-toolstack
check "xen-toolstack/via the multiplexer: \$0 is the applet name" \
	"0 xl warning: something called deprecated script xen-toolstack" "$RC ${OUT%$'\n'} ${ERR%$'\n'}"
run_capture in_root "$root" xl fail-with-3
check "xl/the tool's exit status passes through" "3" "$RC"

# argv[0] forms: the wrapper takes the basename, like ${0##*/}.
run_capture in_root "$root" exec-argv /usr/sbin/xl /weird/dir/xentop -b
check "xl/argv[0] with a directory part selects by basename" "argv[0]=/usr/lib/xen-4.17/bin/xentop" "$(sed -n 1p <<<"$OUT")"
run_capture in_root "$root" exec-argv /usr/sbin/xl
check "wrapper/empty argv: a clear error, no crash" \
	"127 ERROR:  Unable to execute /usr/lib/xen-4.17/bin/" "$RC ${ERR%$'\n'}"
long=$(printf 'x%.0s' $(seq 5000))
run_capture in_root "$root" exec-argv /usr/sbin/xl "$long"
check "wrapper/a 5000-byte tool name is reported whole" \
	"127 ERROR:  Unable to execute /usr/lib/xen-4.17/bin/$long" "$RC ${ERR%$'\n'}"

# A login-style "-xl" is xl on every path (early exec and main()).
set_state "$root" tool-not-executable
run_capture in_root "$root" exec-argv /usr/sbin/xl -xl
check "wrapper/-xl is xl on the error path too" \
	"127 ERROR:  Unable to execute /usr/lib/xen-4.17/bin/xl" "$RC ${ERR%$'\n'}"
set_state "$root" ok
run_capture in_root "$root" exec-argv /usr/sbin/xl -xl
check "wrapper/-xl execs xl" "argv[0]=/usr/lib/xen-4.17/bin/xl" "$(head -1 <<<"$OUT")"

# Output that cannot be written is an error, never a silent success.
for args in "--list" "--list-full" "--help" "--help xen-dir"; do
	# shellcheck disable=SC2086
	run_capture bash -c "\"\$0\" $args >/dev/full" "$FORKLESS"
	check "multiplexer/$args to a full disk: exit 1, said" \
		"1 forkless: cannot write to stdout: No space left on device" "$RC ${ERR%$'\n'}"
done
run_capture in_root "$root" /bin/sh -c 'exec xen-version >&-'
check "xen-version/closed stdout: exit 1, said" \
	"1 xen-version: cannot write to stdout: Bad file descriptor" "$RC ${ERR%$'\n'}"
run_capture in_root "$root" /bin/sh -c 'exec xen-dir >&-'
check "xen-dir/closed stdout: exit 1" "1" "$RC"

# Environment and fds reach the tool untouched; the wrapper leaves none of
# its own open; nothing is forked (same pid before and after exec).
direct=$(in_root "$root" /usr/lib/xen-4.17/bin/xl 7</dev/null 9<>"$base/f" | grep -v '^argv')
via=$(in_root "$root" xl 7</dev/null 9<>"$base/f" | grep -v '^argv')
check "xl/same env and fds as a direct exec" "$direct" "$via"
if grep -q '^fd [3-6]\b' <<<"$via"; then fail "xl/no fd of the wrapper left open" "$via"; else pass "xl/no fd of the wrapper left open"; fi
out=$(STUB_PID=1 in_root "$root" /bin/sh -c 'echo "shell $$"; exec xl')
check "xl/exec without fork: the tool has the caller's pid" \
	"$(sed -n 's/^shell //p' <<<"$out")" "$(sed -n 's/^pid //p' <<<"$out")"
out=$(STUB_PID=1 in_root "$root" /bin/sh -c 'echo "shell $$"; exec xen')
check "xen/exec without fork: the tool has the caller's pid" \
	"$(sed -n 's/^shell //p' <<<"$out")" "$(sed -n 's/^pid //p' <<<"$out")"

# ---- --install ----------------------------------------------------------------
inst=$base/inst
mkdir -p "$inst"
run_capture "$FORKLESS" --install -s "$inst"
check "install/-s: exit 0, silent" "0  " "$RC $OUT $ERR"
check "install/-s: xl links like Debian's" "../lib/xen-common/bin/xen-utils-wrapper" "$(readlink "$inst/usr/sbin/xl")"
check "install/-s: xen-cpuid in usr/bin" "../lib/xen-common/bin/xen-utils-wrapper" "$(readlink "$inst/usr/bin/xen-cpuid")"
check "install/-s: applets link to the binary" "../../../bin/forkless" "$(readlink "$inst/usr/lib/xen-common/bin/xen-version")"
check "install/-s: usr/sbin/xen" "../bin/forkless" "$(readlink "$inst/usr/sbin/xen")"
# the Xen tool names installed as links to the wrapper (XEN_WRAPPED_TOOLS)
figure wrapped-tools "$(cd "$inst" && find usr/sbin usr/bin -type l -lname '*xen-utils-wrapper' | grep -c .)"
if deb=$(fetch_debian_scripts); then
	# Debian's symlinks to the wrapper, by path and by target, exactly.
	links() { (cd "$1" && find usr/sbin usr/bin -type l -lname '*xen-utils-wrapper' -printf '%p -> %l\n' | LC_ALL=C sort); }
	check "install/-s: the wrapped tools are Debian 4.17's links" "$(links "$deb")" "$(links "$inst")"
else
	fail "install/-s: the wrapped tools are Debian 4.17's links" "apt-get download xen-utils-common failed"
fi
cmp -s "$FORKLESS" "$inst/usr/bin/forkless" && pass "install/binary installed" || fail "install/binary installed" "usr/bin/forkless differs"
bad=0
while read -r p; do [ -e "$inst/$p" ] || { bad=1; fail "install/-s: $p resolves" "dangling or missing"; }; done <<<"$full"
[ $bad = 0 ] && pass "install/-s: every --list-full path resolves"
run_capture "$FORKLESS" --install -s "$inst"
check "install/-s twice: replaces in place" "0" "$RC"
run_capture "$inst/usr/bin/forkless" --install -s "$inst"
check "install/-s from the installed binary into its own tree" "0 " "$RC $(find "$inst" -name '*.forkless-new')"
hard=$base/hard
mkdir -p "$hard"
run_capture "$FORKLESS" --install "$hard"
check "install/hard links: exit 0" "0" "$RC"
run_capture "$FORKLESS" --install "$hard"
check "install/hard links again: exit 0, no temporary left" "0 " "$RC $(find "$hard" -name '*.forkless-new')"
check "install/hard links: one inode for all" "1" \
	"$(while read -r p; do stat -c %i "$hard/$p"; done <<<"$full" | sort -u | wc -l)"
run_capture "$FORKLESS" --install "$base/missing-dir/sub"
check "install/missing DIR: created 0755 (like install -d) and filled, exit 0" "0  755 1" \
	"$RC $ERR $(stat -c %a "$base/missing-dir/sub" 2>&1) $(cmp -s "$FORKLESS" "$base/missing-dir/sub/usr/bin/forkless" && echo 1)"
touch "$base/a-file"
run_capture "$FORKLESS" --install "$base/a-file/dir"
check "install/DIR that cannot be created: exit 1 naming it" "1 forkless: $base/a-file/dir: Not a directory" "$RC ${ERR%$'\n'}"
expect "install/no DIR: usage, exit 2" 2 "" "forkless: usage: forkless --install [-s] DIR (try forkless --help)"$'\n' \
	-- "$FORKLESS" --install
expect "install/unknown option: exit 2, one usage style" 2 "" "forkless: unknown option -x (try forkless --help)"$'\n' \
	-- "$FORKLESS" --install -x "$inst"
expect "multiplexer/applet not found: the name escaped" 127 "" 'forkless: applet not found: nope\012x'$'\n' \
	-- "$FORKLESS" $'nope\nx'
expect "multiplexer/--help of no applet: escaped, 127" 127 "" 'forkless: applet not found: a\011b'$'\n' \
	-- "$FORKLESS" --help $'a\tb'
expect "multiplexer/unknown option: escaped" 2 "" 'forkless: unknown option --\033[2J (try forkless --help)'$'\n' \
	-- "$FORKLESS" $'--\e[2J'
mkdir -p "$base/ro" && touch "$base/ro/usr" 2>/dev/null
run_capture "$FORKLESS" --install -s "$base/ro"
check "install/a file where a directory must be: exit 1" "1" "$RC"
