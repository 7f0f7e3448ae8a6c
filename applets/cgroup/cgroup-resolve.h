/* cgroup-resolve.h - the pure parts of cgroup-resolve, shared with the
 * unit tests and the fuzzer: id parsing, mountinfo lines, the visibility
 * rule for paths the kernel gives back; and (cgroup-index.h) the
 * in-memory index of a walked tree. */
#ifndef FORKLESS_CGROUP_RESOLVE_H
#define FORKLESS_CGROUP_RESOLVE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cgroup-index.h"

/* A cgroup id as users write it: decimal, or hex with 0x/0X.
 * 0, or -EINVAL (not a number) / -ERANGE (more than 64 bits). */
int cgr_parse_id(const char *s, size_t len, uint64_t *id);

/* One line of /proc/self/mountinfo (without its newline): when it is a
 * cgroup2 mount whose root is "/", copy its unescaped mount point into
 * dir (NUL-terminated) and return 1; 2 for a root of only "/.."
 * components (a mount from outside our cgroup namespace, of an ancestor
 * of its root: all the namespace and more); else 0 (also when it does
 * not fit). */
int cgr_mountinfo_cgroup2(const char *line, size_t len, char *dir,
			  size_t cap);

/* A path readlink gave for a cgroup opened through the mount at prefix:
 * the offset of the part below the mount ("" for the mount's root, else
 * "/a/b"), or -1 when the cgroup is not visible through the mount (the
 * path is outside it, or "/" for a root we cannot reach). */
ssize_t cgr_path_below(const char *path, size_t len, const char *prefix,
		       size_t plen);
/* Does a readlink result end in " (deleted)"? */
int cgr_path_deleted(const char *path, size_t len);

#endif
