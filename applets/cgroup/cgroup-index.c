// SPDX-License-Identifier: MIT
/* cgroup-index.c - the in-memory index of a cgroup tree: nodes in the
 * order a walk found them, children linked in listing order, a chained
 * hash from id to node, and the diff of two indexes that a rescanning
 * watcher reports. Pure (no I/O but mmap), unit-tested in
 * tests/unit/test_cgroup.c; cgroup-resolve.c walks the tree into it. */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cgroup-index.h"

#ifdef SYS_mmap2                      /* 32-bit: the offset (0) in pages */
#define SYS_MMAP SYS_mmap2
#else
#define SYS_MMAP SYS_mmap
#endif

/* The index grows with mmap/mremap, not malloc: it is the applet's only
 * big allocation, and leaving malloc out keeps ~10 KiB of allocator out
 * of the static binary. Raw syscalls: musl's wrappers add locking for
 * threads this applet does not have. Returns NULL on failure. */
void *cgr_map_grow(void *p, size_t old, size_t new)
{
	long q = p ? syscall(SYS_mremap, p, (long)old, (long)new,
			     (long)MREMAP_MAYMOVE)
		   : syscall(SYS_MMAP, 0L, (long)new,
			     (long)(PROT_READ | PROT_WRITE),
			     (long)(MAP_PRIVATE | MAP_ANONYMOUS), -1L, 0L);

	return q == -1 ? NULL : (void *)q;
}

static void release(void *p, size_t size)
{
	if (p)
		syscall(SYS_munmap, p, (long)size);
}

/* Make *cap (bytes mapped at *p) at least need, doubling from first.
 * 0, or -ENOMEM leaving *p alone. */
static int reserve(void *p, size_t *cap, size_t need, size_t first)
{
	void **pp = p, *q;
	size_t n = *cap ? *cap : first;

	while (n < need)
		n *= 2;
	if (n == *cap)
		return 0;
	if (!(q = cgr_map_grow(*pp, *cap, n)))
		return -ENOMEM;
	*pp = q;
	*cap = n;
	return 0;
}

void cgr_index_init(struct cgr_index *ix)
{
	memset(ix, 0, sizeof(*ix));
}

void cgr_index_free(struct cgr_index *ix)
{
	release(ix->nodes, ix->nodes_cap);
	release(ix->names, ix->names_cap);
	release(ix->buckets, ix->buckets_cap);
	cgr_index_init(ix);
}

/* Empty, keeping the memory (and dropping the hash: its chains would
 * name nodes of the old tree). */
void cgr_index_clear(struct cgr_index *ix)
{
	ix->count = ix->dead = ix->nbuckets = 0;
	ix->names_len = 0;
}

uint32_t cgr_index_add(struct cgr_index *ix, uint64_t id, uint32_t parent,
		       uint32_t after, const char *name, size_t len)
{
	struct cgr_node *n;

	if (len > UINT16_MAX || ix->count >= CGR_NONE - 1 ||
	    ix->names_len + len >= UINT32_MAX ||
	    reserve(&ix->nodes, &ix->nodes_cap,
		    (ix->count + 1) * sizeof(*n), 1024 * sizeof(*n)) < 0 ||
	    reserve(&ix->names, &ix->names_cap, ix->names_len + len + 1,
		    16384) < 0)
		return CGR_NONE;
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

static uint32_t *bucket(const struct cgr_index *ix, uint64_t id)
{
	return &ix->buckets[(uint32_t)((id * 0x9e3779b97f4a7c15ULL) >> 32) &
			    (ix->nbuckets - 1)];
}

static void hash_put(struct cgr_index *ix, uint32_t node)
{
	uint32_t *b = bucket(ix, ix->nodes[node].id);

	ix->nodes[node].hash_next = *b;
	*b = node;
}

int cgr_index_hash_all(struct cgr_index *ix)
{
	uint32_t n = 1024;

	while (n < ix->count && n < (1u << 31))   /* chains of ~1 node */
		n *= 2;
	if (reserve(&ix->buckets, &ix->buckets_cap, (size_t)n * 4, 4096) < 0)
		return -ENOMEM;
	ix->nbuckets = n;
	memset(ix->buckets, 0xff, (size_t)n * 4);  /* all CGR_NONE */
	for (uint32_t k = 0; k < ix->count; k++)
		if (!ix->nodes[k].dead)
			hash_put(ix, k);
	return 0;
}

int cgr_index_hash_add(struct cgr_index *ix, uint32_t node)
{
	if (ix->count > ix->nbuckets)   /* the rebuild hashes node too */
		return cgr_index_hash_all(ix);
	hash_put(ix, node);
	return 0;
}

uint32_t cgr_index_find(const struct cgr_index *ix, uint64_t id)
{
	uint32_t k = ix->nbuckets ? *bucket(ix, id) : CGR_NONE;

	while (k != CGR_NONE && (ix->nodes[k].id != id || ix->nodes[k].dead))
		k = ix->nodes[k].hash_next;
	return k;
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
	n->dead = 1;   /* which drops it from the hash too */
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

uint32_t cgr_index_child(const struct cgr_index *ix, uint32_t node,
			 const char *name, size_t len)
{
	uint32_t k = ix->nodes[node].first_child;

	while (k != CGR_NONE && (ix->nodes[k].name_len != len ||
				 memcmp(ix->names + ix->nodes[k].name_off,
					name, len) != 0))
		k = ix->nodes[k].next_sibling;
	return k;
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
