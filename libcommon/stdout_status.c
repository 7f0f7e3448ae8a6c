// SPDX-License-Identifier: MIT
/* stdout_status.c - an applet's final output status. Apart from write.c:
 * it prints a message (die.c), and die.c writes with write.c, so in one
 * file the two would call each other. */
#include <errno.h>

#include "libcommon.h"

int stdout_status(int ret)
{
	if (ret == 0)
		return 0;
	/* Output lost is an error, not a success with nothing printed. */
	warn_msg("cannot write to stdout: ", errno_text(ret < 0 ? -ret : EIO));
	return 1;
}
