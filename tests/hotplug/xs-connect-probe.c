// SPDX-License-Identifier: MIT
/* xs-connect-probe.c - xs_open() (libcommon/xenstore.c) with a deadline
 * the test chooses, for tests/hotplug/lock.sh: a xenstored whose socket
 * does not accept must cost the caller its deadline, not its life.
 *   xs-connect-probe MS   prints "RET ERRNO-TEXT DEV ELAPSED-MS" */
#include <stdio.h>
#include <stdlib.h>

#include "libcommon.h"
#include "xenstore.h"

int main(int argc, char **argv)
{
	struct xs_conn c;
	uint64_t t0 = clock_ms(), ms = argc > 1 ? strtoull(argv[1], NULL, 10) : 500;
	int ret = xs_open(&c, t0 + ms);

	printf("%d %s %s %llu\n", ret, ret < 0 ? errno_text(-ret) : "ok", c.dev,
	       (unsigned long long)(clock_ms() - t0));
	return 0;
}
