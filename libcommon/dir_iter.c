// SPDX-License-Identifier: MIT
/* dir_iter.c - the one getdents64 loop (see dirent64.h), and each_entry()
 * over it for callers that want a callback per name. getdents64 is
 * sys.h's: libc's getdents() is not in every libc (musl has it as a
 * _GNU_SOURCE alias, glibc since 2.30). */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "dirent64.h"
#include "libcommon.h"
#include "sys.h"

void dir_iter_init(struct dir_iter *it, int fd, void *buf, size_t cap)
{
	it->fd = fd;
	it->buf = buf;
	it->cap = cap;
	it->pos = 0;
	it->len = 0;
}

int dir_iter_next(struct dir_iter *it, const struct linux_dirent64 **ent)
{
	const struct linux_dirent64 *d;

	*ent = NULL;   /* (for the compiler: a long result cast to int) */
	if (it->pos >= it->len) {
		long n = sys_getdents64(it->fd, it->buf, it->cap);

		if (n <= 0)
			return (int)n;
		it->len = (size_t)n;
		it->pos = 0;
	}
	d = (const struct linux_dirent64 *)(const void *)(it->buf + it->pos);
	it->pos += d->d_reclen;
	*ent = d;
	return 1;
}

int dirent_is_dot(const struct linux_dirent64 *ent)
{
	const char *n = ent->d_name;

	return n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0'));
}

/* hidden: names starting with '.' too (but "." and "..") */
static int walk(const char *dir, each_entry_fn *fn, void *ctx, int hidden)
{
	union { uint64_t align; char buf[4096]; } u;
	const struct linux_dirent64 *d;
	struct dir_iter it;
	int fd = openat(AT_FDCWD, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	dir_iter_init(&it, fd, u.buf, sizeof(u.buf));
	while ((ret = dir_iter_next(&it, &d)) > 0) {
		if (d->d_name[0] == '.' && (!hidden || dirent_is_dot(d)))
			continue;
		if ((ret = fn(fd, d->d_name, ctx)))
			break;
	}
	close(fd);
	return ret;
}

int each_entry(const char *dir, each_entry_fn *fn, void *ctx)
{
	return walk(dir, fn, ctx, 0);
}

int each_entry_all(const char *dir, each_entry_fn *fn, void *ctx)
{
	return walk(dir, fn, ctx, 1);
}
