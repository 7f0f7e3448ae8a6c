// SPDX-License-Identifier: MIT
/* cgroup-resolve-handle.c - open_by_handle_at of cgroup ids: the fds it
 * opens, held and closed a batch at a time; whether this process may use
 * it; the choice between handles and a walk; ids of paths too long to
 * open at once.
 *
 * Call graph: probe_handles() -> open_id(), hold_fd(); choose() ->
 * count_cgroups() (cgroup.stat); open_held() -> open_id(), and on
 * EMFILE release_fds() (close_range per run of fds); hold_fd() ->
 * release_fds() once a batch is full; id_below() -> id_at().
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "libcommon.h"
#include "sys.h"
#include "cgroup-resolve.h"

/* The auto choice: a walk costs WALK_COST (in time) per cgroup where a
 * handle costs 1 per id: 7/4, measured by tests/bench/cgroup.sh on 6.18
 * (~9 us per cgroup listed, ~5 us per id by handle). The ids asked for
 * are compared to cgroups * WALK_COST_NUM / WALK_COST_DEN. */
#define WALK_COST_NUM 7
#define WALK_COST_DEN 4

/* The id of the cgroup at rel (below the mount, no leading '/'), however
 * long: a path the kernel would refuse (PATH_MAX) is entered in pieces
 * that end at a '/'. Costs nothing more below PATH_MAX. */
int id_below(struct cgr *c, char *rel, uint64_t *id)
{
	int dirfd = c->mount_fd, ret;

	while (strlen(rel) >= PATH_MAX) {
		char *cut = rel + PATH_MAX - 1;
		int fd;

		while (cut > rel && *cut != '/')
			cut--;
		if (cut == rel)
			return -ENAMETOOLONG;   /* (no name is that long) */
		*cut = '\0';
		fd = openat(dirfd, rel, O_PATH | O_DIRECTORY | O_CLOEXEC);
		*cut = '/';
		if (dirfd != c->mount_fd)
			close(dirfd);
		if (fd < 0)
			return -errno;
		dirfd = fd;
		rel = cut + 1;
	}
	ret = id_at(dirfd, rel, 0, id);
	if (dirfd != c->mount_fd)
		close(dirfd);
	return ret;
}

/* open_by_handle_at of a cgroup id: the id IS the kernfs handle. */
static int open_id(struct cgr *c, uint64_t id)
{
	struct kernfs_fh fh = { .handle_bytes = sizeof(id),
				.handle_type = FILEID_KERNFS };

	memcpy(fh.f_handle, &id, sizeof(id));
	return open_by_handle_at(c->mount_fd, (struct file_handle *)&fh,
				 O_PATH | O_DIRECTORY | O_CLOEXEC);
}

/* Close the handle fds held: each run of consecutive numbers with one
 * close_range (open_by_handle_at takes the lowest free fd, so a batch is
 * one run unless the parent left fds in between, which are not ours and
 * stay open), a lone fd -- or every fd on a kernel without close_range
 * (< 5.9: ENOSYS, tried once) -- with close. */
void release_fds(struct cgr *c)
{
	for (unsigned i = 0, j; i < c->nheld; i = j + 1) {
		for (j = i; j + 1 < c->nheld &&
			    c->held[j + 1] == c->held[j] + 1; j++)
			;
		if (j > i && !c->no_close_range &&
		    sys_close_range((unsigned)c->held[i],
				    (unsigned)c->held[j], 0) == 0)
			continue;
		c->no_close_range |= j > i;
		for (unsigned k = i; k <= j; k++)
			close(c->held[k]);
	}
	c->nheld = 0;
}

/* Keep a handle's fd for the next release_fds(): the close costs a
 * syscall per batch, not per id. At most held_cap are held: BATCH_FDS,
 * or as many as RLIMIT_NOFILE left room for (learnt from the first
 * EMFILE, see open_held()). */
void hold_fd(struct cgr *c, int fd)
{
	c->held[c->nheld++] = fd;
	if (c->nheld >= c->held_cap)
		release_fds(c);
}

/* open_id(), making room when out of fds: the fds held are released
 * and the batch made that big from then on. The fd, or -1 (errno). */
int open_held(struct cgr *c, uint64_t id)
{
	int fd = open_id(c, id);

	if (fd < 0 && (errno == EMFILE || errno == ENFILE) && c->nheld) {
		c->held_cap = c->nheld;
		release_fds(c);
		fd = open_id(c, id);
	}
	return fd;
}

/* Can this process open handles? Decided once, with the mount's root. */
int probe_handles(struct cgr *c)
{
	int fd;

	c->held_cap = BATCH_FDS;
	if (c->proc_fd < 0 || (fd = open_id(c, c->root_id)) < 0)
		return 0;   /* EPERM: no CAP_DAC_READ_SEARCH */
	hold_fd(c, fd);
	return 1;
}

/* How many cgroups a walk would list, from one read of the mount root's
 * cgroup.stat (>= 4.14): nr_descendants, and the root. UINT64_MAX when
 * it cannot be read. */
static uint64_t count_cgroups(struct cgr *c)
{
	static const char key[] = "nr_descendants ";
	char buf[256], *p, *end;
	uint64_t n;
	int fd;
	ssize_t len = read_small_file_keep(c->mount_fd, "cgroup.stat", buf,
					   sizeof(buf), &fd);

	if (fd >= 0)
		hold_fd(c, fd);
	for (p = buf; len > 0 && p < buf + len; p = end + 1) {
		end = memchr(p, '\n', (size_t)(buf + len - p));
		if (!end)
			break;
		if ((size_t)(end - p) > sizeof(key) - 1 &&
		    memcmp(p, key, sizeof(key) - 1) == 0 &&
		    parse_u64_base(p + sizeof(key) - 1,
				   (size_t)(end - p) - (sizeof(key) - 1), 10,
				   &n) == 0 && n < UINT64_MAX / WALK_COST_NUM)
			return n + 1;
	}
	return UINT64_MAX;
}

/* Handles or a walk, for nids ids (UINT64_MAX: stdin, unknown): the walk
 * once the ids outnumber its cost, cgroups * WALK_COST. With few ids (no
 * walk is that cheap) cgroup.stat is not even read. */
void choose(struct cgr *c, uint64_t nids)
{
	uint64_t n = nids > WALK_COST_NUM / WALK_COST_DEN
		? count_cgroups(c) : UINT64_MAX;
	uint64_t cost = n == UINT64_MAX ? n : n * WALK_COST_NUM / WALK_COST_DEN;

	if (nids == UINT64_MAX) {   /* stdin: switch after that many */
		c->walk_after = cost;
	} else {
		c->walk_first = nids > cost;
		c->walk_after = UINT64_MAX;
	}
}
