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

int main(void)
{
	test_xenstore();
	return unit_failures ? 1 : 0;
}
