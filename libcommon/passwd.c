/* passwd.c - user and group names from /etc/passwd and /etc/group.
 *
 * A static binary has no NSS: getpwnam() in musl reads /etc/passwd too,
 * but through stdio and with a heap. This reads the file in page-sized
 * chunks and stops at the first matching line, so a name near the top
 * costs openat + read + close. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "libcommon.h"
#include "mountopt.h"

/* 0 and *id when the line is NAME:x:ID[:...], 1 when it is another name,
 * -EINVAL when it is NAME but the id is not a number. */
static int match_line(const char *line, size_t n, const char *name,
		      size_t len, uint32_t *id)
{
	const char *p, *end = line + n, *colon;
	uint64_t v;

	if (n <= len || memcmp(line, name, len) != 0 || line[len] != ':')
		return 1;
	p = memchr(line + len + 1, ':', (size_t)(end - (line + len + 1)));
	if (!p)
		return -EINVAL;
	p++;
	colon = memchr(p, ':', (size_t)(end - p));
	if (!colon)
		colon = end;
	if (parse_u64_base(p, (size_t)(colon - p), 10, &v) < 0 ||
	    v >= UINT32_MAX)
		return -EINVAL;
	*id = (uint32_t)v;
	return 0;
}

int lookup_id_in_file(const char *path, const char *name, size_t len,
		      uint32_t *id)
{
	char buf[4096];
	size_t have = 0;
	int fd, eof = 0, skipping = 0, ret = -ENOENT;

	if (len == 0 || memchr(name, ':', len) || memchr(name, '\n', len))
		return -ENOENT;
	fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	for (;;) {
		size_t start = 0;
		ssize_t n = read(fd, buf + have, sizeof(buf) - have);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		if (n == 0)
			eof = 1;
		have += (size_t)n;
		/* Every complete line; at EOF also an unterminated last one. */
		while (start < have) {
			char *nl = memchr(buf + start, '\n', have - start);
			size_t end = nl ? (size_t)(nl - buf) : have;

			if (!nl && !eof)
				break;
			if (skipping) {
				skipping = 0;   /* tail of an over-long line */
			} else {
				int r = match_line(buf + start, end - start,
						   name, len, id);
				if (r <= 0) {
					ret = r;
					goto out;
				}
			}
			start = end + 1;
		}
		if (eof)
			break;
		if (start >= have) {
			have = 0;
		} else if (start == 0 && have == sizeof(buf)) {
			/* A line longer than the buffer cannot name a user
			 * we look for: drop it up to its newline. */
			skipping = 1;
			have = 0;
		} else {
			memmove(buf, buf + start, have - start);
			have -= start;
		}
	}
out:
	close(fd);
	return ret;
}
