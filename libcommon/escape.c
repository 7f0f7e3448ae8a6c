/* escape.c - octal escaping of names for line-oriented output. */
#include "libcommon.h"

size_t escape_octal(char *out, size_t cap, const char *in, size_t len,
		    int escape_space)
{
	size_t need = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)in[i];
		char esc[4];
		size_t n = 1;

		if (c < 0x20 || c == 0x7f || c == '\\' ||
		    (escape_space && c == ' ')) {
			esc[0] = '\\';
			esc[1] = (char)('0' + ((c >> 6) & 7));
			esc[2] = (char)('0' + ((c >> 3) & 7));
			esc[3] = (char)('0' + (c & 7));
			n = 4;
		} else {
			esc[0] = (char)c;
		}
		for (size_t k = 0; k < n; k++, need++)
			if (cap && need < cap - 1)
				out[need] = esc[k];
	}
	if (cap)
		out[need < cap ? need : cap - 1] = '\0';
	return need;
}
