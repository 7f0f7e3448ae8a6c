// SPDX-License-Identifier: MIT
/* migrate-shell.c - xen-migrate-shell: a command runner, not a shell, for
 * the two places live migration starts one (Xen's tools/xl/xl_migrate.c,
 * 4.17 and 4.20 alike):
 * - the sender's xl runs execlp("sh", "sh", "-c", RUNE) with
 *     RUNE = "exec SSHCMD HOST xl[ -t][ -T][ -v...] migrate-receive[ -e][ -d][ -p]"
 *   (`xl remus`: "exec SSHCMD HOST xl migrate-receive -r [ -e]", COLO:
 *   "... migrate-receive --colo [--coloft-script PATH] [--userspace-colo-proxy] [ -e]");
 * - the receiver's sshd runs LOGINSHELL -c "xl ... migrate-receive ...".
 * Given exactly such a -c COMMAND it execs it: the receiving form as the
 * wrapper execs xl (/usr/lib/xen-VERSION/bin/xl, no PATH search), the
 * sending form SSHCMD's words (ssh by PATH as sh would, or an absolute
 * path to a program named ssh) with HOST and the receiving command as
 * words. Anything else is
 * refused: on stderr and to syslog (LOG_AUTHPRIV: who, what, why),
 * EXIT_REFUSED, nothing run.
 *
 * The grammar, word by word (words split at spaces; a byte outside
 * [A-Za-z0-9@%+,./:=_-] anywhere is refused, so no quote, $, ;, |, &,
 * redirection, glob or newline ever reaches a program):
 *   COMMAND  = ["exec" SSHCMD HOST] "xl" GLOBAL* "migrate-receive" FLAGS
 *   SSHCMD   = ("ssh" | /ABSOLUTE/PATH/ssh) OPTION*   (the sending form only)
 *   OPTION   = -4 -6 -C -q -T -x | -p PORT | -i FILE | -l USER
 *            | -o KEY=VALUE, KEY: BatchMode ConnectTimeout Port IdentityFile
 *              IdentitiesOnly User StrictHostKeyChecking UserKnownHostsFile
 *              ServerAliveInterval ServerAliveCountMax Compression LogLevel
 *              AddressFamily Ciphers HostKeyAlgorithms (never ProxyCommand,
 *              LocalCommand, -F, or anything else that runs or reads more)
 *   HOST     = a word not starting with -
 *   GLOBAL   = "-t" | "-T" | "-v"+               (each at most once)
 *   FLAGS    = ("-e" | "-d" | "-p")*             (each at most once)
 *            | "-r" ["-e"]
 *            | "--colo" ["--coloft-script" DEFAULT_COLO_SCRIPT]
 *              ["--userspace-colo-proxy"] ["-e"]
 * --coloft-script takes only xl's default script: a migration source
 * naming any other path would choose what dom0 runs as root. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libcommon.h"
#include "migrate-shell.h"
#include "xen.h"

//applet:XEN_MIGRATE_SHELL xen-migrate-shell usr/lib/xen-common/bin/xen-migrate-shell xen_migrate_shell_main 0
//usage:Usage: xen-migrate-shell -c "xl [-t] [-T] [-v...] migrate-receive [FLAGS]"
//usage:       xen-migrate-shell -c "exec SSHCMD HOST xl ... migrate-receive [FLAGS]"
//usage:
//usage:A login shell (or /bin/sh) that runs only what live migration
//usage:asks of a shell: the receiving xl migrate-receive (as a login
//usage:shell of the account the migration source logs in as), and the
//usage:sender's ssh to the target (as /bin/sh of a dom0 with no shell).
//usage:FLAGS: -e -d -p; -r [-e]; --colo [--coloft-script
//usage:/etc/xen/scripts/colo-proxy-script] [--userspace-colo-proxy] [-e].
//usage:Anything else is refused: said on stderr and to syslog.
//exit:126 refused: not a migration command (nothing was run)
//exit:1 not running on Xen, or no valid Xen version in sysfs
//exit:127 xl, or SSHCMD, cannot be executed
//exit:other the command's own: once it runs, its status is the caller's
//replaces:the shell live migration starts at each end (the receiving account's login shell, xl migrate's `sh -c`)
//messages:`xen-migrate-shell: refused: WHY: 'COMMAND'` on stderr (COMMAND escaped, cut), the same with the uid and SSH_CLIENT to syslog (authpriv)
//config:config XEN_MIGRATE_SHELL
//config:	bool "xen-migrate-shell: xl migrate's shell at both ends (~4.4 KiB)"
//config:	default y
//config:	help
//config:	  A restricted command runner for live migration: as the
//config:	  login shell of the receiving account it runs only
//config:	  `xl migrate-receive` with xl's own flags; as /bin/sh of a
//config:	  shell-less dom0 it runs only xl migrate's ssh command.
//config:	  Everything else is refused and logged.
//applet:XEN_MIGRATE_SHELL_SH sh bin/sh xen_migrate_shell_main 0
//usage:Usage: sh -c "exec SSHCMD HOST xl ... migrate-receive [FLAGS]"
//usage:       sh -c "xl [-t] [-T] [-v...] migrate-receive [FLAGS]"
//usage:
//usage:xen-migrate-shell under the name xl migrate runs (execlp "sh"),
//usage:for a dom0 with no shell: it runs xl migrate's ssh command (and
//usage:the receiving xl migrate-receive) and refuses, and logs,
//usage:every other command.
//exit:126 refused: not a migration command (nothing was run)
//exit:1 not running on Xen, or no valid Xen version in sysfs
//exit:127 xl, or SSHCMD, cannot be executed
//exit:other the command's own: once it runs, its status is the caller's
//replaces:`/bin/sh` of a dom0 with no shell, for xl migrate alone (every other `sh -c` refused and logged)
//messages:as xen-migrate-shell's, under the name `sh`
//config:config XEN_MIGRATE_SHELL_SH
//config:	bool "sh: xen-migrate-shell as /bin/sh (shell-less roots only)"
//config:	default n
//config:	help
//config:	  xen-migrate-shell under the name sh, installed at bin/sh
//config:	  (with or without XEN_MIGRATE_SHELL, the same code). Only
//config:	  for a root with no shell: every
//config:	  system() and popen() of every program then reaches it and
//config:	  is refused (logged, exit 126), all but xl migrate's.

#define EXIT_REFUSED 126

static const char *command_text = "";

static _Noreturn void refuse(const char *why)
{
	char shown[SHOWN_MAX], uid[24];
	const char *client = getenv("SSH_CLIENT");

	shown_input(shown, sizeof(shown), command_text, strlen(command_text));
	uid[fmt_u64_base(uid, (uint64_t)getuid(), 10)] = '\0';
	/* LOG_AUTHPRIV | LOG_WARNING */
	(void)syslog_msg(10 * 8 + 4, "xen-migrate-shell", "refused for uid ",
			 uid, client ? " from " : "", client ? client : "",
			 ": ", why, *command_text ? ": '" : "",
			 *command_text ? shown : "", *command_text ? "'" : "");
	if (*command_text)
		die_msg(EXIT_REFUSED, "refused: ", why, ": '", shown, "'");
	die_msg(EXIT_REFUSED, "refused: ", why);
}

int xen_migrate_shell_main(int argc, char **argv)
{
	static const char *const why[] = {
		[-MS_BAD_BYTE] = "a byte a migration command never holds",
		[-MS_TOO_MANY_WORDS] = "more words than any migration command has",
		[-MS_NOT_MIGRATION] = "not xl migrate-receive, nor xl migrate's ssh command",
		[-MS_BAD_SSH] = "the ssh command is not ssh",
		[-MS_BAD_SSH_OPTION] = "an ssh option that is not one of those that choose how to connect",
	};
	static char cmd[MS_COMMAND_MAX];
	char *w[MS_WORDS_MAX + 1];
	const char *path = getenv("PATH");
	size_t len;
	int form;

	if (argc < 2)
		refuse("an interactive login (this account runs xl migrate-receive only)");
	if (argc != 3 || strcmp(argv[1], "-c") != 0) {
		command_text = argv[1];
		refuse("not -c COMMAND");
	}
	command_text = argv[2];
	len = strlen(argv[2]);
	if (len >= sizeof(cmd))
		refuse("longer than any migration command");
	memcpy(cmd, argv[2], len + 1);
	form = ms_parse(cmd, w);
	if (form == MS_RECEIVE)
		xen_exec_tool("xl", w);   /* w[0] becomes xl's path */
	if (form != MS_SEND)
		refuse(why[-form]);
	/* ssh by the caller's PATH, as sh finds it (musl's default without) */
	exec_path(path ? path : "/usr/local/bin:/bin:/usr/bin", w + 1);
	die_msg(127, w[1], ": ", errno_text(errno));
}
