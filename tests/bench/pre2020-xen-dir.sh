#!/bin/sh -e
# SPDX-License-Identifier: MIT
# xen-dir of the pre-2020 chain (pre2020-wrapper.sh): the directory of the
# running hypervisor's tools, or Debian's message and status 127.
v=$(/old/lib/xen-version)
if [ -d "/usr/lib/xen-$v" ]; then
    echo "/usr/lib/xen-$v"
else
    echo "ERROR:  Can't find version $v of xen utils, bailing out!" >&2
    exit 127
fi
