// SPDX-License-Identifier: MIT
/* block.c - /etc/xen/scripts/block: Debian 4.17's block (with
 * block-common.sh) for phy: and file: disks, in one process.
 *
 * block_main() reads params, mode; add: a device already known
 * (physical-device set) exits 0; phy_add() checks the device and shares
 * it (check_sharing: dom0's mounts by /proc/self/mountinfo, then every
 * backend's physical-device and mode in one xenstore walk on one
 * connection, where the script runs
 * a xenstore-list per domain and a xenstore-read per disk); file_add()
 * checks state == 2, a read-only file for w, the file's loop devices in
 * use, then attaches it (loopdev.c) and writes node,
 * physical-device(-path) and hotplug-status as the script's four writes
 * (hp_write_each_or_die). remove
 * detaches a file: disk's loop device, once it is sure it is the one
 * the add attached. The sharing check and the loop setup run under the
 * "block" lock, the scripts' own. No name is looked up after the lock
 * wait: phy: publishes the device number it stat()ed before it, file:
 * attaches the file it resolved before it (held by an O_PATH fd).
 *
 * Params that are neither a block device nor a file (other disk types
 * the script passes to block-TYPE) and hooks in block-*.d go to the
 * diverted block.distrib.
 */
//config:config HOTPLUG_BLOCK
//config:	bool "block: phy: and file: disks, loop devices (~15 KiB; ~30.6 KiB alone)"
//config:	default y
//config:	select ERRNO_TEXTS_NET
//config:	help
//config:	  /etc/xen/scripts/block as Debian 4.17's script, in one
//config:	  process instead of 27-150: the sharing check in one
//config:	  xenstore walk, loop devices by LOOP_CONFIGURE, the
//config:	  block lock shared with the scripts. Other disk types run
//config:	  the diverted block.distrib.
//config:
//applet:HOTPLUG_BLOCK block etc/xen/scripts/block block_main 0
//usage:Usage: block add|remove
//usage:Xen hotplug script (libxl runs it) for phy: and file: disks, as
//usage:Debian's block: sharing checks, loop devices, physical-device.
//usage:Environment: XENBUS_PATH, XENBUS_TYPE, XENBUS_BASE_PATH. Other disk
//usage:types and block-*.d hooks run /etc/xen/scripts/block.distrib.
//exit:0 done (also: nothing to do for this call)
//exit:1 failed: hotplug-error and hotplug-status written, as Debian's
//exit:other the .distrib script's own, when the call is handed over
//exit-untested:other exec'd: the status is Debian's script's, not the applet's
//replaces:Debian's bash script at the applet's path (`xen-utils-common`, Debian 12 or 13)
//package:`forkless-xen` diverts Debian's script to `/etc/xen/scripts/block.distrib` and puts the applet at its path
//messages:Debian's script's, word for word: the same lines in `/var/log/xen/xen-hotplug.log` and syslog, the same `hotplug-error` in xenstore; a hand-over says `PATH handing over to PATH.distrib: WHY`. Details: [hotplug.md](hotplug.md)
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "hotplug.h"
#include "loopdev.h"
#include "mountinfo.h"
#include "sys.h"

#define DEVMM_MAX 256   /* ",MM:mm,MM:mm," of the devices to look for */
/* The file a file: disk's add attached, recorded in its backend for the
 * remove: "MAJ:MIN:INO" of the file's st_dev and st_ino, decimal (as
 * losetup's BACK-MAJ:MIN and BACK-INO). Not a key of libxl's, blkback's
 * or the scripts' (docs/hotplug.md). */
#define BACKING_KEY "forkless-backing"
#define BACKING_MAX (3 * FMT_U64_MAX)

struct block {
	char mode;                    /* canonical: 'r', 'w' or '!' */
	char frontend_id[64];
	char frontend_uuid[HP_PATH_MAX];   /* read when first needed */
	int have_uuid;
	char devmm[DEVMM_MAX];
	struct hotplug h;             /* last: its big buffers end it */
};

/* canonicalise_mode: no 'w' -> r; 'w' without '!' -> w; else '!'. */
static char canonical_mode(const char *mode)
{
	if (!strchr(mode, 'w'))
		return 'r';
	return strchr(mode, '!') ? '!' : 'w';
}

/* device_major_minor: stat -L -c %t:%T, hex without leading zeros. */
static void major_minor(char out[24], dev_t rdev)
{
	static const char hex[] = "0123456789abcdef";
	unsigned v[2] = { major(rdev), minor(rdev) };
	size_t len = 0;

	for (int i = 0; i < 2; i++) {
		char tmp[8];
		size_t n = 0;

		do
			tmp[n++] = hex[v[i] & 15];
		while ((v[i] >>= 4) != 0);
		while (n)
			out[len++] = tmp[--n];
		if (i == 0)
			out[len++] = ':';
	}
	out[len] = '\0';
}

/* BACKING_KEY's value for the file dev, ino into out (BACKING_MAX). */
static void backing_id(char *out, dev_t dev, ino_t ino)
{
	size_t len = fmt_u64_base(out, major(dev), 10);

	out[len++] = ':';
	len += fmt_u64_base(out + len, minor(dev), 10);
	out[len++] = ':';
	len += fmt_u64_base(out + len, (uint64_t)ino, 10);
	out[len] = '\0';
}

/* ... and back: 0, or -EINVAL for anything but MAJ:MIN:INO. */
static int parse_backing(const char *s, dev_t *dev, uint64_t *ino)
{
	const char *c1 = strchr(s, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	uint64_t ma, mi;

	if (!c2 || parse_u64_base(s, (size_t)(c1 - s), 10, &ma) < 0 ||
	    parse_u64_base(c1 + 1, (size_t)(c2 - c1 - 1), 10, &mi) < 0 ||
	    parse_u64_base(c2 + 1, strlen(c2 + 1), 10, ino) < 0 ||
	    ma > 0xfff || mi > 0xfffff)
		return -EINVAL;
	*dev = makedev((unsigned)ma, (unsigned)mi);
	return 0;
}

/* [[ "$devmm" == *",$d,"* ]]: devmm is ",A,B,...," */
static int in_devmm(const struct block *b, const char *d)
{
	size_t n = strlen(d);

	for (const char *p = b->devmm; *p; p++)
		if (*p == ',' && strncmp(p + 1, d, n) == 0 && p[n + 1] == ',')
			return 1;
	return 0;
}

static void devmm_add(struct hotplug *h, struct block *b, const char *d)
{
	size_t len = strlen(b->devmm);

	if (str_append(b->devmm, sizeof(b->devmm), &len, d, strlen(d)) < 0 ||
	    str_append(b->devmm, sizeof(b->devmm), &len, LIT(",")) < 0)
		hp_fatal(h, "too many loop devices for this file");
}

/* ---- the sharing check (block's check_sharing) -------------------------- */

/* The walk fails closed: a listing or key it cannot read is an error
 * naming it (hotplug-status error), never "not shared". Only ENOENT is an
 * answer -- a domain or disk torn down meanwhile, or a key the toolstack
 * did not write: what Debian's xenstore_read_default and an empty
 * xenstore-list take it for. (Debian's script takes every failure of
 * xenstore-list for an empty directory: a listing too long for one reply
 * attached a disk another guest has read-write.) */
static _Noreturn void walk_failed(struct block *b, const char *what,
				  const char *path, long err)
{
	struct hotplug *h = &b->h;

	hp_unlock(h);
	/* a broken reply closed the connection: open it again to report */
	if (h->xs.fd < 0)
		h->xs_err = 1;
	hp_fatal(h, "Cannot check whether the device is shared: ", what, " ",
		 path, ": ", errno_text((int)-err));
}

/* A key of the walk into out: its length, -ENOENT, else walk_failed. */
static long walk_read(struct block *b, const char *path, char *out, size_t cap)
{
	long n = hp_xs(&b->h);

	if (n == 0)
		n = xs_read(&b->h.xs, 0, path, out, cap);
	if (n < 0 && n != -ENOENT)
		walk_failed(b, "xenstore-read", path, n);
	return n;
}

/* A listing of the walk into out (however long: xs_directory_all): its
 * length, -ENOENT, else walk_failed. */
static long walk_list(struct block *b, const char *path, char *out, size_t cap)
{
	long n = hp_xs(&b->h);

	if (n == 0)
		n = xs_directory_all(&b->h.xs, 0, path, out, cap);
	if (n < 0 && n != -ENOENT)
		walk_failed(b, "xenstore-list", path, n);
	return n;
}

/* /local/domain/DOM/KEY into out, or def (the key missing). */
static const char *dom_key(struct block *b, const char *dom, const char *key,
			   char *out, size_t cap, const char *def)
{
	char path[HP_PATH_MAX];
	size_t len = 0;

	path[0] = '\0';
	if (str_append(path, sizeof(path), &len, LIT("/local/domain/")) < 0 ||
	    str_append(path, sizeof(path), &len, dom, strlen(dom)) < 0 ||
	    str_append(path, sizeof(path), &len, key, strlen(key)) < 0)
		walk_failed(b, "xenstore-read", key, -ENAMETOOLONG);
	if (walk_read(b, path, out, cap) >= 0)
		return out;
	if (!def)
		return NULL;
	memcpy(out, def, strlen(def) + 1);   /* (the callers' defaults fit) */
	return out;
}

/* FRONTEND_UUID: the script reads it before the lock on every add; only
 * a possible conflict uses it, so it is read then (once): an add with
 * nothing to share makes one round trip fewer. */
static const char *frontend_uuid(struct block *b)
{
	if (!b->have_uuid &&
	    dom_key(b, b->frontend_id, "/vm", b->frontend_uuid,
		    sizeof(b->frontend_uuid), NULL) == NULL)
		memcpy(b->frontend_uuid, "unknown", sizeof("unknown"));
	b->have_uuid = 1;
	return b->frontend_uuid;
}

/* same_vm OTHERDOM: the other domain is this frontend's VM, or its
 * target's (stub domains), or targets this one. */
static int same_vm(struct block *b, const char *otherdom)
{
	char othervm[HP_PATH_MAX], target[64], targetvm[HP_PATH_MAX];
	char otarget[64], otvm[HP_PATH_MAX], fuuid[HP_PATH_MAX];
	const char *fu = frontend_uuid(b), *ov, *t, *tv, *ot, *otv;
	size_t n = strlen(fu);

	ov = dom_key(b, otherdom, "/vm", othervm, sizeof(othervm), fu);
	t = dom_key(b, b->frontend_id, "/target", target, sizeof(target), "-1");
	tv = dom_key(b, t, "/vm", targetvm, sizeof(targetvm), "No Target");
	ot = dom_key(b, otherdom, "/target", otarget, sizeof(otarget), "-1");
	otv = dom_key(b, ot, "/vm", otvm, sizeof(otvm), "No Other Target");
	/* ${FRONTEND_UUID%-1} */
	memcpy(fuuid, fu, n + 1);
	if (n >= 2 && strcmp(fuuid + n - 2, "-1") == 0)
		fuuid[n - 2] = '\0';
	return strcmp(fuuid, ov) == 0 || strcmp(tv, ov) == 0 ||
	       strcmp(fuuid, otv) == 0 || strcmp(tv, otv) == 0;
}

/* Mounted in dom0: check_sharing's
 *   cat /proc/mounts | (grep -v "^[^ ]* [^ ]* [^ ]* ro[, ]" for mode r)
 *   | cut -f 1 -d ' ' | stat -L -c %t:%T each
 * by device numbers the kernel gives, stat()ing no name a user chose
 * (a FUSE mount's source is its fsname=, and a name inside a FUSE mount
 * whose daemon never answers would hang the call under the lock).
 * /proc/self/mountinfo's MAJ:MIN is each mount's st_dev: the device for a
 * block filesystem (ext4, xfs, fuseblk...), an anonymous 0:N for the
 * others (tmpfs, overlay, nfs, fuse): no block device's number. The one
 * kind of block filesystem with anonymous numbers, btrfs (one per
 * subvolume), names its device as source: that name is opened (O_PATH:
 * no driver's open) only below /dev and without leaving /dev's mount
 * (openat2 RESOLVE_BENEATH | RESOLVE_NO_XDEV: never into a FUSE mount
 * on /dev/shm), then fstat()ed. Only root mounts btrfs; fusermount mounts
 * only fuse types, whose sources are never read. A mount counts as
 * read-only as /proc/mounts's "ro" does: the mount or its superblock
 * (mountinfo.h). Lines of any length: mountinfo.c streams. */

/* The block filesystems whose mounts show an anonymous MAJ:MIN. */
static const char *const source_named_fs[] = { "btrfs" };

struct mount_check {
	struct block *b;
	char *found;
	int dev_fd;   /* /dev (O_PATH), opened when first needed */
};

/* The block device a mount's source names below /dev, or 0. */
static dev_t source_device(struct mount_check *mc, const char *source)
{
	struct sys_open_how how = {
		O_PATH | O_CLOEXEC, 0,
		SYS_RESOLVE_BENEATH | SYS_RESOLVE_NO_XDEV | SYS_RESOLVE_NO_MAGICLINKS,
	};
	struct stat st;
	int fd, blk;

	if (strncmp(source, LIT("/dev/")) != 0 || !source[sizeof("/dev/") - 1])
		return 0;
	if (mc->dev_fd == -1)
		mc->dev_fd = openat(AT_FDCWD, "/dev", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (mc->dev_fd < 0)
		return 0;
	fd = sys_openat2(mc->dev_fd, source + 5, &how);
	if (fd < 0)
		return 0;   /* (ENOSYS before Linux 5.6: not looked at) */
	blk = fstat(fd, &st) == 0 && S_ISBLK(st.st_mode);
	close(fd);
	return blk ? st.st_rdev : 0;
}

static int mount_uses(const struct mountinfo_entry *m, void *ctx)
{
	struct mount_check *mc = ctx;
	dev_t dev = 0;

	/* grep -v "^[^ ]* [^ ]* [^ ]* ro[, ]" for mode r */
	if ((mc->b->mode != 'w' && m->ro) || !m->have_dev)
		return 0;
	if (m->major) {
		dev = makedev(m->major, m->minor);
	} else if (!m->fstype_cut && !m->source_cut) {
		for (size_t i = 0; i < ARRAY_SIZE(source_named_fs); i++)
			if (strcmp(m->fstype, source_named_fs[i]) == 0)
				dev = source_device(mc, m->source);
	}
	if (!dev)
		return 0;
	major_minor(mc->found, dev);
	return in_devmm(mc->b, mc->found);
}

/* A mount of a device in devmm -> its MM:mm in found. */
static int mounted_here(struct block *b, char *found)
{
	static struct mountinfo_parser mp;   /* (4 KiB: .bss, not the stack) */
	struct mount_check mc = { b, found, -1 };
	char buf[8192];
	ssize_t r;
	int hit = 0, fd = openat(AT_FDCWD, "/proc/self/mountinfo",
				 O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;   /* `cat /proc/mounts` failing: no mounts */
	mountinfo_init(&mp);
	while (!hit && (r = read(fd, buf, sizeof(buf))) > 0)
		hit = mountinfo_feed(&mp, buf, (size_t)r, mount_uses, &mc);
	if (!hit)
		hit = mountinfo_end(&mp, mount_uses, &mc);
	close(fd);
	if (mc.dev_fd >= 0)
		close(mc.dev_fd);
	return hit;
}

/* XENBUS_BASE_PATH/XENBUS_TYPE/DOM/DEV for every disk: its
 * physical-device in devmm and a conflicting mode, in a domain of
 * another VM -> its MM:mm. The listings are static (in .bss: a page is
 * touched only when a listing reaches it): every domain's name fits
 * (32,752 domids: 185 KB), and a domain's disks. */
static int used_by_guest(struct block *b, char *found)
{
	static char doms[192 * 1024], devs[64 * 1024];
	char base[HP_PATH_MAX];
	const char *bp = hp_env("XENBUS_BASE_PATH"), *ty = hp_env("XENBUS_TYPE");
	size_t blen = 0;
	long nd, nv;

	base[0] = '\0';
	if (str_append(base, sizeof(base), &blen, bp ? bp : "", bp ? strlen(bp) : 0) < 0 ||
	    str_append(base, sizeof(base), &blen, LIT("/")) < 0 ||
	    str_append(base, sizeof(base), &blen, ty ? ty : "", ty ? strlen(ty) : 0) < 0)
		walk_failed(b, "xenstore-list", "XENBUS_BASE_PATH/XENBUS_TYPE",
			    -ENAMETOOLONG);
	nd = walk_list(b, base, doms, sizeof(doms));
	for (long i = 0; nd > 0 && i < nd; i += (long)strlen(doms + i) + 1) {
		const char *dom = doms + i;
		char dpath[HP_PATH_MAX];
		size_t dlen = 0;

		dpath[0] = '\0';
		if (!*dom)
			continue;   /* (no domain has an empty name) */
		if (str_append(dpath, sizeof(dpath), &dlen, base, blen) < 0 ||
		    str_append(dpath, sizeof(dpath), &dlen, LIT("/")) < 0 ||
		    str_append(dpath, sizeof(dpath), &dlen, dom, strlen(dom)) < 0)
			walk_failed(b, "xenstore-list", dom, -ENAMETOOLONG);
		nv = walk_list(b, dpath, devs, sizeof(devs));
		for (long j = 0; nv > 0 && j < nv; j += (long)strlen(devs + j) + 1) {
			char key[HP_PATH_MAX], val[HP_PATH_MAX];
			size_t klen = dlen;

			if (!devs[j])
				continue;   /* (nor a disk) */
			memcpy(key, dpath, dlen + 1);
			if (str_append(key, sizeof(key), &klen, LIT("/")) < 0 ||
			    str_append(key, sizeof(key), &klen, devs + j, strlen(devs + j)) < 0 ||
			    str_append(key, sizeof(key), &klen, LIT("/physical-device")) < 0)
				walk_failed(b, "xenstore-read", devs + j, -ENAMETOOLONG);
			if (walk_read(b, key, val, sizeof(val)) <= 0 ||
			    !in_devmm(b, val))
				continue;
			if (b->mode != 'w') {
				char m[64];

				key[klen - 16] = '\0';
				klen -= 16;
				if (str_append(key, sizeof(key), &klen, LIT("/mode")) < 0)
					walk_failed(b, "xenstore-read", key, -ENAMETOOLONG);
				if (walk_read(b, key, m, sizeof(m)) < 0)
					m[0] = '\0';
				if (canonical_mode(m) != 'w')
					continue;
			}
			if (!same_vm(b, dom)) {
				memcpy(found, val, strlen(val) + 1);
				return 1;
			}
		}
	}
	return 0;
}

/* do_ebusy: Debian's message for a conflict, then ebusy. */
static _Noreturn void sharing_busy(struct block *b, const char *prefix,
				   int guest)
{
	char msg[HP_MSG_MAX];
	size_t len = 0;
	const char *parts[] = {
		prefix, b->mode == 'w' ? "" : "read-write ", "in ",
		guest ? "a guest " : "the privileged ", "domain,\n",
		"and so cannot be mounted ", b->mode == 'w' ? "" : "read-only ",
		guest ? "now" : "by a guest", ".",
	};

	msg[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(parts); i++)
		str_append(msg, sizeof(msg), &len, parts[i], strlen(parts[i]));
	hp_unlock(&b->h);
	hp_busy(&b->h, msg);
}

/* check_sharing for the devices in devmm: 0 ok, 1 local, 2 guest. */
static int check_sharing(struct block *b, char *found)
{
	if (mounted_here(b, found))
		return 1;
	return used_by_guest(b, found) ? 2 : 0;
}

/* ---- writing the result ------------------------------------------------- */

/* write_dev (with the node for a file): physical-device and its path,
 * then success: the script's separate writes (hp_write_each_or_die).
 * physical-device is rdev, the device the call checked: the script
 * stats dev by name again here, and so publishes whatever the name
 * points to by then. A file's add also records the file it attached,
 * back (BACKING_KEY, in the same batch: file_remove). */
static void write_dev(struct block *b, const char *dev, dev_t rdev,
		      const char *node, const char *back)
{
	struct hotplug *h = &b->h;
	char mm[24], path[HP_PATH_MAX];

	major_minor(mm, rdev);
	if (node) {
		hp_path(h, path, "node");
		hp_log(h, HP_DEBUG, "Writing ", path, " ", node, " to xenstore.");
	}
	hp_path(h, path, "physical-device");
	hp_log(h, HP_DEBUG, "Writing ", path, " ", mm, " to xenstore.");
	hp_path(h, path, "physical-device-path");
	hp_log(h, HP_DEBUG, "Writing ", path, " ", dev, " to xenstore.");
	hp_path(h, path, "hotplug-status");
	hp_log(h, HP_DEBUG, "Writing ", path, " connected to xenstore.");
	if (node)
		hp_write_each_or_die(h, "node", node, BACKING_KEY, back,
				     "physical-device", mm,
				     "physical-device-path", dev,
				     "hotplug-status", "connected");
	else
		hp_write_each_or_die(h, "physical-device", mm,
				     "physical-device-path", dev,
				     "hotplug-status", "connected");
}

/* ---- add ---------------------------------------------------------------- */

static void phy_add(struct block *b, const char *p, const char *mode)
{
	struct hotplug *h = &b->h;
	char dev[PATH_MAX], real[PATH_MAX], found[HP_PATH_MAX], prefix[PATH_MAX + 32];
	struct stat st;
	size_t len = 0;
	int res;

	/* expand_dev: a relative name is below /dev */
	dev[0] = '\0';
	if ((p[0] != '/' && str_append(dev, sizeof(dev), &len, LIT("/dev/")) < 0) ||
	    str_append(dev, sizeof(dev), &len, p, strlen(p)) < 0)
		hp_fatal(h, p, " does not exist.");
	if (lstat(dev, &st) == 0 && S_ISLNK(st.st_mode)) {
		if (hp_realpath(dev, real, sizeof(real)) < 0)
			hp_fatal(h, dev, " link does not exist.");
		memcpy(dev, real, strlen(real) + 1);
	}
	/* The device's one stat, where the script tests -e and -b: its
	 * number is the one checked for sharing and published, whatever
	 * the name points to after the lock wait (docs/hotplug.md) */
	if (stat(dev, &st) < 0)
		hp_fatal(h, dev, " does not exist.");
	if (!S_ISBLK(st.st_mode))
		hp_fatal(h, dev, " is not a block device.");
	hp_lock(h, "block");
	b->mode = canonical_mode(mode);
	if (b->mode != '!') {
		char mm[24];

		major_minor(mm, st.st_rdev);
		b->devmm[0] = ',';
		b->devmm[1] = '\0';
		devmm_add(h, b, mm);
		res = check_sharing(b, found);
		if (res) {
			len = 0;
			prefix[0] = '\0';
			str_append(prefix, sizeof(prefix), &len, LIT("Device "));
			str_append(prefix, sizeof(prefix), &len, dev, strlen(dev));
			str_append(prefix, sizeof(prefix), &len, LIT(" is mounted "));
			sharing_busy(b, prefix, res == 2);
		}
	}
	write_dev(b, dev, st.st_rdev, NULL, NULL);
	hp_unlock(h);
}

struct file_id {
	struct block *b;
	uint64_t dev, ino;
};

static int note_loop(const char *dev, dev_t rdev, uint64_t back_dev,
		     uint64_t back_ino, void *ctx)
{
	struct file_id *id = ctx;
	char mm[24];

	(void)dev;
	if (back_dev == id->dev && back_ino == id->ino) {
		major_minor(mm, rdev);
		devmm_add(&id->b->h, id->b, mm);
	}
	return 0;
}

/* The refusals' messages, out of file_add: their buffers (4 KiB each) in
 * its frame would push every call below it two pages further down the
 * stack (a page fault each: hp_init). */
static _Noreturn __attribute__((noinline)) void
read_only_busy(struct block *b, const char *file)
{
	char msg[PATH_MAX + 96] = "File ";
	size_t len = 5;

	str_append(msg, sizeof(msg), &len, file, strlen(file));
	str_append(msg, sizeof(msg), &len, LIT(" is read-only, and so I will not\n"
		   "mount it read-write in a guest domain."));
	hp_unlock(&b->h);
	hp_busy(&b->h, msg);
}

static _Noreturn __attribute__((noinline)) void
file_shared_busy(struct block *b, const char *file, const char *found,
		 int same_vm)
{
	char prefix[PATH_MAX + 128];
	size_t len = 0;

	prefix[0] = '\0';
	str_append(prefix, sizeof(prefix), &len, LIT("File "));
	str_append(prefix, sizeof(prefix), &len, file, strlen(file));
	str_append(prefix, sizeof(prefix), &len,
		   LIT(" is loopback-mounted through "));
	str_append(prefix, sizeof(prefix), &len, found, strlen(found));
	str_append(prefix, sizeof(prefix), &len, LIT(",\nwhich is mounted "));
	sharing_busy(b, prefix, same_vm);
}

/* The file is resolved once, where the script runs readlink -f (symlinks
 * in the configured path work as there), and held by that O_PATH
 * descriptor across the lock wait; under the lock it is opened through
 * the descriptor (hp_reopen: no name is looked up again), its type, write
 * bits and identity checked on that open file (fstat), and that
 * descriptor given to the loop device. A name changed meanwhile (a
 * symlink swapped in, another file renamed over it) changes nothing: the
 * guest gets the file the path named when the call began. */
static void file_add(struct block *b, const char *p, const char *mode)
{
	struct hotplug *h = &b->h;
	char file[PATH_MAX], state[64], found[HP_PATH_MAX], loop[LOOP_PATH_MAX];
	char back[BACKING_MAX];
	struct stat st;
	const char *step, *st8;
	dev_t rdev = 0;
	int ret, pfd, fd, ro;

	pfd = hp_resolve(p, file, sizeof(file));
	if (pfd < 0)
		hp_fatal(h, p, " does not exist.");
	if (fstat(pfd, &st) < 0 || !S_ISREG(st.st_mode))
		hp_fatal(h, file, " does not exist.");
	b->mode = canonical_mode(mode);
	hp_lock(h, "block");
	/* A remove may have raced this add (the path gone, or no longer
	 * InitWait after a timeout): the script reads state once it holds
	 * the lock. The call read it with the others at its start (a round
	 * trip less); a call that had to wait for the lock reads it again,
	 * now. */
	if (h->lock_waited)
		hp_forget(h, "state");
	st8 = hp_read_default(h, "state", state, sizeof(state), "unknown");
	if (strcmp(st8, "2") != 0) {
		hp_unlock(h);
		hp_fatal(h, "Path closed or removed during hotplug add: ",
			 h->xb_path, " state: ", st8);
	}
	/* losetup's open: read-write unless r, read-only where the file
	 * cannot be written (a read-only filesystem: w! attaches it so) */
	ro = b->mode == 'r';
	fd = hp_reopen(pfd, ro ? O_RDONLY : O_RDWR);
	if (fd < 0 && !ro && (errno == EROFS || errno == EACCES)) {
		ro = 1;
		fd = hp_reopen(pfd, O_RDONLY);
	}
	if (fd < 0 || fstat(fd, &st) < 0) {
		hp_log(h, HP_ERR, file, ": ", errno_text(errno));
		hp_unlock(h);
		hp_fatal(h, "losetup ", b->mode == 'r' ? "-r " : "", file, " failed");
	}
	close(pfd);
	/* stat -c %A | grep -q w: any write bit */
	if (b->mode == 'w' && !(st.st_mode & 0222))
		read_only_busy(b, file);
	if (b->mode != '!') {
		struct file_id id = { b, st.st_dev, st.st_ino };

		b->devmm[0] = ',';
		b->devmm[1] = '\0';
		ret = loop_each(note_loop, &id);
		if (ret < 0)
			hp_fatal(h, "Unable to lookup ", file, ": /sys/block: ",
				 errno_text(-ret));
		if (b->devmm[1]) {
			ret = check_sharing(b, found);
			if (ret)
				file_shared_busy(b, file, found, ret == 2);
		}
	}
	loop[0] = '\0';
	ret = loop_attach(fd, file, ro, loop, &rdev, &step);
	close(fd);
	if (ret == -ENODEV) {
		hp_unlock(h);
		hp_fatal(h, "Failed to find an unused loop device");
	}
	if (ret < 0) {
		hp_log(h, HP_ERR, step, ": ", errno_text(-ret));
		hp_fatal(h, "losetup ", b->mode == 'r' ? "-r " : "", loop, " ",
			 file, " failed");
	}
	backing_id(back, st.st_dev, st.st_ino);
	write_dev(b, loop, rdev, loop, back);
	hp_unlock(h);
}

/* ---- remove ------------------------------------------------------------- */

/* losetup -d "$node", for the device the add attached only: node must
 * still be a loop device backed by the file the add attached (dev, ino:
 * as LOOP_GET_STATUS64 gives the loop's backing) and be the device
 * physical-device names (where the add wrote it). The file is the one
 * the add recorded (BACKING_KEY), wherever its name is now, moved or
 * deleted; without the key (an add by Debian's script or an older
 * forkless), params' file (its stat). key and val name the one
 * used, for the message. The keys are the backend's,
 * written by libxl and the add, none the guest can write. Anything else
 * -- node stale and its device since attached to another file, another
 * guest's loop device -- is refused, nothing detached (docs/hotplug.md).
 * The script detaches whatever node names, when params is a file. */
static void file_remove(struct block *b, dev_t back_dev, uint64_t back_ino,
			const char *key, const char *val)
{
	struct hotplug *h = &b->h;
	char node[HP_PATH_MAX], phys[HP_PATH_MAX];
	dev_t rdev = 0;
	int ret;

	hp_lock(h, "block");
	hp_read_required(h, "node", node, sizeof(node));
	if (hp_read(h, "physical-device", phys, sizeof(phys)) > 0) {
		char *colon = strchr(phys, ':');
		uint64_t ma, mi;

		if (!colon ||
		    parse_u64_base(phys, (size_t)(colon - phys), 16, &ma) < 0 ||
		    parse_u64_base(colon + 1, strlen(colon + 1), 16, &mi) < 0 ||
		    ma > 0xfff || mi > 0xfffff) {
			hp_unlock(h);
			hp_fatal(h, "physical-device ", phys,
				 " is not MAJOR:MINOR: ", node, " not detached");
		}
		rdev = makedev((unsigned)ma, (unsigned)mi);
	}
	ret = loop_detach(node, back_dev, back_ino, rdev);
	if (ret == -ESTALE) {
		hp_unlock(h);
		hp_fatal(h, node, " is not the loop device of ", h->xb_path,
			 " (", key, val, ", physical-device ",
			 rdev ? phys : "unset", "): not detached");
	}
	if (ret < 0) {
		char what[HP_PATH_MAX + 16] = "losetup -d ";
		size_t len = 11;

		str_append(what, sizeof(what), &len, node, strlen(node));
		/* losetup's complaint, on the script's stderr */
		hp_stderr(h, "losetup: ", node, ": detach failed: ",
			  errno_text(-ret), "\n");
		hp_sigerr(h, what, ret);
	}
	hp_unlock(h);
}

/* ---- the call ----------------------------------------------------------- */

static int is_hook_dir(int dirfd, const char *name, void *ctx)
{
	size_t n = strlen(name);
	char path[HP_PATH_MAX] = HP_SCRIPT_DIR "/";
	size_t len = sizeof(HP_SCRIPT_DIR);

	(void)dirfd;
	(void)ctx;
	return n > 8 && strncmp(name, LIT("block-")) == 0 &&
	       strcmp(name + n - 2, ".d") == 0 &&
	       str_append(path, sizeof(path), &len, name, n) == 0 &&
	       hp_have_hooks(path);
}

int block_main(int argc, char **argv)
{
	static const char *const commands[] = { "add", "remove", NULL };
	static struct block b;        /* zeroed, in .bss: see hp_init */
	static char params[PATH_MAX];
	struct hotplug *h = &b.h;
	char mode[64], phys[HP_PATH_MAX], back[BACKING_MAX];
	struct stat st;
	int add, phy = 0, file = 0;

	hp_init(h, "block", argc, argv);
	/* What the call reads of its backend, in one round trip: libxl
	 * wrote it before running the script (node: by the add). Sent
	 * first, for xenstored to answer while the call logs, checks its
	 * arguments and looks for hooks; an invalid call reads nothing of
	 * it, a fallback closes the connection when it execs. The command
	 * is argv[1] here, findCommand's below. */
	add = strcmp(h->command, "add") == 0;
	if (add)   /* state: for a file (file_add) */
		hp_prefetch(h, "params", "mode", "physical-device",
			    "frontend-id", "state");
	else
		hp_prefetch(h, "params", "mode", "node", "physical-device",
			    BACKING_KEY);
	hp_log_call(h);
	hp_check_command(h, commands, 0);
	add = strcmp(h->command, "add") == 0;
	hp_env_required(h, "XENBUS_PATH", "block-common.sh: line 31");
	if (each_entry(HP_SCRIPT_DIR, is_hook_dir, NULL) > 0)
		hp_fallback(h, "hooks in " HP_SCRIPT_DIR "/block-*.d");
	/* The script reads type first (with a default: it cannot fail),
	 * for block-TYPE, which only the script runs: not asked here. */
	hp_read_required(h, "params", params, sizeof(params));
	hp_read_required(h, "mode", mode, sizeof(mode));
	/* remove: the file the add recorded, whatever params names now; a
	 * key that is there but unusable detaches nothing */
	if (!add) {
		long n = hp_read(h, BACKING_KEY, back, sizeof(back));
		dev_t dev;
		uint64_t ino;

		if (n >= 0 && parse_backing(back, &dev, &ino) == 0) {
			file_remove(&b, dev, ino, BACKING_KEY " ", back);
			hp_exit(h, 0);
		}
		if (n >= 0)
			hp_fatal(h, BACKING_KEY " ", back,
				 " is not MAJ:MIN:INO: not detached");
		if (n != -ENOENT)
			hp_fatal(h, "xenstore-read " BACKING_KEY ": ",
				 errno_text((int)-n), ": not detached");
	}
	if (stat(params, &st) == 0) {
		phy = S_ISBLK(st.st_mode);
		file = S_ISREG(st.st_mode);
	}
	if (!phy && !file) {
		/* the script: add writes connected and runs block-TYPE */
		if (!add)
			hp_exit(h, 0);
		hp_fallback(h, "params is neither a block device nor a file");
	}
	if (!add) {
		if (file)
			file_remove(&b, st.st_dev, st.st_ino, "params ", params);
		hp_exit(h, 0);
	}
	/* libxl may run add twice: a device already set up is done */
	if (hp_read(h, "physical-device", phys, sizeof(phys)) >= 0)
		hp_exit(h, 0);
	hp_read_required(h, "frontend-id", b.frontend_id, sizeof(b.frontend_id));
	if (phy)
		phy_add(&b, params, mode);
	else
		file_add(&b, params, mode);
	hp_exit(h, 0);
}
