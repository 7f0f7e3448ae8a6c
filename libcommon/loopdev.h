// SPDX-License-Identifier: MIT
/* loopdev.h - loop devices as losetup(8) attaches, lists and detaches
 * them, by ioctl: no util-linux, no heap. Knows no applet.
 *
 * loop_attach() is `losetup [-r] -f FILE` for a FILE the caller opened
 * and checked (never reopened by name): LOOP_CTL_GET_FREE for a free
 * device, then LOOP_CONFIGURE (one ioctl: backing fd, read-only flag,
 * file name), or LOOP_SET_FD + LOOP_SET_STATUS64 on kernels before 5.8;
 * a device taken by someone else meanwhile (EBUSY) is skipped for the
 * next free one, as losetup does. */
#ifndef FORKLESS_LOOPDEV_H
#define FORKLESS_LOOPDEV_H

#include <stdint.h>
#include <sys/types.h>

/* The kernel's loop ABI (linux/loop.h), not on musl's include path. */
struct loop_info64 {
	uint64_t lo_device, lo_inode, lo_rdevice, lo_offset, lo_sizelimit;
	uint32_t lo_number, lo_encrypt_type, lo_encrypt_key_size, lo_flags;
	uint8_t lo_file_name[64], lo_crypt_name[64], lo_encrypt_key[32];
	uint64_t lo_init[2];
};
struct loop_config {
	uint32_t fd, block_size;
	struct loop_info64 info;
	uint64_t reserved[8];
};
#define LOOP_SET_FD 0x4C00
#define LOOP_CLR_FD 0x4C01
#define LOOP_SET_STATUS64 0x4C04
#define LOOP_GET_STATUS64 0x4C05
#define LOOP_CONFIGURE 0x4C0A
#define LOOP_CTL_GET_FREE 0x4C82
#define LO_FLAGS_READ_ONLY 1

#define LOOP_PATH_MAX 24   /* "/dev/loop" + a number */

/* Attach the open file bfd (file: its name, recorded as the device's
 * file name) to a free loop device, read-only when ro. The caller opened
 * and checked bfd: the device gets that file, never what a name points
 * to now. Its path into dev (LOOP_PATH_MAX), its number into rdev.
 * 0, or -errno: -ENODEV
 * without /dev/loop-control, the open or ioctl error. *step names what
 * failed. bfd stays open. */
int loop_attach(int bfd, const char *file, int ro, char *dev, dev_t *rdev,
		const char **step);

/* `losetup -d DEV` for the device an add attached: DEV must still be a
 * loop device backed by the file back_dev/back_ino (LOOP_GET_STATUS64)
 * and, when rdev is not 0, be device rdev; else -ESTALE and nothing is
 * detached. Then LOOP_CLR_FD (the kernel makes a device still open
 * elsewhere autoclear instead). 0 or -errno (-ENXIO: DEV bound to no
 * file). DEV is opened twice, so that
 * the kernel always takes that path: it marks the device autoclear and
 * detaches it at the last close -- ours, before this returns, unless
 * someone else has it open, as with losetup. Detached from the only
 * opener, the device's queue is frozen first, which waits for an RCU
 * grace period (~11 ms in a one-vCPU Xen dom0, Debian 12's Linux 6.1);
 * at the last close the kernel detaches without the freeze (no I/O can be
 * in flight without an opener). The end state is losetup's. Should the
 * second open fail, the one opener's LOOP_CLR_FD, as losetup. */
int loop_detach(const char *dev, uint64_t back_dev, uint64_t back_ino,
		dev_t rdev);

/* For each bound loop device (those with /sys/block/loopN/loop): fn with
 * its path, its device number and its backing file's st_dev and st_ino
 * (LOOP_GET_STATUS64). A non-zero return stops the walk. 0 or -errno. */
typedef int loop_fn(const char *dev, dev_t rdev, uint64_t back_dev,
		    uint64_t back_ino, void *ctx);
int loop_each(loop_fn *fn, void *ctx);

#endif
