// SPDX-License-Identifier: MIT
/* line_stream.c - the one line reader: lines of any length in the
 * caller's fixed buffer, in pieces when a line is longer than it.
 *
 * Readers of /etc/passwd-style files must not skip or cut a long line
 * (a group with hundreds of members is one line), and must not hold it
 * whole either (no heap): they compare what they need as it streams by.
 * A non-blocking fd's EAGAIN is handed to the caller with the state kept,
 * so the same reader serves a coprocess on a pipe. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "libcommon.h"

void line_stream_init(struct line_stream *lr, int fd, char *buf, size_t cap)
{
	lr->fd = fd;
	lr->eof = 0;
	lr->mid = 0;
	lr->buf = buf;
	lr->cap = cap;
	lr->start = 0;
	lr->end = 0;
	lr->bytes_read = 0;
}

/* Hand out n bytes at start; skip reaches past the newline. */
static int piece(struct line_stream *lr, struct line_piece *p, size_t n,
		 int last, size_t skip)
{
	p->data = lr->buf + lr->start;
	p->len = n;
	p->first = !lr->mid;
	p->last = (unsigned char)last;
	lr->mid = !last;
	lr->start += n + skip;
	return 1;
}

int line_stream_take(struct line_stream *lr, struct line_piece *p)
{
	size_t avail = lr->end - lr->start;
	const char *s = lr->buf + lr->start;
	const char *nl = avail ? memchr(s, '\n', avail) : NULL;

	if (nl)
		return piece(lr, p, (size_t)(nl - s), 1, 1);
	if (avail && lr->eof)
		return piece(lr, p, avail, 1, 0);   /* no final newline */
	if (avail == lr->cap)
		return piece(lr, p, avail, 0, 0);   /* a long line */
	if (lr->eof)   /* a long last line's end: an empty piece */
		return lr->mid ? piece(lr, p, 0, 1, 0) : 0;
	return -EAGAIN;   /* the buffer holds no piece: line_stream_fill() */
}

int line_stream_fill(struct line_stream *lr)
{
	size_t avail = lr->end - lr->start;
	ssize_t n;

	if (lr->start) {
		memmove(lr->buf, lr->buf + lr->start, avail);
		lr->start = 0;
		lr->end = avail;
	}
	do
		n = read(lr->fd, lr->buf + lr->end, lr->cap - lr->end);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;   /* -EAGAIN included: nothing lost */
	if (n == 0)
		lr->eof = 1;
	lr->end += (size_t)n;
	lr->bytes_read += (uint64_t)n;
	return 0;
}

int line_stream_next(struct line_stream *lr, struct line_piece *p)
{
	int r;

	while ((r = line_stream_take(lr, p)) == -EAGAIN)
		if ((r = line_stream_fill(lr)) < 0)
			return r;
	return r;
}
