// SPDX-License-Identifier: MIT
/* fuzz_mountinfo.c - libFuzzer target for the /proc/self/mountinfo
 * stream parser (libcommon/mountinfo.c). The first input byte
 * picks a chunk size (1..256); the rest is fed whole and then in chunks
 * of that size, and both ways must give the same entries (the state
 * carried across chunks is the whole state). Each entry must keep the
 * struct's bounds: NUL-ended fstype and source of the lengths it says,
 * no NUL inside the source, a source cut only when it did not fit or
 * held a NUL. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mountinfo.h"

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

/* A digest of the entries: compared between the two ways of feeding. */
struct digest {
	uint64_t h;
	unsigned n;
};

static void mix(struct digest *d, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		d->h = (d->h ^ b[i]) * 1099511628211u;
}

static int check_entry(const struct mountinfo_entry *m, void *ctx)
{
	struct digest *d = ctx;
	unsigned char flags[4] = { m->have_dev, m->ro, m->fstype_cut, m->source_cut };

	CHECK(m->fstype_len < sizeof(m->fstype) && m->fstype[m->fstype_len] == '\0');
	CHECK(strlen(m->fstype) == m->fstype_len);
	CHECK(m->source_len < sizeof(m->source) && m->source[m->source_len] == '\0');
	CHECK(memchr(m->source, '\0', m->source_len) == NULL);
	mix(d, flags, sizeof(flags));
	if (m->have_dev) {
		mix(d, &m->major, sizeof(m->major));
		mix(d, &m->minor, sizeof(m->minor));
	}
	mix(d, m->fstype, m->fstype_len + 1);
	mix(d, m->source, m->source_len + 1);
	d->n++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct mountinfo_parser p;
	struct digest whole = { 14695981039346656037u, 0 }, chunked = whole;
	const char *in = (const char *)data + 1;
	size_t n, step;

	if (size < 1)
		return 0;
	step = (size_t)data[0] + 1;
	n = size - 1;
	mountinfo_init(&p);
	CHECK(mountinfo_feed(&p, in, n, check_entry, &whole) == 0);
	CHECK(mountinfo_end(&p, check_entry, &whole) == 0);
	mountinfo_init(&p);
	for (size_t i = 0; i < n; i += step)
		CHECK(mountinfo_feed(&p, in + i, i + step <= n ? step : n - i,
				     check_entry, &chunked) == 0);
	CHECK(mountinfo_end(&p, check_entry, &chunked) == 0);
	CHECK(whole.n == chunked.n && whole.h == chunked.h);
	/* no more entries than lines (a newline ends each but the last) */
	size_t lines = 1;
	for (size_t i = 0; i < n; i++)
		lines += in[i] == '\n';
	CHECK(whole.n <= lines);
	return 0;
}
