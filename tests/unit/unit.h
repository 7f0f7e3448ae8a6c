// SPDX-License-Identifier: MIT
/* unit.h - a minimal unit test harness printing the suite's line format
 * (PASS: / FAIL:), so tests/run counts unit tests like every other test.
 * Built with gcc -fsanitize=address,undefined by tests/unit/run.sh.
 * TEST_MATCH (tests/run -k): only the checks whose name contains that
 * pattern are reported, as tests/lib.sh does. */
#ifndef FORKLESS_UNIT_H
#define FORKLESS_UNIT_H

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int unit_failures;

/* Whether the check unit/NAME is reported: TEST_MATCH unset or empty, or
 * "*TEST_MATCH*" matches it as a shell pattern. */
static int unit_wanted(const char *name)
{
	const char *m = getenv("TEST_MATCH");
	char pat[512], full[512];

	if (!m || !*m)
		return 1;
	snprintf(pat, sizeof(pat), "*%s*", m);
	snprintf(full, sizeof(full), "unit/%s", name);
	return fnmatch(pat, full, 0) == 0;
}

#define UNIT_CHECK(name, cond) do { \
	if (cond) { \
		if (unit_wanted(name)) \
			printf("PASS: unit/%s\n", (name)); \
	} else if (unit_wanted(name)) { \
		printf("FAIL: unit/%s: %s (%s:%d)\n", (name), #cond, \
		       __FILE__, __LINE__); \
		unit_failures++; \
	} \
} while (0)

#define UNIT_STREQ(name, expected, actual) do { \
	const char *e_ = (expected), *a_ = (actual); \
	if (strcmp(e_, a_) == 0) { \
		if (unit_wanted(name)) \
			printf("PASS: unit/%s\n", (name)); \
	} else if (unit_wanted(name)) { \
		printf("FAIL: unit/%s: expected \"%s\", got \"%s\" (%s:%d)\n", \
		       (name), e_, a_, __FILE__, __LINE__); \
		unit_failures++; \
	} \
} while (0)

#endif
