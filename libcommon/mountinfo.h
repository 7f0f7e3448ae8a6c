// SPDX-License-Identifier: MIT
/* mountinfo.h - /proc/self/mountinfo as a stream: the fields its two
 * readers need, from lines of any length, in a fixed struct (no line
 * buffer, no heap). Knows no applet. hotplug's block (its "mounted in
 * dom0" check) takes MAJ:MIN, read-only, the fstype and the source;
 * cgroup-resolve (the cgroup2 mount to use) the fstype, ROOT and the
 * mount point.
 *
 * A line (proc(5)): ID PARENT MAJ:MIN ROOT MOUNT-POINT MOUNT-OPTIONS
 * [OPTIONAL...] - FSTYPE SOURCE SUPER-OPTIONS. Fields are separated by
 * one space; the kernel writes a space, tab, newline or backslash inside
 * a field as \ooo, so neither splits a field or a line. mountinfo_feed()
 * takes the file in chunks cut anywhere (a read()'s worth, a byte) and
 * calls back once per line, when its newline arrives (mountinfo_end():
 * a last line without one). What it keeps of a line: MAJ:MIN, whether
 * the mount or its superblock is read-only (the first option of field 6
 * or of the super options is "ro": /proc/mounts's "ro", which is either),
 * whether ROOT is "/" or made of "/.." alone, the fstype's first bytes,
 * and the mount point and the source unescaped up to
 * MOUNTINFO_PATH_MAX - 1 bytes each (longer, or a byte no path holds:
 * _cut). ROOT, however long, is compared as it streams, never held. */
#ifndef FORKLESS_MOUNTINFO_H
#define FORKLESS_MOUNTINFO_H

#include <stddef.h>

#define MOUNTINFO_FSTYPE_MAX 32     /* longer, or a NUL: fstype_cut */
#define MOUNTINFO_PATH_MAX 4096     /* PATH_MAX: a longer name opens nothing */

struct mountinfo_entry {
	unsigned major, minor;
	unsigned char have_dev;     /* field 3 was DIGITS:DIGITS, each < 2^32 */
	unsigned char ro;           /* field 6's or the super options' first is ro */
	unsigned char root_slash;   /* ROOT is "/": the whole filesystem */
	unsigned char root_above;   /* ROOT is "/..", "/../.."...: in a cgroup
				       namespace, a cgroup2 mount of an
				       ancestor of the namespace's root */
	unsigned char fstype_cut, mount_point_cut, source_cut;
	size_t fstype_len, mount_point_len, source_len;
	char fstype[MOUNTINFO_FSTYPE_MAX];        /* raw (escapes kept), NUL-ended */
	char mount_point[MOUNTINFO_PATH_MAX];     /* unescaped, NUL-ended */
	char source[MOUNTINFO_PATH_MAX];          /* unescaped, NUL-ended */
};

/* The state between chunks: where in which field the stream is. */
struct mountinfo_parser {
	unsigned field;             /* 0-based; FSTYPE.. once past "-" */
	unsigned char in_line;      /* a byte of this line was seen */
	unsigned char past_sep;     /* the "-" field went by */
	unsigned char dev_state;    /* field 3: 0 major, 1 minor, 2 bad */
	unsigned char dev_digits;   /* digits of the current number */
	size_t field_len;           /* raw bytes of the current field */
	char first[3];              /* the current field's first raw bytes */
	unsigned char opt_state;    /* first option: 0 reading, 1 done */
	unsigned char root_other;   /* a byte of ROOT is not "/.."'s there */
	unsigned char esc;          /* a path: \ then esc-1 octal digits */
	unsigned esc_val;
	struct mountinfo_entry cur;
};

/* Called per line; a nonzero return stops the stream and is returned by
 * mountinfo_feed()/mountinfo_end(). */
typedef int mountinfo_fn(const struct mountinfo_entry *m, void *ctx);

void mountinfo_init(struct mountinfo_parser *p);
/* n bytes of the file, continuing where the last chunk stopped: 0, or the
 * callback's nonzero return (the parser must be initialised again). */
int mountinfo_feed(struct mountinfo_parser *p, const char *buf, size_t n,
		   mountinfo_fn *fn, void *ctx);
/* The end of the file: a last line without a newline is handed over. */
int mountinfo_end(struct mountinfo_parser *p, mountinfo_fn *fn, void *ctx);

#endif
