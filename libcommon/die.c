// SPDX-License-Identifier: MIT
/* die.c - the one message style, "APPLET: message", optionally exiting;
 * and the one usage-error style, "APPLET: message (try APPLET --help)". */
#include <string.h>
#include <unistd.h>

#include "libcommon.h"

const char *applet_name = "forkless";

void warn_strv(const char *const *list)
{
	write_line(2, STR_LIST(applet_name, ": "), list, STR_LIST("\n"));
}

_Noreturn void die_strv(int status, const char *const *list)
{
	warn_strv(list);
	_exit(status);
}

_Noreturn void die_usage_strv(int status, const char *const *list)
{
	write_line(2, STR_LIST(applet_name, ": "), list,
		   STR_LIST(" (try ", applet_name, " --help)\n"));
	_exit(status);
}

_Noreturn void die_usage_arg(int status, const char *what, const char *arg)
{
	char shown[SHOWN_MAX];

	die_usage(status, what, shown_input(shown, sizeof(shown), arg,
					    strlen(arg)));
}
