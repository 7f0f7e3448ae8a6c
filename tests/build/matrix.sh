#!/bin/bash
# SPDX-License-Identifier: MIT
# Build matrix: allnoconfig (the multiplexer alone), every applet alone,
# allyesconfig, the named defconfigs and a glibc build all compile with
# -Wall -Wextra -Werror; sizes meet their targets; a second make rebuilds
# nothing; missing build tools give the exact command to run.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-build.sh"
cd "$TOP" || exit 2
mb=build/matrix KB=$mb
mkdir -p "$mb"

built_ok() {   # built_ok NAME DESCRIPTION
	if [ -x "$mb/$1/forkless" ] && ! grep -q 'warning:' "$mb/$1.log"; then
		pass "build/$2"
	else
		fail "build/$2" "build failed or warned" "$(tail -20 "$mb/$1.log")"
		return 1
	fi
}

# Make sure the shared generated files exist (Config.applets.in).
make -s build/gen/.applets.stamp >/dev/null 2>&1 || make -s >/dev/null 2>&1

# Every configuration first, then the builds, as many at once as there are
# CPUs (each in its own directory), then the checks.
configure allno --allnoconfig
names=allno applets=
for sym in $(sed -n 's,^//applet:\([A-Z0-9_]*\) \([^ ]*\) .*,\1:\2,p' applets/*/*.c); do
	name=${sym#*:} sym=${sym%%:*}
	configure "one-$name" --allnoconfig && set_sym "one-$name" "$sym" y
	names="$names one-$name" applets="$applets $name"
done
configure allyes --allyesconfig
names="$names allyes"
# a named defconfig is applied by its make target; a failed one leaves no
# configuration to build, and so no binary
defs=
for d in config/*_defconfig; do
	name=${d#config/}; name=${name%_defconfig}
	mkdir -p "$mb/def-$name" && rm -f "$mb/def-$name/.config" &&
		build "def-$name" "${name}_defconfig" && names="$names def-$name"
	defs="$defs $name"
done
configure glibc --defconfig=config/defconfig
command -v clang >/dev/null && configure clang --defconfig=config/defconfig
# shellcheck disable=SC2086
build_all $names
build glibc CC=gcc &
if command -v clang >/dev/null; then build clang CC=clang; fi
wait

if built_ok allno "allnoconfig (multiplexer only)"; then
	run_capture "$mb/allno/forkless" --list
	check "allnoconfig/--list is empty" "0 " "$RC $OUT"
	run_capture bash -c "exec -a xl $mb/allno/forkless list"
	check "allnoconfig/any other name: applet not found, 127" "127 forkless: applet not found: xl" "$RC ${ERR%$'\n'}"
	# tests/lib.sh's need_applet: the one rule for a test whose applet is
	# configured out (a SKIPPED line naming it and its symbol).
	run_capture env FORKLESS="$mb/allno/forkless" bash -c '. tests/lib.sh; need_applet xen-dir mount.9p'
	check "need_applet/missing applets: SKIPPED naming applet and symbol, status 1" \
		"1 SKIPPED: xen-dir: applet xen-dir is not built in (Kconfig XEN_DIR: make menuconfig)
SKIPPED: mount.9p: applet mount.9p is not built in (Kconfig MOUNT_9P: make menuconfig)" "$RC ${OUT%$'\n'}"
	run_capture env FORKLESS="$TOP/forkless" bash -c '. tests/lib.sh; need_applet xen-dir'
	check "need_applet/applet built in: silent, status 0" "0 " "$RC $OUT"
fi

for name in $applets; do
	if built_ok "one-$name" "only $name"; then
		run_capture "$mb/one-$name/forkless" --list
		check "only $name/--list is just $name" "$name" "${OUT%$'\n'}"
	fi
done

built_ok allyes "allyesconfig"

for name in $defs; do
	built_ok "def-$name" "${name}_defconfig"
done
size_of() { stat -c %s "$mb/$1/forkless" 2>/dev/null || echo 999999; }
s=$(size_of def-full)
info "size: full_defconfig $s bytes, xen-wrapper-only_defconfig $(size_of def-xen-wrapper-only) bytes"
figure size-full "$(size_of def-full)"
figure size-wrapper-only "$(size_of def-xen-wrapper-only)"
# Budgets: every applet together within 160 KiB (the project's budget for
# the full build with everything its open work adds: xendomains' fault
# handling, the contract checks, migration); the wrapper alone, the binary
# a dom0 that wants nothing else installs, within 16 KiB.
[ "$s" -le 163840 ] && pass "size/full <= 160 KiB ($s)" || fail "size/full <= 160 KiB" "$s bytes"
s=$(size_of def-xen-wrapper-only)
[ "$s" -le 16384 ] && pass "size/xen-wrapper-only <= 16 KiB ($s)" || fail "size/xen-wrapper-only <= 16 KiB" "$s bytes"
file "$mb/def-full/forkless" | grep -q 'statically linked' &&
	pass "build/default is static" || fail "build/default is static" "$(file "$mb/def-full/forkless")"

# glibc (and clang, where installed) must compile the same sources.
# (built_ok runs whatever happened before it: a failed build is a FAIL.)
built_ok glibc "glibc (CC=gcc)"
if command -v clang >/dev/null; then
	built_ok clang "clang (CC=clang, glibc)"
fi

# A second make with nothing changed rebuilds nothing (`all` named: a
# make in this directory, never a binary copied from another test's build).
build def-full all
before=$(stat -c %Y.%i "$mb/def-full/forkless")
out=$(make O="$mb/def-full" BIN="$mb/def-full/forkless" KCONFIG_CONFIG="$mb/def-full/.config" 2>&1)
after=$(stat -c %Y.%i "$mb/def-full/forkless")
if [ "$before" = "$after" ] && ! grep -qE '^  (CC|LD|GEN) ' <<<"$out"; then
	pass "build/second make rebuilds nothing"
else
	fail "build/second make rebuilds nothing" "$out"
fi
# Touching one applet rebuilds that object and relinks, nothing else.
touch applets/xen/xen.c
out=$(make O="$mb/def-full" BIN="$mb/def-full/forkless" KCONFIG_CONFIG="$mb/def-full/.config" 2>&1)
check "build/touching applets/xen/xen.c rebuilds only it" "  CC      applets/xen/xen.c
  LD      $mb/def-full/forkless" "$out"

# savedefconfig: a minimal file that reproduces the configuration.
make -s O="$mb/def-dom0" KCONFIG_CONFIG="$mb/def-dom0/.config" savedefconfig >/dev/null 2>&1
mkdir -p "$mb/resaved"
cp "$mb/def-dom0/defconfig" "$mb/resaved.defconfig" 2>/dev/null &&
	KCONFIG_CONFIG="$mb/resaved/.config" kconfig-conf --defconfig="$mb/resaved.defconfig" Config.in >/dev/null 2>&1
if [ -s "$mb/def-dom0/defconfig" ] && diff <(grep -v '^#' "$mb/def-dom0/.config" | grep .) \
	<(grep -v '^#' "$mb/resaved/.config" | grep .) >/dev/null; then
	pass "build/savedefconfig reproduces the configuration"
else
	fail "build/savedefconfig reproduces the configuration" "$(cat "$mb/def-dom0/defconfig" 2>&1)"
fi

# make install DESTDIR=...: the binary and Debian's layout, relative links.
dest=$(scratch destdir)
if make -s O="$mb/def-full" BIN="$mb/def-full/forkless" KCONFIG_CONFIG="$mb/def-full/.config" \
	install DESTDIR="$dest" >/dev/null 2>&1 &&
	[ "$(readlink "$dest/usr/sbin/xl")" = ../lib/xen-common/bin/xen-utils-wrapper ] &&
	[ -x "$dest/usr/bin/forkless" ] && [ "$(readlink -f "$dest/usr/sbin/xen")" = "$dest/usr/bin/forkless" ]; then
	pass "build/make install DESTDIR"
else
	fail "build/make install DESTDIR" "$(ls -lR "$dest" 2>&1 | head -20)"
fi
rm -rf "$dest"

# Missing tools, as root: installed with apt-get, saying so. (apt-get is a
# recording stand-in here: the real one must not run in a test.)
tb=$(scratch tools)
for t in id sh cat; do ln -s "$(command -v $t)" "$tb/$t"; done
printf '#!/bin/sh\necho "apt-get $*" >>"%s/calls"\n' "$tb" >"$tb/apt-get"; chmod 755 "$tb/apt-get"
run_capture env PATH="$tb" /bin/sh config/need-tools.sh musl-gcc kconfig-conf
check "tools/missing as root: says it installs them" \
	"0 forkless build: installing musl-tools kconfig-frontends-nox with apt-get (needed to build)" "$RC ${ERR%$'\n'}"
check "tools/missing as root: the apt-get call" \
	"apt-get install -y -q --no-install-recommends musl-tools kconfig-frontends-nox" "$(cat "$tb/calls" 2>&1)"
rm -rf "$tb"

# Missing tools: a non-root user is told the exact command.
if id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
	# A PATH with the basic tools but neither compiler nor kconfig.
	tb=$(scratch tools); for t in id sh; do ln -s "$(command -v $t)" "$tb/$t"; done; chmod 755 "$tb"
	run_capture setpriv --reuid=nobody --regid=nogroup --clear-groups env PATH="$tb" \
		/bin/sh config/need-tools.sh musl-gcc kconfig-conf
	check "tools/missing as non-root: exact apt-get command, exit 1" \
		"1 forkless build: missing build tools. Run:
    sudo apt-get install musl-tools kconfig-frontends-nox" "$RC ${ERR%$'\n'}"
	rm -rf "$tb"
fi
