// SPDX-License-Identifier: MIT
/* mount.c - mount helpers for hypervisor shared folders: mount.vboxsf,
 * mount.9p, mount.virtiofs. The family's other files: mountopt.c (the
 * option engine and its tables), mount-shared.c (mount-shared: finds a
 * share by its tag and mounts it through mount_run() here).
 *
 * helper_main() scans argv (mount_common_option() for the letters all
 * mount applets share), then mount_run() parses the options (mountopt.c)
 * and calls mount(2); die_mount() turns its errno into a message.
 *
 * mount(8) runs /sbin/mount.TYPE SPEC DIR [-sfnv] [-o OPTS] [-N NS], with
 * the options after the operands: argv is scanned whole (optscan), and
 * --help is taken in any position (OWN_HELP: the dispatcher leaves it to
 * the applet, whose exit codes say 2 when stdout cannot be written). A numeric-uid
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
//applet:MOUNT_VBOXSF mount.vboxsf usr/sbin/mount.vboxsf mount_vboxsf_main OWN_HELP
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
//exit:0 mounted (with -f: would have mounted)
//exit:1 usage or bad option
//exit:2 system error
//exit:32 mount failure
//replaces:VirtualBox's `mount.vboxsf`
//messages:`HELPER: WHAT: WHY` on stderr, naming the option or path; `-v` prints the mount(2) call. Details: [mount.md](mount.md)
//applet:MOUNT_9P mount.9p usr/sbin/mount.9p mount_9p_main OWN_HELP
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
//exit:0 mounted (with -f: would have mounted)
//exit:1 usage or bad option
//exit:2 system error
//exit:32 mount failure
//replaces:nothing: `mount -t TYPE` passes `-o` to the kernel unchecked
//messages:`HELPER: WHAT: WHY` on stderr, naming the option or path; `-v` prints the mount(2) call. Details: [mount.md](mount.md)
//applet:MOUNT_VIRTIOFS mount.virtiofs usr/sbin/mount.virtiofs mount_virtiofs_main OWN_HELP
//usage:Usage: mount.virtiofs TAG DIR [-sfnvrwh] [-o OPTS] [-N NS]
//usage:Mount virtio-fs share TAG on DIR.
//usage:  -o OPTS  flags and fstab words as for mount.vboxsf, and dax
//usage:           dax=always|never|inode
//usage:  -s -f -v -n -r -w -N -h  as for mount.vboxsf
//exit:0 mounted (with -f: would have mounted)
//exit:1 usage or bad option
//exit:2 system error
//exit:32 mount failure
//replaces:nothing: `mount -t TYPE` passes `-o` to the kernel unchecked
//messages:`HELPER: WHAT: WHY` on stderr, naming the option or path; `-v` prints the mount(2) call. Details: [mount.md](mount.md)
//config:config MOUNT_VBOXSF
//config:	bool "mount.vboxsf: VirtualBox shared folders (~1.3 KiB; ~13 KiB alone)"
//config:	default y
//config:	help
//config:	  A drop-in /sbin/mount.vboxsf for the mainline and VirtualBox
//config:	  vboxsf drivers: options in any position, -s -f -v -n -N,
//config:	  user and group names, fstab words (nofail, _netdev...).
//config:	  The first helper enabled costs ~13 KiB (musl static, -Os):
//config:	  the option engine and its tables, the messages for each
//config:	  mount(2) errno, /etc/passwd lookup, -N; every further helper
//config:	  adds only its own table and logic (the first figure above).
//config:	  --help texts add ~0.7 KiB per helper with FORKLESS_HELP.
//config:
//config:config MOUNT_9P
//config:	bool "mount.9p: 9p shares, virtio and Xen (~2.3 KiB; ~14 KiB alone)"
//config:	default y
//config:	select ERRNO_TEXTS_NET
//config:	help
//config:	  /sbin/mount.9p with fast defaults (trans=virtio,
//config:	  version=9p2000.L, msize=512000; a ring-sized msize for Xen).
//config:	  Alone it costs ~14 KiB (the shared helper code and option
//config:	  engine); next to the other helpers, ~2.3 KiB.
//config:
//config:config MOUNT_VIRTIOFS
//config:	bool "mount.virtiofs: virtio-fs shares (~0.6 KiB; ~13 KiB alone)"
//config:	default y
//config:	help
//config:	  /sbin/mount.virtiofs (dax, dax=always|never|inode). Alone
//config:	  ~13 KiB (the shared helper code); next to another helper,
//config:	  ~0.6 KiB.

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "applet.h"   /* find_applet: the -h usage text */
#include "mount.h"

#define P9_VIRTIO_MSIZE "512000"   /* PAGE_SIZE * (VIRTQUEUE_NUM - 3) */
#define P9_XEN_MSIZE "262144"      /* see p9_xen_msize() */
#define P9_XEN_MSIZE_OLD "65536"

/* ---- messages ---------------------------------------------------------- */

static void warn_dropped(struct mopt_ctx *ctx, const char *opt, size_t len,
			 enum mopt_reason why)
{
	char buf[SHOWN_MAX];

	(void)ctx;
	shown_input(buf, sizeof(buf), opt, len);
	if (why == MOPT_UNKNOWN)
		warn_msg("ignoring unknown option '", buf, "' (-s)");
	else
		warn_msg("dropping '", buf, "': ", mopt_reason_text(why));
}

static _Noreturn void die_option(const struct mopt_ctx *ctx)
{
	char buf[SHOWN_MAX], extra[256];

	if (ctx->error == MOPT_TOO_LONG) {
		buf[fmt_u64_base(buf, ctx->err_len, 10)] = '\0';
		die_msg(MNT_EX_USAGE, "mount options too long: the ", ctx->fs->type,
			" mount data would be ", buf, " bytes, the kernel takes "
			"at most 4095 (nothing is ever cut)");
	}
	shown_input(buf, sizeof(buf), ctx->err_opt, ctx->err_len);
	if (ctx->error == MOPT_UNKNOWN)
		die_usage(MNT_EX_USAGE, "unknown ", ctx->fs->type, " option '", buf,
			  "'; -s drops unknown options");
	if (ctx->error == MOPT_LOOKUP_FAILED && ctx->err_file &&
	    ctx->err_errno == EINVAL) {   /* read, but wrong: a system error */
		extra[fmt_u64_base(extra, ctx->err_line, 10)] = '\0';
		die_msg(MNT_EX_SYSERR, "option '", buf, "': ", ctx->err_file,
			" line ", extra, ": malformed id (not a number up to "
			"4294967294)");
	}
	if (ctx->error == MOPT_LOOKUP_FAILED && ctx->err_file)
		die_msg(MNT_EX_SYSERR, "option '", buf, "': cannot read ",
			ctx->err_file, ": ", ctx->err_errno == EBADFD ?
			"not a regular file" : errno_text(ctx->err_errno));
	if (ctx->error == MOPT_LOOKUP_FAILED)   /* another resolver's */
		die_msg(MNT_EX_SYSERR, "option '", buf, "': ",
			mopt_reason_text(ctx->error), ": ",
			errno_text(ctx->err_errno));
	mopt_accepted_text(ctx, extra, sizeof(extra));
	die_msg(MNT_EX_USAGE, "bad option '", buf, "': ",
		mopt_reason_text(ctx->error), extra);
}

void mount_check_output(int ret)
{
	if (stdout_status(ret))
		_exit(MNT_EX_SYSERR);
}

/* ---- the command line -------------------------------------------------- */

void mount_common_option(struct helper *h, const struct optscan *os, int c)
{
	switch (c) {
	case 's': h->sloppy = 1; return;
	case 'f': h->fake = 1; return;
	case 'v': h->verbose = 1; return;
	case 'n': return;   /* no mtab, ever */
	case 'h': break;
	case 'N': h->ns = os->value; return;
	case 'o':
		if (h->nopts == MAX_OPTS)
			die_usage(MNT_EX_USAGE, "too many -o options");
		h->opts[h->nopts++] = os->value;
		return;
	case ':':
	case '?':
		if (strcmp(os->argv[os->index - 1], "--help") != 0)
			die_optscan(MNT_EX_USAGE, os, c);
	}
	/* -h, --help */
	const struct applet *a = find_applet(applet_name);

	mount_check_output(write_strs(1, a && a->usage[0] ? a->usage
				      : "(help text not configured in)\n"));
	_exit(MNT_EX_SUCCESS);
}

void mount_take_operands(struct helper *h, int n, char **argv,
			 const char *source_name)
{
	if (n != 2)
		die_usage(MNT_EX_USAGE, n < 2 ? "missing operand" : "too many "
			  "operands", ": expected ", source_name, " DIR");
	h->source = argv[1];
	h->target = argv[2];
}

/* ---- namespaces -------------------------------------------------------- */

void mount_enter_ns(const char *ns)
{
	char path[64], buf[SHOWN_MAX];
	size_t len = 0;
	uint64_t pid;
	int fd;

	if (parse_u64(ns, &pid) == 0) {
		path[0] = '\0';
		str_append(path, sizeof(path), &len, LIT("/proc/"));
		str_append(path, sizeof(path), &len, ns, strlen(ns));
		str_append(path, sizeof(path), &len, LIT("/ns/mnt"));
		ns = path;
	}
	fd = openat(AT_FDCWD, ns, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNS) < 0)
		die_msg(MNT_EX_SYSERR, "-N ", shown_input(buf, sizeof(buf), ns,
			strlen(ns)), fd < 0 ? ": " : ": cannot enter the "
			"mount namespace: ", errno_text(errno));
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

/* The why of die_mount's message (m, as there) for ENOENT, ENOTDIR,
 * ENXIO, EPROTO: the mount point (it cannot be opened, or is no
 * directory), else no share of that name. */
static void explain_missing(const struct helper *h, int err, const char *src,
			    const char *dir, const char **m)
{
	int fd;

	if (err == ENOENT || err == ENOTDIR) {
		fd = openat(AT_FDCWD, h->target, O_PATH | O_CLOEXEC);
		if (fd < 0) {
			m[0] = "mount point ";
			m[1] = dir;
			m[2] = ": ";
			m[3] = errno_text(errno);
			return;
		}
		close(fd);
		if (err == ENOTDIR) {
			m[0] = "mount point ";
			m[1] = dir;
			m[2] = " is not a directory";
			return;
		}
	}
	if (IS_VBOXSF(h->fs)) {
		m[0] = "the host has no shared folder named '";
		m[1] = src;
		m[2] = "': define it in the VM settings (Shared "
		       "Folders)";
	} else if (IS_9P(h->fs) && err == ENOENT) {
		m[0] = "no virtio 9p device has the mount tag '";
		m[1] = src;
		m[2] = "' (mount-shared -l lists the tags)";
	}
}

/* ... for ENODEV: the filesystem type unknown to the kernel, or its
 * device out of reach. */
static void explain_no_device(const struct helper *h, const char **m)
{
	const char *type = h->fs->type;

	if (!fs_registered(type)) {
		m[0] = "the kernel does not know filesystem type ";
		m[1] = type;
		m[2] = ": load its module (modprobe ";
		m[3] = !IS_9P(h->fs) ? type : h->xen ? "9p 9pnet_xen"
						     : "9p 9pnet_virtio";
		m[4] = ")";
	} else if (IS_VBOXSF(h->fs)) {
		m[0] = "the vboxsf driver cannot reach the VirtualBox "
		       "guest device (not a VirtualBox VM, or vboxguest "
		       "not loaded; see dmesg)";
	} else {
		m[0] = "no such device (see dmesg)";
	}
}

/* Exit 32 with a message the user can act on. */
static _Noreturn void die_mount(const struct helper *h, int err)
{
	char src[SHOWN_MAX], dir[SHOWN_MAX];
	/* "mounting SRC on DIR: " m[0] m[1] ... */
	const char *m[6] = { errno_text(err), "", "", "", "", "" };

	shown_input(src, sizeof(src), h->source, strlen(h->source));
	shown_input(dir, sizeof(dir), h->target, strlen(h->target));
	switch (err) {
	case ENOENT:
	case ENOTDIR:
	case ENXIO:
	case EPROTO:
		explain_missing(h, err, src, dir, m);
		break;
	case ENODEV:
		explain_no_device(h, m);
		break;
	case EPROTONOSUPPORT:
		if (IS_9P(h->fs)) {
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
	die_msg(MNT_EX_FAIL, "mounting ", src, " on ", dir, ": ", m[0], m[1],
		m[2], m[3], m[4], m[5]);
}

/* s in double quotes, escaped as strace does (escape_c), whole: in pieces,
 * which per-byte escaping allows. */
static void put_quoted(struct outbuf *ob, const char *s)
{
	char esc[4 * 64 + 1];
	size_t len = strlen(s);

	outbuf_putc(ob, '"');
	for (size_t i = 0; i < len; i += 64)
		outbuf_put(ob, esc, escape_c(esc, sizeof(esc), s + i,
					     len - i < 64 ? len - i : 64));
	outbuf_putc(ob, '"');
}

/* -v: mount("SRC", "DIR", "TYPE", FLAGS, "DATA"), as strace shows it;
 * written before anything is mounted, and a failed write is exit 2. */
static void print_call(const struct helper *h)
{
	struct outbuf ob;
	char flags[256];

	mopt_flags_text(h->flags, flags, sizeof(flags));
	outbuf_init(&ob, 1);
	outbuf_puts(&ob, "mount(");
	put_quoted(&ob, h->source);
	outbuf_puts(&ob, ", ");
	put_quoted(&ob, h->target);
	outbuf_puts(&ob, ", \"");
	outbuf_puts(&ob, h->fs->type);
	outbuf_puts(&ob, "\", ");
	outbuf_puts(&ob, flags);
	outbuf_puts(&ob, ", ");
	if (h->have_data)
		put_quoted(&ob, h->data);
	else
		outbuf_puts(&ob, "NULL");
	outbuf_puts(&ob, ")\n");
	mount_check_output(outbuf_flush(&ob));
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

int mount_run(struct helper *h, int quiet)
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
		return MNT_EX_SUCCESS;
	if (quiet)
		return MNT_EX_FAIL;
	die_mount(h, errno);
}

/* ---- the helpers ------------------------------------------------------- */

static int helper_main(int argc, char **argv, const struct mopt_fs *fs)
{
	struct helper h;
	struct optscan os;
	int c;

	memset(&h, 0, sizeof(h));
	h.fs = fs;
	optscan_init(&os, argc, argv, "sfnvrwhN:o:");
	while ((c = optscan_next(&os)) != -1) {
		if (c == 'r') {
			h.ro = 1;
			h.rw = 0;
		} else if (c == 'w') {
			h.rw = 1;
			h.ro = 0;
		} else {
			mount_common_option(&h, &os, c);
		}
	}
	mount_take_operands(&h, os.noperands, argv,
			    IS_VBOXSF(fs) ? "SHARE" : "TAG");
	if (h.ns)
		mount_enter_ns(h.ns);
	return mount_run(&h, 0);
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
