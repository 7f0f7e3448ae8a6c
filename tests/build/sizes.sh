#!/bin/bash
# SPDX-License-Identifier: MIT
# Files and functions a reader takes in at once: no C file (.c or .h) of
# core/, libcommon/ or applets/ over 800 lines; none over 600 without a
# line "Long because: REASON" in its first 15 lines (in its header
# comment); no function over 80 lines, counted from the line of its
# opening brace to the line of its closing one. Functions are found as the
# house writes them: the body's `{` alone at column 0 (or ending a
# signature line that starts at column 0), its `}` alone at column 0.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 2

FILE_MAX=800 FILE_REASON=600 FUNC_MAX=80
files=$(ls core/*.[ch] libcommon/*.[ch] applets/*/*.[ch] 2>/dev/null)
[ -n "$files" ] || { fail "sizes/files" "no C file under core/ libcommon/ applets/"; exit 0; }

over= unexplained=
for f in $files; do
	n=$(wc -l <"$f")
	if [ "$n" -gt "$FILE_MAX" ]; then
		over+="$f: $n lines"$'\n'
	elif [ "$n" -gt "$FILE_REASON" ] &&
	     ! head -n 15 "$f" | grep -q 'Long because: *[^ ]'; then
		unexplained+="$f: $n lines, no 'Long because:' line in its first 15"$'\n'
	fi
done
[ -z "$over" ] && pass "sizes/no C file over $FILE_MAX lines" ||
	fail "sizes/no C file over $FILE_MAX lines" "split it along a seam" "${over%$'\n'}"
[ -z "$unexplained" ] && pass "sizes/a C file over $FILE_REASON lines says why" ||
	fail "sizes/a C file over $FILE_REASON lines says why" "split it, or say why at its top" \
		"${unexplained%$'\n'}"

# FILE:LINE: NAME: N lines for each function over FUNC_MAX; NAME from the
# last line at column 0 before the brace that starts with a letter (the
# signature, or its line with the name when the type stands alone above).
# A struct's or an initializer's `{` ends at `};`, not at a lone `}`.
long=$(awk -v max="$FUNC_MAX" '
	FNR == 1 { start = 0; sig = "" }
	function open_body() {
		name = sig
		gsub(/__attribute__ *\(\([^)]*\)\)/, "", name)
		if (match(name, /[A-Za-z_][A-Za-z0-9_]* *\(/))
			name = substr(name, RSTART, RLENGTH)
		else
			name = "?"
		sub(/ *\($/, "", name)
		start = FNR
		count++
	}
	/^[A-Za-z_]/ && !start { sig = $0 }
	/^\{[ \t]*$/ { open_body(); next }
	# outside a body, a line ending the signature with its brace
	!start && /\)[ \t]*\{[ \t]*$/ && !/^[ \t]*(#|\/|\*)/ && !/=/ &&
	    !/^(struct|union|enum|typedef)[ \t]/ { open_body(); next }
	/^\}/ && !/^\};/ {
		if (start && FNR - start + 1 > max)
			printf "%s:%d: %s: %d lines\n", FILENAME, start, name, FNR - start + 1
		start = 0
	}
	END { print count + 0 }
' $files)
nfuncs=${long##*$'\n'} long=${long%"$nfuncs"} long=${long%$'\n'}
[ -z "$long" ] && pass "sizes/no function over $FUNC_MAX lines ($nfuncs functions)" ||
	fail "sizes/no function over $FUNC_MAX lines" "split it into named helpers" "$long"
exit 0
