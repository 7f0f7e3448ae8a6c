// SPDX-License-Identifier: MIT
/* hotplug.h - what the Xen hotplug applets (vif-bridge, vif-route, block)
 * share: the contract libxl holds a hotplug script to (docs/hotplug.md:
 * the command and VAR=VALUE arguments, XENBUS_PATH and the environment,
 * hotplug-status = connected on success, hotplug-error and status error
 * or busy on failure with exit 1, 40 s before libxl kills the script)
 * and Debian 4.17's xen-hotplug-common.sh, locking.sh and logging.sh,
 * without a shell.
 *
 * One call is one process: hp_init() reads the environment libxl gives
 * (XENBUS_PATH...), opens one xenstore connection for every key of the
 * call (the keys it reads read together, hp_prefetch(), a transaction's
 * writes sent together: each round trip to xenstored costs two context
 * switches on a one-vCPU dom0), and the helpers below do what the
 * scripts' functions do:
 *   log LEVEL MSG       -> hp_log()      a datagram to /dev/log, else stderr
 *   exec 2>>/var/log/xen/xen-hotplug.log -> hp_stderr(): what the script
 *                          and its commands write to stderr, on failure
 *   xenstore_read(_default), xenstore_write -> hp_read(), hp_write()
 *   fatal / ebusy       -> hp_fatal(), hp_busy()   hotplug-error + status
 *   success             -> hp_success()            hotplug-status connected
 *   claim_lock/release_lock -> hp_lock(), hp_unlock()
 * and hp_fallback() hands a call forkless does not handle natively to
 * Debian's script, diverted to /etc/xen/scripts/NAME.distrib, by exec.
 */
#ifndef FORKLESS_HOTPLUG_H
#define FORKLESS_HOTPLUG_H

#include <stdarg.h>

#include "libcommon.h"
#include "xenstore.h"

#define HP_SCRIPT_DIR "/etc/xen/scripts"
#define HP_LOCK_DIR "/var/run/xen-hotplug"
/* The scripts' stderr: xen-hotplug-common.sh's exec 2>>FILE */
#define HP_ERR_LOG "/var/log/xen/xen-hotplug.log"
/* libxl kills a script after 40 s: every xenstore wait of one call
 * together (the connect, each reply) gets 30 s, so a hung xenstored is
 * reported, not killed. A wait for the block lock is not counted: as
 * Debian's script, a call that waited long for another disk's call
 * still talks to xenstore, within libxl's 40 s. */
#define HP_XS_BUDGET_MS 30000
#define HP_MSG_MAX 1024     /* one message, log line or xenstore value */
#define HP_PATH_MAX 256     /* a xenstore path */
#define HP_CACHE_MAX 8      /* keys one hp_prefetch reads */
#define HP_CACHE_POOL 2048  /* their values (a longer one is read again) */
#define HP_LOG_QUEUE 16     /* syslog datagrams held for one sendmmsg */
#define HP_LOG_BUF 8192

/* syslog levels, as `logger -p daemon.LEVEL` names them */
enum { HP_ERR = 3, HP_NOTICE = 5, HP_DEBUG = 7 };

struct hotplug {
	const char *script;     /* argv[0]: the scripts' $0 */
	const char *name;       /* the applet: vif-bridge, block... */
	const char *command;    /* findCommand's: see hp_check_command */
	const char *xb_path;    /* XENBUS_PATH, relative to /local/domain/0 */
	int argc;
	char **argv;
	struct xs_conn xs;
	int xs_err;             /* xs_open()'s error, reported on first use */
	int log_fd;             /* the /dev/log socket, -1: stderr */
	int err_fd;             /* HP_ERR_LOG once opened, -1: fd 2, -2: not yet */
	/* datagrams not sent yet (hp_log_flush): each ends at log_end[i] in
	 * log_buf, its "MSG" (for the stderr fallback) starts at log_msg[i] */
	unsigned log_n;
	uint16_t log_end[HP_LOG_QUEUE], log_msg[HP_LOG_QUEUE];
	int lock_fd;
	int lock_waited;        /* hp_lock found the lock held and waited */
	char lock_path[64];
	/* hp_prefetch's answers, for hp_read: key NULL = none */
	struct hp_cached {
		const char *key;
		long ret;       /* the value's length in val, or -errno */
		char *val;
	} cache[HP_CACHE_MAX];
	/* hp_prefetch's reads sent, their replies not read yet: the next
	 * use of xenstore (hp_xs, hp_read) reads them first */
	struct xs_op pend[HP_CACHE_MAX];
	const char *pend_key[HP_CACHE_MAX];
	unsigned npend;
	/* hp_write_early's write: 1 sent (its reply not read yet), 2 its
	 * reply read (wop.ret), -errno not sent */
	int wstate;
	struct xs_op wop;
	char wok[8];
	char wpath[HP_PATH_MAX];
	char wval[32];
	/* The big buffers last, each used from its start: a call touches
	 * the fewest pages (see hp_init) */
	char cache_pool[HP_CACHE_POOL];
	char log_buf[HP_LOG_BUF];
};

/* Fill h from argv and the environment; no syscall yet (but `NAME
 * --stamp` is hp_stamp_write's, and exits). h must be
 * zeroed, and is best static: the applets keep theirs in .bss, which the
 * kernel hands over zeroed, page by page as each is first touched. A call
 * then touches a page or two of it, where a struct on the stack, zeroed
 * with memset, cost each of its pages (three) a page fault, and pushed
 * every frame below it three pages further down the stack: more faults
 * again. Under Xen each costs 0.1-0.2 ms of a 15-40 ms call
 * (docs/notes/2026-12-03-hotplug-call-time-traces.md). */
void hp_init(struct hotplug *h, const char *name, int argc, char **argv);
/* Open xenstore (once; later calls return the first result). 0 or -errno. */
int hp_xs(struct hotplug *h);

/* "$0: " + the strings (joined, no separator) as one syslog datagram at
 * daemon.LEVEL, the way `logger -p daemon.LEVEL -- "$0:" MSG` sends it
 * (`<PRI>Mmm dd hh:mm:ss root: $0: MSG`, time in UTC, taken now); without
 * /dev/log, "$0 MSG" on stderr as the scripts' fallback. The datagrams
 * are held and sent together by hp_log_flush() -- when the call ends
 * (hp_exit), before it execs the script or waits for a lock someone else
 * holds, or when HP_LOG_QUEUE are held: one wakeup of the syslog daemon
 * per call, not one per line (each one took the CPU from the call on a
 * one-vCPU dom0). */
void hp_log_strv(struct hotplug *h, int level, const char *const *list);
#define hp_log(h, level, ...) hp_log_strv(h, level, STR_LIST(__VA_ARGS__))
/* Send the held datagrams (one sendmmsg); what the daemon does not take
 * goes to stderr as the fallback. */
void hp_log_flush(struct hotplug *h);
/* What the script writes to its stderr, which xen-hotplug-common.sh
 * sends to HP_ERR_LOG (exec 2>>): the strings joined (each cut at
 * HP_MSG_MAX) into one write(2) there. The file is opened at the first
 * such write, as the shell's >> opens it (O_APPEND|O_CREAT, 0666 under
 * the umask), so a call that succeeds writes nothing and opens
 * nothing; when it cannot be opened, fd 2. */
void hp_stderr_strv(struct hotplug *h, const char *const *list);
#define hp_stderr(h, ...) hp_stderr_strv(h, STR_LIST(__VA_ARGS__))
/* The call's end: hp_log_flush, then _exit(status). */
_Noreturn void hp_exit(struct hotplug *h, int status);

/* path into out: XENBUS_PATH "/" key (key without a leading '/'), or key
 * itself when it starts with '/'. -ENAMETOOLONG when it does not fit. */
int hp_path(const struct hotplug *h, char *out, const char *key);
/* xenstore-read of a key (as hp_path): the value's length, -ENOENT, or
 * -errno (a broken xenstore is fatal: it is reported and the call exits). */
long hp_read(struct hotplug *h, const char *key, char *out, size_t cap);
/* Read the keys (as hp_path; NULL-ended, at most HP_CACHE_MAX) in one
 * round trip to xenstored: sent now, their replies read by the next use of
 * xenstore (so the call can do other work while xenstored answers); the
 * later hp_read of each key is answered from what came back, as if read
 * then (a key written by hp_write meanwhile is read again). Only for keys
 * nobody else changes during the call (the backend's, written by libxl
 * before it runs the script). An error is reported by the hp_read that
 * meets it, as a read without prefetch. */
void hp_prefetch_strv(struct hotplug *h, const char *const *keys);
#define hp_prefetch(h, ...) hp_prefetch_strv(h, STR_LIST(__VA_ARGS__))
/* Drop what hp_prefetch read of key: the next hp_read asks xenstored
 * (a write does it; so does a call that must see the key as it is now). */
void hp_forget(struct hotplug *h, const char *key);
/* The same for a xenstore path as it is (absolute, or relative to
 * /local/domain/0); never from the prefetched keys. */
long hp_read_path(struct hotplug *h, const char *path, char *out, size_t cap);
/* xenstore_read_default: out holds the value, or def (cut to cap) when
 * the key is missing; returns out, or NULL for a missing key and no def.
 * A value that does not fit cap is fatal ("xenstore value of PATH is
 * longer than N bytes"), here and in hp_read_required. */
const char *hp_read_default(struct hotplug *h, const char *key, char *out,
			    size_t cap, const char *def);
/* V=$(xenstore_read K): the value; missing or empty -> what the script
 * does then: fatal "xenstore-read PATH failed." in the subshell, then
 * the ERR trap's fatal "$0 failed; error detected.". */
const char *hp_read_required(struct hotplug *h, const char *key, char *out,
			     size_t cap);
/* The pairs key, value, ..., NULL written in one transaction (as one
 * `xenstore-write K V K V` call is; one pair: a plain write, as atomic):
 * 0 or -errno. Logged as the scripts' "Writing K V ... to xenstore." The
 * writes of a transaction go together (xs_requests): its start, the
 * writes, its end are three round trips whatever the number of pairs. */
int hp_write_strv(struct hotplug *h, const char *const *list);
#define hp_write(h, ...) hp_write_strv(h, STR_LIST(__VA_ARGS__))
/* xenstore_write: hp_write, and on failure fatal "Writing K V to xenstore
 * failed.". */
void hp_write_or_die_strv(struct hotplug *h, const char *const *list);
#define hp_write_or_die(h, ...) hp_write_or_die_strv(h, STR_LIST(__VA_ARGS__))
/* One xenstore_write K V sent ahead of the script's place for it (V at
 * most 31 bytes): its reply is read by the next use of xenstore, and
 * hp_write_early_done, at the script's place, logs the "Writing" line and
 * is fatal as hp_write_or_die when it failed. For a write the call knows
 * early and has no reason to wait on: xenstored answers it while the call
 * works. One at a time. */
void hp_write_early(struct hotplug *h, const char *key, const char *value);
void hp_write_early_done(struct hotplug *h);
/* The script's separate `xenstore_write K V` calls, one after another
 * (at most 8; the caller logs each "Writing" line): each pair one plain
 * write, as xenstore-write makes one pair; all but the last go together
 * (one round trip), the last -- hotplug-status -- only once they have
 * all succeeded. A failure is fatal "Writing K V to xenstore failed." for
 * the first pair that failed (the others of its group may have been
 * written: hotplug-status never is). */
void hp_write_each_or_die_strv(struct hotplug *h, const char *const *list);
#define hp_write_each_or_die(h, ...) \
	hp_write_each_or_die_strv(h, STR_LIST(__VA_ARGS__))

/* fatal: hotplug-error = the strings, hotplug-status = error, the message
 * logged at err, exit 1. */
_Noreturn void hp_fatal_strv(struct hotplug *h, const char *const *list);
#define hp_fatal(h, ...) hp_fatal_strv(h, STR_LIST(__VA_ARGS__))
/* V=$(F) at the script's top level where F calls fatal MSG: MSG, then
 * the ERR trap's "$0 failed; error detected." (both written, logged). */
_Noreturn void hp_fatal_subshell(struct hotplug *h, const char *msg);
/* ebusy: the same with hotplug-status = busy. */
_Noreturn void hp_busy(struct hotplug *h, const char *msg);
/* The scripts' ERR trap (sigerr): fatal "$0 failed; error detected.",
 * after what failed is logged at err. */
_Noreturn void hp_sigerr(struct hotplug *h, const char *what, int err);
/* A command failing inside one of the scripts' shell functions: `set -e`
 * exits with its status, and the ERR trap does not run there (bash runs
 * it in functions only with set -E), so nothing is written to xenstore.
 * The same here: "WHAT: REASON" logged at err, exit 1. */
_Noreturn void hp_errexit(struct hotplug *h, const char *what, int err);
/* success: hotplug-status = connected (fatal when it cannot be written). */
void hp_success(struct hotplug *h);

/* claim_lock NAME / release_lock NAME: flock(2) on HP_LOCK_DIR/NAME,
 * retried until the locked file is the one at that path, exactly as
 * locking.sh's claim_lock, so forkless and the scripts exclude each
 * other. Safer than the script: the directory root's 0700 (a wider one
 * tightened), the file made 0600; a held lock file that any user may
 * have opened (another owner's, or one made while the directory was
 * wide) is fatal, never waited for; a free one is replaced. A lock that
 * cannot be taken is fatal. The time spent waiting moves the xenstore
 * deadline on (HP_XS_BUDGET_MS). */
void hp_lock(struct hotplug *h, const char *name);
void hp_unlock(struct hotplug *h);

/* readlink -f for a path that exists: the kernel's name for it, from
 * an O_PATH open and /proc/self/fd (musl's realpath() mallocs through
 * getcwd). 0 or -errno. */
int hp_realpath(const char *path, char *out, size_t cap);
/* The same, keeping the O_PATH descriptor: it holds the file the path
 * named then, whatever happens to the names after. The descriptor, or
 * -errno. */
int hp_resolve(const char *path, char *out, size_t cap);
/* open(2) of the file an O_PATH descriptor holds, through
 * /proc/self/fd/N (the same inode: no name is looked up again), with
 * flags | O_CLOEXEC. The descriptor, or -1 and errno. */
int hp_reopen(int pathfd, int flags);

/* Hand this call to Debian's script HP_SCRIPT_DIR/NAME.distrib (the
 * dpkg-divert target) by execve, with the same arguments and environment:
 * logged once at notice with why. When it cannot be executed: fatal. */
_Noreturn void hp_fallback(struct hotplug *h, const char *why);
/* Are the files the script would run (NAME.distrib and what it
 * sources) as one Debian release's xen-utils-common ships them, Debian
 * 12's or 13's, the same for all? NULL, or why not (the first file
 * that is neither, or of the other release), for hp_fallback:
 * hp_check_command asks first thing. Per call, against the stamp
 * hp_stamp_write wrote (hotplug-edits.c; docs/hotplug.md has the cost). */
const char *hp_edits(struct hotplug *h);
/* `NAME --stamp` (hp_init): record which of those files are Debian's,
 * by their stat, with their releases, in /var/lib/forkless/hotplug-stamp;
 * exit 0, or 1 with a message. forkless-xen's postinst and its dpkg
 * trigger run it. */
_Noreturn void hp_stamp_write(void);
/* Does DIR hold an executable "*.hook" (call_hooks)? */
int hp_have_hooks(const char *dir);

/* The scripts' first line: log debug "$*" "XENBUS_PATH=$XENBUS_PATH". */
void hp_log_call(struct hotplug *h);
/* The common argument check, as the scripts read their arguments: the
 * command is the first one without a '=' (findCommand) and must be one of
 * commands (NULL-ended); with eval_vars (vif-common.sh's evalVariables),
 * NAME=VALUE arguments override the environment for hp_env (libxl passes
 * `type_if=vif`), and one that is not a plain assignment is handed to the
 * script. Invalid: "Invalid command: X" logged, exit 1. */
void hp_check_command(struct hotplug *h, const char *const *commands,
		      int eval_vars);
/* getenv that treats "" as unset, as ${X:-} tests do. */
const char *hp_env(const char *name);
/* $(dirname "$0")/ into out (cut at cap-1): where the scripts source
 * their files from, as bash names them in its messages. */
void hp_script_dir(const struct hotplug *h, char *out, size_t cap);
/* ${X:?} at line `where` ("FILE: line N") of a file in the script's
 * directory: the value, or bash's "DIR/FILE: line N: X: parameter null
 * or not set" (hp_stderr), exit 1. */
const char *hp_env_required(struct hotplug *h, const char *name,
			    const char *where);

/* ---- between the family's files ------------------------------------------ */

/* The NAME=VALUE arguments hp_check_command() (hotplug.c) found plain
 * assignments, for hp_env() (hotplug-env.c): they override the
 * environment, the last one winning, as the scripts' evals in order do. */
extern char *const *hp_assign;
extern int hp_nassign;
/* The strings of list, joined, into out from len on (cut at cap-1):
 * the new length (hotplug-log.c; hp_fatal_strv() joins its message). */
size_t hp_join(char *out, size_t cap, size_t len, const char *const *list);

#endif
