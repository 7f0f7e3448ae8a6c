/* xenstore.c - the xenstore wire client (see xenstore.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "libcommon.h"
#include "xenstore.h"

#define XS_MSG_MAX (sizeof(struct xs_header) + XS_PAYLOAD_MAX)

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
/* Not EAGAIN (a transaction conflict; forkless makes no transactions):
 * -EAGAIN is xs_decode's "incomplete", and an "EAGAIN" reply taken for it
 * would be read on until the deadline. It is -EIO, as unknown names are. */
#define XS_ERRORS(X) X(EINVAL) X(EACCES) X(EEXIST) X(EISDIR) X(ENOENT) \
	X(ENOMEM) X(ENOSPC) X(EIO) X(ENOTEMPTY) X(ENOSYS) X(EROFS) X(EBUSY) \
	X(EISCONN) X(E2BIG) X(EPERM)
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

int xs_decode(const char *buf, size_t len, uint32_t type, uint32_t req_id,
	      const char **payload, uint32_t *plen)
{
	struct xs_header h;

	if (len < sizeof(h))
		return -EAGAIN;
	memcpy(&h, buf, sizeof(h));
	if ((h.type != type && h.type != XS_ERROR) || h.req_id != req_id ||
	    h.len > XS_PAYLOAD_MAX)
		return -EIO;
	if (len - sizeof(h) < h.len)
		return -EAGAIN;
	if (len - sizeof(h) > h.len)
		return -EIO;
	*payload = buf + sizeof(h);
	*plen = h.len;
	return h.type == XS_ERROR ? -error_named(*payload, h.len) : 0;
}

/* Read one reply on fd before the deadline into msg (XS_MSG_MAX bytes). */
static int read_reply(int fd, char *msg, uint32_t type, uint32_t req_id,
		      uint64_t deadline_ms, const char **payload,
		      uint32_t *plen)
{
	size_t have = 0;

	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		uint64_t now = clock_ms();
		int ret;
		ssize_t r;

		if (now >= deadline_ms)
			return -ETIMEDOUT;
		ret = poll(&p, 1, deadline_ms - now > 60000 ? 60000
				   : (int)(deadline_ms - now));
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0)
			return -errno;
		if (ret == 0)
			continue;   /* the deadline is checked above */
		r = read(fd, msg + have, XS_MSG_MAX - have);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EIO;   /* EOF: no reply */
		have += (size_t)r;
		ret = xs_decode(msg, have, type, req_id, payload, plen);
		if (ret != -EAGAIN)
			return ret;
		if (have == XS_MSG_MAX)
			return -EIO;
	}
}

/* The payload of a whole reply into out, NUL-terminated: its length, or
 * -E2BIG when out cannot hold it. */
static long copy_payload(char *out, size_t cap, const char *payload,
			 uint32_t plen)
{
	if (plen >= cap)
		return -E2BIG;
	memcpy(out, payload, plen);
	out[plen] = '\0';
	return plen;
}

long xs_call(const struct xs_request *rq, char *out, size_t cap,
	     uint64_t deadline_ms, const char **dev)
{
	static const uint32_t req_id = 1;   /* one request per connection */
	char msg[XS_MSG_MAX];
	const char *path = XS_DEV, *payload;
	size_t n = xs_encode(msg, sizeof(msg), rq, req_id);
	uint32_t plen = 0;   /* set with ret == 0; LTO cannot see it */
	int fd, ret;

	if (dev)
		*dev = path;
	if (n == 0)
		return -E2BIG;
	fd = openat(AT_FDCWD, path, O_RDWR | O_CLOEXEC | O_NOCTTY);
	if (fd < 0 && errno == ENOENT) {
		path = XS_DEV_OLD;
		fd = openat(AT_FDCWD, path, O_RDWR | O_CLOEXEC | O_NOCTTY);
		if (fd < 0 && errno == ENOENT) {
			path = XS_DEV;
			errno = ENODEV;
		}
	}
	if (dev)
		*dev = path;
	if (fd < 0)
		return -errno;
	ret = write_all(fd, msg, n);
	if (ret == 0)
		ret = read_reply(fd, msg, rq->type, req_id, deadline_ms,
				 &payload, &plen);
	close(fd);
	if (ret < 0)
		return ret;
	return copy_payload(out, cap, payload, plen);
}

/* ---- a connection for several requests ---------------------------------- */


static int open_socket(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	memcpy(sa.sun_path, XS_SOCKET, sizeof(XS_SOCKET));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int err = errno;

		close(fd);
		return -err;
	}
	return fd;
}

int xs_open(struct xs_conn *c, uint64_t deadline_ms)
{
	static const char *const devs[] = { XS_DEV, XS_DEV_OLD };
	int fd = open_socket();

	c->req_id = 0;
	c->deadline_ms = deadline_ms;
	c->dev = XS_SOCKET;
	/* No socket, or nobody listening on it: the device, as libxenstore. */
	for (size_t i = 0; fd < 0 && (fd == -ENOENT || fd == -ECONNREFUSED) &&
	     i < ARRAY_SIZE(devs); i++) {
		c->dev = devs[i];
		fd = openat(AT_FDCWD, devs[i], O_RDWR | O_CLOEXEC | O_NOCTTY);
		if (fd < 0)
			fd = -errno;
	}
	if (fd == -ENOENT) {
		c->dev = XS_DEV;
		fd = -ENODEV;
	}
	c->fd = fd;
	return fd < 0 ? fd : 0;
}

void xs_close(struct xs_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -ENOTCONN;
}

long xs_request(struct xs_conn *c, const struct xs_request *rq, char *out,
		size_t cap)
{
	char msg[XS_MSG_MAX];
	const char *payload;
	uint32_t plen = 0;   /* set with ret == 0; LTO cannot see it */
	size_t n;
	int ret;

	if (c->fd < 0)
		return -ENOTCONN;
	n = xs_encode(msg, sizeof(msg), rq, ++c->req_id);
	if (n == 0)
		return -E2BIG;
	ret = write_all(c->fd, msg, n);
	if (ret == 0)
		ret = read_reply(c->fd, msg, rq->type, c->req_id,
				 c->deadline_ms, &payload, &plen);
	if (ret < 0 && (ret == -EIO || ret == -ETIMEDOUT || ret == -EPIPE ||
			ret == -ECONNRESET || ret == -EBADF || ret == -EINTR)) {
		/* The stream may hold a late or partial reply: drop it. An
		 * XS_ERROR reply (-ENOENT...) leaves the stream in step. */
		xs_close(c);
		return ret;
	}
	if (ret < 0)
		return ret;
	return copy_payload(out, cap, payload, plen);
}

long xs_read(struct xs_conn *c, uint32_t tx, const char *path, char *out,
	     size_t cap)
{
	struct xs_request rq = { XS_READ, tx, path, NULL, 0 };

	return xs_request(c, &rq, out, cap);
}

long xs_directory(struct xs_conn *c, uint32_t tx, const char *path,
		  char *out, size_t cap)
{
	struct xs_request rq = { XS_DIRECTORY, tx, path, NULL, 0 };

	return xs_request(c, &rq, out, cap);
}

/* A request whose reply is "OK": 0 or -errno. */
static int xs_ok(struct xs_conn *c, const struct xs_request *rq)
{
	char ok[8];
	long n = xs_request(c, rq, ok, sizeof(ok));

	if (n < 0)
		return n == -E2BIG ? -EIO : (int)n;
	return n == 3 && memcmp(ok, "OK", 3) == 0 ? 0 : -EIO;
}

int xs_write(struct xs_conn *c, uint32_t tx, const char *path,
	     const char *value)
{
	struct xs_request rq = { XS_WRITE, tx, path, value, strlen(value) };

	return xs_ok(c, &rq);
}

int xs_rm(struct xs_conn *c, uint32_t tx, const char *path)
{
	struct xs_request rq = { XS_RM, tx, path, NULL, 0 };

	return xs_ok(c, &rq);
}

int xs_transaction_start(struct xs_conn *c, uint32_t *tx)
{
	struct xs_request rq = { XS_TRANSACTION_START, 0, "", NULL, 0 };
	char id[16];
	long n;

	*tx = 0;
	n = xs_request(c, &rq, id, sizeof(id));
	if (n < 0)
		return n == -E2BIG ? -EIO : (int)n;
	/* The id as decimal digits, with the NUL xenstored sends. */
	if (n < 2 || id[n - 1] != '\0' || parse_u32(id, tx) < 0 || *tx == 0)
		return -EIO;
	return 0;
}

int xs_transaction_end(struct xs_conn *c, uint32_t tx, int commit)
{
	struct xs_request rq = { XS_TRANSACTION_END, tx, commit ? "T" : "F",
				 NULL, 0 };

	return xs_ok(c, &rq);
}
