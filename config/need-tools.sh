#!/bin/sh
# need-tools.sh TOOL...
#
# Make sure the build tools exist. On a fresh Debian machine `make` must
# just work: as root, install the missing packages with apt-get (saying
# so); otherwise stop and print the exact command to run.
set -eu
missing_pkgs=
for tool in "$@"; do
	command -v "$tool" >/dev/null 2>&1 && continue
	case ${tool##*/} in
	musl-gcc) pkg=musl-tools ;;
	kconfig-conf|kconfig-mconf) pkg=kconfig-frontends-nox ;;
	gcc|cc) pkg=gcc ;;
	clang) pkg=clang ;;
	*) echo "forkless build: $tool not found and no Debian package known for it" >&2
	   exit 1 ;;
	esac
	case " $missing_pkgs " in *" $pkg "*) ;; *) missing_pkgs="$missing_pkgs $pkg" ;; esac
done
[ -z "$missing_pkgs" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "forkless build: installing$missing_pkgs with apt-get (needed to build)" >&2
	# A fresh machine may have no package lists yet.
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing_pkgs >&2 ||
	{ apt-get update -q >&2 &&
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing_pkgs >&2; }
	exit 0
fi
echo "forkless build: missing build tools. Run:" >&2
echo "    sudo apt-get install$missing_pkgs" >&2
exit 1
