#!/bin/bash
# SPDX-License-Identifier: MIT
# The early exec path (applets/xen/xen-early.c) in builds other than the
# default: with a stack protector requested (it must still not read a
# canary before TLS exists), and without XEN_EARLY_EXEC (the main() path
# must then meet the issue's budget of 6 syscalls between the execves).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-xen.sh"
need_root xen-early || exit 0
STUB=$(build_stub) || { fail xen-early/stub "cannot build the stub tool"; exit 0; }
base=$(scratch early)
trap 'rm -rf "$base"' EXIT

variant() {   # variant NAME CFLAGS [CONFIG-LINE-TO-DISABLE]: builds $base/NAME/forkless
	local d=$base/$1
	mkdir -p "$d"
	( cd "$TOP" && make -s O="$d" BIN="$d/forkless" KCONFIG_CONFIG="$d/.config" defconfig >/dev/null &&
	  { [ -z "${3:-}" ] || { sed -i "s/^CONFIG_$3=y\$/# CONFIG_$3 is not set/" "$d/.config" &&
	    KCONFIG_CONFIG="$d/.config" kconfig-conf --olddefconfig Config.in >/dev/null; }; } &&
	  make -s O="$d" BIN="$d/forkless" KCONFIG_CONFIG="$d/.config" CFLAGS="$2" >"$d.log" 2>&1 )
}

# 1. -fstack-protector-strong (Alpine's and Ubuntu's gcc default).
if variant ssp "-Os -fstack-protector-strong"; then
	root=$base/ssp-root
	FORKLESS=$base/ssp/forkless
	make_root "$root" && install_impl "$root" forkless && set_state "$root" ok
	run_capture in_root "$root" xl list
	check "early/stack protector requested: xl still execs" "0 argv[0]=/usr/lib/xen-4.17/bin/xl" "$RC $(head -1 <<<"$OUT")"
	run_capture in_root "$root" xen-version
	check "early/stack protector requested: xen-version" "0 4.17" "$RC ${OUT%$'\n'}"
else
	fail "early/stack protector build" "$(tail -5 "$base/ssp.log")"
fi

# 2. Without XEN_EARLY_EXEC: main() makes the decision, 6 syscalls.
if variant noearly "-Os" XEN_EARLY_EXEC; then
	root=$base/noearly-root
	FORKLESS=$base/noearly/forkless
	make_root "$root" && install_impl "$root" forkless && set_state "$root" ok
	grep -q '^# CONFIG_XEN_EARLY_EXEC is not set' "$base/noearly/.config" ||
		fail "early/XEN_EARLY_EXEC off" "the option is still on"
	calls=$(strace_in_root "$root" "$base/st.log" /usr/sbin/xl list | between_exec_names)
	n=$(grep -c . <<<"$calls")
	info "without XEN_EARLY_EXEC: $n syscalls between the execves: $(echo $calls)"
	if [ "$n" -le 6 ] && grep -q 'execve("/usr/lib/xen-4.17/bin/xl"' "$base/st.log"; then
		pass "early/without XEN_EARLY_EXEC: at most 6 syscalls ($n)"
	else
		fail "early/without XEN_EARLY_EXEC: at most 6 syscalls" "$n: $(echo $calls)"
	fi
else
	fail "early/build without XEN_EARLY_EXEC" "$(tail -5 "$base/noearly.log")"
fi
