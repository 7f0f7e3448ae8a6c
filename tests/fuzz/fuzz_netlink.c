// SPDX-License-Identifier: MIT
/* fuzz_netlink.c - libFuzzer target for the rtnetlink reply parser
 * (libcommon/netlink.c): nl_parse_batch over one datagram, and for each
 * message it hands out, the link and address parsers and the attribute
 * walk. The first 4 input bytes are the request's sequence number; the
 * rest is the datagram, copied to an aligned buffer as recv() fills it.
 * Invariants: a message handed out lies inside the datagram and is at
 * least a header long; a parsed link has a non-empty NUL-terminated name
 * shorter than IFNAMSIZ and an address no longer than its buffer; every
 * attribute nl_attrs returns lies inside its message. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon.h"
#include "netlink.h"

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

static const char *batch;
static size_t batch_len;

static void check_inside(const void *p, size_t n, const void *base, size_t len)
{
	const char *c = p, *b = base;

	CHECK(c >= b && n <= len && (size_t)(c - b) <= len - n);
}

static int each_msg(const struct nlmsghdr *nh, void *ctx)
{
	const struct rtattr *tb[IFLA_MAX + 1];
	struct nl_link l;
	struct nl_addr a;
	int *count = ctx;

	(*count)++;
	CHECK(nh->nlmsg_len >= sizeof(*nh));
	check_inside(nh, nh->nlmsg_len, batch, batch_len);
	if (nl_attrs(nh, sizeof(struct ifinfomsg), tb, IFLA_MAX) == 0)
		for (unsigned i = 0; i <= IFLA_MAX; i++)
			if (tb[i]) {
				CHECK(tb[i]->rta_len >= sizeof(struct rtattr));
				check_inside(tb[i], tb[i]->rta_len, nh, nh->nlmsg_len);
			}
	if (nl_link_parse(nh, &l) == 0) {
		size_t n = strnlen(l.name, sizeof(l.name));

		CHECK(n > 0 && n < sizeof(l.name));
		CHECK(l.addr_len <= sizeof(l.addr));
		CHECK(l.is_bridge == 0 || l.is_bridge == 1);
	}
	if (nl_addr_parse(nh, &a) == 0)
		CHECK(!a.has_local || a.family == 2 || a.family == 10);
	return *count > 1000;   /* a non-zero return stops the hand-out */
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static char buf[NL_RECV_MAX] __attribute__((aligned(4)));
	uint32_t seq;
	int count = 0, fn_ret = 0, ret;

	if (n < 4 || n - 4 > sizeof(buf))
		return 0;
	memcpy(&seq, d, 4);
	memcpy(buf, d + 4, n - 4);
	batch = buf;
	batch_len = n - 4;
	ret = nl_parse_batch(buf, n - 4, seq, each_msg, &count, &fn_ret);
	CHECK(ret == 0 || ret == 1 || (ret < 0 && ret >= -4095));
	CHECK(fn_ret == 0 || fn_ret == 1);
	return 0;
}
