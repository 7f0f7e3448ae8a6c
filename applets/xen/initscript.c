// SPDX-License-Identifier: MIT
/* initscript.c - the init-script applets' shared parts (initscript.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "initscript.h"
#include "shvars.h"

extern char **environ;

#define DEFAULTS_MAX (64 * 1024)

int lsb_fancy;

void lsb_fancy_init(void)
{
	struct termios tio;
	const char *term = getenv("TERM");

	lsb_fancy = ioctl(1, TCGETS, &tio) == 0 && term && *term &&
		    strcmp(term, "dumb") != 0;
}

void lsb_out(const char *const *list)
{
	write_line(1, NULL, list, NULL);
}

void log_action_end_msg(int status, const char *reason)
{
	const char *r1 = reason ? " (" : "", *r2 = reason ? reason : "",
		   *r3 = reason ? ")." : ".";

	if (status == 0)
		say("done", r1, r2, r3, "\n");
	else if (lsb_fancy)
		say("\033[31mfailed", r1, r2, r3, "\033[0m\n");
	else
		say("failed", r1, r2, r3, "\n");
}

/* ---- /etc/default/NAME ---------------------------------------------------- */

static int defaults_var(void *ctx, const char *name, size_t name_len,
			const char *value, size_t value_len)
{
	const struct initscript *s = ctx;

	for (size_t i = 0; i < s->nvars; i++)
		if (strlen(s->vars[i]) == name_len &&
		    memcmp(s->vars[i], name, name_len) == 0) {
			if (value_len >= INITSCRIPT_VALUE_MAX)
				return 1;
			memcpy(s->value[i], value, value_len + 1);
			return 0;
		}
	if (s->unused)
		s->unused(name, name_len);
	return 0;
}

static _Noreturn void hand_over(const struct initscript *s, char **argv,
				const char *why1, const char *why2,
				const char *why3)
{
	const char *script = s->distrib;
	struct stat self, it;

	/* Not diverted (the applet run from /usr/lib/xen-common/bin):
	 * Debian's script is still /etc/init.d/NAME, unless that is this
	 * binary itself. */
	if (access(s->distrib, F_OK) < 0 && stat(s->initd, &it) == 0 &&
	    stat("/proc/self/exe", &self) == 0 &&
	    (it.st_dev != self.st_dev || it.st_ino != self.st_ino))
		script = s->initd;
	warn_msg("handing over to ", script, ": ", s->defaults, why1, why2,
		 why3);
	argv[0] = (char *)script;
	execve(script, argv, environ);
	die_msg(1, "cannot run ", script, ": ", errno_text(errno));
}

void initscript_read_settings(const struct initscript *s, char **argv)
{
	static char text[DEFAULTS_MAX + 1], scratch[INITSCRIPT_VALUE_MAX + 1];
	struct shvars_error err;
	ssize_t n;
	int fd, ret;

	for (size_t i = 0; i < s->nvars; i++) {
		const char *v = getenv(s->vars[i]);

		if (v && strlen(v) < INITSCRIPT_VALUE_MAX)
			memcpy(s->value[i], v, strlen(v) + 1);
		else if (v)
			die_msg(1, s->vars[i], " in the environment: "
				"longer than 4095 bytes");
	}
	fd = openat(AT_FDCWD, s->defaults, OPEN_REGULAR);
	if (fd < 0 && errno == ENOENT)
		return;
	if (fd < 0)
		hand_over(s, argv, ": ", errno_text(errno), "");
	n = read_fd_all(fd, text, sizeof(text));
	close(fd);
	if (n == -EFBIG)
		hand_over(s, argv, ": larger than 64 KiB", "", "");
	if (n < 0)
		hand_over(s, argv, ": ", errno_text((int)-n), "");
	ret = shvars_parse(text, (size_t)n, scratch, sizeof(scratch),
			   defaults_var, (void *)s, &err);
	if (ret == SHVARS_NOT_PLAIN) {
		char line[24] = ":";

		line[1 + fmt_u64_base(line + 1, err.line, 10)] = '\0';
		hand_over(s, argv, line, ": ", err.what);
	}
	if (ret)
		hand_over(s, argv, ": a value longer than 4095 bytes", "", "");
}

/* ---- the LSB hook of a systemd host (/lib/lsb/init-functions.d/40-systemd) -- */

/* A unit masked: its file a symlink to /dev/null (or empty). */
static int masked(const char *unit)
{
	static const char *const dirs[] = {
		"/etc/systemd/system/", "/run/systemd/system/",
	};
	char path[PATH_MAX], target[16];
	struct stat st;

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		ssize_t n;

		size_t len = 0;

		path[0] = '\0';
		if (str_append(path, sizeof(path), &len, dirs[i], strlen(dirs[i])) < 0 ||
		    str_append(path, sizeof(path), &len, unit, strlen(unit)) < 0 ||
		    str_append(path, sizeof(path), &len, LIT(".service")) < 0)
			continue;
		n = readlink(path, target, sizeof(target));
		if (LIT_IS(target, n, "/dev/null"))
			return 1;
		if (n < 0 && lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_size == 0)
			return 1;
	}
	return 0;
}

/* Run by systemd itself (parent pid 1) or with SYSTEMCTL_SKIP_REDIRECT
 * set, the applet does the work. reload stays here: the units have no
 * ExecReload. */
void initscript_systemd_redirect(const struct initscript *s,
				 const char *argv0, const char *action)
{
	static const char *const actions[] = {
		"start", "stop", "restart", "force-reload", "try-restart",
		"status", NULL,
	};
	char dir[PATH_MAX], service[64];
	const char *base = path_basename(argv0), *what = NULL, *more = "";
	struct stat st, initd;
	size_t dlen = (size_t)(base - argv0);
	pid_t pid;
	int status;

	if (stat("/run/systemd/system", &st) < 0 || !S_ISDIR(st.st_mode))
		return;
	if (masked(s->unit))
		_exit(0);
	if (getppid() == 1 || getenv("SYSTEMCTL_SKIP_REDIRECT") ||
	    !strchr(argv0, '/') || dlen >= sizeof(dir))
		return;
	memcpy(dir, argv0, dlen);
	dir[dlen] = '\0';
	/* readlink -f "$0" is /etc/init.d/NAME: the directory it was run
	 * from is /etc/init.d (the applet itself is a link elsewhere) */
	if (stat(dlen ? dir : "/", &st) < 0 || stat("/etc/init.d", &initd) < 0 ||
	    st.st_dev != initd.st_dev || st.st_ino != initd.st_ino)
		return;
	for (const char *const *a = actions; *a; a++)
		if (strcmp(action, *a) == 0)
			what = *a;
	if (!what)
		return;
	if (strcmp(what, "start") == 0) {
		what = "Starting ";
	} else if (strcmp(what, "stop") == 0) {
		what = "Stopping ";
	} else if (strcmp(what, "force-reload") == 0) {
		what = "Reloading ";
		more = " configuration";
	} else if (strcmp(what, "try-restart") == 0) {
		what = "Restarting ";
		more = " if running";
	} else if (strcmp(what, "restart") == 0) {
		what = "Restarting ";
	} else {
		what = NULL;   /* status: no messages */
	}
	dlen = strlen(s->unit);
	if (dlen + 9 > sizeof(service))
		return;
	memcpy(service, s->unit, dlen);
	memcpy(service + dlen, ".service", sizeof(".service"));
	if (what)
		say(what, s->unit, more, " (via systemctl): ", service);
	pid = vfork();
	if (pid == 0) {
		char *argv[] = { (char *)"systemctl", (char *)"--no-pager",
				 (char *)action, service, NULL };

		execve("/bin/systemctl", argv, environ);
		execve("/usr/bin/systemctl", argv, environ);
		write_strs(2, s->unit, ": cannot run systemctl: ",
			   errno_text(errno), "\n");
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		status = 1 << 8;
	status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (what)
		say(status == 0 ? ".\n" : " failed!\n");
	_exit(status);
}

size_t initscript_split(char **argv, size_t n, char *value)
{
	for (char *p = value; *p;) {
		p += strspn(p, " \t\n");
		if (!*p)
			break;
		argv[n++] = p;
		p += strcspn(p, " \t\n");
		if (*p)
			*p++ = '\0';
	}
	return n;
}

/* ---- dom0 ------------------------------------------------------------------- */

int xen_control_d(void)
{
	char caps[256];
	ssize_t n = read_small_file_close(AT_FDCWD, "/proc/xen/capabilities",
					  caps, sizeof(caps));

	/* a word of the list: "control_d" */
	for (ssize_t i = 0; i + 9 <= n; i++)
		if (memcmp(caps + i, LIT("control_d")) == 0)
			return 1;
	return 0;
}
