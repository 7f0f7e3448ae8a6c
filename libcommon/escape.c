// SPDX-License-Identifier: MIT
/* escape.c - escaping of names and inputs for line-oriented output and
 * messages. One rule per use: mountinfo's octal (escape_octal), strace's
 * C-string quoting (escape_c), and the two behind a length cap for
 * messages (shown_input). */
#include <string.h>

#include "libcommon.h"

/* Bytes escape_octal writes for c: 1 or 4. */
static size_t octal_width(unsigned char c, int escape_space)
{
	return (c < 0x20 || c == 0x7f || c == '\\' ||
		(escape_space && c == ' ')) ? 4 : 1;
}

/* Append the n bytes of esc at out[*need], within cap (NUL kept room). */
static void put(char *out, size_t cap, size_t *need, const char *esc,
		size_t n)
{
	for (size_t k = 0; k < n; k++, (*need)++)
		if (cap && *need < cap - 1)
			out[*need] = esc[k];
}

static void octal3(char esc[4], unsigned char c)
{
	esc[0] = '\\';
	esc[1] = (char)('0' + ((c >> 6) & 7));
	esc[2] = (char)('0' + ((c >> 3) & 7));
	esc[3] = (char)('0' + (c & 7));
}

size_t escape_octal(char *out, size_t cap, const char *in, size_t len,
		    int escape_space)
{
	size_t need = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)in[i];
		char esc[4];

		if (octal_width(c, escape_space) == 4)
			octal3(esc, c);
		else
			esc[0] = (char)c;
		put(out, cap, &need, esc, octal_width(c, escape_space));
	}
	if (cap)
		out[need < cap ? need : cap - 1] = '\0';
	return need;
}

size_t escape_c(char *out, size_t cap, const char *in, size_t len)
{
	static const char named[] = "\"\"\\\\\tt\nn\vv\ff\rr";
	size_t need = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)in[i];
		const char *p = c ? memchr(named, c, sizeof(named) - 1) : NULL;
		char esc[4];
		size_t n = 1;

		/* named holds (byte, letter) pairs: match a byte, not a letter */
		if (p && (p - named) % 2 == 0) {
			esc[0] = '\\';
			esc[1] = p[1];
			n = 2;
		} else if (c < 0x20 || c >= 0x7f) {
			octal3(esc, c);
			n = 4;
		} else {
			esc[0] = (char)c;
		}
		put(out, cap, &need, esc, n);
	}
	if (cap)
		out[need < cap ? need : cap - 1] = '\0';
	return need;
}

const char *shown_input(char *out, size_t cap, const char *in, size_t len)
{
	size_t width = 0, keep = 0;

	if (escape_octal(out, cap, in, len, 0) < cap)
		return out;
	/* Too long: the longest prefix whose escaped form leaves room for
	 * "..." and the NUL, never cutting an escape in half. */
	while (keep < len) {
		size_t w = octal_width((unsigned char)in[keep], 0);

		if (width + w + 4 > cap)
			break;
		width += w;
		keep++;
	}
	escape_octal(out, cap, in, keep, 0);
	memcpy(out + width, "...", sizeof("..."));
	return out;
}
