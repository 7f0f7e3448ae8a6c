/* Stub Xen tool for the VM tests (built with musl-gcc -static by tests/vm/run).
 *
 * Installed in the guest as /usr/lib/xen-4.17/bin/{xl,xentop}. It reports what
 * it received so the guest script can check that the wrapper exec'd it intact:
 *   STUB argv[N]=<ARG>          every argument, between <>
 *   STUB env VMTEST_MARK=<V>    the marker variable, if set
 *   STUB pid=P / STUB ppid=P    to check that nobody forked on the way
 *   STUB fd N -> TARGET         every open fd (readlink of /proc/self/fd/N)
 * With "-q" as first argument it exits at once (for the timing loops).
 * Called as "vmclock" it prints CLOCK_MONOTONIC in microseconds instead
 * (busybox date has no %N). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];
	if (!strcmp(base, "vmclock")) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		printf("%lld\n", (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "-q"))
		_exit(0);

	for (int i = 0; i < argc; i++)
		printf("STUB argv[%d]=<%s>\n", i, argv[i]);
	const char *mark = getenv("VMTEST_MARK");
	if (mark)
		printf("STUB env VMTEST_MARK=<%s>\n", mark);
	printf("STUB pid=%d\nSTUB ppid=%d\n", (int)getpid(), (int)getppid());

	DIR *d = opendir("/proc/self/fd");
	if (!d) {
		printf("STUB fd ? (no /proc)\n");
		return 0;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		char path[64], target[4096];
		int fd = atoi(e->d_name);
		if (e->d_name[0] == '.' || fd == dirfd(d))
			continue;
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
		ssize_t n = readlink(path, target, sizeof target - 1);
		target[n < 0 ? 0 : n] = 0;
		printf("STUB fd %d -> %s\n", fd, target);
	}
	closedir(d);
	return 0;
}
