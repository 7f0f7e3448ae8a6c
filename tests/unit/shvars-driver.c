/* shvars-driver.c - tests/unit/shvars-shells.sh's view of a file through
 * libcommon/shvars.c: each assignment in order as "NAME HEX" (the value's
 * bytes as two lowercase hex digits each) and exit 0, or "refused LINE:
 * WHAT" and exit 1.
 * With --pairs, the same lines for what a shell printed on stdin as
 * NAME NUL VALUE NUL pairs (printf '%s\0%s\0'), so that both views
 * compare as text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shvars.h"

static int print(void *ctx, const char *name, size_t name_len,
		 const char *value, size_t value_len)
{
	(void)ctx;
	printf("%.*s ", (int)name_len, name);
	for (size_t i = 0; i < value_len; i++)
		printf("%02x", (unsigned char)value[i]);
	putchar('\n');
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
			print(NULL, name, strlen(name), value, strlen(value));
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
	if (shvars_parse(text, len, scratch, sizeof(scratch), print, NULL,
			 &err) == 0)
		return 0;
	printf("refused %u: %s\n", err.line, err.what);
	return 1;
}
