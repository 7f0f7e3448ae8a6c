#!/bin/bash
# SPDX-License-Identifier: MIT
# README's two commands on a fresh Debian 13 (trixie) machine: gcc 14,
# musl 1.2.5, trixie's kconfig-frontends and test tools.
#
# A minimal trixie root (mmdebstrap --variant=apt, plus make: what README
# asks of a machine, and mount, which every installed Debian has: priority
# required; apt lists removed, as on a fresh install), cached in
# build/roots/trixie.tar by its recipe, is unpacked afresh; the working
# tree (tracked files and new ones, as `git ls-files -co` lists them; not
# build/ nor .config) is copied to /usr/src/forkless (not /root: tests
# run checks as nobody in scratch directories of the tree); then, as root in the
# chroot with what a booted host has mounted (tests/lib-root.sh's
# host_chroot), exactly `make`, then `make check-fast`: the families the
# host runs without VM, ASan rerun, build matrix and packages (this script
# is in `build`, so it cannot run itself in there; FORKLESS_IN_ROOT stops
# it too; the hotplug family compares with Debian 13's scripts alone,
# HP_ONLY_RELEASE: the host's run has Debian 12's). Both install what
# they need with apt-get, as README promises:
# the root has no compiler and no package lists. The .debs apt downloads
# are kept in build/roots/trixie-debs (bind-mounted on the root's
# /var/cache/apt/archives), so a second run installs the same packages
# without downloading them. check-fast runs whole, though it takes most
# of the time (docs/testing.md has the figures): its slowest scripts, the
# comparisons with Debian's scripts and xencommons' waits, are the ones
# that use Debian 13's dash, util-linux and iproute2 most.
#
# Output: PASS: trixie/make (INFO: gcc, musl, kconfig versions), then every
# PASS/FAIL/SKIPPED line of the inner run prefixed with trixie/ (a FAIL's
# indented lines with it); the inner summary becomes an INFO line (only
# the outer tests/run prints the summary). The inner tests/run writes its
# figures into the root's tree (its own FIGURES, build/tests/figures
# there; the environment is a fresh login's), and its figures check runs:
# the documented counts (syscalls, processes per call) are the code's and
# the kernel's, not the release's, so a Debian 13 build must measure the
# same; the figures only the VM suite and the build matrix measure come
# out SKIPPED. The whole inner output: build/tests/trixie.log. INFO lines
# give each phase's time: root (cache or mmdebstrap, unpack, copy),
# installs (apt-get, by need-tools.sh, for make and for the tests), make
# (the compile), tests.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/lib-root.sh"
cd "$TOP" || exit 2
if [ -n "${FORKLESS_IN_ROOT:-}" ]; then
	skip trixie "already in the $FORKLESS_IN_ROOT root this script runs the suite in"
	exit 0
fi
need_root trixie || exit 0
t0=$(date +%s)

cache=$TOP/build/roots
tar=$cache/trixie.tar
debs=$cache/trixie-debs
log=$TMPBASE/trixie.log
# Changing what the root holds changes this text, and the cache is remade.
recipe="trixie --variant=apt +make +mount; sources: tests/apt-release trixie sources; apt lists and cache removed"

if ! command -v mmdebstrap >/dev/null; then
	"$TOP"/config/need-tools.sh --for tests pkg:mmdebstrap unshare >/dev/null 2>&1
fi
mkdir -p "$cache" "$debs/partial"
"$TOP"/tests/apt-release trixie sources >"$cache/trixie.sources"
if ! cached_root "$tar" "$recipe" trixie "$cache/trixie.sources" --variant=apt --include=make,mount >/dev/null; then
	if grep -q 'Temporary failure\|Could not resolve\|Failed to fetch\|Could not connect' "$tar.log"; then
		skip trixie "no Debian archive reachable for mmdebstrap ($tar.log)"
	else
		fail trixie/root "mmdebstrap failed" "$(tail -n 15 "$tar.log")"
	fi
	exit 0
fi
root=$(scratch trixie)
trap 'rm -rf "$root"' EXIT
tar -xf "$tar" -C "$root" || { fail trixie/root "cannot unpack $tar"; exit 0; }
mkdir -p "$root/usr/src/forkless"
git ls-files -co --exclude-standard -z | while IFS= read -r -d '' f; do
	[ -e "$f" ] || [ -L "$f" ] && printf '%s\0' "$f"
done | xargs -0 cp -a --parents -t "$root/usr/src/forkless" || {
	fail trixie/root "cannot copy the working tree"; exit 0; }
t_root=$(( $(date +%s) - t0 ))

# in_trixie CMD: CMD in the tree, as root in the chroot; every line of its
# output into the log, the lines that carry on the script printed
# (`in_trixie` prints them), and $mark_at: the seconds spent until the
# first line matching $mark (the end of the apt-get installs).
in_trixie() {
	host_chroot -b "$debs" /var/cache/apt/archives "$root" \
		env FORKLESS_IN_ROOT="Debian 13" HP_ONLY_RELEASE=trixie sh -c 'cd /usr/src/forkless && exec "$@" 2>&1' sh "$@"
}

# --- make ----------------------------------------------------------------
: >"$log"
echo "== make" >>"$log"
start=$(date +%s) mark_at=
while IFS= read -r line; do
	printf '%s\n' "$line" >>"$log"
	[ -z "$mark_at" ] && [[ $line == "  CC "* ]] && mark_at=$(( $(date +%s) - start ))
done < <(in_trixie make; echo "make exit status $?")
t_make=$(( $(date +%s) - start ))
t_inst_make=${mark_at:-$t_make}
rc=$(sed -n 's/^make exit status //p' "$log" | tail -n 1)
if [ "$rc" = 0 ] && [ -x "$root/usr/src/forkless/forkless" ]; then
	pass trixie/make
	info "trixie: gcc $(chroot "$root" gcc -dumpfullversion 2>&1), musl $(chroot "$root" dpkg-query -W -f '${Version}' musl-tools 2>&1), kconfig-frontends $(chroot "$root" dpkg-query -W -f '${Version}' kconfig-frontends-nox 2>&1); forkless $(stat -c %s "$root/usr/src/forkless/forkless") bytes (this machine's build: $(stat -c %s "$FORKLESS" 2>/dev/null || echo none))"
else
	fail trixie/make "exit status $rc ($log)" "$(grep -v '^make exit status' "$log" | tail -n 20)"
	info "trixie: root ${t_root}s, make ${t_make}s (installs ${t_inst_make}s); tests not run"
	exit 0
fi

# --- make check-fast -----------------------------------------------------
# Each inner check line again, prefixed; the inner summary (from the
# "Failures:" or "SKIPPED (not run..." lists on) is not repeated.
echo "== make check-fast" >>"$log"
start=$(date +%s) mark_at= in_summary=0 last= inner=
while IFS= read -r line; do
	printf '%s\n' "$line" >>"$log"
	[ -z "$mark_at" ] && [[ $line == SKIP_FAMILIES=* ]] && mark_at=$(( $(date +%s) - start ))
	case $line in
	'Failures:'|'SKIPPED (not run on this machine):') in_summary=1 ;;
	[0-9]*' passed, '[0-9]*' failed, '[0-9]*' skipped') inner=$line ;;
	'make check-fast exit status '*) rc=${line##* } ;;
	PASS:\ *|FAIL:\ *|SKIPPED:\ *)
		[ "$in_summary" = 1 ] && continue
		last=${line%%:*}
		wanted "trixie/${line#*: }" && printf '%s: trixie/%s\n' "$last" "${line#*: }"
		continue ;;
	'    '*)
		[ "$in_summary" = 0 ] && [ "$last" = FAIL ] && printf '%s\n' "$line"
		continue ;;
	esac
	last=
done < <(in_trixie make check-fast; echo "make check-fast exit status $?")
t_tests=$(( $(date +%s) - start ))
t_inst_tests=${mark_at:-0}
info "trixie: inner run: ${inner:-no summary line} (make check-fast exit status $rc; $log)"
if [ -z "$inner" ]; then
	fail trixie/check-fast "the inner run printed no summary (exit status $rc)" "$(tail -n 20 "$log")"
elif [ "$rc" != 0 ] && [[ $inner == *' 0 failed,'* ]]; then
	fail trixie/check-fast "exit status $rc with no failed check" "$(tail -n 20 "$log")"
fi
info "trixie: $(( $(date +%s) - t0 ))s in all: root ${t_root}s, installs $((t_inst_make + t_inst_tests))s (make's ${t_inst_make}s, the tests' ${t_inst_tests}s), make $((t_make - t_inst_make))s, tests $((t_tests - t_inst_tests))s"
exit 0
