// SPDX-License-Identifier: MIT
/* xenstore.c - the xenstore wire client (see xenstore.h): the device or
 * socket, requests sent and their replies read within a deadline, the
 * requests the callers make. The messages themselves, encoded, decoded
 * and checked, are xenstore-wire.c's. */
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

/* The one buffer of the wire: requests are encoded into it and sent, then
 * replies read into it (never both at once: nothing is kept in it between
 * calls). Static, not on the stack: 8 KiB there would put every frame
 * below it two pages further down, a page fault each the first time;
 * here only the bytes used are touched, a page (a fault under Xen costs
 * 0.1-0.2 ms: hotplug.h). */
static char wire[2 * XS_MSG_MAX];   /* a reply is at most XS_MSG_MAX */

/* Does the request's payload fit XS_PAYLOAD_MAX? */
static int xs_fits(const struct xs_request *rq)
{
	return strlen(rq->path) + 1 + (rq->value ? rq->value_len : 0) <=
	       XS_PAYLOAD_MAX;
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

/* The replies to ops[0..n) (req_ids first_id, first_id + 1, ...) as they
 * arrive on fd, in order, before the deadline: each op's ret and out set.
 * One read may bring several replies, or part of one. 0, or the stream
 * error that stopped it (that op has it, the ops after it -ENOTCONN). */
static int recv_replies(int fd, struct xs_op *ops, size_t n,
			uint32_t first_id, uint64_t deadline_ms)
{
	char *in = wire;
	size_t have = 0, i = 0;
	int ret = 0;

	while (i < n) {
		const char *payload;
		uint32_t plen = 0;   /* set with ret == 0; LTO cannot see it */
		size_t used = 0;
		struct pollfd p = { fd, POLLIN, 0 };
		uint64_t now;
		ssize_t r;

		ret = xs_decode_next(in, have, ops[i].rq.type, first_id + (uint32_t)i,
				     &payload, &plen, &used);
		if (ret != XS_MORE) {
			if (used == 0)   /* malformed: the stream is lost */
				break;
			ops[i].ret = ret < 0 ? ret
				     : copy_payload(ops[i].out, ops[i].cap,
						    payload, plen);
			memmove(in, in + used, have - used);
			have -= used;
			i++;
			ret = 0;
			continue;
		}
		now = clock_ms();
		if (now >= deadline_ms) {
			ret = -ETIMEDOUT;
			break;
		}
		ret = poll(&p, 1, deadline_ms - now > 60000 ? 60000
			   : (int)(deadline_ms - now));
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0) {
			ret = -errno;
			break;
		}
		if (ret == 0)
			continue;   /* the deadline is checked above */
		r = read(fd, in + have, sizeof(wire) - have);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;   /* (the socket is non-blocking) */
		if (r <= 0) {
			ret = r < 0 ? -errno : -EIO;   /* EOF: no reply */
			break;
		}
		have += (size_t)r;
	}
	if (ret == 0 && have)
		ret = -EIO;   /* bytes nobody asked for */
	for (size_t j = i; ret < 0 && j < n; j++)
		ops[j].ret = j == i ? ret : -ENOTCONN;
	return ret;
}

/* Wait until fd is ready for events, or the deadline: 0, -ETIMEDOUT or
 * poll's -errno. */
static int wait_fd(int fd, short events, uint64_t deadline_ms)
{
	for (;;) {
		struct pollfd p = { fd, events, 0 };
		uint64_t now = clock_ms();
		int ret;

		if (now >= deadline_ms)
			return -ETIMEDOUT;
		ret = poll(&p, 1, deadline_ms - now > 60000 ? 60000
			   : (int)(deadline_ms - now));
		if (ret > 0)
			return 0;
		if (ret < 0 && errno != EINTR)
			return -errno;
	}
}

/* write_all, for the socket too, which is non-blocking (open_socket): a
 * xenstored that stops reading leaves the write waiting until the
 * deadline, not for ever. The device is blocking: its writes never wait
 * for xenstored (the kernel queues them). */
static int send_all(int fd, const char *buf, size_t len, uint64_t deadline_ms)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);
		int ret;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN)
			return -errno;
		if (n < 0) {
			if ((ret = wait_fd(fd, POLLOUT, deadline_ms)) < 0)
				return ret;
			continue;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* ops[0..n) written to fd, req_ids from first_id. 0 or the write error
 * (then every op has its ret: nothing of the stream can be read in step
 * any more). On the socket, as few writes as they fit in. On the device,
 * one request per write: the kernel's xenbus_file_write takes the first
 * whole message of a write, says it took every byte and drops the rest,
 * and then queues each request without waiting for its reply, so they
 * still cost one round trip. Every request fits (xs_fits: the callers
 * check), so one always encodes into an empty buffer. */
static int send_requests(int fd, struct xs_op *ops, size_t n,
			 uint32_t first_id, int device, uint64_t deadline_ms)
{
	char *msg = wire;
	size_t len = 0;
	int ret = 0;

	for (size_t i = 0; i < n && ret == 0; i++) {
		size_t m = device && len ? 0
			   : xs_encode(msg + len, XS_MSG_MAX - len, &ops[i].rq,
				       first_id + (uint32_t)i);

		if (m == 0) {   /* full, or a device: send what is there first */
			ret = send_all(fd, msg, len, deadline_ms);
			len = 0;
			m = xs_encode(msg, XS_MSG_MAX, &ops[i].rq,
				      first_id + (uint32_t)i);
		}
		len += m;
	}
	if (ret == 0 && len)
		ret = send_all(fd, msg, len, deadline_ms);
	for (size_t j = 0; ret < 0 && j < n; j++)
		ops[j].ret = j == 0 ? ret : -ENOTCONN;
	return ret;
}

/* send_requests, then their replies. 0 or the stream error. On the
 * device one request at a time, its reply read before the next is
 * written: the kernel queues a request with its payload still in the
 * file's buffer, which the next write overwrites before xenstored has it
 * (Linux 6.12: a read refused EINVAL, a write's key with another's
 * value). */
static int exchange(int fd, struct xs_op *ops, size_t n, uint32_t first_id,
		    uint64_t deadline_ms, int device)
{
	size_t step = device ? 1 : n, i;
	int ret = 0;

	for (i = 0; i < n && ret == 0; i += step) {
		ret = send_requests(fd, ops + i, step, first_id + (uint32_t)i,
				    device, deadline_ms);
		if (ret == 0)
			ret = recv_replies(fd, ops + i, step,
					   first_id + (uint32_t)i, deadline_ms);
	}
	for (; i < n; i++)   /* after a stream error, never sent */
		ops[i].ret = -ENOTCONN;
	return ret;
}

long xs_call(const struct xs_request *rq, char *out, size_t cap,
	     uint64_t deadline_ms, const char **dev)
{
	struct xs_op op = { *rq, out, cap, 0 };
	const char *path = XS_DEV;
	int fd;

	if (dev)
		*dev = path;
	if (!xs_fits(rq))
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
	exchange(fd, &op, 1, 1, deadline_ms, 1);   /* one request per connection */
	close(fd);
	return op.ret;
}

/* ---- a connection for several requests ---------------------------------- */


/* xenstored's socket, connected before the deadline: non-blocking, so a
 * xenstored that has stopped accepting (its listen backlog full) costs
 * the deadline, not the caller's life. A unix socket's connect does not
 * go on in the background: with the backlog full it answers EAGAIN (a
 * blocking one would sleep until xenstored accepts), and is tried again,
 * every 10 ms, until the deadline: then -ETIMEDOUT. (EINPROGRESS, which a
 * unix socket does not answer, is waited for as a TCP connect's.) The fd
 * stays non-blocking: its reads wait in poll, its writes in send_all. */
static int open_socket(uint64_t deadline_ms)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	int err = 0;

	if (fd < 0)
		return -errno;
	memcpy(sa.sun_path, XS_SOCKET, sizeof(XS_SOCKET));
	while (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		uint64_t now;

		err = errno;
		if (err == EINPROGRESS) {
			socklen_t len = sizeof(err);

			err = -wait_fd(fd, POLLOUT, deadline_ms);
			if (err == 0 && getsockopt(fd, SOL_SOCKET, SO_ERROR,
						   &err, &len) < 0)
				err = errno;
			break;
		}
		if (err != EAGAIN && err != EINTR)
			break;
		now = clock_ms();
		if (now >= deadline_ms) {
			err = ETIMEDOUT;
			break;
		}
		poll(NULL, 0, deadline_ms - now < 10 ? (int)(deadline_ms - now) : 10);
		err = 0;
	}
	if (err) {
		close(fd);
		return -err;
	}
	return fd;
}

int xs_open(struct xs_conn *c, uint64_t deadline_ms)
{
	static const char *const devs[] = { XS_DEV, XS_DEV_OLD };
	int fd = open_socket(deadline_ms);

	c->req_id = 0;
	c->answered = 0;
	c->deadline_ms = deadline_ms;
	c->dev = XS_SOCKET;
	c->device = fd < 0;
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

int xs_open_socket(struct xs_conn *c, uint64_t deadline_ms)
{
	int fd = open_socket(deadline_ms);

	c->req_id = 0;
	c->answered = 0;
	c->deadline_ms = deadline_ms;
	c->dev = XS_SOCKET;
	c->device = 0;
	c->fd = fd;
	return fd < 0 ? fd : 0;
}

void xs_close(struct xs_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -ENOTCONN;
}

int xs_requests(struct xs_conn *c, struct xs_op *ops, size_t n)
{
	size_t i = 0;
	int ret = c->fd < 0 ? -ENOTCONN : 0;

	while (i < n && ret == 0) {
		size_t j = i;

		/* a run of requests that fit, exchanged at once; one over
		 * XS_PAYLOAD_MAX is never sent */
		while (j < n && xs_fits(&ops[j].rq))
			j++;
		if (j > i) {
			ret = exchange(c->fd, ops + i, j - i, c->req_id + 1,
				       c->deadline_ms, c->device);
			c->req_id += (uint32_t)(j - i);
		}
		if (j < n && ret == 0)
			ops[j++].ret = -E2BIG;
		i = j;
	}
	for (; i < n; i++)
		ops[i].ret = -ENOTCONN;
	if (ret < 0)
		/* The stream may hold a late or partial reply: drop it. (An
		 * XS_ERROR reply, -ENOENT..., is one op's ret: the stream
		 * stays in step.) */
		xs_close(c);
	return ret;
}

int xs_send(struct xs_conn *c, struct xs_op *ops, size_t n)
{
	int ret = c->fd < 0 ? -ENOTCONN : 0;

	for (size_t i = 0; i < n && ret == 0; i++)
		if (!xs_fits(&ops[i].rq))
			ret = -E2BIG;
	if (ret < 0) {
		for (size_t i = 0; i < n; i++)
			ops[i].ret = ret;   /* nothing sent */
		return ret;
	}
	if (c->device)   /* one in flight: the replies read here */
		ret = exchange(c->fd, ops, n, c->req_id + 1, c->deadline_ms, 1);
	else
		ret = send_requests(c->fd, ops, n, c->req_id + 1, 0,
				    c->deadline_ms);
	c->req_id += (uint32_t)n;
	c->answered = c->device && ret == 0;
	if (ret < 0)
		xs_close(c);   /* each op has its ret */
	return ret;
}

int xs_recv(struct xs_conn *c, struct xs_op *ops, size_t n)
{
	int ret = -ENOTCONN;

	if (c->answered) {   /* the device's: xs_send read them */
		c->answered = 0;
		return 0;
	}
	if (c->fd >= 0)
		ret = recv_replies(c->fd, ops, n, c->req_id + 1 - (uint32_t)n,
				   c->deadline_ms);
	else
		for (size_t i = 0; i < n; i++)
			ops[i].ret = ret;
	if (ret < 0)
		xs_close(c);   /* as xs_requests */
	return ret;
}

long xs_request(struct xs_conn *c, const struct xs_request *rq, char *out,
		size_t cap)
{
	struct xs_op op = { *rq, out, cap, 0 };

	xs_requests(c, &op, 1);
	return op.ret;
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

/* XS_DIRECTORY, then on E2BIG the XS_DIRECTORY_PART chunks (paged as
 * xenstore-wire.c's xs_dirpart_parse says). */
long xs_directory_all(struct xs_conn *c, uint32_t tx, const char *path,
		      char *out, size_t cap)
{
	char gen[24] = "";
	size_t off = 0;
	int restarts = 0;
	long n = xs_directory(c, tx, path, out, cap);

	if (n != -E2BIG)
		return n;
	for (;;) {
		char offs[24];
		struct xs_request rq = { XS_DIRECTORY_PART, tx, path, offs, 0 };
		const char *g, *names;
		size_t nlen;
		int last;

		rq.value_len = fmt_u64_base(offs, off, 10);
		offs[rq.value_len++] = '\0';
		/* the reply lands after what is there, its names then moved
		 * over its generation */
		n = xs_request(c, &rq, out + off, cap - off);
		if (n < 0)   /* ENOSYS: a xenstored without it (as xs.c) */
			return n == -ENOSYS ? -E2BIG : n;
		last = xs_dirpart_parse(out + off, (size_t)n, &g, &names, &nlen);
		if (last < 0)
			return last;
		if (off == 0) {
			memcpy(gen, g, strlen(g) + 1);
		} else if (strcmp(gen, g) != 0) {   /* changed: again */
			if (++restarts > 8)
				return -EAGAIN;
			off = 0;
			continue;
		}
		memmove(out + off, names, nlen);
		off += nlen;
		out[off] = '\0';
		if (last)
			return (long)off;
		/* (a chunk that is not the last holds a name: progress) */
	}
}

/* A request whose reply is "OK": 0 or -errno. */
static int xs_ok(struct xs_conn *c, const struct xs_request *rq)
{
	char ok[8];
	long n = xs_request(c, rq, ok, sizeof(ok));

	if (n < 0)
		return n == -E2BIG ? -EIO : (int)n;
	return n == sizeof("OK") && memcmp(ok, "OK", sizeof("OK")) == 0 ? 0 : -EIO;
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
