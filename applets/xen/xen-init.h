/* xen-init.h - the pure part of xen-init-list, shared with its fuzz target
 * (tests/fuzz/fuzz_xeninitlist.c). */
#ifndef FORKLESS_XEN_INIT_H
#define FORKLESS_XEN_INIT_H

#include <stddef.h>
#include <stdint.h>

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

#endif
