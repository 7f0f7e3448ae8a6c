// SPDX-License-Identifier: MIT
/* fuzz_mountopt.c - libFuzzer target for the mount option engine
 * (applets/mount/mountopt.c). (The xenstore replies mount-shared reads
 * tags with are fuzz_xenstore.c's.)
 *
 * Input: byte 0 picks the table (bits 0-1: vboxsf, 9p, virtiofs, and 3
 * vboxsf again), sloppy mode (bit 2) and the answer of the VirtualBox
 * driver probe (bit 3); the rest is the option string. Invariants checked
 * (abort() on violation, which libFuzzer reports as a crash):
 *   - the data built is at most 4095 bytes, NUL-terminated, and either
 *     complete or refused (MOPT_TOO_LONG), never cut;
 *   - split as the kernel's LSM parsers split it (at commas outside
 *     double quotes), it has no empty option, no option with a quote
 *     left open, and no word mount(8) keeps to itself;
 *   - normalising is idempotent: parsing the data again (not sloppy)
 *     succeeds and builds the same data, with no VFS flags. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon.h"
#include "mount/mountopt.h"

static int vbox;

static int resolve(struct mopt_ctx *ctx, int is_group, const char *name,
		   size_t len, uint32_t *id)
{
	(void)ctx;
	if (len == 0 || len > 8)
		return -2;   /* -ENOENT */
	*id = (uint32_t)(len * 1000 + (unsigned char)name[0] + is_group);
	return 0;
}

static int vbox_probe(struct mopt_ctx *ctx)
{
	(void)ctx;
	return vbox;
}

static const struct mopt_fs *const tables[3] = {
	&mopt_fs_vboxsf, &mopt_fs_9p, &mopt_fs_virtiofs
};

static void parse_build(const struct mopt_fs *fs, int sloppy, const char *s,
			size_t n, char *out, long *len, unsigned long *flags)
{
	struct mopt_ctx ctx;

	mopt_init(&ctx, fs);
	ctx.resolve = resolve;
	ctx.vbox_driver = vbox_probe;
	ctx.sloppy = sloppy;
	*len = -2;
	if (mopt_parse(&ctx, s, n) < 0) {
		if (ctx.error == MOPT_OK || (ctx.err_opt &&
		    (ctx.err_opt < s || ctx.err_opt + ctx.err_len > s + n)))
			abort();   /* an error must name a part of the input */
		return;
	}
	if (fs == &mopt_fs_9p)
		mopt_default(&ctx, "trans", "virtio");
	*len = mopt_build(&ctx, out, MOPT_DATA_MAX + 1);
	*flags = ctx.flags;
	if (*len < 0 && (ctx.error != MOPT_TOO_LONG || out[0] != '\0' ||
			 ctx.err_len <= MOPT_DATA_MAX))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char out[MOPT_DATA_MAX + 1], again[MOPT_DATA_MAX + 1];
	char flagbuf[512];
	const struct mopt_fs *fs;
	unsigned long flags = 0, flags2 = 0;
	long len, len2;

	if (size < 1)
		return 0;
	vbox = data[0] >> 3 & 1;
	fs = tables[(data[0] & 3) % 3];
	parse_build(fs, data[0] >> 2 & 1, (const char *)data + 1, size - 1,
		    out, &len, &flags);
	mopt_flags_text(flags, flagbuf, sizeof(flagbuf));
	if (len < 0)
		return 0;
	if ((size_t)len != strlen(out) || len > MOPT_DATA_MAX)
		abort();
	if (len > 0 && out[len - 1] == ',')
		abort();
	for (const char *p = out; *p;) {
		size_t n = 0, k = strcspn(p, "=");
		int quoted = 0;

		while (p[n] && (quoted || p[n] != ','))
			quoted ^= p[n++] == '"';
		if (k > n)
			k = n;
		if (n == 0 || quoted ||
		    (k >= 2 && (p[0] == 'x' || p[0] == 'X') && p[1] == '-') ||
		    (k == 6 && memcmp(p, "nofail", 6) == 0) ||
		    (k == 7 && memcmp(p, "_netdev", 7) == 0) ||
		    (k == 8 && memcmp(p, "defaults", 8) == 0))
			abort();
		p += n + (p[n] == ',');
	}
	parse_build(fs, 0, out, (size_t)len, again, &len2, &flags2);
	if (len2 != len || memcmp(out, again, (size_t)len) != 0 || flags2)
		abort();
	return 0;
}
