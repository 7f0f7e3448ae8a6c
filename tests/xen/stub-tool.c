// SPDX-License-Identifier: MIT
/* stub-tool.c - stands in for a real Xen tool (xl, xentop) in tests.
 * Prints what it was given so tests can compare: argv (escaped), the
 * environment (sorted: dash does not keep its order), and open fds with
 * their close-on-exec flag. With STUB_PID=1 in the environment it also
 * prints its pid, to show that the wrapper exec'd rather than forked. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

static void put_escaped(const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 0x20 || c == 0x7f || c == '\\')
			printf("\\%03o", c);
		else
			putchar(c);
	}
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	size_t n = 0;

	for (int i = 0; i < argc; i++) {
		printf("argv[%d]=", i);
		put_escaped(argv[i]);
		putchar('\n');
	}
	while (environ[n])
		n++;
	qsort(environ, n, sizeof(*environ), cmp);
	for (size_t i = 0; i < n; i++) {
		printf("env: ");
		put_escaped(environ[i]);
		putchar('\n');
	}
	for (int fd = 0; fd < 1024; fd++) {
		int flags = fcntl(fd, F_GETFD);
		if (flags >= 0)
			printf("fd %d%s\n", fd, flags & FD_CLOEXEC ? " cloexec" : "");
	}
	if (getenv("STUB_PID"))
		printf("pid %ld\n", (long)getpid());
	return argc > 1 && strcmp(argv[1], "fail-with-3") == 0 ? 3 : 0;
}
