#!/bin/bash
# tests/harness/fds.sh - the suite's own footing: a test starts with fds 0-2
# only, whatever its caller left open (tests/lib.sh closes the rest but
# the one bash reads the script from), since tests count the fds a program
# leaves open and run tools under `ulimit -n 4`.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -p "$TMPBASE" fds.XXXXXX.sh)
printf '. "%s/tests/lib.sh"\nls /proc/$$/fd | sort -n | tr "\\n" " "\necho still-read\n' "$TOP" >"$t"
got=$(bash -c 'exec 3</dev/null 7</dev/null 200</dev/null; exec bash "$1"' _ "$t")
# (still-read: bash went on reading the script after lib.sh)
check "harness/inherited fds closed, the script's own kept" "0 1 2 255 still-read" "$got"
rm -f "$t"
exit 0
