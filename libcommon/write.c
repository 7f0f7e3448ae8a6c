// SPDX-License-Identifier: MIT
/* write.c - write(2) helpers: no stdio anywhere in forkless. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "libcommon.h"

int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Gather pieces into one buffer so a message is one write(2): two
 * processes writing to one terminal or log then never interleave lines.
 * A piece that does not fit is written in parts, never cut. */
struct gather {
	int fd;
	int ret;
	size_t len;
	char buf[4096];
};

static void gather_put(struct gather *g, const char *s)
{
	size_t n = strlen(s);

	if (n > sizeof(g->buf) - g->len) {
		if (g->len && g->ret == 0)
			g->ret = write_all(g->fd, g->buf, g->len);
		g->len = 0;
		if (n > sizeof(g->buf)) {
			if (g->ret == 0)
				g->ret = write_all(g->fd, s, n);
			return;
		}
	}
	memcpy(g->buf + g->len, s, n);
	g->len += n;
}

int write_line(int fd, const char *const *head, const char *const *list,
	       const char *const *tail)
{
	const char *const *parts[3] = { head, list, tail };
	struct gather g;   /* not zeroed: buf is written before it is read */

	g.fd = fd;
	g.ret = 0;
	g.len = 0;
	for (int i = 0; i < 3; i++)
		for (const char *const *s = parts[i]; s && *s; s++)
			gather_put(&g, *s);
	if (g.len && g.ret == 0)
		g.ret = write_all(fd, g.buf, g.len);
	return g.ret;
}
