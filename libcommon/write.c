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

/* Gather the strings into one buffer so a message is one write(2): two
 * processes writing to one terminal or log then never interleave lines. */
static int write_strs_va(int fd, const char *first, va_list ap)
{
	char buf[4096];
	size_t len = 0;
	int ret = 0;

	for (const char *s = first; s; s = va_arg(ap, const char *)) {
		size_t n = strlen(s);
		if (n > sizeof(buf) - len) {
			/* Does not fit: flush what we have, then write the
			 * long piece directly. Never truncated. */
			if (len && (ret = write_all(fd, buf, len)) < 0)
				return ret;
			len = 0;
			if (n > sizeof(buf)) {
				if ((ret = write_all(fd, s, n)) < 0)
					return ret;
				continue;
			}
		}
		memcpy(buf + len, s, n);
		len += n;
	}
	return len ? write_all(fd, buf, len) : 0;
}

int write_strs_list(int fd, const char *first, ...)
{
	va_list ap;
	int ret;

	va_start(ap, first);
	ret = write_strs_va(fd, first, ap);
	va_end(ap);
	return ret;
}
