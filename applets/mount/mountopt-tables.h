// SPDX-License-Identifier: MIT
/* mountopt-tables.h - what the mount option engine's two files share:
 * mountopt.c (the parser, the mount data, the texts) calls into
 * mountopt-tables.c (the tables and the lookups in them), never the other
 * way (tests/build/cycles.sh). Not an interface: the mount helpers use
 * mountopt.h. */
#ifndef FORKLESS_MOUNTOPT_TABLES_H
#define FORKLESS_MOUNTOPT_TABLES_H

#include <stddef.h>
#include <stdint.h>

#include "mountopt.h"

/* Word lists are "pools": the words one after another, each ended by a
 * NUL, the list ended by an empty word. The index of s (len bytes) in
 * pool, or -1; the word at index i. */
int mopt_pool_index(const char *pool, const char *s, size_t len);
const char *mopt_pool_at(const char *pool, unsigned i);

/* The VFS flags in bit order, and their names ("RDONLY\0NOSUID\0..."). */
extern const uint32_t mopt_ms_flags[];
extern const size_t mopt_ms_nflags;
extern const char mopt_ms_names[];
/* opt (len bytes, no '=') a VFS flag word: its flag set in or cleared
 * from *flags, 1; else 0. */
int mopt_flag_word(const char *opt, size_t len, unsigned long *flags);
/* opt (len bytes; its name, before any '=', nlen bytes) a word only
 * mount(8) reads: what it implies set in *flags, 1; else 0. */
int mopt_mount8_word(const char *opt, size_t len, size_t nlen,
		     unsigned long *flags);

/* The ranges of U32 options and the masks of OCTAL ones, and the values
 * of ENUM options as pools, indexed by mopt_spec.arg. */
extern const uint32_t mopt_ranges[][2];
extern const char *const mopt_choices[];

/* The options every filesystem's mount data may carry (the LSM labels):
 * how many, after each filesystem's own. */
extern const size_t mopt_ncommon;
/* Spec i of fs: its own options, then the common ones. */
const struct mopt_spec *mopt_spec_at(const struct mopt_fs *fs, unsigned i);
/* The slot (and emitted name) of spec i: its own, or its alias's. */
unsigned mopt_slot_of(const struct mopt_fs *fs, unsigned i);
const char *mopt_name_at(const struct mopt_fs *fs, unsigned i);
/* The index of the spec called name (len bytes), or -1. */
int mopt_find_spec(const struct mopt_fs *fs, const char *name, size_t len);

#endif
