// SPDX-License-Identifier: MIT
/* test_xenstore.c - the xenstore client's wire messages (libcommon/xenstore.c):
 * the requests xs_encode builds and the replies xs_decode accepts or
 * refuses, as mount-shared, xen-init-list and the hotplug applets use them.
 * (fuzz_xenstore.c fuzzes the same two functions.) */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "unit.h"
#include "xenstore.h"

/* A reply header + payload into buf; returns the length. */
static size_t reply_msg(char *buf, uint32_t type, uint32_t req_id,
			const char *payload, uint32_t len)
{
	struct xs_header h = { type, req_id, 0, len };

	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), payload, len);
	return sizeof(h) + len;
}

static void test_xenstore(void)
{
	char buf[256], reply[64], big[XS_PAYLOAD_MAX + 64];
	struct xs_header h;
	const char *payload;
	uint32_t plen;
	struct xs_request rq = { XS_DIRECTORY, 0, "device/9pfs", NULL, 0 };
	struct xs_request wr = { XS_WRITE, 5, "data/x", "val", 3 };
	size_t n = xs_encode(buf, sizeof(buf), &rq, 7);

	memcpy(&h, buf, sizeof(h));
	UNIT_CHECK("xenstore/request", n == sizeof(h) + 12 && h.type ==
		   XS_DIRECTORY && h.req_id == 7 && h.tx_id == 0 && h.len == 12
		   && memcmp(buf + sizeof(h), "device/9pfs", 12) == 0);
	n = xs_encode(buf, sizeof(buf), &wr, 2);
	memcpy(&h, buf, sizeof(h));
	UNIT_CHECK("xenstore/request-write", n == sizeof(h) + 10 &&
		   h.type == XS_WRITE && h.tx_id == 5 && h.len == 10 &&
		   memcmp(buf + sizeof(h), "data/x\0val", 10) == 0);
	rq.path = "device/9pfs/0/tag";
	UNIT_CHECK("xenstore/request-too-long",
		   xs_encode(buf, 20, &rq, 1) == 0);
	memset(big, 'a', sizeof(big));
	big[XS_PAYLOAD_MAX] = '\0';   /* a path of 4096 bytes + NUL */
	rq.path = big;
	{
		static char wire[XS_PAYLOAD_MAX + 64];
		UNIT_CHECK("xenstore/request-over-payload-max",
			   xs_encode(wire, sizeof(wire), &rq, 1) == 0);
	}

	n = reply_msg(reply, XS_DIRECTORY, 7, "0\0" "1\0", 4);
	UNIT_CHECK("xenstore/reply", xs_decode(reply, n, XS_DIRECTORY, 7,
		   &payload, &plen) == 0 && plen == 4 && payload[2] == '1');
	UNIT_CHECK("xenstore/reply-partial-header", xs_decode(reply, 10,
		   XS_DIRECTORY, 7, &payload, &plen) == XS_MORE);
	UNIT_CHECK("xenstore/reply-partial", xs_decode(reply, n - 2,
		   XS_DIRECTORY, 7, &payload, &plen) == XS_MORE);
	UNIT_CHECK("xenstore/reply-wrong-id", xs_decode(reply, n,
		   XS_DIRECTORY, 8, &payload, &plen) == -EIO);
	UNIT_CHECK("xenstore/reply-wrong-type", xs_decode(reply, n, XS_READ,
		   7, &payload, &plen) == -EIO);
	UNIT_CHECK("xenstore/reply-extra", xs_decode(reply, n + 1,
		   XS_DIRECTORY, 7, &payload, &plen) == -EIO);
	n = reply_msg(reply, XS_ERROR, 7, "ENOENT", 7);
	UNIT_CHECK("xenstore/reply-error", xs_decode(reply, n, XS_READ, 7,
		   &payload, &plen) == -ENOENT);
	/* (found by fuzz/mountopt: "EAGAIN" read as an incomplete reply)
	 * a whole "EAGAIN" is a lost commit, -EAGAIN, never XS_MORE: the
	 * transaction is run again */
	n = reply_msg(reply, XS_ERROR, 7, "EAGAIN", 7);
	UNIT_CHECK("xenstore/reply-error-eagain-is-a-lost-commit",
		   xs_decode(reply, n, XS_TRANSACTION_END, 7, &payload,
			     &plen) == -EAGAIN);
	n = reply_msg(reply, XS_ERROR, 7, "EEXIST", 7);
	UNIT_CHECK("xenstore/reply-error-eexist", xs_decode(reply, n,
		   XS_WRITE, 7, &payload, &plen) == -EEXIST);
	n = reply_msg(reply, XS_ERROR, 7, "ENOENTX", 8);
	UNIT_CHECK("xenstore/reply-error-unknown-name", xs_decode(reply, n,
		   XS_READ, 7, &payload, &plen) == -EIO);
	n = reply_msg(reply, XS_ERROR, 7, "EIO", 3);   /* no NUL */
	UNIT_CHECK("xenstore/reply-error-no-nul", xs_decode(reply, n,
		   XS_READ, 7, &payload, &plen) == -EIO);
	h.type = XS_READ; h.req_id = 7; h.tx_id = 0; h.len = 5000;
	memcpy(reply, &h, sizeof(h));
	UNIT_CHECK("xenstore/reply-huge", xs_decode(reply, sizeof(h),
		   XS_READ, 7, &payload, &plen) == -EIO);
}

/* xs_dirpart_parse on payload (len bytes): "RET NLEN" or "-EIO". */
static int dirpart(const char *payload, size_t len, int want, size_t want_nlen,
		   const char *want_gen)
{
	const char *gen = NULL, *names = NULL;
	size_t nlen = 99;
	int ret = xs_dirpart_parse(payload, len, &gen, &names, &nlen);

	if (ret != want)
		return 0;
	if (ret < 0)
		return 1;
	return nlen == want_nlen && strcmp(gen, want_gen) == 0 &&
	       names == payload + strlen(want_gen) + 1;
}

/* XS_DIRECTORY_PART replies as C xenstored's send_directory_part makes
 * them (tools/xenstored/core.c): "GEN\0" then whole names, the last
 * chunk with one more NUL. */
static void test_dirpart(void)
{
	char big[40];

	UNIT_CHECK("xenstore/dirpart-chunk", dirpart("7\0" "10000\0" "10001\0", 14, 0, 12, "7"));
	UNIT_CHECK("xenstore/dirpart-last", dirpart("7\0" "10002\0\0", 9, 1, 6, "7"));
	UNIT_CHECK("xenstore/dirpart-one-letter-chunk", dirpart("42\0a\0", 5, 0, 2, "42"));
	UNIT_CHECK("xenstore/dirpart-past-the-end", dirpart("42\0\0", 4, 1, 0, "42"));
	UNIT_CHECK("xenstore/dirpart-no-chunk", dirpart("42\0", 3, -EIO, 0, ""));
	UNIT_CHECK("xenstore/dirpart-no-gen", dirpart("\0a\0\0", 4, -EIO, 0, ""));
	UNIT_CHECK("xenstore/dirpart-gen-no-nul", dirpart("4242", 4, -EIO, 0, ""));
	UNIT_CHECK("xenstore/dirpart-name-cut", dirpart("7\0ab", 4, -EIO, 0, ""));
	UNIT_CHECK("xenstore/dirpart-empty-name", dirpart("7\0a\0\0b\0", 7, -EIO, 0, ""));
	UNIT_CHECK("xenstore/dirpart-starts-empty", dirpart("7\0\0a\0", 5, -EIO, 0, ""));
	UNIT_CHECK("xenstore/dirpart-end-marker-twice", dirpart("7\0a\0\0\0", 6, -EIO, 0, ""));
	/* a generation of 23 digits (a uint64 has 20) fits; 24 does not */
	memset(big, '1', sizeof(big));
	big[23] = '\0'; big[24] = 'a'; big[25] = '\0'; big[26] = '\0';
	UNIT_CHECK("xenstore/dirpart-gen-23", dirpart(big, 27, 1, 2, "11111111111111111111111"));
	memset(big, '1', sizeof(big));
	big[24] = '\0'; big[25] = 'a'; big[26] = '\0'; big[27] = '\0';
	UNIT_CHECK("xenstore/dirpart-gen-24", dirpart(big, 28, -EIO, 0, ""));
}

int main(void)
{
	test_xenstore();
	test_dirpart();
	return unit_failures ? 1 : 0;
}
