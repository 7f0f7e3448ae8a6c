// SPDX-License-Identifier: MIT
/* fuzz_shvars.c - libFuzzer target for the plain-assignment reader
 * (libcommon/shvars.c). The input is the file's text, in a buffer of
 * exactly its size (ASan: no read past len). Invariants checked (abort()
 * on violation, a fuzzer finding):
 *   - refused: err names a line of the text (1..lines) and a text, and
 *     fn was never called;
 *   - accepted: each name is an identifier inside the text, followed by
 *     `=`; each value is NUL-terminated, holds no NUL or CR, and fits the
 *     scratch with its NUL;
 *   - re-encoding: the assignments written back one per line, every
 *     value 'single quoted' (' as '\''), then again with every byte
 *     backslash-escaped (a newline as '<newline>'), parse to the same
 *     names and values;
 *   - cap: a scratch of the longest value + 1 bytes accepts the text, one
 *     byte less refuses it ("a value longer than the buffer");
 *   - a second parse gives the same answer (no hidden state). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shvars.h"

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

#define INPUT_MAX 6000   /* lib-fuzz.sh runs with -max_len=6000 */
#define MAX_ASSIGN (INPUT_MAX / 2 + 1)

struct assign {
	const char *name;
	size_t name_len, value_off, value_len;
};

struct record {
	const char *text;
	size_t len;
	struct assign a[MAX_ASSIGN];
	size_t count;
	char values[INPUT_MAX + MAX_ASSIGN];   /* each value and its NUL */
	size_t used, longest;
	int stop_at;                           /* stop (return 5) there */
};

static int name_start(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_name(const char *s, size_t n)
{
	if (!n || !name_start(s[0]))
		return 0;
	for (size_t i = 1; i < n; i++)
		if (!name_start(s[i]) && !(s[i] >= '0' && s[i] <= '9'))
			return 0;
	return 1;
}

static int record(void *ctx, const char *name, size_t name_len,
		  const char *value, size_t value_len)
{
	struct record *r = ctx;
	struct assign *a;

	CHECK(r->count < MAX_ASSIGN);
	CHECK(name >= r->text && name + name_len < r->text + r->len);
	CHECK(is_name(name, name_len) && name[name_len] == '=');
	CHECK(value[value_len] == '\0' && strlen(value) == value_len);
	CHECK(!memchr(value, '\r', value_len));
	CHECK(r->used + value_len + 1 <= sizeof(r->values));
	a = &r->a[r->count++];
	a->name = name;
	a->name_len = name_len;
	a->value_off = r->used;
	a->value_len = value_len;
	memcpy(r->values + r->used, value, value_len + 1);
	r->used += value_len + 1;
	if (value_len > r->longest)
		r->longest = value_len;
	return r->count == (size_t)r->stop_at ? 5 : 0;
}

static int parse(struct record *r, const char *text, size_t len, size_t cap,
		 struct shvars_error *err)
{
	static char scratch[INPUT_MAX + 1];

	r->text = text;
	r->len = len;
	r->count = r->used = r->longest = 0;
	err->line = 0;
	err->what = NULL;
	return shvars_parse(text, len, scratch, cap, record, r, err);
}

static int same(const struct record *x, const struct record *y)
{
	if (x->count != y->count)
		return 0;
	for (size_t i = 0; i < x->count; i++) {
		const struct assign *a = &x->a[i], *b = &y->a[i];
		if (a->name_len != b->name_len ||
		    memcmp(a->name, b->name, a->name_len) ||
		    a->value_len != b->value_len ||
		    memcmp(x->values + a->value_off, y->values + b->value_off,
			   a->value_len))
			return 0;
	}
	return 1;
}

/* r's assignments written back, one per line: quoted (1) as 'value', or
 * each byte backslash-escaped (0). Returns the length. */
static size_t encode(const struct record *r, char *out, int quoted)
{
	size_t o = 0;

	for (size_t i = 0; i < r->count; i++) {
		const struct assign *a = &r->a[i];
		const char *v = r->values + a->value_off;
		memcpy(out + o, a->name, a->name_len);
		o += a->name_len;
		out[o++] = '=';
		if (quoted)
			out[o++] = '\'';
		for (size_t k = 0; k < a->value_len; k++) {
			if (quoted && v[k] == '\'') {
				memcpy(out + o, "'\\''", 4);
				o += 4;
			} else if (!quoted && v[k] == '\n') {
				memcpy(out + o, "'\n'", 3);
				o += 3;
			} else {
				if (!quoted)
					out[o++] = '\\';
				out[o++] = v[k];
			}
		}
		if (quoted)
			out[o++] = '\'';
		out[o++] = '\n';
	}
	return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct record r, again;
	static char text2[4 * INPUT_MAX + 4 * MAX_ASSIGN];
	struct shvars_error err, err2;
	size_t lines = 1, len2;
	int ret;

	if (size > INPUT_MAX)
		return 0;
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';

	r.stop_at = again.stop_at = 0;
	ret = parse(&r, (const char *)data, size, INPUT_MAX + 1, &err);
	if (ret == SHVARS_NOT_PLAIN) {
		CHECK(r.count == 0);
		CHECK(err.line >= 1 && err.line <= lines && err.what && *err.what);
		ret = parse(&again, (const char *)data, size, INPUT_MAX + 1, &err2);
		CHECK(ret == SHVARS_NOT_PLAIN && err2.line == err.line &&
		      err2.what == err.what);
		return 0;
	}
	CHECK(ret == 0);

	/* the same answer twice */
	CHECK(parse(&again, (const char *)data, size, INPUT_MAX + 1, &err2) == 0);
	CHECK(same(&r, &again));

	/* re-encoded both ways, the same assignments */
	for (int quoted = 0; quoted <= 1; quoted++) {
		len2 = encode(&r, text2, quoted);
		CHECK(len2 <= sizeof(text2));
		CHECK(parse(&again, text2, len2, INPUT_MAX + 1, &err2) == 0);
		CHECK(same(&r, &again));
	}

	/* the cap, to the byte */
	if (r.count) {
		size_t longest = r.longest;
		CHECK(parse(&again, (const char *)data, size, longest + 1, &err2) == 0);
		CHECK(parse(&again, (const char *)data, size, longest, &err2) ==
		      SHVARS_NOT_PLAIN);
		CHECK(strcmp(err2.what, "a value longer than the buffer") == 0);
		CHECK(again.count == 0);

		/* fn's stop: the first assignment's, returned as is */
		again.stop_at = 1;
		CHECK(parse(&again, (const char *)data, size, INPUT_MAX + 1, &err2) == 5);
		CHECK(again.count == 1);
	}
	return 0;
}
