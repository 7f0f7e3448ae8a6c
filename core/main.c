// SPDX-License-Identifier: MIT
/* main.c - main(): run what dispatch() chose; the `forkless` multiplexer.
 *
 * The path from the ELF entry point to an applet: entry.c (musl/x86_64)
 * asks dispatch() and runs the applet's early hook, if any, before libc
 * starts; then libc calls main() here, which asks dispatch() again and
 * runs the applet (run_applet), or the multiplexer for "forkless*". */
#include <string.h>
#include <unistd.h>

#include "libcommon.h"
#include "applet.h"

static int print_usage(const struct applet *a)
{
	return stdout_status(write_strs(1, a->usage[0] ? a->usage
					: "(help text not configured in)\n"));
}

/* Run a with argv: set the message prefix, answer --help from the table
 * unless its arguments all belong to the program it runs. */
static int run_applet(const struct applet *a, int argc, char **argv)
{
	applet_name = a->name;
	if (!(a->flags & (APPLET_ARGS_PASSTHROUGH | APPLET_OWN_HELP)) &&
	    argc >= 2 && strcmp(argv[1], "--help") == 0)
		return print_usage(a);
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

/* `forkless ARGS`: --list, --install, --help, or the named applet. */

/* 127, naming the name as messages show inputs (a name from argv may hold
 * any byte: escaped, cut to SHOWN_MAX). */
static _Noreturn void not_found(const char *name)
{
	char shown[4 * SHOWN_MAX + 4];

	die_msg(127, "applet not found: ",
		shown_input(shown, sizeof(shown), name, strlen(name)));
}
static int forkless_main(int argc, char **argv)
{
	const char *arg = argc > 1 ? argv[1] : NULL;
	const struct applet *a;

	applet_name = "forkless";
	if (!arg) {
		write_strs(2, multiplexer_usage);
		return EXIT_USAGE;
	}
	if (strcmp(arg, "--help") == 0) {
		if (argc < 3) {
			int ret = write_strs(1, multiplexer_usage, "\nApplets:\n");

			return stdout_status(ret ? ret : list_applets(0));
		}
		a = find_applet(argv[2]);
		if (!a)
			not_found(argv[2]);
		return print_usage(a);
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
		die_usage_arg(EXIT_USAGE, "unknown option ", arg);
	a = dispatch_multiplexed(path_basename(arg));
	if (a)
		return run_applet(a, argc - 1, argv + 1);
	not_found(arg);
}

int main(int argc, char **argv)
{
	const char *argv0 = argc > 0 ? argv[0] : "";
	const char *name = dispatch_name(argv0);
	const struct applet *a = dispatch(argv0, name);

	if (a == &dispatch_multiplexer)
		return forkless_main(argc, argv);
	if (a)
		return run_applet(a, argc, argv);
	not_found(name);
}
