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
 *
 * The steps are here; xenstored's start and readiness, and the applet's
 * settings, in xencommons-xenstored.c; the processes (start-stop-daemon's
 * part) in xencommons-proc.c (xencommons.h).
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
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "initscript.h"
#include "libcommon.h"
#include "xen.h"
#include "xencommons.h"

#define XC_XENCONSOLED_PIDFILE "/run/xenconsoled.pid"
#define XC_QEMU_PIDFILE "/run/qemu-dom0.pid"
#define XC_QEMU "/usr/libexec/xen-qemu-system-i386"
#define XC_CAPS "/proc/xen/capabilities"

static const char *const var_names[V_COUNT] = {
	"XENSTORED", "XENSTORED_ARGS", "XENCONSOLED_ARGS", "XENSTORED_DIR",
};

static const struct initscript xc_script = {
	.unit = "xen",
	.defaults = "/etc/default/xen",
	.initd = "/etc/init.d/xen",
	.distrib = "/etc/init.d/xen.distrib",
	.vars = var_names,
	.nvars = V_COUNT,
	.value = xc.var,
};

/* ---- xenconsoled and QEMU -------------------------------------------------- */

struct daemon {
	const char *name, *exe, *pidfile, *pidopt;
	char *args;
};

static char qemu_args[] = "-xen-domid 0 -xen-attach -name dom0 -nographic "
	"-M xenpv -daemonize -monitor none -serial none -parallel none";
static struct daemon consoled = {
	"xenconsoled", xc.xenconsoled, XC_XENCONSOLED_PIDFILE, "--pid-file",
	xc.var[V_XENCONSOLED_ARGS],
};
static struct daemon qemu = {
	"qemu", XC_QEMU, XC_QEMU_PIDFILE, "-pidfile", qemu_args,
};

/* *_start_real: 0 started, 1 already running, 2 failed */
static int daemon_start(const struct daemon *d)
{
	static char args[INITSCRIPT_VALUE_MAX];

	if (xc_running(d->pidfile, d->exe))
		return 1;
	memcpy(args, d->args, strlen(d->args) + 1);
	return xc_start_daemon(d->exe, args, d->pidopt, d->pidfile, 0) ? 2 : 0;
}

/* *_stop_real: 0 stopped, 1 none ran, 2 failed */
static int daemon_stop(const struct daemon *d)
{
	int ret;

	if (d == &qemu) {
		ret = xc_stop_pidfile(d->pidfile, d->exe, NULL);
	} else {
		struct stat exe;

		ret = xc_stop_pidfile(d->pidfile, NULL, "xenconsoled");
		if (ret == 2)
			return 2;
		if (stat(d->exe, &exe) == 0 &&
		    !xc_strays_gone(&exe, 0, clock_ms() + 30000) &&
		    !xc_strays_gone(&exe, SIGKILL, clock_ms() + 5000))
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

	if (d == &qemu && !xc_executable(XC_QEMU))
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
	pid_t pid = xc_running(XC_XENSTORED_PIDFILE, xc.oxenstored);
	int ret;

	if (!pid)
		pid = xc_running(XC_XENSTORED_PIDFILE, xc.cxenstored);
	if (!pid && *xc.var[V_XENSTORED])
		pid = xc_running(XC_XENSTORED_PIDFILE,
				 xc_xenstored_exe(xc.var[V_XENSTORED]));
	ret = status_line("xenstored", pid);
	ret |= status_line("xenconsoled",
			   xc_running(consoled.pidfile, xc.xenconsoled));
	if (xc_executable(XC_QEMU))
		ret |= status_line("qemu", xc_running(qemu.pidfile, XC_QEMU));
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
			xc_run(argv, RUN_QUIET_ERR);
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
		xc_restorecon("/run/xen");
	}
	if (xc_xenstored_start() || daemon_action(&consoled, A_START) == 2 ||
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
	memcpy(xc.var[V_XENSTORED_DIR], "/run/xenstored", sizeof("/run/xenstored"));
	xc_env_init();
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
	memcpy(xc.root, LIT("/usr/lib/xen-"));
	memcpy(xc.root + sizeof("/usr/lib/xen-") - 1, xv.str, strlen(xv.str) + 1);
	if (ret < 0 || stat(xc.root, &st) < 0 || !S_ISDIR(st.st_mode)) {
		xen_no_tools_error(xv.str);
		say("No compatible Xen utils for Xen ", xv.str, " ... (warning).\n");
		return 1;
	}
	xc_bin_path(xc.oxenstored, "oxenstored");
	xc_bin_path(xc.cxenstored, "xenstored");
	xc_bin_path(xc.xenconsoled, "xenconsoled");
	xc_bin_path(xc.init_dom0, "xen-init-dom0");
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
