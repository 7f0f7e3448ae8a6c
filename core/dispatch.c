// SPDX-License-Identifier: MIT
/* dispatch.c - the one decision: what runs under a name.
 *
 * main() and the ELF entry point (entry.c) both call dispatch(), so the
 * early exec path can never disagree with main() about which applet a
 * name means. It makes no syscall and touches no TLS: the entry point
 * calls it before libc has started. The hot path is a Xen tool name
 * (xl): one prefix compare, a miss in a table of a handful of names,
 * then the FALLBACK applet.
 *
 * A name may depend on more than the basename: an applet's //applet: at=
 * path (an init script in another applet's name, say) claims the
 * argv[0]s ending in it, before the basename alone (find_applet_at: a
 * compare per such path). */
#include <string.h>

#include "libcommon.h"
#include "applet.h"

/* A table entry for the multiplexer itself, so that the answer is always
 * an entry: it has no early hook and its own --help. */
const struct applet dispatch_multiplexer = {
	.name = "forkless",
	.install_path = FORKLESS_INSTALL_PATH,
	.flags = APPLET_ARGS_PASSTHROUGH,
};

const struct applet *dispatch(const char *argv0, const char *name)
{
	const struct applet *a;

	if (strncmp(name, LIT("forkless")) == 0)
		return &dispatch_multiplexer;
	a = find_applet_at(argv0, name);
	if (!a)
		a = find_applet(name);
	return a ? a : fallback_applet();
}

const struct applet *dispatch_multiplexed(const char *name)
{
	const struct applet *a = find_applet(name);

	if (a)
		return a;
	/* `forkless xl list`: a declared link name runs the fallback; any
	 * other name is a typo, not a tool to look for. */
	a = fallback_applet();
	return a && is_applet_link(a, name) ? a : NULL;
}
