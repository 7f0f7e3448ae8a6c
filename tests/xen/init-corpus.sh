#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/xen/init-corpus.sh - xen-init-name against the real xl parser.
#
# Every config of tests/xen/init-corpus/ (one per grammar rule and quirk),
# Debian's /etc/xen/xlexample.* (from the xen-utils-common .deb) and the
# files made below (CRLF copies, NUL bytes, binary junk, 1 MiB files,
# nesting at the parser stack's limit, a directory, a FIFO, /dev/null) go
# through oracle.c -- Debian's own libxlutil.a from libxen-dev, called as
# `xl create --dryrun` calls it -- and through forkless. The oracle's
# verdict is the expectation:
#   - it prints NAME: forkless prints NAME and a newline, exit 0, nothing
#     on stderr;
#   - it refuses the file (or aborts, as it does on a NUL in a string):
#     forkless prints nothing, exits 1, and its message names the file;
#   - it prints an empty name: forkless refuses it ("name is empty"),
#     the one deliberate difference besides the 1 MiB limit (README).
# Without the oracle (no libxen-dev download) this FAILs: nothing would be
# compared.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-oracle.sh"
. "$TOP/tests/xen/lib-xen.sh"

ORACLE=$(build_oracle) ||
	{ fail xen-init/oracle "cannot fetch libxen-dev or build oracle.c against its libxlutil.a (apt-get download libxen-dev)" \
		"$(cat "$TMPBASE/xlcfg-oracle.log" 2>/dev/null)"; exit 0; }
base=$(scratch xen-init)
trap 'rm -rf "$base"' EXIT
gen=$base/gen
mkdir -p "$gen"

# ---- files made here -------------------------------------------------------
if debian=$(fetch_debian_scripts); then
	for f in "$debian"/etc/xen/xlexample.*; do
		cp "$f" "$gen/debian-${f##*/}"
		sed 's/$/\r/' "$f" >"$gen/debian-${f##*/}-crlf"
	done
	n=$(ls "$gen"/debian-xlexample.* 2>/dev/null | wc -l)
	[ "$n" -ge 6 ] || fail xen-init/debian-examples "expected 3 xlexample files in xen-utils-common, got $((n / 2))"
else
	fail xen-init/debian-examples "apt-get download xen-utils-common failed"
fi
for f in plain list-multiline comments add-joins-strings; do
	sed 's/$/\r/' "$TOP/tests/xen/init-corpus/$f.cfg" >"$gen/crlf-$f"
done
printf 'name = "gu\0est"\n' >"$gen/nul-in-string"
printf "name = 'gu\0est'\n" >"$gen/nul-in-single-quotes"
printf 'name = "gu\\\0est"\n' >"$gen/nul-after-backslash"
printf 'name = "guest1"\nx = "a\0"\n' >"$gen/nul-in-later-string"
printf 'name = "guest1"\n# a\0b\n' >"$gen/nul-in-comment"
printf 'name = "guest1"\n\0\n' >"$gen/nul-alone"
printf 'name = "guest1"\0' >"$gen/nul-after-value"
printf '\0name = "guest1"\n' >"$gen/nul-first"
head -c 65536 "$FORKLESS" >"$gen/junk-elf"
python3 - "$gen" <<'PY'
import os, random, sys
d = sys.argv[1]
def w(name, data):
    open(os.path.join(d, name), 'wb').write(data)
rnd = random.Random(4217)
for i in range(8):
    w('junk-random-%d' % i, bytes(rnd.getrandbits(8) for _ in range(rnd.choice([1, 7, 100, 4096]))))
# random text from the config alphabet: mostly invalid, some not
alpha = b'name= "\'\\[],;#\n\t+x01a.'
for i in range(40):
    w('junk-alphabet-%02d' % i, bytes(rnd.choice(alpha) for _ in range(rnd.randint(1, 60))))
MiB = 1 << 20
# exactly 1 MiB (the limit) and one byte more
body = b'name = "guest1"\n'
w('size-1MiB', body + b'#' * (MiB - len(body) - 1) + b'\n')
w('size-1MiB-plus-1', body + b'#' * (MiB - len(body)) + b'\n')
w('size-1MB-decimal', body + b'#' * (1000000 - len(body) - 1) + b'\n')
# a 1 MiB name, joined from += lines, and keys that fill the table
w('size-name-1MiB', b'name = "' + b'g' * (MiB - 11) + b'"\n')
# (libxlutil joins in quadratic time: 20000 joins, then a comment)
joined = b'name = ""\n' + b'name += "ab"\n' * 20000
w('size-joined', joined + b'#' * (MiB - len(joined) - 1) + b'\n')
keys = b''.join(b'k%x=1\n' % i for i in range(150000))
w('size-many-keys', keys[:MiB - 32] + b'\nname = "guest1"\n')
short = b''.join(b'%c%c=1;' % (97 + i // 26 % 26, 97 + i % 26) for i in range(676))
w('size-many-short-statements', (short * (MiB // len(short)))[:MiB - 20] + b'\nname="g"\n')
w('many-keys-then-mix', keys[:500000] + b'\nk1 += [2]\nname = "guest1"\n')
# nesting at the bison stack's limit (10000 entries): max passes, max+1 not
def nest(tag, pre, opn, mid, close, n):
    w('nest-%s-%d' % (tag, n), (pre + opn * n + mid + close * n + '\nname="guest1"\n').encode())
for tag, pre, opn, mid, close, ok in [
        ('empty', 'x = ', '[', '', ']', 4996),
        ('number', 'x = ', '[', '1', ']', 4996),
        ('three', 'x = ', '[', '1,2,3', ']', 4995),
        ('trailing', 'x = ', '[', '1,', ']', 4996),
        ('second', 'x = ', '[1,', '', ']', 1999),
        ('second-number', 'x = ', '[1,', '1', ']', 1998),
        ('newlines', 'x = ', '[\n', '', '\n]', 4996),
        ('comma-newline', 'x = ', '[1,\n', '', ']', 1998),
        ('newline-comma', 'x = ', '[1\n,\n', '', ']', 1998),
        ('add', 'x += ', '[', '', ']', 4996),
        ('name', 'name = ', '[', '', ']', 4996)]:
    for n in (ok - 1, ok, ok + 1):
        nest(tag, pre, opn, mid, close, n)
PY
ln -s "$TOP/tests/xen/init-corpus/plain.cfg" "$gen/symlink-to-plain"
mkdir "$gen/a-directory"
mkfifo "$gen/a-fifo"
specials="$gen/a-directory $gen/a-fifo /dev/null $gen/does-not-exist"

# ---- compare -----------------------------------------------------------------
n=0 bad=0 same=0 refused=0
for f in "$TOP"/tests/xen/init-corpus/*.cfg "$gen"/* $specials; do
	n=$((n + 1))
	case $f in "$gen"/*|/dev/*) label=gen/${f##*/} ;; *) label=${f#"$TOP"/} ;; esac
	# timeout: a FIFO must not block either of them; the oracle's is 60 s, as
	# libxlutil joins += in quadratic time (gen/size-joined ran past 10 s
	# with four jobs on two cores)
	# (in a subshell: bash's "Aborted" for the oracle's SIGABRT goes nowhere)
	( timeout 60 "$ORACLE" "$f" >"$base/o.out" 2>"$base/o.err"; exit $? ) 2>/dev/null
	orc=$?
	timeout 10 "$FORKLESS" xen-init-name "$f" >"$base/f.out" 2>"$base/f.err"
	frc=$?
	exit_seen xen-init-name "$frc"
	shown=$(head -c 300 "$base/f.err")
	if [ $orc = 3 ] || [ $orc -ge 124 ] && [ $orc -le 127 ]; then
		fail "xen-init/corpus/$label" "the oracle failed (status $orc)" "$(head -c 500 "$base/o.err")"
		bad=$((bad + 1)); continue
	fi
	if [ $orc = 0 ] && [ "$(cat "$base/o.out")" != "" ]; then
		case $label in gen/size-1MiB-plus-1) ;; *)
		if [ $frc = 0 ] && cmp -s "$base/o.out" "$base/f.out" && [ ! -s "$base/f.err" ]; then
			same=$((same + 1)); continue
		fi
		fail "xen-init/corpus/$label" "xl reads name $(head -c 80 "$base/o.out" | od -An -c | tr -s ' ' | head -c 200)" \
			"forkless: exit $frc, stdout $(head -c 80 "$base/f.out" | od -An -c | tr -s ' ' | head -c 200)" "stderr: $shown"
		bad=$((bad + 1)); continue ;;
		esac
		# the documented limit: xl reads it, forkless refuses it
		if [ $frc = 1 ] && [ ! -s "$base/f.out" ] && grep -q 'larger than 1 MiB' "$base/f.err"; then
			pass "xen-init/corpus/$label: xl reads it, forkless refuses a file over 1 MiB"
		else
			fail "xen-init/corpus/$label" "expected the 1 MiB refusal" "exit $frc, stderr: $shown"
		fi
		continue
	fi
	if [ $orc = 0 ]; then
		want='name is empty'     # xl's name is "": refused on purpose
	else
		want=''                  # refused (exit 1) or aborted (SIGABRT)
	fi
	if [ $frc = 1 ] && [ ! -s "$base/f.out" ] && grep -qF "xen-init-name: $f" "$base/f.err" &&
	   grep -qF "$want" "$base/f.err"; then
		refused=$((refused + 1))
	else
		fail "xen-init/corpus/$label" "xl refuses it (oracle status $orc: $(head -c 200 "$base/o.err" | tr '\n' ' '))" \
			"forkless: exit $frc, stdout $(head -c 80 "$base/f.out" | od -An -c | tr -s ' ' | head -c 200)" "stderr: $shown"
		bad=$((bad + 1))
	fi
done
info "xen-init/corpus: $n files: $same names as xl reads them, $refused refused as xl refuses them, $bad differ"
check "xen-init/corpus: every file as Debian's libxlutil reads it" 0 "$bad"
[ "$n" -ge 200 ] || fail "xen-init/corpus: size" "only $n files compared"
exit 0
