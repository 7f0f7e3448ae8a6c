/* mount.h - what applets/mount.c and applets/mount-xenstore.c share (and
 * tests/unit/test_mountopt.c checks). */
#ifndef FORKLESS_MOUNT_H
#define FORKLESS_MOUNT_H

#include <stddef.h>
#include <stdint.h>

#define SHARE_TAG_MAX 256

enum share_kind {
	SHARE_VIRTIOFS,
	SHARE_9P_VIRTIO,
	SHARE_9P_XEN,
	SHARE_VBOXSF,
};

/* Called for each tag found; dev names where it was seen (virtio0, the
 * xenstore device id). A non-zero return stops the walk. */
typedef int share_fn(void *ctx, enum share_kind kind, const char *tag,
		     const char *dev);
int for_each_share(unsigned kinds, share_fn *fn, void *ctx);

/* ---- xenstore (mount-xenstore.c) ---------------------------------------- */

/* The xenstore wire protocol (xen/include/public/io/xs_wire.h). */
enum { XS_DIRECTORY = 1, XS_READ = 2, XS_ERROR = 16 };
struct xs_header {
	uint32_t type, req_id, tx_id, len;
};
#define XS_PAYLOAD_MAX 4096

/* Build a request for path into buf: returns its length, or 0 when it
 * does not fit. */
size_t xs_request(char *buf, size_t cap, uint32_t type, uint32_t req_id,
		  const char *path);
/* Check a reply of len bytes for req_id: 0 and the payload, -EIO for a
 * malformed or mismatched reply, -EAGAIN when incomplete, -ENOENT (etc.)
 * for an XS_ERROR reply naming that errno. */
int xs_reply(const char *buf, size_t len, uint32_t req_id,
	     const char **payload, uint32_t *plen);
/* Each device/9pfs/N/tag of this domain, through /dev/xen/xenbus. */
int xenstore_9pfs_tags(share_fn *fn, void *ctx);

#endif
