#!/bin/bash
# Real-hypervisor tests in `make check`: boots Debian's Xen 4.17 with a
# Debian dom0 kernel under QEMU (and the same kernel without Xen), with
# forkless in the initramfs. See tests/vm/run for how, and README.md
# ("Testing on a real hypervisor"). A machine without QEMU prints a loud
# SKIPPED line, counted in the summary.
. "$(dirname "$0")/../lib.sh"
need_root vm || exit 0
exec "$TOP/tests/vm/run" "$FORKLESS"
