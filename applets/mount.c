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
//usage:
//usage:Mount the VirtualBox shared folder SHARE on DIR (what `mount -t vboxsf`
//usage:runs). Options may come in any position.
//usage:
//usage:  -o OPTS  comma-separated options (may be repeated): VFS flags (ro rw
//usage:           nosuid nodev noexec relatime noatime ...), fstab words that
//usage:           are dropped (defaults nofail _netdev auto noauto user x-*
//usage:           comment=), and vboxsf options:
//usage:             nls=CHARSET (iocharset= too)  uid=USER  gid=GROUP
//usage:             ttl=MS  dmode=OCT  fmode=OCT  dmask=OCT  fmask=OCT
//usage:             umask=OCT (dmask and fmask)
//usage:           VirtualBox's own driver only (dropped with a warning when
//usage:           the mainline driver is loaded):
//usage:             dcachettl=MS inodettl=MS maxiopages=N dirbuf=BYTES
//usage:             cache=default|none|strict|read|readwrite tag=TEXT
//usage:           USER and GROUP are numbers or names (/etc/passwd, /etc/group).
//usage:           nodev is the default, as VirtualBox's helper does; `dev`
//usage:           lifts it.
//usage:  -s       sloppy: warn about unknown options and drop them
//usage:  -f       fake: do everything but the mount(2) call
//usage:  -v       print the mount(2) call made
//usage:  -n       accepted for mount(8); /etc/mtab is never written
//usage:  -r, -w   read-only, read-write
//usage:  -N NS    mount in the mount namespace NS (a path or a pid)
//usage:  -h       this help
//usage:
//usage:Exit status: 0 ok, 1 usage or bad option, 2 system error,
//usage:32 mount failure.
//applet:MOUNT_9P mount.9p usr/sbin/mount.9p mount_9p_main 0
//usage:Usage: mount.9p TAG DIR [-sfnvrwh] [-o OPTS] [-N NS]
//usage:
//usage:Mount the 9p share TAG on DIR (what `mount -t 9p` runs). Defaults
//usage:when not given: trans=virtio, version=9p2000.L, and msize=512000
//usage:(the virtio ring's limit) for trans=virtio or 262144 for trans=xen
//usage:(65536 on kernels before 5.8, whose Xen ring is smaller). cache= is
//usage:left to you: cache=loose (or fscache) is much faster for read-mostly
//usage:shares.
//usage:
//usage:  -o OPTS  VFS flags and fstab words as for mount.vboxsf, and
//usage:             trans=virtio|xen|tcp|unix|fd|rdma|usbg
//usage:             version=9p2000|9p2000.u|9p2000.L  msize=BYTES (>= 4096)
//usage:             cache=none|loose|fscache|mmap|readahead|writeback
//usage:             access=user|any|client|USER  posixacl  dfltuid=USER
//usage:             dfltgid=GROUP  afid=N  uname=NAME  aname=PATH  cachetag=T
//usage:             nodevmap noextend noxattr directio ignoreqv locktimeout=N
//usage:             debug=N|0xN  port=N  privport  rfdno=N  wfdno=N  sq=N
//usage:             rq=N  timeout=N
//usage:  -s -f -v -n -r -w -N -h   as for mount.vboxsf
//usage:
//usage:Exit status: 0 ok, 1 usage or bad option, 2 system error,
//usage:32 mount failure.
//applet:MOUNT_VIRTIOFS mount.virtiofs usr/sbin/mount.virtiofs mount_virtiofs_main 0
//usage:Usage: mount.virtiofs TAG DIR [-sfnvrwh] [-o OPTS] [-N NS]
//usage:
//usage:Mount the virtio-fs share TAG on DIR (what `mount -t virtiofs` runs).
//usage:
//usage:  -o OPTS  VFS flags and fstab words as for mount.vboxsf, and
//usage:             dax  dax=always|never|inode
//usage:  -s -f -v -n -r -w -N -h   as for mount.vboxsf
//usage:
//usage:Exit status: 0 ok, 1 usage or bad option, 2 system error,
//usage:32 mount failure.
//applet:MOUNT_SHARED mount-shared usr/bin/mount-shared mount_shared_main 0
//usage:Usage: mount-shared [-sfnvh] [-t TYPE] [-o OPTS] [-w SECONDS] [-N NS] TAG DIR
//usage:       mount-shared -l
//usage:
//usage:Find which hypervisor share offers TAG and mount it on DIR with the
//usage:matching helper's logic and defaults. Looked up in this order:
//usage:  virtiofs     /sys/fs/virtiofs/*/tag (Linux 6.9+; on older kernels
//usage:               virtio-fs devices are seen but their tags are not, and
//usage:               TAG is tried on them last)
//usage:  9p (virtio)  /sys/bus/virtio/drivers/9pnet_virtio/*/mount_tag
//usage:  9p (Xen)     device/9pfs/*/tag in xenstore, through /dev/xen/xenbus
//usage:  vboxsf       in a VirtualBox guest (/dev/vboxguest, or PCI device
//usage:               80ee:cafe): any TAG is tried as a shared folder name
//usage:
//usage:  -l          list the tags found, one per line: TAG TYPE WHERE
//usage:  -t TYPE     only 9p, virtiofs or vboxsf (`-t 9p -o trans=xen`: Xen)
//usage:  -o OPTS     options for that filesystem (see its mount.TYPE --help)
//usage:  -w SECONDS  wait up to SECONDS for TAG to appear (default 5, 0: no
//usage:              wait), polling sysfs every 100 ms: at boot the device
//usage:              may not be probed yet
//usage:  -s -f -v -n -N   as for mount.vboxsf
//usage:
//usage:Exit status: 0 ok, 1 usage or bad option, 2 system error,
//usage:32 mount failure or TAG not found (the tags present are listed).

//config:menu "Mount helpers for hypervisor shared folders"
//config:
//config:config MOUNT_VBOXSF
//config:	bool "mount.vboxsf: VirtualBox shared folders (~19.5 KiB, engine included)"
//config:	default y
//config:	help
//config:	  A drop-in /sbin/mount.vboxsf for the mainline and VirtualBox
//config:	  vboxsf drivers: options in any position, -s -f -v -n -N,
//config:	  user and group names, fstab words (nofail, _netdev...).
//config:	  The first helper enabled costs ~19 KiB (musl static, -Os):
//config:	  the option engine and its tables (~8 KiB), the messages for
//config:	  each mount(2) errno, /etc/passwd lookup, -N; every further
//config:	  helper adds only its own table (measured: +1.1 KiB mount.9p,
//config:	  +0.5 KiB mount.virtiofs).
//config:
//config:config MOUNT_9P
//config:	bool "mount.9p: 9p shares, virtio and Xen (~1.1 KiB; ~19 KiB alone)"
//config:	default y
//config:	help
//config:	  /sbin/mount.9p with fast defaults (trans=virtio,
//config:	  version=9p2000.L, msize=512000; a ring-sized msize for Xen).
//config:	  Alone it costs ~19 KiB (the shared helper code and option
//config:	  engine); next to mount.vboxsf, ~1.1 KiB.
//config:
//config:config MOUNT_VIRTIOFS
//config:	bool "mount.virtiofs: virtio-fs shares (~0.5 KiB; ~18.5 KiB alone)"
//config:	default y
//config:	help
//config:	  /sbin/mount.virtiofs (dax, dax=always|never|inode). Alone
//config:	  ~18.5 KiB (the shared helper code); next to another helper,
//config:	  ~0.5 KiB.
//config:
//config:config MOUNT_SHARED
//config:	bool "mount-shared: mount a share by its tag (~8 KiB)"
//config:	default y
//config:	help
//config:	  Finds TAG among virtiofs and virtio-9p tags (sysfs), Xen 9pfs
//config:	  tags (xenstore) and, in a VirtualBox guest, vboxsf shares, waits
//config:	  for it at boot (-w), and mounts it with the logic of whichever
//config:	  of the helpers above are enabled. -l lists the tags.
//config:
//config:endmenu

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "libcommon.h"
#include "mountopt.h"
#include "mount.h"

enum {
	EXIT_OK = 0,
	EXIT_USAGE = 1,       /* usage error or bad option */
	EXIT_SYSTEM = 2,      /* system error (namespace, passwd) */
	EXIT_MOUNT = 32,      /* mount(2) failed, share not found */
};

#define MAX_OPTS 32
#define P9_VIRTIO_MSIZE "512000"   /* PAGE_SIZE * (VIRTQUEUE_NUM - 3) */
#define P9_XEN_MSIZE "262144"      /* see p9_xen_msize() */
#define P9_XEN_MSIZE_OLD "65536"

struct helper {
	const struct mopt_fs *fs;
	const char *source, *target, *ns;
	const char *opts[MAX_OPTS];
	unsigned nopts;
	int fake, verbose, sloppy, ro, rw;
	unsigned long flags;
	char data[MOPT_DATA_MAX + 1];
	int have_data;
	int xen;              /* 9p with trans=xen */
};

/* ---- messages ---------------------------------------------------------- */

/* An option as shown in a message: control bytes escaped, at most ~200
 * bytes (a 5 KiB option is named, not echoed whole). */
static const char *shown(char *buf, size_t cap, const char *s, size_t len)
{
	size_t max = (cap - 4) / 4;

	if (len > max) {
		escape_octal(buf, cap - 3, s, max, 0);
		memcpy(buf + strlen(buf), "...", 4);
		return buf;
	}
	escape_octal(buf, cap, s, len, 0);
	return buf;
}

static void warn_dropped(struct mopt_ctx *ctx, const char *opt, size_t len,
			 enum mopt_reason why)
{
	char buf[256];

	(void)ctx;
	if (why == MOPT_UNKNOWN)
		warn_msg("ignoring unknown option '", shown(buf, sizeof(buf),
			 opt, len), "' (-s)");
	else
		warn_msg("dropping '", shown(buf, sizeof(buf), opt, len),
			 "': ", mopt_reason_text(why));
}

/* The accepted values of the option named in a bad "name=value". */
static void explain_choices(const struct mopt_ctx *ctx, char *out, size_t cap)
{
	const struct mopt_fs *fs = ctx->fs;
	size_t nlen = strcspn(ctx->err_opt, "=,");
	size_t len = 0;

	out[0] = '\0';
	if (nlen > ctx->err_len)
		nlen = ctx->err_len;
	for (unsigned i = 0; i < fs->nspecs; i++) {
		const struct mopt_spec *sp = &fs->specs[i];
		char num[24];

		if (strlen(sp->name) != nlen ||
		    memcmp(sp->name, ctx->err_opt, nlen) != 0)
			continue;
		str_append(out, cap, &len, " (accepted: ", 12);
		switch (sp->type) {
		case MOPT_ENUM:
			for (const char *p = sp->choices; *p; p++)
				str_append(out, cap, &len, *p == '|' ? ", "
					   : p, *p == '|' ? 2 : 1);
			if (sp->flags & MOPT_OR_UID)
				str_append(out, cap, &len,
					   ", or a user id or name", 22);
			break;
		case MOPT_OCTAL:
			str_append(out, cap, &len, "octal, within 0", 15);
			for (int sh = 9; sh >= 0; sh -= 3)
				if (sp->max >> sh || sh == 0) {
					num[0] = (char)('0' + ((sp->max >> sh) & 7));
					str_append(out, cap, &len, num, 1);
				}
			break;
		case MOPT_U32:
			str_append(out, cap, &len, num, fmt_u64(num, sp->min));
			str_append(out, cap, &len, "..", 2);
			str_append(out, cap, &len, num, fmt_u64(num, sp->max));
			break;
		default:
			str_append(out, cap, &len, "a user/group id or name, "
				   "up to 4294967294", 41);
			break;
		}
		str_append(out, cap, &len, ")", 1);
		return;
	}
}

static _Noreturn void die_option(const struct mopt_ctx *ctx)
{
	char buf[256], extra[256], num[24];

	if (ctx->error == MOPT_TOO_LONG) {
		num[fmt_u64(num, ctx->err_len)] = '\0';
		die_msg(EXIT_USAGE, "mount options too long: the ", ctx->fs->type,
			" mount data would be ", num, " bytes, the kernel takes "
			"at most 4095 (nothing was mounted; options are never "
			"cut)");
	}
	shown(buf, sizeof(buf), ctx->err_opt, ctx->err_len);
	if (ctx->error == MOPT_LOOKUP_FAILED)
		die_msg(EXIT_SYSTEM, "option '", buf, "': cannot read "
			"/etc/passwd or /etc/group: ", errno_text(ctx->err_errno));
	extra[0] = '\0';
	if (ctx->error == MOPT_CHOICE || ctx->error == MOPT_RANGE ||
	    ctx->error == MOPT_OCTAL_BITS || ctx->error == MOPT_NOT_OCTAL ||
	    ctx->error == MOPT_NOT_NUMBER)
		explain_choices(ctx, extra, sizeof(extra));
	if (ctx->error == MOPT_UNKNOWN)
		die_msg(EXIT_USAGE, "unknown ", ctx->fs->type, " option '", buf,
			"' (-s drops unknown options with a warning; --help "
			"lists the options)");
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
	if (fd < 0)
		die_msg(EXIT_SYSTEM, "-N ", ns, ": ", errno_text(errno));
	if (setns(fd, CLONE_NEWNS) < 0)
		die_msg(EXIT_SYSTEM, "-N ", ns, ": cannot enter the mount "
			"namespace: ", errno_text(errno));
	close(fd);
}

/* ---- the mount --------------------------------------------------------- */

/* Does s contain pat? (musl's strstr is 1.2 KiB of two-way search;
 * these haystacks are a page at most.) */
static int contains(const char *s, const char *pat)
{
	size_t n = strlen(pat);

	for (; *s; s++)
		if (*s == *pat && strncmp(s, pat, n) == 0)
			return 1;
	return 0;
}

/* Is the filesystem type registered (listed in /proc/filesystems)? */
static int fs_registered(const char *type)
{
	char buf[8192], pat[64];
	ssize_t n = read_small_file_close(AT_FDCWD, "/proc/filesystems", buf,
					  sizeof(buf) - 1);
	size_t len = 0;

	if (n < 0)
		return 0;
	buf[n] = '\0';
	pat[0] = '\0';
	str_append(pat, sizeof(pat), &len, "\t", 1);
	str_append(pat, sizeof(pat), &len, type, strlen(type));
	str_append(pat, sizeof(pat), &len, "\n", 1);
	return contains(buf, pat);
}

static int is_9p_xen(const struct helper *h)
{
	return h->fs == &mopt_fs_9p && h->xen;
}

/* Exit 32 with a message the user can act on. */
static _Noreturn void die_mount(const struct helper *h, int err)
{
	const char *type = h->fs->type;
	const char *src = h->source, *dir = h->target;
	const char *pre = "mounting ";
	struct stat st;

	if ((err == ENOENT || err == ENOTDIR) && stat(dir, &st) < 0)
		die_msg(EXIT_MOUNT, pre, src, " on ", dir, ": mount point ", dir,
			": ", errno_text(errno));
	if (err == ENOTDIR)
		die_msg(EXIT_MOUNT, pre, src, " on ", dir, ": mount point ", dir,
			" is not a directory");
	switch (err) {
	case ENODEV:
		if (fs_registered(type) && h->fs == &mopt_fs_vboxsf)
			die_msg(EXIT_MOUNT, pre, src, " on ", dir, ": the vboxsf "
				"driver cannot reach the VirtualBox guest device: "
				"not a VirtualBox VM, or vboxguest is not loaded "
				"(see dmesg)");
		if (fs_registered(type))
			die_msg(EXIT_MOUNT, pre, src, " on ", dir, ": no such "
				"device (see dmesg)");
		die_msg(EXIT_MOUNT, pre, src, " on ", dir, ": the kernel does "
			"not know filesystem type ", type, ": load its module "
			"(modprobe ", is_9p_xen(h) ? "9p 9pnet_xen" :
			h->fs == &mopt_fs_9p ? "9p 9pnet_virtio" :
			h->fs->modules, ")");
	case ENOENT:
	case ENXIO:
	case EPROTO:
		if (h->fs == &mopt_fs_vboxsf)
			die_msg(EXIT_MOUNT, pre, src, " on ", dir, ": the host "
				"has no shared folder named '", src, "': define "
				"it in the VM settings (Shared Folders, or "
				"VBoxManage sharedfolder add VM --name ", src,
				" --hostpath DIR)");
		if (h->fs == &mopt_fs_9p && err == ENOENT)
			die_msg(EXIT_MOUNT, pre, src, " on ", dir, ": no virtio "
				"9p device has the mount tag '", src, "' "
				"(mount-shared -l lists the tags)");
		break;
	case EPROTONOSUPPORT:
		if (h->fs == &mopt_fs_9p)
			die_msg(EXIT_MOUNT, pre, src, " on ", dir, ": no 9p "
				"transport module loaded (modprobe ",
				is_9p_xen(h) ? "9pnet_xen" : "9pnet_virtio", ")");
		break;
	case EINVAL:
		die_msg(EXIT_MOUNT, pre, src, " on ", dir, ": the kernel "
			"rejected it (EINVAL): ",
			h->fs == &mopt_fs_virtiofs ? "no virtio-fs device has "
			"this tag, or an option is wrong" : is_9p_xen(h) ?
			"no Xen 9pfs device has this tag, or an option is wrong"
			: "an option value or the source is wrong",
			"; the kernel log says which: dmesg | tail");
	case EBUSY:
		die_msg(EXIT_MOUNT, pre, src, " on ", dir, ": ", dir, " is "
			"busy, or ", src, " is already mounted there");
	case EPERM:
	case EACCES:
		die_msg(EXIT_MOUNT, pre, src, " on ", dir, ": permission "
			"denied: mounting needs root (CAP_SYS_ADMIN)");
	default:
		break;
	}
	die_msg(EXIT_MOUNT, pre, src, " on ", dir, ": ", errno_text(err));
}

/* mount("SRC", "DIR", "TYPE", FLAGS, "DATA"), as strace shows it. */
static void print_call(const struct helper *h)
{
	char flags[256], src[1024], dir[1024], data[MOPT_DATA_MAX * 4 + 1];

	mopt_flags_text(h->flags, flags, sizeof(flags));
	escape_octal(src, sizeof(src), h->source, strlen(h->source), 0);
	escape_octal(dir, sizeof(dir), h->target, strlen(h->target), 0);
	escape_octal(data, sizeof(data), h->data, strlen(h->data), 0);
	write_strs(1, "mount(\"", src, "\", \"", dir, "\", \"", h->fs->type,
		   "\", ", flags, ", ", h->have_data ? "\"" : "",
		   h->have_data ? data : "NULL", h->have_data ? "\"" : "",
		   ")\n");
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
	uint64_t major = 0, minor = 0;
	size_t a, b;

	if (uname(&u) < 0)
		return P9_XEN_MSIZE_OLD;
	a = strspn(u.release, "0123456789");
	b = strspn(u.release + a + 1, "0123456789");
	if (u.release[a] != '.' ||
	    parse_u64_base(u.release, a, 10, &major) < 0 ||
	    parse_u64_base(u.release + a + 1, b, 10, &minor) < 0)
		return P9_XEN_MSIZE_OLD;
	return major > 5 || (major == 5 && minor >= 8) ? P9_XEN_MSIZE
						       : P9_XEN_MSIZE_OLD;
}

static void apply_defaults(struct mopt_ctx *ctx)
{
	char trans[16];

	if (ctx->fs != &mopt_fs_9p)
		return;
	mopt_default(ctx, "trans", "virtio");
	mopt_default(ctx, "version", "9p2000.L");
	if (!mopt_get(ctx, "trans", trans, sizeof(trans)))
		return;
	if (strcmp(trans, "virtio") == 0)
		mopt_default(ctx, "msize", P9_VIRTIO_MSIZE);
	else if (strcmp(trans, "xen") == 0)
		mopt_default(ctx, "msize", p9_xen_msize());
}

/* Options -> flags and data, then mount(2) unless -f. Returns the exit
 * status, or 32 with errno_out set when mount(2) failed and the caller
 * wants to try another transport (quiet). */
static int run_mount(struct helper *h, int quiet, int *errno_out)
{
	struct mopt_ctx ctx;
	long len;

	mopt_init(&ctx, h->fs);
	ctx.sloppy = h->sloppy;
	ctx.warn = warn_dropped;
	/* VirtualBox's helper always adds MS_NODEV; `dev` lifts it. */
	if (h->fs == &mopt_fs_vboxsf)
		ctx.flags = MS_NODEV;
	for (unsigned i = 0; i < h->nopts; i++)
		if (mopt_parse(&ctx, h->opts[i], strlen(h->opts[i])) < 0)
			die_option(&ctx);
	if (h->ro)
		ctx.flags |= MS_RDONLY;
	if (h->rw)
		ctx.flags &= ~(unsigned long)MS_RDONLY;
	apply_defaults(&ctx);
	{
		char trans[8];
		h->xen = h->fs == &mopt_fs_9p &&
			 mopt_get(&ctx, "trans", trans, sizeof(trans)) &&
			 strcmp(trans, "xen") == 0;
	}
	len = mopt_build(&ctx, h->data, sizeof(h->data));
	if (len < 0)
		die_option(&ctx);
	h->have_data = len > 0;
	h->flags = ctx.flags;
	if (h->verbose)
		print_call(h);
	if (h->fake)
		return EXIT_OK;
	if (mount(h->source, h->target, h->fs->type, h->flags,
		  h->have_data ? h->data : NULL) == 0)
		return EXIT_OK;
	if (quiet) {
		*errno_out = errno;
		return EXIT_MOUNT;
	}
	die_mount(h, errno);
}

/* ---- arguments --------------------------------------------------------- */

static _Noreturn void usage_error(const char *what, const char *arg)
{
	die_msg(EXIT_USAGE, what, arg, " (try ", applet_name, " --help)");
}

static void show_help(void)
{
	const struct applet *a = find_applet(applet_name);

	write_strs(1, a && a->usage[0] ? a->usage
		   : "(help text not configured in)\n");
	_exit(EXIT_OK);
}

/* Common letters; mount-shared adds t: w: l. Returns unhandled letters. */
static int scan_args(struct helper *h, int argc, char **argv, const char *spec,
		     int (*extra)(struct helper *, int, const char *, void *),
		     void *ectx)
{
	struct optscan os;
	int c;

	optscan_init(&os, argc, argv, spec);
	while ((c = optscan_next(&os)) != -1) {
		char letter[2] = { (char)os.bad_option, '\0' };

		switch (c) {
		case 's': h->sloppy = 1; break;
		case 'f': h->fake = 1; break;
		case 'v': h->verbose = 1; break;
		case 'n': break;   /* no mtab, ever */
		case 'h': show_help(); break;
		case 'N': h->ns = os.value; break;
		case 'o':
			if (h->nopts == MAX_OPTS)
				usage_error("too many -o options", "");
			h->opts[h->nopts++] = os.value;
			break;
		case '?':
			usage_error("unknown option -", letter);
		case ':':
			usage_error("missing value for -", letter);
		default:
			if (!extra || extra(h, c, os.value, ectx) < 0) {
				letter[0] = (char)c;
				usage_error("unknown option -", letter);
			}
		}
	}
	return os.noperands;
}

static int helper_rw(struct helper *h, int c, const char *value, void *ctx)
{
	(void)value;
	(void)ctx;
	if (c == 'r') {
		h->ro = 1;
		h->rw = 0;
	} else if (c == 'w') {
		h->rw = 1;
		h->ro = 0;
	} else {
		return -1;
	}
	return 0;
}

static int helper_main(int argc, char **argv, const struct mopt_fs *fs)
{
	struct helper h;
	int n, err;

	memset(&h, 0, sizeof(h));
	h.fs = fs;
	n = scan_args(&h, argc, argv, "sfnvrwhN:o:", helper_rw, NULL);
	if (n != 2)
		die_msg(EXIT_USAGE, n < 2 ? "missing operand: " : "too many "
			"operands: ", "expected ", fs == &mopt_fs_vboxsf ?
			"SHARE" : "TAG", " DIR (try ", applet_name, " --help)");
	h.source = argv[1];
	h.target = argv[2];
	if (h.ns)
		enter_mount_ns(h.ns);
	return run_mount(&h, 0, &err);
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

/* A line of sysfs text without its newline. */
static ssize_t read_tag(int dirfd, const char *path, char *buf, size_t cap)
{
	ssize_t n = read_small_file_close(dirfd, path, buf, cap - 1);

	if (n < 0)
		return n;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\0'))
		n--;
	buf[n] = '\0';
	return n;
}

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

/* dirfd/NAME/FILE into buf (a line of sysfs text, newline and NULs cut). */
static ssize_t read_entry_file(int dirfd, const char *name, const char *file,
			       char *buf, size_t cap)
{
	char path[300];
	size_t len = 0;

	path[0] = '\0';
	if (str_append(path, sizeof(path), &len, name, strlen(name)) < 0 ||
	    str_append(path, sizeof(path), &len, "/", 1) < 0 ||
	    str_append(path, sizeof(path), &len, file, strlen(file)) < 0)
		return -ENAMETOOLONG;
	return read_tag(dirfd, path, buf, cap);
}

struct tag_scan {
	const char *file, *prefix;
	share_fn *fn;
	void *ctx;
	enum share_kind kind;
};

static int scan_tag_entry(int dirfd, const char *name, void *ctx)
{
	struct tag_scan *ts = ctx;
	char tag[SHARE_TAG_MAX];

	if (strncmp(name, ts->prefix, strlen(ts->prefix)) != 0)
		return 0;
	if (read_entry_file(dirfd, name, ts->file, tag, sizeof(tag)) > 0)
		return ts->fn(ts->ctx, ts->kind, tag, name);
	return 0;
}

/* Call fn for each DIR/ENTRY/FILE that reads as a tag. */
static int scan_sysfs_tags(const char *dir, const char *file,
			   const char *prefix, share_fn *fn, void *ctx,
			   enum share_kind kind)
{
	struct tag_scan ts = { file, prefix, fn, ctx, kind };

	return for_each_entry(dir, scan_tag_entry, &ts);
}

static int count_virtiofs_entry(int dirfd, const char *name, void *ctx)
{
	char buf[32];

	if (read_entry_file(dirfd, name, "device", buf, sizeof(buf)) > 0 &&
	    strcmp(buf, "0x001a") == 0)
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
	char buf[32];

	(void)ctx;
	return read_entry_file(dirfd, name, "vendor", buf, sizeof(buf)) > 0 &&
	       strcmp(buf, "0x80ee") == 0 &&
	       read_entry_file(dirfd, name, "device", buf, sizeof(buf)) > 0 &&
	       strcmp(buf, "0xcafe") == 0;
}

/* A VirtualBox guest: the guest driver's device node, or its PCI device
 * (vendor 0x80ee, device 0xcafe, "VirtualBox Guest Service"). */
static int in_virtualbox(void)
{
	if (access("/dev/vboxguest", F_OK) == 0)
		return 1;
	return for_each_entry("/sys/bus/pci/devices", vbox_pci_entry, NULL);
}

int for_each_share(unsigned kinds, share_fn *fn, void *ctx)
{
	int ret = 0;

	if (!ret && kinds & (1u << SHARE_VIRTIOFS))
		ret = scan_sysfs_tags("/sys/fs/virtiofs", "tag", "",
				      fn, ctx, SHARE_VIRTIOFS);
	if (!ret && kinds & (1u << SHARE_9P_VIRTIO))
		ret = scan_sysfs_tags("/sys/bus/virtio/drivers/9pnet_virtio",
				      "mount_tag", "virtio", fn, ctx,
				      SHARE_9P_VIRTIO);
	if (!ret && kinds & (1u << SHARE_9P_XEN))
		ret = xenstore_9pfs_tags(fn, ctx);
	return ret;
}

/* ---- mount-shared ------------------------------------------------------ */

static const char *const kind_names[] = {
	[SHARE_VIRTIOFS] = "virtiofs",
	[SHARE_9P_VIRTIO] = "9p",
	[SHARE_9P_XEN] = "9p",
	[SHARE_VBOXSF] = "vboxsf",
};
static const char *const kind_where[] = {
	[SHARE_VIRTIOFS] = "virtiofs",
	[SHARE_9P_VIRTIO] = "virtio",
	[SHARE_9P_XEN] = "xen",
	[SHARE_VBOXSF] = "virtualbox",
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
		outbuf_puts(f->list, kind_names[kind]);
		outbuf_putc(f->list, '\t');
		outbuf_puts(f->list, kind_where[kind]);
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

struct shared_args {
	const char *type;
	const char *wait;
	int list;
};

static int shared_extra(struct helper *h, int c, const char *value, void *ctx)
{
	struct shared_args *a = ctx;

	(void)h;
	if (c == 't')
		a->type = value;
	else if (c == 'w')
		a->wait = value;
	else if (c == 'l')
		a->list = 1;
	else
		return -1;
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
static unsigned wanted_kinds(const struct shared_args *a,
			     const struct helper *h)
{
	unsigned all = 0;
	int xen = 0;

	/* The last trans= of the -o options (the engine's rule). */
	for (unsigned i = 0; i < h->nopts; i++)
		for (const char *p = h->opts[i]; *p;) {
			size_t n = strcspn(p, ",");
			if (n > 6 && strncmp(p, "trans=", 6) == 0)
				xen = n == 9 && strncmp(p + 6, "xen", 3) == 0;
			p += n + (p[n] == ',');
		}
	if (ENABLE_MOUNT_VIRTIOFS)
		all |= 1u << SHARE_VIRTIOFS;
	if (ENABLE_MOUNT_9P)
		all |= xen ? 1u << SHARE_9P_XEN
			   : 1u << SHARE_9P_VIRTIO | 1u << SHARE_9P_XEN;
	if (ENABLE_MOUNT_VBOXSF)
		all |= 1u << SHARE_VBOXSF;
	if (!a->type)
		return all;
	if (strcmp(a->type, "9p") == 0)
		return all & (1u << SHARE_9P_VIRTIO | 1u << SHARE_9P_XEN);
	if (strcmp(a->type, "virtiofs") == 0)
		return all & 1u << SHARE_VIRTIOFS;
	if (strcmp(a->type, "vboxsf") == 0)
		return all & 1u << SHARE_VBOXSF;
	die_msg(EXIT_USAGE, "-t ", a->type, ": not a type mount-shared "
		"handles (9p, virtiofs, vboxsf, as configured in)");
}

static void list_tags(unsigned kinds, struct outbuf *ob)
{
	struct find f = { NULL, 0, ob, 0 };
	int untagged = kinds & 1u << SHARE_VIRTIOFS ?
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

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int mount_shared_main(int argc, char **argv)
{
	struct helper h;
	struct shared_args a = { NULL, NULL, 0 };
	struct find f;
	struct outbuf ob;
	uint64_t wait_s = 5;
	unsigned kinds;
	long deadline;
	int n, err = 0;

	memset(&h, 0, sizeof(h));
	n = scan_args(&h, argc, argv, "sfnvhlN:o:t:w:", shared_extra, &a);
	if (a.wait && (parse_u64(a.wait, &wait_s) < 0 || wait_s > 86400))
		usage_error("-w wants a number of seconds (0..86400), not ",
			    a.wait);
	if (h.ns)
		enter_mount_ns(h.ns);
	kinds = wanted_kinds(&a, &h);
	if (a.list) {
		if (n != 0)
			usage_error("-l takes no operands", "");
		outbuf_init(&ob, 1);
		list_tags(kinds, &ob);
		return outbuf_flush(&ob) < 0 ? EXIT_SYSTEM : EXIT_OK;
	}
	if (n != 2)
		die_msg(EXIT_USAGE, n < 2 ? "missing operand" : "too many "
			"operands", ": expected TAG DIR (try mount-shared "
			"--help)");
	h.source = argv[1];
	h.target = argv[2];

	deadline = now_ms() + (long)wait_s * 1000;
	for (;;) {
		memset(&f, 0, sizeof(f));
		f.tag = h.source;
		for_each_share(kinds, on_share, &f);
		if (f.found || now_ms() >= deadline)
			break;
		sleep_ms(100);
	}
	if (f.found) {
		h.fs = fs_of_kind((enum share_kind)(f.found - 1));
		if (f.found - 1 == SHARE_9P_XEN) {
			static char xen_opt[] = "trans=xen";
			if (h.nopts < MAX_OPTS)
				h.opts[h.nopts++] = xen_opt;
		}
		return run_mount(&h, 0, &err);
	}
	/* Not listed anywhere: devices whose tags cannot be listed. */
	if (kinds & 1u << SHARE_VIRTIOFS && count_untagged_virtiofs()) {
		h.fs = &mopt_fs_virtiofs;
		if (run_mount(&h, 1, &err) == EXIT_OK)
			return EXIT_OK;
	}
	if (kinds & 1u << SHARE_VBOXSF && in_virtualbox()) {
		h.fs = &mopt_fs_vboxsf;
		return run_mount(&h, 0, &err);
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
	memset(&f, 0, sizeof(f));
	for_each_share(kinds, on_share, &f);
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
