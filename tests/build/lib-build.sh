# SPDX-License-Identifier: MIT
# lib-build.sh - configured builds for tests/build/*.sh (sourced after
# tests/lib.sh, in $TOP), each in its own directory $KB/NAME with its own
# .config (KB: the test's directory, build/matrix or build/costs).
#
# configure NAME KCONFIG-ARGS...  a fresh $KB/NAME/.config (kconfig-conf's
#                                 stderr in $KB/NAME.conf.log)
# build NAME [MAKE-ARGS...]       make into $KB/NAME, its output in
#                                 $KB/NAME.log; a stale binary is removed
#                                 first, so it never passes for a build
#                                 (with no MAKE-ARGS: a binary already
#                                 built from the same .config and the same
#                                 sources, by this test or another, is
#                                 copied from build/config-builds)
# build_all NAME...               build each NAME as `build` does, as many
#                                 at once as there are CPUs (each its own
#                                 directory; build/gen made first, so that
#                                 no two makes write it)
# set_sym NAME SYM y|n            the option on or off in NAME's .config,
#                                 the rest resolved (olddefconfig)
configure() {
	local name=$1; shift
	mkdir -p "$KB/$name"
	rm -f "$KB/$name/.config"
	KCONFIG_CONFIG="$KB/$name/.config" kconfig-conf "$@" Config.in >/dev/null 2>"$KB/$name.conf.log"
}
# Binaries by configuration: costs.sh and matrix.sh build many of the
# same ones (allnoconfig, each applet alone). The key: the .config,
# musl-gcc's version and the tree's content (tests/lib.sh's tree_key).
CONFIG_BUILDS=$TOP/build/config-builds
tree_sum() {
	[ -n "${TREE_SUM:-}" ] || TREE_SUM="$(musl-gcc -dumpfullversion 2>&1) $(tree_key)" || TREE_SUM=
	echo "$TREE_SUM"
}
build() {
	local name=$1 key=; shift
	rm -f "$KB/$name/forkless"
	if [ $# = 0 ] && [ -n "$(tree_sum)" ]; then
		key=$CONFIG_BUILDS/$(tree_sum | sha256sum | cut -c1-16)/$(sha256sum <"$KB/$name/.config" | cut -c1-16)
		if [ -f "$key/forkless" ] && cp "$key/forkless" "$KB/$name/forkless"; then
			echo "copied from $key" >"$KB/$name.log"
			return 0
		fi
	fi
	make -s O="$KB/$name" BIN="$KB/$name/forkless" KCONFIG_CONFIG="$KB/$name/.config" "$@" \
		>"$KB/$name.log" 2>&1 || return
	[ -z "$key" ] || { mkdir -p "$key" && cp "$KB/$name/forkless" "$key/forkless.new.$$" &&
		mv "$key/forkless.new.$$" "$key/forkless"; }
}
build_all() {
	local jobs n=0 name
	jobs=$(nproc 2>/dev/null) || jobs=1
	make -s build/gen/.applets.stamp build/gen/.kconfig-tools >/dev/null 2>&1
	tree_sum >/dev/null   # once, not in each build's subshell
	# the binaries of other trees' content go
	[ -z "$TREE_SUM" ] || find "$CONFIG_BUILDS" -mindepth 1 -maxdepth 1 \
		! -name "$(tree_sum | sha256sum | cut -c1-16)" -exec rm -rf {} + 2>/dev/null
	for name in "$@"; do
		build "$name" &
		n=$((n + 1))
		if [ $n -ge "$jobs" ]; then
			wait -n
			n=$((n - 1))
		fi
	done
	wait
}
set_sym() {
	if [ "$3" = y ]; then
		sed -i "s/^# CONFIG_$2 is not set\$/CONFIG_$2=y/" "$KB/$1/.config"
	else
		sed -i "s/^CONFIG_$2=y\$/# CONFIG_$2 is not set/" "$KB/$1/.config"
	fi
	KCONFIG_CONFIG="$KB/$1/.config" kconfig-conf --olddefconfig Config.in >/dev/null 2>&1
}
