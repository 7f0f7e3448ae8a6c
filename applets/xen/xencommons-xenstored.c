// SPDX-License-Identifier: MIT
/* xencommons-xenstored.c - the xencommons applet's state (xencommons.h:
 * the settings of /etc/default/xen and the tools' paths under
 * /usr/lib/xen-VERSION) and the script's xenstored_start: xenstored
 * started unless one runs, with the environment the script gives it,
 * then waited for until its socket answers a READ of / (inotify and a
 * pidfd wake the wait, 30 s at most), then xen-init-dom0. Calls only into
 * xencommons-proc.c, below it; xencommons.c calls in. */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libcommon.h"
#include "sys.h"
#include "xencommons.h"
#include "xenstore.h"

extern char **environ;

#define XC_WAIT_MS 30000          /* the script's 30 tries of xenstore-read */
#define XC_WRAPPER "/usr/lib/xen-common/bin/xen-utils-wrapper"

struct xc xc;

/* $ROOT/bin/NAME: "/usr/lib/xen-" + version + "/bin/" + NAME */
void xc_bin_path(char *buf, const char *name)
{
	size_t len = strlen(xc.root);

	memcpy(buf, xc.root, len);
	memcpy(buf + len, LIT("/bin/"));
	memcpy(buf + len + 5, name, strlen(name) + 1);
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

/* The environment without XENSTORED_DIR and XENSTORED_ROOTDIR (the script
 * sets the first before reading /etc/default/xen, exports the second),
 * in a static array: no setenv, no heap. */
#define XC_ENV_MAX 1024
static char *env[XC_ENV_MAX + 2];
static size_t env_n;

void xc_env_init(void)
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
	memcpy(rootdir + 18, xc.var[V_XENSTORED_DIR],
	       strlen(xc.var[V_XENSTORED_DIR]) + 1);
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
			pid_t pid = xc_pidfile_pid(XC_XENSTORED_PIDFILE);

			/* its pid file once written (not a stale one's) */
			if (pid && pid != stale && !xc_pid_matches(pid, exe, NULL))
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
const char *xc_xenstored_exe(const char *path)
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
		xc_bin_path(tool, name);
		return tool;
	}
	return path;
}

/* The script's xenstored_start: 0, 1 (no xenstored started: the script
 * prints why), 2 (not ready, or xen-init-dom0 failed). */
int xc_xenstored_start(void)
{
	const char *tries[2] = { xc.oxenstored, xc.cxenstored }, *why;
	const char *started = NULL;
	size_t n = 2;
	struct xs_conn xs;
	pid_t stale;

	for (size_t i = 0; i < 2; i++)
		if (xc_executable(tries[i]) &&
		    xc_running(XC_XENSTORED_PIDFILE, tries[i]))
			return 0;
	say(" xenstored");
	if (mkdir_p(xc.var[V_XENSTORED_DIR]) < 0)
		write_strs(2, "mkdir: cannot create directory '",
			   xc.var[V_XENSTORED_DIR], "': ", errno_text(errno), "\n");
	xc_restorecon(xc.var[V_XENSTORED_DIR]);
	export_rootdir();
	if (*xc.var[V_XENSTORED]) {
		tries[0] = xc.var[V_XENSTORED];
		n = 1;
	}
	stale = xc_pidfile_pid(XC_XENSTORED_PIDFILE);
	for (size_t i = 0; i < n && !started; i++) {
		static char args[INITSCRIPT_VALUE_MAX];

		memcpy(args, xc.var[V_XENSTORED_ARGS], sizeof(args));
		if (xc_executable(tries[i]) &&
		    xc_start_daemon(tries[i], args, "--pid-file",
				    XC_XENSTORED_PIDFILE, RUN_OOM) == 0)
			started = tries[i];
	}
	if (!started) {
		say("No suitable xenstored binary found to start. ... failed!\n");
		return 1;
	}
	why = wait_xenstored(&xs, xc_xenstored_exe(started), stale,
			     clock_ms() + XC_WAIT_MS);
	if (why) {
		warn_msg(started, ": ", XS_SOCKET, ": ", why);
		return 2;
	}
	if (access(xc.init_dom0, F_OK) == 0) {
		char *argv[] = { xc.init_dom0, NULL };

		xs_close(&xs);
		return xc_run(argv, RUN_QUIET_OUT) ? 2 : 0;
	}
	/* xen-init-dom0 has been there since stretch: the script's
	 * fallback */
	xs_write(&xs, 0, "/local/domain/0/name", "Domain-0");
	return xs_write(&xs, 0, "/local/domain/0/domid", "0") < 0 ? 2 : 0;
}
