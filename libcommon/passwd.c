// SPDX-License-Identifier: MIT
/* passwd.c - user and group ids from /etc/passwd and /etc/group.
 *
 * A static binary has no NSS: getpwnam() in musl reads /etc/passwd too,
 * but through stdio and with a heap. This streams the file through the
 * line reader and stops at the first line naming NAME, so a name near the
 * top costs openat + read + close. A line of any length works (a group
 * with 600 members, a 5,000-byte GECOS): each byte is looked at once, and
 * only the name's match and the id are kept.
 *
 * The file is opened O_NONBLOCK: a FIFO or a device at /etc/passwd must
 * not hang a mount, nor /dev/zero stream forever. Whether it is a regular
 * file is asked only when the answer is not in the first buffer (an
 * empty file: /dev/null passes as one; a second buffer: fstat), so the
 * common lookup stays openat + read + close. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "libcommon.h"
#include "passwd.h"

int lookup_id_fd(int fd, const char *name, size_t len, struct id_lookup *res,
		 char *buf, size_t cap)
{
	struct line_stream ls;
	struct line_piece p = { 0 };   /* set by line_stream_next before use; LTO cannot see it */
	/* The line as it streams by, NAME:PASSWORD:ID[:...]: matched is the
	 * count of NAME's bytes seen (-1: another name), field the fields
	 * passed (3: the id is complete, the rest does not matter). */
	long matched = 0;
	unsigned field = 0, digits = 0;
	int bad = 0, checked = 0, r;
	uint64_t id = 0;

	res->id = 0;
	res->line = 0;
	if (len == 0 || memchr(name, ':', len) || memchr(name, '\n', len))
		return -ENOENT;
	line_stream_init(&ls, fd, buf, cap);
	while ((r = line_stream_next(&ls, &p)) > 0) {
		if (p.first) {
			matched = 0;
			field = digits = 0;
			bad = 0;
			id = 0;
			res->line++;
		}
		for (size_t i = 0; i < p.len && matched >= 0 && field < 3; i++) {
			unsigned c = (unsigned char)p.data[i];

			if (c == ':') {
				if (field++ == 0 && (size_t)matched != len)
					matched = -1;
			} else if (field == 0) {
				matched = (size_t)matched < len &&
					c == (unsigned char)name[matched] ?
					matched + 1 : -1;
			} else if (field == 2) {
				/* digits only, below 4294967295 */
				if (c - '0' > 9 || id >= UINT32_MAX)
					bad = 1;
				else
					id = id * 10 + (c - '0');
				digits++;
			}
		}
		if (p.last && matched >= 0 && field > 0) {
			res->id = (uint32_t)id;
			return field < 2 || bad || !digits || id >= UINT32_MAX ?
				-EINVAL : 0;
		}
		if (!checked && ls.bytes_read > cap) {
			checked = 1;   /* a second buffer: not /dev/zero? */
			if (check_stream_regular(fd) < 0)
				return -EBADFD;
		}
	}
	if (r == -EAGAIN)
		return -EBADFD;    /* a FIFO with a silent writer */
	if (r == 0 && ls.bytes_read == 0 && check_empty_regular(fd) < 0)
		return -EBADFD;    /* a FIFO without a writer */
	return r == 0 ? -ENOENT : r;
}

int lookup_id(const char *path, const char *name, size_t len,
	      struct id_lookup *res)
{
	char buf[4096];
	int fd, ret;

	res->id = 0;
	res->line = 0;
	fd = openat(AT_FDCWD, path, OPEN_REGULAR);
	if (fd < 0)
		return -errno;
	ret = lookup_id_fd(fd, name, len, res, buf, sizeof(buf));
	close(fd);
	return ret;
}
