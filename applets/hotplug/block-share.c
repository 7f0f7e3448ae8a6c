// SPDX-License-Identifier: MIT
/* block-share.c - the block applet's sharing check (block.h; the lower
 * of its two files): Debian's check_sharing for the devices of a phy: or
 * file: disk, under the "block" lock. Mounted in dom0 (the device numbers
 * /proc/self/mountinfo gives), then every backend's physical-device and
 * mode in one xenstore walk on one connection, where the script runs a
 * xenstore-list per domain and a xenstore-read per disk; a conflict is
 * Debian's message and hotplug-status busy. Also the helpers both files
 * use: the mode made canonical, a device number as stat's %t:%T. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "block.h"
#include "mountinfo.h"
#include "sys.h"

/* canonicalise_mode: no 'w' -> r; 'w' without '!' -> w; else '!'. */
char block_canonical_mode(const char *mode)
{
	if (!strchr(mode, 'w'))
		return 'r';
	return strchr(mode, '!') ? '!' : 'w';
}

/* device_major_minor: stat -L -c %t:%T, hex without leading zeros. */
void block_major_minor(char out[24], dev_t rdev)
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

/* [[ "$devmm" == *",$d,"* ]]: devmm is ",A,B,...," */
static int in_devmm(const struct block *b, const char *d)
{
	size_t n = strlen(d);

	for (const char *p = b->devmm; *p; p++)
		if (*p == ',' && strncmp(p + 1, d, n) == 0 && p[n + 1] == ',')
			return 1;
	return 0;
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
	block_major_minor(mc->found, dev);
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
				if (block_canonical_mode(m) != 'w')
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
_Noreturn void block_sharing_busy(struct block *b, const char *prefix,
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
int block_check_sharing(struct block *b, char *found)
{
	if (mounted_here(b, found))
		return 1;
	return used_by_guest(b, found) ? 2 : 0;
}
