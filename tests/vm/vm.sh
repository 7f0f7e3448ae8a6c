#!/bin/bash
# SPDX-License-Identifier: MIT
# Real-hypervisor tests in `make check`: boots Debian's Xen with its dom0
# kernel under QEMU (and the same kernel without Xen), with forkless in the
# initramfs, for each Debian release (tests/vm/run, VM_RELEASE). Every
# check's name starts with its release: `trixie/vm-xen/...`. A machine
# without QEMU prints a loud SKIPPED line, counted in the summary.
#
# What runs on which release (docs/testing.md, "The VM harness", with each
# part's measured time): every part on one release at least, so that make
# check fits its time. Debian 13 (trixie: Xen 4.20, Linux 6.12), today's
# stable release: the Xen boot's stub checks, wrapped tools and Debian's
# toolstack start, the founding scenario (seed: five domUs saved and
# restored by xendomains), the PVH and HVM domUs (guests), the driver
# domain (its 6.12 kernel's xenbus device), xendomains stop migrating a
# domU to localhost over ssh (migrate.sh), xendomains under faults (a
# full disk, SIGTERM, a truncated image, xenstored killed: the same
# applet and script on both releases), the shell-less dom0 (noshell)
# (with an xl migrate in it) and the plain boot (fanotify on cgroupfs). Debian 12 (bookworm: Xen 4.17, Linux 6.1): the
# same stub and tool checks, the domU lifecycles (the per-domU process
# table; no untraced rounds: VM_LIFECYCLES=0), xen-init-*, xendomains,
# the driver domain again (Linux 6.1's xenbus device) and the hotplug
# refusals, xl migrate to localhost (xl 4.17's), and the plain boot on 6.1
# (the watch fallback). Debian's scripts are the same on both (but
# hotplugpath.sh's paths) and so is the applets' code. VM_RELEASES=
# "trixie bookworm" (default) chooses the releases; VM_TOOLSTACK_ONLY,
# VM_ONLY and VM_LIFECYCLES, when set, apply to each release alike.
# Debian's side of the comparisons (its scripts in the lifecycles and
# guests, its whole stack in the seed scenario) is a benchmark's
# baseline, not a check of forkless: VM_BASELINES=0 unless set (`make
# bench-vm` sets 1).
. "$(dirname "$0")/../lib.sh"
need_root vm || exit 0
rc=0
export VM_BASELINES=${VM_BASELINES:-0}
for rel in ${VM_RELEASES:-trixie bookworm}; do
	case $rel in
	trixie)
		VM_RELEASE=trixie VM_TOOLSTACK_ONLY=${VM_TOOLSTACK_ONLY:-seed guests driver migrate-xendomains faults} \
			"$TOP/tests/vm/run" "$FORKLESS" || rc=1 ;;
	bookworm)
		VM_RELEASE=bookworm \
			VM_TOOLSTACK_ONLY=${VM_TOOLSTACK_ONLY:-lifecycles xen-init xendomains driver hotplug migrate-xl} \
			VM_LIFECYCLES=${VM_LIFECYCLES:-0} \
			VM_ONLY=${VM_ONLY:-xen noxen} "$TOP/tests/vm/run" "$FORKLESS" || rc=1 ;;
	*) fail vm/releases "VM_RELEASES names '$rel': not trixie or bookworm" ;;
	esac
done
exit 0
