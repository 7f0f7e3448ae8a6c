#!/bin/bash
# SPDX-License-Identifier: MIT
# The generated docs are the headers': docs/applets.md and README's applet
# and Kconfig tables are what `make docs` makes of the applets' headers
# now (config/gen-applets.sh, config/gen-docs.sh, run into a scratch
# directory), and every applet's `--help`, as this binary prints it, is
# its block in docs/applets.md, byte for byte.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 2
d=$(scratch docs) || exit 2
trap 'rm -rf "$d"' EXIT

if config/gen-applets.sh "$d/gen" applets/*/*.c 2>"$d/err" &&
   config/gen-docs.sh "$d/gen/contract" "$d/applets.md" README.md "$d/README.md" 2>>"$d/err"; then
	pass "docs/generate"
else
	fail "docs/generate" "config/gen-applets.sh or config/gen-docs.sh failed" "$(cat "$d/err")"
	exit 0
fi
for f in docs/applets.md README.md; do
	if diff -u "$f" "$d/${f##*/}" >"$d/diff"; then
		pass "docs/$f is what make docs makes of the headers"
	else
		fail "docs/$f is what make docs makes of the headers" \
			"it differs (edit the applet's header, then run make docs):" "$(head -40 "$d/diff")"
	fi
done

# --help, applet by applet (a build without FORKLESS_HELP prints none)
if ! "$FORKLESS" --help xen-version 2>/dev/null | grep -q '^Usage:'; then
	skip "docs/--help" "this build has no --help texts (FORKLESS_HELP)"
	exit 0
fi
for a in $("$FORKLESS" --list); do
	# the ```text block under "## APPLET"
	awk -v h="## $a" '$0 == h { in_a = 1; next } in_a && /^## / { exit }
		in_a && $0 == "```text" { on = 1; next } on && $0 == "```" { exit } on' docs/applets.md >"$d/doc"
	"$FORKLESS" --help "$a" >"$d/help" 2>&1
	if [ -s "$d/doc" ] && cmp -s "$d/doc" "$d/help"; then
		pass "docs/--help $a is in docs/applets.md"
	else
		fail "docs/--help $a is in docs/applets.md" "its block differs:" \
			"$(diff -u --label docs/applets.md --label "forkless --help $a" "$d/doc" "$d/help" | head -20)"
	fi
done
