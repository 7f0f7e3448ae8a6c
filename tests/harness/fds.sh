#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/harness/fds.sh - the suite's own footing: a test starts with fds 0-2
# only, whatever its caller left open (tests/lib.sh closes the rest but
# the one bash reads the script from), since tests count the fds a program
# leaves open and run tools under `ulimit -n 4`.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -p "$TMPBASE" fds.XXXXXX.sh)
# ls as a simple command, its output to a file: in a pipeline, bash may still hold the next
# pipe's ends while ls lists its fds (seen once: "0 1 2 4 255")
printf '. "%s/tests/lib.sh"\nls /proc/$$/fd >"%s.out"\nsort -n "%s.out" | tr "\\n" " "\necho still-read\n' \
	"$TOP" "$t" "$t" >"$t"
got=$(bash -c 'exec 3</dev/null 7</dev/null 200</dev/null; exec bash "$1"' _ "$t")
# (still-read: bash went on reading the script after lib.sh)
check "harness/inherited fds closed, the script's own kept" "0 1 2 255 still-read" "$got"
rm -f "$t" "$t.out"
exit 0
