/* multicall.c - main(): dispatch on argv[0], and the `forkless` multiplexer.
 *
 * The hot path is a Xen tool name (xl, xentop...): basename, one prefix
 * compare, a miss in a table of a handful of names, then the wrapper. No
 * syscall happens here. */
#include <string.h>
#include <unistd.h>

#include "libcommon.h"
#include "applet_table.h"   /* generated from the //applet: lines */

const struct applet *applet_table(size_t *count)
{
	*count = ARRAY_SIZE(applets) - 1;   /* minus the sentinel */
	return applets;
}

const struct applet *find_applet(const char *name)
{
	for (const struct applet *a = applets; a->name; a++)
		if (strcmp(a->name, name) == 0)
			return a;
	return NULL;
}

static int run_applet(const struct applet *a, int argc, char **argv)
{
	applet_name = a->name;
	if (!(a->flags & (APPLET_ARGS_PASSTHROUGH | APPLET_OWN_HELP)) &&
	    argc >= 2 &&
	    strcmp(argv[1], "--help") == 0) {
		return stdout_status(write_strs(1, a->usage[0] ? a->usage
					 : "(help text not configured in)\n"));
	}
	return a->main(argc, argv);
}

static const char *const multiplexer_usage = ENABLE_FORKLESS_HELP ?
	"Usage: forkless APPLET [ARGS...]\n"
	"       forkless --list | --list-full\n"
	"       forkless --install [-s] DIR\n"
	"       forkless --help [APPLET]\n"
	"\n"
	"Runs APPLET; a link named after an applet runs it too.\n"
	"\n"
	"  --list        names of the applets built in, one per line\n"
	"  --list-full   every path --install creates, relative to DIR\n"
	"  --install DIR install usr/bin/forkless under DIR and a hard link\n"
	"                (-s: a relative symlink) for each path of --list-full\n"
	"\n"
	"Exit status: 0 ok, 1 install failed or stdout not writable,\n"
	"2 usage error, 127 applet not found.\n" :
	"Usage: forkless APPLET [ARGS...] | --list | --list-full |"
	" --install [-s] DIR\n";

static int print_path(const char *path, const char *link_to, void *ctx)
{
	(void)link_to;
	(void)ctx;
	return write_strs(1, path, "\n");
}

/* 0, or -errno when stdout cannot be written. */
static int list_applets(int full)
{
	size_t n;
	const struct applet *a = applet_table(&n);
	int ret = 0;

	if (full) {
		ret = write_strs(1, FORKLESS_INSTALL_PATH "\n");
		return ret ? ret : for_each_install_link(print_path, NULL);
	}
	for (size_t i = 0; i < n && ret == 0; i++)
		ret = write_strs(1, a[i].name, "\n");
	return ret;
}

static int multiplexer(int argc, char **argv)
{
	const char *arg = argc > 1 ? argv[1] : NULL;
	const struct applet *a;

	applet_name = "forkless";
	if (!arg) {
		write_strs(2, multiplexer_usage);
		return 2;
	}
	if (strcmp(arg, "--help") == 0) {
		if (argc < 3) {
			int ret = write_strs(1, multiplexer_usage, "\nApplets:\n");

			return stdout_status(ret ? ret : list_applets(0));
		}
		a = find_applet(argv[2]);
		if (!a) {
			warn_msg("applet not found: ", argv[2]);
			return 127;
		}
		return stdout_status(write_strs(1, a->usage[0] ? a->usage
					 : "(help text not configured in)\n"));
	}
	if (strcmp(arg, "--list") == 0 || strcmp(arg, "--list-full") == 0)
		return stdout_status(list_applets(arg[6] == '-'));
	if (strcmp(arg, "--install") == 0) {
		if (!ENABLE_FORKLESS_INSTALL)
			die_msg(2, "--install is not configured in "
				"(FORKLESS_INSTALL)");
		return forkless_install(argc - 1, argv + 1);
	}
	if (arg[0] == '-')
		die_msg(2, "unknown option: ", arg,
			" (try forkless --help)");
	a = find_applet(path_basename(arg));
	if (a)
		return run_applet(a, argc - 1, argv + 1);
	/* `forkless xl list`: a configured Xen tool name runs the wrapper;
	 * any other name is a typo, not a Xen tool to look for. */
	if (ENABLE_XEN_UTILS_WRAPPER && is_wrapped_tool(path_basename(arg)))
		return xen_utils_wrapper_main(argc - 1, argv + 1);
	die_msg(127, "applet not found: ", arg);
}

int main(int argc, char **argv)
{
	const char *name = dispatch_name(argc > 0 ? argv[0] : NULL);
	const struct applet *a;

	if (strncmp(name, "forkless", 8) == 0)
		return multiplexer(argc, argv);
	a = find_applet(name);
	if (a)
		return run_applet(a, argc, argv);
	/* Any other name is a Xen tool behind Debian's wrapper symlinks. */
	if (ENABLE_XEN_UTILS_WRAPPER)
		return xen_utils_wrapper_main(argc, argv);
	die_msg(127, "applet not found: ", name);
}
