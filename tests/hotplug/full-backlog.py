# SPDX-License-Identifier: MIT
# full-backlog.py SOCKET READY - a xenstored that has stopped accepting:
# a unix socket listening with a backlog of 0, that backlog filled by a
# connection nobody accepts; READY is created once it is so. Runs until
# killed.
import os, socket, sys, time

path, ready = sys.argv[1], sys.argv[2]
srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
srv.bind(path)
srv.listen(0)
fill = []
while True:   # connect until the backlog refuses (EAGAIN)
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    c.setblocking(False)
    try:
        c.connect(path)
    except BlockingIOError:
        c.close()
        break
    fill.append(c)
open(ready, 'w').close()
while True:
    time.sleep(3600)
