// SPDX-License-Identifier: MIT
/* fuzz_passwd.c - libFuzzer target for the passwd/group lookup
 * (libcommon/passwd.c over libcommon/line_stream.c), differential: the
 * streaming lookup must agree with a simple reference that holds the whole
 * file, for any content, any name and any buffer size (down to 1 byte, so
 * lines and fields are cut everywhere; max_len 6000 gives lines longer
 * than the 4 KiB buffer of the real lookup too).
 *
 * Input: byte 0 picks the buffer size (1..64, or 4096), byte 1 the name's
 * length (0..15), then the name, then the file. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libcommon.h"
#include "passwd.h"

/* The first line NAME:PASSWORD:ID[:...] as a plain reading of passwd(5):
 * 0 and *id, -EINVAL (that line's id is not a decimal number below
 * 4294967295, or there is no id field), -ENOENT. *line: its number. */
static int reference(const char *f, size_t n, const char *name, size_t len,
		     uint32_t *id, unsigned long *line)
{
	unsigned long ln = 0;

	if (len == 0 || memchr(name, ':', len) || memchr(name, '\n', len))
		return -ENOENT;
	for (size_t i = 0; i < n;) {
		const char *l = f + i, *nl = memchr(l, '\n', n - i);
		size_t ll = nl ? (size_t)(nl - l) : n - i;
		const char *p, *c, *end = l + ll;
		uint64_t v = 0;

		ln++;
		i += ll + 1;
		if (ll <= len || memcmp(l, name, len) != 0 || l[len] != ':')
			continue;
		*line = ln;
		p = memchr(l + len + 1, ':', ll - len - 1);
		if (!p)
			return -EINVAL;
		p++;
		c = memchr(p, ':', (size_t)(end - p));
		if (!c)
			c = end;
		if (c == p)
			return -EINVAL;
		for (const char *q = p; q < c; q++) {
			if (*q < '0' || *q > '9')
				return -EINVAL;
			v = v * 10 + (uint64_t)(*q - '0');
			if (v >= UINT32_MAX)
				return -EINVAL;
		}
		*id = (uint32_t)v;
		return 0;
	}
	return -ENOENT;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char buf[4096];
	struct id_lookup res;
	uint32_t ref_id = 0;
	unsigned long ref_line = 0;
	size_t cap, len;
	const char *name, *file;
	int fd, got, want;

	if (size < 2)
		return 0;
	cap = data[0] == 255 ? sizeof(buf) : 1 + data[0] % 64;
	len = data[1] % 16;
	if (size < 2 + len)
		return 0;
	name = (const char *)data + 2;
	file = name + len;
	size -= 2 + len;

	fd = memfd_create("passwd", MFD_CLOEXEC);
	if (fd < 0 || write(fd, file, size) != (ssize_t)size ||
	    lseek(fd, 0, SEEK_SET) != 0)
		abort();
	got = lookup_id_fd(fd, name, len, &res, buf, cap);
	close(fd);
	want = reference(file, size, name, len, &ref_id, &ref_line);
	if (got != want)
		abort();
	if (got == 0 && res.id != ref_id)
		abort();
	if (got != -ENOENT && res.line != ref_line)
		abort();
	return 0;
}
