# SPDX-License-Identifier: MIT
# lib-oracle.sh - the real xl.cfg parser (sourced after tests/lib.sh).
#
# fetch_libxlutil: downloads Debian 12's libxen-dev (4.17, the parser
# xen-init-name follows) once per tree into build/deb-cache/bookworm
# (tests/apt-release, whatever release this machine runs; dpkg -x;
# nothing is installed) and prints the path of its static libxlutil.a.
# build_oracle: builds tests/xen/oracle.c against it (glibc, the
# library's own libc) and prints the binary's path.
# Both return 1 when that cannot be done: the callers FAIL, never skip,
# since without the oracle nothing is compared.

DEB_CACHE=${DEB_CACHE:-$TOP/build/deb-cache}

fetch_libxlutil() {
	local dir=$DEB_CACHE/bookworm/libxen-dev lib
	lib=$(cd "$dir" 2>/dev/null && ls usr/lib/*/libxlutil.a 2>/dev/null | head -1)
	if [ -n "$lib" ] && [ -f "$dir/$lib" ]; then
		echo "$dir/$lib"; return 0
	fi
	mkdir -p "$DEB_CACHE/bookworm"
	( cd "$DEB_CACHE/bookworm" && rm -rf libxen-dev_*.deb libxen-dev &&
	  "$TOP"/tests/apt-release bookworm download . libxen-dev >/dev/null 2>&1 &&
	  dpkg -x libxen-dev_*.deb libxen-dev ) || return 1
	lib=$(cd "$dir" && ls usr/lib/*/libxlutil.a 2>/dev/null | head -1)
	[ -n "$lib" ] || return 1
	echo "$dir/$lib"
}

build_oracle() {
	local lib out=$TMPBASE/xlcfg-oracle
	lib=$(fetch_libxlutil) || return 1
	if [ ! -x "$out" ] || [ "$TOP/tests/xen/oracle.c" -nt "$out" ] ||
	   [ "$TOP/tests/xen/libxlutil.h" -nt "$out" ] ||
	   [ "$lib" -nt "$out" ]; then
		gcc -O1 -Wall -Wextra -Werror -o "$out" "$TOP/tests/xen/oracle.c" \
			"$lib" >"$out.log" 2>&1 || return 1
	fi
	echo "$out"
}
