// SPDX-License-Identifier: MIT
/* xencommons.c - Debian's /etc/init.d/xen (xen-utils-common 4.17, sh) as
 * an applet: the Xen daemons' start in a dom0 with no shell, no
 * start-stop-daemon, no choom, no xenstore-read and no sleep.
 *
 * Named xencommons, upstream Xen's name for the same script
 * (tools/hotplug/Linux/init.d/xencommons): `xen` is the wrapper applet's
 * name (/usr/sbin/xen). Installed at /usr/lib/xen-common/bin/xencommons,
 * as xendomains is; forkless-xen also links /etc/init.d/xen to it, and
 * an argv[0] ending in "/init.d/xen" runs this applet, not the xen one
 * (at= below): sysvinit's startpar, service(8), invoke-rc.d and the unit
 * systemd generates all run an init script by its full path. `./xen`
 * typed in /etc/init.d is still the xen applet: telling that apart would
 * take a syscall.
 *
 * The script, step by step (docs/xen.md lists every difference):
 * - /etc/default/xen read as `.` reads plain assignments
 *   (libcommon/shvars.c); a file that is more than that is the script's:
 *   exec of /etc/init.d/xen.distrib;
 * - /sys/hypervisor/type not "xen": exit 0; no /usr/lib/xen-VERSION: a
 *   warning, exit 1; an unknown action: its usage line, exit 3;
 * - start: the modules xenfs, xen-evtchn, xen-gntdev, xen-acpi-processor
 *   (modprobe run only for one that /sys/module lacks), xenfs mounted on
 *   /proc/xen, not a dom0 (no control_d): done; /run/xen made; xenstored
 *   started unless one runs (its pid file's process is oxenstored's or
 *   xenstored's executable, as start-stop-daemon --test checks), with
 *   oom_score_adj -1000 written by its child before the exec (the
 *   script's choom), and waited for by its socket answering a READ of /
 *   (the script polls xenstore-read -s / with sleep 1), 30 s at most;
 *   xen-init-dom0; xenconsoled and the dom0 QEMU started unless running;
 * - stop: QEMU and xenconsoled stopped (SIGTERM, 30 s, SIGKILL, 5 s, as
 *   start-stop-daemon --retry=TERM/30/KILL/5), never xenstored;
 * - restart, force-reload: each of them stopped and started again;
 * - status (not the script's): LSB codes.
 * The waits are a pidfd and inotify, never a sleep.
 */
//applet:XENCOMMONS xencommons usr/lib/xen-common/bin/xencommons xencommons_main 0 at=/init.d/xen
//usage:Usage: xencommons {start|stop|restart|force-reload|status}
//usage:
//usage:Debian's /etc/init.d/xen without a shell: start loads the Xen
//usage:modules, mounts xenfs, starts xenstored (waiting for it to answer,
//usage:30 s at most), runs xen-init-dom0 and starts xenconsoled and the
//usage:dom0 QEMU; stop, restart and force-reload stop (and start) QEMU and
//usage:xenconsoled; status reports the daemons. Settings are read from
//usage:/etc/default/xen (plain assignments; another file is handed to
//usage:/etc/init.d/xen.distrib, Debian's script).
//exit:0 done (not under Xen, not a dom0: nothing done)
//exit:1 a daemon did not start, xenfs not mounted, no Xen utils for this Xen
//exit:3 unknown action (status: a daemon is not running)
//exit:4 status unknown
//replaces:Debian's `/etc/init.d/xen` (sh, Xen's xencommons)
//package:`forkless-xen` diverts Debian's `/etc/init.d/xen` to `xen.distrib` and puts the applet there, with `xen.service`: [xen.md](xen.md#installing-xencommons)
//messages:Debian's LSB lines on stdout (`Starting Xen daemons: ...`), word for word; a failure's reason on stderr as `xencommons: WHAT: WHY`. Details: [xen.md](xen.md#xencommons)

//config:config XENCOMMONS
//config:	bool "xencommons: the Xen daemons' start, /etc/init.d/xen (~7.5 KiB)"
//config:	default y
//config:	help
//config:	  Debian's /etc/init.d/xen (sh) as an applet: modules,
//config:	  xenfs, xenstored (ready when its socket answers, not by
//config:	  polling), xen-init-dom0, xenconsoled and the dom0 QEMU,
//config:	  with start-stop-daemon's pid-file checks in-process.
//config:

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "initscript.h"
#include "libcommon.h"
#include "sys.h"
#include "xen.h"
#include "xenstore.h"

extern char **environ;

#define XC_WAIT_MS 30000          /* the script's 30 tries of xenstore-read */
#define XC_XENSTORED_PIDFILE "/run/xenstore.pid"
#define XC_XENCONSOLED_PIDFILE "/run/xenconsoled.pid"
#define XC_QEMU_PIDFILE "/run/qemu-dom0.pid"
#define XC_QEMU "/usr/libexec/xen-qemu-system-i386"
#define XC_CAPS "/proc/xen/capabilities"
#define XC_WRAPPER "/usr/lib/xen-common/bin/xen-utils-wrapper"

enum { V_XENSTORED, V_XENSTORED_ARGS, V_XENCONSOLED_ARGS, V_XENSTORED_DIR,
       V_COUNT };
static const char *const var_names[V_COUNT] = {
	"XENSTORED", "XENSTORED_ARGS", "XENCONSOLED_ARGS", "XENSTORED_DIR",
};
static char var[V_COUNT][INITSCRIPT_VALUE_MAX];

static const struct initscript xc_script = {
	.unit = "xen",
	.defaults = "/etc/default/xen",
	.initd = "/etc/init.d/xen",
	.distrib = "/etc/init.d/xen.distrib",
	.vars = var_names,
	.nvars = V_COUNT,
	.value = var,
};

/* $ROOT/bin/NAME: "/usr/lib/xen-" + version + "/bin/" + NAME */
static char root[XEN_DIR_MAX];
static char oxenstored[XEN_DIR_MAX + 16], cxenstored[XEN_DIR_MAX + 16],
	    xenconsoled[XEN_DIR_MAX + 16], init_dom0[XEN_DIR_MAX + 16];

static void bin_path(char *buf, const char *name)
{
	size_t len = strlen(root);

	memcpy(buf, root, len);
	memcpy(buf + len, LIT("/bin/"));
	memcpy(buf + len + 5, name, strlen(name) + 1);
}

/* [ -x PATH ] as root asks it (the plain syscall) */
static int executable(const char *path)
{
	return *path && sys_faccessat(AT_FDCWD, path, X_OK) == 0;
}

/* [ -x /sbin/restorecon ] && /sbin/restorecon PATH */
static int run(char **argv, int flags);
static void restorecon(const char *path)
{
	char *argv[] = { (char *)"/sbin/restorecon", (char *)path, NULL };

	if (executable(argv[0]))
		run(argv, 0);
}

/* mkdir -p PATH (mode 0777 less the umask); 0 or -1 with errno */
static int mkdir_p(const char *dir)
{
	char path[INITSCRIPT_VALUE_MAX];
	size_t len = strlen(dir);
	struct stat st;

	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
		return 0;
	memcpy(path, dir, len + 1);
	for (size_t i = 1; i <= len; i++) {
		if (path[i] != '/' && path[i] != '\0')
			continue;
		path[i] = '\0';
		if (mkdir(path, 0777) < 0 && errno != EEXIST)
			return -1;
		path[i] = i == len ? '\0' : '/';
	}
	return 0;
}

/* ---- processes ------------------------------------------------------------ */

enum { RUN_OOM = 1, RUN_QUIET_OUT = 2, RUN_QUIET_ERR = 4 };

/* Run argv[0] and wait for it: its exit status, 128 + a signal, 127 when
 * it could not run. A bare name is looked up in the script's PATH. */
static int run(char **argv, int flags)
{
	static const char *const path[] = { "/sbin/", "/bin/", "/usr/sbin/",
					    "/usr/bin/" };
	int status;
	pid_t pid = vfork();

	if (pid == 0) {
		char buf[64];
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
		if (strchr(argv[0], '/'))
			execve(argv[0], argv, environ);
		else
			for (size_t i = 0; i < ARRAY_SIZE(path); i++) {
				size_t len = strlen(path[i]);

				if (len + strlen(argv[0]) >= sizeof(buf))
					break;
				memcpy(buf, path[i], len);
				memcpy(buf + len, argv[0], strlen(argv[0]) + 1);
				execve(buf, argv, environ);
			}
		write_strs(2, "xencommons: cannot run ", argv[0], ": ",
			   errno_text(errno), "\n");
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 127;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The pid a pid file holds (as start-stop-daemon reads it), or 0. */
static pid_t pidfile_pid(const char *pidfile)
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
static int pid_matches(pid_t pid, const char *exe, const char *name)
{
	struct stat st;

	if (!exe)
		return pid_is_cmd(pid, name);
	return stat(exe, &st) == 0 && pid_is_exec(pid, &st);
}

/* start-stop-daemon --start --test --pidfile P --exec E: running? */
static pid_t running(const char *pidfile, const char *exe)
{
	pid_t pid = pidfile_pid(pidfile);

	return pid && pid_matches(pid, exe, NULL) ? pid : 0;
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
static int stop_pidfile(const char *pidfile, const char *exe, const char *name)
{
	pid_t pid = pidfile_pid(pidfile);

	if (!pid || !pid_matches(pid, exe, name))
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
static int strays_gone(const struct stat *exe, int sig, uint64_t deadline)
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
static int start_daemon(const char *exe, char *args, const char *pidopt,
			const char *pidfile, int flags)
{
	static char *argv[INITSCRIPT_VALUE_MAX / 2 + 4];
	size_t n = 1;

	argv[0] = (char *)exe;
	n = initscript_split(argv, n, args);
	argv[n++] = (char *)pidopt;
	argv[n++] = (char *)pidfile;
	argv[n] = NULL;
	return run(argv, flags);
}

/* ---- xenstored ------------------------------------------------------------- */

/* The environment without XENSTORED_DIR and XENSTORED_ROOTDIR (the script
 * sets the first before reading /etc/default/xen, exports the second),
 * in a static array: no setenv, no heap. */
#define XC_ENV_MAX 1024
static char *env[XC_ENV_MAX + 2];
static size_t env_n;

static void env_init(void)
{
	for (char **e = environ; *e && env_n < XC_ENV_MAX; e++)
		if (strncmp(*e, LIT("XENSTORED_DIR=")) &&
		    strncmp(*e, LIT("XENSTORED_ROOTDIR=")))
			env[env_n++] = *e;
	environ = env;
}

/* export XENSTORED_ROOTDIR="$XENSTORED_DIR" */
static void export_rootdir(void)
{
	static char rootdir[18 + INITSCRIPT_VALUE_MAX];

	memcpy(rootdir, LIT("XENSTORED_ROOTDIR="));
	memcpy(rootdir + 18, var[V_XENSTORED_DIR],
	       strlen(var[V_XENSTORED_DIR]) + 1);
	env[env_n] = rootdir;
}

/* Until xenstored's socket answers a READ of / (xenstore-read -s /), the
 * daemon ends, or the deadline: inotify on the socket's directory (and its
 * parent while it is missing) and a pidfd on the pid file's process wake
 * the wait; no sleep. A socket there but refusing (bound, not yet
 * listening) is tried again every 10 ms. 0, or a reason. */
static const char *wait_xenstored(struct xs_conn *xs, const char *exe,
				  pid_t stale, uint64_t deadline)
{
	char buf[XS_PAYLOAD_MAX + 1];
	int in = inotify_init1(IN_CLOEXEC | IN_NONBLOCK), pidfd = -1;

	for (;;) {
		struct pollfd p[2];
		uint64_t now;
		int ret, tick = 0;

		if (in >= 0) {
			/* the socket made; its directory made; the pid file
			 * written (/var/run is /run on Debian: one watch, one
			 * mask, the last call's) */
			inotify_add_watch(in, "/var/run/xenstored",
					  IN_CREATE | IN_MOVED_TO | IN_ATTRIB);
			inotify_add_watch(in, "/var/run", IN_CREATE |
					  IN_MOVED_TO | IN_CLOSE_WRITE);
			inotify_add_watch(in, "/run", IN_CREATE |
					  IN_MOVED_TO | IN_CLOSE_WRITE);
		}
		if (pidfd < 0) {
			pid_t pid = pidfile_pid(XC_XENSTORED_PIDFILE);

			/* its pid file once written (not a stale one's) */
			if (pid && pid != stale && !pid_matches(pid, exe, NULL))
				return "it ended before answering";
			if (pid && pid != stale)
				pidfd = sys_pidfd_open(pid, 0);
			if (pidfd == -ESRCH)
				return "it ended before answering";
		}
		ret = xs_open_socket(xs, deadline);
		if (ret == 0) {
			long n = xs_read(xs, 0, "/", buf, sizeof(buf));

			if (n >= 0)
				return NULL;
			xs_close(xs);
			if (n == -ETIMEDOUT)
				return "no answer within 30 s";
			tick = 1;
		} else if (ret == -ETIMEDOUT) {
			return "no answer within 30 s";
		} else if (ret != -ENOENT) {
			tick = 1;
		}
		now = clock_ms();
		if (now >= deadline)
			return "no answer within 30 s";
		p[0].fd = pidfd;
		p[0].events = POLLIN;
		p[1].fd = in;
		p[1].events = POLLIN;
		if (in < 0)
			tick = 1;
		if (poll(p, 2, tick && deadline - now > 10 ? 10 :
			 (int)(deadline - now)) > 0) {
			if (p[0].revents)
				return "it ended before answering";
			while (read(in, buf, sizeof(buf)) > 0)
				;
		}
	}
}

/* The file that identifies the xenstored started as path, as
 * start-stop-daemon --exec names it: path itself (stat follows a symlink
 * to its file); where path is the Xen wrapper, the tool the wrapper
 * execs, $ROOT/bin/NAME with NAME path's last component ($0's, as the
 * wrapper takes it: Debian's /usr/sbin/oxenstored is a link to it). The
 * wrapper is the file at /usr/lib/xen-common/bin/xen-utils-wrapper
 * (Debian's script, or forkless where forkless-xen put it) or this
 * binary (whose wrapper applet runs any name that is no applet's). */
static const char *xenstored_exe(const char *path)
{
	static char tool[XEN_DIR_MAX + 6 + NAME_MAX];
	const char *name = strrchr(path, '/'),
		   *self = (const char *)getauxval(AT_EXECFN);
	struct stat st, w;

	name = name ? name + 1 : path;
	if (!*name || strlen(name) >= NAME_MAX || stat(path, &st) < 0)
		return path;
	if ((stat(XC_WRAPPER, &w) == 0 && w.st_dev == st.st_dev &&
	     w.st_ino == st.st_ino) ||
	    (self && stat(self, &w) == 0 && w.st_dev == st.st_dev &&
	     w.st_ino == st.st_ino)) {
		bin_path(tool, name);
		return tool;
	}
	return path;
}

/* The script's xenstored_start: 0, 1 (no xenstored started: the script
 * prints why), 2 (not ready, or xen-init-dom0 failed). */
static int xenstored_start(void)
{
	const char *tries[2] = { oxenstored, cxenstored }, *why;
	const char *started = NULL;
	size_t n = 2;
	struct xs_conn xs;
	pid_t stale;

	for (size_t i = 0; i < 2; i++)
		if (executable(tries[i]) && running(XC_XENSTORED_PIDFILE, tries[i]))
			return 0;
	say(" xenstored");
	if (mkdir_p(var[V_XENSTORED_DIR]) < 0)
		write_strs(2, "mkdir: cannot create directory '",
			   var[V_XENSTORED_DIR], "': ", errno_text(errno), "\n");
	restorecon(var[V_XENSTORED_DIR]);
	export_rootdir();
	if (*var[V_XENSTORED]) {
		tries[0] = var[V_XENSTORED];
		n = 1;
	}
	stale = pidfile_pid(XC_XENSTORED_PIDFILE);
	for (size_t i = 0; i < n && !started; i++) {
		static char args[INITSCRIPT_VALUE_MAX];

		memcpy(args, var[V_XENSTORED_ARGS], sizeof(args));
		if (executable(tries[i]) &&
		    start_daemon(tries[i], args, "--pid-file",
				 XC_XENSTORED_PIDFILE, RUN_OOM) == 0)
			started = tries[i];
	}
	if (!started) {
		say("No suitable xenstored binary found to start. ... failed!\n");
		return 1;
	}
	why = wait_xenstored(&xs, xenstored_exe(started), stale,
			     clock_ms() + XC_WAIT_MS);
	if (why) {
		warn_msg(started, ": ", XS_SOCKET, ": ", why);
		return 2;
	}
	if (access(init_dom0, F_OK) == 0) {
		char *argv[] = { init_dom0, NULL };

		xs_close(&xs);
		return run(argv, RUN_QUIET_OUT) ? 2 : 0;
	}
	/* xen-init-dom0 has been there since stretch: the script's
	 * fallback */
	xs_write(&xs, 0, "/local/domain/0/name", "Domain-0");
	return xs_write(&xs, 0, "/local/domain/0/domid", "0") < 0 ? 2 : 0;
}

/* ---- xenconsoled and QEMU -------------------------------------------------- */

struct daemon {
	const char *name, *exe, *pidfile, *pidopt;
	char *args;
};

static char qemu_args[] = "-xen-domid 0 -xen-attach -name dom0 -nographic "
	"-M xenpv -daemonize -monitor none -serial none -parallel none";
static struct daemon consoled = {
	"xenconsoled", xenconsoled, XC_XENCONSOLED_PIDFILE, "--pid-file",
	var[V_XENCONSOLED_ARGS],
};
static struct daemon qemu = {
	"qemu", XC_QEMU, XC_QEMU_PIDFILE, "-pidfile", qemu_args,
};

/* *_start_real: 0 started, 1 already running, 2 failed */
static int daemon_start(const struct daemon *d)
{
	static char args[INITSCRIPT_VALUE_MAX];

	if (running(d->pidfile, d->exe))
		return 1;
	memcpy(args, d->args, strlen(d->args) + 1);
	return start_daemon(d->exe, args, d->pidopt, d->pidfile, 0) ? 2 : 0;
}

/* *_stop_real: 0 stopped, 1 none ran, 2 failed */
static int daemon_stop(const struct daemon *d)
{
	int ret;

	if (d == &qemu) {
		ret = stop_pidfile(d->pidfile, d->exe, NULL);
	} else {
		struct stat exe;

		ret = stop_pidfile(d->pidfile, NULL, "xenconsoled");
		if (ret == 2)
			return 2;
		if (stat(d->exe, &exe) == 0 &&
		    !strays_gone(&exe, 0, clock_ms() + 30000) &&
		    !strays_gone(&exe, SIGKILL, clock_ms() + 5000))
			return 2;
	}
	if (ret != 2)
		unlink(d->pidfile);
	return ret;
}

/* ACTION of one daemon, as the script's qemu_ and xenconsoled_ functions:
 * 0 or 1 fine, 2 failed. */
enum { A_START, A_STOP, A_RESTART };
static int daemon_action(const struct daemon *d, int action)
{
	int ret;

	if (d == &qemu && !executable(XC_QEMU))
		return 0;
	say(" ", d->name);
	if (action == A_START)
		return daemon_start(d);
	ret = daemon_stop(d);
	if (action == A_STOP || ret == 2)
		return ret;
	return daemon_start(d) ? 2 : 0;
}

/* ---- status (not the script's) --------------------------------------------- */

static int status_line(const char *name, pid_t pid)
{
	char num[12];

	num[fmt_u64_base(num, (uint64_t)pid, 10)] = '\0';
	if (pid)
		say(name, " is running (", num, ").\n");
	else
		say(name, " is not running.\n");
	return pid ? 0 : 3;
}

static int do_status(void)
{
	pid_t pid = running(XC_XENSTORED_PIDFILE, oxenstored);
	int ret;

	if (!pid)
		pid = running(XC_XENSTORED_PIDFILE, cxenstored);
	if (!pid && *var[V_XENSTORED])
		pid = running(XC_XENSTORED_PIDFILE,
			      xenstored_exe(var[V_XENSTORED]));
	ret = status_line("xenstored", pid);
	ret |= status_line("xenconsoled", running(consoled.pidfile, xenconsoled));
	if (executable(XC_QEMU))
		ret |= status_line("qemu", running(qemu.pidfile, XC_QEMU));
	return ret;
}

/* ---- the program --------------------------------------------------------------- */

static void modules_setup(void)
{
	static const char *const mods[][2] = {
		{ "xenfs", "xenfs" }, { "xen-evtchn", "xen_evtchn" },
		{ "xen-gntdev", "xen_gntdev" },
		{ "xen-acpi-processor", "xen_acpi_processor" },
	};
	char path[48];

	for (size_t i = 0; i < ARRAY_SIZE(mods); i++) {
		char *argv[] = { (char *)"modprobe", (char *)mods[i][0], NULL };

		memcpy(path, LIT("/sys/module/"));
		memcpy(path + 12, mods[i][1], strlen(mods[i][1]) + 1);
		if (access(path, F_OK) < 0)
			run(argv, RUN_QUIET_ERR);
	}
}

/* xenfs_setup: 0, or 1 (not mounted) */
static int xenfs_setup(void)
{
	struct stat st;

	if (access(XC_CAPS, F_OK) == 0)
		return 0;
	say(" xenfs");
	if (stat("/proc/xen", &st) < 0 || !S_ISDIR(st.st_mode))
		return 1;
	if (mount("xenfs", "/proc/xen", "xenfs", 0, NULL) < 0) {
		warn_msg("mount xenfs on /proc/xen: ", errno_text(errno));
		return 1;
	}
	return 0;
}

static int fail_end(void)
{
	say(" failed!\n");
	return 1;
}

static int do_start(void)
{
	struct stat st;

	say("Starting Xen daemons:");
	modules_setup();
	if (xenfs_setup())
		return fail_end();
	if (!xen_control_d()) {
		say(".\n");
		return 0;
	}
	if (stat("/run/xen", &st) < 0 || !S_ISDIR(st.st_mode)) {
		if (mkdir("/run/xen", 0700) < 0)
			write_strs(2, "mkdir: cannot create directory '/run/xen': ",
				   errno_text(errno), "\n");
		else
			chmod("/run/xen", 0700);
		restorecon("/run/xen");
	}
	if (xenstored_start() || daemon_action(&consoled, A_START) == 2 ||
	    daemon_action(&qemu, A_START) == 2)
		return fail_end();
	say(".\n");
	return 0;
}

int xencommons_main(int argc, char **argv)
{
	const char *action = argc > 1 ? argv[1] : "";
	char type[64];
	struct xen_version xv;
	struct xen_fds fds;
	struct stat st;
	ssize_t n;
	int act, ret = 0;

	initscript_systemd_redirect(&xc_script, argv[0], action);
	memcpy(var[V_XENSTORED_DIR], "/run/xenstored", sizeof("/run/xenstored"));
	env_init();
	initscript_read_settings(&xc_script, argv);
	n = read_small_file_close(AT_FDCWD, "/sys/hypervisor/type", type,
				  sizeof(type));
	while (n > 0 && type[n - 1] == '\n')   /* $(cat ...) */
		n--;
	if (!LIT_IS(type, n, "xen"))
		return 0;   /* not running under Xen */
	xen_fds_init(&fds);
	ret = xen_read_version(&xv, &fds);
	xen_fds_close(&fds);
	if (ret < 0)
		xv.str[0] = '\0';
	memcpy(root, LIT("/usr/lib/xen-"));
	memcpy(root + sizeof("/usr/lib/xen-") - 1, xv.str, strlen(xv.str) + 1);
	if (ret < 0 || stat(root, &st) < 0 || !S_ISDIR(st.st_mode)) {
		xen_no_tools_error(xv.str);
		say("No compatible Xen utils for Xen ", xv.str, " ... (warning).\n");
		return 1;
	}
	bin_path(oxenstored, "oxenstored");
	bin_path(cxenstored, "xenstored");
	bin_path(xenconsoled, "xenconsoled");
	bin_path(init_dom0, "xen-init-dom0");
	lsb_fancy_init();
	if (strcmp(action, "start") == 0)
		return do_start();
	if (strcmp(action, "status") == 0)
		return do_status();
	if (strcmp(action, "stop") == 0)
		act = A_STOP;
	else if (strcmp(action, "restart") == 0 ||
		 strcmp(action, "force-reload") == 0)
		act = A_RESTART;
	else {
		write_strs(2, "Usage: ", argv[0],
			   " {start|stop|restart|force-reload}\n");
		return 3;
	}
	if (!xen_control_d())
		return 1;
	say(act == A_STOP ? "Stopping Xen daemons:" : "Restarting Xen daemons:");
	ret = daemon_action(&qemu, act) == 2;
	ret |= daemon_action(&consoled, act) == 2;
	say(ret ? " failed!\n" : ".\n");
	return 0;
}
