// SPDX-License-Identifier: MIT
/* xenstore.h - a xenstore wire-protocol client that knows no applet.
 *
 * The protocol is xen/include/public/io/xs_wire.h: a 16-byte header
 * {type, req_id, tx_id, len} and len bytes of payload each way. A guest
 * (or dom0) kernel with xenbus offers it on /dev/xen/xenbus
 * (xenbus_dev_frontend), or /proc/xen/xenbus where xenfs is mounted on
 * /proc/xen. No libxenstore, no heap, no stdio.
 *
 * One connection per call: xs_call() opens the device, writes one
 * request, reads one reply and closes, so a caller keeps no state and a
 * reply can never be mistaken for another request's. Every reply is
 * checked: its type (the request's, or XS_ERROR), its req_id, its length
 * (at most XS_PAYLOAD_MAX, and what the caller's buffer holds). The wait
 * for it is bounded by a deadline the caller passes, so a xenstore that
 * never answers costs the caller the time it chose, once.
 */
#ifndef FORKLESS_XENSTORE_H
#define FORKLESS_XENSTORE_H

#include <stddef.h>
#include <stdint.h>

/* Message types (xs_wire.h, enum xsd_sockmsg_type). */
enum {
	XS_DIRECTORY = 1,
	XS_READ = 2,
	XS_WATCH = 4,                   /* payload "PATH\0TOKEN\0" */
	XS_TRANSACTION_START = 6,
	XS_TRANSACTION_END = 7,
	XS_WRITE = 11,
	XS_RM = 13,
	XS_WATCH_EVENT = 15,            /* unsolicited: "PATH\0TOKEN\0" */
	XS_ERROR = 16,
	XS_IS_DOMAIN_INTRODUCED = 17,   /* reply "T" or "F" */
	XS_DIRECTORY_PART = 22,         /* xs_directory_all() */
};

struct xs_header {
	uint32_t type, req_id, tx_id, len;
};
#define XS_PAYLOAD_MAX 4096   /* XENSTORE_PAYLOAD_MAX */

#define XS_DEV "/dev/xen/xenbus"
#define XS_DEV_OLD "/proc/xen/xenbus"

/* A request. The payload is path and its NUL, then for XS_WRITE the
 * value (value_len bytes, no NUL). XS_TRANSACTION_START: path "";
 * XS_TRANSACTION_END: path "T" (commit) or "F", with its tx_id. */
struct xs_request {
	uint32_t type;
	uint32_t tx_id;          /* 0: outside any transaction */
	const char *path;
	const char *value;       /* XS_WRITE only, else NULL */
	size_t value_len;
};

/* The request as it goes on the wire into buf: its length, or 0 when it
 * does not fit cap or the payload is over XS_PAYLOAD_MAX. */
size_t xs_encode(char *buf, size_t cap, const struct xs_request *rq,
		 uint32_t req_id);

/* Check the reply in buf (len bytes so far) to a request of that type and
 * req_id: XS_MORE while incomplete (more bytes are needed), 0 with the
 * payload when whole, -EIO when malformed (another type or req_id, a
 * length over XS_PAYLOAD_MAX, bytes past the end), -errno for an XS_ERROR
 * reply ("ENOENT" -> -ENOENT, "EAGAIN" -> -EAGAIN: a transaction's commit
 * lost to another writer; a name it does not know -> -EIO). */
#define XS_MORE 1
int xs_decode(const char *buf, size_t len, uint32_t type, uint32_t req_id,
	      const char **payload, uint32_t *plen);
/* The same for the first reply of a stream (buf may hold more after it):
 * when whole (0 or an XS_ERROR's -errno), *used is its length. */
int xs_decode_next(const char *buf, size_t len, uint32_t type,
		   uint32_t req_id, const char **payload, uint32_t *plen,
		   size_t *used);

/* One request over a new connection, its reply's payload into out (cap
 * bytes; NUL-terminated, so cap > the payload). Returns the payload length
 * or -errno: -ENODEV when neither device exists (not under Xen), the
 * error of open/write/read, -ETIMEDOUT when no whole reply came before
 * deadline_ms (clock_ms() time), -E2BIG when the payload does not fit
 * out, and xs_decode()'s errors. *dev (when not NULL) names the device
 * used, for messages. */
long xs_call(const struct xs_request *rq, char *out, size_t cap,
	     uint64_t deadline_ms, const char **dev);

/* ---- a connection for several requests (hotplug applets) -------------
 *
 * A hotplug call reads and writes tens of keys: one connection serves
 * them all, each request with its own req_id, each reply checked as
 * xs_call() checks it. xs_open() tries what libxenstore's xs_open(0)
 * tries, in its order: xenstored's unix socket (XS_SOCKET, dom0 with the
 * daemon running), then the xenbus device (XS_DEV, then XS_DEV_OLD).
 * Relative paths ("backend/vif/1/0/bridge") are resolved by xenstored
 * against the caller's domain home, /local/domain/0 in dom0: the client
 * sends them as they are. deadline_ms bounds every wait of the connection
 * (connect, each reply), so a hotplug call has one budget, not one per
 * key. */
#define XS_SOCKET "/var/run/xenstored/socket"

struct xs_conn {
	int fd;
	uint32_t req_id;        /* of the last request */
	uint64_t deadline_ms;   /* clock_ms() time */
	const char *dev;        /* what fd is, for messages */
	int device;             /* fd is the device: one request a write,
				 * one in flight */
	int answered;           /* xs_send on the device read the replies */
};

/* 0, or -errno: -ENODEV when there is neither the socket nor a device
 * (not dom0, or no xenstored), -ETIMEDOUT when xenstored's socket did not
 * take the connection before deadline_ms (a hung xenstored, its listen
 * backlog full: the device is not tried then), else the error of the
 * last one tried; c->dev names it either way. */
int xs_open(struct xs_conn *c, uint64_t deadline_ms);
/* xenstored's socket only (`xenstore-read -s`): -ENOENT or -ECONNREFUSED
 * while no xenstored listens there, -ETIMEDOUT as xs_open(). */
int xs_open_socket(struct xs_conn *c, uint64_t deadline_ms);
void xs_close(struct xs_conn *c);

/* One request on c, its reply's payload into out as xs_call() does
 * (NUL-terminated; -E2BIG when it does not fit). After a broken reply
 * (-EIO, -ETIMEDOUT, a read or write error) the connection is closed and
 * every later request returns -ENOTCONN: replies can never be paired
 * with the wrong request. */
long xs_request(struct xs_conn *c, const struct xs_request *rq, char *out,
		size_t cap);

/* Several requests at once: written together on the socket (as few
 * writes as they fit in), then the replies read in order -- xenstored
 * answers a connection's requests one after another, so n requests cost
 * one round trip, not n. On the device one at a time, each request its
 * own write and its reply read before the next: the kernel takes one
 * message a write and keeps a queued request's payload in the file's
 * buffer, which a second write overwrites (n round trips there).
 * Only for requests that do not depend on each other's answers. Each op's
 * ret is what xs_request() would return for it (its reply's payload in
 * out). Returns 0, or the stream error after which the connection is
 * closed (that op has it, the later ones -ENOTCONN). */
struct xs_op {
	struct xs_request rq;
	char *out;
	size_t cap;
	long ret;
};
int xs_requests(struct xs_conn *c, struct xs_op *ops, size_t n);
/* xs_requests in two halves, for a caller with work to do while xenstored
 * answers: xs_send writes ops[0..n) (all of them fit XS_PAYLOAD_MAX, else
 * nothing is sent and each op's ret is -E2BIG); xs_recv then reads their
 * replies, with the same ops and n, before any other request on c. (On
 * the device xs_send exchanges them one by one, as xs_requests, and
 * xs_recv has nothing left to read.) Each
 * returns 0 or the error after which c is closed, each op's ret set as by
 * xs_requests. */
int xs_send(struct xs_conn *c, struct xs_op *ops, size_t n);
int xs_recv(struct xs_conn *c, struct xs_op *ops, size_t n);

/* The usual requests, in transaction tx (0: none). */
long xs_read(struct xs_conn *c, uint32_t tx, const char *path, char *out,
	     size_t cap);
/* The NUL-separated names below path, as xs_read(). */
long xs_directory(struct xs_conn *c, uint32_t tx, const char *path,
		  char *out, size_t cap);
/* The whole listing of path, however long: XS_DIRECTORY, and when
 * xenstored answers E2BIG (C xenstored does for a reply over
 * XS_PAYLOAD_MAX: ~700 domains below backend/vbd) XS_DIRECTORY_PART
 * chunk by chunk into out (as xs_read(); -E2BIG when out is too small or
 * xenstored does not know XS_DIRECTORY_PART, -EAGAIN when the directory
 * kept changing between chunks, -EIO for a malformed chunk). */
long xs_directory_all(struct xs_conn *c, uint32_t tx, const char *path,
		      char *out, size_t cap);
/* One XS_DIRECTORY_PART reply (payload, plen bytes): *gen the node's
 * generation (NUL-terminated, inside payload), *names and *nlen the names
 * of the chunk (each NUL-terminated, none empty; nlen 0 for none).
 * Returns 1 when the chunk is the last, 0 when more follow, -EIO when
 * malformed (no generation or one over 23 bytes, a chunk that is empty,
 * does not end at a name's NUL, or holds an empty name). */
int xs_dirpart_parse(const char *payload, size_t plen, const char **gen,
		     const char **names, size_t *nlen);
int xs_write(struct xs_conn *c, uint32_t tx, const char *path,
	     const char *value);
int xs_rm(struct xs_conn *c, uint32_t tx, const char *path);
/* Start a transaction: its id in *tx. */
int xs_transaction_start(struct xs_conn *c, uint32_t *tx);
/* End it: commit (1) or abort (0). -EAGAIN: another writer got in first;
 * the caller runs its transaction again. */
int xs_transaction_end(struct xs_conn *c, uint32_t tx, int commit);

#endif
