// SPDX-License-Identifier: MIT
/* statwalk.c - the benchmark's model of how bcc/bpftrace-style resolvers
 * map cgroup ids to paths: walk the cgroup2 tree with readdir and stat
 * EVERY entry (to learn whether it is a directory, and its inode), build
 * an id -> path table once, then answer ids from stdin as ID<TAB>PATH
 * (ID<TAB>? when unknown). Deliberately generous: one walk for all ids.
 * Usage: statwalk MOUNT < ids */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct entry { unsigned long long id; char *path; };
static struct entry *table;
static size_t count, cap;

static void add(unsigned long long id, const char *path)
{
	if (count == cap) {
		cap = cap ? cap * 2 : 4096;
		table = realloc(table, cap * sizeof(*table));
		if (!table) { perror("realloc"); exit(1); }
	}
	table[count].id = id;
	table[count++].path = strdup(path);
}

static void walk(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	struct stat st;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char child[8192];

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISDIR(st.st_mode))
			continue;
		snprintf(child, sizeof(child), "%s/%s", path, e->d_name);
		add((unsigned long long)st.st_ino, child);
		walk(child);
	}
	closedir(d);
}

static int cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

int main(int argc, char **argv)
{
	struct stat st;
	char line[128];

	if (argc != 2 || stat(argv[1], &st) < 0) {
		fprintf(stderr, "usage: statwalk MOUNT < ids\n");
		return 2;
	}
	add((unsigned long long)st.st_ino, argv[1]);
	walk(argv[1]);
	qsort(table, count, sizeof(*table), cmp);
	while (fgets(line, sizeof(line), stdin)) {
		struct entry key = { .id = strtoull(line, NULL, 0) }, *hit;

		hit = bsearch(&key, table, count, sizeof(*table), cmp);
		printf("%llu\t%s\n", key.id, hit ? hit->path : "?");
	}
	return 0;
}
