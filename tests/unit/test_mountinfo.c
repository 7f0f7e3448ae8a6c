// SPDX-License-Identifier: MIT
/* test_mountinfo.c - the /proc/self/mountinfo stream parser
 * (libcommon/mountinfo.c): crafted lines (escapes, optional fields,
 * read-only mounts and superblocks, ROOTs as cgroup namespaces show
 * them, fields far longer than any buffer, a last line without a
 * newline), fed whole, cut in two at every offset, and a byte at a time:
 * every way gives the same entries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "mountinfo.h"

/* The entries as text, one line each: MAJ:MIN|-  ro|rw  ROOT  mount-point
 * fstype  source, where ROOT is "/" (root_slash), "/.." (root_above) or
 * "?", a path cut is "[cut LEN]" and a cut fstype ends in "+". */
struct sink {
	char *out;
	size_t len, cap;
	int stop_after;   /* return 1 from the callback after this many */
	int seen;
};

static void put(struct sink *s, const char *p, size_t n)
{
	if (s->len + n + 1 > s->cap) {
		s->cap = (s->len + n + 1) * 2;
		s->out = realloc(s->out, s->cap);
	}
	memcpy(s->out + s->len, p, n);
	s->len += n;
	s->out[s->len] = '\0';
}

static void put_path(struct sink *s, const char *path, size_t len, int cut)
{
	char note[32];

	if (strlen(path) != len)
		abort();
	if (cut)
		put(s, note, (size_t)snprintf(note, sizeof(note), "[cut %zu]", len));
	else
		put(s, path, len);
}

static int collect(const struct mountinfo_entry *m, void *ctx)
{
	struct sink *s = ctx;
	char head[96];
	int n;

	if (m->have_dev)
		n = snprintf(head, sizeof(head), "%u:%u %s %s ", m->major, m->minor,
			     m->ro ? "ro" : "rw",
			     m->root_slash ? "/" : m->root_above ? "/.." : "?");
	else
		n = snprintf(head, sizeof(head), "- %s %s ", m->ro ? "ro" : "rw",
			     m->root_slash ? "/" : m->root_above ? "/.." : "?");
	if (m->root_slash && m->root_above)
		abort();
	put(s, head, (size_t)n);
	put_path(s, m->mount_point, m->mount_point_len, m->mount_point_cut);
	n = snprintf(head, sizeof(head), " %s%s ", m->fstype, m->fstype_cut ? "+" : "");
	put(s, head, (size_t)n);
	put_path(s, m->source, m->source_len, m->source_cut);
	put(s, "\n", 1);
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

/* Whole, cut in two at every stride-th offset, and a byte at a time (a
 * chunk boundary after every byte: what carries over, everywhere). */
static void check_cuts(const char *name, const char *in, size_t n,
		       const char *want, size_t stride)
{
	char label[128];
	int ret, bad_cut = -1;
	char *got = parse(in, n, n, 0, 0, &ret);

	snprintf(label, sizeof(label), "mountinfo/%s: whole", name);
	UNIT_STREQ(label, want, got);
	free(got);
	for (size_t cut = 0; cut <= n && bad_cut < 0; cut += stride) {
		got = parse(in, n, cut, 0, 0, &ret);
		if (strcmp(got, want) != 0)
			bad_cut = (int)cut;
		free(got);
	}
	if (stride == 1)
		snprintf(label, sizeof(label), "mountinfo/%s: cut in two at every offset (first bad: %d)",
			 name, bad_cut);
	else
		snprintf(label, sizeof(label), "mountinfo/%s: cut in two at every %zu bytes (first bad: %d)",
			 name, stride, bad_cut);
	UNIT_CHECK(label, bad_cut < 0);
	got = parse(in, n, 0, 1, 0, &ret);
	snprintf(label, sizeof(label), "mountinfo/%s: a byte at a time", name);
	UNIT_STREQ(label, want, got);
	free(got);
}

static void check_all_cuts(const char *name, const char *in, size_t n,
			   const char *want)
{
	check_cuts(name, in, n, want, 1);
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
		"254:0 rw / / ext4 /dev/mapper/vg-root\n"
		"7:3 ro / /mnt/ro ext2 /dev/loop3\n"
		"7:4 ro / /mnt/sb ext2 /dev/loop4\n"
		"8:16 rw / /a ext4 /dev/sdb\n"
		"0:50 rw / /mnt/a b fuse.sshfs /dev/sdb x\\y\\9\\07\n"
		"0:51 rw / /mnt/t tmpfs /dev/loop5\n"
		"0:52 rw ? /home btrfs /dev/sdc2\n"
		"- rw / /b proc proc\n"
		"7:8 ro / /c ext4 /dev/loop8\n");
}

/* ROOT as cgroup-resolve reads it: "/" (a mount of the whole tree),
 * "/.." components alone (in a cgroup namespace, a mount of an ancestor
 * of its root), anything else (a subtree, or outside the namespace on
 * another branch). */
static void test_roots(void)
{
	static const char in[] =
		"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime shared:9 - cgroup2 cgroup2 rw\n"
		"57 47 0:38 /.. /a rw - cgroup2 cgroup2 rw\n"
		"57 47 0:38 /../.. /b rw - cgroup2 cgroup2 rw\n"
		"57 47 0:38 /../x /c rw - cgroup2 cgroup2 rw\n"
		"57 47 0:38 /..x /d rw - cgroup2 cgroup2 rw\n"
		"57 47 0:38 /../ /e rw - cgroup2 cgroup2 rw\n"
		"57 47 0:38 /. /f rw - cgroup2 cgroup2 rw\n"
		"57 47 0:38 // /g rw - cgroup2 cgroup2 rw\n"
		"50 41 0:38 /a/b /h rw - cgroup2 cgroup2 rw\n"
		/* an empty ROOT (two spaces): no "/.." in it */
		"57 47 0:38  /i rw - cgroup2 cgroup2 rw\n"
		/* a line that ends with its ROOT */
		"58 47 0:38 /";
	check_all_cuts("roots", in, sizeof(in) - 1,
		"0:38 rw / /sys/fs/cgroup/unified cgroup2 cgroup2\n"
		"0:38 rw /.. /a cgroup2 cgroup2\n"
		"0:38 rw /.. /b cgroup2 cgroup2\n"
		"0:38 rw ? /c cgroup2 cgroup2\n"
		"0:38 rw ? /d cgroup2 cgroup2\n"
		"0:38 rw ? /e cgroup2 cgroup2\n"
		"0:38 rw ? /f cgroup2 cgroup2\n"
		"0:38 rw ? /g cgroup2 cgroup2\n"
		"0:38 rw ? /h cgroup2 cgroup2\n"
		"0:38 rw ? /i cgroup2 cgroup2\n"
		"0:38 rw /   \n");
}

/* The mount point unescaped as the source is: \ooo for a byte, a \ not
 * followed by three octal digits kept as it is, an escape or a byte no
 * path holds (\000, above \377, a NUL) cuts it. */
static void test_mount_point(void)
{
	static const char in[] =
		"60 1 0:38 / /mnt/a\\040b\\011c\\134d rw - cgroup2 none rw\n"
		"61 1 0:38 / /mnt/a\\9zb\\0 rw - cgroup2 none rw\n"
		"62 1 0:38 / /mnt/\\1234\\\\040 rw - cgroup2 none rw\n"
		"63 1 0:38 / /mnt/x\\ rw - cgroup2 none rw\n"
		"64 1 0:38 / /mnt/\\000x rw - cgroup2 none rw\n"
		"65 1 0:38 / /mnt/\\777 rw - cgroup2 none rw\n"
		"66 1 0:38 / /m\0n rw - cgroup2 none rw\n";
	check_all_cuts("mount point", in, sizeof(in) - 1,
		"0:38 rw / /mnt/a b\tc\\d cgroup2 none\n"
		"0:38 rw / /mnt/a\\9zb\\0 cgroup2 none\n"
		"0:38 rw / /mnt/S4\\  cgroup2 none\n"
		"0:38 rw / /mnt/x\\ cgroup2 none\n"
		"0:38 rw / [cut 6] cgroup2 none\n"
		"0:38 rw / [cut 5] cgroup2 none\n"
		"0:38 rw / [cut 3] cgroup2 none\n");
}

/* Lines longer than any buffer: a mount point of 8,300 bytes (cut: no
 * path is that long; /proc/mounts lines over 8191 bytes were skipped and
 * their tail read as a line of its own: here a part looks like a mount of
 * 7:9), super options of 8,000 bytes, a source of 5,000 (cut). */
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
	sprintf(want, "7:1 ro / [cut %d] ext4 /dev/loop1\n7:2 rw / /z ext4 [cut %d]\n"
		"7:9 rw / /w ext4 /dev/loop9\n", MOUNTINFO_PATH_MAX - 1, MOUNTINFO_PATH_MAX - 1);
	check_all_cuts("long", in, n, want);
	free(in);
	free(want);
}

/* A ROOT of 30,000 bytes of "/..", and one that leaves them at its end;
 * mount points of MOUNTINFO_PATH_MAX - 1 bytes (kept, one of them with
 * an escape near the end) and of MOUNTINFO_PATH_MAX (cut). 75 KB: cut in
 * two every 101 bytes, not at every offset. */
static void test_long_roots(void)
{
	static const char head[] = "44 1 0:38 / /";
	size_t n = 0, w = 0;
	char *in = malloc(90000), *want = malloc(20000);

	for (int last = 0; last < 2; last++) {
		n += (size_t)sprintf(in + n, "43 1 0:38 ");
		for (int i = 0; i < 10000; i++)
			n += (size_t)sprintf(in + n, "/..");
		n += (size_t)sprintf(in + n, "%s /r rw - cgroup2 none rw\n", last ? "/x" : "");
		w += (size_t)sprintf(want + w, "0:38 rw %s /r cgroup2 none\n", last ? "?" : "/..");
	}
	/* "/" and 4,094 bytes; "/", 4,090, an escaped space and 3 more; one more */
	for (int k = 0; k < 3; k++) {
		size_t len = k == 2 ? MOUNTINFO_PATH_MAX : MOUNTINFO_PATH_MAX - 1;

		n += (size_t)sprintf(in + n, "%s", head);
		memset(in + n, 'p', len - 1);
		if (k == 1)
			memcpy(in + n + len - 5, "\\040ppp", 7);
		n += len - 1 + (k == 1 ? 3 : 0);
		n += (size_t)sprintf(in + n, " rw - cgroup2 none rw\n");
		if (k == 2) {
			w += (size_t)sprintf(want + w, "0:38 rw / [cut %d] cgroup2 none\n",
					     MOUNTINFO_PATH_MAX - 1);
			continue;
		}
		w += (size_t)sprintf(want + w, "0:38 rw / /");
		memset(want + w, 'p', len - 1);
		if (k == 1)
			want[w + len - 5] = ' ';
		w += len - 1;
		w += (size_t)sprintf(want + w, " cgroup2 none\n");
	}
	check_cuts("long roots and mount points", in, n, want, 101);
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
	UNIT_STREQ("mountinfo/stop: no line after it", "7:1 rw / / a b\n7:2 rw / /x a b\n", got);
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
		"4294967295:4294967295 rw / / averyveryveryveryverylongfstype+ s\n"
		"- rw / / a b\n- rw / / a b\n- rw / / a b\n"
		"7:1 rw / / btrfs+ [cut 2]\n");
	got = parse("", 0, 0, 0, 0, &ret);
	UNIT_STREQ("mountinfo/empty input: no entry", "", got);
	free(got);
}

int main(void)
{
	test_crafted();
	test_roots();
	test_mount_point();
	test_long();
	test_long_roots();
	test_stop();
	test_edges();
	return unit_failures ? 1 : 0;
}
