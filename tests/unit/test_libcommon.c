// sources:
/* Unit tests of libcommon's pure helpers: numbers, paths, escaping,
 * option scanning. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "libcommon.h"
#include "unit.h"

static void test_parse(void)
{
	uint64_t v = 0;
	uint32_t w = 0;

	UNIT_CHECK("parse_u64/zero", parse_u64("0", &v) == 0 && v == 0);
	UNIT_CHECK("parse_u64/max", parse_u64("18446744073709551615", &v) == 0 &&
		   v == UINT64_MAX);
	UNIT_CHECK("parse_u64/overflow", parse_u64("18446744073709551616", &v) == -ERANGE);
	UNIT_CHECK("parse_u64/empty", parse_u64("", &v) == -EINVAL);
	UNIT_CHECK("parse_u64/sign", parse_u64("-1", &v) == -EINVAL);
	UNIT_CHECK("parse_u64/plus", parse_u64("+1", &v) == -EINVAL);
	UNIT_CHECK("parse_u64/blank", parse_u64(" 1", &v) == -EINVAL);
	UNIT_CHECK("parse_u64/trailing", parse_u64("1 ", &v) == -EINVAL);
	UNIT_CHECK("parse_u64/hex prefix", parse_u64("0x10", &v) == -EINVAL);
	UNIT_CHECK("parse_u64_base/hex", parse_u64_base("fF", 2, 16, &v) == 0 && v == 255);
	UNIT_CHECK("parse_u64_base/octal", parse_u64_base("0755", 4, 8, &v) == 0 && v == 0755);
	UNIT_CHECK("parse_u64_base/octal 8", parse_u64_base("8", 1, 8, &v) == -EINVAL);
	UNIT_CHECK("parse_u64_base/length bound", parse_u64_base("12x", 2, 10, &v) == 0 && v == 12);
	UNIT_CHECK("parse_u32/max", parse_u32("4294967295", &w) == 0 && w == UINT32_MAX);
	UNIT_CHECK("parse_u32/overflow", parse_u32("4294967296", &w) == -ERANGE);
}

static void test_fmt(void)
{
	char buf[21];
	size_t n;

	n = fmt_u64(buf, 0);
	buf[n] = 0;
	UNIT_STREQ("fmt_u64/0", "0", buf);
	n = fmt_u64(buf, UINT64_MAX);
	buf[n] = 0;
	UNIT_STREQ("fmt_u64/max", "18446744073709551615", buf);
}

static void test_paths(void)
{
	char out[64], small[8];
	size_t len = 0;

	UNIT_STREQ("path_basename/plain", "xl", path_basename("xl"));
	UNIT_STREQ("path_basename/dir", "xl", path_basename("/usr/sbin/xl"));
	UNIT_STREQ("path_basename/trailing slash", "", path_basename("dir/"));
	UNIT_CHECK("relative_link_target/Debian's xl",
		   relative_link_target("usr/sbin/xl",
			"usr/lib/xen-common/bin/xen-utils-wrapper", out, sizeof(out)) == 0);
	UNIT_STREQ("relative_link_target/Debian's xl value",
		   "../lib/xen-common/bin/xen-utils-wrapper", out);
	relative_link_target("usr/lib/xen-common/bin/xen-version", "usr/bin/forkless", out, sizeof(out));
	UNIT_STREQ("relative_link_target/deep", "../../../bin/forkless", out);
	relative_link_target("usr/bin/cgroup-resolve", "usr/bin/forkless", out, sizeof(out));
	UNIT_STREQ("relative_link_target/same dir", "forkless", out);
	relative_link_target("sbin/mount.9p", "usr/bin/forkless", out, sizeof(out));
	UNIT_STREQ("relative_link_target/other tree", "../usr/bin/forkless", out);
	relative_link_target("usr/binx/a", "usr/bin/forkless", out, sizeof(out));
	UNIT_STREQ("relative_link_target/prefix is not a directory", "../bin/forkless", out);
	UNIT_CHECK("relative_link_target/too long",
		   relative_link_target("a/b/c/d", "x/forkless", small, sizeof(small)) == -ENAMETOOLONG);

	small[0] = 0;
	UNIT_CHECK("str_append/fits", str_append(small, sizeof(small), &len, "abc", 3) == 0 && len == 3);
	UNIT_CHECK("str_append/refuses, unchanged",
		   str_append(small, sizeof(small), &len, "abcde", 5) == -ENAMETOOLONG &&
		   len == 3 && strcmp(small, "abc") == 0);
}

static void test_escape(void)
{
	char out[64], tiny[4];
	size_t need;

	escape_octal(out, sizeof(out), "a\tb\nc\\d e", 9, 0);
	UNIT_STREQ("escape_octal/controls", "a\\011b\\012c\\134d e", out);
	escape_octal(out, sizeof(out), "d e", 3, 1);
	UNIT_STREQ("escape_octal/space", "d\\040e", out);
	escape_octal(out, sizeof(out), "\xc3\xa9\x7f", 3, 0);
	UNIT_STREQ("escape_octal/UTF-8 kept, DEL escaped", "\xc3\xa9\\177", out);
	need = escape_octal(tiny, sizeof(tiny), "\t\t", 2, 0);
	UNIT_CHECK("escape_octal/reports the needed length", need == 8 && strlen(tiny) == 3);

	escape_c(out, sizeof(out), "a\"b\\c\td\n\001\x7f\xc3" "e", 12);
	UNIT_STREQ("escape_c/strace's escapes", "a\\\"b\\\\c\\td\\n\\001\\177\\303e", out);
	escape_c(out, sizeof(out), "tn", 2);
	UNIT_STREQ("escape_c/letters of the escapes stay letters", "tn", out);
	escape_c(out, sizeof(out), "\0" "1", 2);
	UNIT_STREQ("escape_c/NUL before a digit is unambiguous", "\\0001", out);

	UNIT_STREQ("shown_input/fits whole", "ab\\011", shown_input(out, 8, "ab\t", 3));
	UNIT_STREQ("shown_input/cut is marked", "abcd...", shown_input(out, 8, "abcdefghij", 10));
	UNIT_STREQ("shown_input/never inside an escape", "a...",
		   shown_input(out, 8, "a\t\t\t", 4));
}

static void test_optscan(void)
{
	char a0[] = "mount.x", a1[] = "share", a2[] = "/mnt", a3[] = "-o",
	     a4[] = "uid=1", a5[] = "-vf", a6[] = "--", a7[] = "-notopt";
	char *argv[] = { a0, a1, a2, a3, a4, a5, a6, a7, NULL };
	struct optscan os;
	int c, v = 0, f = 0;
	const char *o = NULL;

	optscan_init(&os, 8, argv, "o:vf");
	while ((c = optscan_next(&os)) != -1) {
		if (c == 'o')
			o = os.value;
		else if (c == 'v')
			v++;
		else if (c == 'f')
			f++;
	}
	UNIT_CHECK("optscan/options after operands", o && strcmp(o, "uid=1") == 0 && v == 1 && f == 1);
	UNIT_CHECK("optscan/operands in order, -- respected", os.noperands == 3 &&
		   strcmp(os.operands[0], "share") == 0 &&
		   strcmp(os.operands[1], "/mnt") == 0 &&
		   strcmp(os.operands[2], "-notopt") == 0);

	char b0[] = "x", b1[] = "-q", b2[] = "-o";
	char *argv2[] = { b0, b1, b2, NULL };
	optscan_init(&os, 3, argv2, "o:");
	c = optscan_next(&os);
	UNIT_CHECK("optscan/unknown option", c == '?' && os.bad_option == 'q');
	c = optscan_next(&os);
	UNIT_CHECK("optscan/missing value", c == ':' && os.bad_option == 'o');

	char d0[] = "x", d1[] = "-ouid=5", d2[] = "-";
	char *argv3[] = { d0, d1, d2, NULL };
	optscan_init(&os, 3, argv3, "o:");
	c = optscan_next(&os);
	UNIT_CHECK("optscan/attached value", c == 'o' && strcmp(os.value, "uid=5") == 0);
	c = optscan_next(&os);
	UNIT_CHECK("optscan/lone - is an operand", c == -1 && os.noperands == 1 &&
		   strcmp(os.operands[0], "-") == 0);
}

static void test_errno_text(void)
{
	UNIT_STREQ("errno_text/ENOENT", "No such file or directory", errno_text(ENOENT));
	UNIT_STREQ("errno_text/unknown", "error 4000", errno_text(4000));
}

int main(void)
{
	test_parse();
	test_fmt();
	test_paths();
	test_escape();
	test_optscan();
	test_errno_text();
	return unit_failures != 0;
}
