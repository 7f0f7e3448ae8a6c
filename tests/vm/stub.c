// SPDX-License-Identifier: MIT
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
 * (busybox date has no %N). Called as "vmstamp" it copies stdin to stdout,
 * each line prefixed with the CLOCK_REALTIME time (as bash's $EPOCHREALTIME
 * prints it) of the read that brought its first byte: a block at a time, where bash's
 * `read` on a pipe makes one syscall per byte -- on dom0's one vCPU, that
 * loop would be counted in the time of the hotplug calls being stamped. */
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
	if (!strcmp(base, "vmstamp")) {
		char in[65536], out[65536 + 4096], stamp[32];
		int at_start = 1;
		ssize_t n;

		while ((n = read(0, in, sizeof in)) != 0) {
			struct timespec ts;
			size_t o = 0, sl;

			if (n < 0)
				return 1;
			clock_gettime(CLOCK_REALTIME, &ts);
			sl = (size_t)snprintf(stamp, sizeof stamp, "%lld.%06ld ",
					      (long long)ts.tv_sec, ts.tv_nsec / 1000);
			for (ssize_t i = 0; i < n; i++) {
				if (at_start) {
					if (o + sl > sizeof out - 1) {
						if (write(1, out, o) != (ssize_t)o)
							return 1;
						o = 0;
					}
					memcpy(out + o, stamp, sl);
					o += sl;
				}
				if (o == sizeof out) {
					if (write(1, out, o) != (ssize_t)o)
						return 1;
					o = 0;
				}
				out[o++] = in[i];
				at_start = in[i] == '\n';
			}
			if (o && write(1, out, o) != (ssize_t)o)
				return 1;
		}
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
