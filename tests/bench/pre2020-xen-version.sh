#!/bin/sh -e
if [ -e "/sys/hypervisor/type" ]; then
    type=$(cat /sys/hypervisor/type)
    if [ "$type" = xen ]; then
        major=$(cat /sys/hypervisor/version/major)
        minor=$(cat /sys/hypervisor/version/minor)
        echo "$major.$minor"
        exit 0
    fi
fi
echo "ERROR:  Can't find hypervisor information in sysfs!" >&2
exit 1
