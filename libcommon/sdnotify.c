// SPDX-License-Identifier: MIT
/* sdnotify.c - EXTEND_TIMEOUT_USEC to $NOTIFY_SOCKET (sdnotify.h). */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "libcommon.h"
#include "sdnotify.h"

int sd_notify_extend_timeout(uint64_t usec)
{
	static const char key[] = "EXTEND_TIMEOUT_USEC=";
	const char *addr = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char msg[sizeof(key) + FMT_U64_MAX];
	size_t alen, n;
	int fd, ret = 0;

	if (!addr || (addr[0] != '/' && addr[0] != '@'))
		return 0;
	alen = strlen(addr);
	if (alen >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	memcpy(sa.sun_path, addr, alen);
	if (addr[0] == '@')
		sa.sun_path[0] = '\0';   /* abstract: the length bounds the name */
	memcpy(msg, key, sizeof(key) - 1);
	n = sizeof(key) - 1 + fmt_u64_base(msg + sizeof(key) - 1, usec, 10);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (sendto(fd, msg, n, MSG_NOSIGNAL, (const struct sockaddr *)&sa,
		   (socklen_t)(offsetof(struct sockaddr_un, sun_path) + alen)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}
