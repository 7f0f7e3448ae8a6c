// SPDX-License-Identifier: MIT
/* clock.c - the one clock: CLOCK_MONOTONIC in milliseconds, for
 * deadlines (xenstore replies, mount-shared -w) and rate limits
 * (cgroup-resolve's re-walk). */
#include <time.h>

#include "libcommon.h"
#include "sys.h"

uint64_t clock_ms(void)
{
	struct timespec ts = { 0, 0 };

	/* Raw (sys.h): musl's clock_gettime brings its vDSO lookup (~1 KiB). */
	sys_clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}
