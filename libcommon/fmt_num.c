// SPDX-License-Identifier: MIT
/* fmt_num.c - the one number formatter, without stdio. */
#include "libcommon.h"

size_t fmt_u64_base(char *buf, uint64_t v, unsigned base)
{
	char tmp[64];
	size_t n = 0;

	do {
		tmp[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	for (size_t i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	return n;
}
