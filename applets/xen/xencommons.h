// SPDX-License-Identifier: MIT
/* xencommons.h - what the xencommons applet's three files share, each
 * calling only into the files below it (tests/build/cycles.sh):
 * xencommons.c (the steps of start and stop, status, main) calls into
 * xencommons-xenstored.c (the applet's state: its settings and the
 * tools' paths; xenstored's start and readiness), and both into
 * xencommons-proc.c (the processes, as start-stop-daemon handles them).
 * Not an interface: nothing else includes it. */
#ifndef FORKLESS_XENCOMMONS_H
#define FORKLESS_XENCOMMONS_H

#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "initscript.h"
#include "xen.h"

#define XC_XENSTORED_PIDFILE "/run/xenstore.pid"

/* ---- xencommons-xenstored.c: the state, xenstored ------------------------ */

enum { V_XENSTORED, V_XENSTORED_ARGS, V_XENCONSOLED_ARGS, V_XENSTORED_DIR,
       V_COUNT };

/* The settings (/etc/default/xen), and the tools' paths, $ROOT/bin/NAME:
 * root is "/usr/lib/xen-" + version (xencommons_main sets them). */
struct xc {
	char var[V_COUNT][INITSCRIPT_VALUE_MAX];
	char root[XEN_DIR_MAX];
	char oxenstored[XEN_DIR_MAX + 16], cxenstored[XEN_DIR_MAX + 16],
	     xenconsoled[XEN_DIR_MAX + 16], init_dom0[XEN_DIR_MAX + 16];
};
extern struct xc xc;

/* buf = root + "/bin/" + name */
void xc_bin_path(char *buf, const char *name);
/* The environment without XENSTORED_DIR and XENSTORED_ROOTDIR. */
void xc_env_init(void);
/* The file that identifies the xenstored started as path, as
 * start-stop-daemon --exec names it (the tool, for the Xen wrapper). */
const char *xc_xenstored_exe(const char *path);
/* The script's xenstored_start: 0, 1 (no xenstored started: the script
 * prints why), 2 (not ready, or xen-init-dom0 failed). */
int xc_xenstored_start(void);

/* ---- xencommons-proc.c: the processes ------------------------------------ */

enum { RUN_OOM = 1, RUN_QUIET_OUT = 2, RUN_QUIET_ERR = 4 };

/* [ -x PATH ] as root asks it (the plain syscall) */
int xc_executable(const char *path);
/* Run argv[0] and wait for it: its exit status, 128 + a signal, 127 when
 * it could not run. A bare name is looked up in the script's PATH. */
int xc_run(char **argv, int flags);
/* [ -x /sbin/restorecon ] && /sbin/restorecon PATH */
void xc_restorecon(const char *path);
/* The pid a pid file holds (as start-stop-daemon reads it), or 0. */
pid_t xc_pidfile_pid(const char *pidfile);
/* start-stop-daemon --exec E (exe) or --name N (exe NULL) on one pid */
int xc_pid_matches(pid_t pid, const char *exe, const char *name);
/* start-stop-daemon --start --test --pidfile P --exec E: its pid, or 0 */
pid_t xc_running(const char *pidfile, const char *exe);
/* start-stop-daemon --stop --retry=TERM/30/KILL/5 --pidfile P (--exec E
 * | --name N): 0 stopped, 1 none running, 2 still running. */
int xc_stop_pidfile(const char *pidfile, const char *exe, const char *name);
/* Every process of exe sent sig (0: none), then waited for until
 * deadline (clock_ms): 1 none left, 0 some. */
int xc_strays_gone(const struct stat *exe, int sig, uint64_t deadline);
/* start-stop-daemon --start --pidfile P --exec E -- ARGS (args split in
 * place): E runs (and daemonizes itself); its status. */
int xc_start_daemon(const char *exe, char *args, const char *pidopt,
		    const char *pidfile, int flags);

#endif
