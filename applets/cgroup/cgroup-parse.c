// SPDX-License-Identifier: MIT
/* cgroup-parse.c - cgroup-resolve's pure parsers: ids as users write
 * them, /proc/self/mountinfo lines, and the paths readlink of
 * /proc/self/fd gives back. No I/O, no state: unit-tested
 * (tests/unit/test_cgroup.c) and fuzzed (tests/fuzz/parsers.sh).
 *
 * Call graph: cgr_parse_id() calls parse_u64_base();
 * cgr_mountinfo_cgroup2() unescapes the mount point (is_octal());
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
				if (flen % 3 || memcmp(line + k, LIT("/..")))
					return 0;
			rank = 2;
		}
		if (i == 4) {
			mnt = line;
			mlen = flen;
		}
		if (dash) {
			if (!LIT_IS(line, flen, "cgroup2"))
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
