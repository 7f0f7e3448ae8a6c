#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/xen/init-name.sh - xen-init-name's own contract: output, messages
# and exit codes (corpus.sh compares verdicts with the real parser),
# usage, Debian's install path, and the cost of one call (no process
# besides its own; the syscall budget).
. "$(dirname "$0")/../lib.sh"
base=$(scratch xen-init-name)
trap 'rm -rf "$base"' EXIT
X="$FORKLESS xen-init-name"
cfg() { printf "$2" >"$base/$1"; echo "$base/$1"; }
# named NAME WANT-NAME -- CMD: prints WANT-NAME and a newline, exit 0
named() { local n=$1 w=$2; shift 2; expect "$n" 0 "$w"$'\n' "" "$@"; }
# refused NAME MESSAGE -- CMD: nothing on stdout, MESSAGE on stderr, exit 1
refused() { local n=$1 m=$2; shift 2; expect "$n" 1 "" "$m"$'\n' "$@"; }

f=$(cfg ok 'name = "guest1"\nmemory = 512\n')
named "xen-init-name/name" "guest1" -- $X "$f"
f=$(cfg utf8 'name = "my gäst"\n')
named "xen-init-name/spaces and UTF-8 as they are" "my gäst" -- $X "$f"
f=$(cfg number 'name = 0x1f\n')
named "xen-init-name/a number is its text" "0x1f" -- $X "$f"
f=$(cfg octal 'name = "oct\\101end"\n')
named "xen-init-name/octal escape dropped (upstream bug)" "octend" -- $X "$f"
f=$(cfg joined 'name = "gu"\nname += "est"\n')
named "xen-init-name/+= joins" "guest" -- $X "$f"
run_capture $X "$f"
check "xen-init-name/stdout is the name and one newline" "guest"$'\n' "$OUT"

# ---- refusals: exit 1, nothing on stdout, FILE (and LINE) named ----------
f=$(cfg after 'name = "guest1"\nmemory = 512MB\n')
refused "xen-init-name/an error after name= rejects the file" \
	"xen-init-name: $f:2: upper-case letter (xl keys are lower case) near 'M'" -- $X "$f"
f=$(cfg crlf 'name = "guest1"\r\n')
refused "xen-init-name/CRLF" \
	"xen-init-name: $f:1: carriage return: xl takes only \\n line ends (a CRLF file?) near '\\015'" -- $X "$f"
f=$(cfg upper 'Name = "guest1"\n')
refused "xen-init-name/upper case" \
	"xen-init-name: $f:1: upper-case letter (xl keys are lower case) near 'N'" -- $X "$f"
f=$(cfg hex 'name = "a\\x41"\n')
refused "xen-init-name/\\x escape" \
	"xen-init-name: $f:1: \\x escape: xl's parser refuses every \\xHH near '\\134x41\"'" -- $X "$f"
f=$(cfg python 'name = "a" + "b"\n')
refused "xen-init-name/Python" \
	"xen-init-name: $f:1: xl.cfg is not Python: this character is refused outside quotes near '+'" -- $X "$f"
f=$(cfg comment 'name = "guest1"\n# end')
refused "xen-init-name/comment without newline at the end" \
	"xen-init-name: $f:2: comment on the last line without a newline (xl refuses it) near '# end'" -- $X "$f"
f=$(cfg unclosed 'name = "guest1\n')
refused "xen-init-name/string not closed" \
	"xen-init-name: $f:1: string not closed on its line near '\"guest1'" -- $X "$f"
f=$(cfg eof 'name = "guest1"\nx = [1,')
refused "xen-init-name/end of file in a list" \
	"xen-init-name: $f:2: expected a value or ] in the list (at the end of the file)" -- $X "$f"
f=$(cfg mix 'disk = ["a"]\ndisk += "b"\nname = "g"\n')
refused "xen-init-name/+= of a string to a list" \
	"xen-init-name: $f:2: += of a list to a string, or of a string to a list near '\"b\"'" -- $X "$f"
f=$(cfg noname 'memory = 512\n')
refused "xen-init-name/no name" \
	"xen-init-name: $f: no name setting (xl: \"Domain name must be specified.\")" -- $X "$f"
f=$(cfg list 'name = ["a"]\n')
refused "xen-init-name/name is a list" \
	"xen-init-name: $f:1: name is a list, not a single value" -- $X "$f"
f=$(cfg empty 'name = ""\n')
refused "xen-init-name/name is empty" "xen-init-name: $f:1: name is empty" -- $X "$f"
refused "xen-init-name/missing file" \
	"xen-init-name: $base/nope: No such file or directory" -- $X "$base/nope"
refused "xen-init-name/a directory" \
	"xen-init-name: $base: is a directory (xl reads only plain files)" -- $X "$base"
mkfifo "$base/fifo"
refused "xen-init-name/a FIFO is refused, not waited on" \
	"xen-init-name: $base/fifo: not a regular file (xl reads only plain files)" -- timeout 5 $X "$base/fifo"
f=$(cfg $'bad\nname\e' 'name = "guest1"\nx = $\n')
refused "xen-init-name/a file name is shown escaped" \
	"xen-init-name: $base/bad\\012name\\033:2: character refused outside quotes near '\$'" -- $X "$f"
head -c $((1024 * 1024 + 1)) /dev/zero | tr '\0' '#' >"$base/big"
refused "xen-init-name/over 1 MiB" \
	"xen-init-name: $base/big: larger than 1 MiB (1048576 bytes), the limit of xen-init-name" -- $X "$base/big"
f=$(cfg ok2 'name = "guest1"\n')
refused "xen-init-name/stdout closed" \
	"xen-init-name: cannot write to stdout: Bad file descriptor" -- bash -c "exec $X '$f' >&-"

# ---- usage -------------------------------------------------------------------
expect "xen-init-name/no FILE" 2 "" "xen-init-name: missing FILE (try xen-init-name --help)"$'\n' -- $X
expect "xen-init-name/two FILEs" 2 "" "xen-init-name: one FILE only (try xen-init-name --help)"$'\n' -- $X a b
expect "xen-init-name/empty FILE" 2 "" "xen-init-name: FILE is empty (try xen-init-name --help)"$'\n' -- $X ""
run_capture $X --help
if [ "$RC" = 0 ] && grep -q '^Usage: xen-init-name FILE' <<<"$OUT" &&
   grep -qx 'Exit status:' <<<"$OUT" && grep -q '^  0     the name was printed$' <<<"$OUT" &&
   grep -q '^  2     usage error$' <<<"$OUT"; then
	pass "xen-init-name/--help: usage and exit codes"
else
	fail "xen-init-name/--help: usage and exit codes" "exit $RC" "$OUT"
fi

# ---- as xendomains calls it, from Debian's path ------------------------------
mkdir "$base/root"
if "$FORKLESS" --install "$base/root" >"$base/install.log" 2>&1 &&
   [ -x "$base/root/usr/lib/xen-common/bin/xen-init-name" ]; then
	pass "xen-init-name/--install: /usr/lib/xen-common/bin/xen-init-name"
	f=$(cfg auto 'name = "guest1"\n')
	name=$("$base/root/usr/lib/xen-common/bin/xen-init-name" "$f" 2>/dev/null)
	check "xen-init-name/name=\$(xen-init-name \"\$file\" 2>/dev/null)" "guest1" "$name"
	name=$("$base/root/usr/lib/xen-common/bin/xen-init-name" "$base/crlf" 2>/dev/null)
	check "xen-init-name/a refused file gives an empty name" "" "$name"
else
	fail "xen-init-name/--install: /usr/lib/xen-common/bin/xen-init-name" "$(cat "$base/install.log")"
fi

# ---- cost: one process, no exec, at most 11 syscalls -------------------------
if [ -n "${FORKLESS_SANITIZED:-}" ]; then
	:   # a sanitizer runtime makes its own syscalls
elif command -v strace >/dev/null; then
	f=$(cfg cost 'name = "guest1"\nmemory = 512\n')
	strace -f -qq -o "$base/strace.log" "$FORKLESS" xen-init-name "$f" >/dev/null
	calls=$(sed 's/(.*//' "$base/strace.log" | grep -v '^+++' )
	n=$(grep -c . <<<"$calls")
	pids=$(awk '{print $1}' "$base/strace.log" | sort -u | wc -l)
	info "xen-init-name: $n syscalls from execve to exit_group: $(echo $calls | sed 's/^[0-9]* //; s/ [0-9]* / /g')"
	check "xen-init-name/one process (no fork, no exec of xl or python3)" "1 1" \
		"$pids $(grep -c 'execve(' "$base/strace.log")"
	# its own: the buffers' mmap to the write, whatever libc started it
	own=$(sed -n '/^[0-9]*  *mmap(NULL, 4194308,/,/^[0-9]*  *write(1,/p' "$base/strace.log" | sed 's/^[0-9]*  *//; s/(.*//' | tr '\n' ' ')
	check "xen-init-name/its own syscalls" "mmap openat fstat read read close write " \
		"$(sed 's/newfstatat/fstat/' <<<"$own")"
	# the whole run, for the default (static musl) build
	if [ "$FORKLESS" = "$TOP/forkless" ]; then
		[ "$n" -le 11 ] && pass "xen-init-name/at most 11 syscalls ($n)" ||
			fail "xen-init-name/at most 11 syscalls" "$n" "$(head -40 "$base/strace.log")"
	fi
else
	fail "xen-init-name/syscalls" "strace is not installed"
fi
exit 0
