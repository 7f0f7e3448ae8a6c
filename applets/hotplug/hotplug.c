// SPDX-License-Identifier: MIT
/* hotplug.c - the Xen hotplug applets' shared part (see hotplug.h):
 * locking.sh's claim_lock/release_lock, the realpath the scripts take
 * from readlink -f, the fallback to Debian's script, and the check of a
 * call's command and arguments (findCommand, evalVariables). The
 * environment is hotplug-env.c's, logging hotplug-log.c's, xenstore
 * hotplug-xenstore.c's. Each applet's //config:, //applet: and //usage:
 * lines are in its own file (vif-bridge.c, vif-route.c, block.c); the
 * menu is Config.in. Section GC drops what no enabled applet uses.
 *
 * Call graph: hp_lock() -> lock_dir() (stat; mkdir, or for a wide
 * directory the lock file's removal -> lock_refused() when held, and
 * chmod), open, flock (-> lock_file_wrong(), lock_refused(),
 * hp_log_flush() before waiting), fstat, lock_file_wrong(), stat; hp_check_command() -> plain_assignment(), and for a
 * call it cannot take hp_fallback() -> hp_log_flush(), execve of
 * NAME.distrib; hp_have_hooks() -> each_entry() -> is_hook().
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hotplug.h"
#include "sys.h"

extern char **environ;

/* ---- locks --------------------------------------------------------------- */

/* What is wrong with the lock file fd is (st, from fstat: the file
 * opened, not whatever the path names by now), or NULL. Only root can
 * open a file in HP_LOCK_DIR (0700: lock_dir), so a file of another
 * owner, or no regular file, was not made by claim_lock. A file of
 * root's wider than 0600 is Debian's locking.sh's (its umask: 0644):
 * wide is only a file made while the directory was (lock_dir). */
static const char *lock_file_wrong(const struct stat *st, char *buf, int wide)
{
	if (!S_ISREG(st->st_mode))
		return "is not a regular file";
	if (st->st_uid != 0) {
		memcpy(buf, LIT("is owned by uid "));
		buf[16 + fmt_u64_base(buf + 16, st->st_uid, 10)] = '\0';
		return buf;
	}
	if (wide && (st->st_mode & 077)) {
		memcpy(buf, LIT("has mode 0"));
		buf[10 + fmt_u64_base(buf + 10, st->st_mode & 0777, 8)] = '\0';
		return buf;
	}
	return NULL;
}

/* A held lock file that any user may have opened: refused, never waited
 * for (flock needs only read access: its holder may be any user, who
 * would keep every block call waiting until libxl kills it). */
static _Noreturn void lock_refused(struct hotplug *h, const char *wrong)
{
	hp_fatal(h, "lock file ", h->lock_path, " ", wrong,
		 " (must be root's, mode 0600) and is held:"
		 " not waiting for whoever holds it");
}

/* HP_LOCK_DIR: root's, 0700, made so when missing (umask may narrow it,
 * never widen it). Debian's locking.sh makes it with mkdir -p (0755) and
 * its files with its umask (0644): any user may have opened one while
 * the directory was wide, and hold a flock on it for ever. So a wider
 * directory is tightened once the lock file in it is gone: taken (then
 * removed, as release_lock removes it) or missing; held, it is refused
 * and the directory left as it is, for the next call to refuse as well.
 * Its parent, /var/run, is root's: no user can swap it meanwhile. */
static void lock_dir(struct hotplug *h)
{
	struct stat st;
	char why[32];
	int fd;

	if (stat(HP_LOCK_DIR, &st) < 0) {
		if (errno != ENOENT ||
		    (mkdir(HP_LOCK_DIR, 0700) < 0 && errno != EEXIST))
			hp_fatal(h, "cannot create ", HP_LOCK_DIR, ": ",
				 errno_text(errno));
		return;
	}
	if (!S_ISDIR(st.st_mode))
		hp_fatal(h, "lock directory ", HP_LOCK_DIR, " is not a directory");
	if (st.st_uid != 0) {
		why[fmt_u64_base(why, st.st_uid, 10)] = '\0';
		hp_fatal(h, "lock directory ", HP_LOCK_DIR, " is owned by uid ",
			 why, ", not root");
	}
	if (!(st.st_mode & 077))
		return;
	why[fmt_u64_base(why, st.st_mode & 07777, 8)] = '\0';
	fd = openat(AT_FDCWD, h->lock_path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
		    O_NOCTTY | O_NONBLOCK);
	if (fd >= 0) {
		struct stat fst;
		char buf[32];
		const char *wrong;

		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			if (fstat(fd, &fst) < 0 ||
			    !(wrong = lock_file_wrong(&fst, buf, 1)))
				wrong = "was made while anybody could open it";
			lock_refused(h, wrong);
		}
		hp_log(h, HP_NOTICE, "lock file ", h->lock_path,
		       " made while anybody could open it: removed");
		unlink(h->lock_path);
		close(fd);
	} else if (errno == ELOOP) {
		unlink(h->lock_path);   /* a symlink: never claim_lock's */
	}
	if (chmod(HP_LOCK_DIR, 0700) < 0)
		hp_fatal(h, "cannot make lock directory ", HP_LOCK_DIR,
			 " (mode 0", why, ") 0700: ", errno_text(errno));
	hp_log(h, HP_NOTICE, "lock directory ", HP_LOCK_DIR, " had mode 0",
	       why, ": now 0700");
}

void hp_lock(struct hotplug *h, const char *name)
{
	size_t len = 0;

	h->lock_path[0] = '\0';
	if (str_append(h->lock_path, sizeof(h->lock_path), &len, HP_LOCK_DIR "/",
		       sizeof(HP_LOCK_DIR)) < 0 ||
	    str_append(h->lock_path, sizeof(h->lock_path), &len, name,
		       strlen(name)) < 0)
		hp_fatal(h, "lock name too long: ", name);
	lock_dir(h);
	/* claim_lock: open (O_CREAT: 0600), flock, then the path must still
	 * name the file locked (a holder may have unlinked it meanwhile). */
	for (;;) {
		struct stat fd_st, path_st;
		char why[32];
		const char *wrong;
		int fd = openat(AT_FDCWD, h->lock_path, O_RDWR | O_CREAT |
				O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0600);

		if (fd < 0)
			hp_fatal(h, "cannot open lock file ", h->lock_path, ": ",
				 errno_text(errno));
		/* Taken at once, or held: then what is logged goes out
		 * first (a holder may keep it long), and the call waits --
		 * unless the file is not claim_lock's (lock_refused). The
		 * wait is not xenstore's: its deadline moves on by as much,
		 * so a call that waited long still has its 30 s for
		 * xenstore (libxl's 40 s are for the whole call). */
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			uint64_t from = clock_ms();

			if (fstat(fd, &fd_st) == 0 &&
			    (wrong = lock_file_wrong(&fd_st, why, 0)))
				lock_refused(h, wrong);
			h->lock_waited = 1;
			hp_log_flush(h);
			while (flock(fd, LOCK_EX) < 0)
				if (errno != EINTR)
					hp_fatal(h, "cannot lock ", h->lock_path,
						 ": ", errno_text(errno));
			if (h->xs.fd >= 0)
				h->xs.deadline_ms += clock_ms() - from;
		}
		if (fstat(fd, &fd_st) == 0 && stat(h->lock_path, &path_st) == 0 &&
		    fd_st.st_dev == path_st.st_dev &&
		    fd_st.st_ino == path_st.st_ino) {
			if (!(wrong = lock_file_wrong(&fd_st, why, 1))) {
				h->lock_fd = fd;
				return;
			}
			/* Another's, or Debian's 0644 one left behind: held
			 * now, so it goes as release_lock removes one, and a
			 * new one is made, 0600. */
			hp_log(h, HP_NOTICE, "lock file ", h->lock_path, " ",
			       wrong, ": replaced by one of mode 0600");
			unlink(h->lock_path);
		}
		close(fd);
	}
}

void hp_unlock(struct hotplug *h)
{
	if (h->lock_fd < 0)
		return;
	/* release_lock: rm the file, as its holder (then the fd closes,
	 * where the script keeps it open until it exits: the same, since
	 * nobody can lock that file by its path any more). */
	unlink(h->lock_path);
	close(h->lock_fd);
	h->lock_fd = -1;
}

/* ---- paths --------------------------------------------------------------- */

int hp_resolve(const char *path, char *out, size_t cap)
{
	char proc[32] = "/proc/self/fd/";
	int fd = openat(AT_FDCWD, path, O_PATH | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	proc[14 + fmt_u64_base(proc + 14, (uint64_t)fd, 10)] = '\0';
	n = readlink(proc, out, cap - 1);
	if (n < 0 || (size_t)n >= cap - 1) {
		int err = n < 0 ? -errno : -ENAMETOOLONG;

		close(fd);
		return err;
	}
	out[n] = '\0';
	return fd;
}

int hp_realpath(const char *path, char *out, size_t cap)
{
	int fd = hp_resolve(path, out, cap);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

int hp_reopen(int pathfd, int flags)
{
	char proc[32] = "/proc/self/fd/";

	proc[14 + fmt_u64_base(proc + 14, (uint64_t)pathfd, 10)] = '\0';
	return openat(AT_FDCWD, proc, flags | O_CLOEXEC);
}

/* ---- the fallback -------------------------------------------------------- */

_Noreturn void hp_fallback(struct hotplug *h, const char *why)
{
	char path[64], *argv0;
	size_t len = 0;

	path[0] = '\0';
	str_append(path, sizeof(path), &len, HP_SCRIPT_DIR "/",
		   sizeof(HP_SCRIPT_DIR));
	str_append(path, sizeof(path), &len, h->name, strlen(h->name));
	str_append(path, sizeof(path), &len, LIT(".distrib"));
	hp_log(h, HP_NOTICE, "handing over to ", path, ": ", why);
	if (h->xs.fd >= 0) {
		xs_close(&h->xs);   /* O_CLOEXEC anyway; the script opens its own */
		h->xs_err = 1;      /* reopened should the exec fail, */
		h->npend = 0;       /* without the replies it took along */
	}
	hp_log_flush(h);   /* the script logs on its own */
	argv0 = h->argv[0];
	h->argv[0] = path;
	execve(path, h->argv, environ);
	h->argv[0] = argv0;
	hp_fatal(h, "cannot run ", path, " (", why, "): ", errno_text(errno));
}

static int is_hook(int dirfd, const char *name, void *ctx)
{
	size_t n = strlen(name);

	(void)ctx;
	/* call_hooks sources DIR/NAME.hook when executable ([ -x ]) */
	return n > 5 && strcmp(name + n - 5, ".hook") == 0 &&
	       sys_faccessat(dirfd, name, X_OK) == 0;
}

int hp_have_hooks(const char *dir)
{
	return each_entry(dir, is_hook, NULL) > 0;
}

void hp_log_call(struct hotplug *h)
{
	char args[HP_MSG_MAX];
	size_t len = 0;

	/* xen-hotplug-common.sh: log debug "$*" "XENBUS_PATH=$XENBUS_PATH" */
	args[0] = '\0';
	for (int i = 1; i < h->argc; i++) {
		if (i > 1)
			str_append(args, sizeof(args), &len, LIT(" "));
		str_append(args, sizeof(args), &len, h->argv[i],
			   strlen(h->argv[i]));
	}
	hp_log(h, HP_DEBUG, args, " XENBUS_PATH=",
	       h->xb_path ? h->xb_path : "");
}

/* Would `eval "NAME=VALUE"` be a plain assignment of VALUE as it is? A
 * name that is no shell identifier, or a value with quoting, expansion or
 * an operator in it, is left to the script's own eval. */
static int plain_assignment(const char *arg, const char *eq)
{
	if (!(isalpha((unsigned char)*arg) || *arg == '_'))
		return 0;
	for (const char *p = arg + 1; p < eq; p++)
		if (!(isalnum((unsigned char)*p) || *p == '_'))
			return 0;
	return eq[1] != '~' && !eq[1 + strcspn(eq + 1, " \t\n'\"\\$`;&|<>()")];
}

void hp_check_command(struct hotplug *h, const char *const *commands,
		      int eval_vars)
{
	const char *command = hp_edits(h);

	if (command)
		hp_fallback(h, command);
	/* findCommand: the first argument without a '='. evalVariables (the
	 * vif scripts only) evals the ones with a '=' after the first byte;
	 * anything else is ignored, as by the scripts. */
	for (int i = 1; i < h->argc; i++) {
		const char *a = h->argv[i], *eq = strchr(a, '=');

		if (!eq) {
			if (!command)
				command = a;
		} else if (eval_vars && eq != a && !plain_assignment(a, eq)) {
			hp_fallback(h, "an argument the script would eval as shell code");
		}
	}
	if (eval_vars && h->argc > 1) {
		hp_assign = h->argv + 1;
		hp_nassign = h->argc - 1;
		h->xb_path = hp_env("XENBUS_PATH");
	}
	h->command = command ? command : "";
	for (const char *const *c = commands; *c; c++)
		if (strcmp(h->command, *c) == 0)
			return;
	hp_log(h, HP_ERR, "Invalid command: ", h->command);
	hp_exit(h, 1);
}
