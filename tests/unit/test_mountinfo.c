// SPDX-License-Identifier: MIT
/* test_mountinfo.c - the /proc/self/mountinfo stream parser
 * (libcommon/mountinfo.c): crafted lines (escapes, optional fields,
 * read-only mounts and superblocks, fields far longer than any buffer, a
 * last line without a newline), fed whole, cut in two at every offset,
 * and a byte at a time: every way gives the same entries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "mountinfo.h"

/* The entries as text, one line each: MAJ:MIN|-  ro|rw  fstype  source. */
struct sink {
	char *out;
	size_t len, cap;
	int stop_after;   /* return 1 from the callback after this many */
	int seen;
};

static int collect(const struct mountinfo_entry *m, void *ctx)
{
	struct sink *s = ctx;
	char head[96];
	int n;

	if (m->have_dev)
		n = snprintf(head, sizeof(head), "%u:%u %s %s%s ", m->major, m->minor,
			     m->ro ? "ro" : "rw", m->fstype, m->fstype_cut ? "+" : "");
	else
		n = snprintf(head, sizeof(head), "- %s %s%s ", m->ro ? "ro" : "rw",
			     m->fstype, m->fstype_cut ? "+" : "");
	if (s->len + (size_t)n + m->source_len + 16 > s->cap) {
		s->cap = (s->len + (size_t)n + m->source_len + 16) * 2;
		s->out = realloc(s->out, s->cap);
	}
	memcpy(s->out + s->len, head, (size_t)n);
	s->len += (size_t)n;
	if (m->source_cut) {
		s->len += (size_t)sprintf(s->out + s->len, "[cut %zu]", m->source_len);
	} else {
		if (strlen(m->source) != m->source_len)
			abort();
		memcpy(s->out + s->len, m->source, m->source_len);
		s->len += m->source_len;
	}
	s->out[s->len++] = '\n';
	s->out[s->len] = '\0';
	return ++s->seen == s->stop_after;
}

/* in fed as chunks of at most `step` bytes, or cut once at `cut`. */
static char *parse(const char *in, size_t n, size_t cut, size_t step, int stop_after,
		   int *ret)
{
	static struct mountinfo_parser p;
	struct sink s = { malloc(64), 0, 64, stop_after, 0 };

	s.out[0] = '\0';
	mountinfo_init(&p);
	*ret = 0;
	if (step) {
		for (size_t i = 0; i < n && !*ret; i += step)
			*ret = mountinfo_feed(&p, in + i, i + step <= n ? step : n - i,
					      collect, &s);
	} else {
		*ret = mountinfo_feed(&p, in, cut, collect, &s);
		if (!*ret)
			*ret = mountinfo_feed(&p, in + cut, n - cut, collect, &s);
	}
	if (!*ret)
		*ret = mountinfo_end(&p, collect, &s);
	return s.out;
}

static void check_all_cuts(const char *name, const char *in, size_t n,
			   const char *want)
{
	char label[128];
	int ret, bad_cut = -1;
	char *got = parse(in, n, n, 0, 0, &ret);

	snprintf(label, sizeof(label), "mountinfo/%s: whole", name);
	UNIT_STREQ(label, want, got);
	free(got);
	for (size_t cut = 0; cut <= n && bad_cut < 0; cut++) {
		got = parse(in, n, cut, 0, 0, &ret);
		if (strcmp(got, want) != 0)
			bad_cut = (int)cut;
		free(got);
	}
	snprintf(label, sizeof(label), "mountinfo/%s: cut in two at every offset (first bad: %d)",
		 name, bad_cut);
	UNIT_CHECK(label, bad_cut < 0);
	got = parse(in, n, 0, 1, 0, &ret);
	snprintf(label, sizeof(label), "mountinfo/%s: a byte at a time", name);
	UNIT_STREQ(label, want, got);
	free(got);
}

static void test_crafted(void)
{
	static const char in[] =
		/* a block filesystem: the device's numbers */
		"22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/mapper/vg-root rw,errors=remount-ro\n"
		/* read-only mount of a read-write superblock; no optional field */
		"23 22 7:3 / /mnt/ro ro,relatime - ext2 /dev/loop3 rw\n"
		/* read-write mount of a read-only superblock; two optional fields */
		"24 22 7:4 / /mnt/sb rw master:2 shared:7 - ext2 /dev/loop4 ro,nodelalloc\n"
		/* "ro" only as a later option, and "rox" as a first: read-write */
		"25 22 8:16 / /a rw,ro - ext4 /dev/sdb rox,ro\n"
		/* escapes: spaces in the mount point and the source, a backslash,
		 * a \ not followed by three octal digits (kept as it is) */
		"26 22 0:50 / /mnt/a\\040b rw - fuse.sshfs /dev/sdb\\040x\\134y\\9\\07 rw\n"
		/* a tmpfs whose source names a disk: anonymous numbers */
		"27 22 0:51 / /mnt/t rw - tmpfs /dev/loop5 rw\n"
		/* btrfs: anonymous numbers, the source names its device */
		"28 22 0:52 /@home /home rw - btrfs /dev/sdc2 rw,space_cache=v2\n"
		/* an optional field "-x" is no separator; a field 3 that is no MAJ:MIN */
		"29 22 x:1 / /b rw -x - proc proc rw\n"
		/* a blank line, then a last line without a newline */
		"\n"
		"30 22 7:8 / /c ro - ext4 /dev/loop8 rw";
	check_all_cuts("crafted", in, sizeof(in) - 1,
		"254:0 rw ext4 /dev/mapper/vg-root\n"
		"7:3 ro ext2 /dev/loop3\n"
		"7:4 ro ext2 /dev/loop4\n"
		"8:16 rw ext4 /dev/sdb\n"
		"0:50 rw fuse.sshfs /dev/sdb x\\y\\9\\07\n"
		"0:51 rw tmpfs /dev/loop5\n"
		"0:52 rw btrfs /dev/sdc2\n"
		"- rw proc proc\n"
		"7:8 ro ext4 /dev/loop8\n");
}

/* Lines longer than any buffer: a mount point of 8,300 bytes (/proc/mounts
 * lines over 8191 bytes were skipped and their tail read as a line of its
 * own: here a part looks like a mount of 7:9), super options of 8,000
 * bytes, a source of 5,000 (cut). */
static void test_long(void)
{
	size_t n = 0, cap = 40000;
	char *in = malloc(cap), *want = malloc(256);

	n += (size_t)sprintf(in + n, "40 22 7:1 / /");
	for (int i = 0; i < 830; i++)
		n += (size_t)sprintf(in + n, "%s", i == 819 ? "/dev/loop9\\040-\\040ext4\\012" : "d/d/d/d/d/");
	n += (size_t)sprintf(in + n, " rw - ext4 /dev/loop1 ro");
	for (int i = 0; i < 800; i++)
		n += (size_t)sprintf(in + n, ",opt=%05d", i);
	n += (size_t)sprintf(in + n, "\n41 22 7:2 / /z rw - ext4 /dev/");
	for (int i = 0; i < 1000; i++)
		n += (size_t)sprintf(in + n, "aaaaa");
	n += (size_t)sprintf(in + n, " rw\n42 22 7:9 / /w rw - ext4 /dev/loop9 rw\n");
	sprintf(want, "7:1 ro ext4 /dev/loop1\n7:2 rw ext4 [cut %d]\n7:9 rw ext4 /dev/loop9\n",
		MOUNTINFO_SOURCE_MAX - 1);
	check_all_cuts("long", in, n, want);
	free(in);
	free(want);
}

/* The callback's nonzero return stops the stream at that line. */
static void test_stop(void)
{
	static const char in[] = "1 0 7:1 / / rw - a b rw\n2 1 7:2 / /x rw - a b rw\n3 1 7:3 / /y rw - a b rw\n";
	int ret;
	char *got = parse(in, sizeof(in) - 1, 0, 5, 2, &ret);

	UNIT_CHECK("mountinfo/stop: the callback's return ends it", ret == 1);
	UNIT_STREQ("mountinfo/stop: no line after it", "7:1 rw a b\n7:2 rw a b\n", got);
	free(got);
}

/* Numbers beyond 32 bits, a long fstype, NUL bytes (no name: cut), an
 * empty input. */
static void test_edges(void)
{
	static const char in[] =
		"1 0 4294967295:4294967295 / / rw - averyveryveryveryverylongfstypename_x s rw\n"
		"2 0 4294967296:1 / / rw - a b rw\n"
		"3 0 7: / / rw - a b rw\n"
		"4 0 :7 / / rw - a b rw\n"
		"5 0 7:1 / / rw - bt\0rfs s\0x rw\n";
	int ret;
	char *got;

	check_all_cuts("edges", in, sizeof(in) - 1,
		"4294967295:4294967295 rw averyveryveryveryverylongfstype+ s\n"
		"- rw a b\n- rw a b\n- rw a b\n"
		"7:1 rw btrfs+ [cut 2]\n");
	got = parse("", 0, 0, 0, 0, &ret);
	UNIT_STREQ("mountinfo/empty input: no entry", "", got);
	free(got);
}

int main(void)
{
	test_crafted();
	test_long();
	test_stop();
	test_edges();
	return unit_failures ? 1 : 0;
}
