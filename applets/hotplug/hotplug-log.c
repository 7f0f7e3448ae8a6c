// SPDX-License-Identifier: MIT
/* hotplug-log.c - logging.sh's log without logger(1): each message a
 * syslog datagram for /dev/log (LOG_DAEMON, tagged as logger tags it),
 * held and sent together by one sendmmsg; the script's stderr when there
 * is no syslog daemon. That stderr is xen-hotplug-common.sh's: the file
 * /var/log/xen/xen-hotplug.log (hp_stderr), opened at its first line.
 *
 * Call graph: hp_log_strv() -> hp_join(), open_log() (once), and when
 * the queue is full hp_log_flush() -> syslog_stamp() (libcommon/syslog.c), sys_sendmmsg(), and
 * for what was not sent log_stderr() -> hp_stderr(); hp_exit() ->
 * hp_log_flush().
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "hotplug.h"
#include "sys.h"

/* The strings from first on, joined, into out (cut at cap-1). */
size_t hp_join(char *out, size_t cap, size_t len,
		   const char *const *list)
{
	for (; *list; list++) {
		size_t n = strlen(*list);

		if (len + n >= cap)
			n = cap - 1 - len;
		memcpy(out + len, *list, n);
		len += n;
	}
	out[len] = '\0';
	return len;
}

static int open_log(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX, .sun_path = "/dev/log" };
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

void hp_stderr_strv(struct hotplug *h, const char *const *list)
{
	char line[2 * HP_MSG_MAX];
	size_t len = 0;

	for (; *list; list++) {
		size_t n = strlen(*list);

		if (n > HP_MSG_MAX)
			n = HP_MSG_MAX;
		if (len + n >= sizeof(line))
			n = sizeof(line) - 1 - len;
		memcpy(line + len, *list, n);
		len += n;
	}
	if (h->err_fd == -2) {
		h->err_fd = openat(AT_FDCWD, HP_ERR_LOG, O_WRONLY | O_APPEND |
				   O_CREAT | O_CLOEXEC | O_NOCTTY, 0666);
		if (h->err_fd < 0)
			h->err_fd = -1;
	}
	write_all(h->err_fd >= 0 ? h->err_fd : 2, line, len);
}

/* The fallback for one message: logging.sh's echo "$0 $@" >&2. */
static void log_stderr(struct hotplug *h, const char *msg, size_t mlen)
{
	char m[HP_MSG_MAX];

	if (mlen >= sizeof(m))
		mlen = sizeof(m) - 1;
	memcpy(m, msg, mlen);
	m[mlen] = '\0';
	hp_stderr(h, h->script, " ", m, "\n");
}

/* The bytes of log_buf the held datagrams take. */
static size_t log_used(const struct hotplug *h)
{
	return h->log_n ? h->log_end[h->log_n - 1] : 0;
}

void hp_log_flush(struct hotplug *h)
{
	struct mmsghdr mm[HP_LOG_QUEUE];
	struct iovec iov[HP_LOG_QUEUE];
	unsigned n = h->log_n, sent = 0;
	struct timespec now = { 0, 0 };
	char stamp[16];
	int r;

	if (n == 0)
		return;
	h->log_n = 0;
	/* raw: musl's clock_gettime/time bring the vDSO lookup */
	sys_clock_gettime(CLOCK_REALTIME, &now);
	syslog_stamp(stamp, now.tv_sec);
	for (unsigned i = 0; i < n; i++) {
		size_t start = i ? h->log_end[i - 1] : 0;

		memcpy(h->log_buf + start + 4, stamp, 15);   /* after "<PRI>" */
		iov[i] = (struct iovec){ h->log_buf + start, h->log_end[i] - start };
		mm[i] = (struct mmsghdr){ .msg_hdr = { .msg_iov = &iov[i],
						       .msg_iovlen = 1 } };
	}
	while (sent < n && h->log_fd >= 0) {
		r = sys_sendmmsg(h->log_fd, mm + sent, n - sent, MSG_NOSIGNAL);
		if (r <= 0 && r != -EINTR) {
			close(h->log_fd);   /* the daemon went away: stderr from now */
			h->log_fd = -1;
		} else if (r > 0) {
			sent += (unsigned)r;
		}
	}
	for (unsigned i = sent; i < n; i++)
		log_stderr(h, h->log_buf + h->log_msg[i],
			   h->log_end[i] - h->log_msg[i]);
}

_Noreturn void hp_exit(struct hotplug *h, int status)
{
	hp_log_flush(h);
	_exit(status);
}

void hp_log_strv(struct hotplug *h, int level, const char *const *list)
{
	char msg[HP_MSG_MAX], line[HP_MSG_MAX + 400];
	unsigned p = 3 * 8 + (unsigned)level;   /* LOG_DAEMON */
	size_t mlen = hp_join(msg, sizeof(msg), 0, list), slen, len = 0, at, start;
	char pri[5] = { '<', (char)('0' + p / 10), (char)('0' + p % 10), '>', 0 };

	if (h->log_fd == -2)
		h->log_fd = open_log();
	if (h->log_fd < 0) {
		log_stderr(h, msg, mlen);
		return;
	}
	slen = strlen(h->script);
	if (slen > 256)
		slen = 256;
	/* "<PRI>" and the time's room: hp_log_flush stamps the lines it
	 * sends, as logger stamps a line when it sends it */
	str_append(line, sizeof(line), &len, pri, 4);
	str_append(line, sizeof(line), &len, LIT("Mmm dd hh:mm:ss"));
	/* logger's tag is the user name: hotplug scripts run as root (the
	 * kernel's AT_EUID, no syscall) */
	if (getauxval(AT_EUID) == 0)
		str_append(line, sizeof(line), &len, LIT(" root: "));
	else
		str_append(line, sizeof(line), &len, LIT(" forkless: "));
	str_append(line, sizeof(line), &len, h->script, slen);
	str_append(line, sizeof(line), &len, LIT(": "));
	at = len;
	str_append(line, sizeof(line), &len, msg, mlen);
	if (h->log_n == HP_LOG_QUEUE || log_used(h) + len > sizeof(h->log_buf))
		hp_log_flush(h);
	if (h->log_fd < 0) {   /* the flush found the daemon gone */
		log_stderr(h, msg, mlen);
		return;
	}
	start = log_used(h);
	memcpy(h->log_buf + start, line, len);
	h->log_msg[h->log_n] = (uint16_t)(start + at);
	h->log_end[h->log_n++] = (uint16_t)(start + len);
}
