// SPDX-License-Identifier: MIT
/* vif-common.c - Debian 4.17's vif-common.sh for the vif applets. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "vif.h"

static const char *const vif_commands[] = {
	"online", "offline", "add", "remove", NULL
};

/* rename_vif: refuse a name in use (another domU's, likely a config
 * error), else rename or die. */
static void rename_vif(struct vif *v, const char *vifname)
{
	struct hotplug *h = &v->h;
	struct nl_link l;
	int ret;

	if (nl_link_get(&v->nl, vifname, &l) == 0)
		hp_fatal(h, "Cannot rename interface ", v->dev,
			 ". An interface with name ", vifname,
			 " already exists.");
	ret = nl_link_get(&v->nl, v->dev, &l);
	if (ret == 0)
		ret = nl_link_change(&v->nl, l.index, 0, 0, IFLA_IFNAME,
				     vifname, strlen(vifname) + 1);
	if (ret < 0) {
		hp_log(h, HP_ERR, "ip link set ", v->dev, " name ", vifname,
		       ": ", errno_text(-ret));
		hp_fatal(h, "ip link set ", v->dev, " name ", vifname,
			 " failed");
	}
}

_Noreturn void vif_ip_failed(struct vif *v, const char *what, int err)
{
	if (err == -ENODEV)
		hp_stderr(&v->h, "Cannot find device \"", v->dev, "\"\n");
	else
		hp_stderr(&v->h, "RTNETLINK answers: ", errno_text(-err), "\n");
	hp_errexit(&v->h, what, err);
}

/* A tap's XENBUS_PATH, as vif-common.sh takes it from the name libxl
 * gives QEMU's tap, vifDOMID.DEVID-emu: "vif" and "-emu" dropped,
 * DOMID up to the last '.', DEVID after the first (the whole rest
 * where there is none), under /local/domain/0/backend/vif. */
static void tap_path(struct vif *v, const char *dev)
{
	const char *s = dev, *e, *dot;
	size_t n, len = 0;
	char *out = v->tap_path;

	if (strncmp(s, LIT("vif")) == 0)
		s += 3;
	n = strlen(s);
	if (LIT_ENDS(s, n, "-emu"))
		n -= 4;
	e = s + n;
	for (dot = e; dot > s && dot[-1] != '.'; dot--)
		;
	dot = dot > s ? dot - 1 : e;            /* ${dev_%.*} ends here */
	if (str_append(out, sizeof(v->tap_path), &len,
		       LIT("/local/domain/0/backend/vif/")) < 0 ||
	    str_append(out, sizeof(v->tap_path), &len, s, (size_t)(dot - s)) < 0 ||
	    str_append(out, sizeof(v->tap_path), &len, LIT("/")) < 0)
		hp_errexit(&v->h, dev, -ENAMETOOLONG);
	dot = memchr(s, '.', n);                /* ${dev_#*.} starts after it */
	s = dot ? dot + 1 : s;
	if (str_append(out, sizeof(v->tap_path), &len, s, (size_t)(e - s)) < 0)
		hp_errexit(&v->h, dev, -ENAMETOOLONG);
	v->h.xb_path = out;
}

void vif_start(struct vif *v, const char *name, int argc, char **argv,
	       const char *const *up_keys, const char *const *down_keys)
{
	struct hotplug *h = &v->h;
	const char *type_if, *dev, *ip, *const *keys;
	char vifname[HP_PATH_MAX];
	int ret, online, add, want_ip = 0;

	v->nl.fd = -1;
	hp_init(h, name, argc, argv);
	hp_log_call(h);
	hp_check_command(h, vif_commands, 1);
	online = strcmp(h->command, "online") == 0;
	add = strcmp(h->command, "add") == 0;
	type_if = hp_env("type_if");
	if (!type_if)
		type_if = "vif";
	if (strcmp(type_if, "vif") == 0) {
		dev = hp_env("vif");
		v->vif_type = 1;
	} else if (strcmp(type_if, "tap") == 0) {
		dev = hp_env("INTERFACE");
	} else {
		hp_log(h, HP_ERR, "unknown interface type ", type_if);
		hp_exit(h, 1);
	}
	/* online/offline are for vifs, add/remove for taps: the other
	 * calls do nothing */
	if ((online || strcmp(h->command, "offline") == 0) != v->vif_type)
		hp_exit(h, 0);
	if (v->vif_type) {
		hp_env_required(h, "XENBUS_PATH", "vif-common.sh: line 84");
		if (!dev)   /* dev=$vif: the message names dev */
			hp_env_required(h, "dev", "vif-common.sh: line 85");
	} else {
		dev = hp_env_required(h, "INTERFACE", "vif-common.sh: line 98");
		tap_path(v, dev);
	}
	/* The backend keys the call reads, sent now for xenstored to answer
	 * while the call looks for hooks and opens netlink; read below. */
	v->up = online || add;
	keys = v->up ? up_keys : down_keys;
	{
		const char *all[HP_CACHE_MAX + 1] = { "vifname" };

		for (size_t i = 1; *keys && i < HP_CACHE_MAX; i++, keys++) {
			all[i] = *keys;
			want_ip |= strcmp(*keys, "ip") == 0;
		}
		hp_prefetch_strv(h, all);
	}
	if (hp_have_hooks(HP_SCRIPT_DIR "/vif-post.d"))
		hp_fallback(h, "hooks in " HP_SCRIPT_DIR "/vif-post.d");
	if (strlen(dev) >= sizeof(v->dev))
		hp_errexit(h, dev, -ENODEV);   /* no link can be named so */
	memcpy(v->dev, dev, strlen(dev) + 1);
	ret = nl_open(&v->nl);
	if (ret < 0)
		hp_errexit(h, "netlink", ret);
	hp_read_default(h, "vifname", vifname, sizeof(vifname) - 4, "");
	if (vifname[0]) {
		size_t n = strlen(vifname);

		if (!v->vif_type)               /* a tap's: vifname-emu */
			memcpy(vifname + n, "-emu", sizeof("-emu"));
		n = strlen(vifname);
		if (n >= sizeof(v->dev))
			hp_fatal(h, "ip link set ", v->dev, " name ", vifname,
				 " failed");
		if (online || add)
			rename_vif(v, vifname);
		memcpy(v->dev, vifname, n + 1);
	}
	/* vif-common.sh reads ip for every vif script: forkless where it
	 * is used (vif-route; vif-bridge's handle_iptable is off in 4.17) */
	if (want_ip) {
		ip = hp_env("ip");
		hp_read_default(h, "ip", v->ip, sizeof(v->ip), ip ? ip : "");
	}
}
