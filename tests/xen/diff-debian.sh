#!/bin/bash
# SPDX-License-Identifier: MIT
# Differential tests: Debian's own xen-utils-common scripts (downloaded
# with apt-get download, run by dash) against forkless, in identical
# chroot test roots, over a matrix of states. stdout, stderr and exit
# status must be identical, except the documented differences below where
# the scripts are unsafe or fail with a shell error: there forkless's
# exact output is asserted instead.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-xen.sh"
need_root diff-debian || exit 0
need_applet xen-utils-wrapper xen-version xen-dir xen xen-toolstack xen-toolstack-wrapper || exit 0

DEBIAN_SCRIPTS=$(fetch_debian_scripts) ||
	{ fail diff-debian/fetch "apt-get download xen-utils-common failed (network or apt lists?)"; exit 0; }
STUB=$(build_stub) || { fail diff-debian/stub "cannot build the stub tool"; exit 0; }

base=$(scratch diff)
trap 'rm -rf "$base"' EXIT
deb=$base/debian fk=$base/forkless
make_root "$deb" && install_impl "$deb" debian
make_root "$fk" && install_impl "$fk" forkless

STATES="ok tool-missing tool-not-executable version-dir-missing other-version
bin-dir-missing no-xen no-sysfs-dir type-newline-only type-kvm type-with-blanks
type-two-words type-backslash version-blanks version-no-newline
major-missing minor-missing type-empty-file type-no-newline type-control
major-dotdot major-two-lines major-huge major-empty major-negative major-overflow
type-nul-junk type-nul-inside type-nul-only"

# Each command: a name and the argv to run in the root.
run_cmd() {   # run_cmd ROOT NAME
	local root=$1
	case $2 in
	xl) in_root "$root" xl list ;;
	xl-args) in_root "$root" xl "a b" "'single'" '"double"' "" $'two\nlines' '\back' '*' '$HOME' -- --help ;;
	xentop-path) in_root "$root" /usr/sbin/xentop -b ;;
	xentop-relative) in_root "$root" ../usr/sbin/xentop ;;
	xl-fails) in_root "$root" xl fail-with-3 ;;
	xen) in_root "$root" xen create "my dom.cfg" ;;
	xen-help) in_root "$root" xen --help ;;
	xen-version) in_root "$root" xen-version ;;
	xen-version-path) in_root "$root" /usr/lib/xen-common/bin/xen-version ;;
	xen-dir) in_root "$root" xen-dir ;;
	xen-toolstack) in_root "$root" xen-toolstack ;;
	xen-toolstack-path) in_root "$root" /usr/lib/xen-common/bin/xen-toolstack ;;
	xen-toolstack-wrapper) in_root "$root" xen-toolstack-wrapper list "x y" ;;
	wrapper-direct) in_root "$root" /usr/lib/xen-common/bin/xen-utils-wrapper x ;;
	esac
}
CMDS="xl xl-args xentop-path xentop-relative xl-fails xen xen-help xen-version
xen-version-path xen-dir xen-toolstack xen-toolstack-path xen-toolstack-wrapper
wrapper-direct"

# ---- documented differences (README.md, "Differences from Debian's
# scripts"). For these, forkless's exact output is asserted instead; the
# Debian side is shown as INFO so the difference stays visible.
SYS=/sys/hypervisor/version
EXPECT_DOMAIN='(expected a decimal number up to 4294967295)'
version_error() {   # the message for a bad version state, or nothing
	case $1 in
	major-missing) echo "Can't read Xen version from $SYS/major: No such file or directory" ;;
	minor-missing) echo "Can't read Xen version from $SYS/minor: No such file or directory" ;;
	major-empty) echo "Invalid Xen version in $SYS/major: the file is empty" ;;
	major-dotdot) echo "Invalid Xen version in $SYS/major: '../x' $EXPECT_DOMAIN" ;;
	major-two-lines) echo "Invalid Xen version in $SYS/major: '4\\0125' $EXPECT_DOMAIN" ;;
	major-negative) echo "Invalid Xen version in $SYS/major: '-4' $EXPECT_DOMAIN" ;;
	major-overflow) echo "Invalid Xen version in $SYS/major: '99999999999' $EXPECT_DOMAIN" ;;
	major-huge) echo "Invalid Xen version in $SYS/major: '$(printf '9%.0s' $(seq 28))...' $EXPECT_DOMAIN" ;;
	esac
}
# expected STATE CMD: sets E_RC E_OUT E_ERR and returns 0 for a documented
# difference; returns 1 where forkless must equal Debian's script.
expected() {
	local state=$1 cmd=$2 msg warn=
	msg=$(version_error "$state")
	if [ -n "$msg" ]; then
		[ "$cmd" = xen-toolstack ] || [ "$cmd" = xen-toolstack-path ] && return 1
		[ "$cmd" = xen-toolstack-wrapper ] &&
			warn="warning: something called deprecated script /usr/lib/xen-common/bin/xen-toolstack-wrapper"$'\n'
		E_RC=1 E_OUT= E_ERR="${warn}ERROR:  $msg"$'\n'
		return 0
	fi
	case $state/$cmd in
	type-control/xen-version*|type-control/xen-dir|type-control/wrapper-direct)
		# Control bytes from sysfs are escaped, not sent to the terminal.
		E_RC=1 E_OUT= E_ERR="ERROR:  Hypervisor is not xen but 'kvm\\033[2J'!"$'\n' ;;
	type-empty-file/xen-version*|type-empty-file/xen-dir|type-empty-file/wrapper-direct)
		# dash's `read` fails on an empty file and `sh -e` exits 1
		# silently; forkless says why.
		E_RC=1 E_OUT= E_ERR="ERROR:  Can't read hypervisor type from sysfs!"$'\n' ;;
	type-no-newline/xen-version*|version-no-newline/xen-version*)
		# dash's `read` fails without a final newline (silent exit 1
		# under `sh -e`); forkless reads the value.
		E_RC=0 E_OUT=$'4.17\n' E_ERR= ;;
	type-no-newline/xen-dir|version-no-newline/xen-dir)
		E_RC=0 E_OUT=$'/usr/lib/xen-4.17\n' E_ERR= ;;
	type-no-newline/wrapper-direct)
		# The slow path: the type is xen, the tool is not there.
		E_RC=127 E_OUT= E_ERR="ERROR:  Unable to execute /usr/lib/xen-4.17/bin/xen-utils-wrapper"$'\n' ;;
	*) return 1 ;;
	esac
	return 0
}

ndiff=0
for state in $STATES; do
	set_state "$deb" "$state" && set_state "$fk" "$state" ||
		{ fail "diff/$state" "cannot set up state"; continue; }
	for cmd in $CMDS; do
		run_capture run_cmd "$deb" "$cmd"; d_out=$OUT d_err=$ERR d_rc=$RC
		run_capture run_cmd "$fk" "$cmd"; f_out=$OUT f_err=$ERR f_rc=$RC
		# the applet that ran, for tests/exits.sh
		case $cmd in
		xl*|xentop*|wrapper-direct) exit_seen xen-utils-wrapper "$f_rc" ;;
		xen|xen-help) exit_seen xen "$f_rc" ;;
		xen-version*) exit_seen xen-version "$f_rc" ;;
		xen-toolstack|xen-toolstack-path) exit_seen xen-toolstack "$f_rc" ;;
		*) exit_seen "$cmd" "$f_rc" ;;
		esac
		name="diff/$state/$cmd"
		debian="debian:   rc=$d_rc out=$(printf %q "$d_out") err=$(printf %q "$d_err")"
		forkless="forkless: rc=$f_rc out=$(printf %q "$f_out") err=$(printf %q "$f_err")"
		if expected "$state" "$cmd"; then
			ndiff=$((ndiff + 1))
			if [ "$E_OUT" == "$f_out" ] && [ "$E_ERR" == "$f_err" ] && [ "$E_RC" == "$f_rc" ]; then
				pass "$name (documented difference)"
			else
				fail "$name" "documented difference: forkless's output is not the documented one" \
					"expected: rc=$E_RC out=$(printf %q "$E_OUT") err=$(printf %q "$E_ERR")" "$forkless"
			fi
			if [ "$d_out" == "$f_out" ] && [ "$d_err" == "$f_err" ] && [ "$d_rc" == "$f_rc" ]; then
				fail "$name/still-differs" "documented as a difference, but Debian's script now agrees: update README and this test"
			fi
			[ -n "${VERBOSE:-}" ] && info "$name: $debian"
		elif [ "$d_out" == "$f_out" ] && [ "$d_err" == "$f_err" ] && [ "$d_rc" == "$f_rc" ]; then
			pass "$name"
		else
			fail "$name" "differs from Debian's script" "$debian" "$forkless"
		fi
	done
done
nstates=$(echo $STATES | wc -w) ncmds=$(echo $CMDS | wc -w)
info "diff-debian: $nstates states x $ncmds commands; $ndiff documented differences"
figure debian-states "$nstates"
figure debian-invocations "$ncmds"
figure debian-cases-identical "$((nstates * ncmds - ndiff))"
figure debian-cases-different "$ndiff"
