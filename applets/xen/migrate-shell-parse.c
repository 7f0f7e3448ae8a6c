// SPDX-License-Identifier: MIT
/* migrate-shell-parse.c - xen-migrate-shell's grammar (migrate-shell.c's
 * header has it): ms_parse(), a pure function of the command's text,
 * fuzzed by tests/fuzz/fuzz_migrate_shell.c. */
#include <string.h>
#include <strings.h>

#include "migrate-shell.h"

static int safe_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr("@%+,./:=_-", c) != NULL;
}

static int is(const char *w, const char *lit) { return w && strcmp(w, lit) == 0; }

/* GLOBAL* at w[i]: the index after them. */
static size_t globals(char *const *w, size_t i)
{
	int t = 0, T = 0, v = 0;

	for (;; i++) {
		if (is(w[i], "-t") && !t++)
			continue;
		if (is(w[i], "-T") && !T++)
			continue;
		if (w[i] && w[i][0] == '-' && w[i][1] == 'v' && !v++ &&
		    strspn(w[i] + 1, "v") == strlen(w[i] + 1))
			continue;
		return i;
	}
}

/* FLAGS from w[i] to the end: 1 when they are one of xl's forms. */
static int flags_ok(char *const *w, size_t i)
{
	int e = 0, d = 0, p = 0;

	if (is(w[i], "-r"))
		return w[i + 1] == NULL || (is(w[i + 1], "-e") && !w[i + 2]);
	if (is(w[i], "--colo")) {
		i++;
		if (is(w[i], "--coloft-script")) {
			if (!is(w[i + 1], MS_COLO_SCRIPT))
				return 0;
			i += 2;
		}
		if (is(w[i], "--userspace-colo-proxy"))
			i++;
		if (is(w[i], "-e"))
			i++;
		return w[i] == NULL;
	}
	for (; w[i]; i++)
		if (!((is(w[i], "-e") && !e++) || (is(w[i], "-d") && !d++) ||
		      (is(w[i], "-p") && !p++)))
			return 0;
	return 1;
}

/* -o KEY=VALUE: KEY one of those that choose how to connect, never one
 * that runs a command or reads another config (ProxyCommand,
 * LocalCommand, PermitLocalCommand, Include, KnownHostsCommand...). */
static int ssh_o_ok(const char *kv)
{
	static const char *const keys[] = {
		"batchmode", "connecttimeout", "port", "identityfile",
		"identitiesonly", "user", "stricthostkeychecking",
		"userknownhostsfile", "serveraliveinterval",
		"serveralivecountmax", "compression", "loglevel",
		"addressfamily", "ciphers", "hostkeyalgorithms",
	};
	const char *eq = strchr(kv, '=');
	size_t n = eq ? (size_t)(eq - kv) : 0;

	for (size_t i = 0; n && i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strlen(keys[i]) == n && strncasecmp(kv, keys[i], n) == 0)
			return 1;
	return 0;
}

/* SSHCMD's words w[from..to): ssh's options that choose how to connect
 * (-4 -6 -C -q -T -x; -p PORT, -i FILE, -l USER, -o KEY=VALUE, joined
 * or apart), nothing that names a command or a config file to read. */
static int ssh_options(char *const *w, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++) {
		const char *o = w[i], *arg;

		if (o[0] != '-' || !o[1])
			return 0;
		if (strchr("46CqTx", o[1]) && !o[2])
			continue;
		if (!strchr("pilo", o[1]))
			return 0;
		arg = o[2] ? o + 2 : (i + 1 < to ? w[++i] : NULL);
		if (!arg || arg[0] == '-' || (o[1] == 'o' && !ssh_o_ok(arg)))
			return 0;
	}
	return 1;
}

/* SSHCMD's program: ssh (by PATH, as sh finds it) or an absolute path
 * to a program named ssh; never another program given ssh's words. */
static int ssh_program(const char *p)
{
	const char *base = strrchr(p, '/');

	return is(p, "ssh") || (p[0] == '/' && is(base + 1, "ssh"));
}

/* "xl GLOBAL* migrate-receive FLAGS" at w[i]: 1 when it is. */
static int receive_form(char *const *w, size_t i)
{
	if (!is(w[i], "xl"))
		return 0;
	i = globals(w, i + 1);
	return is(w[i], "migrate-receive") && flags_ok(w, i + 1);
}

int ms_parse(char *cmd, char **w)
{
	size_t n = 0, xl;

	for (char *p = cmd; *p; ) {
		if (*p == ' ') {
			*p++ = '\0';
			continue;
		}
		if (n == MS_WORDS_MAX)
			return MS_TOO_MANY_WORDS;
		w[n++] = p;
		for (; *p && *p != ' '; p++)
			if (!safe_byte((unsigned char)*p))
				return MS_BAD_BYTE;
	}
	w[n] = NULL;
	if (receive_form(w, 0))
		return MS_RECEIVE;
	/* exec SSHCMD... HOST xl ...: HOST is the word before the last "xl" */
	for (xl = n; xl > 0 && !is(w[xl - 1], "xl"); xl--)
		;
	if (n < 4 || !is(w[0], "exec") || xl < 4 || !receive_form(w, xl - 1))
		return MS_NOT_MIGRATION;
	if (!ssh_program(w[1]))
		return MS_BAD_SSH;
	if (w[xl - 2][0] == '-' || !ssh_options(w, 2, xl - 2))
		return MS_BAD_SSH_OPTION;
	return MS_SEND;
}

