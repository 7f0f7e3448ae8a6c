// SPDX-License-Identifier: MIT
/* str.c - tiny string helpers. */
#include <errno.h>
#include <string.h>

#include "libcommon.h"

const char *path_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

const char *dispatch_name(const char *argv0)
{
	const char *name = argv0 ? path_basename(argv0) : "";

	return name[0] == '-' ? name + 1 : name;
}

int str_append(char *dst, size_t cap, size_t *len, const char *src, size_t n)
{
	if (n >= cap - *len)
		return -ENAMETOOLONG;
	memcpy(dst + *len, src, n);
	*len += n;
	dst[*len] = '\0';
	return 0;
}
