/* cgroup-resolve.c - cgroup v2 id <-> path, in the fewest syscalls.
 *
 * eBPF tools record bpf_get_current_cgroup_id(): the kernfs node id of a
 * cgroup2 directory, which on 64-bit kernels >= 5.5 is also its inode
 * number and the d_ino readdir reports. Two ways to turn it into a path:
 *
 * - Handles (CAP_DAC_READ_SEARCH and /proc): the id IS a kernfs file
 *   handle (type FILEID_KERNFS, 8 bytes), so open_by_handle_at +
 *   readlinkat(/proc/self/fd, N): 2 syscalls per id, the fds closed 256
 *   at a time with close_range (release_fds()). The kernel
 *   path is checked against the mount: an id outside a bind-mounted
 *   subtree or cgroup namespace reads back as "/" or a path outside it.
 *   A path of a page or more (readlink's limit) is found by the walk.
 * - A walk (no privilege, no /proc, or --walk): getdents64 with a big
 *   buffer, d_ino as the id, d_type to skip the ~20 files of each cgroup.
 *   About 4 syscalls per cgroup and no stat at all; other resolvers stat
 *   every entry. Built once per run, re-walked on a miss at most once a
 *   second (re-walking per miss melted CPUs on hosts with 7,000 cgroups).
 * - Neither forced: choose() walks when the ids outnumber cgroups * 7/4
 *   (cgroup.stat's count); stdin goes by handle until that many ids were
 *   asked, then walks once, misses still by handle.
 *
 * Watch mode keeps that index current from fanotify events (filesystem
 * mark, FAN_REPORT_DFID_NAME): each event names the parent by handle --
 * the parent's id, looked up in the index -- and the child by name; the
 * child's id comes from name_to_handle_at (a create) or from the event's
 * target FID (a delete; a create has none, as kernfs makes the inode
 * later). A cgroup gone before its create was read is completed by its
 * delete; so are its children, whose deletes came first and named a
 * parent not yet known (kept as orphans until it is). Where fanotify
 * cannot watch cgroupfs (< 6.6, or no CAP_SYS_ADMIN) it rescans every
 * -i MS and reports the difference.
 *
 * Call graph:
 *   cgroup_resolve_main() scans the options, find_mount(), then one mode:
 *   ID...|-  probe_handles(), choose() -> count_cgroups(); answer() ->
 *            from_index() (-> walk() -> walk_tree() -> list_dir()) and/or
 *            resolve_by_handle() (open_held(), fd_path(), hold_fd() ->
 *            release_fds(); a path longer than /proc's readlink gives ->
 *            from_index()); `-`: resolve_stdin() -> answer()
 *   -p       resolve_paths() -> below_root() (-r), open_cgroup2(),
 *            id_at_mount()
 *   -l       walk(), list_index()
 *   -w       watch(): watch_fanotify(), walk(), then per read
 *            watch_batch() -> watch_event() -> watch_add(),
 *            watch_remove(), keep_orphan()/adopt_orphans(); or, on
 *            overflow and without fanotify, rescan() -> cgr_index_diff()
 *   The index (cgroup-index.c) does no I/O but mmap.
 *
 * Size matters (the whole binary has a budget): the --help text is short
 * (README.md, "cgroup-resolve", explains), and a few raw syscalls stand in for
 * libc wrappers that would pull in code this applet does not need.
 */
//applet:CGROUP_RESOLVE cgroup-resolve usr/bin/cgroup-resolve cgroup_resolve_main 0
//usage:Usage: cgroup-resolve [-r] [-m DIR] [--walk|--handles] ID...|-
//usage:       cgroup-resolve [-r] [-m DIR] -p PATH...
//usage:       cgroup-resolve [-r] [-m DIR] -l | -w [-l] [-i MS]
//usage:
//usage:cgroup v2 id (decimal, or hex with 0x) <-> path.
//usage:  -       IDs on stdin, answers ID<TAB>PATH (or ID<TAB>?)
//usage:  -p      print the id of each PATH
//usage:  -l      list all as ID<TAB>PATH, parents first
//usage:  -w      print +ID<TAB>PATH, -ID<TAB>PATH as cgroups come and go,
//usage:          until SIGINT/SIGTERM (exit 0)
//usage:  -i MS   -w without fanotify: rescan every MS ms (1000)
//usage:  -r      paths relative to the cgroup2 root
//usage:  -m DIR  the cgroup2 mount (default: from /proc/self/mountinfo)
//usage:  --walk  list the tree, no open_by_handle_at
//usage:  --handles  open_by_handle_at, however many IDs (default:
//usage:          a walk when IDs outnumber cgroups*7/4)
//usage:Exit status: 0 every ID or PATH resolved, 1 some did not, 2 usage error

//config:config CGROUP_RESOLVE
//config:	bool "cgroup-resolve: cgroup v2 id <-> path, list, watch (~13.5 KiB; ~16 KiB alone)"
//config:	default y
//config:	help
//config:	  Turn the cgroup ids eBPF tools record into paths (2 syscalls
//config:	  per id with CAP_DAC_READ_SEARCH, else -- or for many ids --
//config:	  one stat-free walk of the tree), paths into ids, list the
//config:	  tree, or watch cgroups come and go (fanotify, or
//config:	  rescanning on kernels < 6.6).
//config:	  Costs about 13.5 KiB of the static binary with the other
//config:	  applets (16 KiB alone, counting the libc and libcommon parts
//config:	  it shares); no malloc: the index grows with mmap.

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "libcommon.h"
#include "dirent64.h"
#include "sys.h"
#include "cgroup-resolve.h"

#define CGROUP2_SUPER_MAGIC 0x63677270
#define FILEID_KERNFS 0xfe
#define WALK_BUF_SIZE (64 * 1024)     /* getdents64: one call per cgroup */
#define WALK_FDS 128                  /* at most, held down the tree */
#define BATCH_FDS 256                 /* handle fds closed at once */
/* The auto choice: a walk costs WALK_COST (in time) per cgroup where a
 * handle costs 1 per id: 7/4, measured by tests/bench/cgroup.sh on 6.18
 * (~9 us per cgroup listed, ~5 us per id by handle). The ids asked for
 * are compared to cgroups * WALK_COST_NUM / WALK_COST_DEN. */
#define WALK_COST_NUM 7
#define WALK_COST_DEN 4
#define EVENT_BUF_SIZE (64 * 1024)    /* fanotify events per read */
#define MAX_ORPHANS 16384             /* deletes kept for unknown parents:
					 the default fanotify queue */
#define REWALK_MS 1000                /* a miss re-walks at most this often */
#define DELETED_SUFFIX " (deleted)"
#define NOT_AN_ID "not a cgroup id"
#define LINE_MAX_BYTES 16384          /* stdin, mountinfo: longer is cut */
/* Where to look without /proc/self/mountinfo, in order: a list of
 * strings rather than a table of pointers (which would need relocating). */
#define FALLBACK_MOUNTS "/sys/fs/cgroup\0/sys/fs/cgroup/unified\0"

#ifndef FAN_REPORT_TARGET_FID         /* musl 1.2.3's header predates it */
#define FAN_REPORT_TARGET_FID 0x00001000
#endif

enum { EXIT_RESOLVED = 0, EXIT_UNRESOLVED = 1, EXIT_USAGE = 2 };

/* ---- pure helpers (unit-tested) ---------------------------------------- */

int cgr_parse_id(const char *s, size_t len, uint64_t *id)
{
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return parse_u64_base(s + 2, len - 2, 16, id);
	return parse_u64_base(s, len, 10, id);
}

static int is_octal(char c)
{
	return c >= '0' && c <= '7';
}

int cgr_mountinfo_cgroup2(const char *line, size_t len, char *dir,
			  size_t cap)
{
	const char *end = line + len, *mnt = NULL;
	size_t mlen = 0, o = 0;
	int dash = 0, rank = 1;

	/* id parent maj:min root mountpoint opts [optional...] - type ... */
	for (int i = 0;; i++) {
		const char *sp = memchr(line, ' ', (size_t)(end - line));
		size_t flen = (size_t)((sp ? sp : end) - line);

		if (i == 3 && (flen != 1 || line[0] != '/')) {
			/* "/..", "/../..": mounted outside our cgroup
			 * namespace, above its root; else a subtree */
			for (size_t k = 0; k < flen; k += 3)
				if (flen % 3 || memcmp(line + k, "/..", 3))
					return 0;
			rank = 2;
		}
		if (i == 4) {
			mnt = line;
			mlen = flen;
		}
		if (dash) {
			if (flen != 7 || memcmp(line, "cgroup2", 7) != 0)
				return 0;
			break;
		}
		dash = i > 5 && flen == 1 && line[0] == '-';
		if (!sp)
			return 0;
		line = sp + 1;
	}
	for (size_t i = 0; i < mlen; i++) {
		char c = mnt[i];

		/* The kernel escapes space, tab, newline and backslash as
		 * \ooo; anything else after a backslash is taken as is. */
		if (c == '\\' && i + 3 < mlen && is_octal(mnt[i + 1]) &&
		    is_octal(mnt[i + 2]) && is_octal(mnt[i + 3])) {
			c = (char)((mnt[i + 1] - '0') << 6 |
				   (mnt[i + 2] - '0') << 3 | (mnt[i + 3] - '0'));
			i += 3;
		}
		if (o + 1 >= cap)
			return 0;
		dir[o++] = c;
	}
	dir[o] = '\0';
	return o > 0 ? rank : 0;
}

ssize_t cgr_path_below(const char *path, size_t len, const char *prefix,
		       size_t plen)
{
	if (len == 0 || path[0] != '/')
		return -1;
	if (plen == 1)                  /* mounted at "/": all of it */
		return len == 1 ? 1 : 0;
	if (len < plen || memcmp(path, prefix, plen) != 0)
		return -1;
	if (len > plen && path[plen] != '/')
		return -1;
	return (ssize_t)plen;
}

int cgr_path_deleted(const char *path, size_t len)
{
	size_t n = sizeof(DELETED_SUFFIX) - 1;

	return len >= n && memcmp(path + len - n, DELETED_SUFFIX, n) == 0;
}

/* ---- the run's state, output and messages ------------------------------ */

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

/* The text for a -errno of this file's helpers; 0: an unknown id. */
static const char *err_text(int err)
{
	return err == 0 ? "no such cgroup"
	     : err == -EXDEV ? "not on a cgroup2 mount" : errno_text(-err);
}

static _Noreturn void die_err(const char *what, int err)
{
	die_msg(EXIT_UNRESOLVED, what, ": ", err_text(err));
}

static void out_escaped(struct outbuf *ob, const char *s, size_t len)
{
	char esc[4 * 256 + 1];

	while (len > 0) {
		size_t n = len < 256 ? len : 256;

		outbuf_put(ob, esc, escape_octal(esc, sizeof(esc), s, n, 0));
		s += n;
		len -= n;
	}
}

/* A path below the mount ("" for its root, else "/a/b") as the user
 * asked for it: absolute, or relative to the cgroup2 root with -r. */
static void out_path(struct cgr *c, const char *rel, size_t len)
{
	if (c->relative) {
		if (len == 0)
			outbuf_putc(&c->out, '/');
	} else if (c->prefix_len > 1 || len == 0) {
		out_escaped(&c->out, c->prefix, c->prefix_len);
	}
	out_escaped(&c->out, rel, len);
}

/* A line of -l, -w and stdin mode: [SIGN]ID<TAB>PATH, or ID<TAB>? when
 * rel is NULL. */
static void out_line(struct cgr *c, char sign, uint64_t id, const char *rel,
		     size_t len)
{
	if (sign)
		outbuf_putc(&c->out, sign);
	outbuf_put_num(&c->out, id, 10);
	outbuf_putc(&c->out, '\t');
	if (rel)
		out_path(c, rel, len);
	else
		outbuf_putc(&c->out, '?');
	outbuf_putc(&c->out, '\n');
}

/* A message on stderr after what stdout already holds, so a terminal
 * shows them in order. The input that caused it is escaped, and a long
 * one cut with "...". */
static void complain(struct cgr *c, const char *what, size_t len,
		     const char *msg)
{
	char shown[SHOWN_MAX];

	shown_input(shown, sizeof(shown), what, len);
	outbuf_flush(&c->out);
	warn_msg(shown, ": ", msg);
	c->status = EXIT_UNRESOLVED;
}

/* A node as a line (a cgr_emit_fn, for the diff of a rescan). */
static void out_node(void *ctx, char sign, const struct cgr_index *ix,
		     uint32_t k)
{
	struct cgr *c = ctx;
	ssize_t n = cgr_index_path(ix, k, c->path, sizeof(c->path));

	if (n < 0) {
		char num[FMT_U64_MAX];

		complain(c, num, fmt_u64_base(num, ix->nodes[k].id, 10),
			 errno_text(ENAMETOOLONG));
		return;
	}
	out_line(c, sign, ix->nodes[k].id, c->path, (size_t)n);
}

/* ---- finding the cgroup2 mount ----------------------------------------- */

/* Open dirfd/path (a directory) if it is on a cgroup2 filesystem: the fd,
 * or -errno (-EXDEV for another filesystem, a cgroup v1 hierarchy for
 * one). */
static int open_cgroup2(int dirfd, const char *path, int flags)
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

/* The first cgroup2 mount with root "/" in /proc/self/mountinfo (else,
 * in a cgroup namespace, the first of an ancestor of its root): its fd,
 * or -1 (no such mount, or no /proc). */
static int mount_from_mountinfo(char *dir, size_t cap)
{
	static const char mountinfo[] = "/proc/self/mountinfo";
	int fd = openat(AT_FDCWD, mountinfo, O_RDONLY | O_CLOEXEC);
	char buf[LINE_MAX_BYTES], above[PATH_MAX];
	struct line_stream ls;
	struct line_piece p;
	int found = -1, second = -1, rank;

	if (fd < 0) {
		die_if_cannot_look(mountinfo, -errno);
		return -1;
	}
	line_stream_init(&ls, fd, buf, sizeof(buf));
	/* Whole lines only: a cut one cannot be told (its type is last).
	 * The first mount of the whole tree (root "/") wins; in a cgroup
	 * namespace without one, the first from outside it ("/../.."). */
	while (found < 0 && line_stream_next(&ls, &p) > 0) {
		if (!p.first || !p.last)
			continue;
		rank = cgr_mountinfo_cgroup2(p.data, p.len, above,
					     cap < sizeof(above) ? cap
					     : sizeof(above));
		if (rank == 1 || (rank == 2 && second < 0)) {
			int *to = rank == 1 ? &found : &second;

			*to = open_cgroup2(AT_FDCWD, above, O_RDONLY);
			die_if_cannot_look(above, *to);
			if (*to >= 0)
				memcpy(dir, above, strlen(above) + 1);
		}
	}
	close(fd);
	if (found < 0)
		return second < 0 ? -1 : second;
	if (second >= 0)
		close(second);
	return found;
}

/* readlink of /proc/self/fd/FD into c->path, NUL-terminated: the
 * length, or -errno. */
static ssize_t fd_path(struct cgr *c, int fd)
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

static int id_at_mount(int dirfd, const char *path, int flags, uint64_t *id,
		       int *mount_id);

static void find_mount(struct cgr *c, const char *dir)
{
	char found[PATH_MAX];

	if (dir) {
		c->mount_fd = open_cgroup2(AT_FDCWD, dir, O_RDONLY);
		if (c->mount_fd < 0)
			die_err(dir, c->mount_fd);
	} else {
		c->mount_fd = mount_from_mountinfo(found, sizeof(found));
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

/* ---- handles ----------------------------------------------------------- */

/* The cgroup id in a handle name_to_handle_at or fanotify gave. */
static int fh_get_id(const struct kernfs_fh *fh, uint64_t *id)
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
static int id_at_mount(int dirfd, const char *path, int flags, uint64_t *id,
		       int *mount_id)
{
	struct kernfs_fh fh = { .handle_bytes = sizeof(fh.f_handle) };

	if (name_to_handle_at(dirfd, path, (struct file_handle *)&fh,
			      mount_id, flags) < 0)
		return errno == EOVERFLOW || errno == EOPNOTSUPP
			? -EXDEV : -errno;
	return fh_get_id(&fh, id);
}

static int id_at(int dirfd, const char *path, int flags, uint64_t *id)
{
	int mount_id;

	return id_at_mount(dirfd, path, flags, id, &mount_id);
}

/* The id of the cgroup at rel (below the mount, no leading '/'), however
 * long: a path the kernel would refuse (PATH_MAX) is entered in pieces
 * that end at a '/'. Costs nothing more below PATH_MAX. */
static int id_below(struct cgr *c, char *rel, uint64_t *id)
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
static void release_fds(struct cgr *c)
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
static void hold_fd(struct cgr *c, int fd)
{
	c->held[c->nheld++] = fd;
	if (c->nheld >= c->held_cap)
		release_fds(c);
}

/* open_id(), making room when out of fds: the fds held are released
 * and the batch made that big from then on. The fd, or -1 (errno). */
static int open_held(struct cgr *c, uint64_t id)
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
static int probe_handles(struct cgr *c)
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
static void choose(struct cgr *c, uint64_t nids)
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

static int from_index(struct cgr *c, uint64_t id, int rewalk,
		      const char **rel, size_t *len);

/* Handle mode: 1 found (the path below the mount at *rel, *len), 0 not a
 * cgroup visible through the mount, -errno on a system error. Two
 * syscalls per id, open_by_handle_at and readlinkat, and a close_range
 * per batch (hold_fd()). */
static int resolve_by_handle(struct cgr *c, uint64_t id, const char **rel,
			     size_t *len)
{
	ssize_t n, below;
	uint64_t again;
	int fd = open_held(c, id);

	c->by_handle++;
	if (fd < 0)
		/* ESTALE: unknown or removed; ENOTDIR: a file's id. */
		return errno == ESTALE || errno == ENOENT ||
		       errno == ENOTDIR || errno == EINVAL ? 0 : -errno;
	n = fd_path(c, fd);
	hold_fd(c, fd);
	/* /proc's readlink stops at a page: a deeper cgroup is found, with
	 * the same answer, as the walk finds it. */
	if (n == -ENAMETOOLONG)
		return from_index(c, id, 1, rel, len);
	if (n < 0)
		return (int)n;
	below = cgr_path_below(c->path, (size_t)n, c->prefix, c->prefix_len);
	/* Removed between open and readlink -- or a cgroup really named
	 * "x (deleted)": only then is the path looked at again. */
	if (below < 0 || (cgr_path_deleted(c->path, (size_t)n) &&
			  (id_at(AT_FDCWD, c->path, 0, &again) < 0 ||
			   again != id)))
		return 0;
	*rel = c->path + below;
	*len = (size_t)(n - below);
	return 1;
}

/* ---- the walk ---------------------------------------------------------- */

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
static void walk(struct cgr *c, struct cgr_index *ix)
{
	int ret = -ENOMEM;

	release_fds(c);   /* (the window counts the fds in use) */
	if (!c->walk_buf)
		c->walk_buf = cgr_map_grow(NULL, 0, WALK_BUF_SIZE);
	if (!c->walk_fds && c->walk_buf)
		c->walk_fds = walk_window(c);
	cgr_index_clear(ix);
	if (c->walk_buf &&
	    cgr_index_add(ix, 0, CGR_NONE, CGR_NONE, ".", 1) != CGR_NONE &&
	    (ret = walk_tree(c, ix)) >= 0)
		ret = cgr_index_hash_all(ix);
	if (ret < 0)
		die_err(c->prefix, ret);
	c->walked_at = clock_ms();
}

/* Walk mode: as resolve_by_handle. With rewalk, a miss re-walks the
 * tree, but at most once a second however many ids miss (the first
 * lookup walks in any case). */
static int from_index(struct cgr *c, uint64_t id, int rewalk,
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

/* ---- the modes --------------------------------------------------------- */

/* One ID as the user wrote it: its path (ID... mode), or, `tabbed` (stdin
 * mode), ID<TAB>PATH or ID<TAB>? with no message for an unknown id. */
static void answer(struct cgr *c, const char *in, size_t len, int tabbed)
{
	const char *rel = NULL;
	size_t rlen = 0;
	uint64_t id;
	int ret;

	if (cgr_parse_id(in, len, &id) < 0) {
		complain(c, in, len, NOT_AN_ID);
		return;
	}
	/* stdin: the ids asked for by handle have cost what a walk would */
	if (c->handles && !c->walk_first && c->by_handle >= c->walk_after)
		c->walk_first = 1;
	/* The walk's index first (a miss: a handle, where they work -- the
	 * answer for a cgroup made since the walk, with no re-walk). */
	ret = !c->walk_first ? 0 : from_index(c, id, !c->handles, &rel, &rlen);
	if (ret == 0 && c->handles)
		ret = resolve_by_handle(c, id, &rel, &rlen);
	if (tabbed) {
		out_line(c, 0, id, ret > 0 ? rel : NULL, rlen);
	} else if (ret > 0) {
		out_path(c, rel, rlen);
		outbuf_putc(&c->out, '\n');
	}
	if (ret <= 0) {
		c->status = EXIT_UNRESOLVED;
		if (!tabbed || ret < 0)
			complain(c, in, len, err_text(ret));
	}
}

static int blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r';
}

/* A parent may hand over a non-blocking pipe: wait for it as a blocking
 * read would, output flushed first (a coprocess is waiting for it). */
static void wait_readable(struct cgr *c, int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	outbuf_flush(&c->out);
	release_fds(c);
	if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
		die_err("stdin", -errno);
}

/* Does fd have data (or an end) to read now? */
static int readable(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, 0) != 0;
}

static void resolve_stdin(struct cgr *c)
{
	char buf[LINE_MAX_BYTES];
	struct line_stream ls;
	struct line_piece p;
	int ret;

	line_stream_init(&ls, 0, buf, sizeof(buf));
	/* Until the end, or until stdout fails (the final flush says why). */
	while (!c->out.error && (ret = line_stream_take(&ls, &p)) != 0) {
		if (ret == -EAGAIN) {   /* a read is due */
			/* What stdout holds is written before a read that
			 * would block -- never per line; the handle fds
			 * are not held while waiting. */
			if ((c->out.len || c->nheld) && !readable(0)) {
				outbuf_flush(&c->out);
				release_fds(c);
			}
			ret = line_stream_fill(&ls);
			if (ret == -EAGAIN)
				wait_readable(c, 0);
			else if (ret < 0)
				die_err("stdin", ret);
			continue;
		}
		if (!p.first)   /* the rest of a line too long to be an id */
			continue;
		while (p.len > 0 && blank(p.data[0])) {
			p.data++;
			p.len--;
		}
		while (p.len > 0 && blank(p.data[p.len - 1]))
			p.len--;
		if (!p.last)   /* too long to be an id */
			complain(c, p.data, p.len, NOT_AN_ID);
		else if (p.len > 0)
			answer(c, p.data, p.len, 1);
	}
}

/* A -r PATH as /proc/PID/cgroup shows it, made relative to the mount:
 * empty and "." components dropped, ".." taken lexically (cgroupfs has
 * no symlinks), into buf ("." for the root). 0, -EXDEV for a ".." above
 * the root (out of the chosen directory or mount), -ENAMETOOLONG. */
static int below_root(const char *p, char *buf, size_t cap)
{
	size_t len = 0;

	while (*p) {
		const char *end = p;
		size_t n;

		while (*end && *end != '/')
			end++;
		n = (size_t)(end - p);

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (len == 0)
				return -EXDEV;
			while (len > 0 && buf[--len] != '/')
				;
		} else if (n > 0 && !(n == 1 && p[0] == '.')) {
			if (len + 1 + n + 1 > cap)
				return -ENAMETOOLONG;
			if (len > 0)
				buf[len++] = '/';
			memcpy(buf + len, p, n);
			len += n;
		}
		p = *end ? end + 1 : end;
	}
	if (len == 0)
		buf[len++] = '.';
	buf[len] = '\0';
	return 0;
}

/* -p: with -m (or -r), a PATH must be on that very mount; else on any
 * cgroup2 filesystem. */
static void resolve_paths(struct cgr *c, char **paths, int n)
{
	static const char not_on[] = "not on the cgroup2 mount ";
	int on_mount = c->mount_id;
	uint64_t id;

	for (int i = 0; i < n; i++) {
		const char *p = paths[i];
		int dirfd = AT_FDCWD, fd, ret = 0;

		if (c->relative) {   /* as in /proc/PID/cgroup */
			dirfd = c->mount_fd;
			ret = below_root(p, c->path, sizeof(c->path));
			p = c->path;
		}
		/* -EXDEV from below_root: out of the mount, said so below */
		fd = ret = ret < 0 ? ret : open_cgroup2(dirfd, p, O_PATH);
		if (fd >= 0) {
			ret = id_at_mount(fd, "", AT_EMPTY_PATH, &id, &on_mount);
			close(fd);
		}
		if ((ret >= 0 && c->mount_fd >= 0 && on_mount != c->mount_id) ||
		    (ret == -EXDEV && c->relative)) {
			/* "...mount DIR", DIR escaped as paths are */
			memcpy(c->path, not_on, sizeof(not_on) - 1);
			escape_octal(c->path + sizeof(not_on) - 1,
				     sizeof(c->path) - sizeof(not_on) + 1,
				     c->prefix, c->prefix_len, 0);
			complain(c, paths[i], strlen(paths[i]), c->path);
			continue;
		}
		if (ret < 0) {
			complain(c, paths[i], strlen(paths[i]), err_text(ret));
			continue;
		}
		outbuf_put_num(&c->out, id, 10);
		outbuf_putc(&c->out, '\n');
	}
}

static void list_index(struct cgr *c, char sign)
{
	for (uint32_t k = 0; k != CGR_NONE; k = cgr_index_next(&c->ix, k))
		out_node(c, sign, &c->ix, k);
}

/* ---- watch ------------------------------------------------------------- */

/* Walk again into the spare index, report what changed since the index
 * was made, and keep the new one (the old one's memory is reused). */
static void rescan(struct cgr *c)
{
	struct cgr_index old = c->ix;

	walk(c, &c->spare);
	cgr_index_diff(&old, &c->spare, out_node, c);
	c->ix = c->spare;
	c->spare = old;
}

static int watch_fanotify(struct cgr *c)
{
	int fd = fanotify_init(FAN_CLASS_NOTIF | FAN_CLOEXEC |
			       FAN_REPORT_DFID_NAME | FAN_REPORT_FID |
			       FAN_REPORT_TARGET_FID, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fanotify_mark(fd, FAN_MARK_ADD | FAN_MARK_FILESYSTEM |
			  FAN_MARK_ONLYDIR, FAN_CREATE | FAN_DELETE |
			  FAN_ONDIR, c->mount_fd, NULL) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

/* Add a cgroup that appeared under node up, and say so. */
static uint32_t watch_add(struct cgr *c, uint64_t id, uint32_t up,
			  const char *name, size_t len)
{
	uint32_t k = cgr_index_add(&c->ix, id, up, CGR_NONE, name, len);

	if (k == CGR_NONE || cgr_index_hash_add(&c->ix, k) < 0)
		die_err(c->prefix, -ENOMEM);
	out_node(c, '+', &c->ix, k);
	return k;
}

/* Say node k and what the index holds below it are gone (children
 * first, as they were removed), and drop them. */
static void watch_remove(struct cgr *c, uint32_t k)
{
	while (c->ix.nodes[k].first_child != CGR_NONE)
		watch_remove(c, c->ix.nodes[k].first_child);
	out_node(c, '-', &c->ix, k);
	cgr_index_remove(&c->ix, k);
}

/* An event copied out of the read buffer, aligned (events are only
 * 4-byte aligned there, the metadata needs 8). */
union fan_event {
	struct fanotify_event_metadata m;
	char bytes[1024];
};

/* What watch_event needs of an event: the parent (by handle: its id) and
 * the child's name from the DFID_NAME record; the child's id from the FID
 * record, which only a delete has (kernfs makes the inode after the
 * create event). */
struct watch_ev {
	uint32_t mask;
	int have_child;
	uint64_t parent_id, child_id;
	const char *name;          /* NULL: not a directory event we know */
	size_t len;
};

/* Copy the event at p (n bytes left) into ev: its length, or 0 at the
 * end of the buffer. *usable: the copy is whole and of our version. */
static uint32_t copy_event(union fan_event *ev, const char *p, size_t n,
			   int *usable)
{
	uint32_t len;

	if (n < FAN_EVENT_METADATA_LEN)
		return 0;
	memcpy(&ev->m, p, FAN_EVENT_METADATA_LEN);
	len = ev->m.event_len;
	if (len < FAN_EVENT_METADATA_LEN || len > n)
		return 0;
	*usable = len <= sizeof(*ev) &&
		  ev->m.vers == FANOTIFY_METADATA_VERSION;
	if (*usable)
		memcpy(ev, p, len);
	return len;
}

static void parse_event(const struct fanotify_event_metadata *m,
			struct watch_ev *e)
{
	const char *p = (const char *)(m + 1);
	const char *end = (const char *)m + m->event_len;
	uint64_t id;

	memset(e, 0, sizeof(*e));
	e->mask = (uint32_t)m->mask;
	while (end - p >= (ptrdiff_t)sizeof(struct fanotify_event_info_fid)) {
		const struct fanotify_event_info_fid *f = (const void *)p;
		const struct kernfs_fh *fh = (const void *)f->handle;

		if (f->hdr.len < sizeof(*f) || f->hdr.len > end - p)
			break;
		if (fh_get_id(fh, &id) == 0) {
			if (f->hdr.info_type == FAN_EVENT_INFO_TYPE_DFID_NAME) {
				const char *name = (const char *)fh->f_handle +
						   fh->handle_bytes;
				const char *nul = memchr(name, '\0',
						(size_t)(p + f->hdr.len - name));

				e->parent_id = id;
				e->name = nul ? name : NULL;
				e->len = nul ? (size_t)(nul - name) : 0;
			} else if (f->hdr.info_type == FAN_EVENT_INFO_TYPE_FID) {
				e->child_id = id;
				e->have_child = 1;
			}
		}
		p += f->hdr.len;
	}
	if (!(e->mask & FAN_ONDIR))
		e->name = NULL;
}

/* Does a delete of parent/name follow in the rest of the buffer? Then a
 * create of that name is the cgroup that delete removes, and the id the
 * name has now belongs to a later cgroup of the same name: the delete
 * completes the first, that later one's own create adds it. */
static int deleted_later(const char *p, size_t n, const struct watch_ev *e)
{
	union fan_event ev;
	struct watch_ev d;
	uint32_t len;
	int usable;

	for (; (len = copy_event(&ev, p, n, &usable)) > 0; p += len, n -= len) {
		if (!usable || !(ev.m.mask & FAN_DELETE))
			continue;
		parse_event(&ev.m, &d);
		if (d.name && d.have_child && d.parent_id == e->parent_id &&
		    d.len == e->len && memcmp(d.name, e->name, e->len) == 0)
			return 1;
	}
	return 0;
}

/* A delete whose parent the index lacks: the parent may be a cgroup that
 * was already gone when its create was read (its own delete follows), or
 * one outside the mount's subtree (never). Kept until the queue has been
 * drained after the batch that brought it. */
struct orphan {
	uint64_t parent_id;        /* 0 once adopted (no cgroup has id 0) */
	uint64_t id;
	uint32_t batch;
	uint16_t len;
	char name[NAME_MAX + 1];
};

static void keep_orphan(struct cgr *c, const struct watch_ev *e)
{
	struct orphan *o;

	/* Mapped once, touched as used: the pages cost only when filled. */
	if (!c->orphans)
		c->orphans = cgr_map_grow(NULL, 0, MAX_ORPHANS * sizeof(*o));
	if (!c->orphans || c->norphans == MAX_ORPHANS || e->len > NAME_MAX)
		return;   /* (past that many, their lines are lost) */
	o = &c->orphans[c->norphans++];
	o->parent_id = e->parent_id;
	o->id = e->child_id;
	o->batch = c->batch;
	o->len = (uint16_t)e->len;
	memcpy(o->name, e->name, e->len);
}

/* Node k has just been added: add (and say so, parents first) the
 * removed cgroups whose deletes named it as their parent before it was
 * known, and theirs in turn. */
static void adopt_orphans(struct cgr *c, uint32_t k)
{
	uint64_t id = c->ix.nodes[k].id;

	for (size_t i = 0; i < c->norphans; i++) {
		struct orphan *o = &c->orphans[i];

		if (o->parent_id != id)
			continue;
		o->parent_id = 0;
		adopt_orphans(c, watch_add(c, o->id, k, o->name, o->len));
	}
}

/* Forget the orphans of batches before this one (all = 1: every one). */
static void drop_orphans(struct cgr *c, int all)
{
	size_t kept = 0;

	for (size_t i = 0; i < c->norphans; i++)
		if (!all && c->orphans[i].parent_id &&
		    c->orphans[i].batch == c->batch)
			c->orphans[kept++] = c->orphans[i];
	c->norphans = kept;
}

/* A create or delete of a directory (or both: the kernel merges them).
 * rest (n bytes): the events after it in the buffer. */
static void watch_event(struct cgr *c, const struct fanotify_event_metadata *m,
			const char *rest, size_t n)
{
	struct watch_ev e;
	uint32_t k, up;
	uint64_t id;
	ssize_t plen;

	if (m->mask & FAN_Q_OVERFLOW) {
		drop_orphans(c, 1);
		rescan(c);   /* events were lost: the tree says what is */
		return;
	}
	parse_event(m, &e);
	if (!e.name)
		return;
	up = cgr_index_find(&c->ix, e.parent_id);   /* CGR_NONE: outside */
	/* A create, unless its delete is known to follow. */
	if ((e.mask & FAN_CREATE) && up != CGR_NONE &&
	    !((e.mask & FAN_DELETE) && e.have_child) &&
	    (plen = cgr_index_path(&c->ix, up, c->path, sizeof(c->path))) >= 0 &&
	    (size_t)plen + 1 + e.len < sizeof(c->path) &&
	    !deleted_later(rest, n, &e)) {
		c->path[plen] = '/';
		memcpy(c->path + plen + 1, e.name, e.len);
		c->path[plen + 1 + e.len] = '\0';
		/* Gone already: its delete event completes it. Known
		 * already: the walk saw it. */
		if (id_below(c, c->path + 1, &id) == 0 &&
		    cgr_index_find(&c->ix, id) == CGR_NONE)
			watch_add(c, id, up, e.name, e.len);
	}
	if (!(e.mask & FAN_DELETE) || !e.have_child)
		return;
	k = cgr_index_find(&c->ix, e.child_id);
	if (k == CGR_NONE && up == CGR_NONE) {
		keep_orphan(c, &e);   /* its parent may come yet */
		return;
	}
	if (k == CGR_NONE) {   /* created and removed, unseen */
		/* The name held by another cgroup in the index: a later one
		 * of that name, found by a create event read after this
		 * delete happened. Its own create event, after this one,
		 * adds it again: dropped here without a word, so that the
		 * lines for that path keep the kernel's order. */
		uint32_t later = cgr_index_child(&c->ix, up, e.name, e.len);

		if (later != CGR_NONE)
			cgr_index_remove(&c->ix, later);
		k = watch_add(c, e.child_id, up, e.name, e.len);
		adopt_orphans(c, k);
	}
	watch_remove(c, k);
}

/* One read's worth of events. */
static void watch_batch(struct cgr *c, const char *p, size_t n)
{
	union fan_event ev;
	size_t got = n;
	uint32_t len;
	int usable;

	c->batch++;
	for (; (len = copy_event(&ev, p, n, &usable)) > 0; p += len, n -= len)
		if (usable)
			watch_event(c, &ev.m, p + len, n - len);
	/* A read with room for another event drained the queue: every
	 * parent an orphan of an earlier batch could have is known now. */
	if (got + sizeof(ev) <= EVENT_BUF_SIZE)
		drop_orphans(c, 0);
}

static int watch(struct cgr *c, int list, int interval_ms)
{
	char *events = cgr_map_grow(NULL, 0, EVENT_BUF_SIZE);
	/* The kernel's sigset (sys.h), not musl's sigset_t helpers. */
	uint64_t sigs = 1ULL << (SIGINT - 1) | 1ULL << (SIGTERM - 1);
	struct pollfd pfd[2];
	int nfds = 1;

	if (!events)
		die_err(c->prefix, -ENOMEM);
	sys_rt_sigprocmask(SIG_BLOCK, &sigs, NULL);
	pfd[0].fd = sys_signalfd4(-1, &sigs, SFD_CLOEXEC);
	if (pfd[0].fd < 0)
		die_err("signalfd", pfd[0].fd);
	pfd[0].events = pfd[1].events = POLLIN;
	/* Mark first, then list: a cgroup made in between is in both, and
	 * the index drops the second sighting. */
	pfd[1].fd = watch_fanotify(c);
	if (pfd[1].fd >= 0) {
		nfds = 2;
	} else {
		char ms[FMT_U64_MAX];

		ms[fmt_u64_base(ms, (uint64_t)interval_ms, 10)] = '\0';
		warn_msg("fanotify: ", err_text(pfd[1].fd),
			 "; rescanning every ", ms,
			 " ms, short-lived cgroups may be missed");
	}
	walk(c, &c->ix);
	if (list)
		list_index(c, '+');
	for (;;) {
		int ready;

		if (outbuf_flush(&c->out) < 0)
			return EXIT_UNRESOLVED;   /* stdout gone */
		ready = poll(pfd, (nfds_t)nfds, nfds == 2 ? -1 : interval_ms);
		if (ready < 0 && errno != EINTR)
			die_err("poll", -errno);
		if (ready == 0)
			rescan(c);
		if (ready <= 0)
			continue;
		if (pfd[0].revents)
			return EXIT_RESOLVED;   /* SIGINT or SIGTERM */
		if (nfds == 2 && pfd[1].revents) {
			ssize_t n = read(pfd[1].fd, events, EVENT_BUF_SIZE);

			if (n < 0 && errno != EINTR && errno != EAGAIN)
				die_err("fanotify", -errno);
			if (n > 0)
				watch_batch(c, events, (size_t)n);
			/* Removed cgroups stay in the arrays: compact now
			 * and then by walking afresh (reports nothing when
			 * the index is right). */
			if (c->ix.dead > 4096 && c->ix.dead > c->ix.count / 2)
				rescan(c);
		}
	}
}

/* ---- main -------------------------------------------------------------- */

/* fds 0-2 closed by the parent would be taken by the first opens (the
 * mount read as "stdin"): each closed one is held by an O_PATH fd of "/",
 * on which read and write fail with EBADF, as on the closed fd. An open
 * takes the lowest free fd: open until one lands above 2, close that. */
static void hold_std_fds(void)
{
	int fd;

	while ((fd = openat(AT_FDCWD, "/", O_PATH | O_CLOEXEC)) >= 0 && fd < 3)
		;
	if (fd > 2)
		close(fd);
}

int cgroup_resolve_main(int argc, char **argv)
{
	struct cgr cgr, *c = &cgr;
	struct optscan os;
	const char *mount_dir = NULL, *interval = NULL;
	uint64_t interval_ms = 1000;
	int paths = 0, list = 0, watching = 0, opt;
	int force = 0;   /* 'w': --walk, 'h': --handles */

	hold_std_fds();
	memset(c, 0, offsetof(struct cgr, out));
	optscan_init(&os, argc, argv, "plwrm:i:");
	while ((opt = optscan_next(&os)) != -1) {
		switch (opt) {
		case 'p': paths = 1; break;
		case 'l': list = 1; break;
		case 'w': watching = 1; break;
		case 'r': c->relative = 1; break;
		case 'm': mount_dir = os.value; break;
		case 'i': interval = os.value; break;
		default:   /* '?' or ':'; perhaps --walk or --handles */
			if (opt == ':')
				die_optscan(EXIT_USAGE, &os, opt);
			if (strcmp(argv[os.index - 1], "--walk") == 0)
				opt = 'w';
			else if (strcmp(argv[os.index - 1], "--handles") == 0)
				opt = 'h';
			else
				die_optscan(EXIT_USAGE, &os, opt);
			if (force && force != opt)
				die_usage(EXIT_USAGE, "--walk and --handles "
					  "do not go together");
			force = opt;
		}
	}
	if (interval && (parse_u64_base(interval, strlen(interval), 10,
					&interval_ms) < 0 ||
			 interval_ms == 0 || interval_ms > INT_MAX))
		die_usage_arg(EXIT_USAGE, "-i wants milliseconds "
			      "(1..2147483647), not ", interval);
	if (paths && (list || watching))
		die_usage(EXIT_USAGE, "-p does not go with -l or -w");
	if (interval && !watching)
		die_usage(EXIT_USAGE, "-i goes with -w only");
	if ((list || watching) && os.noperands > 0)
		die_usage_arg(EXIT_USAGE, "-l and -w take no operands, not ",
			      os.operands[0]);
	if (!list && !watching && os.noperands == 0)
		die_usage(EXIT_USAGE, "missing operand: expected ",
			  paths ? "PATH..." : "ID... or -");
	for (int i = 0; !paths && os.noperands > 1 && i < os.noperands;
	     i++)
		if (strcmp(os.operands[i], "-") == 0)
			die_usage(EXIT_USAGE, "- (IDs on stdin) goes alone");

	c->mount_fd = c->proc_fd = -1;
	outbuf_init(&c->out, 1);
	/* -p: PATHs below the mount with -r, on it with -m */
	if (!paths || c->relative || mount_dir)
		find_mount(c, mount_dir);
	if (paths) {
		resolve_paths(c, os.operands, os.noperands);
	} else if (watching) {
		c->status = watch(c, list, (int)interval_ms);
	} else if (list) {
		walk(c, &c->ix);
		list_index(c, 0);
	} else {
		int from_stdin = strcmp(os.operands[0], "-") == 0;

		c->handles = force != 'w' && probe_handles(c);
		if (force == 'h' && !c->handles)
			die_msg(EXIT_UNRESOLVED, "--handles: ", c->proc_fd < 0
				? "no /proc/self/fd" : "open_by_handle_at: ",
				c->proc_fd < 0 ? "" : errno_text(errno));
		if (!c->handles)
			c->walk_first = 1;
		else if (force == 'h')
			c->walk_after = UINT64_MAX;
		else
			choose(c, from_stdin ? UINT64_MAX
					     : (uint64_t)os.noperands);
		if (from_stdin)
			resolve_stdin(c);
		else
			for (int i = 0; i < os.noperands; i++)
				answer(c, os.operands[i],
				       strlen(os.operands[i]), 0);
	}
	release_fds(c);
	if (outbuf_flush(&c->out) < 0)
		die_err("stdout", c->out.error);
	return c->status;
}
