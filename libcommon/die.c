/* die.c - "APPLET: message" on stderr, optionally exiting. */
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "libcommon.h"

const char *applet_name = "forkless";

static void vwarn(const char *first, va_list ap)
{
	char buf[4096];
	size_t len = 0;

	/* Build "name: a b c\n" in one buffer: one write(2) per message. */
	str_append(buf, sizeof(buf), &len, applet_name, strlen(applet_name));
	str_append(buf, sizeof(buf), &len, ": ", 2);
	for (const char *s = first; s; s = va_arg(ap, const char *)) {
		size_t n = strlen(s);
		if (str_append(buf, sizeof(buf), &len, s, n) < 0) {
			/* Longer than a page: write in parts, never cut. */
			write_all(2, buf, len);
			write_all(2, s, n);
			len = 0;
			buf[0] = '\0';
		}
	}
	if (str_append(buf, sizeof(buf), &len, "\n", 1) < 0) {
		write_all(2, buf, len);
		write_all(2, "\n", 1);
		return;
	}
	write_all(2, buf, len);
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
