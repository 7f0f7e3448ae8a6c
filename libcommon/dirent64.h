// SPDX-License-Identifier: MIT
/* dirent64.h - the one directory iterator: getdents64 into the caller's
 * buffer, entries by field name. opendir() would pull musl's malloc in
 * (8 KiB) for a loop that needs none; the kernel's records are read here
 * as the struct they are, never at byte offsets.
 *
 * Its own header (not libcommon.h) so that a file with a private
 * struct linux_dirent64 of the same layout keeps compiling until it
 * switches to this one. */
#ifndef FORKLESS_DIRENT64_H
#define FORKLESS_DIRENT64_H

#include <stddef.h>
#include <stdint.h>

/* The kernel's record (linux/dirent.h), variable length: d_reclen bytes. */
struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;    /* DT_DIR, DT_REG... or DT_UNKNOWN */
	char d_name[];           /* NUL-terminated */
};

struct dir_iter {
	int fd;
	char *buf;               /* aligned for struct linux_dirent64 */
	size_t cap, pos, len;
};

/* Iterate over the open directory fd (the caller opens and closes it) with
 * buf (cap bytes, 8-byte aligned; 4 KiB holds ~100 entries per syscall,
 * a larger one means fewer). */
void dir_iter_init(struct dir_iter *it, int fd, void *buf, size_t cap);
/* 1 and *ent: the next entry ("." and ".." included, in the kernel's
 * order); 0: the end; -errno: getdents64 failed (-EINVAL: buf too small
 * for one record). */
int dir_iter_next(struct dir_iter *it, const struct linux_dirent64 **ent);
/* Is the entry "." or ".."? */
int dirent_is_dot(const struct linux_dirent64 *ent);

#endif
