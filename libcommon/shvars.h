// SPDX-License-Identifier: MIT
/* shvars.h - read a shell file of plain assignments (/etc/default/xen,
 * /etc/default/xendomains) the way `. FILE` in bash or dash would, or
 * say that it is not plain, so that the caller hands the file to the
 * shell. Knows no applet; no heap, no stdio.
 *
 * Accepted (what dash 0.5.12 and bash 5.2 read alike, checked by
 * tests/unit/shvars-shells.sh against both):
 * - lines of words separated by blanks (space, tab) and ended by a
 *   newline (or the end of the text); blank lines; a `#` that starts a
 *   word starts a comment up to the newline (`A=1#x` is the value "1#x");
 * - every word an assignment NAME=VALUE, NAME a shell identifier
 *   ([A-Za-z_][A-Za-z0-9_]*, ASCII, unquoted): `A=1 B=2` on one line is
 *   a command of assignments only, both done, in order;
 * - VALUE the concatenation of parts (`A="x"'y'z` is "xyz"; `A=` is ""):
 *   - unquoted bytes: kept, a backslash escapes the next byte (`\x` is x);
 *   - 'single quoted': every byte up to the next ', newlines included;
 *   - "double quoted": a backslash escapes only $ ` " \ and the newline,
 *     before any other byte it stays (`"\a"` is \a); newlines kept;
 * - backslash-newline outside single quotes and comments is a line
 *   continuation: both bytes are removed wherever they stand (`A=1\
 *   2` is "12"), also between words and before a comment;
 * - glob characters (* ? [) and braces are literal: the shell expands
 *   neither in assignments; any other byte (UTF-8, control bytes but
 *   those below) is kept as it is.
 * Refused (SHVARS_NOT_PLAIN, err->line the line of the cause, 1-based,
 * err->what a static text):
 * - a $ or ` outside single quotes and not escaped: parameter expansion,
 *   command substitution, $'...' quoting (a lone $ too, to keep the rule
 *   short);
 * - an unquoted, unescaped ~ at the start of a value or after a `:`
 *   (whatever quoted it): the shell does tilde expansion there;
 * - a word that is not NAME=VALUE: a command, `export A=1`, `if`, `.`,
 *   `[`, a function, `"A"=1`, `A+=1`, `A[1]=1` (bash arrays), `A=1 cmd`;
 * - a backslash-newline inside a NAME or between it and its `=` (the
 *   shell joins the lines; the name is given as a pointer into the text);
 * - an operator: ; & | < > ( ) (`A=(x)` is a bash array);
 * - an unterminated quote (err->line: where it opens), a backslash at the
 *   end of the text;
 * - a NUL byte anywhere; a carriage return outside a comment: with CRLF
 *   line ends the shell keeps the \r in every value, surely not what was
 *   meant, so the shell gets that file;
 * - a NAME the shell keeps apart from what was written: bash's readonly
 *   and dynamic variables (UID, EUID, PPID, SHELLOPTS, BASH*, RANDOM,
 *   SRANDOM, SECONDS, LINENO, EPOCH*, HISTCMD, FUNCNAME, GROUPS,
 *   DIRSTACK, PIPESTATUS, _) and POSIXLY_CORRECT (which changes how bash
 *   reads on); other names the shells use (PATH, IFS, HOME, PS4, OPTIND)
 *   keep what is assigned and are reported as any other;
 * - a value longer than cap - 1 bytes.
 * Bytes are read as in the C or a UTF-8 locale (Debian's): in a locale
 * whose multibyte characters may hold ASCII bytes (Big5, GBK, SJIS) bash
 * could read otherwise; a file that sets LC_* to one is not expected.
 */
#ifndef FORKLESS_SHVARS_H
#define FORKLESS_SHVARS_H

#include <stddef.h>

#define SHVARS_NOT_PLAIN (-1)

struct shvars_error {
	unsigned line;      /* 1-based */
	const char *what;   /* static text, e.g. "command substitution" */
};

/* One assignment, in file order (a later one of the same name overrides:
 * the caller keeps the last). name points into the text, name_len bytes,
 * not NUL-terminated; value is in the caller's scratch, value_len bytes
 * and a NUL (none inside: a NUL byte is refused), valid until fn
 * returns. Returns 0 to go on, nonzero to stop. */
typedef int shvars_fn(void *ctx, const char *name, size_t name_len,
		      const char *value, size_t value_len);

/* Read text (len bytes, no NUL needed) with scratch (cap bytes) for the
 * values. The whole text is checked first: fn is called only when it is
 * plain, so a refused file never gave the caller a value. Returns 0 when
 * the text is only plain assignments, comments and blank lines;
 * SHVARS_NOT_PLAIN with *err (when err is not NULL) when it holds
 * anything the rules above refuse; else fn's nonzero return, as is (a fn
 * that returns -1 makes it look like SHVARS_NOT_PLAIN: do not). */
int shvars_parse(const char *text, size_t len, char *scratch, size_t cap,
		 shvars_fn *fn, void *ctx, struct shvars_error *err);

#endif
