/* hotplug.c - the Xen hotplug applets' shared part (see hotplug.h):
 * locking.sh's claim_lock/release_lock, the realpath the scripts take
 * from readlink -f, the fallback to Debian's script, and the check of a
 * call's command and arguments (findCommand, evalVariables). The
 * environment is hotplug-env.c's, logging hotplug-log.c's, xenstore
 * hotplug-xenstore.c's. Each applet's //config:, //applet: and //usage:
 * lines are in its own file (vif-bridge.c, vif-route.c, block.c); the
 * menu is Config.in. Section GC drops what no enabled applet uses.
 *
 * Call graph: hp_lock() -> mkdir, open, flock (-> hp_log_flush() before
 * waiting), stat; hp_check_command() -> plain_assignment(), and for a
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

void hp_lock(struct hotplug *h, const char *name)
{
	size_t len = 0;

	h->lock_path[0] = '\0';
	if (str_append(h->lock_path, sizeof(h->lock_path), &len, HP_LOCK_DIR "/",
		       sizeof(HP_LOCK_DIR)) < 0 ||
	    str_append(h->lock_path, sizeof(h->lock_path), &len, name,
		       strlen(name)) < 0)
		hp_fatal(h, "lock name too long: ", name);
	/* claim_lock: mkdir -p the directory, open (O_CREAT), flock, then
	 * the path must still name the file locked (a holder may have
	 * unlinked it meanwhile). The directory is made when the open finds
	 * it missing: after the first call it is there. */
	for (;;) {
		struct stat fd_st, path_st;
		int fd = -1;

		for (int made = 0; fd < 0 && made < 2; made++) {
			if (made && mkdir(HP_LOCK_DIR, 0755) < 0 && errno != EEXIST)
				hp_fatal(h, "cannot create ", HP_LOCK_DIR, ": ",
					 errno_text(errno));
			fd = openat(AT_FDCWD, h->lock_path,
				    O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY, 0666);
			if (fd < 0 && errno != ENOENT)
				break;
		}
		if (fd < 0)
			hp_fatal(h, "cannot open ", h->lock_path, ": ",
				 errno_text(errno));
		/* Taken at once, or held: then what is logged goes out
		 * first (a holder may keep it long), and the call waits. */
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			h->lock_waited = 1;
			hp_log_flush(h);
			while (flock(fd, LOCK_EX) < 0)
				if (errno != EINTR)
					hp_fatal(h, "cannot lock ", h->lock_path,
						 ": ", errno_text(errno));
		}
		if (fstat(fd, &fd_st) == 0 && stat(h->lock_path, &path_st) == 0 &&
		    fd_st.st_dev == path_st.st_dev &&
		    fd_st.st_ino == path_st.st_ino) {
			h->lock_fd = fd;
			return;
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

int hp_realpath(const char *path, char *out, size_t cap)
{
	char proc[32] = "/proc/self/fd/";
	int fd = openat(AT_FDCWD, path, O_PATH | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	proc[14 + fmt_u64_base(proc + 14, (uint64_t)fd, 10)] = '\0';
	n = readlink(proc, out, cap - 1);
	close(fd);
	if (n < 0)
		return -errno;
	if ((size_t)n >= cap - 1)
		return -ENAMETOOLONG;
	out[n] = '\0';
	return 0;
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
	str_append(path, sizeof(path), &len, HP_LIT(".distrib"));
	hp_log(h, HP_NOTICE, "handing over to ", path, ": ", why);
	if (h->xs.fd >= 0) {
		xs_close(&h->xs);   /* O_CLOEXEC anyway; the script opens its own */
		h->xs_err = 1;      /* reopened should the exec fail */
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
			str_append(args, sizeof(args), &len, " ", 1);
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
	const char *command = NULL;

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
