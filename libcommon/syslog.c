// SPDX-License-Identifier: MIT
/* syslog.c - RFC 3164 datagrams for /dev/log without syslog(3): the
 * stamp (syslog_stamp: the hotplug log batches its own datagrams) and one
 * whole message sent at once (syslog_line). No stdio, no heap; a missing
 * syslog daemon is -errno, for the caller to say elsewhere. */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "libcommon.h"
#include "sys.h"

/* "Mmm dd hh:mm:ss" (RFC 3164, as logger's "%h %e %T") of t in UTC. */
void syslog_stamp(char out[16], time_t t)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	long days = (long)(t / 86400), secs = (long)(t % 86400);
	long m, d, era, doe, yoe, doy, mp;

	/* Days to month and day (H. Hinnant's civil-date algorithm, the year
	 * left out): no localtime, no TZ file; syslog daemons stamp local
	 * messages themselves anyway. */
	days += 719468;
	era = days / 146097;
	doe = days - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	d = doy - (153 * mp + 2) / 5 + 1;
	m = mp < 10 ? mp + 3 : mp - 9;
	memcpy(out, months + (m - 1) * 3, 3);
	out[3] = ' ';
	out[4] = d < 10 ? ' ' : (char)('0' + d / 10);
	out[5] = (char)('0' + d % 10);
	out[6] = ' ';
	out[7] = (char)('0' + secs / 36000);
	out[8] = (char)('0' + secs / 3600 % 10);
	out[9] = ':';
	out[10] = (char)('0' + secs % 3600 / 600);
	out[11] = (char)('0' + secs % 600 / 60);
	out[12] = ':';
	out[13] = (char)('0' + secs % 60 / 10);
	out[14] = (char)('0' + secs % 10);
	out[15] = '\0';
}

int syslog_line(int pri, const char *tag, const char *const *list)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX, .sun_path = "/dev/log" };
	struct timespec now = { 0, 0 };
	char line[1024], num[24];
	size_t len = 0;
	int fd, ret = 0;

	line[0] = '<';
	len = 1 + fmt_u64_base(line + 1, (unsigned long long)pri, 10);
	line[len++] = '>';
	sys_clock_gettime(CLOCK_REALTIME, &now);
	syslog_stamp(line + len, now.tv_sec);
	len += 15;
	line[len++] = ' ';
	num[fmt_u64_base(num, (unsigned long long)getpid(), 10)] = '\0';
	(void)str_append(line, sizeof(line), &len, tag, strlen(tag));
	(void)str_append(line, sizeof(line), &len, LIT("["));
	(void)str_append(line, sizeof(line), &len, num, strlen(num));
	(void)str_append(line, sizeof(line), &len, LIT("]: "));
	for (; *list; list++) {
		size_t n = strlen(*list);

		if (len + n >= sizeof(line))
			n = sizeof(line) - 1 - len;   /* cut: a log line, not data */
		memcpy(line + len, *list, n);
		len += n;
	}
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    send(fd, line, len, MSG_NOSIGNAL) < 0)
		ret = -errno;
	close(fd);
	return ret;
}
