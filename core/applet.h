// SPDX-License-Identifier: MIT
/* applet.h - the applet table and what core/ does with it.
 *
 * The table is generated (config/gen-applets.sh) from the //applet: lines
 * of the applets/ sources; core/table.c is the only file that includes it. Applets
 * may use this API (find_applet for their own --help text); core reaches
 * applets only through the table.
 */
#ifndef FORKLESS_APPLET_H
#define FORKLESS_APPLET_H

#include <stddef.h>

typedef int applet_main_fn(int argc, char **argv);
/* An applet's success path run from the ELF entry point, before libc has
 * started (no TLS: no errno, no stack protector canary, only sys_* calls
 * and pure helpers). name is the dispatch name; it returns only when it
 * could not exec, and main() then runs the applet as usual. */
typedef void applet_early_fn(const char *name, char **argv, char **envp);

/* Flags of a table entry (the FLAGS column of the //applet: line). */
enum {
	/* All arguments belong to a program this applet execs: never
	 * intercept --help (e.g. `xen --help` must reach xl). */
	APPLET_ARGS_PASSTHROUGH = 1,
	/* The applet takes --help itself, in any position, with its own
	 * exit codes (the mount helpers: 2 when stdout cannot be written). */
	APPLET_OWN_HELP = 2,
	/* Runs under any name that is not an applet (Debian's symlinks
	 * /usr/sbin/xl -> xen-utils-wrapper). At most one applet. */
	APPLET_FALLBACK = 4,
};

/* Only the musl/x86_64 build has an early entry point (core/entry.c);
 * elsewhere the hooks are left out of the table and of the link. */
#if defined(__x86_64__) && !defined(__GLIBC__)
#define FORKLESS_EARLY_ENTRY 1
#define APPLET_EARLY(fn) (fn)
#else
#define FORKLESS_EARLY_ENTRY 0
#define APPLET_EARLY(fn) 0
#endif

struct applet {
	const char *name;          /* argv[0] basename it answers to */
	const char *install_path;  /* relative to the root, e.g. usr/sbin/xen */
	applet_main_fn *main;
	const char *usage;         /* --help text, "" when help is configured out */
	unsigned short flags;      /* APPLET_* */
	unsigned short early;      /* index of its early hook; applet_early() */
};

/* Where the binary itself is installed, relative to the root. */
#define FORKLESS_INSTALL_PATH "usr/bin/forkless"

/* ---- the table (table.c) ---------------------------------------------- */
const struct applet *applet_table(size_t *count);
const struct applet *find_applet(const char *name);
/* The applet whose //applet: at= path argv0 ends in (name: its basename,
 * a pointer into argv0), or NULL. No syscall, no TLS. */
const struct applet *find_applet_at(const char *argv0, const char *name);
/* The FALLBACK applet, or NULL when none is built in. */
const struct applet *fallback_applet(void);
/* a's early hook (//applet: early=), or NULL. */
applet_early_fn *applet_early(const struct applet *a);
/* a's links (//applet: links=): more install paths linked to a's
 * install_path, space separated; "" for none. *symbol: the Kconfig
 * symbol they come from, for messages. */
const char *applet_links(const struct applet *a, const char **symbol);

/* ---- the decision (dispatch.c) ---------------------------------------- */
/* What runs under name (dispatch_name(argv0), a pointer into argv0):
 * main() and the ELF entry point both ask this. &dispatch_multiplexer for
 * a name beginning with "forkless"; the applet whose at= path argv0 ends
 * in (find_applet_at); else the applet of that name; else the FALLBACK
 * applet; else NULL (not found). The entry point runs the result's
 * applet_early(). */
extern const struct applet dispatch_multiplexer;
const struct applet *dispatch(const char *argv0, const char *name);
/* What `forkless NAME` runs: the applet of that name, or the FALLBACK
 * applet when NAME is one of its links; else NULL. */
const struct applet *dispatch_multiplexed(const char *name);

/* ---- installed paths (links.c) ----------------------------------------- */
/* Every path `--install` creates besides the binary: each applet's
 * install_path (link_to = FORKLESS_INSTALL_PATH), then each entry of the
 * FALLBACK applet's links (link_to = its install_path, as Debian's
 * symlinks do). The callback gets a NUL-terminated path; a non-zero return
 * stops the walk and is returned. */
typedef int install_link_fn(const char *path, const char *link_to, void *ctx);
int for_each_install_link(install_link_fn *fn, void *ctx);
/* Is name (a basename) one of a's links? */
int is_applet_link(const struct applet *a, const char *name);

/* ---- install.c ------------------------------------------------------- */
/* `forkless --install [-s] DIR`; argv[0] is "--install". Exit status. */
int forkless_install(int argc, char **argv);

#endif
