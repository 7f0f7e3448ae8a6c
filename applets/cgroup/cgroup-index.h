// SPDX-License-Identifier: MIT
/* cgroup-index.h - the in-memory index of a cgroup tree (cgroup-index.c),
 * shared by cgroup-resolve.c and the unit tests. */
#ifndef FORKLESS_CGROUP_INDEX_H
#define FORKLESS_CGROUP_INDEX_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define CGR_NONE UINT32_MAX          /* "no node" in parent/child links */
#define CGR_PATH_MAX 8192            /* longest relative path we print */

/* Anonymous memory without malloc: map new bytes (p NULL) or remap p from
 * old to new bytes. NULL on failure. */
void *cgr_map_grow(void *p, size_t old, size_t new);

/* The index of a tree: nodes in the order they were found (every node
 * after its parent), children linked in listing order, and a chained hash
 * from id to node. Removed nodes stay in the array and in their hash
 * chain, marked dead (lookups skip them), but are unlinked from their
 * parent; a rehash drops them. */
struct cgr_node {
	uint64_t id;
	uint32_t parent;
	uint32_t first_child;
	uint32_t next_sibling;
	uint32_t hash_next;        /* the next node in the same bucket */
	uint32_t name_off;         /* NUL-terminated name in names[] */
	uint16_t name_len;
	uint8_t dead;
};

struct cgr_index {
	struct cgr_node *nodes;
	uint32_t count, dead;
	char *names;
	size_t names_len;
	uint32_t *buckets;         /* first node of each chain, or CGR_NONE */
	uint32_t nbuckets;         /* a power of two, or 0: not hashed */
	size_t nodes_cap, names_cap, buckets_cap;   /* bytes mapped */
};

void cgr_index_init(struct cgr_index *ix);
void cgr_index_free(struct cgr_index *ix);
/* Empty, keeping the memory (and dropping the hash). */
void cgr_index_clear(struct cgr_index *ix);
/* Append a node under parent (CGR_NONE for the root) after the child
 * `after` (CGR_NONE: as the first child). Not hashed: call
 * cgr_index_hash_all() after a walk, or cgr_index_hash_add(). Returns
 * the node, or CGR_NONE when out of memory. */
uint32_t cgr_index_add(struct cgr_index *ix, uint64_t id, uint32_t parent,
		       uint32_t after, const char *name, size_t len);
int cgr_index_hash_all(struct cgr_index *ix);       /* 0 or -ENOMEM */
int cgr_index_hash_add(struct cgr_index *ix, uint32_t node);
uint32_t cgr_index_find(const struct cgr_index *ix, uint64_t id);
/* Remove node and its subtree: unlink, mark dead (gone for lookups). */
void cgr_index_remove(struct cgr_index *ix, uint32_t node);
/* The path of node below the root ("" for the root, else "/a/b") into
 * buf (NUL-terminated): its length, or -ENAMETOOLONG. */
ssize_t cgr_index_path(const struct cgr_index *ix, uint32_t node, char *buf,
		       size_t cap);
/* The live child of node named name (len bytes), or CGR_NONE. */
uint32_t cgr_index_child(const struct cgr_index *ix, uint32_t node,
			 const char *name, size_t len);
/* Pre-order successor of node (parents before children), skipping
 * nothing: dead nodes are unlinked. CGR_NONE after the last. */
uint32_t cgr_index_next(const struct cgr_index *ix, uint32_t node);

/* The changes from old to new as a watcher reports them: '-' for a node
 * of old whose id is gone from new or whose path changed (children
 * first), then '+' for the nodes of new that old lacks or had elsewhere
 * (parents first). emit() gets the node's index in its own tree. */
typedef void cgr_emit_fn(void *ctx, char sign, const struct cgr_index *ix,
			 uint32_t node);
void cgr_index_diff(const struct cgr_index *old, const struct cgr_index *new,
		    cgr_emit_fn *emit, void *ctx);

#endif
