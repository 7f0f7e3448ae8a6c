#!/bin/bash
# SPDX-License-Identifier: MIT
# libcommon/shvars.c against the real shells: for every file it accepts,
# the final value of each name it reports must be what dash and bash (in
# the C and the C.UTF-8 locale) hold after `. FILE`, byte for byte, with
# nothing on the shell's stderr. Files:
# - tests/unit/shvars-corpus/ok-*: crafted, must be accepted (and agree);
# - tests/unit/shvars-corpus/no-*: crafted, must be refused; their first
#   line says how: `# refused: LINE: WHAT`;
# - SHVARS_RANDOM (default 200) files generated from a fixed seed
#   (SHVARS_SEED) out of assignment-shaped pieces (quotes, escapes,
#   continuations, comments, odd bytes), most accepted: none may differ.
# The parser's view comes from tests/unit/shvars-driver.c.
. "$(dirname "$0")/../lib.sh"
out=$TMPBASE/shvars-shells
rm -rf "$out"
mkdir -p "$out/random"
driver=$out/driver
# (no sanitizers: an ASan process starts in ~0.1 s, this runs ~1500; the
# parser's memory safety is test_shvars.c's and tests/fuzz/shvars.sh's)
if ! gcc -std=c11 -g -O1 -Wall -Wextra -Werror -D_GNU_SOURCE -I"$TOP/libcommon" \
	-o "$driver" "$TOP/tests/unit/shvars-driver.c" "$TOP/libcommon/shvars.c" \
	2>"$out/build.log"; then
	fail shvars-shells/build "does not compile" "$(cat "$out/build.log")"
	exit 0
fi
for sh in dash bash; do
	command -v $sh >/dev/null || { fail "shvars-shells/$sh" "$sh not installed"; exit 0; }
done

# The shells' view: NAME HEX for each name given, after `. FILE`, or
# "NAME!unset" when the shell did not set it; HOME set, so that a tilde
# expansion shows. (__shv_* names: the corpus and the generator never use
# them.)
# shell_view SHELL LOCALE FILE NAME...
shell_view() {
	local sh=$1 loc=$2 file=$3
	shift 3
	env -i HOME=/shvars-home LC_ALL="$loc" "$sh" -c '. "$1" || exit 9; shift
		for __shv_n; do
			eval "__shv_s=\${$__shv_n+x} __shv_v=\${$__shv_n-}"
			if [ "$__shv_s" = x ]; then
				printf "%s\\0%s\\0" "$__shv_n" "$__shv_v"
			else
				printf "%s\\0\\0" "$__shv_n!unset"
			fi
		done' sh "$file" "$@" 2>"$out/stderr" | "$driver" --pairs
}

# compare NAME FILE: the parser accepts FILE and every shell agrees.
# Returns 1 (after a FAIL) when they differ, 2 when the parser refuses.
compare() {
	local name=$1 file=$2 mine names theirs sh loc n
	mine=$("$driver" "$file")
	case $? in 0) ;; 1) return 2 ;; *) fail "$name" "shvars-driver failed"; return 1 ;; esac
	names=()
	[ -n "$mine" ] && while read -r n _; do names+=("$n"); done <<<"$mine"
	for sh in "dash C" "bash C" "bash C.UTF-8"; do
		loc=${sh#* } sh=${sh% *}
		theirs=$(shell_view "$sh" "$loc" "$file" "${names[@]}")
		if [ "$theirs" != "$mine" ] || [ -s "$out/stderr" ]; then
			fail "$name" "$sh ($loc) reads it otherwise" \
				"file: $(od -An -c "$file" | head -20)" \
				"shvars: $mine" "$sh: $theirs" "$sh stderr: $(head -5 "$out/stderr")"
			return 1
		fi
	done
	return 0
}

ok=0 no=0
for f in "$TOP"/tests/unit/shvars-corpus/ok-*; do
	name=shvars-shells/${f##*/}
	compare "$name" "$f"
	case $? in
	0) pass "$name"; ok=$((ok + 1)) ;;
	2) fail "$name" "refused: $("$driver" "$f")" ;;
	esac
done
for f in "$TOP"/tests/unit/shvars-corpus/no-*; do
	name=shvars-shells/${f##*/}
	want=$(sed -n '1s/^# refused: //p' "$f")
	if [ -z "$want" ]; then
		fail "$name" "its first line is not '# refused: LINE: WHAT'"
	else
		check "$name" "refused $want" "$("$driver" "$f")"
		no=$((no + 1))
	fi
done
info "shvars-shells: $ok crafted files read alike by dash and bash, $no refused as expected"

# Generated files: each line 1-3 assignments of pieces, sometimes a blank
# line, a comment or a piece no plain file holds.
count=${SHVARS_RANDOM:-200} seed=${SHVARS_SEED:-1}
LC_ALL=C awk -v seed="$seed" -v count="$count" -v dir="$out/random" '
function pick(a, n) { return a[int(rand() * n) + 1] }
function piece(   k, s, i) {
	k = int(rand() * 10)
	if (k < 3) return pick(U, nu)
	if (k < 5) return "\\" pick(E, ne)
	if (k < 7) { s = "\047"; for (i = int(rand() * 4); i > 0; i--) s = s pick(Q, nq); return s "\047" }
	if (k < 9) { s = "\""; for (i = int(rand() * 4); i > 0; i--) s = s pick(D, nd); return s "\"" }
	return pick(J, nj)
}
function value(   s, i) { s = ""; for (i = int(rand() * 5); i > 0; i--) s = s piece(); return s }
BEGIN {
	srand(seed)
	nn = split("A B C _x a1 Xy_2", N, " ")
	nu = split("x|y|*|?|[|]|{|}|!|=|:|~|#|%|@|\303\251|\001|\013|\014|\177|-|/|.|,|+|^|\302|\201|\210|:~|~/", U, "|")
	ne = split("x|$|`|\047|\"|\\| |#|~|\n|;|:|\303|*", E, "|")
	nq = split("x| |\\|\n|$|`|\"|#|~|:|\\\n|\303\251|\001", Q, "|")
	nd = split("x| |\\\\|\\$|\\`|\\\"|\\\n|\\a|\\\047|\n|\047|#|~|:|\303\251|\177|\001|\\\303\251|\201|\\\210", D, "|")
	nj = split("\047|\"|$|`|;|\r|(|\\|&| ", J, "|")
	for (f = 1; f <= count; f++) {
		t = ""
		for (l = int(rand() * 4) + 1; l > 0; l--) {
			k = rand()
			if (k < 0.1) { t = t "\n"; continue }
			if (k < 0.2) { t = t "# " value() "\n"; continue }
			for (a = int(rand() * 3) + 1; a > 0; a--)
				t = t pick(N, nn) "=" value() (a > 1 ? pick(SEP, split(" |\t| \\\n|  ", SEP, "|")) : "")
			k = rand()
			t = t (k < 0.2 ? " #" value() : k < 0.3 ? "\\\n" : "") "\n"
		}
		file = sprintf("%s/%04d", dir, f)
		printf "%s", t >file
		close(file)
	}
}'
accepted=0 refused=0 differ=0
for f in "$out"/random/*; do
	compare "shvars-shells/random/${f##*/}" "$f"
	case $? in
	0) accepted=$((accepted + 1)) ;;
	1) differ=$((differ + 1)) ;;
	2) refused=$((refused + 1)) ;;
	esac
done
if [ "$differ" = 0 ] && [ "$accepted" -ge $((count / 4)) ]; then
	pass "shvars-shells/random"
else
	fail "shvars-shells/random" "$differ of $count generated files read otherwise by a shell, $accepted accepted (at least $((count / 4)) wanted)"
fi
info "shvars-shells: $count generated files (seed $seed): $accepted accepted and read alike by dash and bash, $refused refused"
exit 0
