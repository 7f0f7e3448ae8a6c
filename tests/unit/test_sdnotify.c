// SPDX-License-Identifier: MIT
/* Unit tests of libcommon/sdnotify.c: the datagram a listener bound where
 * NOTIFY_SOCKET says (a path, an abstract name) receives, and the answers
 * without one. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "sdnotify.h"
#include "unit.h"

/* A datagram socket bound at addr (NOTIFY_SOCKET's form), or -1. */
static int listener(const char *addr)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t len = strlen(addr);
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	memcpy(sa.sun_path, addr, len);
	if (addr[0] == '@')
		sa.sun_path[0] = '\0';
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa,
			   (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len)) < 0)
		return -1;
	return fd;
}

/* What fd has received, "" when nothing waits. */
static const char *received(int fd)
{
	static char buf[256];
	ssize_t n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);

	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

int main(void)
{
	char path[108], abstract[64], longer[200];
	int fd;

	unsetenv("NOTIFY_SOCKET");
	UNIT_CHECK("sdnotify/unset: nothing to do", sd_notify_extend_timeout(1) == 0);
	setenv("NOTIFY_SOCKET", "", 1);
	UNIT_CHECK("sdnotify/empty: nothing to do", sd_notify_extend_timeout(1) == 0);
	setenv("NOTIFY_SOCKET", "vsock:2:1", 1);
	UNIT_CHECK("sdnotify/not a unix address: nothing to do", sd_notify_extend_timeout(1) == 0);

	snprintf(path, sizeof(path), "/tmp/forkless-sdnotify-%d", (int)getpid());
	unlink(path);
	fd = listener(path);
	UNIT_CHECK("sdnotify/path: listener bound", fd >= 0);
	setenv("NOTIFY_SOCKET", path, 1);
	UNIT_CHECK("sdnotify/path: sent", sd_notify_extend_timeout(311000000) == 0);
	UNIT_STREQ("sdnotify/path: the message", "EXTEND_TIMEOUT_USEC=311000000", received(fd));
	UNIT_CHECK("sdnotify/path: UINT64_MAX sent",
		   sd_notify_extend_timeout(18446744073709551615u) == 0);
	UNIT_STREQ("sdnotify/path: UINT64_MAX whole", "EXTEND_TIMEOUT_USEC=18446744073709551615",
		   received(fd));
	UNIT_CHECK("sdnotify/path: 0 sent", sd_notify_extend_timeout(0) == 0);
	UNIT_STREQ("sdnotify/path: 0", "EXTEND_TIMEOUT_USEC=0", received(fd));
	close(fd);
	unlink(path);
	UNIT_CHECK("sdnotify/path without a listener: -ENOENT",
		   sd_notify_extend_timeout(1) == -ENOENT);

	snprintf(abstract, sizeof(abstract), "@forkless-sdnotify-%d", (int)getpid());
	fd = listener(abstract);
	UNIT_CHECK("sdnotify/abstract: listener bound", fd >= 0);
	setenv("NOTIFY_SOCKET", abstract, 1);
	UNIT_CHECK("sdnotify/abstract: sent", sd_notify_extend_timeout(300000000) == 0);
	UNIT_STREQ("sdnotify/abstract: the message", "EXTEND_TIMEOUT_USEC=300000000", received(fd));
	close(fd);

	memset(longer, 'x', sizeof(longer) - 1);
	longer[0] = '/';
	longer[sizeof(longer) - 1] = '\0';
	setenv("NOTIFY_SOCKET", longer, 1);
	UNIT_CHECK("sdnotify/address longer than sun_path: -ENAMETOOLONG",
		   sd_notify_extend_timeout(1) == -ENAMETOOLONG);
	unsetenv("NOTIFY_SOCKET");
	return unit_failures != 0;
}
