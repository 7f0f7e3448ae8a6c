// SPDX-License-Identifier: MIT
/* mountinfo.c - /proc/self/mountinfo as a stream of bytes, one state
 * machine step per byte (see mountinfo.h). No line is held: a ROOT of
 * 100 KB costs its bytes' steps and no memory, a mount point or a source
 * longer than a path is cut, and a chunk may end anywhere (inside a
 * field, inside an escape: the state carries over). Nothing here reads a
 * file: the caller feeds it. */
#include <string.h>

#include "libcommon.h"
#include "mountinfo.h"

enum { F_MAJMIN = 2, F_ROOT = 3, F_MOUNT_POINT = 4, F_OPTIONS = 5,
       F_OPTIONAL = 6 };                                   /* before "-" */
enum { F_FSTYPE = 0, F_SOURCE = 1, F_SUPER = 2 };          /* after it */

/* One of the unescaped fields (the mount point, the source). */
struct path {
	char *s;
	size_t *len;
	unsigned char *cut;
};

static void new_line(struct mountinfo_parser *p)
{
	struct mountinfo_entry *m = &p->cur;

	p->field = 0;
	p->in_line = 0;
	p->past_sep = 0;
	p->dev_state = 0;
	p->dev_digits = 0;
	p->field_len = 0;
	p->opt_state = 0;
	p->root_other = 0;
	p->esc = 0;
	p->esc_val = 0;
	m->major = m->minor = 0;
	m->have_dev = m->ro = m->root_slash = m->root_above = 0;
	m->fstype_cut = m->mount_point_cut = m->source_cut = 0;
	m->fstype_len = m->mount_point_len = m->source_len = 0;
	m->fstype[0] = m->mount_point[0] = m->source[0] = '\0';
}

void mountinfo_init(struct mountinfo_parser *p)
{
	new_line(p);
}

static int options_field(const struct mountinfo_parser *p)
{
	return p->past_sep ? p->field == F_SUPER : p->field == F_OPTIONS;
}

/* The path the current field unescapes into: 1 and *d, or 0. */
static int path_field(struct mountinfo_parser *p, struct path *d)
{
	struct mountinfo_entry *m = &p->cur;

	if (!p->past_sep && p->field == F_MOUNT_POINT)
		*d = (struct path){ m->mount_point, &m->mount_point_len,
				    &m->mount_point_cut };
	else if (p->past_sep && p->field == F_SOURCE)
		*d = (struct path){ m->source, &m->source_len, &m->source_cut };
	else
		return 0;
	return 1;
}

static void path_put(const struct path *d, unsigned c)
{
	if (c == 0 || c > 255)
		*d->cut = 1;   /* no path holds it: unusable */
	else if (*d->len < MOUNTINFO_PATH_MAX - 1)
		d->s[(*d->len)++] = (char)c;
	else
		*d->cut = 1;
}

/* A \ and the octal digits after it that made no escape: as they were. */
static void path_flush_escape(struct mountinfo_parser *p, const struct path *d)
{
	unsigned digits = p->esc - 1u;

	path_put(d, '\\');
	for (unsigned i = 0; i < digits; i++)
		path_put(d, '0' + ((p->esc_val >> (3 * (digits - 1 - i))) & 7));
	p->esc = 0;
	p->esc_val = 0;
}

static void path_byte(struct mountinfo_parser *p, const struct path *d,
		      unsigned char c)
{
	if (p->esc) {
		if (c >= '0' && c <= '7' && p->esc < 4) {
			p->esc_val = p->esc_val * 8 + (c - '0');
			if (++p->esc == 4) {   /* \ooo */
				path_put(d, p->esc_val);
				p->esc = 0;
				p->esc_val = 0;
			}
			return;
		}
		path_flush_escape(p, d);
	}
	if (c == '\\') {
		p->esc = 1;
		p->esc_val = 0;
		return;
	}
	path_put(d, c);
}

/* One byte of the current field (not a space nor a newline). */
static void field_byte(struct mountinfo_parser *p, unsigned char c)
{
	struct mountinfo_entry *m = &p->cur;
	struct path d;

	if (p->field_len < sizeof(p->first))
		p->first[p->field_len] = (char)c;
	if (!p->past_sep && p->field == F_MAJMIN && p->dev_state < 2) {
		unsigned *v = p->dev_state ? &m->minor : &m->major;

		if (c == ':' && p->dev_state == 0 && p->dev_digits) {
			p->dev_state = 1;
			p->dev_digits = 0;
		} else if (c >= '0' && c <= '9' && p->dev_digits < 10 &&
			   (*v < 429496729u || (*v == 429496729u && c <= '5'))) {
			*v = *v * 10 + (unsigned)(c - '0');
			p->dev_digits++;
		} else {
			p->dev_state = 2;   /* not MAJ:MIN */
		}
	} else if (!p->past_sep && p->field == F_ROOT) {
		if (c != (unsigned char)"/.."[p->field_len % 3])
			p->root_other = 1;
	} else if (options_field(p) && p->opt_state == 0 && c == ',') {
		/* the first option ends */
		if (LIT_IS(p->first, p->field_len, "ro"))
			m->ro = 1;
		p->opt_state = 1;
	} else if (p->past_sep && p->field == F_FSTYPE) {
		if (c && m->fstype_len < sizeof(m->fstype) - 1)
			m->fstype[m->fstype_len++] = (char)c;
		else
			m->fstype_cut = 1;   /* (a NUL: no type's name) */
	} else if (path_field(p, &d)) {
		path_byte(p, &d, c);
	}
	p->field_len++;
}

/* The current field ends (a space or the line's end). */
static void field_end(struct mountinfo_parser *p)
{
	struct mountinfo_entry *m = &p->cur;
	struct path d;

	if (!p->past_sep && p->field == F_MAJMIN)
		m->have_dev = p->dev_state == 1 && p->dev_digits > 0;
	if (!p->past_sep && p->field == F_ROOT) {
		m->root_slash = p->field_len == 1 && p->first[0] == '/';
		m->root_above = !p->root_other && p->field_len >= 3 &&
				p->field_len % 3 == 0;
	}
	if (options_field(p) && p->opt_state == 0 && p->field_len == 2 &&
	    memcmp(p->first, LIT("ro")) == 0)
		m->ro = 1;
	if (p->esc && path_field(p, &d))
		path_flush_escape(p, &d);
	if (!p->past_sep && p->field >= F_OPTIONAL && p->field_len == 1 &&
	    p->first[0] == '-') {
		p->past_sep = 1;
		p->field = F_FSTYPE;
	} else if (p->field < 64) {
		p->field++;   /* (fields past the known ones: all ignored) */
	}
	p->field_len = 0;
	p->opt_state = 0;
}

static int line_end(struct mountinfo_parser *p, mountinfo_fn *fn, void *ctx)
{
	int ret = 0;

	if (p->in_line) {
		field_end(p);
		p->cur.fstype[p->cur.fstype_len] = '\0';
		p->cur.mount_point[p->cur.mount_point_len] = '\0';
		p->cur.source[p->cur.source_len] = '\0';
		ret = fn(&p->cur, ctx);
	}
	new_line(p);
	return ret;
}

int mountinfo_feed(struct mountinfo_parser *p, const char *buf, size_t n,
		   mountinfo_fn *fn, void *ctx)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)buf[i];
		int ret;

		if (c == '\n') {
			ret = line_end(p, fn, ctx);
			if (ret)
				return ret;
		} else if (c == ' ') {
			p->in_line = 1;
			field_end(p);
		} else {
			p->in_line = 1;
			field_byte(p, c);
		}
	}
	return 0;
}

int mountinfo_end(struct mountinfo_parser *p, mountinfo_fn *fn, void *ctx)
{
	return line_end(p, fn, ctx);
}
