// SPDX-License-Identifier: MIT
/* xenstore-wire.c - the xenstore messages (see xenstore.h), with no I/O:
 * a request encoded, a reply decoded and checked (its type, req_id and
 * length; an XS_ERROR's errno), an XS_DIRECTORY_PART chunk parsed. The
 * client that sends and reads them is xenstore.c; the fuzz target and the
 * unit test take these alone. */
#include <errno.h>
#include <string.h>

#include "libcommon.h"
#include "xenstore.h"

size_t xs_encode(char *buf, size_t cap, const struct xs_request *rq,
		 uint32_t req_id)
{
	struct xs_header h;
	size_t plen = strlen(rq->path) + 1, vlen = rq->value ? rq->value_len : 0;

	if (plen + vlen > XS_PAYLOAD_MAX || sizeof(h) + plen + vlen > cap)
		return 0;
	h.type = rq->type;
	h.req_id = req_id;
	h.tx_id = rq->tx_id;
	h.len = (uint32_t)(plen + vlen);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), rq->path, plen);
	if (vlen)
		memcpy(buf + sizeof(h) + plen, rq->value, vlen);
	return sizeof(h) + plen + vlen;
}

/* The errno an XS_ERROR payload names (xs_wire.h's xsd_errors), or EIO.
 * The names are one string (a pool), their errnos an array beside it. */
/* EAGAIN is a transaction's commit lost to another writer (the caller
 * runs the transaction again): "incomplete" is XS_MORE, not an errno, so
 * the two cannot be taken for each other. */
#define XS_ERRORS(X) X(EINVAL) X(EACCES) X(EEXIST) X(EISDIR) X(ENOENT) \
	X(ENOMEM) X(ENOSPC) X(EIO) X(ENOTEMPTY) X(ENOSYS) X(EROFS) X(EBUSY) \
	X(EAGAIN) X(EISCONN) X(E2BIG) X(EPERM)
#define XS_ERROR_NAME(e) #e "\0"
#define XS_ERROR_VALUE(e) e,
static int error_named(const char *s, uint32_t len)
{
	static const char names[] = XS_ERRORS(XS_ERROR_NAME);
	static const uint8_t values[] = { XS_ERRORS(XS_ERROR_VALUE) };
	const char *name = names;

	if (!memchr(s, '\0', len))
		return EIO;
	for (size_t i = 0; i < ARRAY_SIZE(values); i++) {
		if (strcmp(s, name) == 0)
			return values[i];
		name += strlen(name) + 1;
	}
	return EIO;
}

int xs_decode_next(const char *buf, size_t len, uint32_t type,
		   uint32_t req_id, const char **payload, uint32_t *plen,
		   size_t *used)
{
	struct xs_header h;

	if (len < sizeof(h))
		return XS_MORE;
	memcpy(&h, buf, sizeof(h));
	if ((h.type != type && h.type != XS_ERROR) || h.req_id != req_id ||
	    h.len > XS_PAYLOAD_MAX)
		return -EIO;
	if (len - sizeof(h) < h.len)
		return XS_MORE;
	*used = sizeof(h) + h.len;
	*payload = buf + sizeof(h);
	*plen = h.len;
	return h.type == XS_ERROR ? -error_named(*payload, h.len) : 0;
}

int xs_decode(const char *buf, size_t len, uint32_t type, uint32_t req_id,
	      const char **payload, uint32_t *plen)
{
	const char *p = NULL;
	uint32_t l = 0;
	size_t used = 0;
	int ret = xs_decode_next(buf, len, type, req_id, &p, &l, &used);

	if (ret == XS_MORE || used == 0)
		return ret;
	if (used != len)
		return -EIO;   /* bytes past the end of the one reply */
	*payload = p;
	*plen = l;
	return ret;
}


/* XS_DIRECTORY_PART (xs_wire.h: 22; docs/misc/xenstore.txt), as Xen's
 * own client pages (tools/libs/store/xs.c, xs_directory_part): the
 * request is "PATH\0OFFSET\0", OFFSET the decimal byte offset into the
 * node's list of names; the reply "GEN\0" and the names from there, each
 * NUL-terminated, as many whole names as fit XS_PAYLOAD_MAX, the last
 * chunk followed by one more NUL (an offset past the list: "GEN\0\0").
 * GEN is the node's generation: another GEN in a later chunk means the
 * node changed in between, and the listing starts again. */
int xs_dirpart_parse(const char *payload, size_t plen, const char **gen,
		     const char **names, size_t *nlen)
{
	const char *end = memchr(payload, '\0', plen < 24 ? plen : 24);
	size_t glen, clen;

	if (!end || end == payload)
		return -EIO;
	glen = (size_t)(end - payload) + 1;
	clen = plen - glen;
	if (clen == 0 || payload[plen - 1] != '\0')
		return -EIO;   /* no chunk, or a name cut */
	*gen = payload;
	*names = payload + glen;
	/* the last: the list's end marker, an empty name at the end */
	*nlen = clen > 1 && payload[plen - 2] != '\0' ? clen : clen - 1;
	for (size_t i = 0; i < *nlen; i++)
		if ((*names)[i] == '\0' && (i == 0 || (*names)[i - 1] == '\0'))
			return -EIO;   /* an empty name */
	return *nlen < clen;
}
