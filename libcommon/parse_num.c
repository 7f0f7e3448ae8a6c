// SPDX-License-Identifier: MIT
/* parse_num.c - strict unsigned number parsing, shared by every applet.
 * strtoul accepts blanks, signs and "0x", and wraps negative numbers:
 * none of that is acceptable for sysfs values, ids or mount options. */
#include <errno.h>
#include <string.h>

#include "libcommon.h"

int parse_u64_base(const char *s, size_t len, unsigned base, uint64_t *out)
{
	uint64_t v = 0;

	if (len == 0)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		unsigned c = (unsigned char)s[i], d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -EINVAL;
		if (d >= base)
			return -EINVAL;
		if (v > (UINT64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

int parse_u64(const char *s, uint64_t *out)
{
	return parse_u64_base(s, strlen(s), 10, out);
}

int parse_u32(const char *s, uint32_t *out)
{
	uint64_t v;
	int ret = parse_u64(s, &v);

	if (ret < 0)
		return ret;
	if (v > UINT32_MAX)
		return -ERANGE;
	*out = (uint32_t)v;
	return 0;
}
