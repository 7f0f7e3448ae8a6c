/* write.c - write(2) helpers: no stdio anywhere in forkless. */
#include <errno.h>
#include <stdarg.h>
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

int write_line_va(int fd, const char *head, const char *first, va_list ap,
		  const char *tail)
{
	struct gather g = { .fd = fd };

	gather_put(&g, head);
	for (const char *s = first; s; s = va_arg(ap, const char *))
		gather_put(&g, s);
	gather_put(&g, tail);
	if (g.len && g.ret == 0)
		g.ret = write_all(fd, g.buf, g.len);
	return g.ret;
}

int write_strs_list(int fd, const char *first, ...)
{
	va_list ap;
	int ret;

	va_start(ap, first);
	ret = write_line_va(fd, "", first, ap, "");
	va_end(ap);
	return ret;
}
