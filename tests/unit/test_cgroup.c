// SPDX-License-Identifier: MIT
// sources: applets/cgroup/cgroup-parse.c applets/cgroup/cgroup-index.c
/* Unit tests of cgroup-resolve's pure parts: id parsing, which mountinfo
 * lines (read by libcommon's parser) are cgroup2 mounts to use, the
 * visibility rule for readlink results, the index and its diff. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "cgroup/cgroup-resolve.h"

static void test_parse_id(void)
{
	uint64_t id = 0;

	UNIT_CHECK("cgroup/id-decimal",
		   cgr_parse_id("12345", 5, &id) == 0 && id == 12345);
	UNIT_CHECK("cgroup/id-hex",
		   cgr_parse_id("0x1F", 4, &id) == 0 && id == 31);
	UNIT_CHECK("cgroup/id-hex-upper-X",
		   cgr_parse_id("0XfF", 4, &id) == 0 && id == 255);
	UNIT_CHECK("cgroup/id-max",
		   cgr_parse_id("18446744073709551615", 20, &id) == 0 &&
		   id == UINT64_MAX);
	UNIT_CHECK("cgroup/id-overflow",
		   cgr_parse_id("18446744073709551616", 20, &id) == -ERANGE);
	UNIT_CHECK("cgroup/id-hex-overflow",
		   cgr_parse_id("0x10000000000000000", 19, &id) == -ERANGE);
	UNIT_CHECK("cgroup/id-empty", cgr_parse_id("", 0, &id) == -EINVAL);
	UNIT_CHECK("cgroup/id-bare-0x", cgr_parse_id("0x", 2, &id) == -EINVAL);
	UNIT_CHECK("cgroup/id-sign", cgr_parse_id("-1", 2, &id) == -EINVAL);
	UNIT_CHECK("cgroup/id-blank", cgr_parse_id("1 ", 2, &id) == -EINVAL);
	UNIT_CHECK("cgroup/id-hex-without-0x",
		   cgr_parse_id("ff", 2, &id) == -EINVAL);
	UNIT_CHECK("cgroup/id-zero", cgr_parse_id("0", 1, &id) == 0 && id == 0);
}

struct rank_result {
	int rank, lines;
	char dir[MOUNTINFO_PATH_MAX];
};

static int rank_line(const struct mountinfo_entry *m, void *ctx)
{
	struct rank_result *r = ctx;

	r->rank = cgr_mount_rank(m);
	memcpy(r->dir, m->mount_point, m->mount_point_len + 1);
	r->lines++;
	return 0;
}

/* One mountinfo line through libcommon's parser: its rank (0 when it is
 * not exactly one line), its mount point in dir. */
static int mi(const char *line, char *dir, size_t cap)
{
	static struct mountinfo_parser p;
	static struct rank_result r;

	r.rank = 0;
	r.lines = 0;
	mountinfo_init(&p);
	mountinfo_feed(&p, line, strlen(line), rank_line, &r);
	mountinfo_end(&p, rank_line, &r);
	snprintf(dir, cap, "%s", r.dir);
	return r.lines == 1 ? r.rank : 0;
}

static void test_mountinfo(void)
{
	static char line[MOUNTINFO_PATH_MAX + 64];
	char dir[64];
	int n;

	UNIT_CHECK("cgroup/mountinfo-v2",
		   mi("41 31 0:38 / /sys/fs/cgroup/unified rw,relatime shared:9 - cgroup2 cgroup2 rw",
		      dir, sizeof(dir)) == 1 &&
		   strcmp(dir, "/sys/fs/cgroup/unified") == 0);
	UNIT_CHECK("cgroup/mountinfo-v1-refused",
		   mi("32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu",
		      dir, sizeof(dir)) == 0);
	UNIT_CHECK("cgroup/mountinfo-tmpfs-refused",
		   mi("31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755",
		      dir, sizeof(dir)) == 0);
	UNIT_CHECK("cgroup/mountinfo-subtree-refused",
		   mi("50 41 0:38 /a/b /mnt/sub rw - cgroup2 cgroup2 rw",
		      dir, sizeof(dir)) == 0);
	UNIT_CHECK("cgroup/mountinfo-above-namespace-root",
		   mi("57 47 0:38 /../.. /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw",
		      dir, sizeof(dir)) == 2 &&
		   strcmp(dir, "/sys/fs/cgroup/unified") == 0 &&
		   mi("57 47 0:38 /.. /mnt rw - cgroup2 cgroup2 rw",
		      dir, sizeof(dir)) == 2);
	UNIT_CHECK("cgroup/mountinfo-outside-namespace-refused",
		   mi("57 47 0:38 /../x /mnt rw - cgroup2 cgroup2 rw",
		      dir, sizeof(dir)) == 0 &&
		   mi("57 47 0:38 /..x /mnt rw - cgroup2 cgroup2 rw",
		      dir, sizeof(dir)) == 0);
	/* An empty ROOT (no kernel writes one) is no "/.." component. */
	UNIT_CHECK("cgroup/mountinfo-empty-root-refused",
		   mi("57 47 0:38  /mnt rw - cgroup2 cgroup2 rw",
		      dir, sizeof(dir)) == 0);
	UNIT_CHECK("cgroup/mountinfo-unescape",
		   mi("50 41 0:38 / /mnt/a\\040b\\011c\\134d rw - cgroup2 none rw",
		      dir, sizeof(dir)) == 1 &&
		   strcmp(dir, "/mnt/a b\tc\\d") == 0);
	/* Found by tests/fuzz/parsers.sh: a backslash not followed by three
	 * octal digits was decoded anyway (and shifted a negative value). */
	UNIT_CHECK("cgroup/mountinfo-bad-escape-kept",
		   mi("50 41 0:38 / /mnt/a\\9zb\\0 rw - cgroup2 none rw",
		      dir, sizeof(dir)) == 1 &&
		   strcmp(dir, "/mnt/a\\9zb\\0") == 0);
	/* \000 or a NUL would cut the path it opens: no such mount point. */
	UNIT_CHECK("cgroup/mountinfo-nul-refused",
		   mi("50 41 0:38 / /mnt/a\\000b rw - cgroup2 none rw",
		      dir, sizeof(dir)) == 0);
	UNIT_CHECK("cgroup/mountinfo-type-named-like-cgroup2x",
		   mi("50 41 0:38 / /mnt rw - cgroup2x none rw",
		      dir, sizeof(dir)) == 0);
	/* The longest mount point a path holds (PATH_MAX - 1 bytes), and one
	 * byte more: cut, so refused. */
	n = snprintf(line, sizeof(line), "50 41 0:38 / /");
	memset(line + n, 'm', MOUNTINFO_PATH_MAX - 2);
	snprintf(line + n + MOUNTINFO_PATH_MAX - 2, sizeof(line) - (size_t)n -
		 (MOUNTINFO_PATH_MAX - 2), " rw - cgroup2 none rw");
	UNIT_CHECK("cgroup/mountinfo-longest", mi(line, dir, sizeof(dir)) == 1);
	n = snprintf(line, sizeof(line), "50 41 0:38 / /");
	memset(line + n, 'm', MOUNTINFO_PATH_MAX - 1);
	snprintf(line + n + MOUNTINFO_PATH_MAX - 1, sizeof(line) - (size_t)n -
		 (MOUNTINFO_PATH_MAX - 1), " rw - cgroup2 none rw");
	UNIT_CHECK("cgroup/mountinfo-too-long", mi(line, dir, sizeof(dir)) == 0);
	UNIT_CHECK("cgroup/mountinfo-truncated-line",
		   mi("50 41 0:38 /", dir, sizeof(dir)) == 0);
}

static void test_path_below(void)
{
	const char *m = "/sys/fs/cgroup";
	size_t ml = strlen(m);

#define BELOW(p) cgr_path_below((p), strlen(p), m, ml)
	UNIT_CHECK("cgroup/below-root", BELOW("/sys/fs/cgroup") == (ssize_t)ml);
	UNIT_CHECK("cgroup/below-child", BELOW("/sys/fs/cgroup/a/b") == (ssize_t)ml);
	UNIT_CHECK("cgroup/below-sibling-prefix", BELOW("/sys/fs/cgroupx/a") == -1);
	UNIT_CHECK("cgroup/below-outside", BELOW("/other") == -1);
	UNIT_CHECK("cgroup/below-slash", BELOW("/") == -1);
	UNIT_CHECK("cgroup/below-not-absolute", BELOW("sys/fs/cgroup") == -1);
	UNIT_CHECK("cgroup/below-mounted-at-slash",
		   cgr_path_below("/a", 2, "/", 1) == 0 &&
		   cgr_path_below("/", 1, "/", 1) == 1);
	UNIT_CHECK("cgroup/deleted",
		   cgr_path_deleted("/x/a (deleted)", 14) &&
		   !cgr_path_deleted("/x/a", 4) &&
		   !cgr_path_deleted("(deleted)", 9));
#undef BELOW
}

struct diff_log {
	char text[512];
	size_t len;
};

static void log_emit(void *ctx, char sign, const struct cgr_index *ix,
		     uint32_t node)
{
	struct diff_log *log = ctx;
	char path[256];

	cgr_index_path(ix, node, path, sizeof(path));
	log->len += (size_t)snprintf(log->text + log->len,
				     sizeof(log->text) - log->len, "%c%llu %s;",
				     sign, (unsigned long long)ix->nodes[node].id,
				     path);
}

static void test_index(void)
{
	struct cgr_index a, b;
	char path[64];
	uint32_t root, x, y, z, w;
	struct diff_log log = { .len = 0 };
	int ok = 1;

	cgr_index_init(&a);
	root = cgr_index_add(&a, 1, CGR_NONE, CGR_NONE, "", 0);
	x = cgr_index_add(&a, 10, root, CGR_NONE, "x", 1);
	y = cgr_index_add(&a, 11, root, x, "y y", 3);
	z = cgr_index_add(&a, 12, x, CGR_NONE, "z", 1);
	UNIT_CHECK("cgroup/index-hash", cgr_index_hash_all(&a) == 0);
	UNIT_CHECK("cgroup/index-find",
		   cgr_index_find(&a, 12) == z && cgr_index_find(&a, 11) == y &&
		   cgr_index_find(&a, 99) == CGR_NONE);
	UNIT_CHECK("cgroup/index-path",
		   cgr_index_path(&a, z, path, sizeof(path)) == 4 &&
		   strcmp(path, "/x/z") == 0);
	UNIT_CHECK("cgroup/index-root-path",
		   cgr_index_path(&a, root, path, sizeof(path)) == 0 &&
		   path[0] == '\0');
	UNIT_CHECK("cgroup/index-path-too-long",
		   cgr_index_path(&a, z, path, 4) == -ENAMETOOLONG);
	UNIT_CHECK("cgroup/index-child-by-name",
		   cgr_index_child(&a, root, "y y", 3) == y &&
		   cgr_index_child(&a, root, "x", 1) == x &&
		   cgr_index_child(&a, x, "z", 1) == z &&
		   cgr_index_child(&a, root, "y", 1) == CGR_NONE &&
		   cgr_index_child(&a, root, "z", 1) == CGR_NONE &&
		   cgr_index_child(&a, z, "z", 1) == CGR_NONE);
	/* pre-order: root, x, z, y */
	UNIT_CHECK("cgroup/index-preorder",
		   cgr_index_next(&a, root) == x && cgr_index_next(&a, x) == z &&
		   cgr_index_next(&a, z) == y &&
		   cgr_index_next(&a, y) == CGR_NONE);

	/* many inserts through the incremental hash, then removals */
	for (uint64_t id = 1000; id < 6000 && ok; id++) {
		uint32_t k = cgr_index_add(&a, id, y, CGR_NONE, "n", 1);
		ok = k != CGR_NONE && cgr_index_hash_add(&a, k) == 0;
	}
	for (uint64_t id = 1000; id < 6000 && ok; id += 2)
		cgr_index_remove(&a, cgr_index_find(&a, id));
	for (uint64_t id = 1000; id < 6000 && ok; id++)
		ok = (cgr_index_find(&a, id) == CGR_NONE) == (id % 2 == 0);
	UNIT_CHECK("cgroup/index-grow-and-remove", ok);
	cgr_index_remove(&a, y);   /* with its 2500 remaining children */
	UNIT_CHECK("cgroup/index-remove-subtree",
		   cgr_index_find(&a, 11) == CGR_NONE &&
		   cgr_index_find(&a, 1001) == CGR_NONE &&
		   cgr_index_next(&a, z) == CGR_NONE);
	/* a removed node stays in its hash chain, dead: an id added again
	 * (as the watcher does for a cgroup it never saw) is found anew */
	w = cgr_index_add(&a, 1001, root, CGR_NONE, "again", 5);
	UNIT_CHECK("cgroup/index-readd-after-remove",
		   cgr_index_hash_add(&a, w) == 0 &&
		   cgr_index_find(&a, 1001) == w &&
		   cgr_index_find(&a, 1003) == CGR_NONE);
	UNIT_CHECK("cgroup/index-child-removed-is-gone",
		   cgr_index_child(&a, root, "again", 5) == w &&
		   (cgr_index_remove(&a, w),
		    cgr_index_child(&a, root, "again", 5) == CGR_NONE));

	/* diff: a = {1, 10 /x, 12 /x/z}; b = {1, 10 /x, 13 /x/w, 12 /z} */
	cgr_index_init(&b);
	root = cgr_index_add(&b, 1, CGR_NONE, CGR_NONE, "", 0);
	x = cgr_index_add(&b, 10, root, CGR_NONE, "x", 1);
	cgr_index_add(&b, 13, x, CGR_NONE, "w", 1);
	cgr_index_add(&b, 12, root, x, "z", 1);
	cgr_index_hash_all(&b);
	cgr_index_diff(&a, &b, log_emit, &log);
	UNIT_STREQ("cgroup/index-diff", "-12 /x/z;+13 /x/w;+12 /z;", log.text);
	log.len = 0;
	log.text[0] = '\0';
	cgr_index_diff(&b, &b, log_emit, &log);
	UNIT_STREQ("cgroup/index-diff-same", "", log.text);
	cgr_index_free(&a);
	cgr_index_free(&b);
}

int main(void)
{
	test_parse_id();
	test_mountinfo();
	test_path_below();
	test_index();
	return unit_failures != 0;
}
