// SPDX-License-Identifier: MIT
/* netlink.c - the rtnetlink client (see netlink.h). */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "libcommon.h"
#include "netlink.h"

int nl_open(struct nl_sock *s)
{
	/* Sequence numbers distinct per call, for traces: from where the
	 * stack is (randomised by the kernel), not a getpid() syscall. No
	 * bind(): the kernel binds the socket to a port of its choosing at
	 * the first send, as bind() to port 0 would. */
	s->seq = (uint32_t)((uintptr_t)&s >> 4) << 8;
	s->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	return s->fd < 0 ? -errno : 0;
}

void nl_close(struct nl_sock *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

void nl_msg_init(struct nl_msg *m, uint16_t type, uint16_t flags,
		 const void *fam, size_t famlen)
{
	memset(m, 0, NLMSG_SPACE(famlen));
	m->nh.nlmsg_len = NLMSG_LENGTH(famlen);
	m->nh.nlmsg_type = type;
	m->nh.nlmsg_flags = NLM_F_REQUEST | flags;
	memcpy(NLMSG_DATA(&m->nh), fam, famlen);
}

int nl_attr(struct nl_msg *m, uint16_t type, const void *data, size_t len)
{
	size_t at = NLMSG_ALIGN(m->nh.nlmsg_len);
	struct rtattr *rta = (struct rtattr *)(m->buf + at);

	if (len > 0xffff - RTA_LENGTH(0) ||
	    at + RTA_SPACE(len) > sizeof(m->buf))
		return -E2BIG;
	rta->rta_type = type;
	rta->rta_len = (unsigned short)RTA_LENGTH(len);
	memcpy(RTA_DATA(rta), data, len);
	memset((char *)RTA_DATA(rta) + len, 0, RTA_SPACE(len) - RTA_LENGTH(len));
	m->nh.nlmsg_len = (uint32_t)(at + RTA_SPACE(len));
	return 0;
}

int nl_attr_u32(struct nl_msg *m, uint16_t type, uint32_t v)
{
	return nl_attr(m, type, &v, sizeof(v));
}

int nl_attr_str(struct nl_msg *m, uint16_t type, const char *s)
{
	return nl_attr(m, type, s, strlen(s) + 1);
}

int nl_parse_batch(const void *buf, size_t len, uint32_t seq, nl_msg_fn *fn,
		   void *ctx, int *fn_ret)
{
	const char *p = buf;

	while (len > 0) {
		struct nlmsghdr nh;

		if (len < sizeof(nh))
			return -EIO;
		memcpy(&nh, p, sizeof(nh));
		if (nh.nlmsg_len < sizeof(nh) || nh.nlmsg_len > len ||
		    nh.nlmsg_seq != seq)
			return -EIO;
		if (nh.nlmsg_type == NLMSG_DONE)
			return 1;
		if (nh.nlmsg_type == NLMSG_ERROR) {
			struct nlmsgerr e;

			if (nh.nlmsg_len < NLMSG_LENGTH(sizeof(e)))
				return -EIO;
			memcpy(&e, p + NLMSG_HDRLEN, sizeof(e));
			if (e.error > 0 || e.error < -4095)
				return -EIO;
			return e.error ? e.error : 1;
		}
		/* Messages are 4-byte aligned in the datagram: callers read
		 * them in place. */
		if (fn && *fn_ret == 0 && ((uintptr_t)p & 3) == 0)
			*fn_ret = fn((const struct nlmsghdr *)(const void *)p, ctx);
		else if (fn && *fn_ret == 0)
			return -EIO;
		if (!(nh.nlmsg_flags & NLM_F_MULTI))
			return 1;   /* a single reply (RTM_GETLINK by name) */
		if (NLMSG_ALIGN(nh.nlmsg_len) >= len)
			return 0;
		p += NLMSG_ALIGN(nh.nlmsg_len);
		len -= NLMSG_ALIGN(nh.nlmsg_len);
	}
	return 0;
}

static int attrs_in(const char *p, size_t len, const struct rtattr **tb,
		    unsigned max)
{
	memset(tb, 0, (max + 1) * sizeof(*tb));
	while (len >= sizeof(struct rtattr)) {
		const struct rtattr *rta = (const struct rtattr *)(const void *)p;

		if (rta->rta_len < sizeof(*rta) || rta->rta_len > len)
			return -EIO;
		if (rta->rta_type <= max)
			tb[rta->rta_type] = rta;
		if (RTA_ALIGN(rta->rta_len) >= len)
			return 0;
		p += RTA_ALIGN(rta->rta_len);
		len -= RTA_ALIGN(rta->rta_len);
	}
	return len ? -EIO : 0;
}

int nl_attrs(const struct nlmsghdr *nh, size_t famlen,
	     const struct rtattr **tb, unsigned max)
{
	if (nh->nlmsg_len < NLMSG_LENGTH(famlen))
		return -EIO;
	if (nh->nlmsg_len < NLMSG_SPACE(famlen)) {   /* no attributes */
		memset(tb, 0, (max + 1) * sizeof(*tb));
		return 0;
	}
	return attrs_in((const char *)NLMSG_DATA(nh) + NLMSG_ALIGN(famlen),
			nh->nlmsg_len - NLMSG_SPACE(famlen), tb, max);
}

int nl_attrs_nested(const struct rtattr *rta, const struct rtattr **tb,
		    unsigned max)
{
	return attrs_in(RTA_DATA(rta), RTA_PAYLOAD(rta), tb, max);
}

/* Read the reply to request seq, datagram by datagram, to its end. */
static int read_reply(struct nl_sock *s, uint32_t seq, nl_msg_fn *fn,
		      void *ctx)
{
	/* static: 32 KiB on the stack would put every frame below it eight
	 * pages further down (a page fault each the first time); in .bss only
	 * the pages a reply fills are touched */
	static char buf[NL_RECV_MAX] __attribute__((aligned(4)));
	int fn_ret = 0;

	for (;;) {
		ssize_t n = recv(s->fd, buf, sizeof(buf), MSG_TRUNC);
		int ret;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if ((size_t)n > sizeof(buf))
			return -EMSGSIZE;
		ret = nl_parse_batch(buf, (size_t)n, seq, fn, ctx, &fn_ret);
		if (ret < 0)
			return ret;
		if (ret == 1)
			return fn_ret;
	}
}

static int send_msg(struct nl_sock *s, struct nl_msg *m)
{
	m->nh.nlmsg_seq = ++s->seq;
	return write_all(s->fd, m->buf, m->nh.nlmsg_len);
}

int nl_do(struct nl_sock *s, struct nl_msg *m)
{
	int ret;

	m->nh.nlmsg_flags |= NLM_F_ACK;
	ret = send_msg(s, m);
	return ret ? ret : read_reply(s, s->seq, NULL, NULL);
}

int nl_dump(struct nl_sock *s, struct nl_msg *m, nl_msg_fn *fn, void *ctx)
{
	int ret;

	m->nh.nlmsg_flags |= NLM_F_DUMP;
	ret = send_msg(s, m);
	return ret ? ret : read_reply(s, s->seq, fn, ctx);
}

/* ---- links --------------------------------------------------------------- */

static size_t attr_copy(void *out, size_t cap, const struct rtattr *rta)
{
	size_t n = RTA_PAYLOAD(rta);

	if (n > cap)
		n = cap;
	memcpy(out, RTA_DATA(rta), n);
	return n;
}

static int attr_u32(const struct rtattr *rta, uint32_t *v)
{
	if (!rta)
		return 0;
	if (RTA_PAYLOAD(rta) < sizeof(*v))
		return -EIO;
	memcpy(v, RTA_DATA(rta), sizeof(*v));
	return 0;
}

int nl_link_parse(const struct nlmsghdr *nh, struct nl_link *l)
{
	const struct rtattr *tb[IFLA_MAX + 1], *info[IFLA_INFO_MAX + 1];
	struct ifinfomsg ifi;
	uint32_t master = 0;
	size_t n;

	if (nh->nlmsg_type != RTM_NEWLINK ||
	    nl_attrs(nh, sizeof(ifi), tb, IFLA_MAX) < 0)
		return -EIO;
	memcpy(&ifi, NLMSG_DATA(nh), sizeof(ifi));
	memset(l, 0, sizeof(*l));
	l->index = ifi.ifi_index;
	l->flags = ifi.ifi_flags;
	if (!tb[IFLA_IFNAME] || attr_u32(tb[IFLA_MTU], &l->mtu) < 0 ||
	    attr_u32(tb[IFLA_MASTER], &master) < 0)
		return -EIO;
	l->master = (int)master;
	n = attr_copy(l->name, sizeof(l->name) - 1, tb[IFLA_IFNAME]);
	l->name[n] = '\0';
	if (strlen(l->name) == 0)
		return -EIO;
	if (tb[IFLA_ADDRESS])
		l->addr_len = attr_copy(l->addr, sizeof(l->addr),
					tb[IFLA_ADDRESS]);
	if (tb[IFLA_LINKINFO]) {
		if (nl_attrs_nested(tb[IFLA_LINKINFO], info, IFLA_INFO_MAX) < 0)
			return -EIO;
		l->is_bridge = info[IFLA_INFO_KIND] &&
			RTA_PAYLOAD(info[IFLA_INFO_KIND]) >= 6 &&
			memcmp(RTA_DATA(info[IFLA_INFO_KIND]), LIT("bridge")) == 0 &&
			(RTA_PAYLOAD(info[IFLA_INFO_KIND]) == 6 ||
			 ((const char *)RTA_DATA(info[IFLA_INFO_KIND]))[6] == '\0');
	}
	return 0;
}

static int link_one(const struct nlmsghdr *nh, void *ctx)
{
	return nl_link_parse(nh, ctx) < 0 ? -EIO : 0;
}

int nl_link_get(struct nl_sock *s, const char *name, struct nl_link *l)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct nl_msg m;
	int ret;

	if (strlen(name) >= NL_IFNAMSIZ || !*name)
		return -ENODEV;
	nl_msg_init(&m, RTM_GETLINK, 0, &ifi, sizeof(ifi));
	nl_attr_str(&m, IFLA_IFNAME, name);
	if ((ret = send_msg(s, &m)) < 0)
		return ret;
	l->index = 0;
	ret = read_reply(s, s->seq, link_one, l);
	if (ret == 0 && l->index == 0)
		ret = -EIO;
	return ret;
}

struct link_each {
	nl_link_fn *fn;
	void *ctx;
};

static int link_each_one(const struct nlmsghdr *nh, void *ctx)
{
	struct link_each *le = ctx;
	struct nl_link l;

	if (nh->nlmsg_type != RTM_NEWLINK)
		return 0;
	return nl_link_parse(nh, &l) < 0 ? -EIO : le->fn(&l, le->ctx);
}

int nl_link_each(struct nl_sock *s, nl_link_fn *fn, void *ctx)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct link_each le = { fn, ctx };
	struct nl_msg m;

	nl_msg_init(&m, RTM_GETLINK, 0, &ifi, sizeof(ifi));
	return nl_dump(s, &m, link_each_one, &le);
}

int nl_link_change(struct nl_sock *s, int index, unsigned flags,
		   unsigned change, uint16_t attr, const void *data,
		   size_t len)
{
	struct ifinfomsg ifi = {
		.ifi_family = AF_UNSPEC, .ifi_index = index,
		.ifi_flags = flags & change, .ifi_change = change,
	};
	struct nl_msg m;

	nl_msg_init(&m, RTM_NEWLINK, 0, &ifi, sizeof(ifi));
	if (attr && nl_attr(&m, attr, data, len) < 0)
		return -E2BIG;
	return nl_do(s, &m);
}

/* ---- addresses ----------------------------------------------------------- */

int nl_addr_parse(const struct nlmsghdr *nh, struct nl_addr *a)
{
	const struct rtattr *tb[IFA_MAX + 1];
	struct ifaddrmsg ifa;
	size_t alen;

	if (nh->nlmsg_type != RTM_NEWADDR ||
	    nl_attrs(nh, sizeof(ifa), tb, IFA_MAX) < 0)
		return -EIO;
	memcpy(&ifa, NLMSG_DATA(nh), sizeof(ifa));
	memset(a, 0, sizeof(*a));
	a->family = ifa.ifa_family;
	a->prefixlen = ifa.ifa_prefixlen;
	a->flags = ifa.ifa_flags;
	a->scope = ifa.ifa_scope;
	a->index = (int)ifa.ifa_index;
	alen = a->family == AF_INET ? 4 : a->family == AF_INET6 ? 16 : 0;
	if (!alen)
		return 0;   /* another family: the caller skips it */
	if (tb[IFA_LOCAL]) {
		if (RTA_PAYLOAD(tb[IFA_LOCAL]) != alen)
			return -EIO;
		memcpy(a->local, RTA_DATA(tb[IFA_LOCAL]), alen);
		a->has_local = 1;
	}
	if (tb[IFA_ADDRESS]) {
		if (RTA_PAYLOAD(tb[IFA_ADDRESS]) != alen)
			return -EIO;
		memcpy(a->address, RTA_DATA(tb[IFA_ADDRESS]), alen);
		a->has_address = 1;
	}
	return 0;
}

struct addr_each {
	int family, index;
	nl_addr_fn *fn;
	void *ctx;
};

static int addr_each_one(const struct nlmsghdr *nh, void *ctx)
{
	struct addr_each *ae = ctx;
	struct nl_addr a;

	if (nh->nlmsg_type != RTM_NEWADDR)
		return 0;
	if (nl_addr_parse(nh, &a) < 0)
		return -EIO;
	if ((ae->family != AF_UNSPEC && a.family != ae->family) ||
	    (a.family != AF_INET && a.family != AF_INET6) ||
	    (ae->index && a.index != ae->index))
		return 0;
	return ae->fn(&a, ae->ctx);
}

int nl_addr_each(struct nl_sock *s, int family, int index, nl_addr_fn *fn,
		 void *ctx)
{
	struct ifaddrmsg ifa = { .ifa_family = (uint8_t)family };
	struct addr_each ae = { family, index, fn, ctx };
	struct nl_msg m;

	nl_msg_init(&m, RTM_GETADDR, 0, &ifa, sizeof(ifa));
	return nl_dump(s, &m, addr_each_one, &ae);
}

int nl_addr_change(struct nl_sock *s, uint16_t type, const struct nl_addr *a)
{
	struct ifaddrmsg ifa = {
		.ifa_family = a->family, .ifa_prefixlen = a->prefixlen,
		.ifa_flags = a->flags, .ifa_scope = a->scope,
		.ifa_index = (uint32_t)a->index,
	};
	size_t alen = a->family == AF_INET ? 4 : 16;
	struct nl_msg m;

	nl_msg_init(&m, type, type == RTM_NEWADDR ? NLM_F_CREATE | NLM_F_EXCL
		    : 0, &ifa, sizeof(ifa));
	if ((a->has_local && nl_attr(&m, IFA_LOCAL, a->local, alen) < 0) ||
	    (a->has_address && nl_attr(&m, IFA_ADDRESS, a->address, alen) < 0))
		return -E2BIG;
	return nl_do(s, &m);
}

#define FLUSH_BATCH 16
struct flush {
	struct nl_addr a[FLUSH_BATCH];
	size_t n;
	int more;
};

static int flush_collect(const struct nl_addr *a, void *ctx)
{
	struct flush *f = ctx;

	if (f->n == FLUSH_BATCH)
		f->more = 1;
	else
		f->a[f->n++] = *a;
	return 0;
}

int nl_addr_flush(struct nl_sock *s, int index)
{
	/* As ip(8): dump, delete what was seen, again until a dump finds
	 * nothing (deleting a primary IPv4 address may delete or promote
	 * its secondaries); bounded, as ip's 10 rounds. */
	for (int round = 0; round < 64; round++) {
		struct flush f;
		int ret;

		f.n = 0;
		f.more = 0;
		ret = nl_addr_each(s, AF_UNSPEC, index, flush_collect, &f);
		if (ret < 0)
			return ret;
		if (f.n == 0)
			return 0;
		for (size_t i = 0; i < f.n; i++) {
			ret = nl_addr_change(s, RTM_DELADDR, &f.a[i]);
			if (ret < 0 && ret != -EADDRNOTAVAIL)
				return ret;
		}
	}
	return -EBUSY;
}

/* ---- routes -------------------------------------------------------------- */

int nl_route_change(struct nl_sock *s, uint16_t type, int family,
		    const void *dst, unsigned dst_len, int oif,
		    const void *src, uint32_t metric)
{
	struct rtmsg rtm = {
		.rtm_family = (uint8_t)family, .rtm_dst_len = (uint8_t)dst_len,
		.rtm_table = RT_TABLE_MAIN,
	};
	size_t alen = family == AF_INET ? 4 : 16;
	uint32_t ifindex = (uint32_t)oif;
	struct nl_msg m;

	/* ip(8)'s defaults: a new route is boot-protocol unicast of link
	 * scope (no gateway); a delete leaves them as wildcards. */
	if (type == RTM_NEWROUTE) {
		rtm.rtm_protocol = RTPROT_BOOT;
		rtm.rtm_scope = RT_SCOPE_LINK;
		rtm.rtm_type = RTN_UNICAST;
	} else {
		rtm.rtm_scope = RT_SCOPE_NOWHERE;
	}
	nl_msg_init(&m, type, type == RTM_NEWROUTE ? NLM_F_CREATE | NLM_F_EXCL
		    : 0, &rtm, sizeof(rtm));
	if (nl_attr(&m, RTA_DST, dst, alen) < 0 ||
	    nl_attr(&m, RTA_OIF, &ifindex, sizeof(ifindex)) < 0 ||
	    (src && nl_attr(&m, RTA_PREFSRC, src, alen) < 0) ||
	    nl_attr_u32(&m, RTA_PRIORITY, metric) < 0)
		return -E2BIG;
	return nl_do(s, &m);
}
