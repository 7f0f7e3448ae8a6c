// SPDX-License-Identifier: MIT
/* block.h - what the block applet's two files share: block.c (params,
 * the add of phy: and file: disks, the remove, block_main) calls into
 * block-share.c (the sharing check, and the helpers both use), never the
 * other way (tests/build/cycles.sh). Not an interface: nothing else
 * includes it. */
#ifndef FORKLESS_BLOCK_H
#define FORKLESS_BLOCK_H

#include <sys/types.h>

#include "hotplug.h"

#define DEVMM_MAX 256   /* ",MM:mm,MM:mm," of the devices to look for */

struct block {
	char mode;                    /* canonical: 'r', 'w' or '!' */
	char frontend_id[64];
	char frontend_uuid[HP_PATH_MAX];   /* read when first needed */
	int have_uuid;
	char devmm[DEVMM_MAX];
	struct hotplug h;             /* last: its big buffers end it */
};

/* ---- block-share.c ------------------------------------------------------ */

/* canonicalise_mode: no 'w' -> r; 'w' without '!' -> w; else '!'. */
char block_canonical_mode(const char *mode);
/* device_major_minor: stat -L -c %t:%T, hex without leading zeros. */
void block_major_minor(char out[24], dev_t rdev);
/* check_sharing for the devices in b->devmm (",MM:mm,...,"): 0 ok, 1
 * mounted in dom0, 2 used by a guest of another VM; its MM:mm in found
 * (HP_PATH_MAX). A walk that cannot read xenstore is fatal (fails
 * closed). */
int block_check_sharing(struct block *b, char *found);
/* do_ebusy: Debian's message for a conflict (prefix, then in which
 * domain, guest or not), the lock released, hotplug-status busy. */
_Noreturn void block_sharing_busy(struct block *b, const char *prefix,
				int guest);

#endif
