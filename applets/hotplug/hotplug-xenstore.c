// SPDX-License-Identifier: MIT
/* hotplug-xenstore.c - xenstore as xen-hotplug-common.sh uses it:
 * xenstore_read(_default), xenstore_write, and the hotplug-status and
 * hotplug-error keys fatal, ebusy and success write; over one connection
 * per call, the reads of hp_prefetch() sent together.
 *
 * Call graph: hp_read() -> hp_path(), collect() (the prefetched replies
 * -> cache_fill()), else hp_read_path() -> hp_xs(), xs_read(),
 * read_checked() (a broken xenstore: xs_broken()); hp_read_default()/
 * _required() -> hp_read(), too_long(); hp_write_strv()/_or_die_strv()
 * -> write_pairs() (one transaction: xs_requests(), write_done());
 * hp_write_early() sends, hp_write_early_done() -> collect();
 * hp_fatal_strv()/hp_busy() -> fail_status() -> hp_write, hp_log(),
 * hp_exit(); hp_success() -> hp_write_or_die().
 */
#include <errno.h>
#include <string.h>

#include "hotplug.h"

static void collect(struct hotplug *h);

int hp_xs(struct hotplug *h)
{
	if (h->xs_err == 1)
		h->xs_err = xs_open(&h->xs, clock_ms() + HP_XS_BUDGET_MS);
	collect(h);
	return h->xs_err;
}

int hp_path(const struct hotplug *h, char *out, const char *key)
{
	size_t len = 0;

	out[0] = '\0';
	if (key[0] != '/') {
		if (!h->xb_path ||
		    str_append(out, HP_PATH_MAX, &len, h->xb_path,
			       strlen(h->xb_path)) < 0 ||
		    str_append(out, HP_PATH_MAX, &len, LIT("/")) < 0)
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
		if (ret < 0)   /* xenstore-read's complaint (an empty value: none) */
			hp_stderr(h, "xenstore-read: couldn't read path ", path, "\n");
		msg[0] = '\0';
		str_append(msg, sizeof(msg), &len, LIT("xenstore-read "));
		str_append(msg, sizeof(msg), &len, path, strlen(path));
		str_append(msg, sizeof(msg), &len, LIT(" failed."));
		hp_fatal_subshell(h, msg);
	}
	return out;
}

/* A failed write: xenstore-write's complaint on the script's stderr
 * (hp_stderr; the script's syslog has no line for it). */
static void write_failed(struct hotplug *h, const char *path)
{
	hp_stderr(h, "xenstore-write: could not write path ", path, "\n");
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
	return op->ret == sizeof("OK") && memcmp(op->out, "OK", sizeof("OK")) == 0 ? 0 : -EIO;
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
			str_append(shown, cap, &len, LIT(" "));
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
	str_append(shown, sizeof(shown), &len, LIT(" "));
	str_append(shown, sizeof(shown), &len, h->wval, strlen(h->wval));
	hp_log(h, HP_DEBUG, "Writing ", shown, " to xenstore.");
	collect(h);
	ret = h->wstate < 0 ? h->wstate : write_done(&h->wop);
	h->wstate = 0;
	if (ret < 0) {
		write_failed(h, h->wpath);
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
		char path[HP_PATH_MAX];

		if (hp_path(h, path, list[0]) < 0)
			path[0] = '\0';
		write_failed(h, path);
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
		write_failed(h, paths[i]);
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

	hp_join(msg, sizeof(msg), 0, list);
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
