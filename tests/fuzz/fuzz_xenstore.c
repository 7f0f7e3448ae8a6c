// SPDX-License-Identifier: MIT
/* fuzz_xenstore.c - libFuzzer target for the xenstore reply checks
 * (libcommon/xenstore.c): xs_decode over a reply as it arrives, in every
 * split a read could make, and xs_encode of a request built from the
 * input. The first 8 input bytes are the expected type and req_id.
 * Invariants: a reply is accepted only whole, of the request's type (or
 * XS_ERROR, then as a negative errno) and req_id, with its payload inside
 * the input and as long as its header says; a reply all there is never
 * "incomplete"; as read(2) may deliver it, every prefix short of the
 * whole message is XS_MORE or refused, and refused only when the whole
 * is; read as a stream of replies (xs_decode_next, req_ids counting up,
 * as pipelined requests are answered), each one taken is whole, inside
 * the input, and exactly what xs_decode accepts alone; an encoded request
 * decodes back to its own header and payload; the input read as an
 * XS_DIRECTORY_PART payload (xs_dirpart_parse) is a chunk, the last one
 * or refused, and a chunk taken holds whole non-empty names inside the
 * input after a generation of 1-23 bytes. (The xenstore replies
 * fuzz_mountopt.c once fuzzed too are here, in corpus-xenstore/from-mountopt-*.) */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon.h"
#include "xenstore.h"

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	const char *buf = (const char *)d + 8, *payload;
	struct xs_header h;
	uint32_t type, req_id, plen;
	size_t len;
	int ret;

	if (n < 8)
		return 0;
	memcpy(&type, d, 4);
	memcpy(&req_id, d + 4, 4);
	len = n - 8;
	payload = NULL;
	ret = xs_decode(buf, len, type, req_id, &payload, &plen);
	if (ret == 0 || (ret < 0 && ret != -EIO) || (ret < 0 && payload)) {
		/* whole, and the request's (an XS_ERROR reply naming an
		 * unknown errno is -EIO with its payload set) */
		CHECK(len >= sizeof(h));
		memcpy(&h, buf, sizeof(h));
		CHECK(h.req_id == req_id && (h.type == type || h.type == XS_ERROR));
		CHECK(plen == h.len && len == sizeof(h) + plen && plen <= XS_PAYLOAD_MAX);
		CHECK(payload == buf + sizeof(h));
		CHECK((ret == 0) == (h.type == type && type != XS_ERROR) ||
		      (type == XS_ERROR && h.type == XS_ERROR));
	}
	if (ret == -EIO)
		CHECK(len >= sizeof(h));
	if (ret == XS_MORE && len >= sizeof(h)) {
		memcpy(&h, buf, sizeof(h));
		CHECK(len < sizeof(h) + (size_t)h.len);   /* all there, yet "incomplete" */
	}
	/* As read(2) may deliver it: no prefix short of the whole message is
	 * accepted, and one is refused only when the whole is. */
	{
		size_t whole = len;

		if (len >= sizeof(h)) {
			memcpy(&h, buf, sizeof(h));
			if (sizeof(h) + (size_t)h.len < whole)
				whole = sizeof(h) + h.len;
		}
		for (size_t cut = 0; cut < whole; cut++) {
			const char *p2;
			uint32_t l2;
			int r2 = xs_decode(buf, cut, type, req_id, &p2, &l2);

			CHECK(r2 == XS_MORE || r2 == -EIO);
			CHECK(r2 != -EIO || ret == -EIO);
		}
	}
	for (size_t at = 0, k = 0; at < len; k++) {
		const char *p2;
		uint32_t l2 = 0;
		size_t used = 0;
		int r = xs_decode_next(buf + at, len - at, type, req_id + (uint32_t)k,
				       &payload, &plen, &used);

		if (used == 0) {   /* incomplete or malformed: the stream ends */
			CHECK(r == XS_MORE || r == -EIO);
			break;
		}
		CHECK(used >= sizeof(h) && used <= len - at);
		CHECK(payload == buf + at + sizeof(h) && used == sizeof(h) + plen);
		CHECK(xs_decode(buf + at, used, type, req_id + (uint32_t)k,
				&p2, &l2) == r && p2 == payload && l2 == plen);
		at += used;
	}
	/* the input as an XS_DIRECTORY_PART reply's payload */
	{
		const char *gen = NULL, *names = NULL;
		size_t nlen = 0, glen, clen;
		int r = xs_dirpart_parse(buf, len, &gen, &names, &nlen);

		CHECK(r == 0 || r == 1 || r == -EIO);
		if (r >= 0) {
			CHECK(gen == buf);
			glen = strnlen(gen, len);
			CHECK(glen >= 1 && glen <= 23 && glen < len);
			CHECK(names == buf + glen + 1);
			clen = len - glen - 1;
			CHECK(clen >= 1 && buf[len - 1] == '\0');
			/* the last chunk: the end marker after the names */
			CHECK(r == 1 ? nlen == clen - 1 : (nlen == clen && nlen > 0));
			CHECK(nlen == 0 || (names[0] != '\0' && names[nlen - 1] == '\0'));
			for (size_t i = 1; i < nlen; i++)
				CHECK(names[i] != '\0' || names[i - 1] != '\0');
		}
	}
	/* a request from the input: path = the bytes up to a NUL */
	{
		char path[XS_PAYLOAD_MAX + 1], msg[sizeof(h) + XS_PAYLOAD_MAX + 8];
		size_t pl = strnlen(buf, len < XS_PAYLOAD_MAX ? len : XS_PAYLOAD_MAX);
		struct xs_request rq = { type, req_id, path, NULL, 0 };
		size_t m;

		memcpy(path, buf, pl);
		path[pl] = '\0';
		if (pl < len) {
			rq.value = buf + pl;
			rq.value_len = len - pl;
		}
		m = xs_encode(msg, sizeof(msg), &rq, req_id);
		if (m) {
			memcpy(&h, msg, sizeof(h));
			CHECK(m == sizeof(h) + h.len && h.type == type &&
			      h.req_id == req_id && h.tx_id == req_id);
			CHECK(h.len == pl + 1 + rq.value_len);
			CHECK(memcmp(msg + sizeof(h), path, pl + 1) == 0);
		} else {
			CHECK(pl + 1 + rq.value_len > XS_PAYLOAD_MAX);
		}
	}
	return 0;
}
