/* mount-xenstore.c - Xen 9pfs tags for mount-shared, read from xenstore.
 *
 * A Xen guest's 9pfs frontends live at device/9pfs/N in its own xenstore
 * directory, the tag in device/9pfs/N/tag. sysfs shows the devices
 * (/sys/bus/xen/devices/9pfs-N) but not the tag, so it is read with two
 * messages of the xenstore wire protocol on /dev/xen/xenbus (the
 * xenbus_dev_frontend device every Linux guest kernel with xenbus has):
 * DIRECTORY device/9pfs, then READ device/9pfs/N/tag. No libxenstore. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "libcommon.h"
#include "mount.h"

#define XENBUS_DEV "/dev/xen/xenbus"
#define XENBUS_DEV_OLD "/proc/xen/xenbus"   /* xenfs mounted on /proc/xen */
#define XS_TIMEOUT_MS 1000

size_t xs_request(char *buf, size_t cap, uint32_t type, uint32_t req_id,
		  const char *path)
{
	struct xs_header h;
	size_t plen = strlen(path) + 1;

	if (plen > XS_PAYLOAD_MAX || sizeof(h) + plen > cap)
		return 0;
	h.type = type;
	h.req_id = req_id;
	h.tx_id = 0;
	h.len = (uint32_t)plen;
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), path, plen);
	return sizeof(h) + plen;
}

static int xs_errno(const char *s, uint32_t len)
{
	static const struct { char name[7]; uint8_t err; } names[] = {
		{ "ENOENT", ENOENT }, { "EACCES", EACCES },
		{ "EINVAL", EINVAL }, { "EAGAIN", EAGAIN },
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (len >= 6 && memcmp(s, names[i].name, 6) == 0)
			return names[i].err;
	return EIO;
}

int xs_reply(const char *buf, size_t len, uint32_t req_id,
	     const char **payload, uint32_t *plen)
{
	struct xs_header h;

	if (len < sizeof(h))
		return -EAGAIN;
	memcpy(&h, buf, sizeof(h));
	if (h.len > XS_PAYLOAD_MAX || h.req_id != req_id)
		return -EIO;
	if (len < sizeof(h) + h.len)
		return -EAGAIN;
	if (len > sizeof(h) + h.len)
		return -EIO;
	*payload = buf + sizeof(h);
	*plen = h.len;
	if (h.type == XS_ERROR)
		return -xs_errno(*payload, h.len);
	return 0;
}

/* One request and its reply; the payload is NUL-terminated in buf. */
static int xs_call(int fd, uint32_t type, uint32_t req_id, const char *path,
		   char *buf, size_t cap, const char **payload, uint32_t *plen)
{
	size_t n = xs_request(buf, cap, type, req_id, path), have = 0;
	int ret;

	if (n == 0)
		return -ENAMETOOLONG;
	if ((ret = write_all(fd, buf, n)) < 0)
		return ret;
	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		ssize_t r;

		/* A xenstored that does not answer must not hang a boot. */
		if (poll(&p, 1, XS_TIMEOUT_MS) <= 0)
			return -ETIMEDOUT;
		r = read(fd, buf + have, cap - 1 - have);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		have += (size_t)r;
		ret = xs_reply(buf, have, req_id, payload, plen);
		if (ret != -EAGAIN)
			break;
		if (have == cap - 1)
			return -EIO;
	}
	if (ret == 0)
		buf[sizeof(struct xs_header) + *plen] = '\0';
	return ret;
}

int xenstore_9pfs_tags(share_fn *fn, void *ctx)
{
	char dir[sizeof(struct xs_header) + XS_PAYLOAD_MAX + 1];
	char val[sizeof(struct xs_header) + XS_PAYLOAD_MAX + 1];
	const char *list, *tag;
	uint32_t llen, tlen, req = 1;
	int fd, ret;

	fd = openat(AT_FDCWD, XENBUS_DEV, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		fd = openat(AT_FDCWD, XENBUS_DEV_OLD, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return 0;   /* not a Xen guest: no Xen tags */
	ret = xs_call(fd, XS_DIRECTORY, req++, "device/9pfs", dir, sizeof(dir),
		      &list, &llen);
	if (ret < 0) {
		close(fd);
		return 0;   /* no 9pfs devices */
	}
	/* The directory is NUL-separated names. */
	for (uint32_t i = 0; i < llen && ret == 0;) {
		const char *name = list + i;
		const char *end = memchr(name, '\0', llen - i);
		size_t nlen = end ? (size_t)(end - name) : llen - i;
		char path[64];
		size_t plen = 0;

		i += (uint32_t)nlen + 1;
		if (nlen == 0)
			continue;
		path[0] = '\0';
		if (str_append(path, sizeof(path), &plen, "device/9pfs/", 12) < 0 ||
		    str_append(path, sizeof(path), &plen, name, nlen) < 0 ||
		    str_append(path, sizeof(path), &plen, "/tag", 4) < 0)
			continue;
		if (xs_call(fd, XS_READ, req++, path, val, sizeof(val), &tag,
			    &tlen) == 0 && tlen > 0 && tlen < SHARE_TAG_MAX &&
		    !memchr(tag, '\0', tlen)) {
			char id[64];
			size_t ilen = 0;

			id[0] = '\0';
			str_append(id, sizeof(id), &ilen, name, nlen);
			ret = fn(ctx, SHARE_9P_XEN, tag, id);
		}
	}
	close(fd);
	return ret;
}
