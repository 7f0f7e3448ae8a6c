# A stand-in xenstore for /dev/xen/xenbus (tests/mount/lib-mount.sh):
#   xenstore-standin.py PTYFILE [--silent | --delay=SECONDS] [N=TAG...]
# The raw pty's slave path goes to PTYFILE; N=TAG are 9pfs devices.
# Answers DIRECTORY device/9pfs and READ device/9pfs/N/tag (xs_wire.h),
# else ENOENT; --silent reads requests and never answers (a hung
# xenstored); --delay answers each request SECONDS late.
import os, struct, sys, time, tty
silent, delay, tags = False, 0.0, {}
for a in sys.argv[2:]:
    if a == '--silent':
        silent = True
    elif a.startswith('--delay='):
        delay = float(a[len('--delay='):])
    else:
        k, v = a.split('=', 1)
        tags[k] = v
master, slave = os.openpty()
tty.setraw(slave)
with open(sys.argv[1] + '.tmp', 'w') as f:
    f.write(os.ttyname(slave))
os.rename(sys.argv[1] + '.tmp', sys.argv[1])
buf = b''
while True:
    buf += os.read(master, 4096)
    while len(buf) >= 16:
        kind, req, tx, n = struct.unpack('<4I', buf[:16])
        if len(buf) < 16 + n:
            break
        path = buf[16:16 + n].rstrip(b'\0').decode()
        buf = buf[16 + n:]
        if silent:
            continue
        dev = path[len('device/9pfs/'):-len('/tag')]
        if kind == 1 and path == 'device/9pfs':
            reply = b''.join(k.encode() + b'\0' for k in tags)
        elif kind == 2 and path == 'device/9pfs/%s/tag' % dev and dev in tags:
            reply = tags[dev].encode()
        else:
            kind, reply = 16, b'ENOENT\0'
        time.sleep(delay)
        os.write(master, struct.pack('<4I', kind, req, tx, len(reply)) + reply)
