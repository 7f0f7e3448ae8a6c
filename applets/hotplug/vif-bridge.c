// SPDX-License-Identifier: MIT
/* vif-bridge.c - /etc/xen/scripts/vif-bridge: Debian 4.17's vif-bridge
 * (with vif-common.sh and xen-network-common.sh), step for step, by
 * rtnetlink on one socket and one xenstore connection, in one process.
 *
 * vif_bridge_main() checks the call (hp_check_command, type_if), hands
 * hooks in vif-post.d to the diverted script, renames to vifname, picks
 * the bridge (pick_bridge), then online: down, MAC fe:ff:ff:ff:ff:ff,
 * flush, MTU, enslave (IFLA_MASTER, where the script runs brctl addif),
 * up, hotplug-status connected; offline: down, release (never an error).
 * An emulated NIC's tap (type_if=tap, QEMU's vifDOMID.DEVID-emu) gets
 * the same on add and remove, its keys under the XENBUS_PATH its name
 * gives (vif-common.c), no frontend mtu and no hotplug-status.
 * handle_iptable is a no-op in Debian 4.17 (bug #894013): so it is here.
 */
//config:config HOTPLUG_VIF_BRIDGE
//config:	bool "vif-bridge: a vif on a bridge, by netlink (~5.2 KiB; ~24.0 KiB alone)"
//config:	default y
//config:	select ERRNO_TEXTS_NET
//config:	help
//config:	  /etc/xen/scripts/vif-bridge as Debian 4.17's script does it,
//config:	  in one process instead of ~40: the bridge choice, vifname,
//config:	  MAC, address flush, MTU, enslave, hotplug-status; emulated
//config:	  NICs' taps (type_if=tap) too. Hooks run the diverted
//config:	  vif-bridge.distrib.
//config:	  The first hotplug applet brings the shared part (xenstore
//config:	  client, locks, syslog, the fallback, the check that the
//config:	  files it stands in for are Debian's, MD5; netlink for the vif
//config:	  scripts): ~12 KiB of the 22-31 KiB one costs alone. All
//config:	  three cost ~37.5 KiB (musl static, -Os, LTO, help texts on).
//config:	  A call whose script or a file it sources is not Debian
//config:	  12's runs the script (docs/hotplug.md).
//config:
//applet:HOTPLUG_VIF_BRIDGE vif-bridge etc/xen/scripts/vif-bridge vif_bridge_main 0
//usage:Usage: vif-bridge online|offline|add|remove
//usage:Xen hotplug script (libxl runs it): put the vif named by $vif on the
//usage:bridge from XENBUS_PATH/bridge, $bridge, or the first bridge; as
//usage:Debian's vif-bridge. Environment: XENBUS_PATH, vif, type_if,
//usage:INTERFACE (type_if=tap: an emulated NIC's tap, on add|remove),
//usage:bridge. Hooks in /etc/xen/scripts/vif-post.d run
//usage:/etc/xen/scripts/vif-bridge.distrib.
//exit:0 done (also: nothing to do for this call)
//exit:1 failed: hotplug-error and hotplug-status written, as Debian's
//exit:other the .distrib script's own, when the call is handed over
//exit-untested:other exec'd: the status is Debian's script's, not the applet's
//replaces:Debian's bash script at the applet's path (`xen-utils-common`, Debian 12 or 13)
//package:`forkless-xen` diverts Debian's script to `/etc/xen/scripts/vif-bridge.distrib` and puts the applet at its path
//messages:Debian's script's, word for word: the same lines in `/var/log/xen/xen-hotplug.log` and syslog, the same `hotplug-error` in xenstore; a hand-over says `PATH handing over to PATH.distrib: WHY`. Details: [hotplug.md](hotplug.md)
#include <errno.h>
#include <string.h>
#include <net/if.h>

#include "hotplug.h"
#include "netlink.h"
#include "vif.h"

struct first_bridge {
	char name[NL_IFNAMSIZ];
};

/* brctl show lists bridges in alphasort order of /sys/class/net (the
 * scripts set LANG=POSIX: byte order); awk 'NR==2' takes the first. */
static int first_bridge_fn(const struct nl_link *l, void *ctx)
{
	struct first_bridge *fb = ctx;

	if (l->is_bridge && (!fb->name[0] || strcmp(l->name, fb->name) < 0))
		memcpy(fb->name, l->name, sizeof(fb->name));
	return 0;
}

/* The bridge: XENBUS_PATH/bridge, else $bridge, else the first; xenbrN
 * becomes ethN when only ethN exists and is a bridge. */
static void pick_bridge(struct vif *v, struct nl_link *br)
{
	struct hotplug *h = &v->h;
	char *b = v->bridge;
	const char *env = hp_env("bridge");
	int ret;

	hp_read_default(h, "bridge", b, sizeof(v->bridge), env ? env : "");
	ret = 1;   /* br not looked up yet */
	if (!b[0]) {
		struct first_bridge fb = { "" };

		ret = nl_link_each(&v->nl, first_bridge_fn, &fb);
		if (ret < 0)
			hp_errexit(h, "brctl show", ret);
		if (!fb.name[0])
			hp_fatal(h, "Could not find bridge, and none was specified");
		memcpy(b, fb.name, sizeof(fb.name));
		ret = 1;
	} else if (strncmp(b, LIT("xenbr")) == 0 &&
		   (ret = nl_link_get(&v->nl, b, br)) == -ENODEV) {
		/* Old-style xenbrN configs on a host whose bridge is ethN. */
		char eth[NL_IFNAMSIZ + 8] = "eth";
		size_t len = 3;

		if (str_append(eth, sizeof(eth), &len, b + 5, strlen(b + 5)) == 0 &&
		    nl_link_get(&v->nl, eth, br) == 0 && br->is_bridge) {
			memcpy(b, eth, len + 1);
			ret = 0;
		}
	}
	if (ret == 1)
		ret = nl_link_get(&v->nl, b, br);
	if (ret == -ENODEV)
		hp_fatal(h, "Could not find bridge device ", b);
	if (ret < 0)
		hp_errexit(h, "ip link show", ret);
}

/* set_mtu's figures: XENBUS_PATH/mtu, else the bridge's (from_bridge);
 * set (n > 0) unless it is not a positive number; the frontend learns it
 * in /local/domain/DOMID/device/vif/DEVID/mtu (DOMID, DEVID from
 * XENBUS_PATH = backend/vif/DOMID/DEVID), fe[0] '\0' when XENBUS_PATH
 * has no such shape. */
struct mtu {
	char val[32], fe[HP_PATH_MAX];
	uint32_t n;
	int from_bridge;
	int not_int;    /* bash's test complains: integer expression expected */
};

/* What bash's test takes for an integer: blanks, a sign, digits, blanks. */
static int bash_integer(const char *s)
{
	const char *d;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '-' || *s == '+')
		s++;
	for (d = s; *s >= '0' && *s <= '9'; s++)
		;
	if (s == d)
		return 0;
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == '\0';
}

static void mtu_figures(struct vif *v, const struct nl_link *br, struct mtu *m)
{
	struct hotplug *h = &v->h;
	const char *devid, *domid;
	size_t len = 0;

	m->n = 0;
	m->not_int = 0;
	m->fe[0] = '\0';
	m->from_bridge = hp_read(h, "mtu", m->val, sizeof(m->val)) <= 0;
	if (m->from_bridge)
		m->val[fmt_u64_base(m->val, br->mtu, 10)] = '\0';
	/* [ "$mtu" -gt 0 ]: anything but a positive number skips it */
	if (parse_u32(m->val, &m->n) < 0) {
		m->n = 0;
		m->not_int = !bash_integer(m->val);
	}
	if (!v->vif_type)   /* a tap: no frontend to tell */
		return;
	devid = strrchr(h->xb_path, '/');
	if (!devid || devid == h->xb_path)
		return;
	for (domid = devid - 1; domid > h->xb_path && domid[-1] != '/'; domid--)
		;
	if (str_append(m->fe, sizeof(m->fe), &len, LIT("/local/domain/")) < 0 ||
	    str_append(m->fe, sizeof(m->fe), &len, domid, (size_t)(devid - domid)) < 0 ||
	    str_append(m->fe, sizeof(m->fe), &len, LIT("/device/vif")) < 0 ||
	    str_append(m->fe, sizeof(m->fe), &len, devid, strlen(devid)) < 0 ||
	    str_append(m->fe, sizeof(m->fe), &len, LIT("/mtu")) < 0)
		m->fe[0] = '\0';
}

/* set_mtu, at the script's place: its lines logged, the link's MTU set,
 * then the frontend's key, which online() sent ahead (its reply read
 * here: fatal when it failed, before the vif is enslaved, as the
 * script's xenstore_write). */
static void set_mtu(struct vif *v, int index, const struct mtu *m)
{
	struct hotplug *h = &v->h;
	uint32_t n = m->n;

	if (m->from_bridge)
		hp_log(h, HP_DEBUG, v->bridge, " MTU is ", m->val);
	if (m->not_int) {
		char dir[256];

		hp_script_dir(h, dir, sizeof(dir));
		hp_stderr(h, dir, "xen-network-common.sh: line 180: [: ",
			  m->val, ": integer expression expected\n");
	}
	if (n == 0)
		return;
	hp_log(h, HP_DEBUG, "setting ", v->dev, " MTU to ", m->val);
	nl_link_change(&v->nl, index, 0, 0, IFLA_MTU, &n, sizeof(n));   /* || : */
	if (m->fe[0])
		hp_write_early_done(h);
}

/* brctl addif BRIDGE DEV failing: its complaint on the script's stderr
 * (bridge-utils' texts), then set -e's exit. */
static _Noreturn void brctl_failed(struct vif *v, const char *what, int err)
{
	if (err == -EBUSY)
		hp_stderr(&v->h, "device ", v->dev, " is already a member of a "
			  "bridge; can't add it to bridge ", v->bridge, ".\n");
	else
		hp_stderr(&v->h, "can't add ", v->dev, " to bridge ", v->bridge,
			  ": ", errno_text(-err), "\n");
	hp_errexit(&v->h, what, err);
}

static void online(struct vif *v, const struct nl_link *br)
{
	struct hotplug *h = &v->h;
	struct nl_link d;
	struct mtu m;
	static const unsigned char mac[6] = { 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff };
	int ret;

	/* setup_virtual_bridge_port; a failure in these shell functions is
	 * set -e's exit 1, without the ERR trap's xenstore keys */
	ret = nl_link_get(&v->nl, v->dev, &d);
	if (ret < 0)
		vif_ip_failed(v, v->dev, ret);
	/* The frontend's mtu, which the script writes after the link's
	 * down, MAC, flush and MTU: known now, sent now, for xenstored to
	 * answer meanwhile (a wait less); set_mtu reads the answer before
	 * the vif is enslaved. Only should the link go between the lookup
	 * above and those steps would the key be written where the script
	 * had stopped first. */
	mtu_figures(v, br, &m);
	if (m.n && m.fe[0])
		hp_write_early(h, m.fe, m.val);
	ret = nl_link_change(&v->nl, d.index, 0, IFF_UP, 0, NULL, 0);
	if (ret < 0)
		vif_ip_failed(v, v->dev, ret);
	nl_link_change(&v->nl, d.index, 0, 0, IFLA_ADDRESS, mac, sizeof(mac));
	ret = nl_addr_flush(&v->nl, d.index);
	if (ret < 0)
		hp_errexit(h, "ip address flush dev", ret);
	set_mtu(v, d.index, &m);
	/* add_to_bridge */
	if (d.master != br->index) {
		hp_log(h, HP_DEBUG, "adding ", v->dev, " to bridge ", v->bridge);
		/* brctl addif refuses a port of another bridge and a
		 * non-bridge master; IFLA_MASTER alone would move it. */
		if (!br->is_bridge)
			brctl_failed(v, "brctl addif: not a bridge", -EOPNOTSUPP);
		if (d.master)
			brctl_failed(v, "brctl addif: already a member of a bridge",
				     -EBUSY);
		ret = nl_link_change(&v->nl, d.index, 0, 0, IFLA_MASTER,
				     &br->index, sizeof(br->index));
		if (ret < 0)
			brctl_failed(v, "brctl addif", ret);
	} else {
		hp_log(h, HP_DEBUG, v->dev, " already on bridge ", v->bridge);
	}
	ret = nl_link_change(&v->nl, d.index, IFF_UP, IFF_UP, 0, NULL, 0);
	if (ret < 0)
		vif_ip_failed(v, "ip link set dev up", ret);
}

static void offline(struct vif *v, const struct nl_link *br)
{
	struct hotplug *h = &v->h;
	struct nl_link d;
	int index = 0, master = 0, ret;

	/* remove_from_bridge: do_without_error for each step */
	if (nl_link_get(&v->nl, v->dev, &d) == 0) {
		index = d.index;
		master = d.master;
	}
	ret = index ? nl_link_change(&v->nl, index, 0, IFF_UP, 0, NULL, 0)
		    : -ENODEV;
	if (ret < 0)
		hp_log(h, HP_DEBUG, "ip link set dev ", v->dev, " down failed");
	if (index && master == br->index) {
		uint32_t none = 0;

		hp_log(h, HP_DEBUG, "removing ", v->dev, " from bridge ",
		       v->bridge);
		if (nl_link_change(&v->nl, index, 0, 0, IFLA_MASTER, &none,
				   sizeof(none)) < 0)
			hp_log(h, HP_DEBUG, "brctl delif ", v->bridge, " ",
			       v->dev, " failed");
	} else {
		hp_log(h, HP_DEBUG, v->dev, " not on bridge ", v->bridge);
	}
}

int vif_bridge_main(int argc, char **argv)
{
	static struct vif v;   /* zeroed, in .bss: see hp_init */
	struct nl_link br;

	vif_start(&v, "vif-bridge", argc, argv, STR_LIST("bridge", "mtu"),
		  STR_LIST("bridge"));
	pick_bridge(&v, &br);
	if (v.up)
		online(&v, &br);
	else
		offline(&v, &br);
	/* handle_iptable: disabled in Debian 4.17; call_hooks: none (else
	 * vif_start handed over) */
	hp_log(&v.h, HP_DEBUG, "Successful vif-bridge ", v.h.command, " for ",
	       v.dev, ", bridge ", v.bridge, ".");
	if (v.vif_type && v.up)
		hp_success(&v.h);
	hp_exit(&v.h, 0);
}
