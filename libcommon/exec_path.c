// SPDX-License-Identifier: MIT
/* exec_path.c - exec_path(): a command run as sh runs one, by a list of
 * directories (the script's fixed PATH, or the environment's). */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "libcommon.h"

extern char **environ;

/* argv[0] with a '/' is run as it is; a bare name from each directory of
 * the colon-separated dirs in turn (an empty entry is the current
 * directory). A directory where it is missing, or not executable, is
 * passed; any other error ends the search. Returns only when nothing
 * ran, errno set: EACCES when a candidate was found but not executable,
 * else the last error (ENOENT: found nowhere). */
void exec_path(const char *dirs, char *const argv[])
{
	char buf[PATH_MAX];
	size_t name_len = strlen(argv[0]);
	int denied = 0;

	if (strchr(argv[0], '/')) {
		execve(argv[0], argv, environ);
		return;
	}
	errno = ENOENT;
	for (const char *d = dirs; d; ) {
		const char *end = strchr(d, ':');
		size_t len = end ? (size_t)(end - d) : strlen(d);

		if (len + 1 + name_len < sizeof(buf)) {
			memcpy(buf, d, len);
			buf[len] = '/';
			memcpy(buf + len + 1, argv[0], name_len + 1);
			execve(len ? buf : buf + 1, argv, environ);
			if (errno == EACCES)
				denied = 1;
			else if (errno != ENOENT && errno != ENOTDIR)
				return;
		}
		d = end ? end + 1 : NULL;
	}
	if (denied)
		errno = EACCES;
}
