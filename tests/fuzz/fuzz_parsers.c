// SPDX-License-Identifier: MIT
/* fuzz_parsers.c - libFuzzer target for forkless's other input parsers:
 * the Xen sysfs value checks (xen_parse_version_value, the dash `read`
 * emulation), cgroup-resolve's id parser, its choice of cgroup2 mounts
 * among mountinfo lines (read by libcommon's parser), its readlink-path
 * rule,
 * and the shared number parser and octal escaper. The first input byte
 * picks the parser; each checks its own invariants and aborts (a fuzzer
 * finding) when one breaks. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon.h"
#include "xen/xen.h"
#include "cgroup/cgroup-resolve.h"

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

static void fuzz_xen_version(const char *d, size_t n)
{
	size_t start, digits;
	uint64_t v;

	if (xen_parse_version_value(d, n, &start, &digits) < 0)
		return;
	/* Accepted: 1..10 decimal digits inside the input, a u32 value, and
	 * never a byte that could change the exec path's meaning. */
	CHECK(digits >= 1 && digits <= XEN_VERSION_DIGITS_MAX);
	CHECK(start + digits <= n);
	for (size_t i = 0; i < digits; i++)
		CHECK(d[start + i] >= '0' && d[start + i] <= '9');
	CHECK(parse_u64_base(d + start, digits, 10, &v) == 0 && v <= UINT32_MAX);
	CHECK(memchr(d, '/', n) == NULL && memchr(d, '.', n) == NULL);
}

static void fuzz_read_line(const char *d, size_t n)
{
	char out[64];
	size_t len = xen_shell_read_line(d, n, out, sizeof(out));

	CHECK(len < sizeof(out) && out[len] == '\0');
	/* `read` never returns a line break, nor trailing unquoted blanks. */
	CHECK(memchr(out, '\n', len) == NULL);
	/* dash drops NUL bytes: the value is never cut at one. */
	CHECK(memchr(out, '\0', len) == NULL);
}

static void fuzz_cgroup_id(const char *d, size_t n)
{
	uint64_t id, again;
	char digits[21];
	size_t k;

	if (cgr_parse_id(d, n, &id) < 0)
		return;
	/* Whatever was accepted prints back as a decimal that parses to the
	 * same id: the answer line of `-` mode names the right cgroup. */
	k = fmt_u64_base(digits, id, 10);
	CHECK(cgr_parse_id(digits, k, &again) == 0 && again == id);
}

static int check_cgroup2_mount(const struct mountinfo_entry *m, void *ctx)
{
	(void)ctx;
	/* A mount taken is a cgroup2 one, of the whole tree or from above
	 * the namespace, at a mount point that is a whole path: non-empty,
	 * NUL-ended inside the struct, no NUL before its end. */
	if (cgr_mount_rank(m) == 0)
		return 0;
	CHECK(!m->fstype_cut && strcmp(m->fstype, "cgroup2") == 0);
	CHECK(m->root_slash != m->root_above);
	CHECK(cgr_mount_rank(m) == (m->root_slash ? 1 : 2));
	CHECK(!m->mount_point_cut && m->mount_point_len > 0 &&
	      m->mount_point_len < sizeof(m->mount_point));
	CHECK(strlen(m->mount_point) == m->mount_point_len);
	return 0;
}

static void fuzz_mountinfo(const char *d, size_t n)
{
	static struct mountinfo_parser p;

	mountinfo_init(&p);
	CHECK(mountinfo_feed(&p, d, n, check_cgroup2_mount, NULL) == 0);
	CHECK(mountinfo_end(&p, check_cgroup2_mount, NULL) == 0);
}

static void fuzz_path_below(const char *d, size_t n)
{
	/* The first line is the prefix, the rest the path. */
	const char *nl = memchr(d, '\n', n);
	size_t plen = nl ? (size_t)(nl - d) : 0;
	const char *path = nl ? nl + 1 : d;
	size_t len = n - (size_t)(path - d);
	ssize_t off = cgr_path_below(path, len, d, plen);

	CHECK(off >= -1 && off <= (ssize_t)len);
	if (off > 0 && (size_t)off < len)
		CHECK(path[off] == '/');
	(void)cgr_path_deleted(path, len);
}

static void fuzz_escape(const char *d, size_t n)
{
	char out[512];
	size_t need = escape_octal(out, sizeof(out), d, n, 1);

	CHECK(need >= n && need <= 4 * n);
	if (need < sizeof(out)) {
		CHECK(strlen(out) == need);
		for (size_t i = 0; i < need; i++)
			CHECK((unsigned char)out[i] >= 0x20 && out[i] != 0x7f &&
			      out[i] != ' ');
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *d = (const char *)data + 1;
	size_t n;

	if (size < 1)
		return 0;
	n = size - 1;
	switch (data[0] % 6) {
	case 0: fuzz_xen_version(d, n); break;
	case 1: fuzz_read_line(d, n); break;
	case 2: fuzz_cgroup_id(d, n); break;
	case 3: fuzz_mountinfo(d, n); break;
	case 4: fuzz_path_below(d, n); break;
	case 5: fuzz_escape(d, n); break;
	}
	return 0;
}
