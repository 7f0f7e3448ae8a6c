// SPDX-License-Identifier: MIT
/* xendomains.h - what the xendomains applet's two files share:
 * xendomains.c (the settings, the directory lists, the steps of start and
 * stop, status, main) calls into xendomains-jobs.c (the applet's state,
 * the domain list read from xenstore, the domain actions: one xl process
 * each, run N at a time, waited for on a signalfd and xenstore's
 * @releaseDomain), never the other way (tests/build/cycles.sh). Not an
 * interface: nothing else includes it. */
#ifndef FORKLESS_XENDOMAINS_H
#define FORKLESS_XENDOMAINS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "initscript.h"
#include "xen-init.h"
#include "xenstore.h"

#define XD_XS_MS 5000             /* each xenstore exchange's bound */
#define XD_VALUE_MAX INITSCRIPT_VALUE_MAX

enum {
	EXIT_XD_FAIL = 1,       /* xenstore unreachable, no hand-over */
	EXIT_XD_USAGE = 3,      /* the script's usage exit */
	EXIT_XD_STATUS_DOWN = 3,
	EXIT_XD_STATUS_UNKNOWN = 4,
};

enum { V_SAVE, V_RESTORE, V_AUTO, V_MIGRATE, V_MAXWAIT, V_PARALLEL, V_COUNT };

struct xd {
	char var[V_COUNT][INITSCRIPT_VALUE_MAX];
	long maxwait;           /* seconds the script's seq loop runs - 1; -1: none */
	unsigned parallel;
	char xl[4096];
	struct xs_conn xs;      /* requests */
	struct xs_conn watch;   /* @releaseDomain events, fd -1 until needed */
	int watch_lost;         /* it closed: the waits check every second */
	int sigfd;              /* SIGCHLD, and the stop signals */
	int stop_sig;           /* SIGTERM, SIGINT or SIGHUP received: no new action */
	int xs_gone;            /* xenstore stopped answering between two steps */
	int nullfd;
	struct xen_name_buffers *names;
};

extern struct xd xd;

/* The domUs, as xen-init-list lists them (xen_each_domu): ids and names
 * in storage mapped once (untouched pages cost nothing). */
struct dom {
	unsigned id;
	unsigned len;
	char *name;    /* NUL-terminated */
};
struct doms {
	struct dom *d;
	size_t n;
	char *arena;
	size_t used;
};

/* ---- xendomains-jobs.c: the state, the domain list, the domain actions ------ */

/* size bytes of fresh, unreserved memory; dies saying what it was for */
void *map(size_t size, const char *what);
/* the domUs as xen-init-list lists them: 0 or the xenstore error (what,
 * path: the request); list_domus dies on the error */
int list_domus_try(struct doms *l, const char **what, char *path);
void list_domus(struct doms *l);
int in_doms(const struct doms *l, const char *name);
/* Is a domain called name running? (running_in: among l, listed first
 * when list is set) */
int running_in(struct doms *l, int list, const char *name);
int running(const char *name);


enum kind { K_RESTORE, K_CREATE, K_MIGRATE, K_SAVE, K_SHUTDOWN, K_WAIT };
enum { J_PENDING, J_RUNNING, J_DONE };

struct job {
	const char *name, *file;   /* file: the image or config */
	unsigned id;
	pid_t pid;
	int out;                   /* xl's stderr (a memfd), -1 */
	uint64_t start, end, deadline;
	unsigned char state, begun, interrupted, skipped;
	int status;                /* as bash's $? */
	unsigned dots;
};

void begin_msg(enum kind k, const struct job *j);
void argv_id(char *num, unsigned id);
/* Run n actions of kind k, par at a time, their lines in order. */
void run_jobs(enum kind k, struct job *jobs, size_t n, unsigned par);

#endif
