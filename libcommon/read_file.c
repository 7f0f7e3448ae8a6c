// SPDX-License-Identifier: MIT
/* read_file.c - read a small (sysfs) file in as few syscalls as possible.
 * openat, not open: musl's open() adds an fcntl(F_SETFD) for O_CLOEXEC.
 * O_NONBLOCK (OPEN_REGULAR): a FIFO put where a sysfs value belongs must
 * not hang the open or the read; it costs no syscall. */
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

int check_empty_regular(int fd)
{
	return lseek(fd, 0, SEEK_CUR) < 0 && errno == ESPIPE ? -EBADFD : 0;
}

int check_stream_regular(int fd)
{
	/* A regular file's read position moves with what was read; a pipe
	 * has none (ESPIPE), a device like /dev/zero keeps it at 0. (No
	 * fstat: musl's goes through fstatat's statx fallback, 0.5 KiB.) */
	return lseek(fd, 0, SEEK_CUR) > 0 ? 0 : -EBADFD;
}

ssize_t read_small_file_keep(int dirfd, const char *path, char *buf,
			     size_t cap, int *fd)
{
	*fd = openat(dirfd, path, OPEN_REGULAR);
	if (*fd < 0)
		return -errno;
	/* Not closed: the caller is about to execve (O_CLOEXEC closes it)
	 * or closes it itself. */
	return read_fd(*fd, buf, cap, 1);
}

ssize_t read_small_file_close(int dirfd, const char *path, char *buf,
			      size_t cap)
{
	int fd = openat(dirfd, path, OPEN_REGULAR);
	ssize_t ret;

	if (fd < 0)
		return -errno;
	ret = read_fd(fd, buf, cap, 0);
	/* Nothing (or EAGAIN) is what a FIFO gives with O_NONBLOCK: only
	 * then is the type worth a syscall. */
	if (ret == -EAGAIN || (ret == 0 && check_empty_regular(fd) < 0))
		ret = -EBADFD;
	close(fd);
	return ret;
}

ssize_t read_fd_all(int fd, char *buf, size_t cap)
{
	return read_fd(fd, buf, cap, 0);
}
