// SPDX-License-Identifier: MIT
/* mount.h - what the mount helpers (mount.c) and mount-shared
 * (mount-shared.c) share: the exit codes, the parsed command line, the
 * options both take, and the mount itself. */
#ifndef FORKLESS_MOUNT_H
#define FORKLESS_MOUNT_H

#include "libcommon.h"
#include "mountopt.h"

/* mount(8)'s exit codes, under libmount's names: a usage error is 1
 * here, where every other applet exits 2 (libcommon.h's EXIT_USAGE). */
enum {
	MNT_EX_SUCCESS = 0,
	MNT_EX_USAGE = 1,     /* usage error or bad option */
	MNT_EX_SYSERR = 2,    /* system error (namespace, passwd, stdout) */
	MNT_EX_FAIL = 32,     /* mount(2) failed, share not found */
};

#define MAX_OPTS 32

/* Which filesystem a helper mounts. ENABLE_ first: a configuration
 * without that helper then does not link its option table. */
#define IS_VBOXSF(fs) (ENABLE_MOUNT_VBOXSF && (fs) == &mopt_fs_vboxsf)
#define IS_9P(fs) (ENABLE_MOUNT_9P && (fs) == &mopt_fs_9p)
#define IS_VIRTIOFS(fs) (ENABLE_MOUNT_VIRTIOFS && (fs) == &mopt_fs_virtiofs)

struct helper {
	const struct mopt_fs *fs;
	const char *source, *target, *ns;
	const char *opts[MAX_OPTS + 1];   /* + mount-shared's trans=xen */
	unsigned nopts;
	int fake, verbose, sloppy, ro, rw;
	unsigned long flags;
	char data[MOPT_DATA_MAX + 1];
	int have_data;
	int xen;              /* 9p with trans=xen */
};

/* The options every mount applet takes, from an optscan loop: -s -f -v
 * -n -N NS -o OPTS -h and --help (exit 0 after the help), and the
 * scanner's '?' and ':' (a usage error, exit 1). Each applet's loop
 * handles its own letters and passes every other return here. */
void mount_common_option(struct helper *h, const struct optscan *os, int c);
/* SOURCE DIR from n operands (optscan's, in argv[1..]), or "missing
 * operand: expected TAG DIR (try ...)". */
void mount_take_operands(struct helper *h, int n, char **argv,
			 const char *source_name);
/* -N NS: a path or a pid. Exits 2 when it cannot be entered. */
void mount_enter_ns(const char *ns);
/* Exit 2 when ret (a write result to stdout) is an error. */
void mount_check_output(int ret);

/* Options -> flags and data, then mount(2) unless -f. Returns the exit
 * status; with quiet, a failed mount(2) returns 32 (errno set) for the
 * caller to try another way instead of exiting. */
int mount_run(struct helper *h, int quiet);

#endif
