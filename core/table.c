/* table.c - the generated applet table and its lookups. */
#include <string.h>

#include "libcommon.h"
#include "applet.h"
#include "applet_table.h"   /* generated from the //applet: lines */

const struct applet *applet_table(size_t *count)
{
	*count = ARRAY_SIZE(applets) - 1;   /* minus the sentinel */
	return applets;
}

const struct applet *find_applet(const char *name)
{
	for (const struct applet *a = applets; a->name; a++)
		if (strcmp(a->name, name) == 0)
			return a;
	return NULL;
}

const struct applet *fallback_applet(void)
{
	for (const struct applet *a = applets; a->name; a++)
		if (a->flags & APPLET_FALLBACK)
			return a;
	return NULL;
}

applet_early_fn *applet_early(const struct applet *a)
{
	return early_hooks[a->early];
}

const char *applet_links(const struct applet *a, const char **symbol)
{
	*symbol = fallback_links_symbol;
	return a->flags & APPLET_FALLBACK ? fallback_links : "";
}
