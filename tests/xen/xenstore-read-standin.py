#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# xenstore-read -s PATH for tests/xen/xencommons.sh: Debian's script polls
# xenstored with it. One READ on xenstored's socket, no timeout (as
# libxenstore's); exit 0 when answered, 1 otherwise.
import socket, struct, sys
path = sys.argv[-1].encode() + b'\0'
try:
    s = socket.socket(socket.AF_UNIX)
    s.connect('/var/run/xenstored/socket')
    s.sendall(struct.pack('<4I', 2, 1, 0, len(path)) + path)
    hdr = s.recv(16)
    t, _, _, n = struct.unpack('<4I', hdr)
    sys.exit(0 if t == 2 else 1)
except (OSError, struct.error):
    sys.exit(1)
