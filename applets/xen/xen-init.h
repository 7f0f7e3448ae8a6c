// SPDX-License-Identifier: MIT
/* xen-init.h - the pure part of xen-init-list, shared with its fuzz target
 * (tests/fuzz/fuzz_xeninitlist.c). */
#ifndef FORKLESS_XEN_INIT_H
#define FORKLESS_XEN_INIT_H

#include <stddef.h>
#include <stdint.h>

#include "xenstore.h"
#include "xlcfg.h"

/* Domain ids 1 .. XEN_DOMID_LAST: DOMID_FIRST_RESERVED (0x7FF0) and above
 * are DOMID_SELF, DOMID_IO... (xen/include/public/xen.h), never a domU. */
#define XEN_DOMID_LAST 0x7FEF

/* One bit per domid 0 .. XEN_DOMID_LAST. */
struct xen_domid_set {
	uint64_t bits[(XEN_DOMID_LAST + 64) / 64];
};

/* The domUs named in a DIRECTORY /local/domain reply (len bytes: names,
 * each ended by a NUL; a last one without its NUL counts too) into set:
 * only canonical decimal ids (digits, no sign, no leading zero) 1 ..
 * XEN_DOMID_LAST; "0" (dom0) and every other name are left out. Returns
 * how many distinct domUs are in set. */
size_t xen_domids_of_directory(const char *list, size_t len,
			       struct xen_domid_set *set);

/* The next domid in set at or after from, or 0 when there is none. */
unsigned xen_domid_next(const struct xen_domid_set *set, unsigned from);

/* ---- xen-init-name's reading, for xendomains too ---------------------- */

/* 4 MiB, mapped when needed (static storage would be charged to every
 * forkless process, every xl call): a small file touches a few pages. */
struct xen_name_buffers {
	char text[XLCFG_TEXT_MAX + 1];   /* + 1: a longer file is seen */
	char name[XLCFG_TEXT_MAX + 1];   /* + a newline */
	struct xlcfg_keys keys;
};
/* NULL (errno set) when the map fails. */
struct xen_name_buffers *xen_name_buffers_map(void);

/* Why xen_config_name() found no name: what (and more) it says, the line
 * (0: none), and for a parse error the text near it (near_at, near_len in
 * b->text). */
struct xen_name_error {
	const char *what, *more;
	unsigned line;
	int near;
	size_t near_at, near_len;
};
/* The name xen-init-name prints for file, in b->name (not terminated):
 * its length, or -1 with *e saying why there is none. */
long xen_config_name(const char *file, struct xen_name_buffers *b,
		     struct xen_name_error *e);

/* ---- xen-init-list's list, for xendomains too -------------------------- */

/* fn(ctx, id, name, len) for every domU xen-init-list lists, in domid
 * order (name: as libxl reads it, up to a NUL; not terminated); a non-zero
 * return stops the walk and is returned. A failed request returns its
 * -errno with *what ("DIRECTORY", "READ"...) and path (cap 64) naming it. */
typedef int xen_domu_fn(void *ctx, unsigned id, const char *name,
			size_t len);
int xen_each_domu(struct xs_conn *c, xen_domu_fn *fn, void *ctx,
		  const char **what, char *path);
/* A failed request's message, naming the device, then exit 1 (as
 * xen-init-list and xendomains say it): "DEVICE: no reply from xenstore
 * within 5 s (is xenstored running?)" or "DEVICE: REQUEST PATH: REASON". */
_Noreturn void xen_xs_die(const struct xs_conn *c, const char *what,
			  const char *path, long err);

#endif
