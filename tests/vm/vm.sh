#!/bin/bash
# SPDX-License-Identifier: MIT
# Real-hypervisor tests in `make check`: boots Debian's Xen with its dom0
# kernel under QEMU (and the same kernel without Xen), with forkless in the
# initramfs, for each Debian release (tests/vm/run, VM_RELEASE). Every
# check's name starts with its release: `trixie/vm-xen/...`. A machine
# without QEMU prints a loud SKIPPED line, counted in the summary.
#
# What runs on which release (docs/testing.md, "The VM boots"): Debian 13
# (trixie: Xen 4.20, Linux 6.12), today's stable release, runs all of it:
# the Xen boot's every part, the shell-less dom0, the plain boot. Debian 12
# (bookworm: Xen 4.17, Linux 6.1) runs what tests something Debian 13's
# boots do not: Xen 4.17's tools behind the wrapper and its toolstack
# start, the domU lifecycles with Debian 12's scripts against the applets
# (the per-domU process table; one untraced round a set, not five: the
# calls' own times are Debian 13's run's), and the plain boot on 6.1, where
# cgroup-resolve's watch takes its rescanning fallback (6.12 has fanotify
# on cgroupfs). The Debian scripts and the applets' code paths the other
# parts exercise are the same on both (the hotplug scripts differ only in
# hotplugpath.sh's paths), so they run once. VM_RELEASES="trixie bookworm"
# (default) chooses the releases; VM_TOOLSTACK_ONLY and VM_ONLY, when set,
# apply to each release alike.
. "$(dirname "$0")/../lib.sh"
need_root vm || exit 0
rc=0
for rel in ${VM_RELEASES:-trixie bookworm}; do
	case $rel in
	trixie) VM_RELEASE=trixie "$TOP/tests/vm/run" "$FORKLESS" || rc=1 ;;
	bookworm)
		VM_RELEASE=bookworm VM_TOOLSTACK_ONLY=${VM_TOOLSTACK_ONLY:-lifecycles} \
			VM_LIFECYCLES=${VM_LIFECYCLES:-1} \
			VM_ONLY=${VM_ONLY:-xen noxen} "$TOP/tests/vm/run" "$FORKLESS" || rc=1 ;;
	*) fail vm/releases "VM_RELEASES names '$rel': not trixie or bookworm" ;;
	esac
done
exit 0
