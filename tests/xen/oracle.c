// SPDX-License-Identifier: MIT
/* oracle.c - the real xl.cfg parser as xen-init-name's oracle: Debian's
 * libxlutil.a (libxen-dev), called as `xl create --dryrun` calls it.
 *
 *   oracle FILE   FILE read as libxl_read_file_contents reads it (a regular
 *                 file, whole), parsed by xlu_cfg_readdata, the name taken
 *                 by xlu_cfg_get_string: prints NAME and a newline, exit
 *                 0; exit 1 when xl would refuse FILE (libxlutil's own
 *                 messages on stderr). The file is also parsed by
 *                 xlu_cfg_readfile: exit 3 when the two disagree.
 *
 * A NUL byte inside a quoted string makes libxlutil abort (an assertion
 * in its unquoting): the oracle then dies of SIGABRT, as xl would. The
 * library's prototypes and its one stub: libxlutil.h here. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libxlutil.h"

/* 0 and the name, or 1 when refused (as xen-init-name's exit status). */
static int name_of(XLU_Config *cfg, int parse_status, const char **name)
{
	if (parse_status != 0)
		return 1;
	return xlu_cfg_get_string(cfg, "name", name, 0) != 0;
}

int main(int argc, char **argv)
{
	static char data[64 << 20];
	XLU_Config *by_data, *by_file;
	const char *name = NULL, *name2 = NULL;
	struct stat st;
	ssize_t n, len = 0;
	int fd, r, r2;

	if (argc != 2) {
		fprintf(stderr, "usage: oracle FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st) < 0) {
		perror(argv[1]);
		return 1;
	}
	if (!S_ISREG(st.st_mode)) {   /* libxl_read_file_contents */
		fprintf(stderr, "%s is not a plain file\n", argv[1]);
		return 1;
	}
	while ((n = read(fd, data + len, sizeof(data) - (size_t)len)) > 0)
		len += n;
	if (n < 0) {
		perror(argv[1]);
		return 1;
	}
	by_data = xlu_cfg_init(stderr, argv[1]);
	r = name_of(by_data, xlu_cfg_readdata(by_data, data, (int)len), &name);
	by_file = xlu_cfg_init(fopen("/dev/null", "w"), argv[1]);
	r2 = name_of(by_file, xlu_cfg_readfile(by_file, argv[1]), &name2);
	if (r != r2 || (r == 0 && strcmp(name, name2) != 0)) {
		fprintf(stderr, "%s: xlu_cfg_readdata and xlu_cfg_readfile "
			"disagree\n", argv[1]);
		return 3;
	}
	if (r == 0)
		printf("%s\n", name);
	return r;
}
