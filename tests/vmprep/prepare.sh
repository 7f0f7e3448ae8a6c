#!/bin/bash
# SPDX-License-Identifier: MIT
# What the VM boots need, made beside the other families: tests/vm/vm.sh
# with VM_PREPARE=1 downloads each release's Xen, kernel and dom0 packages
# and builds the dom0 root and the initramfs (tests/vm/run's steps 1 and
# 2, cached in build/vm-cache), booting nothing. The VM family, which runs
# alone after every other (tests/run's ALONE_FAMILIES), then spends its
# time on the boots: on a fresh machine the downloads and the root are
# minutes of mostly waiting on the network and the disk, better spent
# while the host families compute. PASS: RELEASE/vm/prepare per release;
# a failure here shows again in the VM family's own setup.
. "$(dirname "$0")/../lib.sh"
need_root vmprep || exit 0
VM_PREPARE=1 bash "$TOP/tests/vm/vm.sh"
