// SPDX-License-Identifier: MIT
/* spawn.c - time spawning commands, interleaved so that every variant
 * sees the same machine load:
 *   spawn ROUNDS CALLS PATH...
 * Each round runs CALLS posix_spawn+wait of each PATH in turn (argv[0] =
 * PATH's basename, one argument "list"). Prints, per PATH, the median over
 * the rounds of the mean time per call in nanoseconds, then each round's
 * mean in round order (so that ratios can be taken round by round, the
 * variants of a round having run back to back). Static: it runs in the
 * test root. */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fputs("usage: spawn ROUNDS CALLS PATH...\n", stderr);
		return 2;
	}
	int rounds = atoi(argv[1]), calls = atoi(argv[2]), nv = argc - 3;
	long long *t = calloc((size_t)(rounds * nv), sizeof(*t));

	for (int r = 0; r < rounds; r++) {
		for (int v = 0; v < nv; v++) {
			const char *path = argv[3 + v];
			const char *base = strrchr(path, '/');
			char *args[] = { (char *)(base ? base + 1 : path), "list", NULL };
			long long start = now_ns();

			for (int i = 0; i < calls; i++) {
				pid_t pid;
				int status;

				if (posix_spawn(&pid, path, NULL, NULL, args, environ) != 0) {
					perror(path);
					return 1;
				}
				if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
				    WEXITSTATUS(status) != 0) {
					fprintf(stderr, "%s: failed (status %d)\n", path, status);
					return 1;
				}
			}
			t[v * rounds + r] = (now_ns() - start) / calls;
		}
	}
	long long *sorted = calloc((size_t)rounds, sizeof(*sorted));

	for (int v = 0; v < nv; v++) {
		memcpy(sorted, t + v * rounds, (size_t)rounds * sizeof(*t));
		qsort(sorted, (size_t)rounds, sizeof(*sorted), cmp_ll);
		printf("%s %lld", argv[3 + v], sorted[rounds / 2]);
		for (int r = 0; r < rounds; r++)
			printf(" %lld", t[v * rounds + r]);
		putchar('\n');
	}
	return 0;
}
