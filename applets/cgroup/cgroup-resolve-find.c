// SPDX-License-Identifier: MIT
/* cgroup-resolve-find.c - finding the cgroup2 mount, and the id of a
 * directory on it by name_to_handle_at.
 *
 * Call graph: find_mount() opens -m DIR, else mount_from_mountinfo()
 * (libcommon's mountinfo_feed() -> cgroup2_mount() -> cgr_mount_rank(),
 * open_cgroup2()), else FALLBACK_MOUNTS; then fd_path() (the mount's
 * path as readlink prints it), set_prefix(), and id_at_mount() (the
 * root's id) -> fh_get_id(). die_if_cannot_look() tells "cannot look"
 * (EMFILE, ENOMEM) from "no cgroup2 here".
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "libcommon.h"
#include "sys.h"
#include "cgroup-resolve.h"

#define CGROUP2_SUPER_MAGIC 0x63677270
/* Where to look without /proc/self/mountinfo, in order: a list of
 * strings rather than a table of pointers (which would need relocating). */
#define FALLBACK_MOUNTS "/sys/fs/cgroup\0/sys/fs/cgroup/unified\0"

/* Open dirfd/path (a directory) if it is on a cgroup2 filesystem: the fd,
 * or -errno (-EXDEV for another filesystem, a cgroup v1 hierarchy for
 * one). */
int open_cgroup2(int dirfd, const char *path, int flags)
{
	int fd = openat(dirfd, path, flags | O_DIRECTORY | O_CLOEXEC);
	struct statfs sfs;

	if (fd < 0)
		return -errno;
	if (fstatfs(fd, &sfs) < 0 || sfs.f_type != CGROUP2_SUPER_MAGIC) {
		close(fd);
		return -EXDEV;
	}
	return fd;
}

/* An error that says not "no cgroup2 here" but "cannot look": out of
 * fds or memory. Where the mount is looked for, it is reported (naming
 * what could not be opened), never taken for a missing mount. */
static void die_if_cannot_look(const char *what, int err)
{
	if (err == -EMFILE || err == -ENFILE || err == -ENOMEM)
		die_err(what, err);
}

/* What mount_from_mountinfo() found so far: fds of cgroup2 mounts. */
struct cgroup2_search {
	char *dir;   /* the mount point of the one returned */
	int found;   /* the first with root "/" (rank 1), or < 0 */
	int second;  /* the first of an ancestor of our cgroup namespace's
			root (rank 2: "/../.."), or < 0 */
};

/* Each mountinfo line: the first mount of the whole tree (root "/") that
 * opens as cgroup2 ends the search; in a cgroup namespace without one,
 * the first from outside it is kept meanwhile. */
static int cgroup2_mount(const struct mountinfo_entry *m, void *ctx)
{
	struct cgroup2_search *s = ctx;
	int rank = cgr_mount_rank(m);
	int *to = rank == 1 ? &s->found : &s->second;

	if (rank == 0 || (rank == 2 && s->second >= 0))
		return 0;
	*to = open_cgroup2(AT_FDCWD, m->mount_point, O_RDONLY);
	die_if_cannot_look(m->mount_point, *to);
	if (*to >= 0)
		memcpy(s->dir, m->mount_point, m->mount_point_len + 1);
	return s->found >= 0;
}

/* The first cgroup2 mount with root "/" in /proc/self/mountinfo (else,
 * in a cgroup namespace, the first of an ancestor of its root): its fd,
 * or -1 (no such mount, or no /proc). Its mount point goes to dir
 * (MOUNTINFO_PATH_MAX bytes). */
static int mount_from_mountinfo(char *dir)
{
	static const char mountinfo[] = "/proc/self/mountinfo";
	static struct mountinfo_parser mp;   /* (8 KiB: .bss, not the stack) */
	struct cgroup2_search s = { dir, -1, -1 };
	int fd = openat(AT_FDCWD, mountinfo, O_RDONLY | O_CLOEXEC);
	char buf[LINE_MAX_BYTES];
	ssize_t n;

	if (fd < 0) {
		die_if_cannot_look(mountinfo, -errno);
		return -1;
	}
	/* Lines of any length: the parser streams (a mount point longer
	 * than a path is cut, and no mount to use). */
	mountinfo_init(&mp);
	while ((n = read(fd, buf, sizeof(buf))) > 0 ||
	       (n < 0 && errno == EINTR))
		if (n > 0 && mountinfo_feed(&mp, buf, (size_t)n, cgroup2_mount,
					    &s))
			break;
	if (n == 0)
		mountinfo_end(&mp, cgroup2_mount, &s);
	close(fd);
	if (s.found < 0)
		return s.second < 0 ? -1 : s.second;
	if (s.second >= 0)
		close(s.second);
	return s.found;
}

/* readlink of /proc/self/fd/FD into c->path, NUL-terminated: the
 * length, or -errno. */
ssize_t fd_path(struct cgr *c, int fd)
{
	char num[FMT_U64_MAX];
	ssize_t n;

	num[fmt_u64_base(num, (uint64_t)fd, 10)] = '\0';
	n = sys_readlinkat(c->proc_fd, num, c->path, sizeof(c->path) - 1);
	if (n < 0)
		return n;
	if ((size_t)n >= sizeof(c->path) - 1)
		return -ENAMETOOLONG;
	c->path[n] = '\0';
	return n;
}

static void set_prefix(struct cgr *c, const char *dir)
{
	size_t len = 0;

	if (dir[0] != '/') {
		/* Only without /proc: make -m DIR absolute, as readlink is. */
		long n = sys_getcwd(c->prefix, sizeof(c->prefix) - 1);

		if (n <= 0 || c->prefix[0] != '/')
			die_err("getcwd", n < 0 ? (int)n : -ENOENT);
		len = (size_t)n - 1;   /* n counts the NUL */
		if (len > 1)
			c->prefix[len++] = '/';
	}
	if (str_append(c->prefix, sizeof(c->prefix), &len, dir,
		       strlen(dir)) < 0)
		die_err(dir, -ENAMETOOLONG);
	while (len > 1 && c->prefix[len - 1] == '/')
		c->prefix[--len] = '\0';
	c->prefix_len = len;
}

void find_mount(struct cgr *c, const char *dir)
{
	char found[MOUNTINFO_PATH_MAX];

	if (dir) {
		c->mount_fd = open_cgroup2(AT_FDCWD, dir, O_RDONLY);
		if (c->mount_fd < 0)
			die_err(dir, c->mount_fd);
	} else {
		c->mount_fd = mount_from_mountinfo(found);
		dir = found;
		for (const char *f = FALLBACK_MOUNTS; c->mount_fd < 0 && *f;
		     f += strlen(f) + 1) {
			c->mount_fd = open_cgroup2(AT_FDCWD, dir = f, O_RDONLY);
			die_if_cannot_look(f, c->mount_fd);
		}
		if (c->mount_fd < 0)
			die_msg(EXIT_UNRESOLVED, "no cgroup2 mount found "
				"(use -m DIR)");
	}
	c->proc_fd = openat(AT_FDCWD, "/proc/self/fd",
			    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* The mount's path as the kernel prints it: what readlink of a
	 * cgroup's fd starts with. */
	if (c->proc_fd >= 0 && fd_path(c, c->mount_fd) > 0 &&
	    c->path[0] == '/')
		dir = c->path;
	set_prefix(c, dir);
	/* Fails only where every id_at() would: they report it. */
	id_at_mount(c->mount_fd, "", AT_EMPTY_PATH, &c->root_id, &c->mount_id);
}

/* The cgroup id in a handle name_to_handle_at or fanotify gave. */
int fh_get_id(const struct kernfs_fh *fh, uint64_t *id)
{
	if (fh->handle_type != FILEID_KERNFS ||
	    fh->handle_bytes != sizeof(*id))
		return -EXDEV;
	memcpy(id, fh->f_handle, sizeof(*id));
	return 0;
}

/* The id of the directory at dirfd/path by name_to_handle_at: correct on
 * pre-5.5 kernels too, where the id is not the inode number. The id of
 * the mount it is on goes to *mount_id. */
int id_at_mount(int dirfd, const char *path, int flags, uint64_t *id,
		       int *mount_id)
{
	struct kernfs_fh fh = { .handle_bytes = sizeof(fh.f_handle) };

	if (name_to_handle_at(dirfd, path, (struct file_handle *)&fh,
			      mount_id, flags) < 0)
		return errno == EOVERFLOW || errno == EOPNOTSUPP
			? -EXDEV : -errno;
	return fh_get_id(&fh, id);
}

int id_at(int dirfd, const char *path, int flags, uint64_t *id)
{
	int mount_id;

	return id_at_mount(dirfd, path, flags, id, &mount_id);
}
