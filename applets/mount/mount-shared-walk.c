// SPDX-License-Identifier: MIT
/* mount-shared-walk.c - mount-shared's walk (mount-shared.h; the lower of
 * its two files): the shares' tags, where the system shows them --
 * virtiofs (/sys/fs/virtiofs) and virtio 9p (the 9pnet_virtio driver's
 * devices) in sysfs, Xen 9pfs in the guest's own xenstore directory --
 * and the shares no walk lists: virtio-fs devices whose tags the kernel
 * does not show, a VirtualBox guest. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "mount.h"
#include "mount-shared.h"
#include "xenstore.h"

#define XS_REPLY_MS 1000   /* a walk of xenstore gets this long */

/* ---- sysfs ------------------------------------------------------------- */

/* Out of file descriptors or memory: a walk that cannot open an entry
 * would miss shares silently, so that is a system error, named. */
static void die_if_resource(long err, const char *what, const char *name)
{
	if (err == -EMFILE || err == -ENFILE || err == -ENOMEM)
		die_msg(MNT_EX_SYSERR, "cannot read ", what, name, ": ",
			errno_text((int)-err));
}

/* each_entry() (libcommon's: fn for each name not starting with '.'),
 * where a directory that exists but cannot be read exits 2: a walk that
 * missed entries would miss shares silently. The callbacks here return 0
 * or 1, so a negative result is each_entry's -errno. */
static int for_each_entry(const char *dir, each_entry_fn *fn, void *ctx)
{
	int ret = each_entry(dir, fn, ctx);

	if (ret < 0)
		die_msg(MNT_EX_SYSERR, "cannot read ", dir, ": ",
			errno_text(-ret));
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
	die_if_resource(n, "sysfs entry ", path);
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

	if (ts->virtio_only && strncmp(name, LIT("virtio")) != 0)
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
int count_untagged_virtiofs(void)
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
int in_virtualbox(void)
{
	return access("/dev/vboxguest", F_OK) == 0 ||
	       for_each_entry("/sys/bus/pci/devices", vbox_pci_entry, NULL);
}

/* ---- xenstore ---------------------------------------------------------- */

/* A Xen guest's 9pfs frontends live at device/9pfs/N in its own xenstore
 * directory, the tag in device/9pfs/N/tag. sysfs shows the devices
 * (/sys/bus/xen/devices/9pfs-N) but not the tag: DIRECTORY device/9pfs,
 * then READ device/9pfs/N/tag, all before one deadline. */

/* A failed xenstore call: nothing to say when it just means "no Xen 9pfs
 * tags" (not under Xen, no device/9pfs); out of fds is exit 2; anything
 * else is reported once, and xenstore is not asked again. */
static void xen_failed(struct xen_state *xs, long err, const char *dev)
{
	if (err == -ENODEV || err == -ENOENT)
		return;
	die_if_resource(err, "", dev);
	xs->given_up = 1;
	if (err == -ETIMEDOUT)
		warn_msg(dev, ": xenstore did not answer within 1 s; Xen 9pfs "
			 "tags are not looked for");
	else
		warn_msg(dev, ": cannot read the Xen 9pfs tags from xenstore: ",
			 errno_text((int)-err));
}

static int xen_9pfs_tags(struct xen_state *xs, share_fn *fn, void *ctx)
{
	char list[XS_PAYLOAD_MAX + 1], tag[XS_PAYLOAD_MAX + 1];
	struct xs_request rq = { XS_DIRECTORY, 0, "device/9pfs", NULL, 0 };
	uint64_t deadline = clock_ms() + XS_REPLY_MS;
	const char *dev;
	long llen, tlen;
	int ret = 0;

	if (xs->given_up)
		return 0;
	llen = xs_call(&rq, list, sizeof(list), deadline, &dev);
	if (llen < 0) {
		xen_failed(xs, llen, dev);
		return 0;
	}
	/* The directory is NUL-separated names. */
	rq.type = XS_READ;
	for (long i = 0; i < llen && ret == 0;) {
		const char *name = list + i;
		size_t nlen = strlen(name);   /* list[llen] is a NUL */
		char path[64];
		size_t plen = 0;

		i += (long)nlen + 1;
		path[0] = '\0';
		if (nlen == 0 ||
		    str_append(path, sizeof(path), &plen, LIT("device/9pfs/")) < 0 ||
		    str_append(path, sizeof(path), &plen, name, nlen) < 0 ||
		    str_append(path, sizeof(path), &plen, LIT("/tag")) < 0)
			continue;
		rq.path = path;
		tlen = xs_call(&rq, tag, sizeof(tag), deadline, &dev);
		if (tlen == -ENOENT)
			continue;   /* a device being set up or torn down */
		if (tlen < 0) {
			xen_failed(xs, tlen, dev);
			return 0;
		}
		if (tlen > 0 && tlen < SHARE_TAG_MAX &&
		    strlen(tag) == (size_t)tlen)
			ret = fn(ctx, SHARE_9P_XEN, tag, name);
	}
	return ret;
}

/* ---- the walk ---------------------------------------------------------- */

int for_each_share(unsigned kinds, struct xen_state *xs, share_fn *fn,
		   void *ctx)
{
	struct tag_scan ts = { "/tag", 0, fn, ctx, SHARE_VIRTIOFS };
	int ret = 0;

	if (kinds & KIND(SHARE_VIRTIOFS))
		ret = for_each_entry("/sys/fs/virtiofs", scan_tag_entry, &ts);
	ts.file = "/mount_tag";
	ts.virtio_only = 1;
	ts.kind = SHARE_9P_VIRTIO;
	if (!ret && kinds & KIND(SHARE_9P_VIRTIO))
		ret = for_each_entry("/sys/bus/virtio/drivers/9pnet_virtio",
				     scan_tag_entry, &ts);
	if (!ret && kinds & KIND(SHARE_9P_XEN))
		ret = xen_9pfs_tags(xs, fn, ctx);
	return ret;
}
