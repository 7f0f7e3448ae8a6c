// SPDX-License-Identifier: MIT
/* relpath.c - relative symlink targets, as Debian's packages use them
 * (usr/sbin/xl -> ../lib/xen-common/bin/xen-utils-wrapper), so an
 * installed tree works the same in a chroot, an initramfs or in place. */
#include <errno.h>
#include <string.h>

#include "libcommon.h"

int relative_link_target(const char *link, const char *target,
			 char *out, size_t cap)
{
	size_t common = 0, len = 0;

	/* Skip the directories both paths share (whole components only). */
	for (size_t i = 0; link[i] && link[i] == target[i]; i++)
		if (link[i] == '/')
			common = i + 1;
	out[0] = '\0';
	/* One ".." for every directory of the link below the common part. */
	for (const char *p = link + common; (p = strchr(p, '/')); p++)
		if (str_append(out, cap, &len, LIT("../")) < 0)
			return -ENAMETOOLONG;
	return str_append(out, cap, &len, target + common,
			  strlen(target + common));
}
