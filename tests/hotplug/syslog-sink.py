# SPDX-License-Identifier: MIT
# A /dev/log for the hotplug tests: syslog-sink.py SOCKET FILE appends each
# datagram it receives to FILE as one line (newlines inside shown as \n),
# with the sender's <PRI> and timestamp as they came; FILE.ready once bound.
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
try:
    os.unlink(sys.argv[1])
except FileNotFoundError:
    pass
s.bind(sys.argv[1])
out = open(sys.argv[2], 'a', buffering=1)
open(sys.argv[2] + '.ready', 'w').close()
while True:
    d = s.recv(65536)
    out.write(d.decode('utf-8', 'backslashreplace').replace('\n', '\\n') + '\n')
