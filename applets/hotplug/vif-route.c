// SPDX-License-Identifier: MIT
/* vif-route.c - /etc/xen/scripts/vif-route: Debian 4.17's vif-route
 * (with vif-common.sh), by rtnetlink, in one process.
 *
 * vif_route_main(): dom0's address (the first primary IPv4 address of
 * $netdev, default eth0: dom0_ip), then online: that address as a /32 on
 * the vif and the vif up (what `ifconfig VIF IP netmask 255.255.255.255
 * up` leaves: the classful broadcast stays, as the kernel keeps it when
 * the netmask becomes /32), proxy ARP on, a route to each address of
 * XENBUS_PATH/ip (or $ip) via the vif from dom0's address, metric 2;
 * offline: the routes deleted (never an error; the script's ifdown of the
 * vif fails without an ifupdown entry for it, so the address stays).
 * An emulated NIC's tap (type_if=tap) gets the same on add and remove,
 * its routes at metric 1, and no hotplug-status (the script writes it
 * on online only). Entries of ip other than IPv4 ADDR[/LEN] or
 * "default" go to the diverted vif-route.distrib, as do hooks
 * (vif-common.c).
 */
//config:config HOTPLUG_VIF_ROUTE
//config:	bool "vif-route: a routed vif, by netlink (~3.6 KiB; ~23.2 KiB alone)"
//config:	default y
//config:	select ERRNO_TEXTS_NET
//config:	help
//config:	  /etc/xen/scripts/vif-route as Debian 4.17's script: dom0's
//config:	  address on the vif, proxy ARP, a route per guest address.
//config:
//applet:HOTPLUG_VIF_ROUTE vif-route etc/xen/scripts/vif-route vif_route_main 0
//usage:Usage: vif-route online|offline|add|remove
//usage:Xen hotplug script (libxl runs it): route the vif named by $vif, as
//usage:Debian's vif-route: dom0's address from $netdev (default eth0) on
//usage:the vif, proxy ARP, a route per address in XENBUS_PATH/ip.
//usage:type_if=tap add|remove: an emulated NIC's tap ($INTERFACE), metric 1.
//usage:Hooks in /etc/xen/scripts/vif-post.d run
//usage:/etc/xen/scripts/vif-route.distrib.
//exit:0 done (also: nothing to do for this call)
//exit:1 failed: hotplug-error and hotplug-status written, as Debian's
//exit:other the .distrib script's own, when the call is handed over
//exit-untested:other exec'd: the status is Debian's script's, not the applet's
//replaces:Debian's bash script at the applet's path (`xen-utils-common`, Debian 12 or 13)
//package:`forkless-xen` diverts Debian's script to `/etc/xen/scripts/vif-route.distrib` and puts the applet at its path
//messages:Debian's script's, word for word: the same lines in `/var/log/xen/xen-hotplug.log` and syslog, the same `hotplug-error` in xenstore; a hand-over says `PATH handing over to PATH.distrib: WHY`. Details: [hotplug.md](hotplug.md)
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "hotplug.h"
#include "netlink.h"
#include "vif.h"

#define IFA_F_SECONDARY 0x01

/* ADDR[/LEN] (dotted quad) or "default": 0, or -EINVAL. */
static int parse_prefix(const char *s, size_t n, unsigned char addr[4],
			unsigned *len)
{
	uint64_t v;
	size_t i = 0;

	if (LIT_IS(s, n, "default")) {
		memset(addr, 0, 4);
		*len = 0;
		return 0;
	}
	*len = 32;
	for (int octet = 0; octet < 4; octet++) {
		size_t start = i;

		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		if (i == start || i - start > 3 ||
		    parse_u64_base(s + start, i - start, 10, &v) < 0 || v > 255)
			return -EINVAL;
		addr[octet] = (unsigned char)v;
		if (octet < 3 && (i >= n || s[i++] != '.'))
			return -EINVAL;
	}
	if (i == n)
		return 0;
	if (s[i++] != '/' || i == n || n - i > 2 ||
	    parse_u64_base(s + i, n - i, 10, &v) < 0 || v > 32)
		return -EINVAL;
	*len = (unsigned)v;
	return 0;
}

/* Each word of v->ip: fn(the word, its prefix) until one fails. */
typedef int route_fn(struct vif *v, const char *word, const unsigned char *dst,
		     unsigned len, const unsigned char *src);
static int each_route(struct vif *v, const unsigned char *src, route_fn *fn)
{
	const char *p = v->ip;

	for (;;) {
		unsigned char dst[4];
		char word[64];
		unsigned len;
		size_t n;
		int ret;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			return 0;
		n = strcspn(p, " \t\n");
		if (n >= sizeof(word) || parse_prefix(p, n, dst, &len) < 0)
			return -EINVAL;
		memcpy(word, p, n);
		word[n] = '\0';
		if (fn && (ret = fn(v, word, dst, len, src)) < 0)
			return ret;
		p += n;
	}
}

struct first_primary {
	unsigned char addr[4];
	int found;
};

static int first_primary(const struct nl_addr *a, void *ctx)
{
	struct first_primary *fp = ctx;

	if (!fp->found && !(a->flags & IFA_F_SECONDARY) && a->has_local) {
		memcpy(fp->addr, a->local, 4);
		fp->found = 1;
	}
	return 0;
}

/* a.b.c.d of a, NUL-terminated, into out (16 bytes). */
static void inet4_text(char out[16], const unsigned char a[4])
{
	size_t len = 0;

	for (int i = 0; i < 4; i++) {
		len += fmt_u64_base(out + len, a[i], 10);
		out[len++] = i < 3 ? '.' : '\0';
	}
}

/* dom0_ip: $netdev's (eth0's) first primary IPv4 address, else fatal
 * inside $(...) and the ERR trap's fatal after it. */
static void dom0_ip(struct vif *v, unsigned char ip[4])
{
	struct hotplug *h = &v->h;
	const char *netdev = hp_env("netdev"), *nd = netdev ? netdev : "eth0";
	struct first_primary fp = { { 0 }, 0 };
	struct nl_link l;

	if (nl_link_get(&v->nl, nd, &l) == 0)
		nl_addr_each(&v->nl, AF_INET, l.index, first_primary, &fp);
	else   /* ip addr show's complaint (nd: at most HP_MSG_MAX) */
		hp_stderr(h, "Device \"", nd, "\" does not exist.\n");
	if (!fp.found) {
		char msg[HP_MSG_MAX];
		size_t len = 0;

		msg[0] = '\0';
		if (netdev)
			str_append(msg, sizeof(msg), &len, netdev, strlen(netdev));
		str_append(msg, sizeof(msg), &len, LIT(" is not up.  Bring it up or "
			   "specify another interface with  netdev=<if> as a "
			   "parameter to "));
		str_append(msg, sizeof(msg), &len, h->script, strlen(h->script));
		str_append(msg, sizeof(msg), &len, LIT("."));
		hp_fatal_subshell(h, msg);   /* main_ip=$(dom0_ip) */
	}
	memcpy(ip, fp.addr, 4);
}

/* ip route add|del WORD dev DEV src SRC metric M: 2 for a vif, 1 for
 * a tap */
static int route_add(struct vif *v, const char *word, const unsigned char *dst,
		     unsigned len, const unsigned char *src)
{
	int ret = nl_route_change(&v->nl, RTM_NEWROUTE, AF_INET, dst, len,
				  v->index, src, v->vif_type ? 2 : 1);
	uint32_t a = (uint32_t)dst[0] << 24 | (uint32_t)dst[1] << 16 |
		     (uint32_t)dst[2] << 8 | dst[3];

	(void)word;
	/* ip's complaint: the kernel's extended ack for host bits set
	 * (ADDR/LEN is not a network), else the error */
	if (ret == -EINVAL && len < 32 && (a & (0xffffffffu >> len)))
		hp_stderr(&v->h, "Error: Invalid prefix for given prefix length.\n");
	else if (ret < 0)
		hp_stderr(&v->h, "RTNETLINK answers: ", errno_text(-ret), "\n");
	return ret;
}

static int route_del(struct vif *v, const char *word, const unsigned char *dst,
		     unsigned len, const unsigned char *src)
{
	char shown[16];
	int ret = v->index ? nl_route_change(&v->nl, RTM_DELROUTE, AF_INET, dst,
					     len, v->index, src,
					     v->vif_type ? 2 : 1) : -ENODEV;

	if (ret < 0) {   /* do_without_error */
		inet4_text(shown, src);
		hp_log(&v->h, HP_DEBUG, "ip route del ", word, " dev ", v->dev,
		       " src ", shown, v->vif_type ? " metric 2 failed"
		       : " metric 1 failed");
	}
	return 0;
}

/* What net-tools' ifconfig prints when it cannot set DEV's address:
 * each of its two ioctls fails, each followed by its flags lookup. */
static void ifconfig_failed(struct hotplug *h, const char *dev, int err)
{
	const char *why = errno_text(-err);

	hp_stderr(h, "SIOCSIFADDR: ", why, "\n", dev,
		  ": ERROR while getting interface flags: ", why, "\n");
	hp_stderr(h, "SIOCSIFNETMASK: ", why, "\n", dev,
		  ": ERROR while getting interface flags: ", why, "\n");
}

/* ifconfig DEV IP netmask 255.255.255.255 up, by its own ioctls:
 * SIOCSIFADDR replaces the device's first IPv4 address (or makes one,
 * classful: 10.x is /8 with broadcast 10.255.255.255), SIOCSIFNETMASK
 * narrows it to /32 and keeps that broadcast, SIOCSIFFLAGS brings it up.
 * RTM_NEWADDR could only add a second address next to an old one: the
 * ioctls are what leaves exactly the script's state. */
static int set_address(const char *dev, const unsigned char ip[4])
{
	struct ifreq ifr;
	struct sockaddr_in *sin = (struct sockaddr_in *)(void *)&ifr.ifr_addr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), ret = 0;

	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, dev, strlen(dev));
	sin->sin_family = AF_INET;
	memcpy(&sin->sin_addr, ip, 4);
	if (ioctl(fd, SIOCSIFADDR, &ifr) < 0)
		ret = -errno;
	memset(&sin->sin_addr, 0xff, 4);
	if (ret == 0 && ioctl(fd, SIOCSIFNETMASK, &ifr) < 0)
		ret = -errno;
	if (ret == 0 && ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		ret = -errno;
	ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
	if (ret == 0 && ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int vif_route_main(int argc, char **argv)
{
	static struct vif v;   /* zeroed, in .bss: see hp_init */
	struct hotplug *h = &v.h;
	struct nl_link d;
	unsigned char ip[4];
	char path[80];
	int ret, fd;

	vif_start(&v, "vif-route", argc, argv, STR_LIST("ip"), STR_LIST("ip"));
	if (each_route(&v, NULL, NULL) < 0)
		hp_fallback(h, "an ip entry other than ADDR[/LEN]");
	dom0_ip(&v, ip);
	ret = nl_link_get(&v.nl, v.dev, &d);
	if (v.up) {
		size_t len = 0;

		if (ret == 0)
			ret = set_address(v.dev, ip);
		if (ret < 0) {
			ifconfig_failed(h, v.dev, ret);
			hp_sigerr(h, "ifconfig", ret);
		}
		path[0] = '\0';
		str_append(path, sizeof(path), &len, LIT("/proc/sys/net/ipv4/conf/"));
		str_append(path, sizeof(path), &len, v.dev, strlen(v.dev));
		str_append(path, sizeof(path), &len, LIT("/proxy_arp"));
		fd = openat(AT_FDCWD, path, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write_all(fd, LIT("1\n")) < 0)
			hp_sigerr(h, path, -errno);
		close(fd);
		v.index = d.index;
		ret = each_route(&v, ip, route_add);
		if (ret < 0)   /* route_add said why (hp_stderr) */
			hp_sigerr(h, "ip route add", ret);
	} else {
		hp_log(h, HP_DEBUG, "ifdown ", v.dev, " failed");
		v.index = ret == 0 ? d.index : 0;
		each_route(&v, ip, route_del);
	}
	hp_log(h, HP_DEBUG, "Successful vif-route ", h->command, " for ",
	       v.dev, ".");
	if (v.up && v.vif_type)   /* online, not a tap's add */
		hp_success(h);
	hp_exit(h, 0);
}
