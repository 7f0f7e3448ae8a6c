// SPDX-License-Identifier: MIT
/* tests/vm/tripwire.c - put in place of every shell, python3 and
 * start-stop-daemon of the shell-less dom0 root (tests/vm/toolstack/noshell.sh):
 * whatever runs one is recorded in /vmtest/out/tripwire.log (the xenout
 * share, read by the driver and kept on the host) and fails loudly, exit 127.
 * Static (musl), no libc stdio: it runs where nothing else may. */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static void put(int fd, const char *s)
{
	size_t n = strlen(s);

	while (n > 0) {
		ssize_t w = write(fd, s, n);
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

int main(int argc, char **argv)
{
	int fd = open("/vmtest/out/tripwire.log", O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);

	for (int i = 0; i < argc; i++) {
		if (fd >= 0) {
			put(fd, i ? " " : "TRIPWIRE ");
			put(fd, argv[i]);
		}
	}
	if (fd >= 0)
		put(fd, "\n");
	put(2, "tripwire: ");
	put(2, argc > 0 ? argv[0] : "?");
	put(2, " ran in the shell-less dom0 (tests/vm/tripwire.c)\n");
	return 127;
}
