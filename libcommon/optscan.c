// SPDX-License-Identifier: MIT
/* optscan.c - option scanning over the whole argv.
 *
 * mount(8) calls helpers as `mount.TYPE SPEC DIR -o OPTS`: options after
 * the operands. musl's getopt stops at the first operand (POSIX), which is
 * how VirtualBox's helper loses -o when built on musl. This scanner takes
 * options anywhere until "--", and compacts operands, in order, into
 * argv[1..noperands] (slots it has already read, so nothing is lost). */
#include <string.h>

#include "libcommon.h"

void optscan_init(struct optscan *os, int argc, char **argv, const char *spec)
{
	os->argv = argv;
	os->argc = argc;
	os->index = 1;
	os->spec = spec;
	os->next = NULL;
	os->value = NULL;
	os->bad_option = 0;
	os->noperands = 0;
	os->operands = argv + 1;
}

int optscan_next(struct optscan *os)
{
	while (!os->next || !*os->next) {
		const char *arg;

		os->next = NULL;
		if (os->index >= os->argc)
			return -1;
		arg = os->argv[os->index++];
		if (arg[0] == '-' && arg[1] == '-' && arg[2] == '\0') {
			/* Everything after "--" is an operand. */
			while (os->index < os->argc)
				os->operands[os->noperands++] =
					os->argv[os->index++];
			return -1;
		}
		if (arg[0] == '-' && arg[1] != '\0') {
			os->next = arg + 1;
			break;
		}
		os->operands[os->noperands++] = (char *)arg;
	}

	int c = (unsigned char)*os->next++;
	const char *s = c == ':' ? NULL : strchr(os->spec, c);

	os->value = NULL;
	if (!s) {
		os->bad_option = c;
		os->next = NULL;
		return '?';
	}
	if (s[1] == ':') {
		if (*os->next) {
			os->value = os->next;
		} else if (os->index < os->argc) {
			os->value = os->argv[os->index++];
		} else {
			os->bad_option = c;
			return ':';
		}
		os->next = NULL;
	}
	return c;
}

_Noreturn void die_optscan(int status, const struct optscan *os, int c)
{
	/* The argument the scanner stopped at (it leaves the slot). */
	const char *word = os->argv[os->index - 1];
	char letter[2] = { (char)os->bad_option, '\0' };

	if (c == ':')
		die_usage_arg(status, "missing value for -", letter);
	if (word[0] == '-' && word[1] == '-')   /* a long option */
		die_usage_arg(status, "unknown option ", word);
	die_usage_arg(status, "unknown option -", letter);
}
