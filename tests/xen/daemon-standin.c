// SPDX-License-Identifier: MIT
/* daemon-standin.c - the stand-in Xen daemons of tests/xen/xencommons.sh:
 * compiled once and copied to each daemon's path (oxenstored, xenstored,
 * xenconsoled, the dom0 QEMU), since start-stop-daemon matches a running
 * daemon by /proc/PID/exe. It appends its argv, XENSTORED_ROOTDIR and
 * oom_score_adj to /run/standin/NAME.log, then behaves as the word in
 * /run/standin/NAME.mode says:
 *   (none)  daemonize (the parent writes the pid file given by
 *           --pid-file or -pidfile, then exits 0), and, as a xenstored, answer every
 *           request on /var/run/xenstored/socket ("OK", or "" for a READ)
 *   fail    exit 1 at once (a daemon that cannot start)
 *   crash   daemonize, then die of SIGSEGV
 *   silent  as (none), but never answer (a hung xenstored)
 *   slow    as (none), the socket made after 1 s
 * A daemon that gets SIGTERM appends "SIGTERM" to its log and exits 0
 * (SIGKILL leaves no line: the test tells the two apart). */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static char log_path[256];

static void on_term(int sig)
{
	int fd = open(log_path, O_WRONLY | O_APPEND | O_CLOEXEC);

	(void)sig;
	if (fd >= 0)
		write(fd, "SIGTERM\n", 8);
	_exit(0);
}

int main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	const char *pidfile = NULL, *root = getenv("XENSTORED_ROOTDIR");
	char path[256], mode[32] = "", oom[32] = "?";
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/run/standin/%s.mode", name);
	if ((f = fopen(path, "r"))) {
		if (!fgets(mode, sizeof(mode), f))
			mode[0] = '\0';
		mode[strcspn(mode, "\n")] = '\0';
		fclose(f);
	}
	if ((f = fopen("/proc/self/oom_score_adj", "r"))) {
		if (!fgets(oom, sizeof(oom), f))
			oom[0] = '\0';
		oom[strcspn(oom, "\n")] = '\0';
		fclose(f);
	}
	{
		/* tests/xen/xencommons.sh's oom stand-in: /proc/self a
		 * directory, its oom_score_adj one file for every process:
		 * taken, and put back to 0 for the next one */
		struct stat st;

		if (lstat("/proc/self", &st) == 0 && S_ISDIR(st.st_mode) &&
		    (f = fopen("/proc/self/oom_score_adj", "w"))) {
			fputs("0\n", f);
			fclose(f);
		}
	}
	snprintf(path, sizeof(path), "/run/standin/%s.log", name);
	snprintf(log_path, sizeof(log_path), "%s", path);
	if ((f = fopen(path, "a"))) {
		for (int i = 0; i < argc; i++)
			fprintf(f, "%s%s", i ? " " : "", i ? argv[i] : name);
		fprintf(f, " | ROOTDIR=%s oom=%s\n", root ? root : "-", oom);
		fclose(f);
	}
	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--pid-file") || !strcmp(argv[i], "-pidfile"))
			pidfile = argv[i + 1];
	if (!strcmp(mode, "fail"))
		return 1;
	/* the pid file written before the starter exits (as a daemon that
	 * writes it before its parent returns): the test's collection after
	 * the run never races the daemon */
	pid_t pid = fork();

	if (pid > 0) {
		if (pidfile && (f = fopen(pidfile, "w"))) {
			fprintf(f, "%d\n", (int)pid);
			fclose(f);
		}
		return 0;
	}
	setsid();
	fd = open("/dev/null", O_RDWR);
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (!strcmp(mode, "crash"))
		raise(SIGSEGV);
	signal(SIGTERM, on_term);
	if (strstr(name, "xenstored")) {
		struct sockaddr_un sa = { .sun_family = AF_UNIX };
		int s = socket(AF_UNIX, SOCK_STREAM, 0);

		if (!strcmp(mode, "slow"))
			sleep(1);
		mkdir("/var/run/xenstored", 0755);
		strcpy(sa.sun_path, "/var/run/xenstored/socket");
		unlink(sa.sun_path);
		if (bind(s, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(s, 16) < 0)
			return 1;
		signal(SIGPIPE, SIG_IGN);
		for (;;) {
			int c = accept(s, NULL, NULL);
			unsigned hdr[4];
			char buf[4096];

			if (c < 0)
				continue;
			while (read(c, hdr, 16) == 16 && hdr[3] <= sizeof(buf) &&
			       read(c, buf, hdr[3]) == (ssize_t)hdr[3]) {
				if (!strcmp(mode, "silent"))
					continue;
				hdr[3] = hdr[0] == 2 ? 0 : 3;
				write(c, hdr, 16);
				write(c, "OK", hdr[3]);
			}
			close(c);
		}
	}
	for (;;)
		pause();
}
