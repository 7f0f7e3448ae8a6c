# SPDX-License-Identifier: MIT
# The stand-in xenstored of the host tests (started by tests/lib-xenstored.sh):
# the hotplug tests (tests/hotplug/lib-hotplug.sh), xen-init-list's
# (tests/xen/init-list.sh; the parts marked "xen-init:") and mount-shared's
# (tests/mount/lib-mount.sh, through the kernel's /dev/xen/xenbus: --pty).
#   xenstored-standin.py SOCKET STATEDIR [--silent] [--pty] [--delay=SECONDS]
#                        [--wrong-id=SUFFIX] [--fail-write=SUFFIX]
#                        [--lose-commit=SUFFIX] [--oxenstored]
#                        [--fail-read=SUFFIX=ERRNO]
# STATEDIR/tree.in, when there, is the initial tree (PATH=VALUE lines,
# VALUE with Python bytes escapes such as \x00 and \n); xen-init:
# IS_DOMAIN_INTRODUCED answers T for the domids listed in
# STATEDIR/introduced (one a line; without that file: every domid that has
# /local/domain/N).
# Serves the xs_wire.h protocol on the unix socket SOCKET (none when SOCKET
# is -), where libxenstore (Debian's xenstore-read...) and forkless both
# connect, to any number of clients at once: READ, WRITE, MKDIR, RM,
# DIRECTORY, TRANSACTION_START/END (optimistic: a commit after another
# writer's is EAGAIN, as xenstored's), GET_PERMS, WATCH/UNWATCH. Relative
# paths are resolved against /local/domain/0, as xenstored does for dom0's
# connections.
# WATCH "PATH\0TOKEN\0" is answered "OK\0", then the initial WATCH_EVENT
# (15, "PATH\0TOKEN\0"), as C xenstored does; afterwards an event for every
# change at or below PATH (the changed node's path), and for a watch below a
# removed node (the watch's own path), as xenstored's fire_watches. The
# special path @releaseDomain fires whenever a /local/domain/N node goes (an
# RM of it or of an ancestor), as the hypervisor's domain-death notice would
# (xendomains waits on it); @introduceDomain when /local/domain/N is
# created. UNWATCH "PATH\0TOKEN\0": "OK\0", or ENOENT for no such watch.
# STATEDIR/tree: every node as PATH=VALUE (Python escapes), rewritten
# after each change; STATEDIR/log: one line per request (conn TYPE tx
# PATH [VALUE]), for the tests to count connections and requests;
# STATEDIR/ready once it serves. --silent: read requests, never
# answer (a hung xenstored). --delay=SECONDS: answer each request SECONDS
# late (a slow xenstored). --pty: also serve a raw pty, as the kernel's
# /dev/xen/xenbus would (one stream); its slave's path in STATEDIR/pty.
# --wrong-id=SUFFIX: the reply to a READ of a path ending in SUFFIX carries
# the next request's id (a broken stream, in the middle of a batch).
# --fail-write=SUFFIX: a WRITE of a path ending in SUFFIX is refused
# (EACCES), as xenstored refuses a write it does not permit.
# --lose-commit=SUFFIX: the first commit (TRANSACTION_END "T") of a
# transaction that wrote a path ending in SUFFIX is answered EAGAIN and
# dropped, as xenstored answers one whose keys another writer changed
# meanwhile: the client runs its transaction again.
# Replies over 4096 bytes (XENSTORE_PAYLOAD_MAX) are E2BIG, as C
# xenstored's (tools/xenstored/core.c, send_reply), and DIRECTORY_PART
# (22) pages a long listing as its send_directory_part: "PATH\0OFFSET\0"
# -> "GEN\0" and the whole names from byte OFFSET that fit, the last chunk
# followed by one more NUL. --oxenstored: as oxenstored on its socket, the
# long reply is sent anyway and DIRECTORY_PART is unknown (ENOSYS).
# --fail-read=SUFFIX=ERRNO: a READ, DIRECTORY or DIRECTORY_PART of a path
# ending in SUFFIX is answered ERRNO (EACCES, EIO...).
import os, selectors, socket, struct, sys, time, tty

sock_path, statedir = sys.argv[1], sys.argv[2]
silent = '--silent' in sys.argv[3:]
use_pty = '--pty' in sys.argv[3:]
wrong_id = [a[len('--wrong-id='):].encode() for a in sys.argv[3:] if a.startswith('--wrong-id=')]
fail_write = [a[len('--fail-write='):] for a in sys.argv[3:] if a.startswith('--fail-write=')]
lose_commit = [a[len('--lose-commit='):] for a in sys.argv[3:] if a.startswith('--lose-commit=')]
oxenstored = '--oxenstored' in sys.argv[3:]
fail_read = [a[len('--fail-read='):].rsplit('=', 1) for a in sys.argv[3:] if a.startswith('--fail-read=')]
PAYLOAD_MAX = 4096
delay = sum(float(a[len('--delay='):]) for a in sys.argv[3:] if a.startswith('--delay='))
NAMES = {1: 'DIRECTORY', 2: 'READ', 3: 'GET_PERMS', 4: 'WATCH', 5: 'UNWATCH',
         6: 'TRANSACTION_START',
         7: 'TRANSACTION_END', 11: 'WRITE', 12: 'MKDIR', 13: 'RM',
         17: 'IS_DOMAIN_INTRODUCED', 22: 'DIRECTORY_PART'}
tree = {'/': b'', '/local': b'', '/local/domain': b'', '/local/domain/0': b''}
gen = [0]
txs = {}          # id -> [tree copy, gen at start, paths written]
watches = {}      # conn id -> [(path as given, canonical path, token)]
conns = {}        # conn id -> socket, for the events
next_tx = [1]
log = open(os.path.join(statedir, 'log'), 'a', buffering=1)
# the initial tree
import codecs
if os.path.exists(os.path.join(statedir, 'tree.in')):
    with open(os.path.join(statedir, 'tree.in'), encoding='utf-8') as f:
        for line in f:
            line = line.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            k, v = line.split('=', 1)
            tree[k] = codecs.escape_decode(v.encode('utf-8'))[0]
            p = k.rsplit('/', 1)[0] or '/'
            while p not in tree:
                tree[p] = b''
                p = p.rsplit('/', 1)[0] or '/'

def save():
    with open(os.path.join(statedir, 'tree.tmp'), 'w') as f:
        for k in sorted(tree):
            f.write('%s=%s\n' % (k, tree[k].decode('utf-8', 'backslashreplace')
                                 .encode('unicode_escape').decode()))
    os.rename(os.path.join(statedir, 'tree.tmp'), os.path.join(statedir, 'tree'))

def canon(p):
    if not p.startswith('/'):
        p = '/local/domain/0/' + p
    if len(p) > 1 and p.endswith('/'):
        p = p[:-1]
    if '//' in p or p == '':
        return None
    return p

def parent(p):
    return p.rsplit('/', 1)[0] or '/'

def mk(t, p):
    while p not in t:
        t[p] = b''
        p = parent(p)

def send(s, kind, req, tx, reply):
    try:
        s.sendall(struct.pack('<4I', kind, req, tx, len(reply)) + reply)
    except OSError:   # gone (xenstored: "write error"); the loop drops it
        pass

def event(cid, given, token):
    log.write('%d WATCH_EVENT 0 %s %s\n' % (cid, given, token.decode('utf-8', 'replace')))
    send(conns[cid], 15, 0, 0, given.encode() + b'\0' + token + b'\0')

def is_child(child, par):
    return child == par or par == '/' or child.startswith(par + '/')

def changed(p, gone=()):
    # xenstored's fire_watches for a change of node p (gone: the nodes an RM
    # of p took away, p's descendants included), then the domain notices
    doms = [d for d in gone if d.count('/') == 3 and d.startswith('/local/domain/')
            and d.rsplit('/', 1)[1].isdigit()]
    born = p.count('/') == 3 and p.startswith('/local/domain/') and \
        p.rsplit('/', 1)[1].isdigit() and not gone
    for cid, ws in list(watches.items()):
        for given, w, token in list(ws):
            if w.startswith('@'):
                if w == '@releaseDomain' and doms or w == '@introduceDomain' and born:
                    event(cid, given, token)
            elif is_child(p, w):
                event(cid, p if given.startswith('/') else p[len('/local/domain/0/'):], token)
            elif gone and is_child(w, p):
                event(cid, given, token)

def handle(conn_id, kind, tx, payload):
    t = tree
    if kind in (4, 5):   # WATCH, UNWATCH
        parts = payload.split(b'\0')
        if len(parts) < 3:
            return 16, b'EINVAL\0'
        given, token = parts[0].decode('utf-8', 'surrogateescape'), parts[1]
        w = given if given.startswith('@') else canon(given)
        if w is None:
            return 16, b'EINVAL\0'
        ws = watches.setdefault(conn_id, [])
        if kind == 4:
            if any(x[0] == given and x[2] == token for x in ws):
                return 16, b'EEXIST\0'
            ws.append((given, w, token))
            return 4, b'OK\0'
        if not any(x[0] == given and x[2] == token for x in ws):
            return 16, b'ENOENT\0'
        ws[:] = [x for x in ws if not (x[0] == given and x[2] == token)]
        return 5, b'OK\0'
    if tx:
        if tx not in txs:
            return 16, b'ENOENT\0'
        t = txs[tx][0]
    if kind == 6:
        i = next_tx[0]; next_tx[0] += 1
        txs[i] = [dict(tree), gen[0], set()]   # the paths it wrote
        return kind, str(i).encode() + b'\0'
    if kind == 7:
        st = txs.pop(tx, None)
        if st is None:
            return 16, b'ENOENT\0'
        if payload.rstrip(b'\0') == b'T':
            if st[1] != gen[0]:
                return 16, b'EAGAIN\0'
            lost = [s for s in lose_commit if any(w.endswith(s) for w in st[2])]
            if lost:
                lose_commit.remove(lost[0])
                return 16, b'EAGAIN\0'
            before = set(tree)
            tree.clear(); tree.update(st[0]); gen[0] += 1; save()
            gone = before - set(tree)
            for w in sorted(st[2]):
                changed(w, sorted(k for k in gone if is_child(k, w)) if w not in tree else ())
        return kind, b'OK\0'
    if kind == 17:   # xen-init: IS_DOMAIN_INTRODUCED
        domid = payload.rstrip(b'\0').decode()
        f = os.path.join(statedir, 'introduced')
        if os.path.exists(f):
            yes = domid in open(f).read().split()
        else:
            yes = ('/local/domain/' + domid) in tree
        return kind, (b'T\0' if yes else b'F\0')
    if kind == 22 and oxenstored:
        return 16, b'ENOSYS\0'
    if kind in (11, 22):
        nul = payload.find(b'\0')
        if nul < 0:
            return 16, b'EINVAL\0'
        p, value = canon(payload[:nul].decode()), payload[nul + 1:]
        if kind == 22:
            value = value.rstrip(b'\0')
            if not value.isdigit():
                return 16, b'EINVAL\0'
    else:
        p, value = canon(payload.rstrip(b'\0').decode()), None
    if p is None:
        return 16, b'EINVAL\0'
    if kind == 11 and any(p.endswith(s) for s in fail_write):
        return 16, b'EACCES\0'
    for suffix, err in fail_read:
        if kind in (1, 2, 22) and p.endswith(suffix):
            return 16, err.encode() + b'\0'
    if kind == 2:
        return (kind, t[p]) if p in t else (16, b'ENOENT\0')
    if kind == 3:
        return (kind, b'n0\0') if p in t else (16, b'ENOENT\0')
    if kind in (1, 22):
        if p not in t:
            return 16, b'ENOENT\0'
        pre = p.rstrip('/') + '/'
        kids = sorted(k[len(pre):] for k in t if k.startswith(pre) and '/' not in k[len(pre):] and k != pre)
        children = b''.join(k.encode() + b'\0' for k in kids)
        if kind == 1:
            return kind, children
        # send_directory_part: the node's generation (here the tree's)
        g = str(gen[0]).encode() + b'\0'
        off = int(value)
        if off >= len(children):
            return kind, g + b'\0'
        chunk, maxlen = b'', PAYLOAD_MAX - len(g) - 1
        for name in children[off:].split(b'\0')[:-1]:
            if len(chunk) + len(name) >= maxlen:
                break
            chunk += name + b'\0'
        if off + len(chunk) == len(children):
            chunk += b'\0'
        return kind, g + chunk
    if kind in (11, 12, 13):
        before = set(t)
        if kind == 11:
            mk(t, parent(p)); t[p] = value
            if tx:
                txs[tx][2].add(p)
        elif kind == 12:
            mk(t, p)
        else:
            if p not in t:
                return (kind, b'OK\0') if parent(p) in t else (16, b'ENOENT\0')
            for k in [k for k in t if k == p or k.startswith(p + '/')]:
                del t[k]
            if tx:
                txs[tx][2].add(p)
        if not tx:
            gen[0] += 1; save()
            # after the reply (xenstored: the events follow the answer)
            pending.append((p, sorted(before - set(t)) if kind == 13 else ()))
        return kind, b'OK\0'
    return 16, b'ENOSYS\0'

save()
sel = selectors.DefaultSelector()
srv = None
if sock_path != '-':
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        os.unlink(sock_path)
    except FileNotFoundError:
        pass
    srv.bind(sock_path)
    srv.listen(64)
    sel.register(srv, selectors.EVENT_READ)
bufs, ids = {}, {}
nconn = 0
pending = []      # (paths, removed) to fire once the reply is sent

class Pty:   # the master side of a pty, as a socket-like stream
    def __init__(self):
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self.name = os.ttyname(slave)
    def fileno(self):
        return self.master
    def recv(self, n):
        return os.read(self.master, n)
    def sendall(self, data):
        os.write(self.master, data)
if use_pty:
    p = Pty()
    nconn += 1
    ids[p] = nconn
    conns[nconn] = p
    bufs[p] = b''
    sel.register(p, selectors.EVENT_READ)
    with open(os.path.join(statedir, 'pty'), 'w') as f:
        f.write(p.name)
open(os.path.join(statedir, 'ready'), 'w').close()
while True:
    for key, _ in sel.select():
        s = key.fileobj
        if s is srv:
            c, _ = srv.accept()
            nconn += 1
            ids[c] = nconn
            conns[nconn] = c
            bufs[c] = b''
            sel.register(c, selectors.EVENT_READ)
            log.write('%d CONNECT\n' % nconn)
            continue
        try:
            data = s.recv(65536)
        except OSError:   # a client gone with replies unread: as xenstored, drop it
            data = b''
        if not data:
            sel.unregister(s); s.close(); del bufs[s]
            watches.pop(ids[s], None); conns.pop(ids[s], None)
            continue
        bufs[s] += data
        while len(bufs[s]) >= 16:
            kind, req, tx, n = struct.unpack('<4I', bufs[s][:16])
            if len(bufs[s]) < 16 + n:
                break
            payload = bufs[s][16:16 + n]
            bufs[s] = bufs[s][16 + n:]
            shown = payload.replace(b'\0', b' ').decode('utf-8', 'replace').strip()
            log.write('%d %s %d %s\n' % (ids[s], NAMES.get(kind, str(kind)), tx, shown))
            if silent:
                continue
            rkind, reply = handle(ids[s], kind, tx, payload)
            if len(reply) > PAYLOAD_MAX and not oxenstored:
                rkind, reply = 16, b'E2BIG\0'
            if kind == 2 and any(payload.rstrip(b'\0').endswith(w) for w in wrong_id):
                req += 1
            if delay:
                time.sleep(delay)
            try:
                s.sendall(struct.pack('<4I', rkind, req, tx, len(reply)) + reply)
            except OSError:   # gone before its replies (xenstored: "write error")
                bufs[s] = b''
                pending.clear()
                break
            if kind == 4 and rkind == 4:   # the initial event, after the ack
                given, token = payload.split(b'\0')[:2]
                event(ids[s], given.decode('utf-8', 'surrogateescape'), token)
            while pending:
                changed(*pending.pop(0))
