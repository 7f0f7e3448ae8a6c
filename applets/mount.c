/* mount.c - mount helpers for hypervisor shared folders: mount.vboxsf,
 * mount.9p, mount.virtiofs, and mount-shared, which finds a share by its
 * tag and mounts it with the right one.
 *
 * mount(8) runs /sbin/mount.TYPE SPEC DIR [-sfnv] [-o OPTS] [-N NS], with
 * the options after the operands: argv is scanned whole (optscan). The
 * options go through the engine in libcommon/mountopt.c. A numeric-uid
 * vboxsf mount is 5 syscalls from execve to exit_group: execve,
 * arch_prctl, set_tid_address (musl startup), mount, exit_group. Names
 * add openat+read+close of /etc/passwd or /etc/group.
 *
 * Install paths: util-linux looks for helpers in /sbin only
 * (FS_SEARCH_PATH "/sbin:/sbin/fs.d:/sbin/fs"); busybox mount runs
 * "mount.TYPE" through PATH. The helpers are installed at usr/sbin: on a
 * merged-/usr root (Debian 12, any dom0 root) /sbin is a link to usr/sbin,
 * so /sbin/mount.9p is found, and the relative symlink `forkless
 * --install -s` writes there (../bin/forkless) resolves. An install path
 * of sbin/ would break exactly there: the link lands in usr/sbin through
 * the /sbin symlink with the target ../usr/bin/forkless, which resolves
 * to /usr/usr/bin/forkless. An initramfs (no /sbin link) runs busybox
 * mount, which finds usr/sbin through PATH; one that runs util-linux
 * mount needs a /sbin -> usr/sbin link, as every merged-/usr root has.
 */
//applet:MOUNT_VBOXSF mount.vboxsf usr/sbin/mount.vboxsf mount_vboxsf_main 0
//usage:Usage: mount.vboxsf SHARE DIR [-sfnvrwh] [-o OPTS] [-N NS]
//usage:Mount VirtualBox shared folder SHARE on DIR; options in any position.
//usage:  -o OPTS  VFS flags (ro rw nosuid nodev noexec relatime noatime ...),
//usage:           fstab words (dropped: defaults nofail _netdev auto user x-*
//usage:           comment=...) and: nls=CHARSET iocharset=CHARSET uid=USER
//usage:           gid=GROUP ttl=MS dmode=OCT fmode=OCT dmask=OCT fmask=OCT
//usage:           umask=OCT; VirtualBox's driver only (else dropped with a
//usage:           warning): dcachettl=MS inodettl=MS maxiopages=N dirbuf=BYTES
//usage:           cache=default|none|strict|read|readwrite tag=TEXT.
//usage:           nodev is the default (`dev` lifts it)
//usage:  -s  warn about unknown options and drop them   -f  no mount(2) call
//usage:  -v  print the mount(2) call   -n  accepted (no /etc/mtab)
//usage:  -r, -w  read-only, read-write  -N NS  enter mount namespace (path
//usage:      or pid)   -h  this help
//usage:Exit status: 0 ok, 1 usage or bad option, 2 system error,
//usage:32 mount failure.
//applet:MOUNT_9P mount.9p usr/sbin/mount.9p mount_9p_main 0
//usage:Usage: mount.9p TAG DIR [-sfnvrwh] [-o OPTS] [-N NS]
//usage:Mount 9p share TAG on DIR. Defaults: trans=virtio version=9p2000.L
//usage:msize=512000 (trans=xen: 262144, before Linux 5.8 65536).
//usage:  -o OPTS  flags and fstab words as for mount.vboxsf, and
//usage:           trans=virtio|xen|tcp|unix|fd|rdma|usbg
//usage:           version=9p2000|9p2000.u|9p2000.L msize=BYTES (>= 4096)
//usage:           cache=none|loose|fscache|mmap|readahead|writeback
//usage:           access=user|any|client|USER posixacl dfltuid=USER
//usage:           dfltgid=GROUP afid=N uname=NAME aname=PATH cachetag=T
//usage:           nodevmap noextend noxattr directio ignoreqv locktimeout=N
//usage:           debug=N|0xN port=N privport rfdno=N wfdno=N sq=N rq=N
//usage:           timeout=N
//usage:  -s -f -v -n -r -w -N -h  as for mount.vboxsf
//usage:Exit status: 0 ok, 1 usage or bad option, 2 system error,
//usage:32 mount failure.
//applet:MOUNT_VIRTIOFS mount.virtiofs usr/sbin/mount.virtiofs mount_virtiofs_main 0
//usage:Usage: mount.virtiofs TAG DIR [-sfnvrwh] [-o OPTS] [-N NS]
//usage:Mount virtio-fs share TAG on DIR.
//usage:  -o OPTS  flags and fstab words as for mount.vboxsf, and dax
//usage:           dax=always|never|inode
//usage:  -s -f -v -n -r -w -N -h  as for mount.vboxsf
//usage:Exit status: 0 ok, 1 usage or bad option, 2 system error,
//usage:32 mount failure.
//applet:MOUNT_SHARED mount-shared usr/bin/mount-shared mount_shared_main 0
//usage:Usage: mount-shared [-sfnvh] [-t TYPE] [-o OPTS] [-w SECONDS] [-N NS] TAG DIR
//usage:       mount-shared -l
//usage:Find share TAG (virtiofs, virtio 9p, Xen 9pfs, VirtualBox) and mount it
//usage:on DIR as mount.TYPE would.
//usage:  -l          list the tags found: TAG TYPE WHERE
//usage:  -t TYPE     only 9p, virtiofs or vboxsf (Xen: -t 9p -o trans=xen)
//usage:  -o OPTS     options of that type (see mount.TYPE --help)
//usage:  -w SECONDS  wait for TAG to appear (default 5, 0: no wait)
//usage:  -s -f -v -n -N   as for mount.vboxsf
//usage:Exit status: 0 ok, 1 usage or bad option, 2 system error,
//usage:32 mount failure or TAG not found (the tags present are listed).

//config:menu "Mount helpers for hypervisor shared folders"
//config:
//config:config MOUNT_VBOXSF
//config:	bool "mount.vboxsf: VirtualBox shared folders (~13 KiB, engine included)"
//config:	default y
//config:	help
//config:	  A drop-in /sbin/mount.vboxsf for the mainline and VirtualBox
//config:	  vboxsf drivers: options in any position, -s -f -v -n -N,
//config:	  user and group names, fstab words (nofail, _netdev...).
//config:	  The first helper enabled costs ~13 KiB (musl static, -Os):
//config:	  the option engine and its tables (~6 KiB), the messages for
//config:	  each mount(2) errno, /etc/passwd lookup, -N; every further
//config:	  helper adds only its own table and logic (measured: +1.6 KiB
//config:	  mount.9p, +0.3 KiB mount.virtiofs). --help texts add ~0.7
//config:	  KiB per helper when FORKLESS_HELP is set.
//config:
//config:config MOUNT_9P
//config:	bool "mount.9p: 9p shares, virtio and Xen (~1.6 KiB; ~14 KiB alone)"
//config:	default y
//config:	help
//config:	  /sbin/mount.9p with fast defaults (trans=virtio,
//config:	  version=9p2000.L, msize=512000; a ring-sized msize for Xen).
//config:	  Alone it costs ~14 KiB (the shared helper code and option
//config:	  engine); next to mount.vboxsf, ~1.6 KiB.
//config:
//config:config MOUNT_VIRTIOFS
//config:	bool "mount.virtiofs: virtio-fs shares (~0.3 KiB; ~12.5 KiB alone)"
//config:	default y
//config:	help
//config:	  /sbin/mount.virtiofs (dax, dax=always|never|inode). Alone
//config:	  ~12.5 KiB (the shared helper code); next to another helper,
//config:	  ~0.3 KiB.
//config:
//config:config MOUNT_SHARED
//config:	bool "mount-shared: mount a share by its tag (~5 KiB)"
//config:	default y
//config:	help
//config:	  Finds TAG among virtiofs and virtio-9p tags (sysfs), Xen 9pfs
//config:	  tags (xenstore) and, in a VirtualBox guest, vboxsf shares, waits
//config:	  for it at boot (-w), and mounts it with the logic of whichever
//config:	  of the helpers above are enabled. -l lists the tags. Next to
//config:	  the three helpers ~5 KiB; alone ~17 KiB.
//config:
//config:endmenu

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "libcommon.h"
#include "applet.h"   /* find_applet: the -h usage text */
#include "mountopt.h"
#include "mount.h"

enum {
	EXIT_OK = 0,
	EXIT_USAGE = 1,       /* usage error or bad option */
	EXIT_SYSTEM = 2,      /* system error (namespace, passwd, stdout) */
	EXIT_MOUNT = 32,      /* mount(2) failed, share not found */
};

#define MAX_OPTS 32

/* Which filesystem a helper mounts. ENABLE_ first: a configuration
 * without that helper then does not link its option table. */
#define IS_VBOXSF(fs) (ENABLE_MOUNT_VBOXSF && (fs) == &mopt_fs_vboxsf)
#define IS_9P(fs) (ENABLE_MOUNT_9P && (fs) == &mopt_fs_9p)
#define IS_VIRTIOFS(fs) (ENABLE_MOUNT_VIRTIOFS && (fs) == &mopt_fs_virtiofs)
#define P9_VIRTIO_MSIZE "512000"   /* PAGE_SIZE * (VIRTQUEUE_NUM - 3) */
#define P9_XEN_MSIZE "262144"      /* see p9_xen_msize() */
#define P9_XEN_MSIZE_OLD "65536"

struct helper {
	const struct mopt_fs *fs;
	const char *source, *target, *ns;
	const char *opts[MAX_OPTS + 1];   /* + mount-shared's trans=xen */
	unsigned nopts;
	int fake, verbose, sloppy, ro, rw;
	const char *type, *wait;   /* mount-shared: -t, -w */
	int list;                  /* mount-shared: -l */
	unsigned long flags;
	char data[MOPT_DATA_MAX + 1];
	int have_data;
	int xen;              /* 9p with trans=xen */
};

/* ---- messages ---------------------------------------------------------- */

/* An option as shown in a message: control bytes escaped, at most ~60
 * bytes (a 5 KiB option is named, not echoed whole). */
static const char *shown(char *buf, size_t cap, const char *s, size_t len)
{
	size_t max = (cap - 4) / 4;

	escape_octal(buf, cap, s, len > max ? max : len, 0);
	if (len > max)
		memcpy(buf + strlen(buf), "...", 4);
	return buf;
}

static void warn_dropped(struct mopt_ctx *ctx, const char *opt, size_t len,
			 enum mopt_reason why)
{
	char buf[256];

	(void)ctx;
	shown(buf, sizeof(buf), opt, len);
	if (why == MOPT_UNKNOWN)
		warn_msg("ignoring unknown option '", buf, "' (-s)");
	else
		warn_msg("dropping '", buf, "': ", mopt_reason_text(why));
}

static _Noreturn void die_option(const struct mopt_ctx *ctx)
{
	char buf[256], extra[256];

	if (ctx->error == MOPT_TOO_LONG) {
		buf[fmt_u64(buf, ctx->err_len)] = '\0';
		die_msg(EXIT_USAGE, "mount options too long: the ", ctx->fs->type,
			" mount data would be ", buf, " bytes, the kernel takes "
			"at most 4095 (nothing is ever cut)");
	}
	shown(buf, sizeof(buf), ctx->err_opt, ctx->err_len);
	if (ctx->error == MOPT_UNKNOWN)
		die_msg(EXIT_USAGE, "unknown ", ctx->fs->type, " option '", buf,
			"' (see --help; -s drops unknown options)");
	if (ctx->error == MOPT_LOOKUP_FAILED)   /* a system error */
		die_msg(EXIT_SYSTEM, "option '", buf, "': ",
			mopt_reason_text(ctx->error), ": ",
			errno_text(ctx->err_errno));
	mopt_accepted_text(ctx, extra, sizeof(extra));
	die_msg(EXIT_USAGE, "bad option '", buf, "': ",
		mopt_reason_text(ctx->error), extra);
}

/* ---- namespaces -------------------------------------------------------- */

static void enter_mount_ns(const char *ns)
{
	char path[64];
	size_t len = 0;
	uint64_t pid;
	int fd;

	if (parse_u64(ns, &pid) == 0) {
		path[0] = '\0';
		str_append(path, sizeof(path), &len, "/proc/", 6);
		str_append(path, sizeof(path), &len, ns, strlen(ns));
		str_append(path, sizeof(path), &len, "/ns/mnt", 7);
		ns = path;
	}
	fd = openat(AT_FDCWD, ns, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNS) < 0)
		die_msg(EXIT_SYSTEM, "-N ", ns, fd < 0 ? ": " : ": cannot enter "
			"the mount namespace: ", errno_text(errno));
	close(fd);
}

/* ---- the mount --------------------------------------------------------- */

/* Is the filesystem type registered (a "\tTYPE\n" line of
 * /proc/filesystems)? */
static int fs_registered(const char *type)
{
	char buf[8192];
	ssize_t n = read_small_file_close(AT_FDCWD, "/proc/filesystems", buf,
					  sizeof(buf) - 1);
	size_t len = strlen(type);

	for (ssize_t i = 0; i + (ssize_t)len + 1 < n; i++)
		if (buf[i] == '\t' && memcmp(buf + i + 1, type, len) == 0 &&
		    buf[i + 1 + len] == '\n')
			return 1;
	return 0;
}

/* Exit 32 with a message the user can act on. */
static _Noreturn void die_mount(const struct helper *h, int err)
{
	const char *type = h->fs->type;
	const char *src = h->source, *dir = h->target;
	int vbox = IS_VBOXSF(h->fs), p9 = IS_9P(h->fs);
	/* "mounting SRC on DIR: " m[0] m[1] ... */
	const char *m[6] = { errno_text(err), "", "", "", "", "" };
	int fd;

	switch (err) {
	case ENOENT:
	case ENOTDIR:
		fd = openat(AT_FDCWD, dir, O_PATH | O_CLOEXEC);
		if (fd < 0) {
			m[0] = "mount point ";
			m[1] = dir;
			m[2] = ": ";
			m[3] = errno_text(errno);
			break;
		}
		close(fd);
		if (err == ENOTDIR) {
			m[0] = "mount point ";
			m[1] = dir;
			m[2] = " is not a directory";
			break;
		}
		/* fall through */
	case ENXIO:
	case EPROTO:
		if (vbox) {
			m[0] = "the host has no shared folder named '";
			m[1] = src;
			m[2] = "': define it in the VM settings (Shared "
			       "Folders)";
		} else if (p9 && err == ENOENT) {
			m[0] = "no virtio 9p device has the mount tag '";
			m[1] = src;
			m[2] = "' (mount-shared -l lists the tags)";
		}
		break;
	case ENODEV:
		if (!fs_registered(type)) {
			m[0] = "the kernel does not know filesystem type ";
			m[1] = type;
			m[2] = ": load its module (modprobe ";
			m[3] = !p9 ? type : h->xen ? "9p 9pnet_xen"
						   : "9p 9pnet_virtio";
			m[4] = ")";
		} else if (vbox) {
			m[0] = "the vboxsf driver cannot reach the VirtualBox "
			       "guest device (not a VirtualBox VM, or vboxguest "
			       "not loaded; see dmesg)";
		} else {
			m[0] = "no such device (see dmesg)";
		}
		break;
	case EPROTONOSUPPORT:
		if (p9) {
			m[0] = "no 9p transport module loaded (modprobe ";
			m[1] = h->xen ? "9pnet_xen)" : "9pnet_virtio)";
		}
		break;
	case EINVAL:
		m[0] = "the kernel rejected it (EINVAL): ";
		m[1] = IS_VIRTIOFS(h->fs) ? "no virtio-fs device has "
		       "this tag, or an option is wrong" : h->xen ? "no Xen "
		       "9pfs device has this tag, or an option is wrong" :
		       "an option value or the source is wrong";
		m[2] = "; see dmesg | tail";
		break;
	case EBUSY:
		m[0] = dir;
		m[1] = " is busy, or ";
		m[2] = src;
		m[3] = " is already mounted there";
		break;
	case EPERM:
	case EACCES:
		m[0] = "permission denied: mounting needs root (CAP_SYS_ADMIN)";
		break;
	}
	die_msg(EXIT_MOUNT, "mounting ", src, " on ", dir, ": ", m[0], m[1],
		m[2], m[3], m[4], m[5]);
}

/* -h, -v and -l write what was asked for to stdout: a failed write (a
 * full disk, a closed stdout) is a system error, never a silent exit 0;
 * for -v, before anything is mounted. */
static void check_output(int ret)
{
	if (stdout_status(ret))
		_exit(EXIT_SYSTEM);
}

/* mount("SRC", "DIR", "TYPE", FLAGS, "DATA"), as strace shows it. */
static void print_call(const struct helper *h)
{
	char flags[256], src[1024], dir[1024], data[MOPT_DATA_MAX * 4 + 1];

	mopt_flags_text(h->flags, flags, sizeof(flags));
	escape_octal(src, sizeof(src), h->source, strlen(h->source), 0);
	escape_octal(dir, sizeof(dir), h->target, strlen(h->target), 0);
	escape_octal(data, sizeof(data), h->data, strlen(h->data), 0);
	check_output(write_strs(1, "mount(\"", src, "\", \"", dir, "\", \"",
				h->fs->type, "\", ", flags, ", ",
				h->have_data ? "\"" : "",
				h->have_data ? data : "NULL",
				h->have_data ? "\"" : "", ")\n"));
}

/* The number at the start of s, its digits counted in *len (0 when it
 * does not fit 64 bits: no version number is that long). */
static uint64_t leading_number(const char *s, size_t *len)
{
	uint64_t v = 0;

	for (*len = 0; s[*len] >= '0' && s[*len] <= '9'; ++*len)
		;
	if (parse_u64_base(s, *len, 10, &v) < 0)
		*len = 0;
	return v;
}

/* Default msize for trans=xen: a request must fit the shared ring. Since
 * Linux 5.8 (net/9p/trans_xen.c, "9p/xen: increase XEN_9PFS_RING_ORDER")
 * the ring is up to order 9 and the transport caps msize at a quarter of
 * it, 512 KiB, or at half a smaller ring the backend offers; 256 KiB is
 * half of the order-8 ring of older QEMU backends. Before 5.8 the ring was
 * order 6, 128 KiB each way, while maxsize claimed 256 KiB: half the ring. */
static const char *p9_xen_msize(void)
{
	struct utsname u;
	uint64_t major, minor;
	size_t a, b;

	if (uname(&u) < 0)
		return P9_XEN_MSIZE_OLD;
	major = leading_number(u.release, &a);
	if (a == 0 || a > 5 || u.release[a] != '.')
		return P9_XEN_MSIZE_OLD;
	minor = leading_number(u.release + a + 1, &b);
	if (b == 0 || b > 5)
		return P9_XEN_MSIZE_OLD;
	return major > 5 || (major == 5 && minor >= 8) ? P9_XEN_MSIZE
						       : P9_XEN_MSIZE_OLD;
}

/* Options -> flags and data, then mount(2) unless -f. Returns the exit
 * status; with quiet, a failed mount(2) returns 32 (errno set) for the
 * caller to try another way instead of exiting. */
static int run_mount(struct helper *h, int quiet)
{
	struct mopt_ctx ctx;
	long len;

	mopt_init(&ctx, h->fs);
	ctx.sloppy = h->sloppy;
	ctx.warn = warn_dropped;
	/* VirtualBox's helper always adds MS_NODEV; `dev` lifts it. */
	if (IS_VBOXSF(h->fs))
		ctx.flags = MS_NODEV;
	for (unsigned i = 0; i < h->nopts; i++)
		if (mopt_parse(&ctx, h->opts[i], strlen(h->opts[i])) < 0)
			die_option(&ctx);
	if (h->ro)
		ctx.flags |= MS_RDONLY;
	if (h->rw)
		ctx.flags &= ~(unsigned long)MS_RDONLY;
	if (IS_9P(h->fs)) {
		char trans[8];

		mopt_default(&ctx, "trans", "virtio");
		mopt_default(&ctx, "version", "9p2000.L");
		if (mopt_get(&ctx, "trans", trans, sizeof(trans))) {
			h->xen = strcmp(trans, "xen") == 0;
			if (h->xen)
				mopt_default(&ctx, "msize", p9_xen_msize());
			else if (strcmp(trans, "virtio") == 0)
				mopt_default(&ctx, "msize", P9_VIRTIO_MSIZE);
		}
	}
	len = mopt_build(&ctx, h->data, sizeof(h->data));
	if (len < 0)
		die_option(&ctx);
	h->have_data = len > 0;
	h->flags = ctx.flags;
	if (h->verbose)
		print_call(h);
	if (h->fake || mount(h->source, h->target, h->fs->type, h->flags,
			     h->have_data ? h->data : NULL) == 0)
		return EXIT_OK;
	if (quiet)
		return EXIT_MOUNT;
	die_mount(h, errno);
}

/* ---- arguments --------------------------------------------------------- */

static _Noreturn void usage_error(const char *what, const char *arg)
{
	die_msg(EXIT_USAGE, what, arg, " (try ", applet_name, " --help)");
}

/* The options of the helpers, or of mount-shared (shared: -t -w SECONDS
 * -l, no -r -w). Returns the number of operands (argv[1], argv[2]...). */
static int scan_args(struct helper *h, int argc, char **argv, int shared)
{
	struct optscan os;
	int c;

	optscan_init(&os, argc, argv, shared ? "sfnvhlN:o:t:w:"
					     : "sfnvrwhN:o:");
	while ((c = optscan_next(&os)) != -1) {
		char letter[2] = { (char)os.bad_option, '\0' };

		switch (c) {
		case 's': h->sloppy = 1; break;
		case 'f': h->fake = 1; break;
		case 'v': h->verbose = 1; break;
		case 'n': break;   /* no mtab, ever */
		case 'N': h->ns = os.value; break;
		case 't': h->type = os.value; break;
		case 'l': h->list = 1; break;
		case 'r': h->ro = 1; h->rw = 0; break;
		case 'w':
			if (shared) {
				h->wait = os.value;
			} else {
				h->rw = 1;
				h->ro = 0;
			}
			break;
		case 'o':
			if (h->nopts == MAX_OPTS)
				usage_error("too many -o options", "");
			h->opts[h->nopts++] = os.value;
			break;
		case 'h': {
			const struct applet *a = find_applet(applet_name);

			check_output(write_strs(1, a && a->usage[0] ? a->usage
				     : "(help text not configured in)\n"));
			_exit(EXIT_OK);
		}
		case ':':
			usage_error("missing value for -", letter);
		default:
			usage_error("unknown option -", letter);
		}
	}
	return os.noperands;
}

/* SOURCE DIR from the operands (argv[1], argv[2] after optscan), or
 * "missing operand: expected TAG DIR (try ...)". */
static void take_operands(struct helper *h, int n, char **argv,
			  const char *source_name)
{
	if (n != 2)
		die_msg(EXIT_USAGE, n < 2 ? "missing operand" : "too many "
			"operands", ": expected ", source_name, " DIR (try ",
			applet_name, " --help)");
	h->source = argv[1];
	h->target = argv[2];
}

static int helper_main(int argc, char **argv, const struct mopt_fs *fs)
{
	struct helper h;

	memset(&h, 0, sizeof(h));
	h.fs = fs;
	take_operands(&h, scan_args(&h, argc, argv, 0), argv,
		      IS_VBOXSF(fs) ? "SHARE" : "TAG");
	if (h.ns)
		enter_mount_ns(h.ns);
	return run_mount(&h, 0);
}

int mount_vboxsf_main(int argc, char **argv)
{
	return helper_main(argc, argv, &mopt_fs_vboxsf);
}

int mount_9p_main(int argc, char **argv)
{
	return helper_main(argc, argv, &mopt_fs_9p);
}

int mount_virtiofs_main(int argc, char **argv)
{
	return helper_main(argc, argv, &mopt_fs_virtiofs);
}

/* ---- mount-shared: finding a tag --------------------------------------- */

/* Call fn(dirfd, name, ctx) for each entry of dir not starting with '.',
 * until one returns non-zero. getdents64 into a stack buffer: opendir()
 * would pull musl's malloc in (8 KiB) for this one loop. */
typedef int dir_entry_fn(int dirfd, const char *name, void *ctx);

static int for_each_entry(const char *dir, dir_entry_fn *fn, void *ctx)
{
	union { uint64_t align; char buf[4096]; } u;
	int fd = openat(AT_FDCWD, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return 0;
	while (!ret) {
		long n = syscall(SYS_getdents64, fd, u.buf, sizeof(u.buf));

		if (n <= 0)
			break;
		for (long off = 0; off < n && !ret;) {
			/* struct linux_dirent64: ino, off, reclen, type, name */
			const char *rec = u.buf + off;
			unsigned short reclen;

			memcpy(&reclen, rec + 16, sizeof(reclen));
			if (rec[19] != '.')
				ret = fn(fd, rec + 19, ctx);
			off += reclen;
		}
	}
	close(fd);
	return ret;
}

/* dirfd/NAME/FILE into buf: a line of sysfs text, the newline and
 * trailing NULs cut. Returns its length, or -errno. */
static ssize_t read_entry_file(int dirfd, const char *name, const char *file,
			       char *buf, size_t cap)
{
	char path[300];
	size_t len = 0;
	ssize_t n;

	path[0] = '\0';
	if (str_append(path, sizeof(path), &len, name, strlen(name)) < 0 ||
	    str_append(path, sizeof(path), &len, file, strlen(file)) < 0)
		return -ENAMETOOLONG;
	n = read_small_file_close(dirfd, path, buf, cap - 1);
	if (n < 0)
		return n;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\0'))
		n--;
	buf[n] = '\0';
	return n;
}

/* Does dirfd/NAME/FILE read as text? */
static int entry_file_is(int dirfd, const char *name, const char *file,
			 const char *text)
{
	char buf[32];

	return read_entry_file(dirfd, name, file, buf, sizeof(buf)) > 0 &&
	       strcmp(buf, text) == 0;
}

struct tag_scan {
	const char *file;     /* "/tag" */
	int virtio_only;      /* only entries named virtio* */
	share_fn *fn;
	void *ctx;
	enum share_kind kind;
};

static int scan_tag_entry(int dirfd, const char *name, void *ctx)
{
	struct tag_scan *ts = ctx;
	char tag[SHARE_TAG_MAX];

	for (int i = 0; ts->virtio_only && i < 6; i++)
		if (name[i] != "virtio"[i])
			return 0;
	if (read_entry_file(dirfd, name, ts->file, tag, sizeof(tag)) > 0)
		return ts->fn(ts->ctx, ts->kind, tag, name);
	return 0;
}

static int count_virtiofs_entry(int dirfd, const char *name, void *ctx)
{
	if (entry_file_is(dirfd, name, "/device", "0x001a"))
		++*(int *)ctx;
	return 0;
}

/* virtio devices of class virtio-fs (id 26) that sysfs shows no tag of
 * (kernels before 6.9). */
static int count_untagged_virtiofs(void)
{
	int n = 0;

	if (access("/sys/fs/virtiofs", F_OK) == 0)
		return 0;
	for_each_entry("/sys/bus/virtio/devices", count_virtiofs_entry, &n);
	return n;
}

static int vbox_pci_entry(int dirfd, const char *name, void *ctx)
{
	(void)ctx;
	return entry_file_is(dirfd, name, "/vendor", "0x80ee") &&
	       entry_file_is(dirfd, name, "/device", "0xcafe");
}

/* A VirtualBox guest: the guest driver's device node, or its PCI device
 * (vendor 0x80ee, device 0xcafe, "VirtualBox Guest Service"). */
static int in_virtualbox(void)
{
	return access("/dev/vboxguest", F_OK) == 0 ||
	       for_each_entry("/sys/bus/pci/devices", vbox_pci_entry, NULL);
}

int for_each_share(unsigned kinds, share_fn *fn, void *ctx)
{
	struct tag_scan ts = { "/tag", 0, fn, ctx, SHARE_VIRTIOFS };
	int ret = 0;

	if (kinds & (1u << SHARE_VIRTIOFS))
		ret = for_each_entry("/sys/fs/virtiofs", scan_tag_entry, &ts);
	ts.file = "/mount_tag";
	ts.virtio_only = 1;
	ts.kind = SHARE_9P_VIRTIO;
	if (!ret && kinds & (1u << SHARE_9P_VIRTIO))
		ret = for_each_entry("/sys/bus/virtio/drivers/9pnet_virtio",
				     scan_tag_entry, &ts);
	if (!ret && kinds & (1u << SHARE_9P_XEN))
		ret = xenstore_9pfs_tags(fn, ctx);
	return ret;
}

/* ---- mount-shared ------------------------------------------------------ */

/* TYPE and WHERE of each kind in -l lines. */
static const char kind_text[][18] = {
	[SHARE_VIRTIOFS] = "virtiofs\tvirtiofs",
	[SHARE_9P_VIRTIO] = "9p\tvirtio",
	[SHARE_9P_XEN] = "9p\txen",
	[SHARE_VBOXSF] = "vboxsf\tvirtualbox",
};

struct find {
	const char *tag;
	int found;                 /* kind + 1 */
	struct outbuf *list;       /* -l, or the tags for a message */
	unsigned count;
};

static int on_share(void *ctx, enum share_kind kind, const char *tag,
		    const char *dev)
{
	struct find *f = ctx;

	f->count++;
	if (f->list) {
		char shown_tag[SHARE_TAG_MAX * 4];

		escape_octal(shown_tag, sizeof(shown_tag), tag, strlen(tag), 1);
		outbuf_puts(f->list, shown_tag);
		outbuf_putc(f->list, '\t');
		outbuf_puts(f->list, kind_text[kind]);
		outbuf_putc(f->list, ':');
		outbuf_puts(f->list, dev);
		outbuf_putc(f->list, '\n');
		return 0;
	}
	if (f->tag && strcmp(f->tag, tag) == 0) {
		f->found = (int)kind + 1;
		return 1;
	}
	return 0;
}

static const struct mopt_fs *fs_of_kind(enum share_kind kind)
{
	if (kind == SHARE_VIRTIOFS)
		return ENABLE_MOUNT_VIRTIOFS ? &mopt_fs_virtiofs : NULL;
	if (kind == SHARE_VBOXSF)
		return ENABLE_MOUNT_VBOXSF ? &mopt_fs_vboxsf : NULL;
	return ENABLE_MOUNT_9P ? &mopt_fs_9p : NULL;
}

/* The kinds to look at: all enabled, or those of -t (and trans=xen). */
static unsigned wanted_kinds(const struct helper *h)
{
	unsigned all = 0;
	int xen = 0;

	/* The last trans= of the -o options (the engine's rules; a quote
	 * left open is refused when the options are parsed). */
	for (unsigned i = 0; i < h->nopts; i++)
		for (const char *p = h->opts[i]; *p;) {
			int open_quote;
			size_t n = mopt_option_len(p, strlen(p), &open_quote);

			if (n > 6 && memcmp(p, "trans=", 6) == 0)
				xen = n == 9 && memcmp(p + 6, "xen", 3) == 0;
			p += n + (p[n] == ',');
		}
	if (ENABLE_MOUNT_VIRTIOFS)
		all |= 1u << SHARE_VIRTIOFS;
	if (ENABLE_MOUNT_9P)
		all |= xen ? 1u << SHARE_9P_XEN
			   : 1u << SHARE_9P_VIRTIO | 1u << SHARE_9P_XEN;
	if (ENABLE_MOUNT_VBOXSF)
		all |= 1u << SHARE_VBOXSF;
	if (!h->type)
		return all;
	if (strcmp(h->type, "9p") == 0)
		return all & (1u << SHARE_9P_VIRTIO | 1u << SHARE_9P_XEN);
	if (strcmp(h->type, "virtiofs") == 0)
		return all & 1u << SHARE_VIRTIOFS;
	if (strcmp(h->type, "vboxsf") == 0)
		return all & 1u << SHARE_VBOXSF;
	die_msg(EXIT_USAGE, "-t ", h->type, ": not a type mount-shared "
		"handles (9p, virtiofs, vboxsf, as configured in)");
}

static void list_tags(unsigned kinds, struct outbuf *ob)
{
	struct find f = { NULL, 0, ob, 0 };
	int untagged = (kinds & 1u << SHARE_VIRTIOFS) ?
		count_untagged_virtiofs() : 0;

	for_each_share(kinds, on_share, &f);
	if (untagged) {
		char num[24];
		num[fmt_u64(num, (uint64_t)untagged)] = '\0';
		outbuf_puts(ob, "?\tvirtiofs\tvirtiofs:");
		outbuf_puts(ob, num);
		outbuf_puts(ob, " device(s), tags not shown by this kernel "
			    "(< 6.9)\n");
	}
	if (kinds & 1u << SHARE_VBOXSF && in_virtualbox())
		outbuf_puts(ob, "*\tvboxsf\tvirtualbox:shared folder names "
			    "are not listed; any name is tried\n");
}

/* 100 ms, as a raw nanosleep (musl's adds clock_nanosleep's code). */
static void sleep_100ms(void)
{
	struct timespec ts = { 0, 100000000L };

	while (syscall(SYS_nanosleep, &ts, &ts) < 0 && errno == EINTR)
		;
}

int mount_shared_main(int argc, char **argv)
{
	struct helper h;
	struct find f;
	struct outbuf ob;
	uint64_t wait_s = 5;
	unsigned kinds;
	int n, vbox = -1, tried = 0;   /* tried: untagged virtio-fs devices */

	memset(&h, 0, sizeof(h));
	n = scan_args(&h, argc, argv, 1);
	if (h.wait && (parse_u64(h.wait, &wait_s) < 0 || wait_s > 86400))
		usage_error("-w wants a number of seconds (0..86400), not ",
			    h.wait);
	if (h.ns)
		enter_mount_ns(h.ns);
	kinds = wanted_kinds(&h);
	if (h.list) {
		if (n != 0)
			usage_error("-l takes no operands", "");
		outbuf_init(&ob, 1);
		list_tags(kinds, &ob);
		check_output(outbuf_flush(&ob));
		return EXIT_OK;
	}
	take_operands(&h, n, argv, "TAG");

	/* Poll every 100 ms: at boot the device may not be probed yet. The
	 * shares no walk lists are tried by name as soon as their device is
	 * there, not after the wait: VirtualBox shared folders (the guest
	 * device is enumerated before userspace runs, so it is looked for
	 * once) and virtio-fs devices whose tags the kernel does not show
	 * (before 6.9; tried again when another one appears). */
	for (uint64_t polls = wait_s * 10;; polls--) {
		int untagged;

		memset(&f, 0, sizeof(f));
		f.tag = h.source;
		for_each_share(kinds, on_share, &f);
		if (f.found)
			break;
		if (ENABLE_MOUNT_VIRTIOFS && kinds & 1u << SHARE_VIRTIOFS &&
		    (untagged = count_untagged_virtiofs()) > tried) {
			tried = untagged;
			h.fs = &mopt_fs_virtiofs;
			if (run_mount(&h, 1) == EXIT_OK)
				return EXIT_OK;
		}
		if (vbox < 0)
			vbox = ENABLE_MOUNT_VBOXSF &&
			       kinds & 1u << SHARE_VBOXSF && in_virtualbox();
		if (vbox || polls == 0)
			break;
		sleep_100ms();
	}
	if (f.found) {
		h.fs = fs_of_kind((enum share_kind)(f.found - 1));
		if (f.found - 1 == SHARE_9P_XEN)
			h.opts[h.nopts++] = "trans=xen";   /* its slot is free */
		return run_mount(&h, 0);
	}
	if (vbox) {
		h.fs = &mopt_fs_vboxsf;
		return run_mount(&h, 0);
	}
	/* The message lists the tags that do exist. */
	outbuf_init(&ob, 2);
	outbuf_puts(&ob, applet_name);
	outbuf_puts(&ob, ": no share with tag '");
	outbuf_puts(&ob, h.source);
	outbuf_puts(&ob, "' found");
	if (wait_s) {
		char num[24];
		num[fmt_u64(num, wait_s)] = '\0';
		outbuf_puts(&ob, " after waiting ");
		outbuf_puts(&ob, num);
		outbuf_puts(&ob, " s");
	}
	/* f.count: the tags the last (complete) walk saw */
	if (f.count == 0 && !count_untagged_virtiofs()) {
		outbuf_puts(&ob, "; no 9p, virtiofs, Xen 9pfs or VirtualBox "
			    "share is visible (are the modules loaded?)\n");
	} else {
		outbuf_puts(&ob, "; the tags present are (TAG TYPE WHERE):\n");
		list_tags(kinds, &ob);
	}
	outbuf_flush(&ob);
	return EXIT_MOUNT;
}
