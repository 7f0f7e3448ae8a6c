// SPDX-License-Identifier: MIT
/* md5.c - RFC 1321's MD5 of a buffer, in one call: no context, no heap
 * (the hotplug applets compare the scripts they stand in for with the
 * digests dpkg records for them). Loads and stores byte by byte: the
 * same on any byte order. */
#include <string.h>

#include "libcommon.h"

/* floor(abs(sin(i + 1)) * 2^32) */
static const uint32_t md5_k[64] = {
	0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a,
	0xa8304613, 0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be,
	0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340,
	0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
	0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8,
	0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
	0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa,
	0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
	0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92,
	0xffeff47d, 0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
	0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};
/* each round's four rotations */
static const unsigned char md5_r[16] = {
	7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21,
};

void md5(const void *data, size_t len, unsigned char out[16])
{
	uint32_t s[4] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 };
	uint32_t m[16], a, b, c, d, f;
	const unsigned char *p = data;
	/* the bytes, 0x80, zeros, the length in bits: whole blocks */
	uint64_t total = (len + 8) / 64 * 64 + 64, bits = (uint64_t)len << 3;

	for (uint64_t off = 0; off < total; off += 64) {
		for (unsigned j = 0; j < 64; j++) {
			uint64_t k = off + j;
			uint32_t byte = k < len ? p[k] : k == len ? 0x80 :
				k >= total - 8 ? (uint32_t)(bits >> 8 * (k - total + 8)) & 0xff : 0;

			m[j >> 2] = (j & 3 ? m[j >> 2] : 0) | byte << 8 * (j & 3);
		}
		a = s[0], b = s[1], c = s[2], d = s[3];
		for (unsigned i = 0, g, r; i < 64; i++) {
			switch (i >> 4) {
			case 0: f = (b & c) | (~b & d); g = i; break;
			case 1: f = (d & b) | (~d & c); g = 5 * i + 1; break;
			case 2: f = b ^ c ^ d; g = 3 * i + 5; break;
			default: f = c ^ (b | ~d); g = 7 * i; break;
			}
			f += a + md5_k[i] + m[g & 15];
			r = md5_r[(i >> 4 << 2) | (i & 3)];
			a = d;
			d = c;
			c = b;
			b += f << r | f >> (32 - r);
		}
		s[0] += a;
		s[1] += b;
		s[2] += c;
		s[3] += d;
	}
	for (unsigned i = 0; i < 16; i++)
		out[i] = (unsigned char)(s[i >> 2] >> 8 * (i & 3));
}
