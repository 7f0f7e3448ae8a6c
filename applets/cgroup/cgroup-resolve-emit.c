// SPDX-License-Identifier: MIT
/* cgroup-resolve-emit.c - what cgroup-resolve prints: its lines on stdout
 * (through one outbuf, flushed before a read that would block, never per
 * line) and its messages on stderr, inputs escaped as the kernel escapes
 * paths (\ooo).
 *
 * Call graph: out_node() calls cgr_index_path(), then out_line() ->
 * out_path() -> out_escaped() -> escape_octal(), or complain() ->
 * shown_input(), warn_msg(); die_err() -> err_text() -> errno_text().
 */
#include <errno.h>

#include "libcommon.h"
#include "cgroup-resolve.h"

/* The text for a -errno of cgroup-resolve's helpers; 0: an unknown id. */
const char *err_text(int err)
{
	return err == 0 ? "no such cgroup"
	     : err == -EXDEV ? "not on a cgroup2 mount" : errno_text(-err);
}

_Noreturn void die_err(const char *what, int err)
{
	die_msg(EXIT_UNRESOLVED, what, ": ", err_text(err));
}

static void out_escaped(struct outbuf *ob, const char *s, size_t len)
{
	char esc[4 * 256 + 1];

	while (len > 0) {
		size_t n = len < 256 ? len : 256;

		outbuf_put(ob, esc, escape_octal(esc, sizeof(esc), s, n, 0));
		s += n;
		len -= n;
	}
}

/* A path below the mount ("" for its root, else "/a/b") as the user
 * asked for it: absolute, or relative to the cgroup2 root with -r. */
void out_path(struct cgr *c, const char *rel, size_t len)
{
	if (c->relative) {
		if (len == 0)
			outbuf_putc(&c->out, '/');
	} else if (c->prefix_len > 1 || len == 0) {
		out_escaped(&c->out, c->prefix, c->prefix_len);
	}
	out_escaped(&c->out, rel, len);
}

/* A line of -l, -w and stdin mode: [SIGN]ID<TAB>PATH, or ID<TAB>? when
 * rel is NULL. */
void out_line(struct cgr *c, char sign, uint64_t id, const char *rel,
		     size_t len)
{
	if (sign)
		outbuf_putc(&c->out, sign);
	outbuf_put_num(&c->out, id, 10);
	outbuf_putc(&c->out, '\t');
	if (rel)
		out_path(c, rel, len);
	else
		outbuf_putc(&c->out, '?');
	outbuf_putc(&c->out, '\n');
}

/* A message on stderr after what stdout already holds, so a terminal
 * shows them in order. The input that caused it is escaped, and a long
 * one cut with "...". */
void complain(struct cgr *c, const char *what, size_t len,
		     const char *msg)
{
	char shown[SHOWN_MAX];

	shown_input(shown, sizeof(shown), what, len);
	outbuf_flush(&c->out);
	warn_msg(shown, ": ", msg);
	c->status = EXIT_UNRESOLVED;
}

/* A node as a line (a cgr_emit_fn, for the diff of a rescan). */
void out_node(void *ctx, char sign, const struct cgr_index *ix,
		     uint32_t k)
{
	struct cgr *c = ctx;
	ssize_t n = cgr_index_path(ix, k, c->path, sizeof(c->path));

	if (n < 0) {
		char num[FMT_U64_MAX];

		complain(c, num, fmt_u64_base(num, ix->nodes[k].id, 10),
			 errno_text(ENAMETOOLONG));
		return;
	}
	out_line(c, sign, ix->nodes[k].id, c->path, (size_t)n);
}
