// SPDX-License-Identifier: MIT
/* cgroup-resolve-watch.c - -w: report cgroups as they come and go.
 *
 * fanotify (filesystem mark, FAN_REPORT_DFID_NAME) names the parent by
 * handle -- its id, looked up in the index -- and the child by name; the
 * child's id comes from name_to_handle_at (a create) or from the event's
 * target FID (a delete; a create has none, as kernfs makes the inode
 * later). A cgroup gone before its create was read is completed by its
 * delete; so are its children, whose deletes came first and named a
 * parent not yet known (kept as orphans until it is). Where fanotify
 * cannot watch cgroupfs (< 6.6, or no CAP_SYS_ADMIN) it rescans every
 * -i MS and reports the difference.
 *
 * Call graph: watch() -> watch_fanotify(), walk(), list_index(); then per
 * read watch_batch() -> copy_event(), watch_event() -> parse_event(),
 * deleted_later(), id_below(), watch_add(), watch_remove(),
 * keep_orphan()/adopt_orphans()/drop_orphans(); on overflow and without
 * fanotify, rescan() -> walk(), cgr_index_diff() -> out_node().
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "libcommon.h"
#include "sys.h"
#include "cgroup-resolve.h"

#define EVENT_BUF_SIZE (64 * 1024)    /* fanotify events per read */
#define MAX_ORPHANS 16384             /* deletes kept for unknown parents:
					 the default fanotify queue */

#ifndef FAN_REPORT_TARGET_FID         /* musl 1.2.3's header predates it */
#define FAN_REPORT_TARGET_FID 0x00001000
#endif

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

int watch(struct cgr *c, int list, int interval_ms)
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
