// SPDX-License-Identifier: MIT
/* shvars.c - plain shell assignments, read as bash and dash read them
 * (the rules: shvars.h). One scanner, run twice by shvars_parse(): first
 * without fn to check the whole text, then with fn, so that a caller
 * never acts on part of a file the shell must read. */
#include <string.h>

#include "shvars.h"

/* Names bash (or dash) keeps apart from what a file assigns: readonly
 * (an error, the shell goes on with its own value), dynamic (reading
 * gives something else), or changing how the shell reads on. Names
 * starting with BASH are refused by prefix (shell_own_name). */
static const char *const shell_own[] = {
	"_", "DIRSTACK", "EPOCHREALTIME", "EPOCHSECONDS", "EUID", "FUNCNAME",
	"GROUPS", "HISTCMD", "LINENO", "PIPESTATUS", "POSIXLY_CORRECT", "PPID",
	"RANDOM", "SECONDS", "SHELLOPTS", "SRANDOM", "UID",
};

struct scan {
	const char *p, *end;
	unsigned line;
	char *out;
	size_t cap, n;                /* the value so far: out[0, n) */
	struct shvars_error *err;
};

static int refuse(struct scan *s, unsigned line, const char *what)
{
	if (s->err) {
		s->err->line = line;
		s->err->what = what;
	}
	return SHVARS_NOT_PLAIN;
}

static int is_name_start(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_name_char(char c)
{
	return is_name_start(c) || (c >= '0' && c <= '9');
}

static int is_operator(char c)
{
	return c && strchr(";&|<>()", c);
}

static int shell_own_name(const char *name, size_t len)
{
	if (len >= sizeof("BASH") - 1 && memcmp(name, "BASH", sizeof("BASH") - 1) == 0)
		return 1;
	for (size_t i = 0; i < sizeof(shell_own) / sizeof(shell_own[0]); i++)
		if (strlen(shell_own[i]) == len &&
		    memcmp(shell_own[i], name, len) == 0)
			return 1;
	return 0;
}

/* Append c to the value: 0, or refused when the value and its NUL
 * would not fit. */
static int put(struct scan *s, char c)
{
	if (s->n + 2 > s->cap)
		return refuse(s, s->line, "a value longer than the buffer");
	s->out[s->n++] = c;
	return 0;
}

/* A byte no part of a value may hold (outside a comment). */
static const char *bad_byte(char c)
{
	if (c == '\0')
		return "a NUL byte";
	if (c == '\r')
		return "a carriage return (CRLF line ends?)";
	return NULL;
}

/* What a $ at p (before end) starts, for the message. */
static const char *dollar_what(const char *p, const char *end)
{
	if (p + 1 < end && p[1] == '(')
		return "command substitution $(...)";
	if (p + 1 < end && (p[1] == '\'' || p[1] == '"'))
		return "$'...' or $\"...\" quoting";
	return "parameter expansion ($)";
}

/* 'single quoted': from after the opening quote to after the closing one. */
static int single_quoted(struct scan *s)
{
	unsigned open = s->line;
	const char *what;
	int r;

	for (; s->p < s->end; s->p++) {
		char c = *s->p;
		if (c == '\'') {
			s->p++;
			return 0;
		}
		if ((what = bad_byte(c)))
			return refuse(s, s->line, what);
		if (c == '\n')
			s->line++;
		if ((r = put(s, c)))
			return r;
	}
	return refuse(s, open, "an unterminated single quote");
}

/* "double quoted": from after the opening quote to after the closing one. */
static int double_quoted(struct scan *s)
{
	unsigned open = s->line;
	const char *what;
	int r;

	while (s->p < s->end) {
		char c = *s->p;
		if (c == '"') {
			s->p++;
			return 0;
		}
		if ((what = bad_byte(c)))
			return refuse(s, s->line, what);
		if (c == '$')
			return refuse(s, s->line, dollar_what(s->p, s->end));
		if (c == '`')
			return refuse(s, s->line, "command substitution (`)");
		if (c == '\\' && s->p + 1 < s->end) {
			char e = s->p[1];
			if (e == '\n') {            /* continuation: removed */
				s->p += 2;
				s->line++;
				continue;
			}
			if (e == '$' || e == '`' || e == '"' || e == '\\') {
				if ((r = put(s, e)))
					return r;
				s->p += 2;
				continue;
			}
			/* any other: the backslash stays, the byte after it
			 * is read as itself on the next turn */
		}
		if (c == '\n')
			s->line++;
		if ((r = put(s, c)))
			return r;
		s->p++;
	}
	return refuse(s, open, "an unterminated double quote");
}

/* A value: from after the `=` to the blank, newline or end that ends the
 * word (not consumed). */
static int value(struct scan *s)
{
	const char *what;
	int r;

	s->n = 0;
	while (s->p < s->end) {
		char c = *s->p;
		if (c == ' ' || c == '\t' || c == '\n')
			break;
		if ((what = bad_byte(c)))
			return refuse(s, s->line, what);
		if (is_operator(c))
			return refuse(s, s->line, "an operator (; & | < > ( ))");
		if (c == '$')
			return refuse(s, s->line, dollar_what(s->p, s->end));
		if (c == '`')
			return refuse(s, s->line, "command substitution (`)");
		if (c == '\'') {
			s->p++;
			if ((r = single_quoted(s)))
				return r;
			continue;
		}
		if (c == '"') {
			s->p++;
			if ((r = double_quoted(s)))
				return r;
			continue;
		}
		if (c == '\\') {
			if (s->p + 1 == s->end)
				return refuse(s, s->line,
					      "a backslash at the end of the text");
			c = s->p[1];
			s->p += 2;
			if (c == '\n') {            /* continuation: removed */
				s->line++;
				continue;
			}
			if ((what = bad_byte(c)))
				return refuse(s, s->line, what);
			if ((r = put(s, c)))
				return r;
			continue;
		}
		if (c == '~' && (s->n == 0 || s->out[s->n - 1] == ':'))
			return refuse(s, s->line, "tilde expansion (~)");
		if ((r = put(s, c)))
			return r;
		s->p++;
	}
	if (s->n + 1 > s->cap)
		return refuse(s, s->line, "a value longer than the buffer");
	s->out[s->n] = '\0';
	return 0;
}

/* One word at s->p (not a blank, newline, comment or continuation): it
 * must be NAME=VALUE. */
static int assignment(struct scan *s, shvars_fn *fn, void *ctx)
{
	const char *name = s->p, *what = bad_byte(*s->p);
	unsigned line = s->line;
	size_t name_len;
	int r;

	if (what)
		return refuse(s, line, what);
	if (is_operator(*s->p))
		return refuse(s, line, "an operator (; & | < > ( ))");
	if (*s->p == '$')
		return refuse(s, line, dollar_what(s->p, s->end));
	if (*s->p == '`')
		return refuse(s, line, "command substitution (`)");
	if (is_name_start(*s->p))
		while (s->p < s->end && is_name_char(*s->p))
			s->p++;
	name_len = (size_t)(s->p - name);
	if (name_len && s->p + 1 < s->end && s->p[0] == '\\' && s->p[1] == '\n')
		return refuse(s, line, "a line continuation inside a name");
	if (!name_len || s->p == s->end || *s->p != '=')
		return refuse(s, line, "a command (a word that is not NAME=value)");
	if (shell_own_name(name, name_len))
		return refuse(s, line, "a variable the shell sets itself");
	s->p++;
	if ((r = value(s)))
		return r;
	return fn ? fn(ctx, name, name_len, s->out, s->n) : 0;
}

static int scan(const char *text, size_t len, char *scratch, size_t cap,
		shvars_fn *fn, void *ctx, struct shvars_error *err)
{
	struct scan s = {
		.p = text, .end = text + len, .line = 1,
		.out = scratch, .cap = cap, .err = err,
	};
	int r;

	while (s.p < s.end) {
		char c = *s.p;
		if (c == ' ' || c == '\t') {
			s.p++;
		} else if (c == '\n') {
			s.p++;
			s.line++;
		} else if (c == '\\' && s.p + 1 < s.end && s.p[1] == '\n') {
			s.p += 2;
			s.line++;
		} else if (c == '#') {
			/* a comment: to the newline (no continuation in it) */
			while (s.p < s.end && *s.p != '\n') {
				if (*s.p == '\0')
					return refuse(&s, s.line, "a NUL byte");
				s.p++;
			}
		} else if ((r = assignment(&s, fn, ctx))) {
			return r;
		}
	}
	return 0;
}

int shvars_parse(const char *text, size_t len, char *scratch, size_t cap,
		 shvars_fn *fn, void *ctx, struct shvars_error *err)
{
	int r = scan(text, len, scratch, cap, NULL, NULL, err);

	return r ? r : scan(text, len, scratch, cap, fn, ctx, err);
}
