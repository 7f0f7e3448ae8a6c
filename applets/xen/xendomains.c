// SPDX-License-Identifier: MIT
/* xendomains.c - Debian's /etc/init.d/xendomains (xen-utils-common 4.17)
 * as an applet: a dom0's guests saved at shutdown and restored (or
 * created from /etc/xen/auto) at boot, with no shell, no python3, no
 * sleep/seq/cat/rm processes: each domain action is one xl process,
 * exec'd at the path Debian's `xen` wrapper resolves.
 *
 * Long because: the script's start, stop and status, step by step in its
 * order; the domain actions they run are xendomains-jobs.c's.
 *
 * The script, step by step (docs/xen.md lists every difference):
 * - the LSB hook of a systemd host: called by hand as /etc/init.d/NAME,
 *   the action goes to `systemctl ACTION xendomains.service`;
 * - not a dom0 (`xen list` fails, no /proc/xen/privcmd): exit 0;
 * - /etc/default/xendomains read as `.` reads plain assignments
 *   (libcommon/shvars.c); a file that is more than that is the script's:
 *   exec of /etc/init.d/xendomains.distrib;
 * - start: every regular file of XENDOMAINS_SAVE restored (name order;
 *   the image removed once restored), then every config of
 *   XENDOMAINS_AUTO created unless its domain was just restored or runs;
 * - stop: every domU migrated (XENDOMAINS_MIGRATE), saved
 *   (XENDOMAINS_SAVE), shut down and waited for, migrations and saves
 *   and each wait bounded by XENDOMAINS_STOP_MAXWAIT + 1 seconds (SIGINT
 *   to xl at the deadline);
 * - restart, reload, force-reload: stop, then start.
 * The script polls: `sleep 1` around every save and every wait, `xen
 * domid` per check. Here a child's end is a SIGCHLD read from a
 * signalfd and a domain's end is xenstore's @releaseDomain watch, so each
 * step ends as soon as its last domain does; a one-second tick only
 * prints the script's "..." progress marks.
 *
 * XENDOMAINS_PARALLEL=N (not the script's): restores, migrations, saves,
 * shutdowns and waits N at a time, their lines still printed whole and in
 * the sequential order. 1 (the default) is the script's order exactly.
 *
 * Where a fault would lose a guest or restore a broken image with the
 * script, the applet does not (docs/xen.md, "Faults"): xl saves into
 * DIR/.NAME.saving, renamed to DIR/NAME once xl succeeded (a failed save's
 * partial image is removed and said; the glob skips dot names, so a save
 * cut short is never restored, and start reports one it finds); SIGTERM,
 * SIGINT or SIGHUP start no further action, the running xl processes are
 * waited for (a save cut short loses its guest), and the applet exits
 * 128 + the signal; xenstore gone between two steps of stop ends the stop
 * with the domains left named, starting no xl that would hang on it.
 */
//applet:XENDOMAINS xendomains usr/lib/xen-common/bin/xendomains xendomains_main 0
//usage:Usage: xendomains {start|stop|restart|reload|force-reload|status}
//usage:
//usage:Debian's /etc/init.d/xendomains without a shell: start restores
//usage:the domains saved in XENDOMAINS_SAVE and creates those of
//usage:XENDOMAINS_AUTO; stop migrates, saves, shuts down and waits for
//usage:every domU; restart, reload and force-reload stop, then start;
//usage:status lists the auto and running domains. Settings are read
//usage:from /etc/default/xendomains (plain assignments; another file is
//usage:handed to /etc/init.d/xendomains.distrib, Debian's script).
//usage:XENDOMAINS_PARALLEL=N runs N domain actions at a time.
//exit:0 done (failed domains are reported on stdout, as the script does)
//exit:1 xenstore unreachable or gone, or a setting unusable
//exit:3 unknown action (status: an auto domain is not running)
//exit:4 status unknown
//exit:128+N stopped by signal N (SIGTERM, SIGINT, SIGHUP), xl children waited
//replaces:Debian's `/etc/init.d/xendomains` (bash)
//package:`forkless-xen` diverts Debian's `/etc/init.d/xendomains` to `xendomains.distrib` and puts the applet there, with `xendomains.service`: [xen.md](xen.md#installing-xendomains)
//messages:Debian's LSB lines on stdout (`Restoring Xen domains: NAME.`), word for word; warnings and a failure's reason on stderr as `xendomains: WHAT`. Details: [xen.md](xen.md#xendomains)

//config:config XENDOMAINS
//config:	bool "xendomains: save, restore and auto-start domUs (~13 KiB)"
//config:	default y
//config:	help
//config:	  Debian's /etc/init.d/xendomains (bash) as an applet: each
//config:	  domain action is one xl process, waits are a xenstore watch
//config:	  and a signalfd instead of sleep/seq polling, and
//config:	  XENDOMAINS_PARALLEL runs saves and restores N at a time.
//config:	  Uses xen-init-name's and xen-init-list's readers in-process.
//config:	  Costs about 13 KiB of the default build; without
//config:	  XENCOMMONS, which shares the /etc/default reader and the
//config:	  LSB helpers (initscript.c), about 18 KiB.
//config:

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "initscript.h"
#include "libcommon.h"
#include "sdnotify.h"
#include "xen.h"
#include "xen-init.h"
#include "xenstore.h"
#include "xendomains.h"

extern char **environ;

#define XD_DEFAULTS "/etc/default/xendomains"
#define XD_SCRIPT "/etc/init.d/xendomains.distrib"
#define XD_INITD "/etc/init.d/xendomains"
#define XD_PRIVCMD "/proc/xen/privcmd"
#define XD_PARALLEL_MAX 64

/* ---- settings ------------------------------------------------------------ */

static const char *const var_names[V_COUNT] = {
	"XENDOMAINS_SAVE", "XENDOMAINS_RESTORE", "XENDOMAINS_AUTO",
	"XENDOMAINS_MIGRATE", "XENDOMAINS_STOP_MAXWAIT", "XENDOMAINS_PARALLEL",
};



/* A setting of /etc/default/xendomains that neither Debian's script nor
 * this applet reads: one warning naming it (a typo, or a name of Xen's own
 * sysconfig.xendomains, whose scripts do more than Debian's: what Debian's
 * does instead). Behaviour stays Debian's. */
static void unused_setting(const char *name, size_t len)
{
	static const struct { const char *name, *instead; } upstream[] = {
		{ "XENDOMAINS_AUTO_ONLY", "every domU is saved or shut down, "
		  "not only those of XENDOMAINS_AUTO" },
		{ "XENDOMAINS_SHUTDOWN", "a domU still running is shut down "
		  "(xl shutdown), then waited for" },
		{ "XENDOMAINS_SHUTDOWN_ALL", "every domU still running is shut "
		  "down (xl shutdown), then waited for" },
		{ "XENDOMAINS_SYSRQ", "no sysrq is sent" },
		{ "XENDOMAINS_USLEEP", "the waits are on events, not sleeps" },
		{ "XENDOMAINS_CREATE_USLEEP", "each domain is created once the "
		  "last xl ended; XENDOMAINS_PARALLEL=N: N at a time" },
	};
	char shown[SHOWN_MAX];
	const char *why = "neither Debian's script nor xendomains reads it";

	for (size_t i = 0; i < ARRAY_SIZE(upstream); i++)
		if (strlen(upstream[i].name) == len &&
		    memcmp(upstream[i].name, name, len) == 0)
			why = upstream[i].instead;
	warn_msg(XD_DEFAULTS, ": ", shown_input(shown, sizeof(shown), name, len),
		 " is not used (", why, ")");
}

static const struct initscript xd_script = {
	.unit = "xendomains",
	.defaults = XD_DEFAULTS,
	.initd = XD_INITD,
	.distrib = XD_SCRIPT,
	.vars = var_names,
	.nvars = V_COUNT,
	.value = xd.var,
	.unused = unused_setting,
};

/* `seq 0 $XENDOMAINS_STOP_MAXWAIT`'s count - 1: a number (a fraction
 * rounds down, as seq's steps do), -1 for a negative one (no step), and
 * for anything seq refuses a warning and -1 (the script's seq prints an
 * error and the loop runs no step either). The expansion is unquoted:
 * blanks around the number go with the word splitting ("300 " is seq 0
 * 300); a value of several words is not taken (seq would read FIRST
 * INCREMENT LAST). */
static long parse_maxwait(const char *v)
{
	static const char ifs[] = " \t\n";
	const char *p = v + strspn(v, ifs);
	size_t len = strlen(p), digits;
	uint64_t n;

	while (len && strchr(ifs, p[len - 1]))
		len--;
	if (!len) {   /* `seq 0 $EMPTY` is `seq 0`: no step, no message */
		warn_msg("XENDOMAINS_STOP_MAXWAIT is not set: migrations, saves "
			 "and waits get no time, as with Debian's script");
		return -1;
	}
	if (*p == '-' && p[1] >= '0' && p[1] <= '9')
		return -1;
	if (*p == '+') {
		p++;
		len--;
	}
	digits = strspn(p, "0123456789");
	if (digits && (digits == len ||
		       (p[digits] == '.' && digits + 1 + strspn(p + digits + 1,
								"0123456789") == len)) &&
	    parse_u64_base(p, digits, 10, &n) == 0)
		return n > 86400 * 365 ? 86400 * 365 : (long)n;
	warn_msg("XENDOMAINS_STOP_MAXWAIT='", v, "' is not a number of "
		 "seconds: migrations, saves and waits get no time, as with "
		 "Debian's script");
	return -1;
}

static unsigned parse_parallel(const char *v)
{
	uint64_t n;

	if (!*v)
		return 1;
	/* Not a reason to leave the domains unsaved at shutdown: said,
	 * and Debian's order (1) kept. */
	if (parse_u64(v, &n) < 0 || n < 1 || n > XD_PARALLEL_MAX) {
		warn_msg("XENDOMAINS_PARALLEL='", v, "' is not a number of "
			 "domains from 1 to 64: one at a time");
		return 1;
	}
	return (unsigned)n;
}

/* ---- a directory's entries, in the glob's order ---------------------------- */

#define XD_ENTRIES_MAX 65536
struct entries {
	char **e;
	size_t n;
	char *arena;
	size_t used;
	const char *dir;
};

static int add_entry(int dirfd, const char *name, void *ctx)
{
	struct entries *l = ctx;
	size_t dlen = strlen(l->dir), len = strlen(name);

	(void)dirfd;
	if (l->n == XD_ENTRIES_MAX)
		die_msg(EXIT_XD_FAIL, l->dir, ": more than 65536 entries");
	l->e[l->n++] = l->arena + l->used;
	memcpy(l->arena + l->used, l->dir, dlen);
	l->arena[l->used + dlen] = '/';
	memcpy(l->arena + l->used + dlen + 1, name, len + 1);
	l->used += dlen + len + 2;
	return 0;
}

/* Shell sort by strcmp (musl's qsort costs 2 KiB of the binary). */
static void sort_names(char **e, size_t n)
{
	size_t gap = 1;

	while (gap < n / 3)
		gap = gap * 3 + 1;
	for (; gap; gap /= 3)
		for (size_t i = gap; i < n; i++) {
			char *v = e[i];
			size_t j = i;

			for (; j >= gap && strcmp(e[j - gap], v) > 0; j -= gap)
				e[j] = e[j - gap];
			e[j] = v;
		}
}

/* DIR/NAME for every entry of dir whose name does not start with '.'
 * (bash's DIR/STAR glob), sorted by byte value (bash sorts by the locale's
 * collation: the same under the C locale). */
static void list_dir(struct entries *l, const char *dir)
{
	int ret;

	if (!l->e) {
		l->e = map(sizeof(char *) * XD_ENTRIES_MAX, "the entry list");
		l->arena = map((size_t)XD_ENTRIES_MAX * (XD_VALUE_MAX + NAME_MAX + 2),
			       "the entry names");
	}
	l->n = l->used = 0;
	l->dir = dir;
	ret = each_entry(dir, add_entry, l);
	if (ret < 0)
		warn_msg(dir, ": ", errno_text(-ret));
	sort_names(l->e, l->n);
}

/* [ -d PATH ], [ -f PATH ]: following symlinks. */
static int is_type(const char *path, mode_t type)
{
	struct stat st;

	return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == type;
}

/* ---- the steps ------------------------------------------------------------------ */

static struct job *jobs_map(void)
{
	static struct job *jobs;

	if (!jobs)
		jobs = map(sizeof(struct job) * (XD_ENTRIES_MAX > XEN_DOMID_LAST ?
						 XD_ENTRIES_MAX : XEN_DOMID_LAST + 1),
			   "the action list");
	return jobs;
}

static void clear_job(struct job *j)
{
	memset(j, 0, sizeof(*j));
	j->out = -1;
}

/* The restores' outcome by name, for the auto step (the script's
 * associative array domains[NAME]: started or failed). */
static struct entries restored;
static struct job *restore_jobs;

static const char *restored_as(const char *name)
{
	for (size_t i = 0; restore_jobs && i < restored.n; i++)
		if (restore_jobs[i].name && strcmp(restore_jobs[i].name, name) == 0)
			return restore_jobs[i].status ? "failed" : "started";
	return "";
}

/* A DIR/.NAME.saving left by a stop that ended mid-save (killed, the
 * power gone): said, kept for the admin, never restored (the glob skips
 * it, as Debian's script's does). each_entry_all's fn; ctx: DIR. */
static int report_unfinished(int dirfd, const char *name, void *ctx)
{
	size_t len = strlen(name);

	(void)dirfd;
	if (name[0] == '.' && LIT_ENDS(name, len, ".saving") &&
	    len > sizeof(".saving"))
		warn_msg((const char *)ctx, "/", name, ": an unfinished save (the "
			 "stop that wrote it ended first): kept, not restored");
	return 0;
}

static void do_start_restore(void)
{
	struct job *jobs = jobs_map();
	size_t n = 0;

	restored.n = 0;
	if (!*xd.var[V_SAVE] || !is_type(xd.var[V_SAVE], S_IFDIR) ||
	    !*xd.var[V_RESTORE])
		return;
	each_entry_all(xd.var[V_SAVE], report_unfinished, xd.var[V_SAVE]);
	list_dir(&restored, xd.var[V_SAVE]);
	for (size_t i = 0; i < restored.n; i++) {
		if (!is_type(restored.e[i], S_IFREG))
			continue;
		clear_job(&jobs[n]);
		jobs[n].file = restored.e[i];
		jobs[n].name = path_basename(restored.e[i]);
		n++;
	}
	restored.n = n;
	restore_jobs = jobs;
	run_jobs(K_RESTORE, jobs, n, xd.parallel);
}

static void do_start_auto(void)
{
	static struct entries autos;
	static struct job job;

	if (!*xd.var[V_AUTO] || !is_type(xd.var[V_AUTO], S_IFDIR))
		return;
	list_dir(&autos, xd.var[V_AUTO]);
	for (size_t i = 0; i < autos.n; i++) {
		struct xen_name_error e;
		long len = xen_config_name(autos.e[i], xd.names, &e);
		const char *name = "", *was;

		if (len >= 0) {
			xd.names->name[len] = '\0';
			name = xd.names->name;
		}
		was = *name ? restored_as(name) : "";
		if (strcmp(was, "started") == 0)
			continue;
		if (running(name)) {
			say("Xen domain ", name, " already running.\n");
			continue;
		}
		clear_job(&job);
		job.name = name;
		job.file = autos.e[i];
		if (strcmp(was, "failed") == 0) {
			begin_msg(K_CREATE, &job);
			log_action_end_msg(1, "restore failed");
			continue;
		}
		run_jobs(K_CREATE, &job, 1, 1);
	}
}

static void do_start(void)
{
	do_start_restore();
	if (!xd.stop_sig)
		do_start_auto();
}

/* One step of stop over the domUs listed now (the script runs
 * xen-init-list before each). */
static void stop_step(enum kind k)
{
	/* two lists in turn: the last step's names stay whole for the
	 * report when this step's listing fails half-way */
	static struct doms lists[2];
	static size_t last_n;
	static int flip;
	struct doms *l = &lists[flip ^= 1];
	struct job *jobs = jobs_map();
	char *save_paths = NULL;
	size_t used = 0;
	const char *what;
	char path[64];
	int ret;

	if (xd.stop_sig || xd.xs_gone)
		return;
	ret = list_domus_try(l, &what, path);
	if (ret < 0) {
		/* gone since the last step listed them: no xl now, it would
		 * hang on xenstore; the domains that step left are named */
		if (!last_n)
			xen_xs_die(&xd.xs, what, path, ret);
		xd.xs_gone = 1;
		warn_msg(xd.xs.dev ? xd.xs.dev : XS_SOCKET, ": ", what, " ", path,
			 ": ", ret == -ETIMEDOUT ? "no reply" : errno_text(-ret),
			 ": xenstore is gone, the stop ends here");
		for (size_t i = 0; i < last_n; i++) {
			char id[12];

			if (jobs[i].state == J_DONE && jobs[i].status == 0 &&
			    !jobs[i].skipped && k != K_WAIT)
				continue;   /* saved or migrated: gone */
			argv_id(id, jobs[i].id);
			say("Xen domain ", jobs[i].name, " (", id, ") is left as it is: "
			    "xenstore is gone.\n");
		}
		return;
	}
	if (k == K_SAVE)
		save_paths = map((size_t)(XEN_DOMID_LAST + 1) *
				 (XD_VALUE_MAX + XS_PAYLOAD_MAX + 2), "the image paths");
	for (size_t i = 0; i < l->n; i++) {
		clear_job(&jobs[i]);
		jobs[i].id = l->d[i].id;
		jobs[i].name = l->d[i].name;
		if (save_paths) {
			size_t dlen = strlen(xd.var[V_SAVE]);

			jobs[i].file = save_paths + used;
			memcpy(save_paths + used, xd.var[V_SAVE], dlen);
			save_paths[used + dlen] = '/';
			memcpy(save_paths + used + dlen + 1, l->d[i].name,
			       l->d[i].len + 1);
			used += dlen + l->d[i].len + 2;
		}
	}
	run_jobs(k, jobs, l->n, xd.parallel);
	last_n = l->n;
	if (save_paths)
		munmap(save_paths, (size_t)(XEN_DOMID_LAST + 1) *
		       (XD_VALUE_MAX + XS_PAYLOAD_MAX + 2));
}

/* mkdir -m 0700 -p DIR: the parents with the umask's mode, DIR 0700. */
static void make_save_dir(const char *dir)
{
	char path[XD_VALUE_MAX];
	size_t len = strlen(dir);

	memcpy(path, dir, len + 1);
	for (size_t i = 1; i <= len; i++) {
		if (path[i] != '/' && path[i] != '\0')
			continue;
		path[i] = '\0';
		int r = mkdir(path, i == len ? 0700 : 0777);

		if (r < 0 && errno != EEXIST) {
			write_strs(2, "mkdir: cannot create directory '", path,
				   "': ", errno_text(errno), "\n");
			return;
		}
		if (r == 0 && i == len)
			chmod(path, 0700);   /* mkdir -m: the mode whatever the umask */
		path[i] = i == len ? '\0' : '/';
	}
}

static void do_stop(void)
{
	xd.maxwait = parse_maxwait(xd.var[V_MAXWAIT]);
	if (*xd.var[V_MIGRATE])
		stop_step(K_MIGRATE);
	if (*xd.var[V_SAVE]) {
		if (!is_type(xd.var[V_SAVE], S_IFDIR))
			make_save_dir(xd.var[V_SAVE]);
		stop_step(K_SAVE);
	}
	stop_step(K_SHUTDOWN);
	stop_step(K_WAIT);
}

/* ---- status (not the script's) ------------------------------------------------ */

/* Every auto config's domain and whether it runs, every other running
 * domU, every image not restored: LSB status 0 when every auto domain
 * runs, 3 when one does not. */
static int do_status(void)
{
	static struct entries autos, images;
	static struct doms l;
	static char **auto_names;
	int down = 0;

	list_domus(&l);
	autos.n = 0;
	if (*xd.var[V_AUTO] && is_type(xd.var[V_AUTO], S_IFDIR)) {
		char *names;
		size_t used = 0;

		list_dir(&autos, xd.var[V_AUTO]);
		auto_names = map(sizeof(char *) * (autos.n + 1), "the names");
		names = map((autos.n + 1) * (size_t)(XS_PAYLOAD_MAX + 1), "the names");
		for (size_t i = 0; i < autos.n; i++) {
			struct xen_name_error e;
			long len = xen_config_name(autos.e[i], xd.names, &e);

			auto_names[i] = NULL;
			if (len < 0) {
				say("Xen domain config ", autos.e[i], ": no name (",
				    e.what, e.more, ").\n");
				down = 1;
				continue;
			}
			/* longer than xenstore holds: no domain has it */
			if (len > XS_PAYLOAD_MAX)
				len = XS_PAYLOAD_MAX;
			auto_names[i] = names + used;
			memcpy(names + used, xd.names->name, (size_t)len);
			names[used + (size_t)len] = '\0';
			used += (size_t)len + 1;
			if (running_in(&l, 0, auto_names[i])) {
				say("Xen domain ", auto_names[i], " (from ",
				    autos.e[i], ") is running.\n");
			} else {
				say("Xen domain ", auto_names[i], " (from ",
				    autos.e[i], ") is not running.\n");
				down = 1;
			}
		}
	}
	for (size_t i = 0; i < l.n; i++) {
		int listed = 0;

		for (size_t a = 0; a < autos.n && !listed; a++)
			listed = auto_names[a] && strcmp(auto_names[a], l.d[i].name) == 0;
		if (!listed) {
			char id[12];

			argv_id(id, l.d[i].id);
			say("Xen domain ", l.d[i].name, " (", id,
			    ") is running, not from XENDOMAINS_AUTO.\n");
		}
	}
	if (*xd.var[V_SAVE] && is_type(xd.var[V_SAVE], S_IFDIR)) {
		list_dir(&images, xd.var[V_SAVE]);
		for (size_t i = 0; i < images.n; i++)
			if (is_type(images.e[i], S_IFREG))
				say("Saved image ", images.e[i], " is waiting to "
				    "be restored.\n");
	}
	return down ? EXIT_XD_STATUS_DOWN : 0;
}

/* ---- the program ---------------------------------------------------------------- */

/* `xen list` would fail (not Xen, no xl for the running version, not a
 * dom0) or there is no /proc/xen/privcmd: the script exits 0. */
static int in_dom0(void)
{
	struct xen_version xv;
	struct xen_fds fds;

	xen_fds_init(&fds);
	if (xen_read_version(&xv, &fds) < 0 ||
	    xen_tool_path(xd.xl, sizeof(xd.xl), xv.str, "xl") < 0) {
		xen_fds_close(&fds);
		return 0;
	}
	xen_fds_close(&fds);
	if (access(xd.xl, X_OK) < 0 || access(XD_PRIVCMD, F_OK) < 0)
		return 0;
	return xen_control_d();
}

int xendomains_main(int argc, char **argv)
{
	const char *action = argc > 1 ? argv[1] : "";
	sigset_t chld, blocked;
	int ret;

	initscript_systemd_redirect(&xd_script, argv[0], action);
	if (!in_dom0())
		return 0;
	initscript_read_settings(&xd_script, argv);
	xd.parallel = parse_parallel(xd.var[V_PARALLEL]);
	xd.watch.fd = -1;
	lsb_fancy_init();
	if (strcmp(action, "start") && strcmp(action, "stop") &&
	    strcmp(action, "restart") && strcmp(action, "reload") &&
	    strcmp(action, "force-reload") && strcmp(action, "status")) {
		say("Usage: ", argv[0], " {start|stop|restart|reload|force-reload}\n");
		return EXIT_XD_USAGE;
	}
	ret = xs_open(&xd.xs, clock_ms() + XD_XS_MS);
	if (ret < 0) {
		if (strcmp(action, "status") == 0) {
			warn_msg(xd.xs.dev ? xd.xs.dev : XS_SOCKET, ": ",
				 errno_text(-ret));
			return EXIT_XD_STATUS_UNKNOWN;
		}
		die_msg(EXIT_XD_FAIL, xd.xs.dev ? xd.xs.dev : XS_SOCKET, ": ",
			errno_text(-ret));
	}
	{
		/* xenstore answers (the script's `xen list` would hang, or
		 * fail, otherwise): before any xl runs */
		char probe[XS_PAYLOAD_MAX + 1];
		long n = xs_directory(&xd.xs, 0, "/local/domain", probe, sizeof(probe));

		if (n < 0 && n != -ENOENT && n != -E2BIG) {
			if (strcmp(action, "status") == 0) {
				warn_msg(xd.xs.dev, ": DIRECTORY /local/domain: ",
					 n == -ETIMEDOUT ? "no reply within 5 s" :
					 errno_text((int)-n));
				return EXIT_XD_STATUS_UNKNOWN;
			}
			xen_xs_die(&xd.xs, "DIRECTORY", "/local/domain", n);
		}
	}
	xd.names = xen_name_buffers_map();
	if (!xd.names)
		die_msg(EXIT_XD_FAIL, "cannot map 4 MiB of buffers: ",
			errno_text(errno));
	if (strcmp(action, "status") == 0)
		return do_status();
	xd.nullfd = openat(AT_FDCWD, "/dev/null", O_WRONLY | O_CLOEXEC);
	if (xd.nullfd < 0)
		die_msg(EXIT_XD_FAIL, "/dev/null: ", errno_text(errno));
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigaddset(&chld, SIGTERM);
	sigaddset(&chld, SIGINT);
	sigaddset(&chld, SIGHUP);
	/* and SIGPIPE blocked, never read: a write to a xenstored that died
	 * fails EPIPE, and the stop says which domains it left instead of
	 * ending on the signal (the children's masks are emptied) */
	blocked = chld;
	sigaddset(&blocked, SIGPIPE);
	sigprocmask(SIG_BLOCK, &blocked, NULL);
	xd.sigfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
	if (xd.sigfd < 0)
		die_msg(EXIT_XD_FAIL, "signalfd: ", errno_text(errno));
	if (strcmp(action, "start") == 0) {
		do_start();
	} else if (strcmp(action, "stop") == 0) {
		do_stop();
	} else {
		do_stop();
		if (!xd.stop_sig && !xd.xs_gone)
			do_start();
	}
	if (xd.stop_sig)
		return 128 + xd.stop_sig;
	return xd.xs_gone ? EXIT_XD_FAIL : 0;
}
