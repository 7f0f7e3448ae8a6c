// SPDX-License-Identifier: MIT
/* links.c - the paths an installed forkless answers to: each applet's
 * install path, and the extra links the FALLBACK applet declares (its
 * //applet: links= Kconfig string, e.g. XEN_WRAPPED_TOOLS). */
#include <errno.h>
#include <string.h>

#include "libcommon.h"
#include "applet.h"

#define DEFAULT_LINK_DIR "usr/sbin/"

/* Walk a's space-separated link list; an entry without a '/' goes to
 * usr/sbin (where Debian puts most of the Xen tools). */
static int for_each_applet_link(const struct applet *a, install_link_fn *fn,
				void *ctx)
{
	const char *symbol;
	const char *p = applet_links(a, &symbol);

	while (*p) {
		char path[4096];
		size_t n = strcspn(p, " \t\n"), len = 0;
		int ret;

		if (n == 0) {
			p++;
			continue;
		}
		path[0] = '\0';
		if (!memchr(p, '/', n))
			str_append(path, sizeof(path), &len, DEFAULT_LINK_DIR,
				   sizeof(DEFAULT_LINK_DIR) - 1);
		if (str_append(path, sizeof(path), &len, p, n) < 0) {
			warn_msg(symbol, ": entry too long");
			return -ENAMETOOLONG;
		}
		if ((ret = fn(path, a->install_path, ctx)) != 0)
			return ret;
		p += n;
	}
	return 0;
}

int for_each_install_link(install_link_fn *fn, void *ctx)
{
	size_t n;
	const struct applet *a = applet_table(&n);
	int ret;

	for (size_t i = 0; i < n; i++)
		if ((ret = fn(a[i].install_path, FORKLESS_INSTALL_PATH, ctx)))
			return ret;
	a = fallback_applet();
	return a ? for_each_applet_link(a, fn, ctx) : 0;
}

static int match_name(const char *path, const char *link_to, void *ctx)
{
	(void)link_to;
	return strcmp(path_basename(path), ctx) == 0;
}

int is_applet_link(const struct applet *a, const char *name)
{
	return for_each_applet_link(a, match_name, (void *)name) == 1;
}
