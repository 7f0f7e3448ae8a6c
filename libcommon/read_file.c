/* read_file.c - read a small (sysfs) file in as few syscalls as possible.
 * openat, not open: musl's open() adds an fcntl(F_SETFD) for O_CLOEXEC. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "libcommon.h"

/* Read fd into buf. sysfs and regular files return everything in one
 * read, and a short read is EOF: with one_read the common case is exactly
 * one read(2); otherwise read until read(2) says EOF (proc files may come
 * in pieces). The byte count, -EFBIG when cap bytes were filled, or
 * -errno. */
static ssize_t read_fd(int fd, char *buf, size_t cap, int one_read)
{
	size_t len = 0;

	for (;;) {
		ssize_t n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		len += (size_t)n;
		if (len == cap)
			return -EFBIG;
		if (n == 0 || one_read)
			return (ssize_t)len;
	}
}

ssize_t read_small_file(int dirfd, const char *path, char *buf, size_t cap)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return -errno;
	/* Not closed: callers are about to execve or exit, and O_CLOEXEC
	 * keeps the fd from the exec'd program. */
	return read_fd(fd, buf, cap, 1);
}

ssize_t read_small_file_close(int dirfd, const char *path, char *buf,
			      size_t cap)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	ssize_t ret;

	if (fd < 0)
		return -errno;
	ret = read_fd(fd, buf, cap, 0);
	close(fd);
	return ret;
}

ssize_t read_fd_all(int fd, char *buf, size_t cap)
{
	return read_fd(fd, buf, cap, 0);
}
