// SPDX-License-Identifier: MIT
// sources: applets/xen/xen.c
/* Unit tests of the Xen applets' pure parts: sysfs value validation,
 * dash `read` semantics, tool path building. */
#include <errno.h>
#include <string.h>

#include "libcommon.h"
#include "xen/xen.h"
#include "unit.h"

static int version_ok(const char *s, const char *digits)
{
	size_t start, n;

	if (xen_parse_version_value(s, strlen(s), &start, &n) < 0)
		return 0;
	return n == strlen(digits) && memcmp(s + start, digits, n) == 0;
}

static int version_bad(const char *s, size_t len)
{
	size_t start, n;

	return xen_parse_version_value(s, len, &start, &n) < 0;
}

static const char *read_line_n(const char *s, size_t n)
{
	static char out[64];

	xen_shell_read_line(s, n, out, sizeof(out));
	return out;
}

static const char *read_line(const char *s)
{
	return read_line_n(s, strlen(s));
}

int main(void)
{
	char path[64];

	UNIT_CHECK("version/sysfs form", version_ok("4\n", "4"));
	UNIT_CHECK("version/no newline", version_ok("17", "17"));
	UNIT_CHECK("version/blanks around", version_ok(" \t17 \n", "17"));
	UNIT_CHECK("version/leading zero kept as written", version_ok("04\n", "04"));
	UNIT_CHECK("version/u32 max", version_ok("4294967295\n", "4294967295"));
	UNIT_CHECK("version/empty", version_bad("", 0));
	UNIT_CHECK("version/only newline", version_bad("\n", 1));
	UNIT_CHECK("version/dotdot", version_bad("../x\n", 5));
	UNIT_CHECK("version/two lines", version_bad("4\n5\n", 4));
	UNIT_CHECK("version/two newlines", version_bad("4\n\n", 3));
	UNIT_CHECK("version/negative", version_bad("-4\n", 3));
	UNIT_CHECK("version/dot inside", version_bad("4.1\n", 4));
	UNIT_CHECK("version/slash", version_bad("4/\n", 3));
	UNIT_CHECK("version/NUL byte", version_bad("4\0", 2));
	UNIT_CHECK("version/CR", version_bad("4\r\n", 3));
	UNIT_CHECK("version/11 digits", version_bad("12345678901\n", 12));
	UNIT_CHECK("version/above u32", version_bad("4294967296\n", 11));

	UNIT_STREQ("read/plain", "xen", read_line("xen\n"));
	UNIT_STREQ("read/no newline", "xen", read_line("xen"));
	UNIT_STREQ("read/blanks trimmed", "not xen", read_line("  not xen \t\n"));
	UNIT_STREQ("read/first line only", "kvm", read_line("kvm\nxen\n"));
	UNIT_STREQ("read/backslash quotes", "xen", read_line("x\\en\n"));
	UNIT_STREQ("read/backslash-newline joins", "xen", read_line("x\\\nen\n"));
	UNIT_STREQ("read/quoted trailing blank kept", "xen ", read_line("xen\\ \n"));
	UNIT_STREQ("read/empty", "", read_line("\n"));
	/* dash's read drops NUL bytes wherever they are. */
	UNIT_STREQ("read/NUL dropped, the rest kept", "xenjunk", read_line_n("xen\0junk\n", 9));
	UNIT_STREQ("read/NUL inside", "xen", read_line_n("x\0en\n", 5));
	UNIT_STREQ("read/NUL after a backslash", "xen", read_line_n("x\\\0en\n", 6));
	UNIT_STREQ("read/NULs only", "", read_line_n("\0\0\n", 3));
	UNIT_STREQ("read/NUL between blanks", "xen", read_line_n(" \0 xen \0\n", 9));

	UNIT_CHECK("tool_path/builds", xen_tool_path(path, sizeof(path), "4.17", "xl") == 0);
	UNIT_STREQ("tool_path/value", "/usr/lib/xen-4.17/bin/xl", path);
	UNIT_CHECK("tool_path/too long refused",
		   xen_tool_path(path, 24, "4.17", "xl") == -ENAMETOOLONG);
	return unit_failures != 0;
}
