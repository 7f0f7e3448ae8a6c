/* links.c - the paths an installed forkless answers to. */
#include <errno.h>
#include <string.h>

#include "libcommon.h"

#ifndef CONFIG_XEN_WRAPPED_TOOLS
#define CONFIG_XEN_WRAPPED_TOOLS ""
#endif

#define WRAPPER_PATH "usr/lib/xen-common/bin/xen-utils-wrapper"
#define DEFAULT_TOOL_DIR "usr/sbin/"

/* Walk the space-separated tool list; an entry without a '/' goes to
 * usr/sbin like most of Debian's. */
static int for_each_wrapped_tool(install_link_fn *fn, void *ctx)
{
	const char *p = CONFIG_XEN_WRAPPED_TOOLS;

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
			str_append(path, sizeof(path), &len, DEFAULT_TOOL_DIR,
				   sizeof(DEFAULT_TOOL_DIR) - 1);
		if (str_append(path, sizeof(path), &len, p, n) < 0) {
			warn_msg("XEN_WRAPPED_TOOLS: entry too long");
			return -ENAMETOOLONG;
		}
		if ((ret = fn(path, WRAPPER_PATH, ctx)) != 0)
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
	if (ENABLE_XEN_UTILS_WRAPPER)
		return for_each_wrapped_tool(fn, ctx);
	return 0;
}

static int match_name(const char *path, const char *link_to, void *ctx)
{
	(void)link_to;
	return strcmp(path_basename(path), ctx) == 0;
}

int is_wrapped_tool(const char *name)
{
	return ENABLE_XEN_UTILS_WRAPPER &&
	       for_each_wrapped_tool(match_name, (void *)name) == 1;
}
