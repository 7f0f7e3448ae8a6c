// SPDX-License-Identifier: MIT
/* Unit tests of the plain-assignment reader (libcommon/shvars.c): a table
 * of texts and what shvars_parse() makes of them, either every assignment
 * in order ("A=[1] B=[2]") or the refusal with its line and text
 * ("3: tilde expansion (~)"). What bash and dash make of the same kind of
 * texts: tests/unit/shvars-shells.sh. */
#include <stdio.h>
#include <string.h>

#include "shvars.h"
#include "unit.h"

struct got {
	char buf[1024];
	size_t len;
	int calls, stop_after;
};

/* Append NAME=[VALUE] to the rendering, \n and \t shown as such. */
static int collect(void *ctx, const char *name, size_t name_len,
		   const char *value, size_t value_len)
{
	struct got *g = ctx;

	if (value[value_len] != '\0' || strlen(value) != value_len)
		return 99;   /* the value must be NUL-terminated, NUL-free */
	g->len += (size_t)snprintf(g->buf + g->len, sizeof(g->buf) - g->len,
				   "%s%.*s=[", g->len ? " " : "",
				   (int)name_len, name);
	for (size_t i = 0; i < value_len && g->len < sizeof(g->buf) - 4; i++) {
		if (value[i] == '\n')
			g->len += (size_t)sprintf(g->buf + g->len, "\\n");
		else if (value[i] == '\t')
			g->len += (size_t)sprintf(g->buf + g->len, "\\t");
		else
			g->buf[g->len++] = value[i];
	}
	g->len += (size_t)snprintf(g->buf + g->len, sizeof(g->buf) - g->len, "]");
	return ++g->calls == g->stop_after ? 7 : 0;
}

/* The rendering of what shvars_parse makes of text (len bytes). */
static const char *parse(const char *text, size_t len, size_t cap,
			 int stop_after)
{
	static struct got g;
	static char out[1100];
	char scratch[256];
	struct shvars_error err = { 0, NULL };
	int r;

	memset(&g, 0, sizeof(g));
	g.stop_after = stop_after;
	r = shvars_parse(text, len, scratch, cap, collect, &g, &err);
	if (r == SHVARS_NOT_PLAIN)
		snprintf(out, sizeof(out), "%u: %s%s", err.line, err.what,
			 g.calls ? " (after calls!)" : "");
	else if (r)
		snprintf(out, sizeof(out), "stopped %d: %s", r, g.buf);
	else
		snprintf(out, sizeof(out), "%s", g.buf);
	return out;
}

static const struct {
	const char *name, *text, *expect;
} cases[] = {
	/* accepted */
	{ "empty", "", "" },
	{ "blank-lines", "\n \n\t\n", "" },
	{ "comments", "# a comment $(x) `y` ~\n  # indented; |\n", "" },
	{ "one", "A=1\n", "A=[1]" },
	{ "no-final-newline", "A=1", "A=[1]" },
	{ "empty-value", "A=\nB=\"\"\nC=''", "A=[] B=[] C=[]" },
	{ "several-per-line", "A=1 B=2\tC=3\n", "A=[1] B=[2] C=[3]" },
	{ "later-overrides", "A=1\nA=2\n", "A=[1] A=[2]" },
	{ "name-chars", "_a_9=x Zz=y", "_a_9=[x] Zz=[y]" },
	{ "equals-in-value", "A=b=c==", "A=[b=c==]" },
	{ "single-quotes", "A='x $y `z` \\ \" ~'", "A=[x $y `z` \\ \" ~]" },
	{ "single-newline", "A='a\nb'\nB=1", "A=[a\\nb] B=[1]" },
	{ "double-quotes", "A=\"a b\"", "A=[a b]" },
	{ "double-escapes", "A=\"\\$\\`\\\"\\\\\"", "A=[$`\"\\]" },
	{ "double-other-backslash", "A=\"\\a\\'\\ \\n\"", "A=[\\a\\'\\ \\n]" },
	{ "double-backslash-last", "A=\"x\\\\\"", "A=[x\\]" },
	{ "double-continuation", "A=\"a\\\nb\"", "A=[ab]" },
	{ "double-newline", "A=\"a\nb\"", "A=[a\\nb]" },
	{ "double-tilde", "A=\"~\" B=\"x:~\"", "A=[~] B=[x:~]" },
	{ "concatenation", "A=\"x\"'y'z\\ w", "A=[xyz w]" },
	{ "unquoted-escapes", "A=\\$\\`\\'\\\"\\;\\ \\#\\~\\a", "A=[$`'\"; #~a]" },
	{ "continuation-value", "A=1\\\n2\n", "A=[12]" },
	{ "continuation-between", "A=1 \\\nB=2", "A=[1] B=[2]" },
	{ "continuation-before-comment", "A=1 \\\n# c\nB=2", "A=[1] B=[2]" },
	{ "continuation-hash-in-value", "A=1\\\n#c", "A=[1#c]" },
	{ "continuation-leading", "\\\nA=1", "A=[1]" },
	{ "continuation-after-equals", "A=\\\nx", "A=[x]" },
	{ "comment-no-continuation", "# c \\\nA=1", "A=[1]" },
	{ "escaped-backslash-newline", "A=x\\\\\nB=1", "A=[x\\] B=[1]" },
	{ "hash-inside-word", "A=1#x B=#y", "A=[1#x] B=[#y]" },
	{ "comment-after", "A=1 #x $(y)\n", "A=[1]" },
	{ "comment-after-tab", "A=1\t# x", "A=[1]" },
	{ "glob-literal", "A=* B=?x C=[ab] D={a,b}", "A=[*] B=[?x] C=[[ab]] D=[{a,b}]" },
	{ "tilde-inside", "A=x~ B=a~b:c", "A=[x~] B=[a~b:c]" },
	{ "braces-value", "A=} B={", "A=[}] B=[{]" },
	{ "utf8", "A=\xc3\xa9t\xc3\xa9", "A=[\xc3\xa9t\xc3\xa9]" },
	{ "high-bytes", "A=\xff\x80", "A=[\xff\x80]" },
	{ "control-bytes", "A=\x01\x0b\x0c\x7f", "A=[\x01\x0b\x0c\x7f]" },
	{ "cr-in-comment", "# c\r\nA=1\n", "A=[1]" },
	{ "exclamation", "A=!x", "A=[!x]" },
	{ "bash-prefix-like", "BAS=1 XBASH=2", "BAS=[1] XBASH=[2]" },
	{ "xendomains",
	  "## Type: string\n"
	  "XENDOMAINS_SAVE=/var/lib/xen/save\n"
	  "XENDOMAINS_RESTORE=true\n"
	  "XENDOMAINS_AUTO=/etc/xen/auto\n"
	  "XENDOMAINS_SHUTDOWN=\"--wait\"\n"
	  "XENDOMAINS_MIGRATE=\"\"\n",
	  "XENDOMAINS_SAVE=[/var/lib/xen/save] XENDOMAINS_RESTORE=[true] "
	  "XENDOMAINS_AUTO=[/etc/xen/auto] XENDOMAINS_SHUTDOWN=[--wait] "
	  "XENDOMAINS_MIGRATE=[]" },
	/* refused, each with its line */
	{ "dollar-var", "A=1\nB=$A", "2: parameter expansion ($)" },
	{ "dollar-brace", "\n\nA=${B}", "3: parameter expansion ($)" },
	{ "dollar-lone", "A=$", "1: parameter expansion ($)" },
	{ "dollar-cmdsubst", "A=1\nB=$(id)", "2: command substitution $(...)" },
	{ "dollar-ansi", "A=$'x'", "1: $'...' or $\"...\" quoting" },
	{ "dollar-locale", "A=$\"x\"", "1: $'...' or $\"...\" quoting" },
	{ "dollar-in-double", "A=\"x\n$y\"", "2: parameter expansion ($)" },
	{ "backquote", "A=`id`", "1: command substitution (`)" },
	{ "backquote-in-double", "A=\"`id`\"", "1: command substitution (`)" },
	{ "dollar-word", "$(reboot)", "1: command substitution $(...)" },
	{ "backquote-word", "\n`reboot`", "2: command substitution (`)" },
	{ "tilde-start", "A=1\nB=~", "2: tilde expansion (~)" },
	{ "tilde-user", "A=~root/x", "1: tilde expansion (~)" },
	{ "tilde-after-colon", "A=/bin:~/bin", "1: tilde expansion (~)" },
	{ "tilde-after-quoted-colon", "A=x':'~", "1: tilde expansion (~)" },
	{ "tilde-after-empty-quotes", "A=''~", "1: tilde expansion (~)" },
	{ "tilde-after-continuation", "A=\\\n~", "2: tilde expansion (~)" },
	{ "command", "A=1\necho hi", "2: a command (a word that is not NAME=value)" },
	{ "command-after-assignment", "A=1 true", "1: a command (a word that is not NAME=value)" },
	{ "export", "export A=1", "1: a command (a word that is not NAME=value)" },
	{ "dot", ". /etc/x", "1: a command (a word that is not NAME=value)" },
	{ "if", "if true", "1: a command (a word that is not NAME=value)" },
	{ "test-bracket", "[ -f x ]", "1: a command (a word that is not NAME=value)" },
	{ "function", "f() { :; }", "1: a command (a word that is not NAME=value)" },
	{ "name-only", "A", "1: a command (a word that is not NAME=value)" },
	{ "quoted-name", "\"A\"=1", "1: a command (a word that is not NAME=value)" },
	{ "escaped-name", "\\A=1", "1: a command (a word that is not NAME=value)" },
	{ "escaped-equals", "A\\=1", "1: a command (a word that is not NAME=value)" },
	{ "digit-name", "1A=1", "1: a command (a word that is not NAME=value)" },
	{ "equals-first", "=1", "1: a command (a word that is not NAME=value)" },
	{ "append", "A+=1", "1: a command (a word that is not NAME=value)" },
	{ "array-element", "A[1]=1", "1: a command (a word that is not NAME=value)" },
	{ "utf8-name", "\xc3\xa9=1", "1: a command (a word that is not NAME=value)" },
	{ "brace-word", "{ A=1; }", "1: a command (a word that is not NAME=value)" },
	{ "continuation-in-name", "A\\\nB=1", "1: a line continuation inside a name" },
	{ "continuation-before-equals", "\nA\\\n=1", "2: a line continuation inside a name" },
	{ "semicolon", "A=1; B=2", "1: an operator (; & | < > ( ))" },
	{ "ampersand", "A=1 &", "1: an operator (; & | < > ( ))" },
	{ "pipe", "A=1|x", "1: an operator (; & | < > ( ))" },
	{ "redirect", "A=1 >x", "1: an operator (; & | < > ( ))" },
	{ "input", "A=1<x", "1: an operator (; & | < > ( ))" },
	{ "array", "A=(a b)", "1: an operator (; & | < > ( ))" },
	{ "subshell", "(A=1)", "1: an operator (; & | < > ( ))" },
	{ "unterminated-single", "A=1\nB='x\n\n", "2: an unterminated single quote" },
	{ "unterminated-double", "A=\"x\\\"", "1: an unterminated double quote" },
	{ "unterminated-double-backslash", "A=\"x\\", "1: an unterminated double quote" },
	{ "backslash-at-end", "A=x\\", "1: a backslash at the end of the text" },
	{ "crlf", "A=1\r\n", "1: a carriage return (CRLF line ends?)" },
	{ "cr-blank-line", "A=1\n\r\n", "2: a carriage return (CRLF line ends?)" },
	{ "cr-in-quotes", "A='\r'", "1: a carriage return (CRLF line ends?)" },
	{ "cr-escaped", "A=\\\r", "1: a carriage return (CRLF line ends?)" },
	{ "readonly-uid", "UID=0", "1: a variable the shell sets itself" },
	{ "dynamic-random", "A=1\nRANDOM=4", "2: a variable the shell sets itself" },
	{ "bash-prefix", "BASH_ENV=/x", "1: a variable the shell sets itself" },
	{ "underscore", "_=1", "1: a variable the shell sets itself" },
	{ "posixly-correct", "POSIXLY_CORRECT=1", "1: a variable the shell sets itself" },
	{ "pipestatus", "PIPESTATUS=0", "1: a variable the shell sets itself" },
	{ "shell-names-kept", "PATH=/bin IFS=: OPTIND=1", "PATH=[/bin] IFS=[:] OPTIND=[1]" },
	/* the whole text is checked before any call */
	{ "no-call-before-refusal", "A=1\nB=2\nC=$x", "3: parameter expansion ($)" },
};

int main(void)
{
	char name[128];
	static char big[300];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(name, sizeof(name), "shvars/%s", cases[i].name);
		UNIT_STREQ(name, cases[i].expect,
			   parse(cases[i].text, strlen(cases[i].text), 256, 0));
	}

	/* NUL bytes: in a value, in quotes, in a comment, starting a word */
	UNIT_STREQ("shvars/nul-value", "1: a NUL byte", parse("A=x\0y", 5, 256, 0));
	UNIT_STREQ("shvars/nul-single", "2: a NUL byte", parse("\nA='\0'", 6, 256, 0));
	UNIT_STREQ("shvars/nul-double", "1: a NUL byte", parse("A=\"\0\"", 5, 256, 0));
	UNIT_STREQ("shvars/nul-escaped", "1: a NUL byte", parse("A=\\\0", 4, 256, 0));
	UNIT_STREQ("shvars/nul-comment", "1: a NUL byte", parse("#\0\nA=1", 6, 256, 0));
	UNIT_STREQ("shvars/nul-word", "1: a NUL byte", parse("\0", 1, 256, 0));
	/* len is honoured: nothing past it is read (ASan: the buffer is
	 * exactly len bytes) */
	{
		char exact[3] = { 'A', '=', '1' };
		UNIT_STREQ("shvars/len-exact", "A=[1]", parse(exact, 3, 256, 0));
		UNIT_STREQ("shvars/len-short", "A=[]", parse(exact, 2, 256, 0));
		UNIT_STREQ("shvars/len-name-only", "1: a command (a word that is not NAME=value)",
			   parse(exact, 1, 256, 0));
	}

	/* cap: a value of cap - 1 bytes fits, cap bytes do not */
	memcpy(big, "A=", 2);
	memset(big + 2, 'x', 256);
	UNIT_CHECK("shvars/cap-fits", strlen(parse(big, 2 + 255, 256, 0)) == 2 + 255 + 2);
	UNIT_STREQ("shvars/cap-over", "1: a value longer than the buffer",
		   parse(big, 2 + 256, 256, 0));
	UNIT_STREQ("shvars/cap-zero", "1: a value longer than the buffer",
		   parse("A=", 2, 0, 0));
	UNIT_STREQ("shvars/cap-one", "A=[]", parse("A=", 2, 1, 0));
	UNIT_STREQ("shvars/cap-one-over", "1: a value longer than the buffer",
		   parse("A=x", 3, 1, 0));
	UNIT_STREQ("shvars/cap-quoted", "2: a value longer than the buffer",
		   parse("\nA='abc'", 8, 3, 0));

	/* fn's nonzero return stops the walk and is returned */
	UNIT_STREQ("shvars/fn-stops", "stopped 7: A=[1] B=[2]",
		   parse("A=1 B=2\nC=3", 11, 256, 2));

	/* err may be NULL */
	UNIT_CHECK("shvars/err-null", shvars_parse("$x", 2, big, sizeof(big), collect,
						   NULL, NULL) == SHVARS_NOT_PLAIN);
	return unit_failures ? 1 : 0;
}
