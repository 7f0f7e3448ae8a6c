// SPDX-License-Identifier: MIT
/* loopdev.c - loop devices (see loopdev.h). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "libcommon.h"
#include "loopdev.h"
#include "sys.h"

static void loop_path(char *dev, long n)
{
	size_t len = 9;

	memcpy(dev, LIT("/dev/loop"));
	len += fmt_u64_base(dev + len, (uint64_t)n, 10);
	dev[len] = '\0';
}

static int configure(int lfd, int bfd, const char *file, int ro)
{
	struct loop_config cfg;
	size_t n = strlen(file);

	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = (uint32_t)bfd;
	cfg.info.lo_flags = ro ? LO_FLAGS_READ_ONLY : 0;
	if (n >= sizeof(cfg.info.lo_file_name))
		n = sizeof(cfg.info.lo_file_name) - 1;   /* losetup cuts it too */
	memcpy(cfg.info.lo_file_name, file, n);
	if (ioctl(lfd, LOOP_CONFIGURE, &cfg) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOTTY)
		return -errno;
	/* before Linux 5.8 */
	if (ioctl(lfd, LOOP_SET_FD, bfd) < 0)
		return -errno;
	if (ioctl(lfd, LOOP_SET_STATUS64, &cfg.info) < 0) {
		int err = -errno;

		ioctl(lfd, LOOP_CLR_FD, 0);
		return err;
	}
	return 0;
}

int loop_attach(int bfd, const char *file, int ro, char *dev, dev_t *rdev,
		const char **step)
{
	int ctl, ret = -EBUSY;

	*step = "/dev/loop-control";
	ctl = openat(AT_FDCWD, "/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return errno == ENOENT ? -ENODEV : -errno;
	for (int tries = 0; tries < 16 && ret == -EBUSY; tries++) {
		long n = ioctl(ctl, LOOP_CTL_GET_FREE);
		int lfd;

		*step = "/dev/loop-control";
		if (n < 0) {
			ret = -errno;
			break;
		}
		loop_path(dev, n);
		*step = dev;
		lfd = openat(AT_FDCWD, dev, O_RDWR | O_CLOEXEC);
		if (lfd < 0) {
			ret = -errno;
			break;
		}
		ret = configure(lfd, bfd, file, ro);
		if (ret == 0) {
			struct stat st;

			if (fstat(lfd, &st) == 0) {
				*rdev = st.st_rdev;
			} else {
				ret = -errno;
				ioctl(lfd, LOOP_CLR_FD, 0);
			}
		}
		close(lfd);
	}
	close(ctl);
	return ret;
}

int loop_detach(const char *dev, uint64_t back_dev, uint64_t back_ino,
		dev_t rdev)
{
	int fd = openat(AT_FDCWD, dev, O_RDONLY | O_CLOEXEC), other, ret = 0;
	struct loop_info64 info;
	struct stat st;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode) ||
	    (rdev && st.st_rdev != rdev))
		ret = -ESTALE;
	else if (ioctl(fd, LOOP_GET_STATUS64, &info) < 0)
		ret = errno == ENXIO ? -ENXIO : -ESTALE;   /* unbound; no loop */
	else if (info.lo_device != back_dev || info.lo_inode != back_ino)
		ret = -ESTALE;
	if (ret < 0) {
		close(fd);
		return ret;
	}
	/* a second opener for the ioctl: see loopdev.h */
	other = openat(AT_FDCWD, dev, O_RDONLY | O_CLOEXEC);
	if (ioctl(fd, LOOP_CLR_FD, 0) < 0)
		ret = -errno;
	if (other >= 0)
		close(other);
	close(fd);   /* the last opener (unless someone else has it open) */
	return ret;
}

/* One /sys/block entry: a bound loopN to fn. */
struct loop_walk {
	loop_fn *fn;
	void *ctx;
};

static int loop_one(int sysfd, const char *name, void *ctx)
{
	const struct loop_walk *w = ctx;
	char dev[LOOP_PATH_MAX], sub[40];
	struct loop_info64 info;
	struct stat st;
	uint64_t n;
	size_t len = strlen(name);
	int fd, ret;

	if (len < 5 || len > 14 || memcmp(name, LIT("loop")) != 0 ||
	    parse_u64(name + 4, &n) < 0)
		return 0;
	memcpy(sub, name, len);
	memcpy(sub + len, "/loop", sizeof("/loop"));
	if (sys_faccessat(sysfd, sub, F_OK) < 0)
		return 0;   /* not bound */
	loop_path(dev, (long)n);
	fd = openat(AT_FDCWD, dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;   /* no node for it here */
	ret = fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) &&
	      ioctl(fd, LOOP_GET_STATUS64, &info) == 0;
	close(fd);
	return ret ? w->fn(dev, st.st_rdev, info.lo_device, info.lo_inode, w->ctx) : 0;
}

int loop_each(loop_fn *fn, void *ctx)
{
	struct loop_walk w = { fn, ctx };

	return each_entry("/sys/block", loop_one, &w);
}
