/* die.c - "APPLET: message" on stderr, optionally exiting. */
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "libcommon.h"

const char *applet_name = "forkless";

static void vwarn(const char *first, va_list ap)
{
	char head[64];
	size_t len = 0;

	head[0] = '\0';
	if (str_append(head, sizeof(head), &len, applet_name,
		       strlen(applet_name)) < 0)
		len = 0;   /* applet names are short; never reached */
	str_append(head, sizeof(head), &len, ": ", 2);
	write_line_va(2, head, first, ap, "\n");
}

void warn_msg_list(const char *first, ...)
{
	va_list ap;

	va_start(ap, first);
	vwarn(first, ap);
	va_end(ap);
}

_Noreturn void die_msg_list(int status, const char *first, ...)
{
	va_list ap;

	va_start(ap, first);
	vwarn(first, ap);
	va_end(ap);
	_exit(status);
}
