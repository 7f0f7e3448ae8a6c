/* hotplug-env.c - what libxl hands a hotplug call: the environment
 * (XENBUS_PATH...) and the arguments the vif scripts eval as assignments
 * (hp_check_command(), in hotplug.c, records them).
 *
 * Call graph: hp_init() -> hp_env(); hp_env_required() -> hp_env(), and
 * when unset hp_exit() (hotplug-log.c).
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

const char *hp_env_required(struct hotplug *h, const char *name)
{
	const char *v = hp_env(name);

	if (!v) {
		write_strs(2, h->script, ": ", name,
			   ": parameter null or not set\n");
		hp_exit(h, 1);
	}
	return v;
}

void hp_init(struct hotplug *h, const char *name, int argc, char **argv)
{
	h->script = argc > 0 && argv[0] ? argv[0] : name;
	h->name = name;
	h->command = argc > 1 ? argv[1] : "";
	h->argc = argc;
	h->argv = argv;
	h->xb_path = hp_env("XENBUS_PATH");
	h->xs.fd = -1;
	h->xs_err = 1;          /* not opened yet */
	h->log_fd = -2;         /* not tried yet */
	h->lock_fd = -1;
}
