// SPDX-License-Identifier: MIT
/* cgroup-resolve-translate.c - the modes that translate: IDs to paths
 * (operands or stdin), PATHs to ids (-p), and the listing (-l).
 *
 * Call graph: answer() -> cgr_parse_id(), from_index() and/or
 * resolve_by_handle() (open_held(), fd_path(), hold_fd(),
 * cgr_path_below(); a path longer than /proc's readlink gives ->
 * from_index()), out_line()/out_path() or complain();
 * resolve_stdin() -> line_stream_take()/_fill(), wait_readable(),
 * answer(); resolve_paths() -> below_root() (-r), open_cgroup2(),
 * id_at_mount(); list_index() -> out_node().
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "libcommon.h"
#include "cgroup-resolve.h"

#define NOT_AN_ID "not a cgroup id"

/* Handle mode: 1 found (the path below the mount at *rel, *len), 0 not a
 * cgroup visible through the mount, -errno on a system error. Two
 * syscalls per id, open_by_handle_at and readlinkat, and a close_range
 * per batch (hold_fd()). */
static int resolve_by_handle(struct cgr *c, uint64_t id, const char **rel,
			     size_t *len)
{
	ssize_t n, below;
	uint64_t again;
	int fd = open_held(c, id);

	c->by_handle++;
	if (fd < 0)
		/* ESTALE: unknown or removed; ENOTDIR: a file's id. */
		return errno == ESTALE || errno == ENOENT ||
		       errno == ENOTDIR || errno == EINVAL ? 0 : -errno;
	n = fd_path(c, fd);
	hold_fd(c, fd);
	/* /proc's readlink stops at a page: a deeper cgroup is found, with
	 * the same answer, as the walk finds it. */
	if (n == -ENAMETOOLONG)
		return from_index(c, id, 1, rel, len);
	if (n < 0)
		return (int)n;
	below = cgr_path_below(c->path, (size_t)n, c->prefix, c->prefix_len);
	/* Removed between open and readlink -- or a cgroup really named
	 * "x (deleted)": only then is the path looked at again. */
	if (below < 0 || (cgr_path_deleted(c->path, (size_t)n) &&
			  (id_at(AT_FDCWD, c->path, 0, &again) < 0 ||
			   again != id)))
		return 0;
	*rel = c->path + below;
	*len = (size_t)(n - below);
	return 1;
}

/* One ID as the user wrote it: its path (ID... mode), or, `tabbed` (stdin
 * mode), ID<TAB>PATH or ID<TAB>? with no message for an unknown id. */
void answer(struct cgr *c, const char *in, size_t len, int tabbed)
{
	const char *rel = NULL;
	size_t rlen = 0;
	uint64_t id;
	int ret;

	if (cgr_parse_id(in, len, &id) < 0) {
		complain(c, in, len, NOT_AN_ID);
		return;
	}
	/* stdin: the ids asked for by handle have cost what a walk would */
	if (c->handles && !c->walk_first && c->by_handle >= c->walk_after)
		c->walk_first = 1;
	/* The walk's index first (a miss: a handle, where they work -- the
	 * answer for a cgroup made since the walk, with no re-walk). */
	ret = !c->walk_first ? 0 : from_index(c, id, !c->handles, &rel, &rlen);
	if (ret == 0 && c->handles)
		ret = resolve_by_handle(c, id, &rel, &rlen);
	if (tabbed) {
		out_line(c, 0, id, ret > 0 ? rel : NULL, rlen);
	} else if (ret > 0) {
		out_path(c, rel, rlen);
		outbuf_putc(&c->out, '\n');
	}
	if (ret <= 0) {
		c->status = EXIT_UNRESOLVED;
		if (!tabbed || ret < 0)
			complain(c, in, len, err_text(ret));
	}
}

static int blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r';
}

/* A parent may hand over a non-blocking pipe: wait for it as a blocking
 * read would, output flushed first (a coprocess is waiting for it). */
static void wait_readable(struct cgr *c, int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	outbuf_flush(&c->out);
	release_fds(c);
	if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
		die_err("stdin", -errno);
}

/* Does fd have data (or an end) to read now? */
static int readable(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, 0) != 0;
}

void resolve_stdin(struct cgr *c)
{
	char buf[LINE_MAX_BYTES];
	struct line_stream ls;
	struct line_piece p;
	int ret;

	line_stream_init(&ls, 0, buf, sizeof(buf));
	/* Until the end, or until stdout fails (the final flush says why). */
	while (!c->out.error && (ret = line_stream_take(&ls, &p)) != 0) {
		if (ret == -EAGAIN) {   /* a read is due */
			/* What stdout holds is written before a read that
			 * would block -- never per line; the handle fds
			 * are not held while waiting. */
			if ((c->out.len || c->nheld) && !readable(0)) {
				outbuf_flush(&c->out);
				release_fds(c);
			}
			ret = line_stream_fill(&ls);
			if (ret == -EAGAIN)
				wait_readable(c, 0);
			else if (ret < 0)
				die_err("stdin", ret);
			continue;
		}
		if (!p.first)   /* the rest of a line too long to be an id */
			continue;
		while (p.len > 0 && blank(p.data[0])) {
			p.data++;
			p.len--;
		}
		while (p.len > 0 && blank(p.data[p.len - 1]))
			p.len--;
		if (!p.last)   /* too long to be an id */
			complain(c, p.data, p.len, NOT_AN_ID);
		else if (p.len > 0)
			answer(c, p.data, p.len, 1);
	}
}

/* A -r PATH as /proc/PID/cgroup shows it, made relative to the mount:
 * empty and "." components dropped, ".." taken lexically (cgroupfs has
 * no symlinks), into buf ("." for the root). 0, -EXDEV for a ".." above
 * the root (out of the chosen directory or mount), -ENAMETOOLONG. */
static int below_root(const char *p, char *buf, size_t cap)
{
	size_t len = 0;

	while (*p) {
		const char *end = p;
		size_t n;

		while (*end && *end != '/')
			end++;
		n = (size_t)(end - p);

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (len == 0)
				return -EXDEV;
			while (len > 0 && buf[--len] != '/')
				;
		} else if (n > 0 && !(n == 1 && p[0] == '.')) {
			if (len + 1 + n + 1 > cap)
				return -ENAMETOOLONG;
			if (len > 0)
				buf[len++] = '/';
			memcpy(buf + len, p, n);
			len += n;
		}
		p = *end ? end + 1 : end;
	}
	if (len == 0)
		buf[len++] = '.';
	buf[len] = '\0';
	return 0;
}

/* -p: with -m (or -r), a PATH must be on that very mount; else on any
 * cgroup2 filesystem. */
void resolve_paths(struct cgr *c, char **paths, int n)
{
	static const char not_on[] = "not on the cgroup2 mount ";
	int on_mount = c->mount_id;
	uint64_t id;

	for (int i = 0; i < n; i++) {
		const char *p = paths[i];
		int dirfd = AT_FDCWD, fd, ret = 0;

		if (c->relative) {   /* as in /proc/PID/cgroup */
			dirfd = c->mount_fd;
			ret = below_root(p, c->path, sizeof(c->path));
			p = c->path;
		}
		/* -EXDEV from below_root: out of the mount, said so below */
		fd = ret = ret < 0 ? ret : open_cgroup2(dirfd, p, O_PATH);
		if (fd >= 0) {
			ret = id_at_mount(fd, "", AT_EMPTY_PATH, &id, &on_mount);
			close(fd);
		}
		if ((ret >= 0 && c->mount_fd >= 0 && on_mount != c->mount_id) ||
		    (ret == -EXDEV && c->relative)) {
			/* "...mount DIR", DIR escaped as paths are */
			memcpy(c->path, not_on, sizeof(not_on) - 1);
			escape_octal(c->path + sizeof(not_on) - 1,
				     sizeof(c->path) - sizeof(not_on) + 1,
				     c->prefix, c->prefix_len, 0);
			complain(c, paths[i], strlen(paths[i]), c->path);
			continue;
		}
		if (ret < 0) {
			complain(c, paths[i], strlen(paths[i]), err_text(ret));
			continue;
		}
		outbuf_put_num(&c->out, id, 10);
		outbuf_putc(&c->out, '\n');
	}
}

void list_index(struct cgr *c, char sign)
{
	for (uint32_t k = 0; k != CGR_NONE; k = cgr_index_next(&c->ix, k))
		out_node(c, sign, &c->ix, k);
}
