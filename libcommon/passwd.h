// SPDX-License-Identifier: MIT
/* passwd.h - user and group ids from passwd(5)/group(5) files (passwd.c):
 * what mount's uid=/gid= options take by name. */
#ifndef FORKLESS_PASSWD_H
#define FORKLESS_PASSWD_H

#include <stddef.h>
#include <stdint.h>

/* Look NAME (len bytes) up in a passwd(5)/group(5) style file: the id is
 * the third field in both. Streams the file through line_stream (any line
 * length: a 600-member group line works) keeping only what it compares.
 * Returns 0 (res->id, and res->line: the line's number, from 1), -ENOENT
 * (no such name), -EINVAL (the id of NAME's line res->line is not a
 * number below 4294967295), -EBADFD (not a regular file: a FIFO or a
 * device cannot hang the lookup), or -errno reading the file. */
struct id_lookup {
	uint32_t id;
	unsigned long line;
};
int lookup_id(const char *path, const char *name, size_t len,
	      struct id_lookup *res);
/* The same over an open fd, with the caller's buffer (cap >= 1; the fuzz
 * target uses tiny ones to split lines anywhere). */
int lookup_id_fd(int fd, const char *name, size_t len, struct id_lookup *res,
		 char *buf, size_t cap);

#endif
