#!/bin/sh
# SPDX-License-Identifier: MIT
# need-tools.sh [--for tests] TOOL...
#
# Make sure the tools exist: the build's (`make`) or, with --for tests,
# the test suite's (`make check`). On a fresh Debian machine both must just
# work: as root, install the missing packages with apt-get (saying so; a
# machine without package lists gets one `apt-get update`); otherwise stop
# and print the exact command to run. A TOOL is a command looked up in
# PATH, or pkg:PACKAGE for a package that installs no command (checked
# with dpkg-query).
set -eu
who="forkless build" why="needed to build" what="build tools"
if [ "${1:-}" = --for ] && [ "${2:-}" = tests ]; then
	who="forkless check" why="needed by the tests" what="test dependencies"
	shift 2
fi
missing_pkgs=
for tool in "$@"; do
	case $tool in
	pkg:*)
		pkg=${tool#pkg:}
		command -v dpkg-query >/dev/null 2>&1 || continue   # not Debian: cannot tell
		[ "$(dpkg-query -W -f '${db:Status-Status}' "$pkg" 2>/dev/null)" = installed ] && continue ;;
	virtiofsd)
		# QEMU's C virtiofsd in qemu-system-common (Debian 12), its own package in 13
		[ -x /usr/lib/qemu/virtiofsd ] || [ -x /usr/libexec/virtiofsd ] && continue
		pkg=virtiofsd ;;
	*)
		command -v "$tool" >/dev/null 2>&1 && continue
		case ${tool##*/} in
		musl-gcc) pkg=musl-tools ;;
		kconfig-conf|kconfig-mconf) pkg=kconfig-frontends-nox ;;
		gcc|cc) pkg=gcc ;;
		clang) pkg=clang ;;
		strace|dash|file|cpio|python3|mount|zstd) pkg=${tool##*/} ;;
		unshare|setpriv|nsenter) pkg=util-linux ;;
		qemu-system-x86_64) pkg=qemu-system-x86 ;;
		brctl) pkg=bridge-utils ;;
		ip) pkg=iproute2 ;;
		losetup) pkg=mount ;;
		ifconfig) pkg=net-tools ;;
		xz) pkg=xz-utils ;;
		*) echo "$who: $tool not found and no Debian package known for it" >&2
		   exit 1 ;;
		esac ;;
	esac
	case " $missing_pkgs " in *" $pkg "*) ;; *) missing_pkgs="$missing_pkgs $pkg" ;; esac
done
[ -z "$missing_pkgs" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "$who: installing$missing_pkgs with apt-get ($why)" >&2
	# A fresh machine may have no package lists yet: update once.
	install() {
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends $missing_pkgs >&2
	}
	install || { apt-get update -q >&2 && install; } || {
		echo "$who: apt-get could not install$missing_pkgs" >&2
		exit 1
	}
	exit 0
fi
echo "$who: missing $what. Run:" >&2
echo "    sudo apt-get install$missing_pkgs" >&2
exit 1
