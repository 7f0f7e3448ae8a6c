/* unit.h - a minimal unit test harness printing the suite's line format
 * (PASS: / FAIL:), so tests/run counts unit tests like every other test.
 * Built with gcc -fsanitize=address,undefined by tests/unit/run.sh. */
#ifndef FORKLESS_UNIT_H
#define FORKLESS_UNIT_H

#include <stdio.h>
#include <string.h>

static int unit_failures;

#define UNIT_CHECK(name, cond) do { \
	if (cond) { \
		printf("PASS: unit/%s\n", (name)); \
	} else { \
		printf("FAIL: unit/%s: %s (%s:%d)\n", (name), #cond, \
		       __FILE__, __LINE__); \
		unit_failures++; \
	} \
} while (0)

#define UNIT_STREQ(name, expected, actual) do { \
	const char *e_ = (expected), *a_ = (actual); \
	if (strcmp(e_, a_) == 0) { \
		printf("PASS: unit/%s\n", (name)); \
	} else { \
		printf("FAIL: unit/%s: expected \"%s\", got \"%s\" (%s:%d)\n", \
		       (name), e_, a_, __FILE__, __LINE__); \
		unit_failures++; \
	} \
} while (0)

#endif
