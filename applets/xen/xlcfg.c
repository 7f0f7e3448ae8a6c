// SPDX-License-Identifier: MIT
/* xlcfg.c - xl.cfg files, read as Xen 4.17's libxlutil reads them.
 *
 * The language, as measured against Debian's libxlutil.a (the oracle of
 * tests/xen/init-corpus.sh and tests/fuzz/xlcfg.sh) and described by the
 * rule table of its bison parser:
 *
 *   file       = stmt* [assignment]         (the last one needs no end)
 *   stmt       = [assignment] (NEWLINE | ";")
 *   assignment = IDENT ("=" | "+=") value
 *   value      = STRING | NUMBER | "[" nl* [items [","  nl*]] "]"
 *   items      = value nl* ("," nl* value nl*)*
 *
 * Tokens: IDENT [a-z][._0-9a-z]*, NUMBER [0-9][0-9a-fx]* (kept as text),
 * STRING in "..." or '...' on one line, NEWLINE "\n" or a "#" comment up
 * to and including its "\n"; blanks are space and tab. Anything else
 * outside a string is an error: upper case, "\r" (so a CRLF file is
 * refused), a UTF-8 byte order mark, a NUL, "+ - . ( ) :", a comment on
 * a last line without "\n" -- except that a last byte of the text that
 * is no token by itself is ignored (`name = "g"$` is valid).
 *
 * Escapes: \" \' \\ \a \b \f \n \r \t \v. Two upstream bugs a drop-in
 * must match: \x always fails (the code wants more hex digits than it
 * reads), and \ plus an octal digit reads up to three more bytes the way
 * strtoul(..., 10) would (blanks, a sign, decimal digits), fails when
 * fewer than two were read and otherwise drops them and the escape: so
 * "a\101b" is "ab". A NUL inside a string makes upstream abort (an
 * assert): refused.
 *
 * Semantics: the last assignment of a key wins; "+=" joins strings or
 * appends lists, acts as "=" on a key not yet set, and is an error when
 * it mixes a string and a list, for any key. Any error refuses the whole
 * text. The parser stack: upstream's bison parser gives up ("memory
 * exhausted") when its stack would reach XLCFG_STACK_MAX entries; `count`
 * below follows that stack entry for entry, so a list nested too deep
 * for xl is too deep here (tests/xen/init-corpus.sh checks the limit
 * from both sides in several shapes).
 *
 * parse() reads statements; parse_value() one value, calling parse_list(),
 * which walks nested lists with a bit per open level instead of recursion.
 */
#include <errno.h>
#include <string.h>

#include "libcommon.h"
#include "xlcfg.h"

enum tok {
	T_END, T_IDENT, T_NUMBER, T_STRING, T_NEWLINE,
	T_ASSIGN, T_ADD, T_SEMI, T_OPEN, T_CLOSE, T_COMMA,
};

struct token {
	enum tok type;
	size_t start, len;
	unsigned line;
};

/* Deepest nesting: each open list holds at least 2 stack entries. */
#define DEPTH_MAX (XLCFG_STACK_MAX / 2)

struct parser {
	const char *text;
	size_t len, pos;
	unsigned line;
	struct xlcfg_keys *keys;
	uint32_t mask;                  /* key slots in use - 1 */
	struct xlcfg_want *want;
	struct xlcfg_error *err;
	unsigned count;                 /* upstream's parser stack entries */
	unsigned char later[DEPTH_MAX / 8 + 1];   /* per open list: after a , */
};

/* ---- errors ------------------------------------------------------------ */

static int fail_at(struct parser *p, unsigned line, size_t near,
		   size_t near_len, const char *what)
{
	p->err->line = line;
	p->err->what = what;
	p->err->near = near;
	p->err->near_len = near_len;
	return -EINVAL;
}

static int fail_tok(struct parser *p, const struct token *t, const char *what)
{
	return fail_at(p, t->line, t->start, t->len, what);
}

/* The parser stack grows to n entries. */
static int need_stack(struct parser *p, const struct token *t, unsigned n)
{
	if (n >= XLCFG_STACK_MAX)
		return fail_tok(p, t, "lists nested too deeply (xl's parser "
				"stack has room for 10000 entries)");
	return 0;
}

/* ---- strings ----------------------------------------------------------- */

static int is_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_';
}

static int is_number_char(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || c == 'x';
}

/* How many of the (at most 3) bytes at s strtoul(s, &end, 10) would read:
 * C-locale blanks, a sign, then decimal digits; 0 without a digit. */
static size_t strtoul_span(const char *s, size_t n)
{
	size_t i = 0, digits;

	if (n > 3)
		n = 3;
	while (i < n && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')))
		i++;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		i++;
	digits = i;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return i == digits ? 0 : i;
}

/* Unquote the string token text[start, start+len) (quotes included,
 * already delimited by the lexer) into out (NULL: only check it),
 * appending at *olen. NULL or the error message; *bad is its offset. */
static const char *unquote(const char *text, size_t start, size_t len,
			   char *out, size_t *olen, size_t *bad)
{
	/* escape letter, then the byte it stands for */
	static const char named[] = "\"\"''\\\\a\ab\bf\fn\nr\rt\tv\v";
	size_t end = start + len - 1, i = start + 1;

	while (i < end) {
		char c = text[i++];
		const char *e;

		if (c != '\\') {
			if (out)
				out[(*olen)++] = c;
			continue;
		}
		*bad = i - 1;
		c = text[i++];   /* the lexer saw a byte after every \ */
		for (e = named; *e && *e != c; e += 2)
			;
		if (*e) {
			if (out)
				out[(*olen)++] = e[1];
		} else if (c == 'x') {
			return "\\x escape: xl's parser refuses every \\xHH";
		} else if (c >= '0' && c <= '7') {
			size_t n = strtoul_span(text + i, end - i);
			if (n < 2)
				return "octal escape that xl's parser refuses "
				       "(it wants \\ and 3 digits, and drops them)";
			i += n;
		} else {
			return "unknown escape (xl knows \\\" \\' \\\\ \\a \\b "
			       "\\f \\n \\r \\t \\v)";
		}
	}
	return NULL;
}

/* ---- tokens ------------------------------------------------------------ */

/* Does c alone make a token (a one-letter key, a digit, a newline, ; = [ ] ,)? */
static int is_token_alone(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       (c != '\0' && strchr("\n;=[],", c));
}

static int lex_string(struct parser *p, struct token *t)
{
	const char *s = p->text;
	char quote = s[p->pos];
	size_t i = p->pos + 1, bad;
	const char *why;

	for (;;) {
		if (i >= p->len || s[i] == '\n')
			return fail_at(p, p->line, p->pos, i - p->pos,
				       "string not closed on its line");
		if (s[i] == '\0')
			return fail_at(p, p->line, i, 1, "NUL byte in a string "
				       "(xl's parser aborts on it)");
		if (s[i] == quote)
			break;
		if (s[i] == '\\' && i + 1 < p->len && s[i + 1] != '\n' &&
		    s[i + 1] != '\0')
			i++;
		i++;
	}
	t->type = T_STRING;
	t->len = i + 1 - p->pos;
	why = unquote(s, p->pos, t->len, NULL, NULL, &bad);
	if (why)
		return fail_at(p, p->line, bad, i + 1 - bad, why);
	p->pos = i + 1;
	return 0;
}

static int lex(struct parser *p, struct token *t)
{
	const char *s = p->text;
	char c;

	while (p->pos < p->len && (s[p->pos] == ' ' || s[p->pos] == '\t'))
		p->pos++;
	t->start = p->pos;
	t->line = p->line;
	t->len = 1;
	if (p->pos >= p->len) {
		t->type = T_END;
		t->len = 0;
		return 0;
	}
	c = s[p->pos];
	/* Upstream's lexer drops a last byte that is no token by itself
	 * (measured: `name = "g"$` and `name = "g"#` are valid, with `$$`,
	 * `#c` or `$` plus a newline they are not). */
	if (p->pos + 1 == p->len && !is_token_alone(c)) {
		t->type = T_END;
		return 0;
	}
	if (c >= 'a' && c <= 'z') {
		t->type = T_IDENT;
		while (++p->pos < p->len && is_ident_char(s[p->pos]))
			;
	} else if (c >= '0' && c <= '9') {
		t->type = T_NUMBER;
		while (++p->pos < p->len && is_number_char(s[p->pos]))
			;
	} else if (c == '"' || c == '\'') {
		return lex_string(p, t);
	} else if (c == '\n' || c == '#') {
		const char *nl = memchr(s + p->pos, '\n', p->len - p->pos);
		if (!nl)
			return fail_at(p, p->line, p->pos, p->len - p->pos,
				       "comment on the last line without a "
				       "newline (xl refuses it)");
		t->type = T_NEWLINE;
		p->pos = (size_t)(nl - s) + 1;
		p->line++;
		return 0;
	} else if (c == '+' && p->pos + 1 < p->len && s[p->pos + 1] == '=') {
		t->type = T_ADD;
		p->pos += 2;
	} else if (c == '=' || c == ';' || c == '[' || c == ']' || c == ',') {
		t->type = c == '=' ? T_ASSIGN : c == ';' ? T_SEMI :
			  c == '[' ? T_OPEN : c == ']' ? T_CLOSE : T_COMMA;
		p->pos++;
	} else if (c == '\r') {
		return fail_tok(p, t, "carriage return: xl takes only \\n line "
				"ends (a CRLF file?)");
	} else if (p->pos == 0 && LIT_STARTS(s, p->len, "\xef\xbb\xbf")) {
		t->len = 3;
		return fail_tok(p, t, "UTF-8 byte order mark (xl refuses it)");
	} else if (c >= 'A' && c <= 'Z') {
		return fail_tok(p, t, "upper-case letter (xl keys are lower case)");
	} else if (c == '\0') {
		return fail_tok(p, t, "NUL byte");
	} else if (strchr("+-.():", c)) {
		return fail_tok(p, t, "xl.cfg is not Python: this character is "
				"refused outside quotes");
	} else {
		return fail_tok(p, t, "character refused outside quotes");
	}
	t->len = p->pos - t->start;
	return 0;
}

/* ---- keys -------------------------------------------------------------- */

#define SLOT_LIST 0x80000000u   /* slot = (offset of the key + 1) | type */

static int same_key(const struct parser *p, uint32_t slot,
		    const struct token *key)
{
	size_t off = (slot & ~SLOT_LIST) - 1, n = 0;

	while (off + n < p->len && is_ident_char(p->text[off + n]))
		n++;
	return n == key->len && memcmp(p->text + off, p->text + key->start, n) == 0;
}

/* The slot of key, or the free slot where it goes. */
static uint32_t *key_slot(struct parser *p, const struct token *key)
{
	uint32_t h = 2166136261u;   /* FNV-1a */

	for (size_t i = 0; i < key->len; i++)
		h = (h ^ (unsigned char)p->text[key->start + i]) * 16777619u;
	for (;; h++) {
		uint32_t *slot = &p->keys->slot[h & p->mask];
		if (*slot == 0 || same_key(p, *slot, key))
			return slot;
	}
}

/* The assignment's store: `+=` checks the type of the current value. */
static int assign(struct parser *p, const struct token *key, int add,
		  enum xlcfg_type type, const struct token *val)
{
	uint32_t *slot = key_slot(p, key);
	struct xlcfg_want *w = p->want;
	int joined = add && *slot != 0;
	size_t bad;

	if (joined && ((*slot & SLOT_LIST) != 0) != (type == XLCFG_LIST))
		return fail_tok(p, val, "+= of a list to a string, or of a "
				"string to a list");
	*slot = (uint32_t)(key->start + 1) | (type == XLCFG_LIST ? SLOT_LIST : 0);
	if (key->len != strlen(w->key) ||
	    memcmp(p->text + key->start, w->key, key->len) != 0)
		return 0;
	if (!joined) {
		w->type = type;
		w->value_len = 0;
	}
	w->line = key->line;
	if (type == XLCFG_LIST)
		return 0;
	if (w->value_len + val->len > w->value_cap)
		return fail_tok(p, val, "value longer than the caller's buffer");
	if (val->type == T_NUMBER) {
		memcpy(w->value + w->value_len, p->text + val->start, val->len);
		w->value_len += val->len;
	} else {
		unquote(p->text, val->start, val->len, w->value,
			&w->value_len, &bad);
	}
	return 0;
}

/* ---- the grammar ------------------------------------------------------- */

static void set_later(struct parser *p, unsigned depth, int later)
{
	unsigned char bit = (unsigned char)(1u << (depth % 8));

	if (later)
		p->later[depth / 8] |= bit;
	else
		p->later[depth / 8] &= (unsigned char)~bit;
}

/* The list whose "[" is t, opened with p->count stack entries. The stack
 * of each open list, counted from c, its entries before "[": "[" and an
 * empty newline run (c+2); each element starts from c+2 (the first) or
 * c+5 (after "values ," and a newline run) and then holds one entry, plus
 * a newline run; "]" reduces it all to one value (c+1). */
static int parse_list(struct parser *p, const struct token *open)
{
	enum { OPENED, AFTER_ITEM } state = OPENED;
	unsigned c = p->count, depth = 0;
	int later = 0;   /* a "," came in the current list */
	struct token t;

	if (need_stack(p, open, c + 2) < 0)
		return -EINVAL;
	for (;;) {
		unsigned item = c + (later ? 5 : 2);   /* an element's base */
		int r = lex(p, &t);

		if (r < 0)
			return r;
		if (state == OPENED) {
			switch (t.type) {
			case T_NEWLINE:
				r = need_stack(p, &t, item + 1);
				break;
			case T_STRING:
			case T_NUMBER:
				r = need_stack(p, &t, item + 2);   /* + nl run */
				state = AFTER_ITEM;
				break;
			case T_OPEN:
				if (depth + 1 >= DEPTH_MAX)
					return need_stack(p, &t, XLCFG_STACK_MAX);
				set_later(p, depth++, later);
				c = item;
				later = 0;
				r = need_stack(p, &t, c + 2);
				break;
			case T_CLOSE:
				if (later)
					goto close;   /* a trailing "," */
				r = need_stack(p, &t, c + 4);   /* empty list, "]" */
				goto close;
			default:
				return fail_tok(p, &t, "expected a value or ] in "
						"the list");
			}
		} else {
			switch (t.type) {
			case T_NEWLINE:
				r = need_stack(p, &t, item + 3);
				break;
			case T_COMMA:
				later = 1;
				r = need_stack(p, &t, c + 5);
				state = OPENED;
				break;
			case T_CLOSE:
				goto close;
			default:
				return fail_tok(p, &t, "expected , or ] in the list");
			}
		}
		if (r < 0)
			return r;
		continue;
close:
		if (r < 0)
			return r;
		if (depth == 0) {
			p->count = c + 1;
			return 0;
		}
		/* The closed list is an element of its parent: back to the
		 * parent's base, then the element's newline run. */
		depth--;
		later = (p->later[depth / 8] >> (depth % 8)) & 1;
		c -= later ? 5 : 2;
		state = AFTER_ITEM;
		if (need_stack(p, &t, c + (later ? 5 : 2) + 2) < 0)
			return -EINVAL;
	}
}

static int parse_value(struct parser *p, const struct token *key, int add)
{
	struct token t;
	int r = lex(p, &t);

	if (r < 0)
		return r;
	if (t.type == T_STRING || t.type == T_NUMBER)
		return assign(p, key, add, XLCFG_STRING, &t);
	if (t.type != T_OPEN)
		return fail_tok(p, &t, "expected a value: a string, a number "
				"or a [list]");
	r = parse_list(p, &t);
	return r < 0 ? r : assign(p, key, add, XLCFG_LIST, &t);
}

static int parse(struct parser *p)
{
	for (;;) {
		struct token key, op, end;
		int r = lex(p, &key);

		if (r < 0)
			return r;
		if (key.type == T_END)
			return 0;
		if (key.type == T_NEWLINE || key.type == T_SEMI)
			continue;
		if (key.type != T_IDENT)
			return fail_tok(p, &key, "expected a key (a lower-case "
					"name) to start a statement");
		r = lex(p, &op);
		if (r < 0)
			return r;
		if (op.type != T_ASSIGN && op.type != T_ADD)
			return fail_tok(p, &op, "expected = or += after the key");
		/* state 0, stmts, IDENT, "=" */
		p->count = 4;
		r = parse_value(p, &key, op.type == T_ADD);
		if (r < 0)
			return r;
		r = lex(p, &end);
		if (r < 0)
			return r;
		if (end.type == T_END)
			return 0;
		if (end.type != T_NEWLINE && end.type != T_SEMI)
			return fail_tok(p, &end, "expected a newline or ; after "
					"the value");
	}
}

int xlcfg_parse(const char *text, size_t len, struct xlcfg_keys *keys,
		struct xlcfg_want *want, struct xlcfg_error *err)
{
	struct parser p;
	size_t slots = 16;

	if (len > XLCFG_TEXT_MAX)
		return -EFBIG;
	/* At most (len + 1) / 4 keys: a half-full table at worst. */
	while (slots < 2 * ((len + 1) / 4))
		slots *= 2;
	memset(keys->slot, 0, slots * sizeof(keys->slot[0]));
	memset(&p, 0, sizeof(p));
	p.text = text;
	p.len = len;
	p.line = 1;
	p.keys = keys;
	p.mask = (uint32_t)slots - 1;
	p.want = want;
	p.err = err;
	want->type = XLCFG_UNSET;
	want->value_len = 0;
	want->line = 0;
	return parse(&p);
}
