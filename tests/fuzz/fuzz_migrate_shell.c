// SPDX-License-Identifier: MIT
/* fuzz_migrate_shell.c - libFuzzer target for xen-migrate-shell's parser
 * (applets/xen/migrate-shell.c, ms_parse). The input is the -c COMMAND
 * (cut at its first NUL, as an argv string is). Invariants checked
 * (abort() on violation, a fuzzer finding):
 *   - the answer is one of the forms or one of the reasons;
 *   - accepted: no byte of the command is outside the safe set (no quote,
 *     $, ;, |, &, <, >, glob, backslash, control byte), the words are the
 *     command's space-separated pieces in order, at most MS_WORDS_MAX;
 *     the receiving form starts "xl" and holds "migrate-receive"; the
 *     sending form starts "exec", its SSHCMD is ssh or an absolute path
 *     ending in /ssh, and the
 *     last "xl" is followed by a receiving form;
 *   - a --coloft-script of xl's words names only MS_COLO_SCRIPT;
 *   - the same text parses to the same answer twice. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xen/migrate-shell.h"

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

static int safe(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || memchr("@%+,./:=_- ", c, 11);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char a[MS_COMMAND_MAX], b[MS_COMMAND_MAX];
	char *w[MS_WORDS_MAX + 1], *w2[MS_WORDS_MAX + 1];
	size_t len = size < MS_COMMAND_MAX - 1 ? size : MS_COMMAND_MAX - 1;
	int r, r2;

	memcpy(a, data, len);
	a[len] = '\0';
	len = strlen(a);
	memcpy(b, a, len + 1);
	r = ms_parse(a, w);
	r2 = ms_parse(b, w2);
	CHECK(r == r2);
	CHECK(r == MS_RECEIVE || r == MS_SEND || r == MS_BAD_BYTE ||
	      r == MS_TOO_MANY_WORDS || r == MS_NOT_MIGRATION || r == MS_BAD_SSH ||
	      r == MS_BAD_SSH_OPTION);
	if (r < 0)
		return 0;
	{
		size_t n = 0, at = 0, xl = 0;
		int recv = 0;

		for (size_t i = 0; i < len; i++)
			CHECK(safe((unsigned char)data[i]));
		/* the words, in order: the pieces between spaces */
		for (; w[n]; n++) {
			size_t wl = strlen(w[n]);

			while (at < len && data[at] == ' ')
				at++;
			CHECK(at + wl <= len && memcmp(data + at, w[n], wl) == 0);
			at += wl;
			CHECK(at == len || data[at] == ' ');
			if (strcmp(w[n], "migrate-receive") == 0)
				recv = 1;
			if (strcmp(w[n], "xl") == 0)
				xl = n;
		}
		/* xl's own words (after the last xl: before it, in the sending
		 * form, are SSHCMD's and HOST) */
		for (size_t i = xl; w[i]; i++)
			if (strcmp(w[i], "--coloft-script") == 0)
				CHECK(w[i + 1] && strcmp(w[i + 1], MS_COLO_SCRIPT) == 0);
		CHECK(n <= MS_WORDS_MAX && recv);
		if (r == MS_RECEIVE)
			CHECK(strcmp(w[0], "xl") == 0);
		else
		{
			const char *base = strrchr(w[1], '/');

			CHECK(strcmp(w[0], "exec") == 0 && n >= 5 &&
			      (strcmp(w[1], "ssh") == 0 ||
			       (w[1][0] == '/' && strcmp(base + 1, "ssh") == 0)));
			/* no option that runs or reads a command */
			for (size_t i = 2; i + 1 < xl; i++)   /* (w[xl - 1]: HOST) */
				CHECK(strncasecmp(w[i], "-oProxy", 7) != 0 &&
				      strncasecmp(w[i], "ProxyCommand", 12) != 0 &&
				      strncasecmp(w[i], "LocalCommand", 12) != 0 &&
				      strcmp(w[i], "-F") != 0 && w[xl - 1][0] != '-');
		}
	}
	return 0;
}
