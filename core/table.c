// SPDX-License-Identifier: MIT
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

/* The generated APPLETS_AT: one AT per //applet: at= path, for an argv0
 * ending in DIR BASE (name: its basename, in argv0). Code, not a table:
 * the compares of constant strings cost what a hand-written test did. */
#define AT(BASE, DIR, APPLET)                                            \
	if (strcmp(name, BASE) == 0 &&                                   \
	    (size_t)(name - argv0) >= sizeof(DIR) - 1 &&                 \
	    memcmp(name - (sizeof(DIR) - 1), DIR, sizeof(DIR) - 1) == 0) \
		return find_applet(APPLET);

const struct applet *find_applet_at(const char *argv0, const char *name)
{
	APPLETS_AT
	(void)argv0;
	(void)name;
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
