// SPDX-License-Identifier: MIT
/* cgroup-resolve.h - the pure parts of cgroup-resolve (cgroup-parse.c),
 * shared with the unit tests and the fuzzer: id parsing, which mountinfo
 * entries (libcommon's mountinfo.h) are cgroup2 mounts to use, the
 * visibility rule for paths the kernel gives back; and (cgroup-index.h)
 * the in-memory index of a walked tree. Then the run's state and the
 * functions the applet's files (cgroup-resolve*.c) call across. */
#ifndef FORKLESS_CGROUP_RESOLVE_H
#define FORKLESS_CGROUP_RESOLVE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "libcommon.h"
#include "mountinfo.h"
#include "cgroup-index.h"

/* A cgroup id as users write it: decimal, or hex with 0x/0X.
 * 0, or -EINVAL (not a number) / -ERANGE (more than 64 bits). */
int cgr_parse_id(const char *s, size_t len, uint64_t *id);

/* One /proc/self/mountinfo entry: 1 when it is a cgroup2 mount whose
 * root is "/"; 2 for a root of only "/.." components (a mount from
 * outside our cgroup namespace, of an ancestor of its root: all the
 * namespace and more); else 0, also when its mount point (m->mount_point,
 * what to open) is empty or was cut (longer than a path, or an escape of
 * a byte no path holds). */
int cgr_mount_rank(const struct mountinfo_entry *m);

/* A path readlink gave for a cgroup opened through the mount at prefix:
 * the offset of the part below the mount ("" for the mount's root, else
 * "/a/b"), or -1 when the cgroup is not visible through the mount (the
 * path is outside it, or "/" for a root we cannot reach). */
ssize_t cgr_path_below(const char *path, size_t len, const char *prefix,
		       size_t plen);
/* Does a readlink result end in " (deleted)"? */
int cgr_path_deleted(const char *path, size_t len);

/* ---- the applet's files ------------------------------------------------ */

#define FILEID_KERNFS 0xfe
#define BATCH_FDS 256                 /* handle fds closed at once */
#define LINE_MAX_BYTES 16384          /* stdin: longer is cut; the size
					 of mountinfo's reads */

/* (a usage error: libcommon.h's EXIT_USAGE, 2) */
enum { EXIT_RESOLVED = 0, EXIT_UNRESOLVED = 1 };

struct orphan;

struct kernfs_fh {                    /* a struct file_handle */
	unsigned int handle_bytes;
	int handle_type;
	unsigned char f_handle[128];  /* MAX_HANDLE_SZ */
};

struct cgr {
	int mount_fd;                 /* the cgroup2 mount (or -m DIR) */
	int mount_id;                 /* the mount's id (name_to_handle_at) */
	uint64_t root_id;             /* mount_fd's cgroup id, 0: unknown */
	int proc_fd;                  /* /proc/self/fd, or -1 */
	int relative;                 /* -r */
	int handles;                  /* open_by_handle_at works (and is
					 allowed: not --walk) */
	int walk_first;               /* look ids up in the walk first */
	uint64_t walk_after;          /* stdin: walk after this many ids by
					 handle (UINT64_MAX: never) */
	uint64_t by_handle;           /* ids looked up by handle so far */
	unsigned nheld, held_cap;     /* handle fds not yet closed, and how
					 many may be (see hold_fd()) */
	int no_close_range;           /* close_range failed: < 5.9 */
	int held[BATCH_FDS];          /* those fds, in the order opened */
	int status;
	size_t prefix_len;            /* (just "/" when mounted there) */
	uint64_t walked_at;           /* clock_ms() of the last walk's end,
					 0 before the first */
	unsigned walk_fds;            /* fds the walk may hold, 0: not yet
					 known (walk_window()) */
	char *walk_buf;
	struct cgr_index ix;
	struct cgr_index spare;       /* -w: the next rescan's */
	struct orphan *orphans;       /* -w: see keep_orphan() */
	size_t norphans;
	uint32_t batch;               /* -w: reads of events so far */
	struct outbuf out;
	char prefix[PATH_MAX];        /* the mount's path, no trailing '/' */
	char path[CGR_PATH_MAX];      /* scratch: a path being printed */
};

/* cgroup-resolve-emit.c */
const char *err_text(int err);
_Noreturn void die_err(const char *what, int err);
void out_path(struct cgr *c, const char *rel, size_t len);
void out_line(struct cgr *c, char sign, uint64_t id, const char *rel,
	      size_t len);
void complain(struct cgr *c, const char *what, size_t len, const char *msg);
void out_node(void *ctx, char sign, const struct cgr_index *ix, uint32_t k);

/* cgroup-resolve-find.c */
int open_cgroup2(int dirfd, const char *path, int flags);
ssize_t fd_path(struct cgr *c, int fd);
void find_mount(struct cgr *c, const char *dir);
int fh_get_id(const struct kernfs_fh *fh, uint64_t *id);
int id_at_mount(int dirfd, const char *path, int flags, uint64_t *id,
		int *mount_id);
int id_at(int dirfd, const char *path, int flags, uint64_t *id);

/* cgroup-resolve-handle.c */
int id_below(struct cgr *c, char *rel, uint64_t *id);
void release_fds(struct cgr *c);
void hold_fd(struct cgr *c, int fd);
int open_held(struct cgr *c, uint64_t id);
int probe_handles(struct cgr *c);
void choose(struct cgr *c, uint64_t nids);

/* cgroup-resolve-readdir.c */
void walk(struct cgr *c, struct cgr_index *ix);
int from_index(struct cgr *c, uint64_t id, int rewalk, const char **rel,
	       size_t *len);

/* cgroup-resolve-translate.c */
void answer(struct cgr *c, const char *in, size_t len, int tabbed);
void resolve_stdin(struct cgr *c);
void resolve_paths(struct cgr *c, char **paths, int n);
void list_index(struct cgr *c, char sign);

/* cgroup-resolve-watch.c */
int watch(struct cgr *c, int list, int interval_ms);

#endif
