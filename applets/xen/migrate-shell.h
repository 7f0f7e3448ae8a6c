// SPDX-License-Identifier: MIT
/* migrate-shell.h - xen-migrate-shell's parser (migrate-shell.c), apart
 * for the fuzz target: a pure function of the command's text. */
#ifndef FORKLESS_MIGRATE_SHELL_H
#define FORKLESS_MIGRATE_SHELL_H

#define MS_WORDS_MAX 32
#define MS_COMMAND_MAX 4096
#define MS_COLO_SCRIPT "/etc/xen/scripts/colo-proxy-script"

enum {
	MS_RECEIVE = 1,          /* w: xl GLOBAL* migrate-receive FLAGS */
	MS_SEND = 2,             /* w: exec SSHCMD... HOST xl ... */
	MS_BAD_BYTE = -1,
	MS_TOO_MANY_WORDS = -2,
	MS_NOT_MIGRATION = -3,
	MS_BAD_SSH = -4,
	MS_BAD_SSH_OPTION = -5,
};

/* cmd's words into w (MS_WORDS_MAX + 1 slots, NULL-terminated; cmd is cut
 * in place at its spaces); which form it is, or why it is none. */
int ms_parse(char *cmd, char **w);

#endif
