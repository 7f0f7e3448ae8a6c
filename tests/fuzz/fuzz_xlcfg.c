/* fuzz_xlcfg.c - libFuzzer target: forkless's xl.cfg parser (xlcfg.c)
 * against the real one, Debian's libxlutil.a, on the same bytes. Both
 * must give the same verdict (valid or refused) and, for a valid text,
 * the same name: unset, a list, or the same string. A difference aborts
 * (a finding) after printing both answers.
 *
 * libxlutil asserts on a NUL inside a quoted string: its __assert_fail
 * lands here (this definition wins over glibc's at link time) and jumps
 * back, counting as "refused", as xl would crash. The parse it abandons
 * leaks, so leak detection is off (xlcfg.c uses no heap at all). */
#include <assert.h>
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xlcfg.h"

typedef struct XLU_Config XLU_Config;
XLU_Config *xlu_cfg_init(FILE *report, const char *report_filename);
int xlu_cfg_readdata(XLU_Config *cfg, const char *data, int length);
int xlu_cfg_get_string(const XLU_Config *cfg, const char *n,
		       const char **value_r, int dont_warn);
void xlu_cfg_destroy(XLU_Config *cfg);

void libxl_defbool_set(void *db, int b);
void libxl_defbool_set(void *db, int b) { (void)db; (void)b; }

const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_leaks=0"; }

static sigjmp_buf upstream_assert;

void __assert_fail(const char *assertion, const char *file,
		   unsigned int line, const char *function)
{
	(void)assertion; (void)file; (void)line; (void)function;
	siglongjmp(upstream_assert, 1);
}

static struct xlcfg_keys keys;
static char value[6000 + 1];

/* Upstream's verdict: -1 refused, else the xlcfg_type of "name". */
static int upstream(const char *d, size_t n, const char **name)
{
	static FILE *devnull;
	XLU_Config *volatile cfg;
	int r;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	cfg = xlu_cfg_init(devnull, "fuzz");
	if (sigsetjmp(upstream_assert, 0))
		return -1;   /* the abandoned cfg leaks */
	if (xlu_cfg_readdata(cfg, d, (int)n) != 0) {
		xlu_cfg_destroy(cfg);
		return -1;
	}
	r = xlu_cfg_get_string(cfg, "name", name, 1);
	if (r == 0) {
		/* *name lives in cfg: copy it before destroying */
		static char copy[6000 + 1];
		size_t len = strlen(*name);
		memcpy(copy, *name, len + 1);
		*name = copy;
	}
	xlu_cfg_destroy(cfg);
	return r == 0 ? XLCFG_STRING : r == ESRCH ? XLCFG_UNSET : XLCFG_LIST;
}

int LLVMFuzzerTestOneInput(const char *d, size_t n);
int LLVMFuzzerTestOneInput(const char *d, size_t n)
{
	struct xlcfg_want want = { "name", value, sizeof(value) - 1, 0, 0, 0 };
	struct xlcfg_error err;
	const char *name = NULL;
	int ours, theirs;

	if (n > 6000)
		return 0;
	ours = xlcfg_parse(d, n, &keys, &want, &err) < 0 ? -1 : (int)want.type;
	theirs = upstream(d, n, &name);
	if (ours == theirs && (ours != XLCFG_STRING ||
	    (strlen(name) == want.value_len &&
	     memcmp(name, value, want.value_len) == 0)))
		return 0;
	fprintf(stderr, "xlcfg: verdicts differ: libxlutil %d%s%s%s, forkless %d",
		theirs, name ? " name \"" : "", name ? name : "", name ? "\"" : "",
		ours);
	if (ours == -1)
		fprintf(stderr, " (line %u: %s)", err.line, err.what);
	else if (ours == XLCFG_STRING)
		fprintf(stderr, " name \"%.*s\"", (int)want.value_len, value);
	fprintf(stderr, "\n");
	abort();
}
