/* dir_iter.c - the one getdents64 loop (see dirent64.h). */
#include <errno.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "dirent64.h"

/* A raw getdents64 (-errno): until libcommon/sys.h's sys_getdents64 is
 * here to replace it. libc's getdents() is not in every libc (musl has it
 * as a _GNU_SOURCE alias, glibc since 2.30). */
static long sys_getdents64(int fd, void *buf, size_t cap)
{
	long n = syscall(SYS_getdents64, fd, buf, cap);

	return n < 0 ? -errno : n;
}

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
