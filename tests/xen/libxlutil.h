// SPDX-License-Identifier: MIT
/* libxlutil.h - what the tests call of Debian's libxlutil.a (libxen-dev):
 * the oracle (tests/xen/oracle.c) and the differential fuzz target
 * (tests/fuzz/fuzz_xlcfg.c). The prototypes are declared here because
 * the package's libxlutil.h pulls in all of libxl.h. Linking the static
 * library needs one stub, libxl_defbool_set (used only by
 * xlu_cfg_get_defbool): include this in one file of a program. */
#ifndef FORKLESS_TEST_LIBXLUTIL_H
#define FORKLESS_TEST_LIBXLUTIL_H
#include <stdio.h>

typedef struct XLU_Config XLU_Config;
XLU_Config *xlu_cfg_init(FILE *report, const char *report_filename);
int xlu_cfg_readfile(XLU_Config *cfg, const char *real_filename);
int xlu_cfg_readdata(XLU_Config *cfg, const char *data, int length);
int xlu_cfg_get_string(const XLU_Config *cfg, const char *n,
		       const char **value_r, int dont_warn);
void xlu_cfg_destroy(XLU_Config *cfg);

void libxl_defbool_set(void *db, int b);
void libxl_defbool_set(void *db, int b) { (void)db; (void)b; }
#endif
