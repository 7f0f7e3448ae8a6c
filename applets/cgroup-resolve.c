/* cgroup-resolve.c - cgroup v2 id <-> path, in the fewest syscalls.
 *
 * eBPF tools record bpf_get_current_cgroup_id(): the kernfs node id of a
 * cgroup2 directory, which on 64-bit kernels >= 5.5 is also its inode
 * number and the d_ino readdir reports. Two ways to turn it into a path:
 *
 * - Handles (CAP_DAC_READ_SEARCH and /proc): the id IS a kernfs file
 *   handle (type FILEID_KERNFS, 8 bytes), so open_by_handle_at +
 *   readlinkat(/proc/self/fd, N) + close: 3 syscalls per id. The kernel
 *   path is checked against the mount: an id outside a bind-mounted
 *   subtree or cgroup namespace reads back as "/" or a path outside it.
 * - A walk (no privilege, no /proc, or --walk): getdents64 with a big
 *   buffer, d_ino as the id, d_type to skip the ~20 files of each cgroup.
 *   About 4 syscalls per cgroup and no stat at all; other resolvers stat
 *   every entry. Built once per run, re-walked on a miss at most once a
 *   second (re-walking per miss melted CPUs on hosts with 7,000 cgroups).
 *
 * Watch mode keeps that index current from fanotify events (filesystem
 * mark, FAN_REPORT_DFID_NAME): each event names the parent by handle --
 * the parent's id, looked up in the index -- and the child by name; the
 * child's id comes from name_to_handle_at (a create) or from the event's
 * target FID (a delete). Where fanotify cannot watch cgroupfs (< 6.6, or
 * no CAP_SYS_ADMIN) it rescans every -i MS and reports the difference.
 */
//applet:CGROUP_RESOLVE cgroup-resolve usr/bin/cgroup-resolve cgroup_resolve_main 0
//usage:Usage: cgroup-resolve [-r] [-m DIR] [--walk] ID...
//usage:       cgroup-resolve [-r] [-m DIR] [--walk] -
//usage:       cgroup-resolve [-r] [-m DIR] -p PATH...
//usage:       cgroup-resolve [-r] [-m DIR] -l
//usage:       cgroup-resolve [-r] [-m DIR] -w [-l] [-i MS]
//usage:
//usage:Translate cgroup v2 ids (bpf_get_current_cgroup_id()) to paths and back.
//usage:An ID is decimal, or hex with 0x.
//usage:
//usage:  ID...    print the path of each ID, one per line, in order
//usage:  -        read IDs from stdin, one per line; answer ID<TAB>PATH, or
//usage:           ID<TAB>? for an unknown ID (the id in decimal). Output is
//usage:           flushed when more input would block, so it works as a
//usage:           coprocess. A malformed line is reported on stderr only.
//usage:  -p       print the id of each PATH (a cgroup2 directory)
//usage:  -l       list every cgroup as ID<TAB>PATH, root first, parents
//usage:           before children
//usage:  -w       watch: +ID<TAB>PATH when a cgroup appears, -ID<TAB>PATH
//usage:           when it goes, until SIGINT/SIGTERM; with -l, the existing
//usage:           ones first as + lines
//usage:  -i MS    with -w where fanotify cannot watch cgroupfs (kernel < 6.6
//usage:           or no CAP_SYS_ADMIN): rescan every MS ms (default 1000)
//usage:  -r       paths relative to the cgroup2 root (/, /system.slice/x),
//usage:           as in /proc/PID/cgroup; with -p, PATHs are read that way
//usage:  -m DIR   the cgroup2 mount (default: the cgroup2 mount with root /
//usage:           in /proc/self/mountinfo, else /sys/fs/cgroup, else
//usage:           /sys/fs/cgroup/unified; cgroup v1 is never used)
//usage:  --walk   resolve by listing the tree even when handles would work
//usage:
//usage:IDs resolve by open_by_handle_at (needs CAP_DAC_READ_SEARCH and /proc),
//usage:else by one walk of the tree (getdents64, no stat), repeated on a miss
//usage:at most once a second. A cgroup that DIR does not show (bind-mounted
//usage:subtree, cgroup namespace) is unknown. In paths, tab, newline,
//usage:backslash and other control bytes are printed as octal escapes
//usage:(a backslash and 3 digits), as in /proc/self/mountinfo.
//usage:
//usage:Exit status: 0 every ID or PATH resolved, 1 some did not (or no
//usage:cgroup2 mount, or a system error), 2 usage error. -w exits 0 on
//usage:SIGINT/SIGTERM.

//config:config CGROUP_RESOLVE
//config:	bool "cgroup-resolve: cgroup v2 id <-> path, list, watch (~19 KiB)"
//config:	default y
//config:	help
//config:	  Turn the cgroup ids eBPF tools record into paths (3 syscalls
//config:	  per id with CAP_DAC_READ_SEARCH, else one stat-free walk of
//config:	  the tree), paths into ids, list the tree, or watch cgroups
//config:	  come and go (fanotify, or rescanning on kernels < 6.6).
//config:	  Costs about 19 KiB of the static binary (no malloc: the index
//config:	  grows with mmap).

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "libcommon.h"
#include "cgroup-resolve.h"

#define CGROUP2_SUPER_MAGIC 0x63677270
#define FILEID_KERNFS 0xfe
#define CGR_TOMB UINT32_MAX
#define WALK_BUF_SIZE (64 * 1024)     /* getdents64: one call per cgroup */
#define WALK_DEPTH_MAX 512            /* fds held open down the tree */
#define REWALK_NS 1000000000LL        /* a miss re-walks at most this often */
#define DELETED_SUFFIX " (deleted)"

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

/* The n-th space-separated field of a mountinfo line, or NULL. */
static const char *mountinfo_field(const char *line, const char *end,
				   int n, size_t *len)
{
	const char *p = line;

	for (int i = 0; p < end; i++) {
		const char *sp = memchr(p, ' ', (size_t)(end - p));
		const char *fe = sp ? sp : end;

		if (i == n) {
			*len = (size_t)(fe - p);
			return p;
		}
		p = fe + 1;
	}
	return NULL;
}

int cgr_mountinfo_cgroup2(const char *line, size_t len, char *dir,
			  size_t cap)
{
	const char *end = line + len, *f, *sep;
	size_t flen, o = 0;

	/* id parent maj:min root mountpoint opts [optional...] - type ... */
	f = mountinfo_field(line, end, 3, &flen);
	if (!f || flen != 1 || f[0] != '/')
		return 0;
	sep = memmem(line, len, " - ", 3);
	if (!sep || !(f = mountinfo_field(sep + 3, end, 0, &flen)) ||
	    flen != 7 || memcmp(f, "cgroup2", 7) != 0)
		return 0;
	f = mountinfo_field(line, end, 4, &flen);
	if (!f)
		return 0;
	for (size_t i = 0; i < flen; i++) {
		char c = f[i];

		/* The kernel escapes space, tab, newline, backslash as \ooo. */
		if (c == '\\' && i + 3 < flen &&
		    f[i + 1] >= '0' && f[i + 1] <= '3' &&
		    f[i + 2] >= '0' && f[i + 2] <= '7' &&
		    f[i + 3] >= '0' && f[i + 3] <= '7') {
			c = (char)((f[i + 1] - '0') << 6 |
				   (f[i + 2] - '0') << 3 | (f[i + 3] - '0'));
			i += 3;
		}
		if (o + 1 >= cap)
			return 0;
		dir[o++] = c;
	}
	if (o == 0)
		return 0;
	dir[o] = '\0';
	return 1;
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

/* ---- the index --------------------------------------------------------- */

/* The index grows with mmap/mremap, not malloc: it is the applet's only
 * big allocation, and leaving malloc out keeps ~10 KiB of allocator out
 * of the static binary. Returns NULL (and leaves p alone) on failure. */
static void *grow(void *p, size_t old, size_t new)
{
	void *q = p ? mremap(p, old, new, MREMAP_MAYMOVE)
		    : mmap(NULL, new, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return q == MAP_FAILED ? NULL : q;
}

static void release(void *p, size_t size)
{
	if (p)
		munmap(p, size);
}

void cgr_index_init(struct cgr_index *ix)
{
	memset(ix, 0, sizeof(*ix));
}

void cgr_index_free(struct cgr_index *ix)
{
	release(ix->nodes, (size_t)ix->cap * sizeof(*ix->nodes));
	release(ix->names, ix->names_cap);
	release(ix->slots, (size_t)ix->nslots * sizeof(*ix->slots));
	cgr_index_init(ix);
}

void cgr_index_clear(struct cgr_index *ix)
{
	ix->count = ix->dead = 0;
	ix->names_len = 0;
	ix->used = 0;
	if (ix->slots)
		memset(ix->slots, 0, ix->nslots * sizeof(*ix->slots));
}

uint32_t cgr_index_add(struct cgr_index *ix, uint64_t id, uint32_t parent,
		       uint32_t after, const char *name, size_t len)
{
	struct cgr_node *n;

	if (len > UINT16_MAX || ix->count >= CGR_NONE - 1)
		return CGR_NONE;
	if (ix->count == ix->cap) {
		uint32_t cap = ix->cap ? ix->cap * 2 : 1024;
		void *p = grow(ix->nodes, (size_t)ix->cap * sizeof(*ix->nodes),
			       (size_t)cap * sizeof(*ix->nodes));

		if (!p)
			return CGR_NONE;
		ix->nodes = p;
		ix->cap = cap;
	}
	if (ix->names_cap - ix->names_len < len + 1) {
		size_t cap = ix->names_cap ? ix->names_cap * 2 : 16384;
		void *p;

		while (cap - ix->names_len < len + 1)
			cap *= 2;
		if (cap > UINT32_MAX ||
		    !(p = grow(ix->names, ix->names_cap, cap)))
			return CGR_NONE;
		ix->names = p;
		ix->names_cap = cap;
	}
	n = &ix->nodes[ix->count];
	n->id = id;
	n->parent = parent;
	n->first_child = CGR_NONE;
	n->next_sibling = CGR_NONE;
	n->name_off = (uint32_t)ix->names_len;
	n->name_len = (uint16_t)len;
	n->dead = 0;
	memcpy(ix->names + ix->names_len, name, len);
	ix->names[ix->names_len + len] = '\0';
	ix->names_len += len + 1;
	if (parent != CGR_NONE) {
		uint32_t *link = after == CGR_NONE
			? &ix->nodes[parent].first_child
			: &ix->nodes[after].next_sibling;

		n->next_sibling = *link;
		*link = ix->count;
	}
	return ix->count++;
}

static uint32_t hash_slot(uint64_t id, uint32_t nslots)
{
	return (uint32_t)((id * 0x9e3779b97f4a7c15ULL) >> 32) & (nslots - 1);
}

static void hash_put(struct cgr_index *ix, uint32_t node)
{
	uint32_t i = hash_slot(ix->nodes[node].id, ix->nslots);

	while (ix->slots[i] != 0 && ix->slots[i] != CGR_TOMB)
		i = (i + 1) & (ix->nslots - 1);
	if (ix->slots[i] == 0)
		ix->used++;
	ix->slots[i] = node + 1;
}

/* Rebuild the hash with room for `want` live nodes at load <= 1/2. */
static int hash_rebuild(struct cgr_index *ix, uint32_t want)
{
	uint32_t n = 1024;

	while (n < 4 * (uint64_t)want && n < (1u << 31))
		n *= 2;
	if (n != ix->nslots) {
		uint32_t *p;

		/* Not grown in place: the old slots are rebuilt anyway. */
		release(ix->slots, (size_t)ix->nslots * sizeof(*p));
		ix->slots = NULL;
		ix->nslots = 0;
		p = grow(NULL, 0, (size_t)n * sizeof(*p));
		if (!p)
			return -ENOMEM;
		ix->slots = p;
		ix->nslots = n;
	}
	memset(ix->slots, 0, (size_t)n * sizeof(*ix->slots));   /* reused */
	ix->used = 0;
	for (uint32_t k = 0; k < ix->count; k++)
		if (!ix->nodes[k].dead)
			hash_put(ix, k);
	return 0;
}

int cgr_index_hash_all(struct cgr_index *ix)
{
	return hash_rebuild(ix, ix->count);
}

int cgr_index_hash_add(struct cgr_index *ix, uint32_t node)
{
	if (!ix->nslots || 2 * ((uint64_t)ix->used + 1) > ix->nslots) {
		if (hash_rebuild(ix, ix->count - ix->dead) < 0)
			return -ENOMEM;
		return 0;   /* the rebuild hashed node too */
	}
	hash_put(ix, node);
	return 0;
}

uint32_t cgr_index_find(const struct cgr_index *ix, uint64_t id)
{
	if (!ix->nslots)
		return CGR_NONE;
	for (uint32_t i = hash_slot(id, ix->nslots);;
	     i = (i + 1) & (ix->nslots - 1)) {
		uint32_t s = ix->slots[i];

		if (s == 0)
			return CGR_NONE;
		if (s != CGR_TOMB && ix->nodes[s - 1].id == id &&
		    !ix->nodes[s - 1].dead)
			return s - 1;
	}
}

uint32_t cgr_index_child(const struct cgr_index *ix, uint32_t parent,
			 const char *name, size_t len)
{
	for (uint32_t c = ix->nodes[parent].first_child; c != CGR_NONE;
	     c = ix->nodes[c].next_sibling)
		if (ix->nodes[c].name_len == len &&
		    memcmp(ix->names + ix->nodes[c].name_off, name, len) == 0)
			return c;
	return CGR_NONE;
}

static void hash_drop(struct cgr_index *ix, uint32_t node)
{
	if (!ix->nslots)
		return;
	for (uint32_t i = hash_slot(ix->nodes[node].id, ix->nslots);
	     ix->slots[i] != 0; i = (i + 1) & (ix->nslots - 1))
		if (ix->slots[i] == node + 1) {
			ix->slots[i] = CGR_TOMB;
			return;
		}
}

void cgr_index_remove(struct cgr_index *ix, uint32_t node)
{
	struct cgr_node *n = &ix->nodes[node];

	if (n->dead)
		return;
	while (n->first_child != CGR_NONE)
		cgr_index_remove(ix, n->first_child);
	if (n->parent != CGR_NONE) {
		uint32_t *link = &ix->nodes[n->parent].first_child;

		while (*link != CGR_NONE && *link != node)
			link = &ix->nodes[*link].next_sibling;
		if (*link == node)
			*link = n->next_sibling;
	}
	hash_drop(ix, node);
	n->dead = 1;
	ix->dead++;
}

ssize_t cgr_index_path(const struct cgr_index *ix, uint32_t node, char *buf,
		       size_t cap)
{
	size_t len = 0, pos;

	for (uint32_t k = node; ix->nodes[k].parent != CGR_NONE;
	     k = ix->nodes[k].parent)
		len += 1 + ix->nodes[k].name_len;
	if (len + 1 > cap)
		return -ENAMETOOLONG;
	buf[len] = '\0';
	pos = len;
	for (uint32_t k = node; ix->nodes[k].parent != CGR_NONE;
	     k = ix->nodes[k].parent) {
		pos -= ix->nodes[k].name_len;
		memcpy(buf + pos, ix->names + ix->nodes[k].name_off,
		       ix->nodes[k].name_len);
		buf[--pos] = '/';
	}
	return (ssize_t)len;
}

uint32_t cgr_index_next(const struct cgr_index *ix, uint32_t node)
{
	const struct cgr_node *n = &ix->nodes[node];

	if (n->first_child != CGR_NONE)
		return n->first_child;
	while (n->next_sibling == CGR_NONE) {
		if (n->parent == CGR_NONE)
			return CGR_NONE;
		n = &ix->nodes[n->parent];
	}
	return n->next_sibling;
}

/* Is node a of ia at the same path as node b of ib? */
static int same_path(const struct cgr_index *ia, uint32_t a,
		     const struct cgr_index *ib, uint32_t b)
{
	while (ia->nodes[a].parent != CGR_NONE &&
	       ib->nodes[b].parent != CGR_NONE) {
		const struct cgr_node *na = &ia->nodes[a], *nb = &ib->nodes[b];

		if (na->name_len != nb->name_len ||
		    memcmp(ia->names + na->name_off, ib->names + nb->name_off,
			   na->name_len) != 0)
			return 0;
		a = na->parent;
		b = nb->parent;
	}
	return ia->nodes[a].parent == CGR_NONE &&
	       ib->nodes[b].parent == CGR_NONE;
}

void cgr_index_diff(const struct cgr_index *old, const struct cgr_index *new,
		    cgr_emit_fn *emit, void *ctx)
{
	/* Every node comes after its parent in the arrays: backwards is
	 * children first, as cgroups must be removed. */
	for (uint32_t k = old->count; k-- > 0;) {
		uint32_t m;

		if (old->nodes[k].dead)
			continue;
		m = cgr_index_find(new, old->nodes[k].id);
		if (m == CGR_NONE || !same_path(old, k, new, m))
			emit(ctx, '-', old, k);
	}
	for (uint32_t k = new->count ? 0 : CGR_NONE; k != CGR_NONE;
	     k = cgr_index_next(new, k)) {
		uint32_t m = cgr_index_find(old, new->nodes[k].id);

		if (m == CGR_NONE || !same_path(new, k, old, m))
			emit(ctx, '+', new, k);
	}
}

/* ---- the run's state --------------------------------------------------- */

struct kernfs_fh {                    /* a struct file_handle */
	unsigned int handle_bytes;
	int handle_type;
	unsigned char f_handle[128];  /* MAX_HANDLE_SZ */
};

struct cgr {
	int mount_fd;                 /* the cgroup2 mount (or -m DIR) */
	int proc_fd;                  /* /proc/self/fd, or -1 */
	int relative;                 /* -r */
	int use_handles;              /* else the walk */
	int status;
	char prefix[PATH_MAX];        /* the mount's path, no trailing '/' */
	size_t prefix_len;            /* (just "/" when mounted there) */
	struct cgr_index ix;
	int have_index;
	long long walked_at;          /* CLOCK_MONOTONIC ns of the last walk */
	char *walk_buf;
	struct outbuf out;
	char path[CGR_PATH_MAX];      /* scratch: a path being printed */
};

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

/* A message on stderr after what stdout already holds, so a terminal
 * shows them in order. The input that caused it is escaped. */
static void complain(struct cgr *c, const char *what, size_t len,
		     const char *msg)
{
	char shown[4 * 256 + 4];

	if (len > 256)
		len = 256;
	escape_octal(shown, sizeof(shown), what, len, 0);
	outbuf_flush(&c->out);
	warn_msg(shown, ": ", msg);
	c->status = EXIT_UNRESOLVED;
}

static _Noreturn void die_nomem(void)
{
	die_msg(EXIT_UNRESOLVED, "out of memory for the cgroup index");
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* ---- finding the cgroup2 mount ----------------------------------------- */

struct line_reader {
	int fd;
	int eof;
	int discarding;               /* inside a line longer than buf */
	size_t start, end;
	char buf[16384];
};

static void line_reader_init(struct line_reader *lr, int fd)
{
	lr->fd = fd;
	lr->eof = lr->discarding = 0;
	lr->start = lr->end = 0;
}

/* The next line, without its newline: 1, or 0 at the end, or -errno.
 * *too_long: the line did not fit in the buffer (it comes back cut, the
 * rest is skipped). With flush, what flush holds is written before a
 * read that would block -- never per line. */
static int next_line(struct line_reader *lr, char **line, size_t *len,
		     int *too_long, struct outbuf *flush)
{
	*too_long = 0;
	for (;;) {
		char *p = lr->buf + lr->start;
		char *nl = memchr(p, '\n', lr->end - lr->start);
		ssize_t n;

		if (nl && lr->discarding) {
			lr->discarding = 0;
			lr->start = (size_t)(nl + 1 - lr->buf);
			continue;
		}
		if (nl) {
			*line = p;
			*len = (size_t)(nl - p);
			lr->start += *len + 1;
			return 1;
		}
		if (lr->discarding) {
			lr->start = lr->end = 0;
		} else if (lr->eof || lr->end - lr->start == sizeof(lr->buf)) {
			if (lr->end == lr->start)
				return 0;
			*line = p;
			*len = lr->end - lr->start;
			*too_long = !lr->eof;
			lr->discarding = !lr->eof;
			lr->start = lr->end;
			return 1;
		}
		if (lr->start > 0) {
			memmove(lr->buf, p, lr->end - lr->start);
			lr->end -= lr->start;
			lr->start = 0;
		}
		if (flush && flush->len) {
			struct pollfd pfd = { .fd = lr->fd, .events = POLLIN };

			if (poll(&pfd, 1, 0) == 0)
				outbuf_flush(flush);
		}
		n = read(lr->fd, lr->buf + lr->end, sizeof(lr->buf) - lr->end);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			lr->eof = 1;
		lr->end += (size_t)n;
	}
}

/* Open dir if it is on a cgroup2 filesystem: the fd, or -errno (-EXDEV
 * for another filesystem, a cgroup v1 hierarchy for one). */
static int open_cgroup2(const char *dir)
{
	int fd = openat(AT_FDCWD, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct statfs sfs;

	if (fd < 0)
		return -errno;
	if (fstatfs(fd, &sfs) < 0 || sfs.f_type != CGROUP2_SUPER_MAGIC) {
		close(fd);
		return -EXDEV;
	}
	return fd;
}

/* The first cgroup2 mount with root "/" in /proc/self/mountinfo. */
static int mount_from_mountinfo(char *dir, size_t cap)
{
	int fd = openat(AT_FDCWD, "/proc/self/mountinfo",
			O_RDONLY | O_CLOEXEC);
	struct line_reader reader, *lr = &reader;
	char *line;
	size_t len;
	int too_long, found = -1;

	if (fd < 0)
		return -1;
	line_reader_init(lr, fd);
	while (found < 0 && next_line(lr, &line, &len, &too_long, NULL) > 0)
		if (!too_long && cgr_mountinfo_cgroup2(line, len, dir, cap))
			found = open_cgroup2(dir);
	close(fd);
	return found;
}

static void set_prefix(struct cgr *c, const char *dir)
{
	size_t len = 0;

	c->prefix[0] = '\0';
	if (dir[0] != '/') {
		/* Only without /proc: make -m DIR absolute, as readlink is. */
		if (!getcwd(c->prefix, sizeof(c->prefix)))
			die_msg(EXIT_UNRESOLVED, "getcwd: ", errno_text(errno));
		len = strlen(c->prefix);
		if (len > 1)
			str_append(c->prefix, sizeof(c->prefix), &len, "/", 1);
	}
	if (str_append(c->prefix, sizeof(c->prefix), &len, dir,
		       strlen(dir)) < 0)
		die_msg(EXIT_UNRESOLVED, dir, ": path too long");
	while (len > 1 && c->prefix[len - 1] == '/')
		c->prefix[--len] = '\0';
	c->prefix_len = len;
}

static void find_mount(struct cgr *c, const char *dir_opt)
{
	static const char *const fallbacks[] = {
		"/sys/fs/cgroup", "/sys/fs/cgroup/unified",
	};
	char dir[PATH_MAX];
	ssize_t n;

	if (dir_opt) {
		c->mount_fd = open_cgroup2(dir_opt);
		if (c->mount_fd == -EXDEV)
			die_msg(EXIT_UNRESOLVED, dir_opt, ": not a cgroup2 "
				"mount (cgroup v1 is not used)");
		if (c->mount_fd < 0)
			die_msg(EXIT_UNRESOLVED, dir_opt, ": ",
				errno_text(-c->mount_fd));
		set_prefix(c, dir_opt);
	} else {
		c->mount_fd = mount_from_mountinfo(dir, sizeof(dir));
		for (size_t i = 0; c->mount_fd < 0 && i < ARRAY_SIZE(fallbacks);
		     i++)
			if ((c->mount_fd = open_cgroup2(fallbacks[i])) >= 0)
				strcpy(dir, fallbacks[i]);
		if (c->mount_fd < 0)
			die_msg(EXIT_UNRESOLVED, "no cgroup2 mount found "
				"(use -m DIR)");
		set_prefix(c, dir);
	}
	c->proc_fd = openat(AT_FDCWD, "/proc/self/fd",
			    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->proc_fd >= 0) {
		char num[20];

		/* The mount's path as the kernel prints it: what readlink of
		 * a cgroup's fd starts with. */
		num[fmt_u64(num, (uint64_t)c->mount_fd)] = '\0';
		n = readlinkat(c->proc_fd, num, dir, sizeof(dir));
		if (n > 0 && (size_t)n < sizeof(dir) && dir[0] == '/') {
			dir[n] = '\0';
			set_prefix(c, dir);
		}
	}
}

/* ---- handles ----------------------------------------------------------- */

static void fh_set_id(struct kernfs_fh *fh, uint64_t id)
{
	fh->handle_bytes = sizeof(id);
	fh->handle_type = FILEID_KERNFS;
	memcpy(fh->f_handle, &id, sizeof(id));
}

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
 * pre-5.5 kernels too, where the id is not the inode number. */
static int id_at(int dirfd, const char *path, int flags, uint64_t *id)
{
	struct kernfs_fh fh = { .handle_bytes = sizeof(fh.f_handle) };
	int mount_id;

	if (name_to_handle_at(dirfd, path, (struct file_handle *)&fh,
			      &mount_id, flags) < 0)
		return errno == EOVERFLOW || errno == EOPNOTSUPP
			? -EXDEV : -errno;
	return fh_get_id(&fh, id);
}

/* Can this process open handles? Decided once, with the mount's root. */
static int probe_handles(struct cgr *c)
{
	struct kernfs_fh fh = { .handle_bytes = sizeof(fh.f_handle) };
	int mount_id, fd;

	uint64_t root_id;

	if (c->proc_fd < 0 ||
	    name_to_handle_at(c->mount_fd, "", (struct file_handle *)&fh,
			      &mount_id, AT_EMPTY_PATH) < 0 ||
	    fh_get_id(&fh, &root_id) < 0)
		return 0;
	fd = open_by_handle_at(c->mount_fd, (struct file_handle *)&fh,
			       O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 0;   /* EPERM: no CAP_DAC_READ_SEARCH */
	close(fd);
	return 1;
}

/* Handle mode: 1 found (the path below the mount at *rel, *len), 0 not a
 * cgroup visible through the mount, -errno on a system error. The three
 * syscalls per id: open_by_handle_at, readlinkat, close. */
static int resolve_by_handle(struct cgr *c, uint64_t id, const char **rel,
			     size_t *len)
{
	struct kernfs_fh fh;
	char num[20];
	ssize_t n, below;
	uint64_t again;
	int fd;

	fh_set_id(&fh, id);
	fd = open_by_handle_at(c->mount_fd, (struct file_handle *)&fh,
			       O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		/* ESTALE: unknown or removed; ENOTDIR: a file's id. */
		return errno == ESTALE || errno == ENOENT ||
		       errno == ENOTDIR || errno == EINVAL ? 0 : -errno;
	num[fmt_u64(num, (uint64_t)fd)] = '\0';
	n = readlinkat(c->proc_fd, num, c->path, sizeof(c->path) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	if ((size_t)n >= sizeof(c->path) - 1)
		return -ENAMETOOLONG;
	c->path[n] = '\0';
	below = cgr_path_below(c->path, (size_t)n, c->prefix, c->prefix_len);
	if (below < 0)
		return 0;
	/* Removed between open and readlink -- or a cgroup really named
	 * "x (deleted)": only then is the path looked at again. */
	if (cgr_path_deleted(c->path, (size_t)n) &&
	    (id_at(AT_FDCWD, c->path, 0, &again) < 0 || again != id))
		return 0;
	*rel = c->path + below;
	*len = (size_t)n - (size_t)below;
	return 1;
}

/* ---- the walk ---------------------------------------------------------- */

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* Append the sub-directories of fd as children of node; "." gives the
 * node's own id. 0, or -errno. */
static int list_dir(struct cgr_index *ix, int fd, uint32_t node, char *buf)
{
	uint32_t last = CGR_NONE;

	for (;;) {
		long n = syscall(SYS_getdents64, fd, buf, WALK_BUF_SIZE);

		if (n < 0)
			/* A directory removed under us reads as empty. */
			return errno == ENOENT ? 0 : -errno;
		if (n == 0)
			return 0;
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d = (void *)(buf + off);
			const char *name = d->d_name;
			size_t len = strlen(name);

			off += d->d_reclen;
			if (name[0] == '.' && len == 1) {
				ix->nodes[node].id = d->d_ino;
				continue;
			}
			/* cgroupfs always fills d_type: a file is never a
			 * cgroup, and needs no stat to tell. */
			if (d->d_type != DT_DIR ||
			    (name[0] == '.' && name[1] == '.' && len == 2))
				continue;
			last = cgr_index_add(ix, d->d_ino, node, last, name,
					     len);
			if (last == CGR_NONE)
				return -ENOMEM;
		}
	}
}

/* (Re)build the index from the mount: pre-order, holding one fd per
 * level. Entries that vanish mid-walk are normal: they are dropped. */
static int walk_tree(struct cgr *c, struct cgr_index *ix)
{
	struct { int fd; uint32_t next; } stack[WALK_DEPTH_MAX];
	int depth = 0, fd, ret;

	if (!c->walk_buf && !(c->walk_buf = grow(NULL, 0, WALK_BUF_SIZE)))
		return -ENOMEM;
	cgr_index_clear(ix);
	if (cgr_index_add(ix, 0, CGR_NONE, CGR_NONE, "", 0) == CGR_NONE)
		return -ENOMEM;
	fd = openat(c->mount_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = list_dir(ix, fd, 0, c->walk_buf);
	stack[depth].fd = fd;
	stack[depth++].next = ix->nodes[0].first_child;
	while (depth > 0 && ret >= 0) {
		uint32_t k = stack[depth - 1].next;
		struct cgr_node *n;

		if (k == CGR_NONE) {
			close(stack[--depth].fd);
			continue;
		}
		n = &ix->nodes[k];
		stack[depth - 1].next = n->next_sibling;
		fd = openat(stack[depth - 1].fd, ix->names + n->name_off,
			    O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0) {
			if (errno == ENOENT || errno == ENOTDIR)
				cgr_index_remove(ix, k);   /* gone already */
			else if (errno != EACCES)
				ret = -errno;
			continue;   /* EACCES: known, its children are not */
		}
		if (depth == WALK_DEPTH_MAX) {
			close(fd);  /* deeper than any real hierarchy */
			continue;
		}
		ret = list_dir(ix, fd, k, c->walk_buf);
		stack[depth].fd = fd;
		stack[depth++].next = ix->nodes[k].first_child;
	}
	while (depth > 0)
		close(stack[--depth].fd);
	if (ret >= 0)
		ret = cgr_index_hash_all(ix);
	c->walked_at = now_ns();
	return ret;
}

static void walk_or_die(struct cgr *c, struct cgr_index *ix)
{
	int ret = walk_tree(c, ix);

	if (ret == -ENOMEM)
		die_nomem();
	if (ret < 0)
		die_msg(EXIT_UNRESOLVED, "listing ", c->prefix, ": ",
			errno_text(-ret));
	c->have_index = 1;
}

/* Walk mode: as resolve_by_handle. A miss re-walks the tree, but at most
 * once a second however many ids miss. */
static int resolve_by_walk(struct cgr *c, uint64_t id, const char **rel,
			   size_t *len)
{
	uint32_t k = c->have_index ? cgr_index_find(&c->ix, id) : CGR_NONE;
	ssize_t n;

	if (k == CGR_NONE &&
	    (!c->have_index || now_ns() - c->walked_at >= REWALK_NS)) {
		walk_or_die(c, &c->ix);
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

static int resolve(struct cgr *c, uint64_t id, const char **rel,
		   size_t *len)
{
	return c->use_handles ? resolve_by_handle(c, id, rel, len)
			      : resolve_by_walk(c, id, rel, len);
}

/* ---- the modes --------------------------------------------------------- */

static void resolve_args(struct cgr *c, char **ids, int n)
{
	for (int i = 0; i < n; i++) {
		size_t arglen = strlen(ids[i]), len;
		const char *rel;
		uint64_t id;
		int ret;

		if (cgr_parse_id(ids[i], arglen, &id) < 0) {
			complain(c, ids[i], arglen, "not a cgroup id "
				 "(decimal, or hex with 0x)");
			continue;
		}
		ret = resolve(c, id, &rel, &len);
		if (ret > 0) {
			out_path(c, rel, len);
			outbuf_putc(&c->out, '\n');
		} else {
			complain(c, ids[i], arglen, ret == 0
				 ? "no such cgroup" : errno_text(-ret));
		}
	}
}

static void resolve_stdin(struct cgr *c)
{
	struct line_reader reader, *lr = &reader;
	char *line;
	size_t len;
	int too_long, ret;

	line_reader_init(lr, 0);
	while ((ret = next_line(lr, &line, &len, &too_long, &c->out)) > 0) {
		const char *rel;
		size_t rlen;
		uint64_t id;

		while (len > 0 && (line[0] == ' ' || line[0] == '\t')) {
			line++;
			len--;
		}
		while (len > 0 && (line[len - 1] == ' ' ||
				   line[len - 1] == '\t' ||
				   line[len - 1] == '\r'))
			len--;
		if (len == 0 && !too_long)
			continue;
		if (too_long || cgr_parse_id(line, len, &id) < 0) {
			complain(c, line, len, "not a cgroup id (decimal, "
				 "or hex with 0x)");
			continue;
		}
		outbuf_put_u64(&c->out, id);
		outbuf_putc(&c->out, '\t');
		ret = resolve(c, id, &rel, &rlen);
		if (ret > 0) {
			out_path(c, rel, rlen);
		} else {
			outbuf_putc(&c->out, '?');
			c->status = EXIT_UNRESOLVED;
			if (ret < 0) {
				outbuf_putc(&c->out, '\n');
				complain(c, line, len, errno_text(-ret));
				continue;
			}
		}
		outbuf_putc(&c->out, '\n');
	}
	if (ret < 0)
		die_msg(EXIT_UNRESOLVED, "reading stdin: ", errno_text(-ret));
}

static void resolve_paths(struct cgr *c, char **paths, int n)
{
	for (int i = 0; i < n; i++) {
		const char *p = paths[i];
		int dirfd = AT_FDCWD, fd, ret;
		struct statfs sfs;
		uint64_t id;

		if (c->relative) {   /* as in /proc/PID/cgroup */
			dirfd = c->mount_fd;
			p += strspn(p, "/");
			if (!*p)
				p = ".";
		}
		fd = openat(dirfd, p, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0) {
			complain(c, paths[i], strlen(paths[i]),
				 errno == ENOTDIR ? "not a cgroup directory"
						  : errno_text(errno));
			continue;
		}
		if (fstatfs(fd, &sfs) < 0 || sfs.f_type != CGROUP2_SUPER_MAGIC)
			ret = -EXDEV;
		else
			ret = id_at(fd, "", AT_EMPTY_PATH, &id);
		close(fd);
		if (ret < 0) {
			complain(c, paths[i], strlen(paths[i]), ret == -EXDEV
				 ? "not on a cgroup2 mount" : errno_text(-ret));
			continue;
		}
		outbuf_put_u64(&c->out, id);
		outbuf_putc(&c->out, '\n');
	}
}

static void out_node(struct cgr *c, char sign, const struct cgr_index *ix,
		     uint32_t k)
{
	ssize_t n = cgr_index_path(ix, k, c->path, sizeof(c->path));

	if (n < 0) {
		char num[21];

		num[fmt_u64(num, ix->nodes[k].id)] = '\0';
		complain(c, num, strlen(num), "path too long");
		return;
	}
	if (sign)
		outbuf_putc(&c->out, sign);
	outbuf_put_u64(&c->out, ix->nodes[k].id);
	outbuf_putc(&c->out, '\t');
	out_path(c, c->path, (size_t)n);
	outbuf_putc(&c->out, '\n');
}

static void list_index(struct cgr *c, char sign)
{
	for (uint32_t k = 0; k != CGR_NONE; k = cgr_index_next(&c->ix, k))
		out_node(c, sign, &c->ix, k);
}

/* ---- watch ------------------------------------------------------------- */

/* A create whose cgroup was gone before we could learn its id: its
 * delete event (which carries the id) completes it. Rare, so few. */
struct pending {
	uint64_t parent;
	uint16_t len;
	char name[256];
};

struct watch {
	struct cgr *c;
	int fan_fd;
	struct pending pending[16];
	unsigned npending;
	char events[64 * 1024] __attribute__((aligned(8)));
};

static void emit_diff(void *ctx, char sign, const struct cgr_index *ix,
		      uint32_t k)
{
	out_node(ctx, sign, ix, k);
}

/* Walk again and report what changed since the index was made. */
static void rescan(struct cgr *c)
{
	struct cgr_index fresh;

	cgr_index_init(&fresh);
	walk_or_die(c, &fresh);
	cgr_index_diff(&c->ix, &fresh, emit_diff, c);
	cgr_index_free(&c->ix);
	c->ix = fresh;
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

static void watch_created(struct watch *w, uint64_t parent_id,
			  const char *name, size_t len)
{
	struct cgr *c = w->c;
	uint32_t p = cgr_index_find(&c->ix, parent_id), k;
	uint64_t id;
	ssize_t n;
	int ret;

	if (p == CGR_NONE || len > 255)
		return;   /* outside what the mount shows */
	n = cgr_index_path(&c->ix, p, c->path, sizeof(c->path));
	if (n < 0 || (size_t)n + 1 + len >= sizeof(c->path))
		return;
	c->path[n] = '/';
	memcpy(c->path + n + 1, name, len);
	c->path[n + 1 + len] = '\0';
	ret = id_at(c->mount_fd, c->path + 1, 0, &id);
	if (ret == -ENOENT || ret == -ENOTDIR) {
		struct pending *pd = &w->pending[w->npending++ %
						 ARRAY_SIZE(w->pending)];

		pd->parent = parent_id;
		pd->len = (uint16_t)len;
		memcpy(pd->name, name, len);
		return;
	}
	if (ret < 0 || cgr_index_find(&c->ix, id) != CGR_NONE)
		return;   /* already listed: the walk saw it */
	k = cgr_index_add(&c->ix, id, p, CGR_NONE, name, len);
	if (k == CGR_NONE || cgr_index_hash_add(&c->ix, k) < 0)
		die_nomem();
	out_node(c, '+', &c->ix, k);
}

static void watch_deleted(struct watch *w, uint64_t parent_id,
			  const char *name, size_t len, int have_id,
			  uint64_t id)
{
	struct cgr *c = w->c;
	uint32_t p = cgr_index_find(&c->ix, parent_id), k = CGR_NONE;

	if (have_id)
		k = cgr_index_find(&c->ix, id);
	else if (p != CGR_NONE)
		k = cgr_index_child(&c->ix, p, name, len);
	if (k != CGR_NONE) {
		out_node(c, '-', &c->ix, k);
		cgr_index_remove(&c->ix, k);
		return;
	}
	if (!have_id || p == CGR_NONE)
		return;
	for (unsigned i = 0; i < ARRAY_SIZE(w->pending) &&
	     i < w->npending; i++) {
		struct pending *pd = &w->pending[i];

		if (pd->parent != parent_id || pd->len != len ||
		    memcmp(pd->name, name, len) != 0)
			continue;
		/* Created and removed before we looked: report both. */
		pd->len = 0;
		pd->parent = 0;
		k = cgr_index_add(&c->ix, id, p, CGR_NONE, name, len);
		if (k == CGR_NONE)
			die_nomem();
		out_node(c, '+', &c->ix, k);
		out_node(c, '-', &c->ix, k);
		cgr_index_remove(&c->ix, k);
		return;
	}
}

static void watch_event(struct watch *w, struct fanotify_event_metadata *m)
{
	const char *p = (const char *)(m + 1), *end = (const char *)m +
							m->event_len;
	uint64_t parent_id = 0, child_id = 0;
	const char *name = NULL;
	int have_child = 0;

	if (m->mask & FAN_Q_OVERFLOW) {
		rescan(w->c);   /* events were lost: the tree says what is */
		w->npending = 0;
		return;
	}
	if (!(m->mask & FAN_ONDIR))
		return;
	while (end - p >= (ptrdiff_t)sizeof(struct fanotify_event_info_fid)) {
		const struct fanotify_event_info_fid *f = (const void *)p;
		const struct kernfs_fh *fh = (const void *)f->handle;

		if (f->hdr.len < sizeof(*f) || f->hdr.len > end - p)
			break;
		if (f->hdr.info_type == FAN_EVENT_INFO_TYPE_DFID_NAME &&
		    fh_get_id(fh, &parent_id) == 0)
			name = (const char *)fh->f_handle + fh->handle_bytes;
		else if (f->hdr.info_type == FAN_EVENT_INFO_TYPE_FID &&
			 fh_get_id(fh, &child_id) == 0)
			have_child = 1;
		p += f->hdr.len;
	}
	if (!name)
		return;
	if (m->mask & FAN_CREATE)
		watch_created(w, parent_id, name, strlen(name));
	if (m->mask & FAN_DELETE)
		watch_deleted(w, parent_id, name, strlen(name), have_child,
			      child_id);
}

static int watch(struct cgr *c, int list, int interval_ms)
{
	struct watch *w = grow(NULL, 0, sizeof(*w));
	struct pollfd pfd[2];
	sigset_t sigs;
	int nfds = 1;

	if (!w)
		die_nomem();
	w->c = c;
	w->npending = 0;
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigprocmask(SIG_BLOCK, &sigs, NULL);
	pfd[0].fd = signalfd(-1, &sigs, SFD_CLOEXEC);
	pfd[0].events = POLLIN;
	if (pfd[0].fd < 0)
		die_msg(EXIT_UNRESOLVED, "signalfd: ", errno_text(errno));
	/* Mark first, then list: a cgroup made in between is in both, and
	 * the index drops the second sighting. */
	w->fan_fd = watch_fanotify(c);
	if (w->fan_fd >= 0) {
		pfd[1].fd = w->fan_fd;
		pfd[1].events = POLLIN;
		nfds = 2;
	} else {
		char ms[20];

		ms[fmt_u64(ms, (uint64_t)interval_ms)] = '\0';
		warn_msg("fanotify cannot watch cgroup2 here (",
			 errno_text(-w->fan_fd), "): rescanning every ", ms,
			 " ms, short-lived cgroups may be missed");
	}
	walk_or_die(c, &c->ix);
	if (list)
		list_index(c, '+');
	for (;;) {
		int ready;

		if (outbuf_flush(&c->out) < 0)
			return EXIT_UNRESOLVED;   /* stdout gone */
		ready = poll(pfd, (nfds_t)nfds, nfds == 2 ? -1 : interval_ms);
		if (ready < 0 && errno != EINTR)
			die_msg(EXIT_UNRESOLVED, "poll: ", errno_text(errno));
		if (ready <= 0) {
			if (ready == 0)
				rescan(c);
			continue;
		}
		if (pfd[0].revents)
			return EXIT_RESOLVED;   /* SIGINT or SIGTERM */
		if (nfds == 2 && pfd[1].revents) {
			ssize_t n = read(w->fan_fd, w->events,
					 sizeof(w->events));
			struct fanotify_event_metadata *m = (void *)w->events;

			if (n < 0 && errno != EINTR && errno != EAGAIN)
				die_msg(EXIT_UNRESOLVED, "reading fanotify "
					"events: ", errno_text(errno));
			for (; n > 0 && FAN_EVENT_OK(m, n);
			     m = FAN_EVENT_NEXT(m, n))
				if (m->vers == FANOTIFY_METADATA_VERSION)
					watch_event(w, m);
			/* Removed cgroups stay in the arrays: compact now
			 * and then by walking afresh (reports nothing when
			 * the index is right). */
			if (c->ix.dead > 4096 && c->ix.dead > c->ix.count / 2)
				rescan(c);
		}
	}
}

/* ---- main -------------------------------------------------------------- */

static _Noreturn void usage_error(const char *first, const char *second)
{
	die_msg(EXIT_USAGE, first, second,
		" (try cgroup-resolve --help)");
}

/* Take the one long option, --walk, out of argv before the letters are
 * scanned; anything else after "--" stays. Returns the new argc. */
static int take_long_options(int argc, char **argv, int *walk)
{
	int i = 1, o = 1;

	for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--walk") == 0) {
			*walk = 1;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1] == '-')
			usage_error("unknown option: ", argv[i]);
		argv[o++] = argv[i];
	}
	while (i < argc)
		argv[o++] = argv[i++];
	argv[o] = NULL;
	return o;
}

int cgroup_resolve_main(int argc, char **argv)
{
	struct cgr cgr, *c = &cgr;
	struct optscan os;
	const char *mount_dir = NULL;
	uint32_t interval_ms = 1000;
	int by_path = 0, list = 0, watching = 0, walk = 0, interval = 0;
	int relative = 0, opt;

	argc = take_long_options(argc, argv, &walk);
	optscan_init(&os, argc, argv, "plwrm:i:");
	while ((opt = optscan_next(&os)) != -1) {
		char bad[2] = { (char)os.bad_option, '\0' };

		switch (opt) {
		case 'p': by_path = 1; break;
		case 'l': list = 1; break;
		case 'w': watching = 1; break;
		case 'r': relative = 1; break;
		case 'm': mount_dir = os.value; break;
		case 'i':
			interval = 1;
			if (parse_u32(os.value, &interval_ms) < 0 ||
			    interval_ms == 0 || interval_ms > INT_MAX)
				usage_error("-i wants milliseconds > 0: ",
					    os.value);
			break;
		case ':': usage_error("missing value for -", bad);
		default: usage_error("unknown option -", bad);
		}
	}
	if (by_path && (list || watching))
		usage_error("-p does not go with -l or -w", "");
	if (interval && !watching)
		usage_error("-i goes with -w", "");
	if ((list || watching) && os.noperands > 0)
		usage_error("-l and -w take no operand: ", os.operands[0]);
	if (!list && !watching && os.noperands == 0)
		usage_error(by_path ? "missing PATH" : "missing ID", "");
	for (int i = 0; !by_path && os.noperands > 1 && i < os.noperands;
	     i++)
		if (strcmp(os.operands[i], "-") == 0)
			usage_error("- (stdin) goes alone", "");

	memset(c, 0, offsetof(struct cgr, out));
	c->mount_fd = c->proc_fd = -1;
	c->relative = relative;
	c->status = EXIT_RESOLVED;
	outbuf_init(&c->out, 1);
	cgr_index_init(&c->ix);

	if (by_path) {
		if (relative)   /* only then are PATHs read below the mount */
			find_mount(c, mount_dir);
		resolve_paths(c, os.operands, os.noperands);
	} else if (watching) {
		find_mount(c, mount_dir);
		c->status = watch(c, list, (int)interval_ms);
	} else if (list) {
		find_mount(c, mount_dir);
		walk_or_die(c, &c->ix);
		list_index(c, 0);
	} else {
		find_mount(c, mount_dir);
		c->use_handles = !walk && probe_handles(c);
		if (strcmp(os.operands[0], "-") == 0)
			resolve_stdin(c);
		else
			resolve_args(c, os.operands, os.noperands);
	}
	if (outbuf_flush(&c->out) < 0)
		die_msg(EXIT_UNRESOLVED, "writing stdout: ",
			errno_text(-c->out.error));
	return c->status;
}
