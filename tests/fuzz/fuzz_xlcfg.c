// SPDX-License-Identifier: MIT
/* fuzz_xlcfg.c - libFuzzer target: forkless's xl.cfg parser (xlcfg.c)
 * against the real one, Debian's libxlutil.a, on the same bytes. Both
 * must give the same verdict (valid or refused) and, for a valid text,
 * the same name: unset, a list, or the same string. A difference aborts
 * (a finding) after printing both answers.
 *
 * libxlutil runs in a child process that answers over pipes: it aborts
 * (an assertion in its unquoting) on a NUL inside a quoted string, as xl
 * would crash, and that death by SIGABRT is its verdict "refused" (any
 * other death is a finding); and it leaks on some syntax errors, so the
 * child is replaced every CHILD_INPUTS inputs. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "xen/xlcfg.h"
#include "../xen/libxlutil.h"   /* the real parser's prototypes */

#define INPUT_MAX 6000   /* lib-fuzz.sh runs with -max_len=6000 */
#define CHILD_INPUTS 20000   /* then the child is replaced */


/* The child's leaks (values libxlutil's error recovery drops) are not
 * ours: xlcfg.c uses no heap at all. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_leaks=0"; }

/* The child's answer: -1 refused, else an xlcfg_type; then the name. */
struct answer {
	int32_t verdict;
	uint32_t len;
	char name[INPUT_MAX];
};

static int full_io(int fd, void *buf, size_t len, int writing)
{
	char *p = buf;

	while (len) {
		ssize_t n = writing ? write(fd, p, len) : read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* libxlutil's verdict on d, as xl create reads a config. */
static void ask(const char *d, uint32_t n, struct answer *a)
{
	static FILE *devnull;
	XLU_Config *cfg;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	cfg = xlu_cfg_init(devnull, "fuzz");
	a->len = 0;
	if (xlu_cfg_readdata(cfg, d, (int)n) != 0) {
		a->verdict = -1;
	} else {
		const char *name;
		int r = xlu_cfg_get_string(cfg, "name", &name, 1);
		a->verdict = r == 0 ? XLCFG_STRING :
			     r == ESRCH ? XLCFG_UNSET : XLCFG_LIST;
		if (r == 0) {
			a->len = (uint32_t)strlen(name);
			memcpy(a->name, name, a->len);
		}
	}
	xlu_cfg_destroy(cfg);
}

static _Noreturn void serve(int in, int out)
{
	static char data[INPUT_MAX];
	static struct answer a;
	uint32_t n;

	for (;;) {
		if (full_io(in, &n, sizeof(n), 0) < 0 || full_io(in, data, n, 0) < 0)
			_exit(0);
		ask(data, n, &a);
		if (full_io(out, &a, offsetof(struct answer, name) + a.len, 1) < 0)
			_exit(0);
	}
}

static pid_t child;
static int to_child = -1, from_child = -1;

static void start_child(void)
{
	int req[2], ans[2];

	if (pipe(req) < 0 || pipe(ans) < 0)
		abort();
	child = fork();
	if (child < 0)
		abort();
	if (child == 0) {
		int devnull = open("/dev/null", O_WRONLY);
		/* Its abort is an answer, not a crash of the fuzzer. */
		signal(SIGABRT, SIG_DFL);
		dup2(devnull, 2);
		close(req[1]);
		close(ans[0]);
		serve(req[0], ans[1]);
	}
	close(req[0]);
	close(ans[1]);
	to_child = req[1];
	from_child = ans[0];
}

/* Close its pipes and reap it (libFuzzer's timer signals interrupt
 * waitpid: retried). Its wait status, or -1. */
static int stop_child(void)
{
	int status;
	pid_t w;

	close(to_child);
	close(from_child);
	while ((w = waitpid(child, &status, 0)) < 0 && errno == EINTR)
		;
	return w == child ? status : -1;
}

/* Upstream's verdict on d; a->name holds the name. */
static int upstream(const char *d, size_t n, struct answer *a)
{
	static unsigned served;
	uint32_t len = (uint32_t)n;
	int status;

	if (child == 0) {
		signal(SIGPIPE, SIG_IGN);
		start_child();
	} else if (++served % CHILD_INPUTS == 0) {
		/* a fresh one: libxlutil's leaks go with the old */
		stop_child();
		start_child();
	}
	if (full_io(to_child, &len, sizeof(len), 1) == 0 &&
	    full_io(to_child, (void *)d, n, 1) == 0 &&
	    full_io(from_child, a, offsetof(struct answer, name), 0) == 0 &&
	    full_io(from_child, a->name, a->len, 0) == 0)
		return a->verdict;
	/* It died on this input. */
	status = stop_child();
	if (status == -1 || !WIFSIGNALED(status) || WTERMSIG(status) != SIGABRT) {
		fprintf(stderr, "xlcfg: libxlutil's process died, status %#x\n",
			status);
		abort();
	}
	start_child();
	return -1;
}

int LLVMFuzzerTestOneInput(const char *d, size_t n);
int LLVMFuzzerTestOneInput(const char *d, size_t n)
{
	static struct xlcfg_keys keys;
	static char value[INPUT_MAX];
	static struct answer a;
	struct xlcfg_want want = { "name", value, sizeof(value), 0, 0, 0 };
	struct xlcfg_error err;
	int ours, theirs;

	if (n > INPUT_MAX)
		return 0;
	ours = xlcfg_parse(d, n, &keys, &want, &err) < 0 ? -1 : (int)want.type;
	theirs = upstream(d, n, &a);
	if (ours == theirs && (ours != XLCFG_STRING ||
	    (a.len == want.value_len && memcmp(a.name, value, a.len) == 0)))
		return 0;
	fprintf(stderr, "xlcfg: verdicts differ: libxlutil %d", theirs);
	if (theirs == XLCFG_STRING)
		fprintf(stderr, " name \"%.*s\"", (int)a.len, a.name);
	fprintf(stderr, ", forkless %d", ours);
	if (ours == -1)
		fprintf(stderr, " (line %u: %s)", err.line, err.what);
	else if (ours == XLCFG_STRING)
		fprintf(stderr, " name \"%.*s\"", (int)want.value_len, value);
	fprintf(stderr, "\n");
	abort();
}
