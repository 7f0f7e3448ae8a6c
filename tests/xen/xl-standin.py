#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# tests/xen/xl-standin.py - a stand-in `xl` for tests/xen/xendomains.sh:
# installed as /usr/lib/xen-4.17/bin/xl, it keeps its domains in the
# stand-in xenstored's tree (tests/xenstored-standin.py, on
# /var/run/xenstored/socket, XS_STANDIN_SOCKET to change it): a domain is
# /local/domain/N with its `name` (and `domid`). It speaks xs_wire over the
# socket itself, so it hangs as real xl does when xenstored does not answer.
#
# State directory: $XL_STANDIN_DIR, /run/xl-standin by default:
#   calls     every call appended, one line each: the arguments after
#             `xl`, separated by one space, each byte outside 0x21-0x7e and
#             the backslash written as \xNN (so `save 3 /x/web\x201`)
#   next-domid  the domid the next restore or create gets (10 without it)
#   behave    per-name behaviour, one rule a line, TAB-separated:
#               ACTION<TAB>NAME<TAB>WHAT[<TAB>ARG...]
#             ACTION: save restore create migrate shutdown domid list, or *;
#             NAME: the domain's name (Python escapes: \x20, \t, \xff), or *.
#             The name of `save ID`, `migrate ID`, `shutdown ID` is domain
#             ID's; of `restore FILE` the name the image holds; of `create`
#             the config's `name = "..."`. WHAT:
#               fail<TAB>CODE<TAB>MESSAGE  MESSAGE (escapes) and a newline on
#                                          stderr, exit CODE, nothing done
#               delay<TAB>SECONDS          sleep, then do it (for shutdown:
#                                          the domain goes SECONDS later)
#               hang                       block until a signal; SIGINT (as
#                                          xendomains' deadline sends) kills
#                                          it as it kills real xl (status 130
#                                          in the shell), nothing done
#               never                      shutdown: exit 0, the domain stays
#               killxs                     save: the stand-in xenstored killed
#                                          (SIGKILL to the pid in xenstored-pid)
#                                          once the save has begun, then as
#                                          save goes on: its image written, the
#                                          domain's removal failing (status 1)
#               partial<TAB>CODE<TAB>MESSAGE
#                                          save: FILE written half (PARTIAL and
#                                          the name: as a full disk leaves it),
#                                          then as fail; the domain stays (xl
#                                          resumes it). restore of such a file
#                                          fails as real xl's of a truncated
#                                          image (exit 1, nothing created)
#             The first matching rule wins.
#
# The commands and what they do (real xl's output where a caller reads it):
#   list                       exit 0 (reads every domain's name, as xl does)
#   list -l                    JSON: [{"domid": N, "config": {"c_info":
#                              {"name": ...}}}...], domid order, dom0 too
#   domid NAME                 the domid on stdout; else real xl's message,
#                              exit 1
#   create --quiet --dryrun --defconfig FILE
#                              JSON {"c_info": {"name": ...}} (what Debian's
#                              xen-init-name reads); a config without a name:
#                              real xl's parse error, exit 1
#   create --quiet --defconfig FILE
#                              a new domain named as the config says
#   save ID FILE               "Saving to FILE new xl format ..." on stderr
#                              (before a rule's fail or hang, as xl prints it
#                              first), FILE holding the name, domain ID removed
#   restore FILE               xl's three "Loading new save file" lines on
#                              stderr (before a rule's fail), a new domain
#                              with the name FILE holds
#   migrate ID ARGS...         domain ID removed (gone to the other host)
#   shutdown ID                "Shutting down domain ID" on stderr, exit 0;
#                              the domain removed before xl exits, or with
#                              a delay rule in the background (a child that
#                              sleeps the delay, then removes it)
# An ID that is no domain: real xl's "... is an invalid domain identifier"
# error, exit 1 (save, migrate, shutdown). xenstored gone (the socket refused,
# closed, a broken pipe): "libxl: error: xenstore: ERROR", exit 1.
import codecs, json, os, re, signal, socket, struct, sys, time

# SIGINT kills it as it kills real xl (no traceback, status 130 in the shell)
signal.signal(signal.SIGINT, signal.SIG_DFL)

STATE = os.environ.get('XL_STANDIN_DIR', '/run/xl-standin')
SOCK = os.environ.get('XS_STANDIN_SOCKET', '/var/run/xenstored/socket')
argv = [os.fsencode(a) for a in sys.argv[1:]]


def err(b):
    # unbuffered, as C's stderr: a SIGINT must not lose what was written
    sys.stderr.buffer.write(b)
    sys.stderr.buffer.flush()


def esc(b):
    return ''.join(chr(c) if 0x21 <= c <= 0x7e and c != 0x5c else '\\x%02x' % c for c in b)


with open(os.path.join(STATE, 'calls'), 'a') as f:
    f.write(' '.join(esc(a) for a in argv) + '\n')


class XS:
    def __init__(self):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.connect(SOCK)
        self.req = 0

    def op(self, kind, payload):
        self.req += 1
        self.s.sendall(struct.pack('<4I', kind, self.req, 0, len(payload)) + payload)
        while True:
            head = b''
            while len(head) < 16:
                c = self.s.recv(16 - len(head))
                if not c:
                    raise OSError('xenstored closed the connection')
                head += c
            k, r, _, n = struct.unpack('<4I', head)
            body = b''
            while len(body) < n:
                c = self.s.recv(n - len(body))
                if not c:
                    raise OSError('xenstored closed the connection')
                body += c
            if k == 15:          # a watch event: not ours
                continue
            if k == 16:
                return None
            return body

    def read(self, p):
        return self.op(2, p.encode() + b'\0')

    def ls(self, p):
        r = self.op(1, p.encode() + b'\0')
        return [x.decode() for x in r.split(b'\0') if x] if r else []

    def write(self, p, v):
        self.op(11, p.encode() + b'\0' + v)

    def rm(self, p):
        self.op(13, p.encode() + b'\0')


def domains(xs):
    out = []
    for d in xs.ls('/local/domain'):
        if d.isdigit():
            name = xs.read('/local/domain/%s/name' % d)
            if name is not None:
                out.append((int(d), name.split(b'\0')[0]))
    return sorted(out)


def rules():
    try:
        with open(os.path.join(STATE, 'behave'), 'rb') as f:
            lines = f.read().split(b'\n')
    except FileNotFoundError:
        return []
    out = []
    for line in lines:
        if not line.strip() or line.startswith(b'#'):
            continue
        f = line.split(b'\t')
        out.append([f[0].decode(), codecs.escape_decode(f[1])[0]] + [x.decode() for x in f[2:]])
    return out


def rule(action, name):
    for r in rules():
        if r[0] in (action, '*') and r[1] in (name, b'*'):
            return r[2:]
    return []


def behave(action, name):
    """Apply the rule's fail, delay, hang; return the rule (for never)."""
    r = rule(action, name)
    if r and r[0] == 'fail':
        err(codecs.escape_decode(r[2].encode())[0] + b'\n')
        sys.exit(int(r[1]))
    if r and r[0] == 'hang':
        while True:
            signal.pause()
    if r and r[0] == 'delay' and action != 'shutdown':
        time.sleep(float(r[1]))
    return r


def new_domid():
    p = os.path.join(STATE, 'next-domid')
    try:
        n = int(open(p).read())
    except FileNotFoundError:
        n = 10
    with open(p, 'w') as f:
        f.write('%d\n' % (n + 1))
    return n


def add_domain(xs, name):
    n = new_domid()
    xs.write('/local/domain/%d/domid' % n, str(n).encode())
    xs.write('/local/domain/%d/name' % n, name)
    return n


def config_name(path):
    try:
        text = open(path, 'rb').read()
    except OSError as e:
        sys.stderr.write('Failed to read config file: %s: %s\n' % (path, e.strerror))
        sys.exit(1)
    m = re.search(rb'^[ \t]*name[ \t]*=[ \t]*(["\'])(.*?)\1[ \t]*;?[ \t]*$', text, re.M)
    if not m:
        sys.stderr.write('Parsing config from %s\n' % path)
        sys.stderr.write('domain name must be specified\n')
        sys.exit(1)
    return m.group(2)


def by_id(xs, arg):
    s = arg.decode('utf-8', 'surrogateescape')
    for d, name in domains(xs):
        if s.isdigit() and int(s) == d or s.encode('utf-8', 'surrogateescape') == name:
            return d, name
    sys.stderr.write('%s is an invalid domain identifier (rc=-6)\n' % s)
    sys.exit(1)


def main():
    if not argv:
        sys.stderr.write('Usage xl [-vfNtT] <subcommand> [args]\n')
        sys.exit(1)
    cmd, args = argv[0], argv[1:]
    xs = XS()
    if cmd == b'list':
        doms = domains(xs)
        behave('list', b'*')
        if args == [b'-l']:
            out = [{'domid': d, 'config': {'c_info': {'type': 'pv',
                    'name': n.decode('utf-8', 'surrogateescape')}}} for d, n in doms]
            text = json.dumps(out, indent=4, ensure_ascii=False)
            sys.stdout.buffer.write(text.encode('utf-8', 'surrogateescape') + b'\n')
        else:
            sys.stdout.write('Name                                        ID   Mem VCPUs\tState\tTime(s)\n')
            for d, n in doms:
                sys.stdout.buffer.write(n.ljust(40) + b'%5d   512     1     -b----       0.1\n' % d)
        return 0
    if cmd == b'domid':
        name = args[0] if args else b''
        behave('domid', name)
        for d, n in domains(xs):
            if n == name:
                print(d)
                return 0
        err(b"Can't get domid of domain name '" + name + b"', maybe this domain does not exist.\n")
        return 1
    if cmd == b'create':
        files = [a for a in args if not a.startswith(b'-')]
        cfg = files[-1] if files else b''
        name = config_name(cfg)
        if b'--dryrun' in args or b'-n' in args:
            behave('dryrun', name)
            out = {'c_info': {'type': 'pv', 'name': name.decode('utf-8', 'surrogateescape')}}
            sys.stdout.buffer.write(json.dumps(out, indent=4, ensure_ascii=False)
                                    .encode('utf-8', 'surrogateescape') + b'\n')
            return 0
        behave('create', name)
        add_domain(xs, name)
        return 0
    if cmd == b'save':
        d, name = by_id(xs, args[0])
        err(b'Saving to ' + args[1] + b' new xl format (info 0x3/0x0/1397)\n')
        r = rule('save', name)
        if r and r[0] == 'killxs':
            os.kill(int(open(os.path.join(STATE, 'xenstored-pid')).read()), signal.SIGKILL)
            time.sleep(0.2)
        if r and r[0] == 'partial':
            with open(args[1], 'wb') as f:
                f.write(b'PARTIAL ' + name)
            r = ['fail'] + r[1:]
            err(codecs.escape_decode(r[2].encode())[0] + b'\n')
            sys.exit(int(r[1]))
        behave('save', name)
        with open(args[1], 'wb') as f:
            f.write(name)
        xs.rm('/local/domain/%d' % d)
        return 0
    if cmd == b'restore':
        try:
            name = open(args[0], 'rb').read()
        except OSError as e:
            sys.stderr.write('%s: %s\n' % (os.fsdecode(args[0]), e.strerror))
            return 1
        err(b'Loading new save file ' + args[0] + b' (new xl fmt info 0x3/0x0/1397)\n'
            b' Savefile contains xl domain config in JSON format\n'
            b'Parsing config from <saved>\n')
        if name.startswith(b'PARTIAL '):
            err(b'libxl: error: libxl_stream_read.c:850:libxl__xc_domain_restore_done: '
                b'restoring domain: Input/output error\n')
            return 1
        behave('restore', name)
        add_domain(xs, name)
        return 0
    if cmd == b'migrate':
        d, name = by_id(xs, args[0])
        behave('migrate', name)
        xs.rm('/local/domain/%d' % d)
        return 0
    if cmd == b'shutdown':
        d, name = by_id(xs, args[0])
        r = behave('shutdown', name)
        err(b'Shutting down domain %d\n' % d)
        if r and r[0] == 'never':
            return 0
        if not (r and r[0] == 'delay'):
            xs.rm('/local/domain/%d' % d)   # at once: gone before xl returns
            return 0
        wait = float(r[1])
        if os.fork() == 0:
            # the domain goes by itself later: nothing of the caller's kept open
            os.setsid()
            fd = os.open('/dev/null', os.O_RDWR)
            for i in (0, 1, 2):
                os.dup2(fd, i)
            time.sleep(wait)
            XS().rm('/local/domain/%d' % d)
            os._exit(0)
        return 0
    sys.stderr.write('command not implemented\n')
    return 1


try:
    sys.exit(main())
except OSError as e:
    # xenstored gone (refused, closed, a broken pipe): one line and status 1,
    # as xl fails when libxl loses xenstore (not a traceback)
    err(b'libxl: error: xenstore: ' + str(e).encode() + b'\n')
    sys.exit(1)
