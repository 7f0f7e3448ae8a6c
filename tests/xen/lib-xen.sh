# SPDX-License-Identifier: MIT
# lib-xen.sh - test roots for the Xen applets (sourced after tests/lib.sh).
#
# A test root is a directory used with chroot(8): /sys/hypervisor/... as
# plain files the test writes, stub tools under /usr/lib/xen-4.17/bin,
# dash as /bin/sh (with its libraries) so Debian's scripts run for real,
# and either Debian's xen-utils-common scripts or forkless installed at
# Debian's paths.

DEB_CACHE=${DEB_CACHE:-$TOP/build/deb-cache}

# Debian 12's xen-utils-common (4.17: the scripts forkless stands in
# for), downloaded (not installed) once per tree with tests/apt-release,
# whatever release this machine runs.
fetch_debian_scripts() {
	local dir=$DEB_CACHE/bookworm/xen-utils-common
	if [ -x "$dir/usr/lib/xen-common/bin/xen-utils-wrapper" ]; then
		echo "$dir"; return 0
	fi
	mkdir -p "$DEB_CACHE/bookworm"
	( cd "$DEB_CACHE/bookworm" && rm -rf xen-utils-common_*.deb xen-utils-common &&
	  "$TOP"/tests/apt-release bookworm download . xen-utils-common >/dev/null 2>&1 &&
	  dpkg -x xen-utils-common_*.deb xen-utils-common ) || return 1
	echo "$dir"
}

# The stub tool, static so it runs in a root without libraries.
build_stub() {
	local out=$TMPBASE/stub-tool
	if [ ! -x "$out" ] || [ "$TOP/tests/xen/stub-tool.c" -nt "$out" ]; then
		musl-gcc -static -Os -o "$out" "$TOP/tests/xen/stub-tool.c" || return 1
	fi
	echo "$out"
}

build_exec_argv() {
	local out=$TMPBASE/exec-argv
	if [ ! -x "$out" ] || [ "$TOP/tests/xen/exec-argv.c" -nt "$out" ]; then
		musl-gcc -static -Os -o "$out" "$TOP/tests/xen/exec-argv.c" || return 1
	fi
	echo "$out"
}

# make_root DIR: the parts every state shares.
make_root() {
	local root=$1 lib
	rm -rf "$root"
	mkdir -p "$root"/{bin,usr/bin,usr/sbin,usr/lib/xen-common/bin,sys/hypervisor/version,tmp,dev}
	cp /usr/bin/dash "$root/bin/dash"
	ln -s dash "$root/bin/sh"
	for lib in $(ldd /usr/bin/dash | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
	# Debian's xen-version is sourced by xen-dir and needs nothing else;
	# the tool stubs are static. /dev/null for the wrapper's 2>/dev/null.
	[ -e "$root/dev/null" ] || mknod -m 666 "$root/dev/null" c 1 3
	[ -e "$root/dev/full" ] || mknod -m 666 "$root/dev/full" c 1 7
	# A sanitizer build of forkless (tests/asan/suite.sh) is dynamic and
	# reads /proc/self/maps: give it its libraries (in_root binds /proc).
	mkdir -p "$root/proc"
	if ! file -L "$FORKLESS" | grep -q 'statically linked'; then
		for lib in $(ldd "$FORKLESS" | grep -o '/[^ ]*'); do
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib"
		done
	fi
}

# install_impl ROOT debian|forkless
install_impl() {
	local root=$1 impl=$2 deb t
	if [ "$impl" = forkless ]; then
		"$FORKLESS" --install -s "$root" || return 1
		return 0
	fi
	deb=$DEBIAN_SCRIPTS
	for t in xen-utils-wrapper xen-version xen-dir xen-toolstack xen-toolstack-wrapper; do
		rm -f "$root/usr/lib/xen-common/bin/$t"
		cp "$deb/usr/lib/xen-common/bin/$t" "$root/usr/lib/xen-common/bin/$t"
	done
	rm -f "$root/usr/sbin/xen"
	cp "$deb/usr/sbin/xen" "$root/usr/sbin/xen"
	# Debian's own symlinks, exactly as the package ships them.
	( cd "$deb" && find usr/sbin usr/bin -type l -lname '*xen-utils-wrapper' ) |
	while read -r t; do
		rm -f "$root/$t"
		ln -s "$(readlink "$deb/$t")" "$root/$t"
	done
}

# set_state ROOT STATE: the sysfs files and tool directories of a state.
set_state() {
	local root=$1 state=$2 hv=$1/sys/hypervisor stub=$STUB
	rm -rf "$hv" "$root"/usr/lib/xen-4.*
	mkdir -p "$hv/version" "$root/usr/lib/xen-4.17/bin"
	printf 'xen\n' >"$hv/type"
	printf '4\n' >"$hv/version/major"
	printf '17\n' >"$hv/version/minor"
	printf '.7\n' >"$hv/version/extra"
	cp "$stub" "$root/usr/lib/xen-4.17/bin/xl"
	cp "$stub" "$root/usr/lib/xen-4.17/bin/xentop"
	case $state in
	ok) ;;
	tool-missing) rm "$root/usr/lib/xen-4.17/bin/xl" "$root/usr/lib/xen-4.17/bin/xentop" ;;
	tool-not-executable) chmod 644 "$root/usr/lib/xen-4.17/bin/xl" "$root/usr/lib/xen-4.17/bin/xentop" ;;
	version-dir-missing) rm -rf "$root/usr/lib/xen-4.17" ;;
	other-version)  # running 4.18 while 4.17's tools are installed
		printf '18\n' >"$hv/version/minor"
		mkdir -p "$root/usr/lib/xen-4.18/bin"
		cp "$stub" "$root/usr/lib/xen-4.18/bin/xl"
		cp "$stub" "$root/usr/lib/xen-4.18/bin/xentop" ;;
	bin-dir-missing) rm -rf "$root/usr/lib/xen-4.17/bin" ;;
	no-xen) rm -rf "$hv"; mkdir -p "$hv" ;;   # what a non-Xen kernel shows
	no-sysfs-dir) rm -rf "$hv" ;;
	type-newline-only) printf '\n' >"$hv/type" ;;
	type-kvm) printf 'kvm\n' >"$hv/type" ;;
	type-with-blanks) printf '  xen \t\n' >"$hv/type" ;;
	type-two-words) printf 'not xen\n' >"$hv/type" ;;
	type-backslash) printf 'x\\en\n' >"$hv/type" ;;
	type-control) printf 'kvm\033[2J\n' >"$hv/type" ;;
	major-missing) rm "$hv/version/major" ;;
	minor-missing) rm "$hv/version/minor" ;;
	version-blanks) printf ' 4 \n' >"$hv/version/major"; printf '\t17\t\n' >"$hv/version/minor" ;;
	version-no-newline) printf '4' >"$hv/version/major"; printf '17' >"$hv/version/minor" ;;
	type-empty-file) : >"$hv/type" ;;
	type-no-newline) printf 'xen' >"$hv/type" ;;
	major-dotdot) printf '../x\n' >"$hv/version/major" ;;
	major-two-lines) printf '4\n5\n' >"$hv/version/major" ;;
	major-huge) head -c 5000 /dev/zero | tr '\0' 9 >"$hv/version/major" ;;
	major-empty) : >"$hv/version/major" ;;
	major-negative) printf -- '-4\n' >"$hv/version/major" ;;
	major-overflow) printf '99999999999\n' >"$hv/version/major" ;;
	# NUL bytes: dash's `read` drops them.
	type-nul-junk) printf 'xen\0junk\n' >"$hv/type" ;;
	type-nul-inside) printf 'x\0en\n' >"$hv/type" ;;
	type-nul-only) printf '\0\0\n' >"$hv/type" ;;
	# Files that would block an open or a read (Debian's scripts hang:
	# not for diff-debian.sh; tests/hostile/xen.sh runs them under timeout).
	major-fifo) rm "$hv/version/major"; mkfifo "$hv/version/major" ;;
	type-fifo) rm "$hv/type"; mkfifo "$hv/type" ;;
	type-fifo-tool-missing) rm "$hv/type"; mkfifo "$hv/type"
		rm "$root/usr/lib/xen-4.17/bin/xl" "$root/usr/lib/xen-4.17/bin/xentop" ;;
	*) echo "set_state: unknown state $state" >&2; return 1 ;;
	esac
}

# strace_in_root ROOT LOG PROGRAM-PATH ARGS...: strace -f of running it in
# the root (clean environment), printed from PROGRAM-PATH's execve on,
# without pid prefixes.
strace_in_root() {
	local root=$1 log=$2 path=$3
	shift 2
	strace -f -qq -o "$log" env -i PATH=/usr/sbin:/usr/bin /usr/sbin/chroot "$root" "$@" >/dev/null 2>&1
	sed 's/^[0-9]* *//' "$log" | sed -n "\\|^execve(\"$path\"|,\$p"
}
# The syscalls between the first execve of a trace and the next one
# (exclusive), whole lines; between_exec_names: their names only.
between_execs() { awk 'NR>1 && /^execve\(/ {exit} NR>1'; }
between_exec_names() { between_execs | sed 's/(.*//'; }

# in_root ROOT CMD...: run CMD in the root with a clean, fixed environment
# (PWD=/ given, as dash would otherwise export its own).
in_root() {
	local root=$1; shift
	if [ -n "${FORKLESS_SANITIZED:-}" ]; then
		# /proc for the sanitizer runtime, in a private mount namespace.
		env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin:/usr/lib/xen-common/bin PWD=/ \
			TESTVAR='kept as is' ${STUB_PID:+STUB_PID=1} ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
			${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} \
			unshare -m /bin/sh -c 'mount --bind /proc "$0/proc" && cd / && exec chroot "$0" "$@"' "$root" "$@"
		return
	fi
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin:/usr/lib/xen-common/bin PWD=/ \
		TESTVAR='kept as is' ${STUB_PID:+STUB_PID=1} chroot "$root" "$@"
}
