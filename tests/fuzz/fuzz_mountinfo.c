// SPDX-License-Identifier: MIT
/* fuzz_mountinfo.c - libFuzzer target for the /proc/self/mountinfo
 * stream parser (libcommon/mountinfo.c). The first input byte picks a
 * chunk size (1..256); the rest is fed whole and then in chunks of that
 * size, and both ways must give the same entries (the state carried
 * across chunks is the whole state). Each entry must keep the struct's
 * bounds: NUL-ended fstype, mount point and source of the lengths it
 * says, no NUL inside the paths, a path cut only when it did not fit or
 * held a byte no path holds, never ROOT both "/" and "/.." components.
 * Fed whole, each entry is also compared with its line read the plain
 * way (split at spaces, then each field decoded): ROOT, the mount point,
 * the fstype and the source must be what that reading gives. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mountinfo.h"

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

/* A digest of the entries: compared between the two ways of feeding. */
struct digest {
	uint64_t h;
	unsigned n;
	const char *in;       /* fed whole: the input, and where the line */
	size_t len, next;     /* of the next entry starts (else in NULL) */
};

static void mix(struct digest *d, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		d->h = (d->h ^ b[i]) * 1099511628211u;
}

/* The plain reading of a path field: \ooo where three octal digits
 * follow, else the byte itself; a 0, a value above 255 or a NUL cuts. */
struct plain_path {
	char s[MOUNTINFO_PATH_MAX];
	size_t len;
	int cut;
};

static int is_octal(char c)
{
	return c >= '0' && c <= '7';
}

static void plain_put(struct plain_path *p, unsigned c)
{
	if (c == 0 || c > 255 || p->len >= sizeof(p->s) - 1)
		p->cut = 1;
	else
		p->s[p->len++] = (char)c;
}

static void plain_path(struct plain_path *p, const char *f, size_t n)
{
	p->len = 0;
	p->cut = 0;
	for (size_t i = 0; i < n; i++) {
		if (f[i] == '\\' && i + 3 < n && is_octal(f[i + 1]) &&
		    is_octal(f[i + 2]) && is_octal(f[i + 3])) {
			plain_put(p, (unsigned)(f[i + 1] - '0') << 6 |
				     (unsigned)(f[i + 2] - '0') << 3 |
				     (unsigned)(f[i + 3] - '0'));
			i += 3;
		} else {
			plain_put(p, (unsigned char)f[i]);
		}
	}
}

static void check_path(const struct plain_path *want, const char *s,
		       size_t len, unsigned char cut)
{
	CHECK(cut == want->cut && len == want->len);
	CHECK(memcmp(s, want->s, len) == 0);
}

/* The entry m against its line, read the plain way. */
static void check_line(const struct mountinfo_entry *m, const char *line,
		       size_t n)
{
	static struct plain_path want;
	const char *f = line, *end = line + n;
	size_t flen, fstype_len = 0;
	int i, sep = -1, slash = 0, above = 0, fstype_cut = 0;

	for (i = 0;; i++) {
		const char *sp = memchr(f, ' ', (size_t)(end - f));

		flen = (size_t)((sp ? sp : end) - f);
		if (i == 3) {
			slash = flen == 1 && f[0] == '/';
			above = flen >= 3 && flen % 3 == 0;
			for (size_t k = 0; above && k < flen; k += 3)
				above = memcmp(f + k, "/..", 3) == 0;
		}
		if (i == 4) {
			plain_path(&want, f, flen);
			check_path(&want, m->mount_point, m->mount_point_len,
				   m->mount_point_cut);
		}
		if (sep >= 0 && i == sep + 1) {
			for (size_t k = 0; k < flen; k++)
				if (f[k] && fstype_len < MOUNTINFO_FSTYPE_MAX - 1)
					CHECK(m->fstype[fstype_len++] == f[k]);
				else
					fstype_cut = 1;
			CHECK(m->fstype_len == fstype_len && m->fstype_cut == fstype_cut);
		}
		if (sep >= 0 && i == sep + 2) {
			plain_path(&want, f, flen);
			check_path(&want, m->source, m->source_len, m->source_cut);
		}
		if (sep < 0 && i >= 6 && flen == 1 && f[0] == '-')
			sep = i;
		if (!sp)
			break;
		f = sp + 1;
	}
	if (i < 4)   /* no mount point field */
		CHECK(m->mount_point_len == 0 && !m->mount_point_cut);
	if (sep < 0 || i < sep + 1)
		CHECK(m->fstype_len == 0 && !m->fstype_cut);
	if (sep < 0 || i < sep + 2)
		CHECK(m->source_len == 0 && !m->source_cut);
	CHECK(m->root_slash == (i >= 3 && slash) && m->root_above == (i >= 3 && above));
}

static int check_entry(const struct mountinfo_entry *m, void *ctx)
{
	struct digest *d = ctx;
	unsigned char flags[7] = { m->have_dev, m->ro, m->root_slash, m->root_above,
				   m->fstype_cut, m->mount_point_cut, m->source_cut };

	CHECK(m->fstype_len < sizeof(m->fstype) && m->fstype[m->fstype_len] == '\0');
	CHECK(strlen(m->fstype) == m->fstype_len);
	CHECK(m->mount_point_len < sizeof(m->mount_point) &&
	      m->mount_point[m->mount_point_len] == '\0');
	CHECK(memchr(m->mount_point, '\0', m->mount_point_len) == NULL);
	CHECK(m->source_len < sizeof(m->source) && m->source[m->source_len] == '\0');
	CHECK(memchr(m->source, '\0', m->source_len) == NULL);
	CHECK(!(m->root_slash && m->root_above));
	mix(d, flags, sizeof(flags));
	if (m->have_dev) {
		mix(d, &m->major, sizeof(m->major));
		mix(d, &m->minor, sizeof(m->minor));
	}
	mix(d, m->fstype, m->fstype_len + 1);
	mix(d, m->mount_point, m->mount_point_len + 1);
	mix(d, m->source, m->source_len + 1);
	d->n++;
	if (d->in) {
		/* the entry's line: the next one with a byte in it */
		const char *line, *nl;

		while (d->next < d->len && d->in[d->next] == '\n')
			d->next++;
		CHECK(d->next < d->len);
		line = d->in + d->next;
		nl = memchr(line, '\n', d->len - d->next);
		check_line(m, line, nl ? (size_t)(nl - line) : d->len - d->next);
		d->next = nl ? (size_t)(nl - d->in) + 1 : d->len;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct mountinfo_parser p;
	struct digest whole = { 14695981039346656037u, 0, NULL, 0, 0 }, chunked = whole;
	const char *in = (const char *)data + 1;
	size_t n, step;

	if (size < 1)
		return 0;
	step = (size_t)data[0] + 1;
	n = size - 1;
	whole.in = in;
	whole.len = n;
	mountinfo_init(&p);
	CHECK(mountinfo_feed(&p, in, n, check_entry, &whole) == 0);
	CHECK(mountinfo_end(&p, check_entry, &whole) == 0);
	mountinfo_init(&p);
	for (size_t i = 0; i < n; i += step)
		CHECK(mountinfo_feed(&p, in + i, i + step <= n ? step : n - i,
				     check_entry, &chunked) == 0);
	CHECK(mountinfo_end(&p, check_entry, &chunked) == 0);
	CHECK(whole.n == chunked.n && whole.h == chunked.h);
	/* every line with a byte in it gave its entry */
	while (whole.next < n && in[whole.next] == '\n')
		whole.next++;
	CHECK(whole.next == n);
	return 0;
}
