// SPDX-License-Identifier: MIT
/* mountopt.c - the mount option engine (see mountopt.h): the VFS flag
 * word table, the words mount(8) keeps to itself, and the option tables
 * of vboxsf, 9p and virtiofs with their value types. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "libcommon.h"
#include "passwd.h"
#include "mountopt.h"

#ifndef MS_NOSYMFOLLOW
#define MS_NOSYMFOLLOW 256
#endif
#ifndef MS_LAZYTIME
#define MS_LAZYTIME (1 << 25)
#endif

/* Word lists are "pools": the words one after another, each ended by a
 * NUL, the list ended by an empty word (BusyBox's index_in_strings()).
 * One string instead of a table of pointers: 1 byte per word, not 8. */
static int pool_index(const char *pool, const char *s, size_t len)
{
	for (int i = 0; *pool; i++) {
		size_t n = strlen(pool);
		if (n == len && memcmp(pool, s, len) == 0)
			return i;
		pool += n + 1;
	}
	return -1;
}

static const char *pool_at(const char *pool, unsigned i)
{
	while (i--)
		pool += strlen(pool) + 1;
	return pool;
}

/* The VFS flags, in bit order (the order -v names them in), with the word
 * that sets and the word that clears each, as mount(8) maps them, and
 * their group: setting a flag of the ATIME group clears the others, so
 * the last access-time word given wins (the kernel would otherwise let
 * noatime beat a later relatime). NO_WORD: a flag only one word touches.
 * (libmount's optmap is the model: properties are columns.) */
#define NO_WORD ","   /* never matches: options are split at commas */
#define ATIME 1
#define MS_FLAG_WORDS(X) \
	X(RDONLY,      "ro",          "rw",            0) \
	X(NOSUID,      "nosuid",      "suid",          0) \
	X(NODEV,       "nodev",       "dev",           0) \
	X(NOEXEC,      "noexec",      "exec",          0) \
	X(SYNCHRONOUS, "sync",        "async",         0) \
	X(REMOUNT,     "remount",     NO_WORD,         0) \
	X(MANDLOCK,    "mand",        "nomand",        0) \
	X(DIRSYNC,     "dirsync",     NO_WORD,         0) \
	X(NOSYMFOLLOW, "nosymfollow", "symfollow",     0) \
	X(NOATIME,     "noatime",     "atime",         ATIME) \
	X(NODIRATIME,  "nodiratime",  "diratime",      0) \
	X(SILENT,      "silent",      "loud",          0) \
	X(RELATIME,    "relatime",    "norelatime",    ATIME) \
	X(STRICTATIME, "strictatime", "nostrictatime", ATIME) \
	X(LAZYTIME,    "lazytime",    "nolazytime",    0)
#define MS_VALUE(flag, set, clear, group) MS_##flag,
#define MS_NAME(flag, set, clear, group) #flag "\0"
#define MS_WORDS(flag, set, clear, group) set "\0" clear "\0"
#define MS_ATIME_BIT(flag, set, clear, group) | ((group) == ATIME ? MS_##flag : 0)
static const uint32_t ms_flags[] = { MS_FLAG_WORDS(MS_VALUE) };
static const char ms_names[] = MS_FLAG_WORDS(MS_NAME);
static const char ms_words[] = MS_FLAG_WORDS(MS_WORDS);
static const unsigned long atime_bits = 0ul MS_FLAG_WORDS(MS_ATIME_BIT);

/* The words only mount(8) and fstab read, dropped, and what each implies,
 * as in mount(8): the bare words user and users imply noexec, nosuid,
 * nodev; owner and group nosuid, nodev (a later exec, suid or dev lifts
 * them). How a word matches is a column: WORD alone, VALUE as NAME=...
 * (user=NAME is how utab records "user"), PREFIX as the start of any
 * option (fstab comments for other programs: x-systemd.*, X-mount.mkdir).
 * Looked up after the VFS flag words. */
enum { M8_WORD, M8_VALUE, M8_PREFIX };
#define IMPLY_USER (MS_NOEXEC | MS_NOSUID | MS_NODEV)
#define IMPLY_OWNER (MS_NOSUID | MS_NODEV)
#define MOUNT8_WORDS(X) \
	X("user",     M8_WORD,   IMPLY_USER) \
	X("users",    M8_WORD,   IMPLY_USER) \
	X("owner",    M8_WORD,   IMPLY_OWNER) \
	X("group",    M8_WORD,   IMPLY_OWNER) \
	X("nouser",   M8_WORD,   0) \
	X("defaults", M8_WORD,   0) \
	X("auto",     M8_WORD,   0) \
	X("noauto",   M8_WORD,   0) \
	X("nofail",   M8_WORD,   0) \
	X("_netdev",  M8_WORD,   0) \
	X("comment",  M8_VALUE,  0) \
	X("helper",   M8_VALUE,  0) \
	X("uhelper",  M8_VALUE,  0) \
	X("user",     M8_VALUE,  0) \
	X("users",    M8_VALUE,  0) \
	X("x-",       M8_PREFIX, 0) \
	X("X-",       M8_PREFIX, 0)
#define M8_ENTRY(word, match, implies) { word, match, implies },
static const struct mount8_word {
	char word[9];
	uint8_t match;
	uint8_t implies;          /* MS_* bits, all below 256 */
} mount8_words[] = { MOUNT8_WORDS(M8_ENTRY) };
_Static_assert((IMPLY_USER | IMPLY_OWNER) < 256, "mount8_word.implies");

/* The row of mount8_words that opt (len bytes; its name, before any
 * '=', nlen bytes) matches, or NULL. */
static const struct mount8_word *mount8_word(const char *opt, size_t len,
					     size_t nlen)
{
	for (size_t i = 0; i < ARRAY_SIZE(mount8_words); i++) {
		const struct mount8_word *w = &mount8_words[i];
		size_t n = strlen(w->word);

		if (n > nlen || memcmp(opt, w->word, n) != 0)
			continue;
		if (w->match == M8_PREFIX ||
		    (n == nlen && (w->match == M8_VALUE) == (nlen < len)))
			return w;
	}
	return NULL;
}

#define ID_MAX 4294967294u   /* (uid_t)-1 means "no id" to the kernel */

/* The ranges of U32 options and the masks of OCTAL ones (mopt_spec.arg). */
enum { R_U32, R_INT, R_MSIZE, R_PORT, R_IOPAGES, R_DIRBUF, R_MODE, R_MASK };
static const uint32_t ranges[][2] = {
	[R_U32] = { 0, 0xffffffffu },
	[R_INT] = { 0, 0x7fffffffu },
	[R_MSIZE] = { 4096, 0xffffffffu },  /* the client refuses < 4096 */
	[R_PORT] = { 0, 65535 },
	/* VMMDEV_MAX_HGCM_DATA_SIZE (16 MiB) in pages */
	[R_IOPAGES] = { 0, 4096 },
	[R_DIRBUF] = { 0, 16777216 },  /* VirtualBox ignores more */
	[R_MODE] = { 0, 0777 },
	[R_MASK] = { 0, 07777 },
};

/* The values of ENUM options (mopt_spec.arg), as pools. */
enum { C_VBOX_CACHE, C_TRANS, C_VERSION, C_9P_CACHE, C_ACCESS, C_DAX };
static const char *const choices[] = {
	[C_VBOX_CACHE] = "default\0none\0strict\0read\0readwrite\0",
	[C_TRANS] = "virtio\0xen\0tcp\0unix\0fd\0rdma\0usbg\0",
	[C_VERSION] = "9p2000\0009p2000.u\0009p2000.L\0",
	[C_9P_CACHE] = "none\0loose\0fscache\0mmap\0readahead\0writeback\0",
	[C_ACCESS] = "user\0any\0client\0",
	[C_DAX] = "always\0never\0inode\0",
};

/* An option table is X(name, type, flags, arg) lines: the names become
 * the pool mopt_fs.names, the rest the mopt_spec array. */
#define OPT_NAME(name, type, flags, arg) name "\0"
#define OPT_SPEC(name, type, flags, arg) { MOPT_##type, flags, arg },
#define OPT_TABLE(id, list) \
	static const char id##_names[] = list(OPT_NAME); \
	static const struct mopt_spec id##_specs[] = { list(OPT_SPEC) }

/* Options every filesystem's mount data may carry: the LSM labels the
 * kernel's security hooks take out of the data before the fs sees it. */
#define COMMON_OPTS(X) \
	X("context",     STRING, 0, 0) \
	X("fscontext",   STRING, 0, 0) \
	X("defcontext",  STRING, 0, 0) \
	X("rootcontext", STRING, 0, 0) \
	X("seclabel",    FLAG,   0, 0)
OPT_TABLE(common, COMMON_OPTS);

/* vboxsf: the mainline driver (fs/vboxsf, Linux 5.6+) takes nls uid gid
 * ttl dmode fmode dmask fmask; VirtualBox's own adds the rest. iocharset
 * is sent as nls and umask as dmask+fmask, which both drivers take. */
#define VBOXSF_OPTS(X) \
	X("nls",        STRING, 0, 0) \
	X("iocharset",  STRING, MOPT_ALIAS_OF_PREV, 0) \
	X("uid",        UID,    0, 0) \
	X("gid",        GID,    0, 0) \
	X("ttl",        U32,    0, R_INT) \
	X("dmode",      OCTAL,  0, R_MODE) \
	X("fmode",      OCTAL,  0, R_MODE) \
	X("dmask",      OCTAL,  0, R_MASK) \
	X("fmask",      OCTAL,  0, R_MASK) \
	X("umask",      OCTAL,  MOPT_SETS_MASKS, R_MASK) \
	X("dcachettl",  U32,    MOPT_VBOX_ONLY, R_INT) \
	X("inodettl",   U32,    MOPT_VBOX_ONLY, R_INT) \
	X("maxiopages", U32,    MOPT_VBOX_ONLY, R_IOPAGES) \
	X("dirbuf",     U32,    MOPT_VBOX_ONLY, R_DIRBUF) \
	X("cache",      ENUM,   MOPT_VBOX_ONLY, C_VBOX_CACHE) \
	X("tag",        STRING, MOPT_VBOX_ONLY, 0)
OPT_TABLE(vboxsf, VBOXSF_OPTS);

/* 9p: fs/9p/v9fs.c, net/9p/client.c and the transports. Older kernels
 * ignore the options they do not know (directio, ignoreqv, noxattr are
 * 6.x); cache=readahead|writeback need 6.6. */
#define P9_OPTS(X) \
	X("trans",       ENUM,   0, C_TRANS) \
	X("version",     ENUM,   0, C_VERSION) \
	X("msize",       U32,    0, R_MSIZE) \
	X("cache",       ENUM,   0, C_9P_CACHE) \
	X("access",      ENUM,   MOPT_OR_UID, C_ACCESS) \
	X("posixacl",    FLAG,   0, 0) \
	X("dfltuid",     UID,    0, 0) \
	X("dfltgid",     GID,    0, 0) \
	X("afid",        U32,    0, R_U32) \
	X("uname",       STRING, 0, 0) \
	X("aname",       STRING, 0, 0) \
	X("cachetag",    STRING, 0, 0) \
	X("nodevmap",    FLAG,   0, 0) \
	X("noextend",    FLAG,   0, 0) \
	X("noxattr",     FLAG,   0, 0) \
	X("directio",    FLAG,   0, 0) \
	X("ignoreqv",    FLAG,   0, 0) \
	X("locktimeout", U32,    0, R_INT) \
	X("debug",       U32,    MOPT_HEX, R_U32) \
	X("port",        U32,    0, R_PORT) \
	X("privport",    FLAG,   0, 0) \
	X("rfdno",       U32,    0, R_INT) \
	X("wfdno",       U32,    0, R_INT) \
	X("sq",          U32,    0, R_U32) \
	X("rq",          U32,    0, R_U32) \
	X("timeout",     U32,    0, R_U32)
OPT_TABLE(p9, P9_OPTS);

/* virtiofs (fs/fuse/virtio_fs.c): "dax" alone, or dax=always|never|inode. */
#define VIRTIOFS_OPTS(X) \
	X("dax", ENUM, MOPT_VALUE_OPTIONAL, C_DAX)
OPT_TABLE(virtiofs, VIRTIOFS_OPTS);

const struct mopt_fs mopt_fs_vboxsf = {
	"vboxsf", vboxsf_names, vboxsf_specs, ARRAY_SIZE(vboxsf_specs)
};
const struct mopt_fs mopt_fs_9p = {
	"9p", p9_names, p9_specs, ARRAY_SIZE(p9_specs)
};
const struct mopt_fs mopt_fs_virtiofs = {
	"virtiofs", virtiofs_names, virtiofs_specs, ARRAY_SIZE(virtiofs_specs)
};

/* ---- lookups ----------------------------------------------------------- */

/* Spec i of fs: its own options, then the common ones. */
static const struct mopt_spec *spec_at(const struct mopt_fs *fs, unsigned i)
{
	return i < fs->nspecs ? &fs->specs[i] : &common_specs[i - fs->nspecs];
}

/* The slot (and emitted name) of spec i: its own, or its alias's. */
static unsigned slot_of(const struct mopt_fs *fs, unsigned i)
{
	return spec_at(fs, i)->flags & MOPT_ALIAS_OF_PREV ? i - 1 : i;
}

static const char *name_at(const struct mopt_fs *fs, unsigned i)
{
	return i < fs->nspecs ? pool_at(fs->names, i)
			      : pool_at(common_names, i - fs->nspecs);
}

static int find_spec(const struct mopt_fs *fs, const char *name, size_t len)
{
	int i = pool_index(fs->names, name, len);

	if (i < 0 && (i = pool_index(common_names, name, len)) >= 0)
		i += (int)fs->nspecs;
	return i;
}

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
	const uint32_t *range = ranges[sp->arg];
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
	int i = find_spec(fs, opt, nlen);
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
	sp = spec_at(fs, (unsigned)i);

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
			if (pool_index(choices[sp->arg], v, vlen) >= 0)
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
		store(ctx, (unsigned)find_spec(fs, LIT("dmask")), NULL, 0, num,
		      numeric, 1);
		i = find_spec(fs, LIT("fmask"));
	}
	store(ctx, slot_of(fs, (unsigned)i), numeric ? NULL : v,
	      numeric ? 0 : vlen, num, numeric, has_value);
	return 0;
}

static int parse_one(struct mopt_ctx *ctx, const char *opt, size_t len)
{
	const char *eq = memchr(opt, '=', len);
	size_t nlen = eq ? (size_t)(eq - opt) : len;
	const struct mount8_word *w;
	int i;

	if (memchr(opt, '\0', len))
		return fail(ctx, opt, len, MOPT_NUL_BYTE);
	if (!eq && (i = pool_index(ms_words, opt, len)) >= 0) {
		/* word 2k sets flag k, word 2k+1 clears it */
		unsigned long flag = ms_flags[i / 2];
		if (i & 1)
			ctx->flags &= ~flag;
		else
			ctx->flags = (ctx->flags & ~((flag & atime_bits) ?
				      atime_bits : 0ul)) | flag;
		return 0;
	}
	if ((w = mount8_word(opt, len, nlen)) != NULL) {
		ctx->flags |= w->implies;
		return 0;
	}
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
	int i = find_spec(ctx->fs, name, strlen(name));

	return i < 0 ? NULL : &ctx->slot[slot_of(ctx->fs, (unsigned)i)];
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
	unsigned n = fs->nspecs + (unsigned)ARRAY_SIZE(common_specs);
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
		const char *name = name_at(fs, (unsigned)best);
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
	const char *name = ms_names;
	const char *sep = "";
	size_t len = 0;

	if (cap)
		out[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(ms_flags); i++) {
		if (flags & ms_flags[i]) {
			flags &= ~(unsigned long)ms_flags[i];
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
	int i = eq ? find_spec(ctx->fs, ctx->err_opt,
			       (size_t)(eq - ctx->err_opt)) : -1;
	const struct mopt_spec *sp = i < 0 ? NULL : spec_at(ctx->fs, (unsigned)i);
	size_t len = 0;
	char lo[24], hi[24];

	out[0] = '\0';
	if (!sp || sp->type == MOPT_FLAG || sp->type == MOPT_STRING)
		return;
	append(out, cap, &len, " (accepted: ");
	if (sp->type == MOPT_ENUM) {
		for (const char *p = choices[sp->arg]; *p; p += strlen(p) + 1) {
			append(out, cap, &len, p == choices[sp->arg] ? "" : ", ");
			append(out, cap, &len, p);
		}
		if (sp->flags & MOPT_OR_UID)
			append(out, cap, &len, ", or a user id or name");
	} else if (sp->type == MOPT_U32 || sp->type == MOPT_OCTAL) {
		const uint32_t *range = ranges[sp->arg];
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
	return r <= MOPT_OPEN_QUOTE ? pool_at(reason_texts, r) : "?";
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
