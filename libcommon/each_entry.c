/* each_entry.c - the entries of a directory, by getdents64 (see
 * libcommon.h). */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "libcommon.h"

/* struct linux_dirent64, as getdents64 fills it (not the libc's dirent) */
struct linux_dirent64_rec {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

int each_entry(const char *dir, each_entry_fn *fn, void *ctx)
{
	union { uint64_t align; char buf[4096]; } u;
	int fd = openat(AT_FDCWD, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	while (!ret) {
		long n = syscall(SYS_getdents64, fd, u.buf, sizeof(u.buf));

		if (n <= 0) {
			ret = n < 0 ? -errno : 0;
			break;
		}
		for (long off = 0; off < n && !ret;) {
			const char *rec = u.buf + off;
			const char *name = rec + offsetof(struct linux_dirent64_rec, d_name);
			unsigned short reclen;

			memcpy(&reclen, rec + offsetof(struct linux_dirent64_rec, d_reclen),
			       sizeof(reclen));
			if (name[0] != '.')
				ret = fn(fd, name, ctx);
			off += reclen;
		}
	}
	close(fd);
	return ret;
}
