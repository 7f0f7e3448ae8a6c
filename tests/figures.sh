#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/figures.sh [DOC...] - the figures the documentation quotes against
# what this run of the suite measured. tests/run runs it last, whatever
# the selection; by hand: `bash tests/figures.sh` after a run.
#
# A count the suite measures is written once in README.md, HACKING.md or
# docs/*.md (the DOCs by default), as the number followed at once by a
# marker naming it: 4<!--fig:xl-syscalls-->, commas allowed in the number
# (96,768<!--fig:size-full-->). Tests record what they measure with
# `figure NAME VALUE` (tests/lib.sh) in $FIGURES (build/tests/figures,
# which tests/run empties first). A marker inside `code` is an example,
# not a figure. For each marker:
#   PASS     the number is the value measured in this run
#   FAIL     it differs (file:line, documented and measured values); the
#            run measured the name twice with different values; the name
#            is not one of NAMES below, is used by a second marker, or has
#            no number before it
#   SKIPPED  this run did not measure it (the VM suite did not run, a
#            family was not selected)
. "$(dirname "$0")/lib.sh"
FIGURES=${FIGURES:-$TOP/build/tests/figures}

# NAME  the test that measures it: what it counts (docs/testing.md lists them too)
NAMES='
xl-syscalls             tests/xen/syscalls.sh: syscalls from the wrapper'"'"'s execve to xl'"'"'s
xl-syscalls-debian      tests/xen/syscalls.sh: the same through Debian'"'"'s wrapper (dash)
wrapped-tools           tests/xen/applets.sh: Xen tool names installed as links to the wrapper
debian-states           tests/xen/diff-debian.sh: states of the Debian comparison matrix
debian-invocations      tests/xen/diff-debian.sh: invocations run in each state
debian-cases-identical  tests/xen/diff-debian.sh: cases identical to Debian'"'"'s scripts
debian-cases-different  tests/xen/diff-debian.sh: cases that differ, each as documented
hotplug-procs-call      tests/hotplug/lib-hotplug.sh: processes per hotplug call, forkless
hotplug-edits-syscalls-vif tests/hotplug/edits.sh: syscalls of the edits decision in a vif call, stamped
hotplug-edits-syscalls-block tests/hotplug/edits.sh: the same in a block call
cgroup-syscalls-per-id  tests/cgroup/syscalls.sh: syscalls per id, 10,000 ids by handle
domu-procs-forkless     tests/vm/proctable: hotplug processes per domU lifecycle, forkless
domu-procs-debian       tests/vm/proctable: the same with Debian'"'"'s scripts
guest-procs-pvh-forkless tests/vm/proctable: hotplug processes of a PVH domU'"'"'s create + destroy, forkless
guest-procs-pvh-debian  tests/vm/proctable: the same with Debian'"'"'s scripts
guest-procs-hvm-forkless tests/vm/proctable: the same for an HVM domU with an emulated NIC, forkless
guest-procs-hvm-debian  tests/vm/proctable: the same with Debian'"'"'s scripts
driver-procs            tests/vm/proctable: processes of the hotplug calls in a driver domain (xl devd), one domU
toolstack-start-procs   tests/vm/proctable: processes of `xencommons start` in the noshell boot
seed-restore-procs      tests/vm/proctable: processes of `xendomains start` restoring 5 domUs, forkless
seed-restore-procs-debian tests/vm/proctable: the same with Debian'"'"'s whole stack
seed-restore-xl-procs   tests/vm/proctable: of those, xl and what it forks (libxl'"'"'s own)
size-full               tests/build/matrix.sh: bytes of the full_defconfig build
size-wrapper-only       tests/build/matrix.sh: bytes of the xen-wrapper-only_defconfig build
'
if [ "${1:-}" = --names ]; then
	printf '%s\n' "$NAMES" | sed '/^$/d'
	exit 0
fi

if [ $# -eq 0 ]; then
	set -- "$TOP/README.md" "$TOP/HACKING.md"
	for f in "$TOP"/docs/*.md; do [ -f "$f" ] && set -- "$@" "$f"; done
fi

declare -A known seen measured
# (the VM suite's names also with -trixie: the same count in Debian 13's boot;
# tests/vm/run adds the suffix to what that boot measures)
while read -r name test _; do
	[ -n "$name" ] || continue
	known[$name]=1
	[ "$test" = tests/vm/proctable: ] && known[$name-trixie]=1
done <<<"$NAMES"
# every value measured for a name, space-separated, each once
if [ -f "$FIGURES" ]; then
	while read -r name value; do
		[ -n "$name" ] || continue
		case " ${measured[$name]:-} " in *" $value "*) ;; *) measured[$name]="${measured[$name]:-}${measured[$name]:+ }$value" ;; esac
	done <"$FIGURES"
fi

markers=0
for doc in "$@"; do
	[ -f "$doc" ] || continue
	rel=${doc#"$TOP"/}
	# LINE:NUMBER<!--fig:NAME--> for every marker (several on a line)
	while IFS= read -r hit; do
		line=${hit%%:*} hit=${hit#*:}
		doc_value=${hit%%<!--fig:*} name=${hit#*<!--fig:} name=${name%-->}
		where="$rel:$line"
		markers=$((markers + 1))
		if [ -z "${known[$name]:-}" ]; then
			fail "figures/$name" "$where: unknown figure name (tests/figures.sh lists the names)"
			continue
		fi
		if [ -n "${seen[$name]:-}" ]; then
			fail "figures/$name" "$where: the marker is used twice (first at ${seen[$name]}): a figure is written once"
			continue
		fi
		seen[$name]=$where
		if [ -z "$doc_value" ]; then
			fail "figures/$name" "$where: no number before the marker"
			continue
		fi
		got=${measured[$name]:-}
		if [ -z "$got" ]; then
			skip "figures/$name" "$where: not measured in this run ($(sed -n "s/^$name  *\([^:]*\):.*/\1/p" <<<"$NAMES"))"
		elif [ "$got" != "${got#* }" ]; then
			fail "figures/$name" "$where: this run measured different values: $got"
		elif [ "${doc_value//,/}" = "$got" ]; then
			pass "figures/$name"
		else
			fail "figures/$name" "$where: documented $doc_value, measured $got"
		fi
	done < <(sed 's/`[^`]*`//g' "$doc" |
		grep -noE '[0-9][0-9,]*(\.[0-9]+)?<!--fig:[^>]*-->|<!--fig:[^>]*-->')
done
info "figures: $markers markers in $#$( [ $# = 1 ] && echo ' file' || echo ' files'); measured: $(
	for n in "${!measured[@]}"; do printf '%s=%s ' "$n" "${measured[$n]}"; done)"
exit 0
