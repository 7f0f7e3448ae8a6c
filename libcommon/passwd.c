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
#include "mountopt.h"

/* A line as it streams by: NAME:PASSWORD:ID[:...]. */
struct id_line {
	const char *name;
	size_t len;
	size_t matched;     /* bytes of the name field that matched */
	unsigned field;     /* 0 name, 1 password, 2 id, 3 the rest */
	int other;          /* the name field is not NAME */
	int bad_id;         /* a non-digit, or too large, in the id */
	unsigned digits;
	uint64_t id;
};

static void line_start(struct id_line *l, const char *name, size_t len)
{
	memset(l, 0, sizeof(*l));
	l->name = name;
	l->len = len;
}

static void line_feed(struct id_line *l, const char *s, size_t n)
{
	for (size_t i = 0; i < n && !l->other && l->field < 3; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == ':') {
			if (l->field == 0 && l->matched != l->len)
				l->other = 1;
			l->field++;
		} else if (l->field == 0) {
			if (l->matched < l->len && c == (unsigned char)l->name[l->matched])
				l->matched++;
			else
				l->other = 1;
		} else if (l->field == 2) {
			if (c < '0' || c > '9' || l->id >= UINT32_MAX)
				l->bad_id = 1;
			else
				l->id = l->id * 10 + (c - '0');
			l->digits++;
		}
	}
}

/* At the end of a line: 0 NAME with a valid id, 1 another name, -EINVAL
 * NAME with a malformed id (none, empty, not decimal, >= 4294967295). */
static int line_end(const struct id_line *l)
{
	if (l->other || l->field == 0)
		return 1;
	if (l->field < 2 || l->bad_id || l->digits == 0 || l->id >= UINT32_MAX)
		return -EINVAL;
	return 0;
}

int lookup_id_fd(int fd, const char *name, size_t len, struct id_lookup *res,
		 char *buf, size_t cap)
{
	struct line_stream lr;
	struct line_piece p;
	struct id_line l;
	int checked = 0, r;

	res->line = 0;
	if (len == 0 || memchr(name, ':', len) || memchr(name, '\n', len))
		return -ENOENT;
	line_stream_init(&lr, fd, buf, cap);
	for (;;) {
		r = line_stream_next(&lr, &p);
		if (r == -EAGAIN)
			return -EBADFD;   /* a FIFO with a silent writer */
		if (!checked && r == 0 && lr.bytes_read == 0 &&
		    check_empty_regular(fd) < 0)
			return -EBADFD;   /* a FIFO without a writer */
		if (!checked && lr.bytes_read > cap) {
			checked = 1;      /* a second buffer: not /dev/zero? */
			if (check_stream_regular(fd) < 0)
				return -EBADFD;
		}
		if (r <= 0)
			return r == 0 ? -ENOENT : r;
		if (p.first) {
			line_start(&l, name, len);
			res->line++;
		}
		line_feed(&l, p.data, p.len);
		if (p.last && (r = line_end(&l)) <= 0) {
			res->id = (uint32_t)l.id;
			return r;
		}
	}
}

int lookup_id(const char *path, const char *name, size_t len,
	      struct id_lookup *res)
{
	char buf[4096];
	int fd, ret;

	res->line = 0;
	if (len == 0 || memchr(name, ':', len) || memchr(name, '\n', len))
		return -ENOENT;
	fd = openat(AT_FDCWD, path, OPEN_REGULAR);
	if (fd < 0)
		return -errno;
	ret = lookup_id_fd(fd, name, len, res, buf, sizeof(buf));
	close(fd);
	return ret;
}

/* The old entry point (mountopt.h), until the mount applets call
 * lookup_id and can name the malformed line. */
int lookup_id_in_file(const char *path, const char *name, size_t len,
		      uint32_t *id)
{
	struct id_lookup res;
	int ret = lookup_id(path, name, len, &res);

	if (ret == 0)
		*id = res.id;
	return ret;
}
