// SPDX-License-Identifier: MIT
/* shvars-driver.c - tests/unit/shvars-shells.sh's view of a file through
 * libcommon/shvars.c: the final value of each name as "NAME HEX" (the
 * value's bytes as two lowercase hex digits each), in order of first
 * assignment, and exit 0, or "refused LINE:
 * WHAT" and exit 1.
 * With --pairs, the same lines for what a shell printed on stdin as
 * NAME NUL VALUE NUL pairs (printf '%s\0%s\0'), so that both views
 * compare as text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shvars.h"

static void print(const char *name, size_t name_len, const char *value,
		  size_t value_len)
{
	printf("%.*s ", (int)name_len, name);
	for (size_t i = 0; i < value_len; i++)
		printf("%02x", (unsigned char)value[i]);
	putchar('\n');
}

/* The final value of each name, in order of first appearance: a later
 * assignment replaces the value in place. */
static struct { const char *name; size_t name_len; char *value; size_t value_len; } vars[4096];
static size_t nvars;

static int keep(void *ctx, const char *name, size_t name_len,
		const char *value, size_t value_len)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < nvars; i++)
		if (vars[i].name_len == name_len &&
		    memcmp(vars[i].name, name, name_len) == 0)
			break;
	if (i == nvars) {
		if (nvars == sizeof(vars) / sizeof(vars[0]))
			return 3;
		nvars++;
	}
	free(vars[i].value);
	vars[i].name = name;
	vars[i].name_len = name_len;
	vars[i].value = malloc(value_len + 1);
	if (!vars[i].value)
		return 4;
	memcpy(vars[i].value, value, value_len + 1);
	vars[i].value_len = value_len;
	return 0;
}

int main(int argc, char **argv)
{
	static char text[1 << 20], scratch[1 << 16];
	struct shvars_error err;
	FILE *f;
	size_t len;

	if (argc == 2 && strcmp(argv[1], "--pairs") == 0) {
		char *p = text, *end;

		len = fread(text, 1, sizeof(text) - 1, stdin);
		end = text + len;
		while (p < end) {
			char *name = p, *value = name + strlen(name) + 1;
			if (value >= end)
				return 3;   /* a name without its value */
			print(name, strlen(name), value, strlen(value));
			p = value + strlen(value) + 1;
		}
		return 0;
	}
	if (argc != 2 || !(f = fopen(argv[1], "rb"))) {
		fprintf(stderr, "usage: shvars-driver FILE\n");
		return 2;
	}
	len = fread(text, 1, sizeof(text), f);
	fclose(f);
	switch (shvars_parse(text, len, scratch, sizeof(scratch), keep, NULL,
			     &err)) {
	case 0:
		for (size_t i = 0; i < nvars; i++)
			print(vars[i].name, vars[i].name_len, vars[i].value,
			      vars[i].value_len);
		return 0;
	case SHVARS_NOT_PLAIN:
		printf("refused %u: %s\n", err.line, err.what);
		return 1;
	default:
		fprintf(stderr, "shvars-driver: too many names\n");
		return 2;
	}
}
