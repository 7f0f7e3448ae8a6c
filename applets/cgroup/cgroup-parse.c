// SPDX-License-Identifier: MIT
/* cgroup-parse.c - cgroup-resolve's pure parsers: ids as users write
 * them, which /proc/self/mountinfo entries (libcommon's mountinfo.c
 * parses the lines) are cgroup2 mounts to use, and the paths readlink of
 * /proc/self/fd gives back. No I/O, no state: unit-tested
 * (tests/unit/test_cgroup.c) and fuzzed (tests/fuzz/parsers.sh).
 *
 * Call graph: cgr_parse_id() calls parse_u64_base(); cgr_mount_rank(),
 * cgr_path_below() and cgr_path_deleted() compare bytes.
 */
#include <string.h>

#include "libcommon.h"
#include "cgroup-resolve.h"

#define DELETED_SUFFIX " (deleted)"

int cgr_parse_id(const char *s, size_t len, uint64_t *id)
{
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return parse_u64_base(s + 2, len - 2, 16, id);
	return parse_u64_base(s, len, 10, id);
}

int cgr_mount_rank(const struct mountinfo_entry *m)
{
	if (m->fstype_cut || !LIT_IS(m->fstype, m->fstype_len, "cgroup2") ||
	    m->mount_point_cut || m->mount_point_len == 0)
		return 0;
	return m->root_slash ? 1 : m->root_above ? 2 : 0;
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
