// SPDX-License-Identifier: MIT
/* mount-shared.h - what mount-shared's two files share: mount-shared.c
 * (the options, the wait, the mount, the messages, -l) calls into
 * mount-shared-walk.c (the walk for the shares' tags), never the other
 * way (tests/build/cycles.sh). Not an interface: nothing else includes
 * it. */
#ifndef FORKLESS_MOUNT_SHARED_H
#define FORKLESS_MOUNT_SHARED_H

#define SHARE_TAG_MAX 256

enum share_kind {
	SHARE_VIRTIOFS,
	SHARE_9P_VIRTIO,
	SHARE_9P_XEN,
	SHARE_VBOXSF,
};
#define KIND(k) (1u << (k))

/* Called for each tag found; dev names where it was seen (virtio0, the
 * xenstore device id). A non-zero return stops the walk. */
typedef int share_fn(void *ctx, enum share_kind kind, const char *tag,
		     const char *dev);

/* What one run has learnt about xenstore. */
struct xen_state {
	int given_up;    /* it failed once (reported): not asked again */
};

/* ---- mount-shared-walk.c ------------------------------------------------ */

/* fn for each tag of the kinds (KIND bits) found, until it returns
 * non-zero: that value, or 0. Xen 9pfs tags are read from xenstore
 * within one reply deadline of 1 s; a failure is reported once (xs). A
 * directory that cannot be read exits 2. */
int for_each_share(unsigned kinds, struct xen_state *xs, share_fn *fn,
		   void *ctx);
/* virtio devices of class virtio-fs (id 26) that sysfs shows no tag of
 * (kernels before 6.9). */
int count_untagged_virtiofs(void);
/* A VirtualBox guest: the guest driver's device node, or its PCI device. */
int in_virtualbox(void);

#endif
