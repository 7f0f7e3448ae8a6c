// SPDX-License-Identifier: MIT
/* mountopt.c - the mount option engine (see mountopt.h): the parser of
 * option strings, the mount data built from what it kept, the texts of
 * its messages and of -v, and the default hooks. The tables, and the
 * lookups in them, are mountopt-tables.c's (mountopt-tables.h). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "libcommon.h"
#include "passwd.h"
#include "mountopt.h"
#include "mountopt-tables.h"

#define ID_MAX 4294967294u   /* (uid_t)-1 means "no id" to the kernel */
/* ---- the parser -------------------------------------------------------- */

void mopt_init(struct mopt_ctx *ctx, const struct mopt_fs *fs)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->fs = fs;
	ctx->vbox_known = -1;
}

static int fail(struct mopt_ctx *ctx, const char *opt, size_t len,
		enum mopt_reason why)
{
	if (ctx->error == MOPT_OK) {
		ctx->error = why;
		ctx->err_opt = opt;
		ctx->err_len = len;
	}
	return -1;
}

static void drop(struct mopt_ctx *ctx, const char *opt, size_t len,
		 enum mopt_reason why)
{
	if (ctx->warn)
		ctx->warn(ctx, opt, len, why);
}

static void store(struct mopt_ctx *ctx, unsigned slot, const char *str,
		  size_t len, uint32_t num, int numeric, int has_value)
{
	struct mopt_slot *s = &ctx->slot[slot];

	s->str = str;
	s->len = (uint32_t)len;
	s->num = num;
	s->numeric = (uint8_t)numeric;
	s->has_value = (uint8_t)has_value;
	s->seq = ++ctx->seq;
}

/* A number in v within the spec's range: decimal, or for MOPT_HEX also
 * 0xHEX; OCTAL: octal using only the bits of the range's maximum. */
static enum mopt_reason parse_number(const struct mopt_spec *sp,
				     const char *v, size_t len, uint32_t *out)
{
	const uint32_t *range = mopt_ranges[sp->arg];
	unsigned base = sp->type == MOPT_OCTAL ? 8 : 10;
	uint64_t n = 0;
	int r;

	if (sp->flags & MOPT_HEX && len > 2 && v[0] == '0' &&
	    (v[1] == 'x' || v[1] == 'X')) {
		base = 16;
		v += 2;
		len -= 2;
	}
	r = parse_u64_base(v, len, base, &n);
	*out = (uint32_t)n;
	if (base == 8)
		return r == -EINVAL ? MOPT_NOT_OCTAL
		       : r < 0 || n & ~(uint64_t)range[1] ? MOPT_OCTAL_BITS
		       : MOPT_OK;
	if (r == -ERANGE)
		return MOPT_RANGE;
	if (r < 0)
		return MOPT_NOT_NUMBER;
	return n < range[0] || n > range[1] ? MOPT_RANGE : MOPT_OK;
}

static enum mopt_reason parse_id(struct mopt_ctx *ctx, int is_group,
				 const char *v, size_t len, uint32_t *out)
{
	uint64_t n;
	size_t i = 0;
	int r;

	while (i < len && v[i] >= '0' && v[i] <= '9')
		i++;
	if (i == len) {   /* all digits (len > 0: empty values fail earlier) */
		if (parse_u64_base(v, len, 10, &n) < 0 || n > UINT32_MAX)
			return MOPT_RANGE;
		*out = (uint32_t)n;
		return n > ID_MAX ? MOPT_BAD_ID : MOPT_OK;
	}
	r = (ctx->resolve ? ctx->resolve : mopt_resolve_passwd)(
		ctx, is_group, v, len, out);
	if (r == 0)
		return *out > ID_MAX ? MOPT_BAD_ID : MOPT_OK;
	if (r == -ENOENT)
		return is_group ? MOPT_NO_GROUP : MOPT_NO_USER;
	ctx->err_errno = -r;
	return MOPT_LOOKUP_FAILED;
}

static int vbox_driver(struct mopt_ctx *ctx)
{
	if (ctx->vbox_known < 0)
		ctx->vbox_known = (ctx->vbox_driver ? ctx->vbox_driver
				   : mopt_vbox_driver_sysfs)(ctx) > 0;
	return ctx->vbox_known;
}

static int parse_fs_option(struct mopt_ctx *ctx, const char *opt, size_t len,
			   size_t nlen, const char *v, size_t vlen,
			   int has_value)
{
	const struct mopt_fs *fs = ctx->fs;
	int i = mopt_find_spec(fs, opt, nlen);
	const struct mopt_spec *sp;
	enum mopt_reason why = MOPT_OK;
	uint32_t num = 0;
	int numeric = 0;

	if (i < 0) {
		if (!ctx->sloppy)
			return fail(ctx, opt, len, MOPT_UNKNOWN);
		drop(ctx, opt, len, MOPT_UNKNOWN);
		return 0;
	}
	sp = mopt_spec_at(fs, (unsigned)i);

	if (sp->type == MOPT_FLAG) {
		if (has_value)
			why = MOPT_NO_VALUE;
	} else if (!has_value) {
		if (!(sp->flags & MOPT_VALUE_OPTIONAL))
			why = MOPT_NEEDS_VALUE;
	} else if (vlen == 0) {
		why = MOPT_EMPTY_VALUE;
	} else {
		switch (sp->type) {
		case MOPT_U32:
		case MOPT_OCTAL:
			why = parse_number(sp, v, vlen, &num);
			numeric = sp->type == MOPT_OCTAL ? 8
				  : sp->flags & MOPT_HEX ? 16 : 10;
			break;
		case MOPT_UID:
		case MOPT_GID:
			why = parse_id(ctx, sp->type == MOPT_GID, v, vlen, &num);
			numeric = 10;
			break;
		case MOPT_ENUM:
			if (mopt_pool_index(mopt_choices[sp->arg], v, vlen) >= 0)
				break;
			why = MOPT_CHOICE;
			if (!(sp->flags & MOPT_OR_UID))
				break;
			why = parse_id(ctx, 0, v, vlen, &num);
			numeric = 10;
			if (why == MOPT_NO_USER)
				why = MOPT_CHOICE;
			break;
		default:
			break;
		}
	}
	if (why != MOPT_OK)
		return fail(ctx, opt, len, why);
	if (sp->flags & MOPT_VBOX_ONLY && !vbox_driver(ctx)) {
		drop(ctx, opt, len, MOPT_NOT_VBOX);
		return 0;
	}
	if (sp->flags & MOPT_SETS_MASKS) {   /* umask: dmask, then fmask */
		store(ctx, (unsigned)mopt_find_spec(fs, LIT("dmask")), NULL, 0, num,
		      numeric, 1);
		i = mopt_find_spec(fs, LIT("fmask"));
	}
	store(ctx, mopt_slot_of(fs, (unsigned)i), numeric ? NULL : v,
	      numeric ? 0 : vlen, num, numeric, has_value);
	return 0;
}

static int parse_one(struct mopt_ctx *ctx, const char *opt, size_t len)
{
	const char *eq = memchr(opt, '=', len);
	size_t nlen = eq ? (size_t)(eq - opt) : len;

	if (memchr(opt, '\0', len))
		return fail(ctx, opt, len, MOPT_NUL_BYTE);
	if (!eq && mopt_flag_word(opt, len, &ctx->flags))
		return 0;
	if (mopt_mount8_word(opt, len, nlen, &ctx->flags))
		return 0;
	if (eq)
		return parse_fs_option(ctx, opt, len, nlen, eq + 1,
				       len - nlen - 1, 1);
	return parse_fs_option(ctx, opt, len, len, NULL, 0, 0);
}

size_t mopt_option_len(const char *s, size_t len, int *open_quote)
{
	size_t n;
	int quoted = 0;

	for (n = 0; n < len && (quoted || s[n] != ','); n++)
		quoted ^= s[n] == '"';
	*open_quote = quoted;
	return n;
}

int mopt_parse(struct mopt_ctx *ctx, const char *opts, size_t len)
{
	size_t i = 0;
	int open_quote;

	while (i < len) {
		const char *p = opts + i;
		size_t n = mopt_option_len(p, len - i, &open_quote);

		if (open_quote)
			return fail(ctx, p, n, MOPT_OPEN_QUOTE);
		if (n > 0 && parse_one(ctx, p, n) < 0)
			return -1;
		i += n + 1;
	}
	return 0;
}

/* The slot of the option called name, or NULL. */
static const struct mopt_slot *slot_named(const struct mopt_ctx *ctx,
					  const char *name)
{
	int i = mopt_find_spec(ctx->fs, name, strlen(name));

	return i < 0 ? NULL : &ctx->slot[mopt_slot_of(ctx->fs, (unsigned)i)];
}

void mopt_default(struct mopt_ctx *ctx, const char *name, const char *value)
{
	const struct mopt_slot *s = slot_named(ctx, name);

	if (s && !s->seq)
		store(ctx, (unsigned)(s - ctx->slot), value,
		      value ? strlen(value) : 0, 0, 0, value != NULL);
}

/* v in base 10, 16 (0x...) or 8 (with a leading 0 unless 0, as shown by
 * the drivers' show_options) into buf (FMT_U64_MAX bytes); returns the
 * length. */
static size_t fmt_num(char *buf, uint64_t v, unsigned base)
{
	size_t len = 0;

	if (base == 16 || (base == 8 && v != 0))
		buf[len++] = '0';
	if (base == 16)
		buf[len++] = 'x';
	return len + fmt_u64_base(buf + len, v, base);
}

static const char *slot_text(const struct mopt_slot *s, char *buf,
			     size_t *len)
{
	if (s->numeric) {
		*len = fmt_num(buf, s->num, s->numeric);
		return buf;
	}
	*len = s->len;
	return s->str;
}

const char *mopt_get(const struct mopt_ctx *ctx, const char *name, char *buf,
		     size_t cap)
{
	const struct mopt_slot *s = slot_named(ctx, name);
	const char *t;
	size_t len;
	char num[24];

	if (!s || !s->seq || cap == 0)
		return NULL;
	t = slot_text(s, num, &len);
	if (!s->has_value)
		len = 0;
	if (len >= cap)
		len = cap - 1;
	memcpy(buf, t, len);
	buf[len] = '\0';
	return buf;
}

long mopt_build(struct mopt_ctx *ctx, char *out, size_t cap)
{
	const struct mopt_fs *fs = ctx->fs;
	unsigned n = fs->nspecs + (unsigned)mopt_ncommon;
	size_t len = 0;
	uint32_t last = 0;

	out[0] = '\0';
	/* Emit in the order of each option's last occurrence. */
	for (;;) {
		int best = -1;
		uint32_t best_seq = 0;

		for (unsigned i = 0; i < n; i++) {
			uint32_t q = ctx->slot[i].seq;
			if (q > last && (best < 0 || q < best_seq)) {
				best = (int)i;
				best_seq = q;
			}
		}
		if (best < 0)
			break;
		last = best_seq;

		const struct mopt_slot *s = &ctx->slot[best];
		const char *name = mopt_name_at(fs, (unsigned)best);
		size_t nlen = strlen(name), vlen;
		char num[24];
		const char *v = slot_text(s, num, &vlen);
		size_t need = (len ? 1 : 0) + nlen +
			      (s->has_value ? 1 + vlen : 0);

		if (len + need > MOPT_DATA_MAX || len + need >= cap) {
			/* Never truncated: keep counting so that the
			 * message can give the full length. */
			ctx->error = MOPT_TOO_LONG;
			ctx->err_opt = NULL;
			len += need;
			continue;
		}
		if (len)
			out[len++] = ',';
		memcpy(out + len, name, nlen);
		len += nlen;
		if (s->has_value) {
			out[len++] = '=';
			memcpy(out + len, v, vlen);
			len += vlen;
		}
		out[len] = '\0';
	}
	if (ctx->error == MOPT_TOO_LONG) {
		ctx->err_len = len;
		out[0] = '\0';
		return -1;
	}
	return (long)len;
}

/* ---- texts for messages and -v ----------------------------------------- */

static void append(char *out, size_t cap, size_t *len, const char *s)
{
	str_append(out, cap, len, s, strlen(s));
}

size_t mopt_flags_text(unsigned long flags, char *out, size_t cap)
{
	const char *name = mopt_ms_names;
	const char *sep = "";
	size_t len = 0;

	if (cap)
		out[0] = '\0';
	for (size_t i = 0; i < mopt_ms_nflags; i++) {
		if (flags & mopt_ms_flags[i]) {
			flags &= ~(unsigned long)mopt_ms_flags[i];
			append(out, cap, &len, sep);
			append(out, cap, &len, "MS_");
			append(out, cap, &len, name);
			sep = "|";
		}
		name += strlen(name) + 1;
	}
	if (flags || !len) {
		/* bits without a name, in hex; no flags at all: "0" */
		char hex[FMT_U64_MAX];

		hex[fmt_num(hex, flags, flags ? 16 : 10)] = '\0';
		append(out, cap, &len, sep);
		append(out, cap, &len, hex);
	}
	return len;
}

void mopt_accepted_text(const struct mopt_ctx *ctx, char *out, size_t cap)
{
	const char *eq = ctx->err_opt ? memchr(ctx->err_opt, '=',
					       ctx->err_len) : NULL;
	int i = eq ? mopt_find_spec(ctx->fs, ctx->err_opt,
			       (size_t)(eq - ctx->err_opt)) : -1;
	const struct mopt_spec *sp = i < 0 ? NULL : mopt_spec_at(ctx->fs, (unsigned)i);
	size_t len = 0;
	char lo[24], hi[24];

	out[0] = '\0';
	if (!sp || sp->type == MOPT_FLAG || sp->type == MOPT_STRING)
		return;
	append(out, cap, &len, " (accepted: ");
	if (sp->type == MOPT_ENUM) {
		for (const char *p = mopt_choices[sp->arg]; *p; p += strlen(p) + 1) {
			append(out, cap, &len, p == mopt_choices[sp->arg] ? "" : ", ");
			append(out, cap, &len, p);
		}
		if (sp->flags & MOPT_OR_UID)
			append(out, cap, &len, ", or a user id or name");
	} else if (sp->type == MOPT_U32 || sp->type == MOPT_OCTAL) {
		const uint32_t *range = mopt_ranges[sp->arg];
		unsigned base = sp->type == MOPT_OCTAL ? 8 : 10;

		lo[fmt_num(lo, range[0], base)] = '\0';
		hi[fmt_num(hi, range[1], base)] = '\0';
		/* "0..65535"; octal: "octal, within 0777" */
		append(out, cap, &len, base == 8 ? "octal, within " : lo);
		append(out, cap, &len, base == 8 ? "" : "..");
		append(out, cap, &len, hi);
	} else {
		append(out, cap, &len, "a user/group id or name, up to "
		       "4294967294");
	}
	append(out, cap, &len, ")");
}

/* Indexed by enum mopt_reason. */
static const char reason_texts[] =
	"ok\0"
	"unknown option\0"
	"needs a value (NAME=VALUE)\0"
	"takes no value\0"
	"empty value\0"
	"not a decimal number\0"
	"number out of range\0"
	"not an octal number\0"
	"octal value out of range\0"
	"no such user in /etc/passwd\0"
	"no such group in /etc/group\0"
	"unknown value\0"
	"4294967295 is not a valid id\0"
	"mount data over the kernel's 4095 bytes\0"
	"only VirtualBox's own vboxsf driver takes it, and it is not the "
	"one loaded\0"
	"cannot read /etc/passwd or /etc/group\0"
	"contains a NUL byte\0"
	"unclosed double quote\0";

const char *mopt_reason_text(enum mopt_reason r)
{
	return r <= MOPT_OPEN_QUOTE ? mopt_pool_at(reason_texts, r) : "?";
}

/* ---- defaults for the hooks -------------------------------------------- */

int mopt_resolve_passwd(struct mopt_ctx *ctx, int is_group, const char *name,
			size_t len, uint32_t *id)
{
	const char *file = is_group ? "/etc/group" : "/etc/passwd";
	struct id_lookup res;
	int ret = lookup_id(file, name, len, &res);

	*id = res.id;
	if (ret < 0 && ret != -ENOENT) {
		ctx->err_file = file;
		ctx->err_line = res.line;
	}
	return ret;
}

int mopt_vbox_driver_sysfs(struct mopt_ctx *ctx)
{
	(void)ctx;
	return access("/sys/module/vboxsf/version", F_OK) == 0;
}
