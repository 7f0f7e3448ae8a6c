// SPDX-License-Identifier: MIT
/* vif.h - vif-common.sh for vif-bridge and vif-route (vif-common.c). */
#ifndef FORKLESS_HOTPLUG_VIF_H
#define FORKLESS_HOTPLUG_VIF_H

#include "hotplug.h"
#include "netlink.h"

struct vif {
	struct nl_sock nl;
	int up;                  /* online (add for tap) rather than offline */
	int vif_type;            /* type_if=vif, else tap (an emulated NIC) */
	int index;               /* the vif's ifindex, once looked up */
	char dev[NL_IFNAMSIZ];   /* $vif, or XENBUS_PATH/vifname */
	char bridge[HP_PATH_MAX];
	char ip[HP_MSG_MAX];     /* XENBUS_PATH/ip, else $ip */
	char tap_path[HP_PATH_MAX]; /* a tap's XENBUS_PATH, from its name */
	struct hotplug h;        /* last: its big buffers end it */
};

/* vif-common.sh up to its end: the checks (an invalid command or type_if
 * exits 1, a call for the other type_if exits 0), the hand-over (hooks
 * in vif-post.d), ${XENBUS_PATH:?} ${vif:?} (a tap: ${INTERFACE:?}, and
 * XENBUS_PATH taken from its name vifDOMID.DEVID-emu), the netlink
 * socket, vifname (renamed on online; a tap to vifname-emu on add,
 * named so on remove). vifname and the keys the applet
 * reads (up_keys for online/add, down_keys for offline/remove; NULL-ended,
 * at most HP_CACHE_MAX - 1) are read in one round trip (hp_prefetch);
 * when they name "ip", v->ip is read as the script does (else $ip).
 * v: zeroed, best static (see hp_init). */
void vif_start(struct vif *v, const char *name, int argc, char **argv,
	       const char *const *up_keys, const char *const *down_keys);

/* A failed `ip link set dev DEV ...` in the scripts' shell functions:
 * ip's complaint on the script's stderr (hp_stderr: 'Cannot find device
 * "DEV"', else "RTNETLINK answers: REASON"), then hp_errexit(what). */
_Noreturn void vif_ip_failed(struct vif *v, const char *what, int err);

#endif
