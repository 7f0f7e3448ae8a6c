// SPDX-License-Identifier: MIT
/* exec-argv.c - execve PATH with an exact argv, including an empty one:
 *   exec-argv PATH [ARGV0 [ARGS...]]
 * (bash's `exec -a` cannot pass argc == 0). */
#include <stdio.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs("usage: exec-argv PATH [ARGV0 [ARGS...]]\n", stderr);
		return 2;
	}
	execve(argv[1], argv + 2, environ);
	perror(argv[1]);
	return 126;
}
