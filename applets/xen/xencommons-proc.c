// SPDX-License-Identifier: MIT
/* xencommons-proc.c - the xencommons applet's processes (xencommons.h;
 * the lowest of its three files), as the script's start-stop-daemon and
 * choom handle them, in-process: a program run and waited for (vfork +
 * execve, the script's PATH, oom_score_adj written by the child before
 * its exec), a daemon started with its pid-file option, pid files read
 * and their process checked (/proc/PID/exe or comm, start-stop-daemon's
 * --exec and --name), and the stop schedule TERM/30/KILL/5 waited on
 * pidfds, never a sleep. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libcommon.h"
#include "sys.h"
#include "xencommons.h"

/* [ -x PATH ] as root asks it (the plain syscall) */
int xc_executable(const char *path)
{
	return *path && sys_faccessat(AT_FDCWD, path, X_OK) == 0;
}

/* Run argv[0] and wait for it: its exit status, 128 + a signal, 127 when
 * it could not run. A bare name is looked up in the script's PATH. */
int xc_run(char **argv, int flags)
{
	int status;
	pid_t pid = vfork();

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (flags & RUN_QUIET_OUT)
			dup2(null, 1);
		if (flags & RUN_QUIET_ERR)
			dup2(null, 2);
		if (flags & RUN_OOM) {
			/* choom -n -1000: this process's score, then the exec */
			int fd = open("/proc/self/oom_score_adj", O_WRONLY);

			if (fd < 0 || write(fd, LIT("-1000")) != sizeof("-1000") - 1) {
				/* choom's words, as the script shows them */
				write_strs(2, "choom: failed to set score adjust value: ",
					   errno_text(errno), "\n");
				_exit(1);
			}
			close(fd);
		}
		exec_path("/sbin:/bin:/usr/sbin:/usr/bin", argv);
		write_strs(2, "xencommons: cannot run ", argv[0], ": ",
			   errno_text(errno), "\n");
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 127;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* [ -x /sbin/restorecon ] && /sbin/restorecon PATH */
void xc_restorecon(const char *path)
{
	char *argv[] = { (char *)"/sbin/restorecon", (char *)path, NULL };

	if (xc_executable(argv[0]))
		xc_run(argv, 0);
}

/* The pid a pid file holds (as start-stop-daemon reads it), or 0. */
pid_t xc_pidfile_pid(const char *pidfile)
{
	char buf[32];
	ssize_t n = read_small_file_close(AT_FDCWD, pidfile, buf, sizeof(buf) - 1);
	size_t digits;
	uint64_t v;

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	digits = strspn(buf, "0123456789");
	if (parse_u64_base(buf, digits, 10, &v) < 0 || v == 0 || v > 0x3fffffff)
		return 0;
	return (pid_t)v;
}

/* "/proc/PID" + tail */
static void proc_path(char *buf, pid_t pid, const char *tail)
{
	size_t len;

	memcpy(buf, LIT("/proc/"));
	len = 6 + fmt_u64_base(buf + 6, (uint64_t)pid, 10);
	memcpy(buf + len, tail, strlen(tail) + 1);
}

/* start-stop-daemon's pid_is_exec: the name /proc/PID/exe shows, less a
 * " (deleted)" suffix, is today the file exe is (stat, the same inode).
 * A daemon whose executable dpkg renamed a new file over while it runs
 * shows "PATH (deleted)", and PATH is the new file: it is still found,
 * as start-stop-daemon finds it (not by the exe link's own inode, the
 * old one's, which no file has any more). */
static int pid_is_exec(pid_t pid, const struct stat *exe)
{
	static const char deleted[] = " (deleted)";
	char path[32], target[PATH_MAX + 1];
	struct stat st;
	ssize_t n;

	proc_path(path, pid, "/exe");
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return 0;
	target[n] = '\0';
	if ((size_t)n >= sizeof(deleted) - 1 &&
	    strcmp(target + n - (sizeof(deleted) - 1), deleted) == 0)
		target[n - (sizeof(deleted) - 1)] = '\0';
	return stat(target, &st) == 0 && st.st_dev == exe->st_dev &&
	       st.st_ino == exe->st_ino;
}

/* start-stop-daemon's pid_is_cmd: the command name (/proc/PID/status'
 * Name:, which /proc/PID/comm holds alone: 15 bytes at most) is name. */
static int pid_is_cmd(pid_t pid, const char *name)
{
	char path[32], comm[32];
	size_t len = strlen(name);
	ssize_t n;

	proc_path(path, pid, "/comm");
	n = read_small_file_close(AT_FDCWD, path, comm, sizeof(comm));
	return n == (ssize_t)len + 1 && memcmp(comm, name, len) == 0 &&
	       comm[len] == '\n';
}

/* start-stop-daemon --exec E (exe) or --name N (exe NULL) on one pid */
int xc_pid_matches(pid_t pid, const char *exe, const char *name)
{
	struct stat st;

	if (!exe)
		return pid_is_cmd(pid, name);
	return stat(exe, &st) == 0 && pid_is_exec(pid, &st);
}

/* start-stop-daemon --start --test --pidfile P --exec E: running? */
pid_t xc_running(const char *pidfile, const char *exe)
{
	pid_t pid = xc_pidfile_pid(pidfile);

	return pid && xc_pid_matches(pid, exe, NULL) ? pid : 0;
}

/* Wait for pid's end until deadline (clock_ms): 1 gone, 0 not. */
static int wait_gone(int pidfd, uint64_t deadline)
{
	struct pollfd p = { .fd = pidfd, .events = POLLIN };

	for (;;) {
		uint64_t now = clock_ms();

		if (poll(&p, 1, now >= deadline ? 0 : (int)(deadline - now)) > 0)
			return 1;
		if (clock_ms() >= deadline)
			return 0;
	}
}

/* One process through start-stop-daemon's schedule: SIGTERM (sig), 30 s
 * (first_ms), SIGKILL, 5 s. 0 stopped, 2 still there. */
static int stop_pid(pid_t pid, int sig, uint64_t first_ms)
{
	int fd = sys_pidfd_open(pid, 0), ret = 0;

	if (fd < 0)
		return fd == -ESRCH ? 0 : 2;
	if (sig)
		kill(pid, sig);
	if (!wait_gone(fd, clock_ms() + first_ms)) {
		kill(pid, SIGKILL);
		ret = wait_gone(fd, clock_ms() + 5000) ? 0 : 2;
	}
	close(fd);
	return ret;
}

/* start-stop-daemon --stop --retry=TERM/30/KILL/5 --pidfile P (--exec E
 * | --name N): 0 stopped, 1 none running, 2 still running. */
int xc_stop_pidfile(const char *pidfile, const char *exe, const char *name)
{
	pid_t pid = xc_pidfile_pid(pidfile);

	if (!pid || !xc_pid_matches(pid, exe, name))
		return 1;
	return stop_pid(pid, SIGTERM, 30000);
}

/* start-stop-daemon --stop --oknodo --retry=0/30/KILL/5 --exec E, as the
 * script runs it for xenconsoled after the pid file's: every process of
 * E, whoever runs it (no --user: a user's own run of the world-executable
 * xenconsoled too), is waited for, all at once, 30 s; those left get
 * SIGKILL and 5 s. One bound for all, as start-stop-daemon's, however many
 * there are. */
#define XC_STRAYS_MAX 32   /* pidfds at once; more: rescanned as these end */
struct strays {
	struct stat exe;
	struct pollfd p[XC_STRAYS_MAX];
	size_t n;
	int sig, unwatched;
};

static int each_stray(int dirfd, const char *name, void *ctx)
{
	struct strays *s = ctx;
	uint64_t pid;
	int fd;

	(void)dirfd;
	if (parse_u64(name, &pid) || pid > 0x3fffffff ||
	    !pid_is_exec((pid_t)pid, &s->exe))
		return 0;
	if (s->sig)
		kill((pid_t)pid, s->sig);
	fd = s->n < XC_STRAYS_MAX ? sys_pidfd_open((pid_t)pid, 0) : -EMFILE;
	if (fd >= 0) {
		s->p[s->n].fd = fd;
		s->p[s->n++].events = POLLIN;
	} else if (fd != -ESRCH) {
		s->unwatched = 1;   /* found again by the next scan */
	}
	return 0;
}

/* Every process of exe sent sig (0: none), then waited for until
 * deadline: 1 none left, 0 some. A pidfd each; where one could not be had
 * (more than XC_STRAYS_MAX, no fd left), /proc is scanned again every
 * 100 ms; else once the pidfds have all ended, to find any started
 * meanwhile, as start-stop-daemon's next poll would. */
int xc_strays_gone(const struct stat *exe, int sig, uint64_t deadline)
{
	static struct strays s;
	int past = 0;

	for (;;) {
		s.exe = *exe;
		s.n = 0;
		s.sig = sig;
		s.unwatched = 0;
		sig = 0;   /* the signal step once; the wait finds, never signals */
		each_entry("/proc", each_stray, &s);
		if (!s.n && !s.unwatched)
			return 1;
		for (size_t left = s.n; !past && (left || s.unwatched);) {
			uint64_t now = clock_ms();
			int ms = now >= deadline ? 0 : (int)(deadline - now);

			if (s.unwatched && ms > 100)
				ms = 100;
			if (poll(s.p, s.n, ms) <= 0) {
				past = clock_ms() >= deadline;
				break;
			}
			for (size_t i = 0; i < s.n; i++)
				if (s.p[i].fd >= 0 && s.p[i].revents) {
					close(s.p[i].fd);
					s.p[i].fd = -1;
					left--;
				}
		}
		for (size_t i = 0; i < s.n; i++)
			if (s.p[i].fd >= 0)
				close(s.p[i].fd);
		if (past)
			return 0;
	}
}

/* start-stop-daemon --start --pidfile P --exec E -- ARGS: E runs (and
 * daemonizes itself); its status. */
int xc_start_daemon(const char *exe, char *args, const char *pidopt,
		    const char *pidfile, int flags)
{
	static char *argv[INITSCRIPT_VALUE_MAX / 2 + 4];
	size_t n = 1;

	argv[0] = (char *)exe;
	n = initscript_split(argv, n, args);
	argv[n++] = (char *)pidopt;
	argv[n++] = (char *)pidfile;
	argv[n] = NULL;
	return xc_run(argv, flags);
}
