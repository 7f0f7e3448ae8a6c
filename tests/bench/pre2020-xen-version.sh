#!/bin/sh -e
# SPDX-License-Identifier: MIT
# xen-version of the pre-2020 chain (pre2020-wrapper.sh): MAJOR.MINOR from
# sysfs when Xen runs (a cat(1) each), else Debian's message and status 1.
if [ -e /sys/hypervisor/type ] && [ "$(cat /sys/hypervisor/type)" = xen ]; then
    echo "$(cat /sys/hypervisor/version/major).$(cat /sys/hypervisor/version/minor)"
    exit 0
fi
echo "ERROR:  Can't find hypervisor information in sysfs!" >&2
exit 1
