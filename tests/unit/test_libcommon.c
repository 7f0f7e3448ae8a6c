// SPDX-License-Identifier: MIT
/* Unit tests of libcommon's pure helpers: numbers, paths, escaping,
 * option scanning, the line reader, the passwd/group lookup, errno texts. */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dirent64.h"
#include "libcommon.h"
#include "passwd.h"
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

	n = fmt_u64_base(buf, 0, 10);
	buf[n] = 0;
	UNIT_STREQ("fmt_u64_base/0", "0", buf);
	n = fmt_u64_base(buf, UINT64_MAX, 10);
	buf[n] = 0;
	UNIT_STREQ("fmt_u64_base/max", "18446744073709551615", buf);

	char b[FMT_U64_MAX + 1];
	b[fmt_u64_base(b, 0755, 8)] = 0;
	UNIT_STREQ("fmt_u64_base/octal", "755", b);
	b[fmt_u64_base(b, 0xdeadbeef, 16)] = 0;
	UNIT_STREQ("fmt_u64_base/hex, lowercase", "deadbeef", b);
	b[fmt_u64_base(b, UINT64_MAX, 8)] = 0;
	UNIT_STREQ("fmt_u64_base/octal max fits FMT_U64_MAX", "1777777777777777777777", b);
	b[fmt_u64_base(b, 0, 16)] = 0;
	UNIT_STREQ("fmt_u64_base/zero", "0", b);
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
	/* Built against glibc: its strerror is the oracle for the texts
	 * forkless shares with it (all but a few classic ones, where
	 * forkless keeps musl's wording, e.g. ENOMEM "Out of memory"). */
	static const int same_as_glibc[] = {
		EPERM, ENOENT, EINTR, ENXIO, ENOEXEC, EBADF, EACCES,
		EEXIST, ENODEV, ENOTDIR, EISDIR, EINVAL, ENFILE, ETXTBSY,
		EFBIG, ENOSPC, EROFS, EMLINK, EPIPE, ENOSYS, ENOTEMPTY, EPROTO,
		EBADFD, EPROTONOSUPPORT, ENETUNREACH, ECONNRESET,
		ENOTCONN, ETIMEDOUT, ECONNREFUSED, EHOSTUNREACH, ESTALE, EDQUOT,
	};
	char name[32];

	for (size_t i = 0; i < ARRAY_SIZE(same_as_glibc); i++) {
		snprintf(name, sizeof(name), "errno_text/%d is glibc's", same_as_glibc[i]);
		UNIT_STREQ(name, strerror(same_as_glibc[i]), errno_text(same_as_glibc[i]));
	}
	UNIT_STREQ("errno_text/ENOENT", "No such file or directory", errno_text(ENOENT));
	UNIT_STREQ("errno_text/ENOMEM keeps musl's wording", "Out of memory", errno_text(ENOMEM));
	UNIT_STREQ("errno_text/unknown", "error 4000", errno_text(4000));
	UNIT_STREQ("errno_text/negative", "error -5", errno_text(-5));
}

/* A memfd holding s (n bytes), at offset 0. */
static int memfile(const char *s, size_t n)
{
	int fd = memfd_create("unit", MFD_CLOEXEC);

	if (fd < 0 || write(fd, s, n) != (ssize_t)n || lseek(fd, 0, SEEK_SET) != 0)
		abort();
	return fd;
}

static void test_line_stream(void)
{
	static const char text[] = "ab\ncdefgh\n\nlast";
	char buf[4], got[128];
	size_t len = 0;
	int fd = memfile(text, sizeof(text) - 1), r, lines = 0, firsts = 0;
	struct line_stream ls;
	struct line_piece p;

	/* A 4-byte buffer: every line longer than it comes in pieces, and
	 * the pieces put together (| at each line end) are the text. */
	line_stream_init(&ls, fd, buf, sizeof(buf));
	while ((r = line_stream_next(&ls, &p)) == 1) {
		memcpy(got + len, p.data, p.len);
		len += p.len;
		firsts += p.first;
		if (p.last) {
			got[len++] = '|';
			lines++;
		}
	}
	got[len] = 0;
	UNIT_CHECK("line_stream/end of file", r == 0);
	UNIT_STREQ("line_stream/pieces join to the lines", "ab|cdefgh||last|", got);
	UNIT_CHECK("line_stream/one first and one last per line", lines == 4 && firsts == 4);
	close(fd);

	/* A non-blocking pipe: EAGAIN is handed back, nothing is lost. */
	int pfd[2];
	if (pipe2(pfd, O_NONBLOCK) < 0)
		abort();
	line_stream_init(&ls, pfd[0], buf, sizeof(buf));
	UNIT_CHECK("line_stream/EAGAIN on an empty non-blocking pipe",
		   line_stream_next(&ls, &p) == -EAGAIN);
	if (write(pfd[1], "xy", 2) != 2)
		abort();
	UNIT_CHECK("line_stream/EAGAIN again within a line",
		   line_stream_next(&ls, &p) == -EAGAIN);
	if (write(pfd[1], "z\n", 2) != 2)
		abort();
	r = line_stream_next(&ls, &p);
	UNIT_CHECK("line_stream/the line after EAGAIN is whole",
		   r == 1 && p.len == 3 && memcmp(p.data, "xyz", 3) == 0 && p.first && p.last);
	close(pfd[1]);
	UNIT_CHECK("line_stream/EOF after the writer closes", line_stream_next(&ls, &p) == 0);
	close(pfd[0]);

	/* take and fill, the two steps: take never reads. */
	fd = memfile("1\n22\n", 5);
	line_stream_init(&ls, fd, buf, sizeof(buf));
	UNIT_CHECK("line_stream/take: nothing buffered, no read",
		   line_stream_take(&ls, &p) == -EAGAIN && ls.bytes_read == 0);
	UNIT_CHECK("line_stream/fill: one read", line_stream_fill(&ls) == 0 &&
		   ls.bytes_read == 4);
	r = line_stream_take(&ls, &p);
	UNIT_CHECK("line_stream/take: the first line", r == 1 && p.len == 1 &&
		   p.data[0] == '1' && p.last);
	UNIT_CHECK("line_stream/take: a part line waits for fill",
		   line_stream_take(&ls, &p) == -EAGAIN && ls.bytes_read == 4);
	UNIT_CHECK("line_stream/fill again", line_stream_fill(&ls) == 0 &&
		   line_stream_take(&ls, &p) == 1 && p.len == 2 &&
		   memcmp(p.data, "22", 2) == 0);
	UNIT_CHECK("line_stream/take: end of file after a fill that reads 0",
		   line_stream_take(&ls, &p) == -EAGAIN &&
		   line_stream_fill(&ls) == 0 && line_stream_take(&ls, &p) == 0);
	close(fd);
}

static int lookup(const char *file, const char *name, size_t cap, struct id_lookup *res)
{
	char buf[64];
	int fd = memfile(file, strlen(file)), r;

	r = lookup_id_fd(fd, name, strlen(name), res, buf, cap);
	close(fd);
	return r;
}

static void test_lookup_id(void)
{
	struct id_lookup res;
	char *big = malloc(20000);
	size_t len = 0;

	UNIT_CHECK("lookup_id/found, line number",
		   lookup("root:x:0:0::/root:/bin/sh\nalice:x:1000:1000::/:/bin/sh\n", "alice", 64, &res) == 0 &&
		   res.id == 1000 && res.line == 2);
	UNIT_CHECK("lookup_id/prefix is not the name",
		   lookup("alice2:x:5:\nalice:x:6:\n", "alice", 64, &res) == 0 && res.id == 6);
	UNIT_CHECK("lookup_id/no such name", lookup("bob:x:1:\n", "alice", 64, &res) == -ENOENT);
	UNIT_CHECK("lookup_id/no final newline", lookup("bob:x:7", "bob", 64, &res) == 0 && res.id == 7);
	UNIT_CHECK("lookup_id/malformed id names its line",
		   lookup("a:x:1:\nbob:x:12a:\n", "bob", 64, &res) == -EINVAL && res.line == 2);
	UNIT_CHECK("lookup_id/negative id", lookup("bob:x:-5:\n", "bob", 64, &res) == -EINVAL);
	UNIT_CHECK("lookup_id/empty id", lookup("bob:x::\n", "bob", 64, &res) == -EINVAL);
	UNIT_CHECK("lookup_id/no id field", lookup("bob:x\n", "bob", 64, &res) == -EINVAL);
	UNIT_CHECK("lookup_id/4294967295 is no id", lookup("bob:x:4294967295:\n", "bob", 64, &res) == -EINVAL);
	UNIT_CHECK("lookup_id/huge id", lookup("bob:x:99999999999999999999999:\n", "bob", 64, &res) == -EINVAL);
	UNIT_CHECK("lookup_id/4294967294", lookup("bob:x:4294967294:\n", "bob", 64, &res) == 0 &&
		   res.id == 4294967294u);
	UNIT_CHECK("lookup_id/a name with : never matches", lookup("a:b:x:1\n", "a:b", 64, &res) == -ENOENT);
	/* A 1-byte buffer: every field is cut everywhere. */
	UNIT_CHECK("lookup_id/1-byte buffer",
		   lookup("root:x:0:\nusers:x:100:a,b,c\n", "users", 1, &res) == 0 && res.id == 100 && res.line == 2);

	/* A 600-member group and a 5,000-byte GECOS, in a 64-byte buffer. */
	len += (size_t)sprintf(big, "wheel:x:10:root\nusers:x:100:");
	for (int i = 0; i < 600; i++)
		len += (size_t)sprintf(big + len, "%suser%04d", i ? "," : "", i);
	len += (size_t)sprintf(big + len, "\nlong:x:1001:1001:");
	memset(big + len, 'g', 5000);
	len += 5000;
	strcpy(big + len, ":/home/long:/bin/sh\nafter:x:1002:\n");
	UNIT_CHECK("lookup_id/600-member group", lookup(big, "users", 64, &res) == 0 && res.id == 100);
	UNIT_CHECK("lookup_id/after a 5,000-byte GECOS",
		   lookup(big, "after", 64, &res) == 0 && res.id == 1002 && res.line == 4);
	UNIT_CHECK("lookup_id/the long-GECOS user", lookup(big, "long", 64, &res) == 0 && res.id == 1001);
	free(big);

	/* Not a regular file: an empty FIFO must not hang nor pass as an
	 * empty file. */
	int pfd[2];
	char buf[64];
	if (pipe2(pfd, O_NONBLOCK) < 0)
		abort();
	UNIT_CHECK("lookup_id/a pipe is not a regular file",
		   lookup_id_fd(pfd[0], "x", 1, &res, buf, sizeof(buf)) == -EBADFD);
	close(pfd[0]);
	close(pfd[1]);
}

static void test_dir_iter(void)
{
	char dir[] = "/tmp/unit-dir.XXXXXX", path[64];
	union { uint64_t align; char buf[64]; } u;   /* ~2 entries per call */
	const struct linux_dirent64 *d;
	struct dir_iter it;
	int fd, r, seen = 0, dots = 0, regular = 0;

	if (!mkdtemp(dir))
		abort();
	for (int i = 0; i < 20; i++) {
		snprintf(path, sizeof(path), "%s/file-%02d", dir, i);
		close(open(path, O_CREAT | O_WRONLY, 0600));
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	dir_iter_init(&it, fd, u.buf, sizeof(u.buf));
	while ((r = dir_iter_next(&it, &d)) == 1) {
		if (dirent_is_dot(d)) {
			dots++;
			continue;
		}
		seen += strncmp(d->d_name, "file-", 5) == 0;
		regular += d->d_type == DT_REG || d->d_type == DT_UNKNOWN;
	}
	UNIT_CHECK("dir_iter/every entry, in several getdents64", r == 0 && seen == 20 && dots == 2);
	UNIT_CHECK("dir_iter/d_type by name", regular == 20);
	close(fd);
	for (int i = 0; i < 20; i++) {
		snprintf(path, sizeof(path), "%s/file-%02d", dir, i);
		unlink(path);
	}
	rmdir(dir);
	dir_iter_init(&it, -1, u.buf, sizeof(u.buf));
	UNIT_CHECK("dir_iter/-errno", dir_iter_next(&it, &d) == -EBADF);
}

/* Run fn(arg) in a child (applet_name "tst") that dies: its stderr into
 * out, its wait status returned. */
static int stderr_of(void (*fn)(const void *), const void *arg, char *out,
		     size_t cap)
{
	int pfd[2], status = 0;
	ssize_t n;
	pid_t pid;

	if (pipe(pfd) < 0)
		abort();
	pid = fork();
	if (pid == 0) {
		dup2(pfd[1], 2);
		applet_name = "tst";
		fn(arg);
		_exit(9);
	}
	close(pfd[1]);
	n = read(pfd[0], out, cap - 1);
	out[n < 0 ? 0 : n] = 0;
	waitpid(pid, &status, 0);
	close(pfd[0]);
	return status;
}

static void usage_q(const void *arg)
{
	(void)arg;
	die_usage(2, "bad option -", "q");
}

static void msg_enoent(const void *arg)
{
	(void)arg;
	die_msg(3, "cannot read ", "/x", ": ", errno_text(ENOENT));
}

/* optscan over { "tst", arg } with the spec "ao:", then die_optscan. */
static void optscan_dies(const void *arg)
{
	char *argv[] = { "tst", (char *)arg, NULL };
	struct optscan os;
	int c;

	optscan_init(&os, 2, argv, "ao:");
	while ((c = optscan_next(&os)) == 'a')
		;
	if (c == '?' || c == ':')
		die_optscan(1, &os, c);
}

static void test_messages(void)
{
	int pfd[2], status;
	char out[256];
	ssize_t n;

	if (pipe(pfd) < 0)
		abort();
	UNIT_CHECK("write_strs/one write of the pieces",
		   write_strs(pfd[1], "a", "bc", "", "d\n") == 0);
	n = read(pfd[0], out, sizeof(out) - 1);
	out[n < 0 ? 0 : n] = 0;
	UNIT_STREQ("write_strs/content", "abcd\n", out);
	close(pfd[0]);
	close(pfd[1]);

	/* The one usage-error style, and the one message style. */
	status = stderr_of(usage_q, NULL, out, sizeof(out));
	UNIT_STREQ("die_usage/style", "tst: bad option -q (try tst --help)\n", out);
	UNIT_CHECK("die_usage/status", WIFEXITED(status) && WEXITSTATUS(status) == 2);
	status = stderr_of(msg_enoent, NULL, out, sizeof(out));
	UNIT_STREQ("die_msg/style", "tst: cannot read /x: No such file or directory\n", out);
	UNIT_CHECK("die_msg/status", WIFEXITED(status) && WEXITSTATUS(status) == 3);

	/* die_optscan: the usage error for each of optscan's complaints,
	 * the argument escaped as inputs are (die_usage_arg). */
	static const struct { const char *arg, *want; } bad[] = {
		{ "-q", "tst: unknown option -q (try tst --help)\n" },
		{ "-aq", "tst: unknown option -q (try tst --help)\n" },
		{ "--long", "tst: unknown option --long (try tst --help)\n" },
		{ "-\033", "tst: unknown option -\\033 (try tst --help)\n" },
		{ "-o", "tst: missing value for -o (try tst --help)\n" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		status = stderr_of(optscan_dies, bad[i].arg, out, sizeof(out));
		UNIT_STREQ("die_optscan/message", bad[i].want, out);
		UNIT_CHECK("die_optscan/status", WIFEXITED(status) && WEXITSTATUS(status) == 1);
	}
}

/* md5(): RFC 1321's test suite, and the lengths around the padding's
 * turns (55, 56, 63, 64 bytes: one block of padding or two) against
 * digests md5sum(1) gives. */
static void test_md5(void)
{
	static const struct { const char *in, *hex; } cases[] = {
		{ "", "d41d8cd98f00b204e9800998ecf8427e" },
		{ "a", "0cc175b9c0f1b6a831c399e269772661" },
		{ "abc", "900150983cd24fb0d6963f7d28e17f72" },
		{ "message digest", "f96b697d7cb7938d525a2f31aaf161d0" },
		{ "abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b" },
		{ "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
		  "d174ab98d277d9f5a5611c2c9f419d9f" },
		{ "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
		  "57edf4a22be3c955ac49da2e2107b67a" },
		{ "0123456789012345678901234567890123456789012345678901234",
		  "6e7a4fc92eb1c3f6e652425bcc8d44b5" },
		{ "01234567890123456789012345678901234567890123456789012345",
		  "8af270b2847610e742b0791b53648c09" },
		{ "012345678901234567890123456789012345678901234567890123456789012",
		  "c5e256437e758092dbfe06283e489019" },
		{ "0123456789012345678901234567890123456789012345678901234567890123",
		  "7f7bfd348709deeaace19e3f535f8c54" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		unsigned char d[16];
		char hex[33], name[64];

		md5(cases[i].in, strlen(cases[i].in), d);
		for (int j = 0; j < 16; j++)
			snprintf(hex + 2 * j, 3, "%02x", d[j]);
		snprintf(name, sizeof(name), "md5/%zu bytes", strlen(cases[i].in));
		UNIT_CHECK(name, strcmp(hex, cases[i].hex) == 0);
	}
}

int main(void)
{
	test_md5();
	test_parse();
	test_fmt();
	test_paths();
	test_escape();
	test_optscan();
	test_errno_text();
	test_line_stream();
	test_lookup_id();
	test_messages();
	test_dir_iter();
	return unit_failures != 0;
}
