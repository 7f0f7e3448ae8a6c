#!/bin/sh -e
VERSION=$(/old/lib/xen-version)
if [ -d "/usr/lib/xen-$VERSION" ]; then
    echo "/usr/lib/xen-$VERSION"
else
    echo "ERROR:  Can't find version $VERSION of xen utils, bailing out!" >&2
    exit 127
fi
