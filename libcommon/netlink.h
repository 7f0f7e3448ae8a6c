// SPDX-License-Identifier: MIT
/* netlink.h - a small rtnetlink client that knows no applet.
 *
 * What `ip link set`, `ip address flush|add`, `ip route add|del` and
 * `brctl addif|delif` do, as messages on one NETLINK_ROUTE socket: no
 * iproute2, no libmnl, no heap, no stdio. A request is built in a
 * struct nl_msg (the family header, then attributes), sent with
 * NLM_F_ACK and answered by the kernel's ack (nl_do) or by a dump of
 * messages up to NLMSG_DONE (nl_dump). Every reply is checked before it is
 * read: its length against the datagram, its sequence number against the
 * request's, every attribute's length against its message
 * (nl_parse_batch, nl_attrs: pure functions, fuzzed by
 * tests/fuzz/fuzz_netlink.c).
 */
#ifndef FORKLESS_NETLINK_H
#define FORKLESS_NETLINK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* ---- the kernel's netlink ABI (linux/netlink.h, rtnetlink.h, if_link.h,
 * if_addr.h): musl's headers do not carry it and the kernel's are not on
 * musl-gcc's path, so the few definitions used are here, as the kernel
 * fixes them. */
struct nlmsghdr {
	uint32_t nlmsg_len;
	uint16_t nlmsg_type, nlmsg_flags;
	uint32_t nlmsg_seq, nlmsg_pid;
};
struct nlmsgerr {
	int error;
	struct nlmsghdr msg;
};
struct sockaddr_nl {
	unsigned short nl_family, nl_pad;
	uint32_t nl_pid, nl_groups;
};
struct rtattr {
	unsigned short rta_len, rta_type;
};
struct ifinfomsg {
	unsigned char ifi_family, ifi_pad;
	unsigned short ifi_type;
	int ifi_index;
	unsigned ifi_flags, ifi_change;
};
struct ifaddrmsg {
	uint8_t ifa_family, ifa_prefixlen, ifa_flags, ifa_scope;
	uint32_t ifa_index;
};
struct rtmsg {
	unsigned char rtm_family, rtm_dst_len, rtm_src_len, rtm_tos;
	unsigned char rtm_table, rtm_protocol, rtm_scope, rtm_type;
	unsigned rtm_flags;
};
#define NETLINK_ROUTE 0
#define NLM_F_REQUEST 0x01
#define NLM_F_MULTI 0x02
#define NLM_F_ACK 0x04
#define NLM_F_DUMP 0x300
#define NLM_F_EXCL 0x200
#define NLM_F_CREATE 0x400
#define NLMSG_ERROR 2
#define NLMSG_DONE 3
#define NLMSG_ALIGN(len) (((len) + 3U) & ~3U)
#define NLMSG_HDRLEN ((unsigned)NLMSG_ALIGN(sizeof(struct nlmsghdr)))
#define NLMSG_LENGTH(len) ((len) + NLMSG_HDRLEN)
#define NLMSG_SPACE(len) NLMSG_ALIGN(NLMSG_LENGTH(len))
#define NLMSG_DATA(nh) ((void *)((char *)(nh) + NLMSG_HDRLEN))
#define RTA_ALIGN(len) (((len) + 3U) & ~3U)
#define RTA_LENGTH(len) (RTA_ALIGN(sizeof(struct rtattr)) + (len))
#define RTA_SPACE(len) RTA_ALIGN(RTA_LENGTH(len))
#define RTA_DATA(rta) ((void *)((char *)(rta) + RTA_LENGTH(0)))
#define RTA_PAYLOAD(rta) ((size_t)(rta)->rta_len - RTA_LENGTH(0))
enum {
	RTM_NEWLINK = 16, RTM_GETLINK = 18,
	RTM_NEWADDR = 20, RTM_DELADDR = 21, RTM_GETADDR = 22,
	RTM_NEWROUTE = 24, RTM_DELROUTE = 25,
};
enum { IFLA_ADDRESS = 1, IFLA_IFNAME = 3, IFLA_MTU = 4, IFLA_MASTER = 10,
       IFLA_LINKINFO = 18, IFLA_MAX = 18 };
enum { IFLA_INFO_KIND = 1, IFLA_INFO_MAX = 1 };
enum { IFA_ADDRESS = 1, IFA_LOCAL = 2, IFA_MAX = 2 };
enum { RTA_DST = 1, RTA_OIF = 4, RTA_PRIORITY = 6, RTA_PREFSRC = 7 };
#define RT_TABLE_MAIN 254
#define RTPROT_BOOT 3
#define RT_SCOPE_LINK 253
#define RT_SCOPE_NOWHERE 255
#define RTN_UNICAST 1

#define NL_MSG_MAX 512      /* requests are a header and a few attributes */
#define NL_RECV_MAX 32768   /* the kernel's largest dump datagram */

struct nl_sock {
	int fd;
	uint32_t seq;
};

struct nl_msg {
	union {
		struct nlmsghdr nh;
		char buf[NL_MSG_MAX];
	};
};

/* 0 or -errno. */
int nl_open(struct nl_sock *s);
void nl_close(struct nl_sock *s);

/* A request of type (RTM_NEWLINK...) with flags (NLM_F_REQUEST is added)
 * and the family header fam (famlen bytes: struct ifinfomsg...). */
void nl_msg_init(struct nl_msg *m, uint16_t type, uint16_t flags,
		 const void *fam, size_t famlen);
/* Append an attribute: 0, or -E2BIG when the message would not fit. */
int nl_attr(struct nl_msg *m, uint16_t type, const void *data, size_t len);
int nl_attr_u32(struct nl_msg *m, uint16_t type, uint32_t v);
int nl_attr_str(struct nl_msg *m, uint16_t type, const char *s);

/* Send m and wait for its ack: 0 or the kernel's -errno. */
int nl_do(struct nl_sock *s, struct nl_msg *m);

/* Called for each message of a reply (never NLMSG_DONE or an ack). A
 * non-zero return is remembered and returned by nl_dump once the reply
 * has been read to its end (the socket stays in step). */
typedef int nl_msg_fn(const struct nlmsghdr *nh, void *ctx);
/* Send m as a dump request (NLM_F_DUMP) and pass each reply message to fn.
 * 0, fn's first non-zero return, or -errno (-EIO for a malformed reply,
 * -EMSGSIZE for a datagram over NL_RECV_MAX). */
int nl_dump(struct nl_sock *s, struct nl_msg *m, nl_msg_fn *fn, void *ctx);

/* The pure parser: the messages of one received datagram (len bytes) for
 * request seq. fn (may be NULL) sees each data message. Returns 1 when the
 * reply is complete (NLMSG_DONE, or an ack of 0), 0 when more datagrams
 * follow, -errno from an error ack, -EIO when malformed: a message shorter
 * than its header or running past len, another seq, a truncated error
 * message. *fn_ret holds fn's first non-zero return. */
int nl_parse_batch(const void *buf, size_t len, uint32_t seq, nl_msg_fn *fn,
		   void *ctx, int *fn_ret);

/* The attributes after a message's family header (famlen bytes) into
 * tb[0..max] by type (the last of a type wins, as the kernel's
 * nla_parse): 0, or -EIO when the header or an attribute runs past the
 * message. Types above max are skipped. */
int nl_attrs(const struct nlmsghdr *nh, size_t famlen,
	     const struct rtattr **tb, unsigned max);
/* The same over a nested attribute's payload. */
int nl_attrs_nested(const struct rtattr *rta, const struct rtattr **tb,
		    unsigned max);

/* ---- links (RTM_GETLINK, RTM_NEWLINK) ------------------------------------ */

#define NL_IFNAMSIZ 16
struct nl_link {
	int index;
	unsigned flags;      /* IFF_UP... */
	uint32_t mtu;
	int master;          /* ifindex of the bridge it is enslaved to, or 0 */
	int is_bridge;       /* IFLA_INFO_KIND "bridge" */
	char name[NL_IFNAMSIZ];
	unsigned char addr[32];
	size_t addr_len;
};

/* A link message (RTM_NEWLINK) into *l: 0, or -EIO when malformed or
 * without a name. */
int nl_link_parse(const struct nlmsghdr *nh, struct nl_link *l);
/* The link called name: 0, -ENODEV when there is none, -errno. */
int nl_link_get(struct nl_sock *s, const char *name, struct nl_link *l);
/* Each link to fn(l, ctx) (non-zero stops, returned as nl_dump does). */
typedef int nl_link_fn(const struct nl_link *l, void *ctx);
int nl_link_each(struct nl_sock *s, nl_link_fn *fn, void *ctx);
/* Change link index: the flags in change set to those of flags (ip link
 * set up|down), and attribute attr (IFLA_MTU, IFLA_MASTER, IFLA_ADDRESS,
 * IFLA_IFNAME; 0 for none) to data. 0 or the kernel's -errno. */
int nl_link_change(struct nl_sock *s, int index, unsigned flags,
		   unsigned change, uint16_t attr, const void *data,
		   size_t len);

/* ---- addresses and routes ------------------------------------------------ */

struct nl_addr {
	uint8_t family, prefixlen, flags, scope;
	int index;
	unsigned char local[16], address[16];   /* IFA_LOCAL, IFA_ADDRESS */
	int has_local, has_address;
};
int nl_addr_parse(const struct nlmsghdr *nh, struct nl_addr *a);
/* Each address of family (AF_UNSPEC: all) on link index (0: every link),
 * in the kernel's order (primary before secondary), to fn. */
typedef int nl_addr_fn(const struct nl_addr *a, void *ctx);
int nl_addr_each(struct nl_sock *s, int family, int index, nl_addr_fn *fn,
		 void *ctx);
/* RTM_NEWADDR (add, NLM_F_CREATE|NLM_F_EXCL) or RTM_DELADDR of a. */
int nl_addr_change(struct nl_sock *s, uint16_t type, const struct nl_addr *a);
/* Delete every address of link index, as `ip address flush dev` does:
 * 0 or -errno. */
int nl_addr_flush(struct nl_sock *s, int index);

/* RTM_NEWROUTE (NLM_F_CREATE|NLM_F_EXCL) or RTM_DELROUTE of dst/dst_len
 * (family AF_INET or AF_INET6) via link oif, with preferred source src
 * (NULL: none) and metric (priority), in the main table, scope link, as
 * `ip route add DST dev DEV src SRC metric N` makes it. */
int nl_route_change(struct nl_sock *s, uint16_t type, int family,
		    const void *dst, unsigned dst_len, int oif,
		    const void *src, uint32_t metric);

#endif
