/* read_file.c - read a small (sysfs) file in as few syscalls as possible.
 * openat, not open: musl's open() adds an fcntl(F_SETFD) for O_CLOEXEC. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "libcommon.h"

ssize_t read_small_file(int dirfd, const char *path, char *buf, size_t cap)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	size_t len = 0;

	if (fd < 0)
		return -errno;
	/* sysfs and regular files return everything in one read; a short
	 * read is EOF, so the common case is exactly one read(2). */
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
		if (n == 0 || len > 0)
			return (ssize_t)len;
	}
}

ssize_t read_small_file_close(int dirfd, const char *path, char *buf,
			      size_t cap)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	ssize_t ret = 0;
	size_t len = 0;

	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		if (n == 0) {
			ret = (ssize_t)len;
			break;
		}
		len += (size_t)n;
		if (len == cap) {
			ret = -EFBIG;
			break;
		}
	}
	close(fd);
	return ret;
}
