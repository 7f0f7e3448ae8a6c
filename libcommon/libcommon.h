/* libcommon.h - the few helpers several forkless applets share.
 *
 * Conventions (see STYLE.md): helpers return 0 or a negative errno and
 * never exit; applets decide exit codes. Nothing here uses stdio or the
 * heap, so any helper may be called on a hot path. One function (or one
 * tight family) per .c file so a static link pulls in only what is used.
 */
#ifndef FORKLESS_LIBCOMMON_H
#define FORKLESS_LIBCOMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "autoconf.h"   /* generated from .config: ENABLE_X is 0 or 1 */

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- applets and dispatch (multicall.c) -------------------------------- */

typedef int applet_main_fn(int argc, char **argv);

/* Flags of an applet table entry. */
enum {
	/* All arguments belong to a program this applet execs: never
	 * intercept --help (e.g. `xen --help` must reach xl). */
	APPLET_ARGS_PASSTHROUGH = 1,
	/* The applet takes --help itself, in any position, with its own
	 * exit codes (the mount helpers: 2 when stdout cannot be written). */
	APPLET_OWN_HELP = 2,
};

struct applet {
	const char *name;          /* argv[0] basename it answers to */
	const char *install_path;  /* relative to the root, e.g. usr/sbin/xen */
	applet_main_fn *main;
	const char *usage;         /* --help text, "" when help is configured out */
	unsigned flags;
};

/* The name used to prefix messages: the running applet's name. */
extern const char *applet_name;

const struct applet *find_applet(const char *name);
const struct applet *applet_table(size_t *count);

/* Entry points of applets that are called without a table entry. */
int xen_utils_wrapper_main(int argc, char **argv);

/* ---- installed paths (links.c, install.c) ------------------------------ */

/* Where the binary itself is installed, relative to the root. */
#define FORKLESS_INSTALL_PATH "usr/bin/forkless"

/* Every path `--install` creates besides the binary: each applet's
 * install_path (link_to = FORKLESS_INSTALL_PATH), then each Xen tool name
 * of CONFIG_XEN_WRAPPED_TOOLS (link_to = the wrapper's install path, as
 * Debian's symlinks do). The callback gets a NUL-terminated path; a
 * non-zero return stops the walk and is returned. */
typedef int install_link_fn(const char *path, const char *link_to, void *ctx);
int for_each_install_link(install_link_fn *fn, void *ctx);
/* Is name (a basename) one of CONFIG_XEN_WRAPPED_TOOLS? */
int is_wrapped_tool(const char *name);
/* `forkless --install [-s] DIR`; argv[0] is "--install". Exit status. */
int forkless_install(int argc, char **argv);

/* ---- output without stdio (write.c, die.c, outbuf.c) ------------------- */

/* Write all of buf, retrying on EINTR and short writes. 0 or -errno. */
int write_all(int fd, const void *buf, size_t len);

/* The string-list helpers below take any number of strings; the macros
 * end the list with a typed null pointer, so call sites never write the
 * sentinel (a bare NULL may be an int 0, which va_arg(const char *) must
 * not read). */
#define STR_LIST_END ((const char *)0)

/* Write the strings to fd as one write(2) where they fit in 4 KiB (so
 * concurrent writers do not interleave), else in parts, never cut. */
int write_strs_list(int fd, const char *first, ...);
#define write_strs(fd, ...) write_strs_list(fd, __VA_ARGS__, STR_LIST_END)

/* head + the strings up to a null pointer + tail, as one write(2) where it
 * fits in 4 KiB. 0 or -errno. */
int write_line_va(int fd, const char *head, const char *first, va_list ap,
		  const char *tail);

/* For an applet's final output: 0 when ret (a write result) is 0, else
 * "APPLET: cannot write to stdout: REASON" on stderr and 1. */
int stdout_status(int ret);

/* "APPLET: " + strings + "\n" on stderr. */
void warn_msg_list(const char *first, ...);
#define warn_msg(...) warn_msg_list(__VA_ARGS__, STR_LIST_END)
/* warn_msg(), then _exit(status). */
_Noreturn void die_msg_list(int status, const char *first, ...);
#define die_msg(status, ...) die_msg_list(status, __VA_ARGS__, STR_LIST_END)

/* A buffered writer for applets that print many lines (never on the Xen
 * hot path). flush() returns 0 or -errno; the first error sticks. */
struct outbuf {
	int fd;
	int error;
	size_t len;
	char buf[8192];
};
void outbuf_init(struct outbuf *ob, int fd);
void outbuf_put(struct outbuf *ob, const void *data, size_t len);
void outbuf_puts(struct outbuf *ob, const char *s);
void outbuf_putc(struct outbuf *ob, char c);
void outbuf_put_u64(struct outbuf *ob, uint64_t v);
int outbuf_flush(struct outbuf *ob);

/* ---- numbers (parse_num.c, fmt_num.c) ---------------------------------- */

/* Strict unsigned parsers over exactly [s, s+len): no sign, no blanks, no
 * empty input, no overflow. base 10, 8, or 16 (digits only, no "0x").
 * 0 or -EINVAL / -ERANGE. */
int parse_u64_base(const char *s, size_t len, unsigned base, uint64_t *out);
int parse_u64(const char *s, uint64_t *out);         /* decimal, whole string */
int parse_u32(const char *s, uint32_t *out);         /* decimal, whole string */

/* Decimal digits of v into buf (no NUL); returns the length (<= 20). */
size_t fmt_u64(char *buf, uint64_t v);

/* ---- strings and paths (str.c, relpath.c, escape.c) -------------------- */

/* Last component of a path ("a/b" -> "b", "a/" -> "", "b" -> "b"). */
const char *path_basename(const char *path);
/* The name forkless dispatches on: argv[0]'s basename without a
 * login-shell "-" ("/usr/sbin/-xl" -> "xl"); "" for a missing argv[0].
 * main(), the early exec path and the Xen wrapper all use it. */
const char *dispatch_name(const char *argv0);

/* Append src to dst (capacity cap, dst NUL-terminated at *len): returns 0,
 * or -ENAMETOOLONG leaving dst unchanged when it does not fit. */
int str_append(char *dst, size_t cap, size_t *len, const char *src, size_t n);

/* The relative symlink target that makes `link` (a path below some root)
 * point at `target` (a path below the same root), e.g.
 * ("usr/sbin/xl", "usr/lib/xen-common/bin/xen-utils-wrapper") ->
 * "../lib/xen-common/bin/xen-utils-wrapper". 0 or -ENAMETOOLONG. */
int relative_link_target(const char *link, const char *target,
			 char *out, size_t cap);

/* Escape bytes as /proc/self/mountinfo does: tab, newline, backslash, space
 * (when escape_space), other control bytes and DEL as \ooo. Writes at most
 * cap-1 bytes + NUL; returns the length the full result needs (like
 * snprintf), so callers can detect and refuse truncation. */
size_t escape_octal(char *out, size_t cap, const char *in, size_t len,
		    int escape_space);

/* strace's quoting of a string, without the surrounding quotes: \" \\ \t
 * \n \v \f \r by name, any other byte below 0x20 or from 0x7f up as a
 * three-digit octal escape, so the result is unambiguous inside "...".
 * Same contract as escape_octal (cap-1 bytes + NUL, returns the length the
 * full result needs); escaping is per byte, so a long input may be
 * escaped in pieces. */
size_t escape_c(char *out, size_t cap, const char *in, size_t len);

/* An input as a message shows it: escape_octal() without space escaping,
 * cut to fit cap (>= 8) with "..." marking the cut, never inside an
 * escape. Returns out. */
const char *shown_input(char *out, size_t cap, const char *in, size_t len);

/* ---- files (read_file.c) ----------------------------------------------- */

/* Read a small file (sysfs value) with openat+read on O_CLOEXEC, without
 * closing (callers on an exec path rely on O_CLOEXEC; others call
 * read_small_file_close). Returns the byte count, or -errno. When the file
 * holds cap bytes or more, returns -EFBIG after reading cap bytes. */
ssize_t read_small_file(int dirfd, const char *path, char *buf, size_t cap);
ssize_t read_small_file_close(int dirfd, const char *path, char *buf,
			      size_t cap);
/* Read an open fd to its end: the byte count, -EFBIG when cap bytes were
 * filled, or -errno. */
ssize_t read_fd_all(int fd, char *buf, size_t cap);

/* ---- users and groups (passwd.c) -------------------------------------- */

/* Look NAME (len bytes) up in a passwd(5)/group(5) style file: the id is
 * the third field in both. 0, -ENOENT (no such name), -EINVAL (malformed
 * id on that line), or -errno reading the file. No NSS: a static binary
 * reads the files, as an initramfs has nothing else. */
int lookup_id_in_file(const char *path, const char *name, size_t len,
		      uint32_t *id);

/* ---- errno texts (errno_text.c) ---------------------------------------- */

/* strerror() without musl's 2 KiB table: the common errnos by text, any
 * other as "error N". Use this, not strerror(), in every applet. */
const char *errno_text(int err);

/* ---- option scanning (optscan.c) --------------------------------------- */

/* getopt-like scanning of the WHOLE argv: options may follow operands
 * (the way mount(8) calls helpers: `mount.X SPEC DIR -o OPTS`), "--" ends
 * options. `spec` lists option letters; a letter followed by ':' takes a
 * value (attached "-oX" or separate "-o X"). Operands are collected in
 * order into os->operands (which aliases argv storage: argv is permuted).
 */
struct optscan {
	char **argv;
	int argc;
	int index;          /* next argv index to look at */
	const char *spec;
	const char *next;   /* rest of a bundled "-abc" */
	const char *value;  /* value of the last option that takes one */
	int bad_option;     /* the offending letter for '?' and ':' returns */
	int noperands;
	char **operands;    /* == argv + 1 after optscan_init */
};
void optscan_init(struct optscan *os, int argc, char **argv, const char *spec);
/* Returns the option letter, -1 at the end, '?' for an unknown option,
 * ':' for a missing value (os->bad_option names it). */
int optscan_next(struct optscan *os);

#endif
