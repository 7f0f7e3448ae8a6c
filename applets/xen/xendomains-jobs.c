// SPDX-License-Identifier: MIT
/* xendomains-jobs.c - the xendomains applet's state, the domain list it
 * reads from xenstore, and its domain actions (xendomains.h; the lower
 * of the applet's two files): each one xl process at the path the xen wrapper
 * resolves, started with vfork + execve, N at a time, its end a SIGCHLD
 * read from a signalfd (a wait's: xenstore's @releaseDomain), its lines
 * printed whole and in the script's order; saves written to
 * DIR/.NAME.saving and renamed once xl succeeded; the stop signals
 * start no further action. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>   /* rename */
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "initscript.h"
#include "libcommon.h"
#include "sdnotify.h"
#include "xen.h"
#include "xendomains.h"

extern char **environ;

struct xd xd;

/* ---- xenstore -------------------------------------------------------------- */

static void xs_fresh(struct xs_conn *c)
{
	c->deadline_ms = clock_ms() + XD_XS_MS;
}


void *map(size_t size, const char *what)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED)
		die_msg(EXIT_XD_FAIL, "cannot map ", what, ": ", errno_text(errno));
	return p;
}

static int add_dom(void *ctx, unsigned id, const char *name, size_t len)
{
	struct doms *l = ctx;
	struct dom *d = &l->d[l->n++];

	d->id = id;
	d->len = (unsigned)len;
	d->name = l->arena + l->used;
	memcpy(d->name, name, len);
	d->name[len] = '\0';
	l->used += len + 1;
	return 0;
}

int list_domus_try(struct doms *l, const char **what, char *path)
{
	if (!l->d) {
		l->d = map(sizeof(struct dom) * (XEN_DOMID_LAST + 1), "the domain list");
		l->arena = map((size_t)(XEN_DOMID_LAST + 1) * (XS_PAYLOAD_MAX + 1),
			       "the domain names");
	}
	l->n = l->used = 0;
	xs_fresh(&xd.xs);
	return xen_each_domu(&xd.xs, add_dom, l, what, path);
}

void list_domus(struct doms *l)
{
	const char *what;
	char path[64];
	int ret = list_domus_try(l, &what, path);

	if (ret < 0)
		xen_xs_die(&xd.xs, what, path, ret);
}

int in_doms(const struct doms *l, const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < l->n; i++)
		if (l->d[i].len == len && memcmp(l->d[i].name, name, len) == 0)
			return 1;
	return 0;
}

/* Is a domain called name running? `xen domid NAME`: xl looks the name up
 * among the hypervisor's domains, dom0 included; here among the domUs
 * xen-init-list would list (l, listed first when list is set), and dom0's
 * own name. */
int running_in(struct doms *l, int list, const char *name)
{
	char value[XS_PAYLOAD_MAX + 1];
	long n;

	if (!*name)
		return 0;   /* xl domid '': no such domain */
	xs_fresh(&xd.xs);
	n = xs_read(&xd.xs, 0, "/local/domain/0/name", value, sizeof(value));
	if (n < 0 && n != -ENOENT)
		xen_xs_die(&xd.xs, "READ", "/local/domain/0/name", n);
	if (n >= 0 && strcmp(value, name) == 0)
		return 1;
	if (list)
		list_domus(l);
	return in_doms(l, name);
}

/* The same against a list made now (start's creates change it). */
int running(const char *name)
{
	static struct doms l;

	return running_in(&l, 1, name);
}

static int has_dots(enum kind k)
{
	return k == K_MIGRATE || k == K_SAVE || k == K_WAIT;
}

void begin_msg(enum kind k, const struct job *j)
{
	char id[12];

	id[fmt_u64_base(id, j->id, 10)] = '\0';
	switch (k) {
	case K_RESTORE:
		say("Restoring Xen domain ", j->name, " (from ", j->file, ")...");
		break;
	case K_CREATE:
		say("Starting Xen domain ", j->name, " (from ", j->file, ")...");
		break;
	case K_MIGRATE:
		say("Migrating Xen domain ", j->name, " (", id, ")...");
		break;
	case K_SAVE:
		say("Saving Xen domain ", j->name, " (", id, ")...");
		break;
	case K_SHUTDOWN:
		say("Shutting down Xen domain ", j->name, " (", id, ")...");
		break;
	case K_WAIT:
		say("Waiting for Xen domain ", j->name, " (", id, ") to shut down...");
		break;
	}
}

/* What xl wrote on stderr: as it is (`cat`), or as `echo "$(...)"` shows
 * it (trailing newlines dropped, one added). */
static void show_output(int fd, int echo)
{
	char buf[4096];
	size_t nl = 0;
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		size_t keep = (size_t)n;

		if (echo) {
			while (keep && buf[keep - 1] == '\n')
				keep--;
			if (keep == 0) {
				nl += (size_t)n;
				continue;
			}
			for (; nl; nl--)
				write_all(1, LIT("\n"));
			nl = (size_t)n - keep;
		}
		write_all(1, buf, keep);
	}
	if (echo)
		write_all(1, LIT("\n"));
}

/* DIR/.NAME.saving for the image DIR/NAME: where xl save writes, renamed
 * to DIR/NAME once it succeeded. */
static char *saving_path(const char *file)
{
	static char path[XD_VALUE_MAX + XS_PAYLOAD_MAX + 16];
	const char *base = path_basename(file);
	size_t dlen = (size_t)(base - file), blen = strlen(base);

	memcpy(path, file, dlen);
	path[dlen] = '.';
	memcpy(path + dlen + 1, base, blen);
	memcpy(path + dlen + 1 + blen, ".saving", sizeof(".saving"));
	return path;
}

void argv_id(char *num, unsigned id)
{
	num[fmt_u64_base(num, id, 10)] = '\0';
}

static void start_xl(enum kind k, struct job *j)
{
	static char num[12], *words[XD_VALUE_MAX / 2 + 8];
	static char migrate[XD_VALUE_MAX];
	char **argv = words;
	size_t n = 0;
	sigset_t none;
	pid_t pid;

	argv[n++] = xd.xl;
	switch (k) {
	case K_RESTORE:
		argv[n++] = (char *)"restore";
		argv[n++] = (char *)j->file;
		break;
	case K_CREATE:
		argv[n++] = (char *)"create";
		argv[n++] = (char *)"--quiet";
		argv[n++] = (char *)"--defconfig";
		argv[n++] = (char *)j->file;
		break;
	case K_MIGRATE:
		argv[n++] = (char *)"migrate";
		argv_id(num, j->id);
		argv[n++] = num;
		/* $XENDOMAINS_MIGRATE unquoted: split at blanks */
		memcpy(migrate, xd.var[V_MIGRATE], sizeof(migrate));
		n = initscript_split(argv, n, migrate);
		break;
	case K_SAVE:
		argv[n++] = (char *)"save";
		argv_id(num, j->id);
		argv[n++] = num;
		argv[n++] = saving_path(j->file);
		break;
	case K_SHUTDOWN:
		argv[n++] = (char *)"shutdown";
		argv_id(num, j->id);
		argv[n++] = num;
		break;
	case K_WAIT:
		return;
	}
	argv[n] = NULL;
	j->out = memfd_create("xl-stderr", MFD_CLOEXEC);
	if (j->out < 0)
		die_msg(EXIT_XD_FAIL, "cannot make a buffer for xl's messages "
			"(memfd_create): ", errno_text(errno));
	pid = vfork();
	if (pid < 0)
		die_msg(EXIT_XD_FAIL, "cannot start xl (vfork): ", errno_text(errno));
	if (pid == 0) {
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (dup2(xd.nullfd, 1) < 0 || dup2(j->out, 2) < 0)
			_exit(126);
		execve(xd.xl, argv, environ);
		write_strs(2, "xendomains: cannot run ", xd.xl, ": ",
			   errno_text(errno), "\n");
		_exit(errno == ENOENT ? 127 : 126);
	}
	j->pid = pid;
}

/* Under systemd (the unit's NotifyAccess=exec), the start or stop job's
 * timeout made to last this action at least: its bound, MAXWAIT + 1 s,
 * and 10 s for xl to end after the SIGINT; 300 s for those the script
 * does not bound (restore, create, the shutdown request). */
static void extend_timeout(enum kind k)
{
	uint64_t s = 300;

	if (has_dots(k) && xd.maxwait >= 0)
		s = (uint64_t)xd.maxwait < UINT64_MAX / 1000000 - 11 ?
		    (uint64_t)xd.maxwait + 11 : UINT64_MAX / 1000000;
	sd_notify_extend_timeout(s * 1000000);
}

static void start_job(enum kind k, struct job *j)
{
	extend_timeout(k);
	j->start = clock_ms();
	j->state = J_RUNNING;
	j->out = -1;
	j->deadline = 0;
	/* and a shutdown request's (the script has none: xl hangs there when
	 * xenstored does not answer; a request takes xl a moment) */
	if (has_dots(k) || (k == K_SHUTDOWN && xd.maxwait >= 0))
		j->deadline = j->start + (uint64_t)(xd.maxwait + 1) * 1000;
	if (k != K_WAIT) {
		start_xl(k, j);
		return;
	}
	/* timeout_domain: no step at all (a bad MAXWAIT) fails at once */
	if (xd.maxwait < 0 || !running(j->name)) {
		j->state = J_DONE;
		j->end = j->start;
		j->status = xd.maxwait < 0;
	}
}

/* The "..." marks the script prints, one a second of its polling: here
 * one per whole second the action has taken, up to its deadline. */
static void print_dots(const struct job *jc, struct job *j, uint64_t now)
{
	uint64_t t = (jc->state == J_DONE ? jc->end : now) - jc->start;
	uint64_t want = t / 1000;

	if (want > (uint64_t)(xd.maxwait + 1))
		want = (uint64_t)(xd.maxwait + 1);
	for (; j->dots < want; j->dots++)
		say("...");
}

static void finish(enum kind k, struct job *j)
{
	if (j->skipped) {
		log_action_end_msg(1, "not started: xendomains got a stop signal");
		return;
	}
	switch (k) {
	case K_RESTORE:
		if (j->status == 0 && unlink(j->file) < 0)
			write_strs(2, "rm: cannot remove '", j->file, "': ",
				   errno_text(errno), "\n");
		log_action_end_msg(j->status, NULL);
		if (j->status)
			show_output(j->out, 1);
		break;
	case K_CREATE:
		log_action_end_msg(j->status, NULL);
		if (j->status)
			show_output(j->out, 1);
		break;
	case K_MIGRATE:
		log_action_end_msg(j->status, NULL);
		if (j->status)
			show_output(j->out, 0);
		break;
	case K_SAVE: {
		const char *tmp = saving_path(j->file);

		if (j->status == 0 && rename(tmp, j->file) < 0) {
			log_action_end_msg(1, NULL);
			warn_msg("cannot rename ", tmp, " to ", j->file, ": ",
				 errno_text(errno), ": the image is kept there, not "
				 "restored at start");
			break;
		}
		log_action_end_msg(j->status, NULL);
		if (j->status)
			show_output(j->out, 0);
		if (j->status && unlink(tmp) == 0)
			warn_msg(tmp, ": removed: the save of ", j->name,
				 " failed, its image is not whole");
		break;
	}
	case K_SHUTDOWN:
		show_output(j->out, 0);
		log_action_end_msg(j->status, NULL);
		break;
	case K_WAIT:
		log_action_end_msg(j->status, NULL);
		break;
	}
	if (j->out >= 0)
		close(j->out);
	j->out = -1;
}

/* @releaseDomain: a second connection, only for its events. */
static int watch_fd(void)
{
	char reply[64];
	struct xs_request rq = { XS_WATCH, 0, "@releaseDomain", "xendomains", 11 };
	long n;
	int ret;

	if (xd.watch.fd >= 0 || xd.watch_lost)
		return xd.watch_lost ? -1 : xd.watch.fd;
	ret = xs_open(&xd.watch, clock_ms() + XD_XS_MS);
	if (ret < 0)
		xen_xs_die(&xd.watch, "connect", "", ret);
	n = xs_request(&xd.watch, &rq, reply, sizeof(reply));
	if (n < 0)
		xen_xs_die(&xd.watch, "WATCH", "@releaseDomain", n);
	{
		int one = 1;

		ioctl(xd.watch.fd, FIONBIO, &one);
	}
	return xd.watch.fd;
}

/* Every event read (their content does not matter: each means a domain
 * went; the waits check their names again). 0, or -1 when the connection
 * is gone (then every tick checks). */
static int drain_watch(void)
{
	char buf[4096];
	ssize_t n;

	while ((n = read(xd.watch.fd, buf, sizeof(buf))) > 0)
		;
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		warn_msg(xd.watch.dev, ": the @releaseDomain watch was lost: "
			 "checking every second");
		xs_close(&xd.watch);
		xd.watch.fd = -1;
		xd.watch_lost = 1;
		return -1;
	}
	return 0;
}

/* A running action's end: its status as bash's $?, its time. */
static void job_ended(struct job *j, int status, uint64_t at, unsigned *active)
{
	j->state = J_DONE;
	j->end = at;
	j->status = status;
	(*active)--;
}

static void reap(struct job *jobs, size_t from, size_t to, unsigned *active)
{
	struct signalfd_siginfo si;
	int st;
	pid_t pid;

	while (read(xd.sigfd, &si, sizeof(si)) > 0)
		if (si.ssi_signo != SIGCHLD && !xd.stop_sig) {
			xd.stop_sig = (int)si.ssi_signo;
			warn_msg(xd.stop_sig == SIGTERM ? "SIGTERM" :
				 xd.stop_sig == SIGINT ? "SIGINT" : "SIGHUP",
				 ": no further domain action "
				 "is started; the running ones are waited for");
		}
	while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
		for (size_t i = from; i < to; i++)
			if (jobs[i].state == J_RUNNING && jobs[i].pid == pid) {
				job_ended(&jobs[i], WIFEXITED(st) ? WEXITSTATUS(st) :
					  128 + WTERMSIG(st), clock_ms(), active);
				break;
			}
}

/* One run_jobs: jobs[0..head) done and said, [head..next) started
 * (active of them running), [next..n) not yet. */
struct run {
	enum kind k;
	struct job *jobs;
	size_t n, next, head;
	unsigned par, active;
	int check_all;   /* the waits, without the watch: each second */
};

/* Start actions while fewer than par run. Stopped: the waits end now, xl
 * processes are waited for (killing a save mid-way loses its guest),
 * what was not started is said so once its line comes. */
static void start_jobs(struct run *r)
{
	while (r->active < r->par && r->next < r->n && !xd.stop_sig) {
		start_job(r->k, &r->jobs[r->next]);
		if (r->jobs[r->next].state == J_RUNNING)
			r->active++;
		r->next++;
	}
	if (!xd.stop_sig)
		return;
	if (r->k == K_WAIT)
		for (size_t i = r->head; i < r->next; i++)
			if (r->jobs[i].state == J_RUNNING)
				job_ended(&r->jobs[i], 1, clock_ms(), &r->active);
	if (r->active == 0)
		for (; r->next < r->n; r->next++) {
			r->jobs[r->next].skipped = 1;
			r->jobs[r->next].state = J_DONE;
		}
}

/* The first line's next "...", a deadline, or never (UINT64_MAX). */
static uint64_t next_wake(const struct run *r)
{
	const struct job *first = &r->jobs[r->head];
	uint64_t wake = UINT64_MAX;

	if (r->head < r->next && has_dots(r->k) && first->state == J_RUNNING &&
	    first->dots < (uint64_t)(xd.maxwait + 1))
		wake = first->start + (first->dots + 1) * 1000ULL;
	for (size_t i = r->head; i < r->next; i++)
		if (r->jobs[i].state == J_RUNNING && r->jobs[i].deadline &&
		    !r->jobs[i].interrupted && r->jobs[i].deadline < wake)
			wake = r->jobs[i].deadline;
	return wake;
}

/* The waits of domains gone end: on a watch event, or each time
 * without the watch. */
static void end_gone_domains(struct run *r, int event)
{
	static struct doms l;

	if (!(r->check_all || (event && drain_watch() == 0) || xd.watch.fd < 0))
		return;
	list_domus(&l);
	for (size_t i = r->head; i < r->next; i++)
		if (r->jobs[i].state == J_RUNNING && !in_doms(&l, r->jobs[i].name))
			job_ended(&r->jobs[i], 0, clock_ms(), &r->active);
}

/* Past its deadline, a wait ends (failed), an xl process gets SIGINT
 * (then waited for, as bash's wait). */
static void past_deadlines(struct run *r)
{
	uint64_t now = clock_ms();

	for (size_t i = r->head; i < r->next; i++) {
		struct job *j = &r->jobs[i];

		if (j->state != J_RUNNING || !j->deadline || j->deadline > now)
			continue;
		if (r->k == K_WAIT) {
			job_ended(j, 1, now, &r->active);
		} else if (!j->interrupted) {
			kill(j->pid, SIGINT);
			j->interrupted = 1;
		}
	}
}

/* Run n actions of kind k, par at a time, their lines in order: the first
 * unfinished one's line is printed as it goes ("..." marks included), a
 * later one's once it is the first. */
void run_jobs(enum kind k, struct job *jobs, size_t n, unsigned par)
{
	struct run r = { .k = k, .jobs = jobs, .n = n, .par = par };

	for (;;) {
		uint64_t now, wake;
		struct pollfd fds[2];
		int nfds = 1, timeout;

		start_jobs(&r);
		now = clock_ms();
		while (r.head < r.next) {
			struct job *j = &jobs[r.head];

			if (!j->begun) {
				begin_msg(k, j);
				j->begun = 1;
			}
			if (has_dots(k) && !j->skipped)
				print_dots(j, j, now);
			if (j->state != J_DONE)
				break;
			finish(k, j);
			r.head++;
		}
		if (r.head == n)
			return;
		wake = next_wake(&r);
		fds[0].fd = xd.sigfd;
		fds[0].events = POLLIN;
		if (k == K_WAIT) {
			int fd = watch_fd();

			if (fd < 0)
				r.check_all = 1;
			else {
				fds[1].fd = fd;
				fds[1].events = POLLIN;
				nfds = 2;
			}
			if (r.check_all && wake > now + 1000)
				wake = now + 1000;
		}
		timeout = wake == UINT64_MAX ? -1 :
			wake <= now ? 0 : (int)(wake - now);
		if (poll(fds, (nfds_t)nfds, timeout) < 0 && errno != EINTR)
			die_msg(EXIT_XD_FAIL, "poll: ", errno_text(errno));
		if (fds[0].revents)
			reap(jobs, r.head, r.next, &r.active);
		if (k == K_WAIT)
			end_gone_domains(&r, nfds == 2 && fds[1].revents);
		past_deadlines(&r);
	}
}
