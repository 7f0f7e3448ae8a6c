/* die.c - the one message style, "APPLET: message", optionally exiting;
 * and the one usage-error style, "APPLET: message (try APPLET --help)". */
#include <string.h>
#include <unistd.h>

#include "libcommon.h"

const char *applet_name = "forkless";

/* before + "APPLET" + after into buf (applet names are table entries,
 * far shorter than buf). */
static const char *with_name(char *buf, size_t cap, const char *before,
			     const char *after)
{
	size_t len = 0;

	buf[0] = '\0';
	str_append(buf, cap, &len, before, strlen(before));
	str_append(buf, cap, &len, applet_name, strlen(applet_name));
	str_append(buf, cap, &len, after, strlen(after));
	return buf;
}

void warn_strv(const char *const *list)
{
	char head[80];

	write_line(2, with_name(head, sizeof(head), "", ": "), list, "\n");
}

_Noreturn void die_strv(int status, const char *const *list)
{
	warn_strv(list);
	_exit(status);
}

_Noreturn void die_usage_strv(int status, const char *const *list)
{
	char head[80], tail[96];

	write_line(2, with_name(head, sizeof(head), "", ": "), list,
		   with_name(tail, sizeof(tail), " (try ", " --help)\n"));
	_exit(status);
}
