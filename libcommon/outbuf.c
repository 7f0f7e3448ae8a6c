// SPDX-License-Identifier: MIT
/* outbuf.c - a small buffered writer for applets that print many lines. */
#include <string.h>

#include "libcommon.h"

void outbuf_init(struct outbuf *ob, int fd)
{
	ob->fd = fd;
	ob->error = 0;
	ob->len = 0;
}

int outbuf_flush(struct outbuf *ob)
{
	if (ob->len && !ob->error) {
		int ret = write_all(ob->fd, ob->buf, ob->len);
		if (ret < 0)
			ob->error = ret;
	}
	ob->len = 0;
	return ob->error;
}

void outbuf_put(struct outbuf *ob, const void *data, size_t len)
{
	const char *p = data;

	while (len > 0) {
		size_t room = sizeof(ob->buf) - ob->len;
		size_t n = len < room ? len : room;

		memcpy(ob->buf + ob->len, p, n);
		ob->len += n;
		p += n;
		len -= n;
		if (ob->len == sizeof(ob->buf))
			outbuf_flush(ob);
	}
}

void outbuf_puts(struct outbuf *ob, const char *s)
{
	outbuf_put(ob, s, strlen(s));
}

void outbuf_putc(struct outbuf *ob, char c)
{
	outbuf_put(ob, &c, 1);
}

void outbuf_put_num(struct outbuf *ob, uint64_t v, unsigned base)
{
	char digits[64];
	size_t n = fmt_u64_base(digits, v, base);

	outbuf_put(ob, digits, n);
}
