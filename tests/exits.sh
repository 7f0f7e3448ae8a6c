#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/exits.sh - the exit statuses the tests saw against those the
# applets declare. tests/run runs it last, whatever the selection; by
# hand: `bash tests/exits.sh` after a run.
#
# Declared: each applet's //exit:CODE lines (CODE a number, 128+N for
# N 1-64, or `other`: any status not listed), read from the contract
# config/gen-applets.sh writes; //exit-untested:CODE WHY marks one no test
# brings about. Seen: the "APPLET STATUS SCRIPT" lines tests record with
# exit_seen (tests/lib.sh: run_capture and expect record what they run of
# $FORKLESS; the comparisons with Debian's scripts record the applet's
# side) in $EXITS, build/tests/exits. Per applet:
#   FAIL     a status seen that the header does not declare (naming the
#            test that saw it); in a whole run (EXITS_WHOLE, set by
#            tests/run when no family, script or -k was chosen), a
#            declared status no test saw and not marked untested
#   PASS     otherwise
#   SKIPPED  no test of this run ran the applet
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 2
EXITS=${EXITS:-$TOP/build/tests/exits}
d=$(scratch exits) || exit 2
trap 'rm -rf "$d"' EXIT
config/gen-applets.sh "$d/gen" applets/*/*.c >/dev/null 2>"$d/err" ||
	{ fail exits/contract "config/gen-applets.sh failed" "$(cat "$d/err")"; exit 0; }

# Only the applets this binary has: a configured-out one is never run.
built=" $("$FORKLESS" --list 2>/dev/null | tr '\n' ' ')"
[ -f "$EXITS" ] || : >"$EXITS"

awk -v seen="$EXITS" -v whole="${EXITS_WHOLE:-}" -v built="$built" '
BEGIN {
	while ((getline l < seen) > 0) {
		split(l, f, " ")
		if (!((f[1], f[2]) in by)) { by[f[1], f[2]] = f[3]; codes[f[1]] = codes[f[1]] " " f[2] }
	}
}
/^@applet / { a = $2; names[++n] = a; next }
/^@exit / { decl[a] = decl[a] " " $2; declared[a, $2] = 1; next }
/^@untested / { untested[a, $2] = 1; next }
END {
	for (i = 1; i <= n; i++) {
		a = names[i]
		if (index(built, " " a " ") == 0) continue
		if (codes[a] == "") { printf "SKIPPED: exits/%s: no test of this run ran it\n", a; continue }
		bad = ""; k = split(codes[a], c, " ")
		for (j = 1; j <= k; j++) {
			s = c[j]; hit[a, s] = 1
			if ((a, s) in declared) continue
			if (s >= 129 && s <= 192 && (a, "128+N") in declared) { hit[a, "128+N"] = 1; continue }
			if ((a, "other") in declared) { hit[a, "other"] = 1; continue }
			bad = bad "\n    exit " s ", seen by " by[a, s] ", is not declared (//exit: in its header)"
		}
		m = split(decl[a], dc, " ")
		if (whole != "")
			for (j = 1; j <= m; j++)
				if (!((a, dc[j]) in hit) && !((a, dc[j]) in untested))
					bad = bad "\n    exit " dc[j] " is declared but no test saw it (test it, or mark it //exit-untested:" dc[j] " WHY)"
		if (bad != "") printf "FAIL: exits/%s: seen%s; declared%s%s\n", a, codes[a], decl[a], bad
		else printf "PASS: exits/%s: seen%s; declared%s\n", a, codes[a], decl[a]
	}
}' "$d/gen/contract"
