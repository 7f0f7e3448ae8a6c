// SPDX-License-Identifier: MIT
/* xlcfg.h - xl domain configuration files (xl.cfg(5)), read exactly as
 * Xen 4.17's own parser (libxlutil: xlu_cfg_readdata, xlu_cfg_get_string)
 * reads them, quirks and upstream bugs included; see xlcfg.c for the
 * language. One pass over a text in memory, no heap, no stdio: the caller
 * owns every buffer. */
#ifndef FORKLESS_XLCFG_H
#define FORKLESS_XLCFG_H

#include <stddef.h>
#include <stdint.h>

/* The longest text xlcfg_parse takes (1 MiB; real configs are a few KiB). */
#define XLCFG_TEXT_MAX (1024 * 1024)

/* xl's parser (bison) stops with "memory exhausted" when its stack would
 * reach 10000 entries (YYMAXDEPTH): lists nested about 5000 deep. */
#define XLCFG_STACK_MAX 10000

/* The type of every key's current value, needed because `+=` of a list to
 * a string (or back) is an error for any key. A statement takes at least
 * 4 bytes ("a=1;"), so a text of XLCFG_TEXT_MAX bytes sets at most
 * (XLCFG_TEXT_MAX + 1) / 4 keys; twice as many slots keep the open
 * hash table at most half full. 2 MiB of the caller's memory, of which a
 * parse touches (and clears) only what the text's length needs. */
#define XLCFG_KEY_SLOTS (1u << 19)
struct xlcfg_keys {
	uint32_t slot[XLCFG_KEY_SLOTS];
};

enum xlcfg_type { XLCFG_UNSET, XLCFG_STRING, XLCFG_LIST };

/* The one key whose value the caller wants. */
struct xlcfg_want {
	const char *key;        /* in: e.g. "name" */
	char *value;            /* in: receives its string value (no NUL added) */
	size_t value_cap;       /* in: the text's length is always enough */
	enum xlcfg_type type;   /* out: XLCFG_UNSET when never assigned */
	size_t value_len;       /* out: for XLCFG_STRING */
	unsigned line;          /* out: line of the statement that set it last */
};

/* Where and why a text was refused. */
struct xlcfg_error {
	unsigned line;          /* 1-based */
	const char *what;       /* a static message */
	size_t near;            /* the offending bytes: text + near, */
	size_t near_len;        /* near_len of them (0 at end of text) */
};

/* Parse all of text. 0: the text is valid and want is filled. -EINVAL:
 * xl would refuse the text (err says where and why; want is not
 * meaningful). -EFBIG: len > XLCFG_TEXT_MAX. */
int xlcfg_parse(const char *text, size_t len, struct xlcfg_keys *keys,
		struct xlcfg_want *want, struct xlcfg_error *err);

#endif
