// SPDX-License-Identifier: MIT
// sources: applets/xen/xlcfg.c
/* Unit tests of xlcfg_parse's contract (what tests/xen/init-corpus.sh
 * cannot see through the applet): the size limit, the value buffer's
 * bound, the key table at its largest, error lines and positions. The
 * language itself is checked against the real parser by corpus.sh and
 * tests/fuzz/xlcfg.sh. */
#include <errno.h>
#include <string.h>

#include "xen/xlcfg.h"
#include "unit.h"

static struct xlcfg_keys keys;
static char value[XLCFG_TEXT_MAX + 1];

static int parse(const char *text, size_t len, struct xlcfg_want *w,
		 struct xlcfg_error *e)
{
	w->key = "name";
	w->value = value;
	if (w->value_cap == 0)
		w->value_cap = sizeof(value);
	return xlcfg_parse(text, len, &keys, w, e);
}

int main(void)
{
	static char big[XLCFG_TEXT_MAX + 1];
	struct xlcfg_want w = { 0 };
	struct xlcfg_error e = { 0 };
	const char *t;
	size_t n;
	int r;

	t = "memory = 512\nname = \"gu\"\nname += 'est'\n";
	r = parse(t, strlen(t), &w, &e);
	UNIT_CHECK("xlcfg/name joined, line of the last statement",
		   r == 0 && w.type == XLCFG_STRING && w.value_len == 5 &&
		   memcmp(value, "guest", 5) == 0 && w.line == 3);

	t = "name = \"g\"\nx = [1,\n2 3]\n";
	memset(&w, 0, sizeof(w));
	r = parse(t, strlen(t), &w, &e);
	UNIT_CHECK("xlcfg/error: line and the offending token",
		   r == -EINVAL && e.line == 3 && e.near == (size_t)(strchr(t, '3') - t) &&
		   e.near_len == 1);

	t = "name = \"g\"\nx = [";
	memset(&w, 0, sizeof(w));
	r = parse(t, strlen(t), &w, &e);
	UNIT_CHECK("xlcfg/error at the end: an empty token",
		   r == -EINVAL && e.line == 2 && e.near == strlen(t) && e.near_len == 0);

	memset(&w, 0, sizeof(w));
	UNIT_CHECK("xlcfg/longer than XLCFG_TEXT_MAX: -EFBIG",
		   parse(big, sizeof(big), &w, &e) == -EFBIG);

	t = "name = \"guest1\"\n";
	memset(&w, 0, sizeof(w));
	w.value_cap = 5;
	UNIT_CHECK("xlcfg/a value buffer too small is an error, not a cut",
		   parse(t, strlen(t), &w, &e) == -EINVAL && e.line == 1);

	/* The most keys a text can set: "a=1;" statements with distinct
	 * keys of growing length, up to XLCFG_TEXT_MAX bytes. */
	n = 0;
	for (unsigned i = 0; n + 16 < XLCFG_TEXT_MAX; i++) {
		char key[16];
		size_t k = 0;
		for (unsigned v = i; ; v /= 26) {
			key[k++] = (char)('a' + v % 26);
			if (v < 26)
				break;
		}
		memcpy(big + n, key, k);
		memcpy(big + n + k, "=1;", 3);
		n += k + 3;
	}
	memcpy(big + n, "name=\"g\"", 8);
	n += 8;
	memset(&w, 0, sizeof(w));
	r = parse(big, n, &w, &e);
	UNIT_CHECK("xlcfg/a 1 MiB text of distinct keys",
		   r == 0 && w.type == XLCFG_STRING && w.value_len == 1);

	memset(big, ';', XLCFG_TEXT_MAX);
	memset(&w, 0, sizeof(w));
	r = parse(big, XLCFG_TEXT_MAX, &w, &e);
	UNIT_CHECK("xlcfg/exactly XLCFG_TEXT_MAX bytes, no name",
		   r == 0 && w.type == XLCFG_UNSET);
	return unit_failures ? 1 : 0;
}
