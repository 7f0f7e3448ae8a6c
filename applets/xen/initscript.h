// SPDX-License-Identifier: MIT
/* initscript.h - what the init-script applets (xendomains, xencommons)
 * share: Debian's LSB message lines (/lib/lsb/init-functions as printed),
 * the systemd host's redirect to systemctl (init-functions.d/40-systemd),
 * /etc/default/NAME read as plain assignments or handed over to the
 * script itself (/etc/init.d/NAME.distrib), and the dom0 check. */
#ifndef FORKLESS_INITSCRIPT_H
#define FORKLESS_INITSCRIPT_H

#include <stddef.h>

#include "libcommon.h"

#define INITSCRIPT_VALUE_MAX 4096

struct initscript {
	const char *unit;        /* the systemd unit's name, "xendomains" */
	const char *defaults;    /* /etc/default/NAME */
	const char *initd;       /* /etc/init.d/NAME */
	const char *distrib;     /* /etc/init.d/NAME.distrib */
	const char *const *vars; /* the settings read, nvars of them */
	size_t nvars;
	char (*value)[INITSCRIPT_VALUE_MAX];   /* nvars values, "" unset */
	/* a setting of the file that is none of vars (its name, len bytes):
	 * said by the applet; NULL: ignored, as the script ignores it */
	void (*unused)(const char *name, size_t len);
};

/* stdout a terminal with a TERM other than dumb: red "failed" */
extern int lsb_fancy;
void lsb_fancy_init(void);

/* A line (or part of one) on stdout, as echo -n prints it. */
void lsb_out(const char *const *list);
#define say(...) lsb_out(STR_LIST(__VA_ARGS__))
/* log_action_end_msg STATUS [REASON]: "done." / "failed (REASON)." */
void log_action_end_msg(int status, const char *reason);

/* Called by hand as /etc/init.d/NAME on a systemd host: the action goes
 * to `systemctl ACTION UNIT.service` (exit with its status); a masked unit
 * exits 0; otherwise returns. */
void initscript_systemd_redirect(const struct initscript *s,
				 const char *argv0, const char *action);

/* The environment's values, then the file's (`[ -r F ] && . F`); a file
 * that is more than plain assignments: exec of the script (the .distrib,
 * or initd where that is not this binary), logged once on stderr. Exits
 * 1 when the value is too long or the script cannot run. */
void initscript_read_settings(const struct initscript *s, char **argv);

/* Split value at blanks (space, tab, newline) into argv from argv[n],
 * as the shell splits an unquoted $VAR; returns the new count. */
size_t initscript_split(char **argv, size_t n, char *value);

/* /proc/xen/capabilities names control_d. */
int xen_control_d(void);

#endif
