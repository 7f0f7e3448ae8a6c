// SPDX-License-Identifier: MIT
/* hotplug-env.c - what libxl hands a hotplug call: the environment
 * (XENBUS_PATH...) and the arguments the vif scripts eval as assignments
 * (hp_check_command(), in hotplug.c, records them).
 *
 * Call graph: hp_init() -> hp_env(); hp_env_required() -> hp_env(), and
 * when unset hp_script_dir(), hp_stderr() and hp_exit() (hotplug-log.c).
 */
#include <stdlib.h>
#include <string.h>

#include "hotplug.h"

/* The arguments vif-common.sh's evalVariables evals (NAME=VALUE, '=' not
 * first), once hp_check_command has found them plain assignments: they
 * override the environment, the last one winning, as the evals in order
 * do. libxl passes `type_if=vif` this way. */
char *const *hp_assign;
int hp_nassign;

const char *hp_env(const char *name)
{
	size_t n = strlen(name);
	const char *v = NULL;

	for (int i = 0; i < hp_nassign; i++)
		if (strncmp(hp_assign[i], name, n) == 0 && hp_assign[i][n] == '=')
			v = hp_assign[i] + n + 1;
	if (!v)
		v = getenv(name);
	return v && *v ? v : NULL;
}

void hp_script_dir(const struct hotplug *h, char *out, size_t cap)
{
	const char *slash = strrchr(h->script, '/');
	size_t n = slash ? (size_t)(slash - h->script) + 1 : 2;

	if (n >= cap)
		n = cap - 1;
	memcpy(out, slash ? h->script : "./", n);
	out[n] = '\0';
}

const char *hp_env_required(struct hotplug *h, const char *name,
			    const char *where)
{
	const char *v = hp_env(name);
	char dir[256];

	if (!v) {
		hp_script_dir(h, dir, sizeof(dir));
		hp_stderr(h, dir, where, ": ", name,
			  ": parameter null or not set\n");
		hp_exit(h, 1);
	}
	return v;
}

void hp_init(struct hotplug *h, const char *name, int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--stamp") == 0)
		hp_stamp_write();
	h->script = argc > 0 && argv[0] ? argv[0] : name;
	h->name = name;
	h->command = argc > 1 ? argv[1] : "";
	h->argc = argc;
	h->argv = argv;
	h->xb_path = hp_env("XENBUS_PATH");
	h->xs.fd = -1;
	h->xs_err = 1;          /* not opened yet */
	h->log_fd = -2;         /* not tried yet */
	h->err_fd = -2;
	h->lock_fd = -1;
}
