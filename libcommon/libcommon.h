// SPDX-License-Identifier: MIT
/* libcommon.h - the helpers several forkless applets share; none of them
 * knows an applet.
 *
 * Conventions: helpers return 0 or a negative errno and never exit (the
 * die_* message helpers excepted: the applet passes the exit status);
 * applets decide exit codes. Nothing here uses stdio or the heap, so any
 * helper may be called on a hot path. One copy of each primitive: one line
 * reader, one directory iterator (dirent64.h), one number formatter, one
 * usage-error helper, one escape-and-cut for messages, one option scanner.
 * Files hold one function or one tight family, for the reader: objects are
 * linked directly with -ffunction-sections and --gc-sections, so what is
 * unused is dropped whatever the file layout. Nothing here knows an
 * applet: the applet table and dispatch are core/'s (core/applet.h).
 * Raw syscalls returning -errno: sys.h.
 */
#ifndef FORKLESS_LIBCOMMON_H
#define FORKLESS_LIBCOMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <fcntl.h>
#include <sys/types.h>

#include "autoconf.h"   /* generated from .config: ENABLE_X is 0 or 1 */

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* A string literal and its length without the NUL, for the (pointer,
 * length) arguments: str_append(buf, cap, &len, LIT("/bin/")),
 * memcmp(s, LIT("xen")). Never a length counted by hand ("" s "": only a
 * literal compiles). */
#define LIT(s) "" s "", sizeof(s) - 1
/* Whether the n bytes at p are the literal s, or start with it. */
#define LIT_IS(p, n, s) ((n) == sizeof(s) - 1 && memcmp((p), LIT(s)) == 0)
#define LIT_STARTS(p, n, s) ((n) >= sizeof(s) - 1 && memcmp((p), LIT(s)) == 0)
#define LIT_ENDS(p, n, s) \
	((n) >= sizeof(s) - 1 && memcmp((p) + (n) - (sizeof(s) - 1), LIT(s)) == 0)

/* The name used to prefix messages (die.c): the running applet's name,
 * set by the dispatcher (core/), "forkless" until then. */
extern const char *applet_name;

/* ---- output without stdio (write.c, die.c, stdout_status.c, outbuf.c) -- */

/* Write all of buf, retrying on EINTR and short writes. 0 or -errno. */
int write_all(int fd, const void *buf, size_t len);

/* The string-list helpers below take any number of strings as a typed
 * array: the macros build a compound literal of const char * ending in a
 * null pointer, so an argument that is not a string (an int, a size_t) is
 * a compile error (-Werror: int-conversion, incompatible-pointer-types),
 * not a crash in a va_arg loop. tests/unit/typed-messages.sh checks it. */
#define STR_LIST(...) ((const char *const []){ __VA_ARGS__, (const char *)0 })

/* The strings of head, list and tail (each a null-terminated array; head
 * and tail may be NULL) as one write(2) where they fit in 4 KiB (so
 * concurrent writers do not interleave lines), else in parts, never cut.
 * 0 or -errno. */
int write_line(int fd, const char *const *head, const char *const *list,
	       const char *const *tail);
#define write_strs(fd, ...) write_line(fd, NULL, STR_LIST(__VA_ARGS__), NULL)

/* For an applet's final output: 0 when ret (a write result) is 0, else
 * "APPLET: cannot write to stdout: REASON" on stderr and 1. */
int stdout_status(int ret);

/* The one message style: "APPLET: " + strings + "\n" on stderr. */
void warn_strv(const char *const *list);
#define warn_msg(...) warn_strv(STR_LIST(__VA_ARGS__))
/* warn_msg(), then _exit(status). */
_Noreturn void die_strv(int status, const char *const *list);
#define die_msg(status, ...) die_strv(status, STR_LIST(__VA_ARGS__))
/* The one usage-error style: "APPLET: " + strings +
 * " (try APPLET --help)\n" on stderr, then _exit(status). */
_Noreturn void die_usage_strv(int status, const char *const *list);
#define die_usage(status, ...) die_usage_strv(status, STR_LIST(__VA_ARGS__))
/* die_usage() of what + arg, arg shown as messages show inputs
 * (shown_input: escaped, cut to SHOWN_MAX): "unknown option ", "-\033". */
_Noreturn void die_usage_arg(int status, const char *what, const char *arg);
/* The exit status of a usage error: forkless itself and every applet but
 * the mount helpers, which follow mount(8) (MNT_EX_USAGE, 1: mount.h). */
enum { EXIT_USAGE = 2 };

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
/* v in base 10, 8 or 16 (fmt_u64_base's digits). */
void outbuf_put_num(struct outbuf *ob, uint64_t v, unsigned base);
int outbuf_flush(struct outbuf *ob);

/* ---- numbers (parse_num.c, fmt_num.c) ---------------------------------- */

/* Strict unsigned parsers over exactly [s, s+len): no sign, no blanks, no
 * empty input, no overflow. base 10, 8, or 16 (digits only, no "0x").
 * 0 or -EINVAL / -ERANGE. */
int parse_u64_base(const char *s, size_t len, unsigned base, uint64_t *out);
int parse_u64(const char *s, uint64_t *out);         /* decimal, whole string */
int parse_u32(const char *s, uint32_t *out);         /* decimal, whole string */

/* The one number formatter: the digits of v in base 2..16 (lowercase, no
 * prefix, no NUL; another base is a bug) into buf; returns the length (<= 64; <= 20 in base 10,
 * so FMT_U64_MAX bytes hold any base 8, 10 or 16 number). */
#define FMT_U64_MAX 22
size_t fmt_u64_base(char *buf, uint64_t v, unsigned base);

/* ---- strings and paths (str.c, relpath.c, escape.c) -------------------- */

/* Last component of a path ("a/b" -> "b", "a/" -> "", "b" -> "b"). */
const char *path_basename(const char *path);
/* The name forkless dispatches on: argv[0]'s basename without a
 * login-shell "-" ("/usr/sbin/-xl" -> "xl"); "" for a missing argv[0].
 * core/ (main and the entry point) and the Xen wrapper use it. */
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

/* The bytes an input takes in a message, at most (shown_input's cap). */
#define SHOWN_MAX 256
/* An input as a message shows it: escape_octal() without space escaping,
 * cut to fit cap (>= 8) with "..." marking the cut, never inside an
 * escape. Returns out. */
const char *shown_input(char *out, size_t cap, const char *in, size_t len);

/* ---- files (read_file.c, line_stream.c) -------------------------------- */

/* Files forkless expects to be regular files (sysfs values, /etc/passwd)
 * are opened O_NONBLOCK, so a FIFO or a device put there cannot hang the
 * open or the read. When such a file turns out not to be a regular file,
 * the helpers say -EBADFD (systemd's convention); a message should say
 * "not a regular file", errno_text() cannot. */
#define OPEN_REGULAR (O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
/* Is fd, opened as a regular file, one? Asked only of a suspicious result
 * (a regular file never says EAGAIN: that alone is -EBADFD), with one
 * lseek (no stat code in the binary):
 * - it gave nothing: 0 for an empty file (or /dev/null standing in for
 *   one), -EBADFD for a FIFO or a socket (lseek says ESPIPE);
 * - it streams on past a buffer: 0 for a regular file (its read position
 *   moved), -EBADFD for a device like /dev/zero or a pipe. */
int check_empty_regular(int fd);
int check_stream_regular(int fd);

/* Read a small file (sysfs value) with one openat and one read(2) (a
 * sysfs or regular file returns everything at once), leaving the fd open:
 * for an exec path, where O_CLOEXEC closes it. *fd gets the fd (or -1)
 * so that a caller that does not exec can close it. Returns the byte
 * count, or -errno; -EFBIG when the file holds cap bytes or more. */
ssize_t read_small_file_keep(int dirfd, const char *path, char *buf,
			     size_t cap, int *fd);
/* Read a small file to its end (proc files may come in pieces) and close
 * it; -EBADFD for a FIFO or a socket (see check_empty_regular), else as
 * above. */
ssize_t read_small_file_close(int dirfd, const char *path, char *buf,
			      size_t cap);
/* Read an open fd to its end: the byte count, -EFBIG when cap bytes were
 * filled, or -errno. */
ssize_t read_fd_all(int fd, char *buf, size_t cap);

/* The one line reader: any line length in bounded memory. A line longer
 * than the caller's buffer comes in pieces; a piece says whether it
 * starts and whether it ends its line (the newline itself is never
 * returned; an unterminated last line ends at end of file). Works on
 * blocking and non-blocking fds. */
struct line_stream {
	int fd;
	unsigned char eof;
	unsigned char mid;        /* the last piece did not end its line */
	char *buf;
	size_t cap, start, end;   /* unread bytes: buf[start, end) */
	uint64_t bytes_read;      /* total read(2) so far */
};
struct line_piece {
	const char *data;         /* into the reader's buffer, valid until
				     the next call */
	size_t len;
	unsigned char first;      /* starts a line */
	unsigned char last;       /* ends it */
};
void line_stream_init(struct line_stream *lr, int fd, char *buf, size_t cap);
/* 1 and *p: the next piece; 0: end of file; -EAGAIN: no data yet on a
 * non-blocking fd (poll(POLLIN) and call again, nothing is lost);
 * -errno: a read error. */
int line_stream_next(struct line_stream *lr, struct line_piece *p);
/* line_stream_next() in its two steps, for a caller that acts before a
 * read(2) (cgroup-resolve flushes its output when the read would block):
 * take answers from the buffer alone (1 and *p, 0: end of file, -EAGAIN:
 * the buffer holds no piece, fill it); fill makes one read(2) (0, or
 * -errno: -EAGAIN when a non-blocking fd has no data yet). */
int line_stream_take(struct line_stream *lr, struct line_piece *p);
int line_stream_fill(struct line_stream *lr);

/* ---- directories (dir_iter.c; the iterator itself: dirent64.h) -------- */

/* fn(dirfd, name, ctx) for each entry of dir whose name does not start
 * with '.', until one returns non-zero (returned). A dir that does not
 * exist (or is not a directory) has no entries; else -errno.
 * each_entry_all: the same for every entry but "." and "..". */
typedef int each_entry_fn(int dirfd, const char *name, void *ctx);
int each_entry(const char *dir, each_entry_fn *fn, void *ctx);
int each_entry_all(const char *dir, each_entry_fn *fn, void *ctx);

/* ---- digests (md5.c) --------------------------------------------------- */

/* RFC 1321's MD5 of len bytes at data into out: one call, no heap. */
void md5(const void *data, size_t len, unsigned char out[16]);

/* ---- time (clock.c) --------------------------------------------------- */

/* CLOCK_MONOTONIC in milliseconds (one raw clock_gettime): what every
 * deadline and rate limit is measured in. */
uint64_t clock_ms(void);

/* ---- errno texts (errno_text.c) ---------------------------------------- */

/* strerror() without musl's 2 KiB table: every errno a forkless helper or
 * applet can report, by text (musl's wording for the classic ones, glibc's
 * for the network ones: tests/unit checks the latter against strerror), any
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
/* The usage error (die_usage_arg) for optscan_next's return c, '?' or ':':
 * "unknown option -x", "unknown option --long" (the whole word), "missing
 * value for -o". An applet with a long option of its own (--walk, --help)
 * looks at argv[os->index - 1] first. */
_Noreturn void die_optscan(int status, const struct optscan *os, int c);

/* ---- syslog (syslog.c) ------------------------------------------------ */

/* "Mmm dd hh:mm:ss" (RFC 3164) of t, in UTC, NUL-terminated. */
void syslog_stamp(char out[16], time_t t);
/* One datagram "<pri>STAMP TAG[PID]: " and the strings of list to
 * /dev/log (cut at 1 KiB); 0, or -errno (no daemon: -ENOENT...). */
int syslog_line(int pri, const char *tag, const char *const *list);
#define syslog_msg(pri, tag, ...) syslog_line(pri, tag, STR_LIST(__VA_ARGS__))

/* Exec argv as sh runs a command: argv[0] with a '/' as it is, a bare
 * name from each directory of dirs ("/sbin:/bin", or $PATH) in turn.
 * Returns only when nothing ran, errno set (exec_path.c). */
void exec_path(const char *dirs, char *const argv[]);

#endif
