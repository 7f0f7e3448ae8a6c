// SPDX-License-Identifier: MIT
/* The floor of a hotplug call in the real dom0 (built with musl-gcc -static by
 * tests/vm/run; run by dom0.sh's opt-in part "floor", docs/testing.md "The floor").
 *
 * libxl runs it as /vmtest/floor/MODE/NAME ACTION, NAME block or vif-bridge, at
 * the same places of a domU's create and destroy as a hotplug script. It does
 * what no hotplug implementation can avoid at that place, and nothing else, so
 * its time is what any one-process call costs there:
 *   MODE exit      remove and offline exit at once; online makes the one write
 *                  libxl waits for (hotplug-status = connected)
 *   MODE requests  the xenstore requests the scripts' contract needs: the keys
 *                  Debian's script reads (block remove: params, mode, node;
 *                  vif-bridge offline: vifname, bridge; online: vifname, bridge,
 *                  mtu), on one connection, sent together; online then writes
 *                  hotplug-status = connected
 *   MODE work      requests, and the kernel change the contract makes, each in
 *                  the fewest requests: vif-bridge offline one RTM_NEWLINK (down,
 *                  no master; never an error, as the script's: the vif may be
 *                  gone or going), online one (MAC fe:ff:ff:ff:ff:ff, the bridge's
 *                  MTU unless mtu is set, the bridge as master, up) before its
 *                  hotplug-status; block remove detaches node (LOOP_CLR_FD, with
 *                  a second opener as forkless's: the autoclear path). The
 *                  device is $vif (the harness sets no vifname), its ifindex and
 *                  the bridge's by SIOCGIFINDEX, the bridge's MTU from sysfs: no
 *                  RTNL but the change's. No address flush, no frontend mtu.
 * block add execs forkless (/usr/bin/forkless, as NAME): the guest's disk needs
 * the real work, and the add is not measured here. Other modes make no link
 * changes and leave block remove's loop device attached (dom0.sh detaches it);
 * no mode logs (work: one line on stderr, for libxl's log, when offline makes
 * no change, its vif gone or the change refused; it exits 0): a floor, not a
 * hotplug script. Exit 1 on any other error.
 * Its few lines of xs_wire, of RTM_NEWLINK and of the loop detach are its own,
 * not libcommon's xenstore.c, netlink.c nor loopdev.c: a floor is what
 * any implementation must pay, so it sends the bytes and reads the
 * replies with nothing of forkless's around them (no deadline, no checks
 * of each reply); forkless's code is what it is measured against. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <net/if.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define XS_READ 2
#define XS_WRITE 11
#define XS_ERROR 16
/* the kernel's ABI (linux/netlink.h, rtnetlink.h, loop.h: not on musl's
 * include path) */
#define NETLINK_ROUTE 0
#define RTM_NEWLINK 16
#define NLMSG_ERROR 2
#define NLM_F_REQUEST 1
#define NLM_F_ACK 4
#define IFLA_ADDRESS 1
#define IFLA_MTU 4
#define IFLA_MASTER 10
#define LOOP_CLR_FD 0x4C01

static char out[4096], in[8192];
static char kept[3][256];   /* the values read by requests 1..3 ("": none) */

/* One request (xs_wire.h: type, req_id, tx_id, len, then the payload: the
 * path XENBUS_PATH/key and its NUL, then a write's value) at out + at. */
static size_t put(size_t at, uint32_t type, uint32_t id, const char *xp,
		  const char *key, const char *val)
{
	size_t pl = strlen(xp), kl = strlen(key), vl = val ? strlen(val) : 0;
	uint32_t h[4] = { type, id, 0, (uint32_t)(pl + 1 + kl + 1 + vl) };
	char *p = out + at + sizeof(h);

	if (at + sizeof(h) + h[3] > sizeof(out))
		_exit(1);
	memcpy(out + at, h, sizeof(h));
	memcpy(p, xp, pl);
	p[pl] = '/';
	memcpy(p + pl + 1, key, kl + 1);
	if (vl)
		memcpy(p + pl + 1 + kl + 1, val, vl);
	return at + sizeof(h) + h[3];
}

/* Send out[0..len), then read n whole replies. */
static void exchange(int fd, size_t len, int n)
{
	size_t have = 0;

	if (write(fd, out, len) != (ssize_t)len)
		_exit(1);
	while (n > 0) {
		uint32_t h[4];
		ssize_t r;

		if (have >= sizeof(h)) {
			memcpy(h, in, sizeof(h));
			if (h[3] > 4096)
				_exit(1);
			if (have >= sizeof(h) + h[3]) {
				if (h[0] != XS_ERROR && h[1] >= 1 && h[1] <= 3 &&
				    h[3] < sizeof(kept[0]))
					memcpy(kept[h[1] - 1], in + sizeof(h), h[3]);
				have -= sizeof(h) + h[3];
				memmove(in, in + sizeof(h) + h[3], have);
				n--;
				continue;
			}
		}
		r = read(fd, in + have, sizeof(in) - have);
		if (r <= 0)
			_exit(1);
		have += (size_t)r;
	}
}

/* The ifindex of a link by name (an ioctl under RCU, not RTNL), or -1. */
static int ifindex(const char *name)
{
	struct ifreq r = { 0 };
	int fd;

	if (strlen(name) >= sizeof(r.ifr_name) ||
	    (fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0)
		return -1;
	memcpy(r.ifr_name, name, strlen(name));
	if (ioctl(fd, SIOCGIFINDEX, &r) < 0)
		r.ifr_ifindex = -1;
	close(fd);
	return r.ifr_ifindex;
}

/* An RTM_NEWLINK request: nlmsghdr (16 bytes), ifinfomsg (16), then
 * attributes (rtattr: len, type; 4-aligned). */
static unsigned char msg[256];
static size_t msg_len;

static void put32(size_t at, uint32_t v) { memcpy(msg + at, &v, 4); }

static void attr(uint16_t type, const void *data, uint16_t len)
{
	uint16_t hdr[2] = { (uint16_t)(4 + len), type };

	memcpy(msg + msg_len, hdr, 4);
	memcpy(msg + msg_len + 4, data, len);
	msg_len += (4u + len + 3u) & ~3u;
}

/* vif-bridge's link change in one RTM_NEWLINK, acknowledged: NULL, or why
 * not (offline's line for libxl's log). Exit 1 when netlink itself fails. */
static const char *link_change(int up, const char *bridge, const char *mtu_key)
{
	static const unsigned char mac[6] = { 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff };
	const char *dev = getenv("vif");
	uint16_t type_flags[2] = { RTM_NEWLINK, NLM_F_REQUEST | NLM_F_ACK };
	unsigned char ack[1024];
	uint32_t master = 0;
	int32_t err;
	int fd, index = dev ? ifindex(dev) : -1;

	if (index < 0)
		return "floor: no such link (gone)\n";
	memset(msg, 0, 32);
	memcpy(msg + 4, type_flags, 4);
	put32(8, 1);                              /* seq */
	put32(20, (uint32_t)index);               /* ifi_family 0, ifi_index */
	put32(24, up ? IFF_UP : 0);               /* ifi_flags */
	put32(28, IFF_UP);                        /* ifi_change */
	msg_len = 32;
	if (up) {
		char path[64] = "/sys/class/net/", m[16] = "";
		uint32_t mtu;

		if (!*mtu_key) {   /* the bridge's */
			ssize_t r;

			if (strlen(bridge) > 32)
				return "floor: the bridge's name is too long\n";
			strcat(strcat(path, bridge), "/mtu");
			fd = open(path, O_RDONLY | O_CLOEXEC);
			r = fd < 0 ? -1 : read(fd, m, sizeof(m) - 1);
			if (fd >= 0)
				close(fd);
			if (r <= 0)
				return "floor: no MTU for the bridge\n";
			m[r] = '\0';
			mtu_key = m;
		}
		mtu = (uint32_t)strtoul(mtu_key, NULL, 10);
		attr(IFLA_ADDRESS, mac, sizeof(mac));
		attr(IFLA_MTU, &mtu, sizeof(mtu));
		if ((index = ifindex(bridge)) < 0)
			return "floor: no such bridge\n";
		master = (uint32_t)index;
	}
	attr(IFLA_MASTER, &master, sizeof(master));
	put32(0, (uint32_t)msg_len);
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0 || send(fd, msg, msg_len, 0) != (ssize_t)msg_len ||
	    recv(fd, ack, sizeof(ack), 0) < 20)
		_exit(1);
	memcpy(type_flags, ack + 4, 4);
	memcpy(&err, ack + 16, 4);
	if (type_flags[0] != NLMSG_ERROR)
		_exit(1);
	close(fd);
	return err ? "floor: the kernel refused the change\n" : NULL;
}

/* block remove's loop detach: two openers, so that LOOP_CLR_FD takes the
 * kernel's autoclear path (the last close detaches). */
static void loop_detach(const char *node)
{
	int fd = open(node, O_RDONLY | O_CLOEXEC), other;

	if (fd < 0)
		_exit(1);
	other = open(node, O_RDONLY | O_CLOEXEC);
	if (ioctl(fd, LOOP_CLR_FD, 0) < 0)
		_exit(1);
	if (other >= 0)
		close(other);
	close(fd);
}

int main(int argc, char **argv, char **envp)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX,
				  .sun_path = "/var/run/xenstored/socket" };
	const char *name = strrchr(argv[0], '/'), *act = NULL, *xp;
	size_t len = 0;
	uint32_t id = 0;
	int block, up, requests, work, fd;

	name = name ? name + 1 : argv[0];
	for (int i = 1; i < argc && !act; i++)
		if (!strchr(argv[i], '='))   /* findCommand: the first without '=' */
			act = argv[i];
	if (!act)
		return 1;
	block = strcmp(name, "block") == 0;
	up = strcmp(act, "add") == 0 || strcmp(act, "online") == 0;
	requests = name - argv[0] >= 10 &&
		   strncmp(name - 10, "/requests/", 10) == 0;
	work = name - argv[0] >= 6 && strncmp(name - 6, "/work/", 6) == 0;
	requests |= work;
	if (block && up) {
		execve("/usr/bin/forkless", argv, envp);
		return 1;
	}
	if (!up && !requests)
		_exit(0);
	xp = getenv("XENBUS_PATH");
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (!xp || fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return 1;
	if (requests) {
		static const char *const keys[3][4] = {
			{ "params", "mode", "node", NULL },    /* block remove */
			{ "vifname", "bridge", NULL },         /* vif offline */
			{ "vifname", "bridge", "mtu", NULL },  /* vif online */
		};
		const char *const *k = keys[block ? 0 : up ? 2 : 1];
		const char *why = NULL;

		for (; *k; k++)
			len = put(len, XS_READ, ++id, xp, *k, NULL);
		exchange(fd, len, (int)id);
		if (work && block)
			loop_detach(kept[2]);
		else if (work)
			why = link_change(up, kept[1], up ? kept[2] : "");
		if (why && up)
			_exit(1);
		if (why)   /* offline: do_without_error (the vif may be gone) */
			(void)!write(2, why, strlen(why));
	}
	if (up)
		exchange(fd, put(0, XS_WRITE, ++id, xp, "hotplug-status",
				 "connected"), 1);
	_exit(0);
}
