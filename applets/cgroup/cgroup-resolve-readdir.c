// SPDX-License-Identifier: MIT
/* cgroup-resolve-readdir.c - the walk: the whole tree listed into the
 * index with getdents64 (d_ino is the id, d_type skips files: no stat),
 * and lookups of ids in it.
 *
 * Call graph: from_index() -> cgr_index_find(), on a miss walk() (at
 * most once a second with rewalk) -> walk_window() (the fds it may hold),
 * walk_tree() -> list_dir() -> dir_iter_next(), cgr_index_add(); then
 * cgr_index_hash_all(); cgr_index_path().
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "libcommon.h"
#include "dirent64.h"
#include "sys.h"
#include "cgroup-resolve.h"

#define WALK_BUF_SIZE (64 * 1024)     /* getdents64: one call per cgroup */
#define WALK_FDS 128                  /* at most, held down the tree */
#define REWALK_MS 1000                /* a miss re-walks at most this often */

/* Append the sub-directories of fd as children of node; "." gives the
 * node's own id. 0, or -errno. */
static int list_dir(struct cgr_index *ix, int fd, uint32_t node, char *buf)
{
	uint32_t last = CGR_NONE;
	const struct linux_dirent64 *d;
	struct dir_iter it;
	int ret;

	dir_iter_init(&it, fd, buf, WALK_BUF_SIZE);
	while ((ret = dir_iter_next(&it, &d)) > 0) {
		/* cgroupfs always fills d_type: a file is never a cgroup, and
		 * needs no stat to tell. */
		if (d->d_type != DT_DIR)
			continue;
		if (dirent_is_dot(d)) {   /* "." is the node's own id */
			if (!d->d_name[1])
				ix->nodes[node].id = d->d_ino;
			continue;
		}
		last = cgr_index_add(ix, d->d_ino, node, last, d->d_name,
				     strlen(d->d_name));
		if (last == CGR_NONE)
			return -ENOMEM;
	}
	/* A directory removed under us reads as empty. */
	return ret == -ENOENT ? 0 : ret;
}

/* How many directory fds the walk may hold: WALK_FDS, or fewer where
 * RLIMIT_NOFILE leaves less room (the walk opens one more before it
 * closes the shallowest). The fds in use -- a parent may leave some open
 * anywhere -- are counted with one poll() of every fd below the limit
 * (walk_buf holds the array); a limit above that many fds leaves room.
 * At least 2: below that the walk's opens fail with EMFILE, and say so. */
static unsigned walk_window(struct cgr *c)
{
	struct sys_rlimit rl;
	struct pollfd *pfd = (void *)c->walk_buf;
	uint64_t used = 0, room, n = WALK_BUF_SIZE / sizeof(*pfd);

	if (sys_prlimit64(0, RLIMIT_NOFILE, NULL, &rl) < 0 || rl.cur > n)
		return WALK_FDS;
	for (uint64_t fd = 0; fd < rl.cur; fd++)
		pfd[fd] = (struct pollfd){ .fd = (int)fd };
	if (poll(pfd, (nfds_t)rl.cur, 0) < 0)
		return WALK_FDS;
	for (uint64_t fd = 0; fd < rl.cur; fd++)
		used += !(pfd[fd].revents & POLLNVAL);
	room = rl.cur > used + 1 ? rl.cur - used - 1 : 0;
	return room < 2 ? 2 : room > WALK_FDS ? WALK_FDS : (unsigned)room;
}

/* The walk's fd slot of level d (UINT_MAX: the mount, level -1). */
static unsigned slot(unsigned w, unsigned d)
{
	return (d + 1) % w;
}

/* List the tree below the mount into ix (which holds just the root,
 * named "."), pre-order, without recursion. The fds of the last
 * c->walk_fds (<= WALK_FDS) levels down the current branch stay open;
 * deeper, the shallowest is
 * closed, and reopened as ".." of its child on the way back up (which
 * works in a removed directory too). So any depth is walked: ~4 syscalls
 * per cgroup, 2 more per level past the window. Entries that vanish
 * mid-walk are normal: they are dropped. On an error the caller dies, so
 * the fds are left open then. */
static int walk_tree(struct cgr *c, struct cgr_index *ix)
{
	/* Level d's fd at [slot(w, d)], or -1 once closed (every level up to
	 * depth was entered, so its slot is set); the root is level 0,
	 * opened from the mount at level -1 (depth UINT_MAX, slot 0). */
	int fds[WALK_FDS], fd, ret;
	unsigned w = c->walk_fds;
	unsigned depth = UINT_MAX;
	uint32_t node = CGR_NONE, next;

	fds[slot(w, UINT_MAX)] = c->mount_fd;
	for (uint32_t k = 0;; k = next) {
		/* Up to k's parent (after the last node: to the root). */
		while (node != (k == CGR_NONE ? 0 : ix->nodes[k].parent)) {
			int *up = &fds[slot(w, depth - 1)];

			fd = fds[slot(w, depth)];
			if (*up < 0 && (*up = openat(fd, "..", O_RDONLY |
						     O_DIRECTORY | O_CLOEXEC)) < 0)
				return -errno;
			close(fd);
			fds[slot(w, depth)] = -1;
			depth--;
			node = ix->nodes[node].parent;
		}
		if (k == CGR_NONE)
			break;
		fd = openat(fds[slot(w, depth)],
			    ix->names + ix->nodes[k].name_off,
			    O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0) {
			if (k == 0)   /* the mount itself must open */
				return -errno;
			next = cgr_index_next(ix, k);
			if (errno == ENOENT || errno == ENOTDIR)
				cgr_index_remove(ix, k);   /* gone already */
			else if (errno != EACCES)   /* EACCES: known, */
				return -errno;      /* its children not */
			continue;
		}
		/* Down into k: out of the window goes depth - w. */
		if (++depth >= w)
			close(fds[slot(w, depth)]);
		fds[slot(w, depth)] = fd;
		node = k;
		ret = list_dir(ix, fd, node, c->walk_buf);
		if (ret < 0)
			return ret;
		next = cgr_index_next(ix, k);
	}
	close(fds[slot(w, 0)]);
	return 0;
}

/* (Re)build ix from the mount, or die. */
void walk(struct cgr *c, struct cgr_index *ix)
{
	int ret = -ENOMEM;

	release_fds(c);   /* (the window counts the fds in use) */
	if (!c->walk_buf)
		c->walk_buf = cgr_map_grow(NULL, 0, WALK_BUF_SIZE);
	if (!c->walk_fds && c->walk_buf)
		c->walk_fds = walk_window(c);
	cgr_index_clear(ix);
	if (c->walk_buf &&
	    cgr_index_add(ix, 0, CGR_NONE, CGR_NONE, LIT(".")) != CGR_NONE &&
	    (ret = walk_tree(c, ix)) >= 0)
		ret = cgr_index_hash_all(ix);
	if (ret < 0)
		die_err(c->prefix, ret);
	c->walked_at = clock_ms();
}

/* Walk mode: as resolve_by_handle. With rewalk, a miss re-walks the
 * tree, but at most once a second however many ids miss (the first
 * lookup walks in any case). */
int from_index(struct cgr *c, uint64_t id, int rewalk,
		      const char **rel, size_t *len)
{
	uint32_t k = cgr_index_find(&c->ix, id);
	ssize_t n;

	if (k == CGR_NONE && (!c->walked_at || (rewalk &&
	    clock_ms() - c->walked_at >= REWALK_MS))) {
		walk(c, &c->ix);
		k = cgr_index_find(&c->ix, id);
	}
	if (k == CGR_NONE)
		return 0;
	n = cgr_index_path(&c->ix, k, c->path, sizeof(c->path));
	if (n < 0)
		return (int)n;
	*rel = c->path;
	*len = (size_t)n;
	return 1;
}
