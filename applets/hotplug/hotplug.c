/* hotplug.c - the Xen hotplug applets' shared part (see hotplug.h).
 * Each applet's //config:, //applet: and //usage: lines are in its own
 * file (vif-bridge.c, vif-route.c, block.c); the menu is Config.in.
 * Section GC drops what no enabled applet uses.
 */
#include <stddef.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "hotplug.h"
#include "sys.h"

extern char **environ;

/* The arguments vif-common.sh's evalVariables evals (NAME=VALUE, '=' not
 * first), once hp_check_command has found them plain assignments: they
 * override the environment, the last one winning, as the evals in order
 * do. libxl passes `type_if=vif` this way. */
static char *const *hp_assign;
static int hp_nassign;

const char *hp_env(const char *name)
{
	size_t n = strlen(name);
	const char *v = NULL;

	for (int i = 0; i < hp_nassign; i++)
		if (strncmp(hp_assign[i], name, n) == 0 && hp_assign[i][n] == '=')
			v = hp_assign[i] + n + 1;
	if (!v)
		v = getenv(name);
	return v && *v ? v : NULL;
}

const char *hp_env_required(struct hotplug *h, const char *name)
{
	const char *v = hp_env(name);

	if (!v) {
		write_strs(2, h->script, ": ", name,
			   ": parameter null or not set\n");
		hp_exit(h, 1);
	}
	return v;
}

void hp_init(struct hotplug *h, const char *name, int argc, char **argv)
{
	h->script = argc > 0 && argv[0] ? argv[0] : name;
	h->name = name;
	h->command = argc > 1 ? argv[1] : "";
	h->argc = argc;
	h->argv = argv;
	h->xb_path = hp_env("XENBUS_PATH");
	h->xs.fd = -1;
	h->xs_err = 1;          /* not opened yet */
	h->log_fd = -2;         /* not tried yet */
	h->lock_fd = -1;
}

static void collect(struct hotplug *h);

int hp_xs(struct hotplug *h)
{
	if (h->xs_err == 1)
		h->xs_err = xs_open(&h->xs, clock_ms() + HP_XS_BUDGET_MS);
	collect(h);
	return h->xs_err;
}

/* ---- messages and logging ------------------------------------------------ */

/* The strings from first on, joined, into out (cut at cap-1). */
static size_t join(char *out, size_t cap, size_t len,
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

/* "Mmm dd hh:mm:ss" (RFC 3164, as logger's "%h %e %T") of t in UTC. */
static void syslog_time(char out[16], time_t t)
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

/* The fallback for one message: logging.sh's echo "$0 $@" >&2. */
static void log_stderr(struct hotplug *h, const char *msg, size_t mlen)
{
	char line[HP_MSG_MAX + 400];
	size_t slen = strlen(h->script), len = 0;

	if (slen > 256)
		slen = 256;
	line[0] = '\0';
	str_append(line, sizeof(line), &len, h->script, slen);
	str_append(line, sizeof(line), &len, HP_LIT(" "));
	str_append(line, sizeof(line), &len, msg, mlen);
	str_append(line, sizeof(line), &len, HP_LIT("\n"));
	write_all(2, line, len);
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
	syslog_time(stamp, now.tv_sec);
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
	size_t mlen = join(msg, sizeof(msg), 0, list), slen, len = 0, at, start;
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
	str_append(line, sizeof(line), &len, HP_LIT("Mmm dd hh:mm:ss"));
	/* logger's tag is the user name: hotplug scripts run as root (the
	 * kernel's AT_EUID, no syscall) */
	if (getauxval(AT_EUID) == 0)
		str_append(line, sizeof(line), &len, HP_LIT(" root: "));
	else
		str_append(line, sizeof(line), &len, HP_LIT(" forkless: "));
	str_append(line, sizeof(line), &len, h->script, slen);
	str_append(line, sizeof(line), &len, HP_LIT(": "));
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


/* ---- xenstore ------------------------------------------------------------ */

int hp_path(const struct hotplug *h, char *out, const char *key)
{
	size_t len = 0;

	out[0] = '\0';
	if (key[0] != '/') {
		if (!h->xb_path ||
		    str_append(out, HP_PATH_MAX, &len, h->xb_path,
			       strlen(h->xb_path)) < 0 ||
		    str_append(out, HP_PATH_MAX, &len, HP_LIT("/")) < 0)
			return -ENAMETOOLONG;
	}
	return str_append(out, HP_PATH_MAX, &len, key, strlen(key));
}

/* A xenstore that cannot be asked at all: what the scripts' xenstore-read
 * would print, logged, exit 1 (nothing can be written either). */
static _Noreturn void xs_broken(struct hotplug *h, const char *path, long err)
{
	hp_log(h, HP_ERR, "xenstore ", h->xs.dev, ": cannot read ", path, ": ",
	       errno_text((int)-err));
	hp_exit(h, 1);
}

/* What a read returned, as the scripts' xenstore-read would take it: a
 * broken xenstore is fatal, a missing or unreadable key is the caller's. */
static long read_checked(struct hotplug *h, const char *path, long n)
{
	if (n < 0 && n != -ENOENT && n != -E2BIG && n != -EACCES &&
	    n != -EINVAL)
		xs_broken(h, path, n);
	return n;
}

long hp_read_path(struct hotplug *h, const char *path, char *out, size_t cap)
{
	int ret = hp_xs(h);

	if (ret < 0)
		xs_broken(h, path, ret);
	return read_checked(h, path, xs_read(&h->xs, 0, path, out, cap));
}

/* What hp_prefetch's n ops answered, for hp_read. */
static void cache_fill(struct hotplug *h, size_t n)
{
	memset(h->cache, 0, sizeof(h->cache));
	for (size_t i = 0; i < n; i++) {
		/* too long for its slot, or not asked (the stream broke
		 * before it): read again when it is wanted */
		if (h->pend[i].ret == -E2BIG || h->pend[i].ret == -ENOTCONN)
			continue;
		h->cache[i] = (struct hp_cached){ h->pend_key[i],
						  h->pend[i].ret,
						  h->pend[i].out };
	}
}

/* The replies to the reads hp_prefetch sent, before any other request. */
static void collect(struct hotplug *h)
{
	unsigned n = h->npend;

	if (n) {
		h->npend = 0;
		xs_recv(&h->xs, h->pend, n);
		cache_fill(h, n);
	}
	if (h->wstate == 1) {   /* hp_write_early's, sent after them */
		h->wstate = 2;
		xs_recv(&h->xs, &h->wop, 1);
	}
}

void hp_prefetch_strv(struct hotplug *h, const char *const *keys)
{
	char paths[HP_CACHE_MAX][HP_PATH_MAX];
	size_t n = 0, want = 0, slot;

	while (keys[want] && want < HP_CACHE_MAX)
		want++;
	/* no XENBUS_PATH or no xenstore: left to the first read, which
	 * reports it */
	if (want == 0 || !h->xb_path || hp_xs(h) < 0)
		return;
	slot = sizeof(h->cache_pool) / want;
	for (size_t i = 0; i < want; i++) {
		if (hp_path(h, paths[n], keys[i]) < 0)
			continue;   /* hp_read reports it */
		h->pend[n] = (struct xs_op){ { XS_READ, 0, paths[n], NULL, 0 },
					     h->cache_pool + n * slot, slot, 0 };
		h->pend_key[n++] = keys[i];
	}
	if (xs_send(&h->xs, h->pend, n) < 0) {
		cache_fill(h, n);   /* each op has its error */
		return;
	}
	for (size_t i = 0; i < n; i++)
		h->pend[i].rq.path = NULL;   /* sent: paths[] ends here */
	h->npend = (unsigned)n;
}

void hp_forget(struct hotplug *h, const char *key)
{
	for (size_t i = 0; i < HP_CACHE_MAX; i++)
		if (h->cache[i].key && strcmp(h->cache[i].key, key) == 0)
			h->cache[i].key = NULL;
}

long hp_read(struct hotplug *h, const char *key, char *out, size_t cap)
{
	char path[HP_PATH_MAX];
	int ret = hp_path(h, path, key);

	if (ret < 0)
		return ret;
	collect(h);
	for (size_t i = 0; i < HP_CACHE_MAX; i++) {
		const struct hp_cached *c = &h->cache[i];
		long n = c->ret;

		if (!c->key || strcmp(c->key, key) != 0)
			continue;
		if (n >= 0 && (size_t)n >= cap)
			n = -E2BIG;
		else if (n >= 0)
			memcpy(out, c->val, (size_t)n + 1);
		return read_checked(h, path, n);
	}
	return hp_read_path(h, path, out, cap);
}

/* A value longer than the call can hold is not a missing key: an error
 * naming it, never a default or a cut value. */
static void too_long(struct hotplug *h, const char *key, long ret, size_t cap)
{
	char path[HP_PATH_MAX], num[24];

	if (ret != -E2BIG)
		return;
	hp_path(h, path, key);
	num[fmt_u64_base(num, cap - 1, 10)] = '\0';
	hp_fatal(h, "xenstore value of ", path, " is longer than ", num,
		 " bytes");
}

const char *hp_read_default(struct hotplug *h, const char *key, char *out,
			    size_t cap, const char *def)
{
	long ret = hp_read(h, key, out, cap);
	size_t n;

	if (ret >= 0)
		return out;
	too_long(h, key, ret, cap);
	if (!def)
		return NULL;
	n = strlen(def);
	if (n >= cap)
		n = cap - 1;
	memcpy(out, def, n);
	out[n] = '\0';
	return out;
}

const char *hp_read_required(struct hotplug *h, const char *key, char *out,
			     size_t cap)
{
	char path[HP_PATH_MAX];
	long ret = hp_read(h, key, out, cap);

	too_long(h, key, ret, cap);
	if (ret <= 0) {
		char msg[HP_PATH_MAX + 32];
		size_t len = 0;

		hp_path(h, path, key);
		msg[0] = '\0';
		str_append(msg, sizeof(msg), &len, HP_LIT("xenstore-read "));
		str_append(msg, sizeof(msg), &len, path, strlen(path));
		str_append(msg, sizeof(msg), &len, HP_LIT(" failed."));
		hp_fatal_subshell(h, msg);
	}
	return out;
}

/* Why a write failed, on stderr, where xenstore-write complains ("could
 * not write path ..."): the script's syslog has no line for it. */
static void write_failed(struct hotplug *h, int err)
{
	write_strs(2, h->script, ": xenstore ", h->xs.dev, ": ",
		   errno_text(-err), "\n");
}

/* The write op for path = value, its "OK" reply into ok. */
static struct xs_op write_op(uint32_t tx, const char *path, const char *value,
			     char ok[8])
{
	return (struct xs_op){ { XS_WRITE, tx, path, value, strlen(value) },
			       ok, 8, 0 };
}

/* A write's answer: 0, or -errno (a reply other than "OK" is -EIO). */
static int write_done(const struct xs_op *op)
{
	if (op->ret < 0)
		return op->ret == -E2BIG ? -EIO : (int)op->ret;
	return op->ret == 3 && memcmp(op->out, "OK", 3) == 0 ? 0 : -EIO;
}

/* The pairs (key, value) of list in one transaction, retried while
 * another writer gets in first, as xenstore-write makes them (one pair:
 * a plain write). The text "K V K V" for messages into shown. */
static int write_pairs(struct hotplug *h, const char *const *list,
		       char *shown, size_t cap)
{
	const char *kv[16];
	size_t n = 0, len = 0;
	int ret;

	shown[0] = '\0';
	for (; *list && n < ARRAY_SIZE(kv); list++) {
		char path[HP_PATH_MAX];
		const char *s = *list;

		kv[n++] = s;
		if (n % 2 && hp_path(h, path, s) == 0)
			s = path;
		if (len)
			str_append(shown, cap, &len, HP_LIT(" "));
		str_append(shown, cap, &len, s, strlen(s));
	}
	hp_log(h, HP_DEBUG, "Writing ", shown, " to xenstore.");
	if ((ret = hp_xs(h)) < 0)
		return ret;
	for (size_t i = 0; i < n; i += 2)
		hp_forget(h, kv[i]);
	if (n == 2) {   /* one key: a plain write, as xenstore-write's */
		char path[HP_PATH_MAX];

		ret = hp_path(h, path, kv[0]);
		return ret < 0 ? ret : xs_write(&h->xs, 0, path, kv[1]);
	}
	for (int tries = 0; tries < 100; tries++) {
		char paths[ARRAY_SIZE(kv) / 2][HP_PATH_MAX];
		char ok[ARRAY_SIZE(kv) / 2][8];
		struct xs_op ops[ARRAY_SIZE(kv) / 2];
		size_t m = 0;
		uint32_t tx;

		if ((ret = xs_transaction_start(&h->xs, &tx)) < 0)
			return ret;
		/* the writes at once; each must answer "OK" */
		for (size_t i = 0; i + 1 < n && ret == 0; i += 2, m++) {
			ret = hp_path(h, paths[m], kv[i]);
			ops[m] = write_op(tx, paths[m], kv[i + 1], ok[m]);
		}
		if (ret == 0)
			ret = xs_requests(&h->xs, ops, m);
		for (size_t i = 0; i < m && ret == 0; i++)
			ret = write_done(&ops[i]);
		if (ret < 0) {
			xs_transaction_end(&h->xs, tx, 0);
			return ret;
		}
		ret = xs_transaction_end(&h->xs, tx, 1);
		if (ret != -EAGAIN)
			return ret;
	}
	return -EAGAIN;
}

void hp_write_early(struct hotplug *h, const char *key, const char *value)
{
	size_t n = strlen(value), len = 0;
	int ret = hp_xs(h);   /* (reads what was pending first) */

	/* for the messages, whatever happens */
	h->wpath[0] = h->wval[0] = '\0';
	str_append(h->wpath, sizeof(h->wpath), &len, key, strlen(key));
	len = 0;
	str_append(h->wval, sizeof(h->wval), &len, value, n);
	hp_forget(h, key);
	if (ret == 0) {   /* resolved aside: wpath keeps the key on failure */
		char path[HP_PATH_MAX];

		ret = hp_path(h, path, key);
		if (ret == 0)
			memcpy(h->wpath, path, strlen(path) + 1);
	}
	if (ret == 0 && n >= sizeof(h->wval))
		ret = -E2BIG;
	if (ret < 0) {
		h->wstate = ret;
		return;
	}
	h->wop = write_op(0, h->wpath, h->wval, h->wok);
	h->wstate = xs_send(&h->xs, &h->wop, 1) < 0 ? 2 : 1;
}

void hp_write_early_done(struct hotplug *h)
{
	char shown[HP_PATH_MAX + 40];
	size_t len = 0;
	int ret;

	shown[0] = '\0';
	str_append(shown, sizeof(shown), &len, h->wpath, strlen(h->wpath));
	str_append(shown, sizeof(shown), &len, HP_LIT(" "));
	str_append(shown, sizeof(shown), &len, h->wval, strlen(h->wval));
	hp_log(h, HP_DEBUG, "Writing ", shown, " to xenstore.");
	collect(h);
	ret = h->wstate < 0 ? h->wstate : write_done(&h->wop);
	h->wstate = 0;
	if (ret < 0) {
		write_failed(h, ret);
		hp_fatal(h, "Writing ", shown, " to xenstore failed.");
	}
}

int hp_write_strv(struct hotplug *h, const char *const *list)
{
	char shown[HP_MSG_MAX];

	return write_pairs(h, list, shown, sizeof(shown));
}

void hp_write_or_die_strv(struct hotplug *h, const char *const *list)
{
	char shown[HP_MSG_MAX];
	int ret = write_pairs(h, list, shown, sizeof(shown));

	if (ret < 0) {
		write_failed(h, ret);
		hp_fatal(h, "Writing ", shown, " to xenstore failed.");
	}
}

void hp_write_each_or_die_strv(struct hotplug *h, const char *const *list)
{
	char paths[8][HP_PATH_MAX], ok[8][8];
	struct xs_op ops[8];
	size_t m = 0;
	int ret = hp_xs(h);

	for (; list[0] && list[1] && m < ARRAY_SIZE(ops); list += 2, m++) {
		int r = hp_path(h, paths[m], list[0]);

		hp_forget(h, list[0]);
		if (ret == 0)
			ret = r;
		ops[m] = write_op(0, paths[m], list[1], ok[m]);
	}
	/* all but the last together; the last once they have succeeded */
	for (size_t i = 0, end = m > 1 ? m - 1 : m; ret == 0 && i < m; ) {
		ret = xs_requests(&h->xs, ops + i, end - i);
		for (; i < end; i++) {
			if (ret == 0)
				ret = write_done(&ops[i]);
			if (ret < 0)
				break;
		}
		end = m;
	}
	if (ret < 0) {
		size_t i = 0;

		while (i + 1 < m && write_done(&ops[i]) == 0)
			i++;   /* the first one that failed (or never went) */
		write_failed(h, ret);
		hp_fatal(h, "Writing ", paths[i], " ", ops[i].rq.value,
			 " to xenstore failed.");
	}
}

static _Noreturn void fail_status(struct hotplug *h, const char *status,
				  const char *msg)
{
	/* _xenstore_write: a failure to write is not fatal again */
	if (h->xb_path)
		hp_write(h, "hotplug-error", msg, "hotplug-status", status);
	hp_log(h, HP_ERR, msg);
	hp_exit(h, 1);
}

_Noreturn void hp_fatal_strv(struct hotplug *h, const char *const *list)
{
	char msg[HP_MSG_MAX];

	join(msg, sizeof(msg), 0, list);
	fail_status(h, "error", msg);
}

_Noreturn void hp_fatal_subshell(struct hotplug *h, const char *msg)
{
	/* fatal exits the $(...) subshell; the assignment then fails at the
	 * top level and the ERR trap runs fatal again: both messages are
	 * written and logged, the second one stays */
	hp_write(h, "hotplug-error", msg, "hotplug-status", "error");
	hp_log(h, HP_ERR, msg);
	hp_fatal(h, h->script, " failed; error detected.");
}

_Noreturn void hp_busy(struct hotplug *h, const char *msg)
{
	fail_status(h, "busy", msg);
}

_Noreturn void hp_sigerr(struct hotplug *h, const char *what, int err)
{
	hp_log(h, HP_ERR, what, ": ", errno_text(-err));
	hp_fatal(h, h->script, " failed; error detected.");
}

_Noreturn void hp_errexit(struct hotplug *h, const char *what, int err)
{
	hp_log(h, HP_ERR, what, ": ", errno_text(-err));
	hp_exit(h, 1);
}

void hp_success(struct hotplug *h)
{
	hp_write_or_die(h, "hotplug-status", "connected");
}

/* ---- locks --------------------------------------------------------------- */

void hp_lock(struct hotplug *h, const char *name)
{
	size_t len = 0;

	h->lock_path[0] = '\0';
	if (str_append(h->lock_path, sizeof(h->lock_path), &len, HP_LOCK_DIR "/",
		       sizeof(HP_LOCK_DIR)) < 0 ||
	    str_append(h->lock_path, sizeof(h->lock_path), &len, name,
		       strlen(name)) < 0)
		hp_fatal(h, "lock name too long: ", name);
	/* claim_lock: mkdir -p the directory, open (O_CREAT), flock, then
	 * the path must still name the file locked (a holder may have
	 * unlinked it meanwhile). The directory is made when the open finds
	 * it missing: after the first call it is there. */
	for (;;) {
		struct stat fd_st, path_st;
		int fd = -1;

		for (int made = 0; fd < 0 && made < 2; made++) {
			if (made && mkdir(HP_LOCK_DIR, 0755) < 0 && errno != EEXIST)
				hp_fatal(h, "cannot create ", HP_LOCK_DIR, ": ",
					 errno_text(errno));
			fd = openat(AT_FDCWD, h->lock_path,
				    O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY, 0666);
			if (fd < 0 && errno != ENOENT)
				break;
		}
		if (fd < 0)
			hp_fatal(h, "cannot open ", h->lock_path, ": ",
				 errno_text(errno));
		/* Taken at once, or held: then what is logged goes out
		 * first (a holder may keep it long), and the call waits. */
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			h->lock_waited = 1;
			hp_log_flush(h);
			while (flock(fd, LOCK_EX) < 0)
				if (errno != EINTR)
					hp_fatal(h, "cannot lock ", h->lock_path,
						 ": ", errno_text(errno));
		}
		if (fstat(fd, &fd_st) == 0 && stat(h->lock_path, &path_st) == 0 &&
		    fd_st.st_dev == path_st.st_dev &&
		    fd_st.st_ino == path_st.st_ino) {
			h->lock_fd = fd;
			return;
		}
		close(fd);
	}
}

void hp_unlock(struct hotplug *h)
{
	if (h->lock_fd < 0)
		return;
	/* release_lock: rm the file, as its holder (then the fd closes,
	 * where the script keeps it open until it exits: the same, since
	 * nobody can lock that file by its path any more). */
	unlink(h->lock_path);
	close(h->lock_fd);
	h->lock_fd = -1;
}

/* ---- paths --------------------------------------------------------------- */

int hp_realpath(const char *path, char *out, size_t cap)
{
	char proc[32] = "/proc/self/fd/";
	int fd = openat(AT_FDCWD, path, O_PATH | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	proc[14 + fmt_u64_base(proc + 14, (uint64_t)fd, 10)] = '\0';
	n = readlink(proc, out, cap - 1);
	close(fd);
	if (n < 0)
		return -errno;
	if ((size_t)n >= cap - 1)
		return -ENAMETOOLONG;
	out[n] = '\0';
	return 0;
}

/* ---- the fallback -------------------------------------------------------- */

_Noreturn void hp_fallback(struct hotplug *h, const char *why)
{
	char path[64], *argv0;
	size_t len = 0;

	path[0] = '\0';
	str_append(path, sizeof(path), &len, HP_SCRIPT_DIR "/",
		   sizeof(HP_SCRIPT_DIR));
	str_append(path, sizeof(path), &len, h->name, strlen(h->name));
	str_append(path, sizeof(path), &len, HP_LIT(".distrib"));
	hp_log(h, HP_NOTICE, "handing over to ", path, ": ", why);
	if (h->xs.fd >= 0) {
		xs_close(&h->xs);   /* O_CLOEXEC anyway; the script opens its own */
		h->xs_err = 1;      /* reopened should the exec fail */
	}
	hp_log_flush(h);   /* the script logs on its own */
	argv0 = h->argv[0];
	h->argv[0] = path;
	execve(path, h->argv, environ);
	h->argv[0] = argv0;
	hp_fatal(h, "cannot run ", path, " (", why, "): ", errno_text(errno));
}

static int is_hook(int dirfd, const char *name, void *ctx)
{
	size_t n = strlen(name);

	(void)ctx;
	/* call_hooks sources DIR/NAME.hook when executable ([ -x ]) */
	return n > 5 && strcmp(name + n - 5, ".hook") == 0 &&
	       sys_faccessat(dirfd, name, X_OK) == 0;
}

int hp_have_hooks(const char *dir)
{
	return each_entry(dir, is_hook, NULL) > 0;
}

void hp_log_call(struct hotplug *h)
{
	char args[HP_MSG_MAX];
	size_t len = 0;

	/* xen-hotplug-common.sh: log debug "$*" "XENBUS_PATH=$XENBUS_PATH" */
	args[0] = '\0';
	for (int i = 1; i < h->argc; i++) {
		if (i > 1)
			str_append(args, sizeof(args), &len, " ", 1);
		str_append(args, sizeof(args), &len, h->argv[i],
			   strlen(h->argv[i]));
	}
	hp_log(h, HP_DEBUG, args, " XENBUS_PATH=",
	       h->xb_path ? h->xb_path : "");
}

/* Would `eval "NAME=VALUE"` be a plain assignment of VALUE as it is? A
 * name that is no shell identifier, or a value with quoting, expansion or
 * an operator in it, is left to the script's own eval. */
static int plain_assignment(const char *arg, const char *eq)
{
	if (!(isalpha((unsigned char)*arg) || *arg == '_'))
		return 0;
	for (const char *p = arg + 1; p < eq; p++)
		if (!(isalnum((unsigned char)*p) || *p == '_'))
			return 0;
	return eq[1] != '~' && !eq[1 + strcspn(eq + 1, " \t\n'\"\\$`;&|<>()")];
}

void hp_check_command(struct hotplug *h, const char *const *commands,
		      int eval_vars)
{
	const char *command = NULL;

	/* findCommand: the first argument without a '='. evalVariables (the
	 * vif scripts only) evals the ones with a '=' after the first byte;
	 * anything else is ignored, as by the scripts. */
	for (int i = 1; i < h->argc; i++) {
		const char *a = h->argv[i], *eq = strchr(a, '=');

		if (!eq) {
			if (!command)
				command = a;
		} else if (eval_vars && eq != a && !plain_assignment(a, eq)) {
			hp_fallback(h, "an argument the script would eval as shell code");
		}
	}
	if (eval_vars && h->argc > 1) {
		hp_assign = h->argv + 1;
		hp_nassign = h->argc - 1;
		h->xb_path = hp_env("XENBUS_PATH");
	}
	h->command = command ? command : "";
	for (const char *const *c = commands; *c; c++)
		if (strcmp(h->command, *c) == 0)
			return;
	hp_log(h, HP_ERR, "Invalid command: ", h->command);
	hp_exit(h, 1);
}
