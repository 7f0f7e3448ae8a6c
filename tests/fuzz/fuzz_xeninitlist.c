// SPDX-License-Identifier: MIT
/* fuzz_xeninitlist.c - libFuzzer target for xen-init-list's reading of a
 * DIRECTORY /local/domain reply (applets/xen/xen-init.c,
 * xen_domids_of_directory and xen_domid_next). The first input byte picks
 * what the rest is: even, the reply's payload; odd, a whole xenstore
 * message as it comes off the wire (xs_decode first, as xs_request does).
 * The result is checked against a second, naive reading of the same
 * bytes (strtoul and a printf round trip): the same domids, each once,
 * in ascending order, only 1 .. XEN_DOMID_LAST, dom0 never. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon.h"
#include "xenstore.h"
#include "xen/xen-init.h"

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

/* The names a reply holds, read the slow way: 1 when name is a domU id. */
static int naive_domid(const char *name, size_t n, unsigned *id)
{
	char copy[16], back[16];
	char *end;
	unsigned long v;

	if (n == 0 || n >= sizeof(copy))
		return 0;
	memcpy(copy, name, n);
	copy[n] = '\0';
	if (copy[0] < '0' || copy[0] > '9')   /* strtoul takes " +1" */
		return 0;
	v = strtoul(copy, &end, 10);
	if (*end != '\0' || v == 0 || v > XEN_DOMID_LAST)
		return 0;
	snprintf(back, sizeof(back), "%lu", v);
	if (strcmp(back, copy) != 0)          /* "007" is not domain 7 */
		return 0;
	*id = (unsigned)v;
	return 1;
}

static void check_directory(const char *d, size_t n)
{
	static unsigned char seen[XEN_DOMID_LAST + 1];
	struct xen_domid_set set;
	size_t count = xen_domids_of_directory(d, n, &set), naive = 0, walked = 0;
	unsigned id, last = 0;

	memset(seen, 0, sizeof(seen));
	for (size_t at = 0; at < n;) {
		const char *nul = memchr(d + at, '\0', n - at);
		size_t len = nul ? (size_t)(nul - (d + at)) : n - at;

		if (naive_domid(d + at, len, &id) && !seen[id]) {
			seen[id] = 1;
			naive++;
		}
		at += len + 1;
	}
	CHECK(count == naive);
	CHECK(!(set.bits[0] & 1));   /* dom0 is never listed */
	for (id = xen_domid_next(&set, 1); id;
	     id = id < XEN_DOMID_LAST ? xen_domid_next(&set, id + 1) : 0) {
		CHECK(id > last && id <= XEN_DOMID_LAST && seen[id]);
		last = id;
		walked++;
	}
	CHECK(walked == count);
}

int LLVMFuzzerTestOneInput(const char *d, size_t n)
{
	const char *payload;
	uint32_t plen = 0;

	if (n == 0)
		return 0;
	if (!(d[0] & 1)) {
		check_directory(d + 1, n - 1);
		return 0;
	}
	/* A whole message: only a complete, well-formed reply is parsed. */
	if (xs_decode(d + 1, n - 1, XS_DIRECTORY, 1, &payload, &plen) == 0) {
		CHECK(plen <= XS_PAYLOAD_MAX);
		CHECK(payload >= d + 1 && payload + plen <= d + n);
		check_directory(payload, plen);
	}
	return 0;
}
