/* mountopt.c - the mount option engine (see mountopt.h): the VFS flag
 * word table, the words mount(8) keeps to itself, and the option tables
 * of vboxsf, 9p and virtiofs with their value types. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "libcommon.h"
#include "mountopt.h"

#ifndef MS_NOSYMFOLLOW
#define MS_NOSYMFOLLOW 256
#endif
#ifndef MS_LAZYTIME
#define MS_LAZYTIME (1 << 25)
#endif

#define ATIME_BITS (MS_NOATIME | MS_RELATIME | MS_STRICTATIME)

/* Flag words, as mount(8) maps them. The access-time words clear each
 * other so that the last one given wins (the kernel would otherwise let
 * noatime beat a later relatime). user/users/owner/group imply what
 * mount(8) says they imply; the word itself never reaches the kernel. */
const struct mopt_flag_word mopt_flag_words[] = {
	{ "ro",            MS_RDONLY,      0 },
	{ "rw",            0,              MS_RDONLY },
	{ "exec",          0,              MS_NOEXEC },
	{ "noexec",        MS_NOEXEC,      0 },
	{ "suid",          0,              MS_NOSUID },
	{ "nosuid",        MS_NOSUID,      0 },
	{ "dev",           0,              MS_NODEV },
	{ "nodev",         MS_NODEV,       0 },
	{ "sync",          MS_SYNCHRONOUS, 0 },
	{ "async",         0,              MS_SYNCHRONOUS },
	{ "dirsync",       MS_DIRSYNC,     0 },
	{ "atime",         0,              MS_NOATIME },
	{ "noatime",       MS_NOATIME,     ATIME_BITS },
	{ "diratime",      0,              MS_NODIRATIME },
	{ "nodiratime",    MS_NODIRATIME,  0 },
	{ "relatime",      MS_RELATIME,    ATIME_BITS },
	{ "norelatime",    0,              MS_RELATIME },
	{ "strictatime",   MS_STRICTATIME, ATIME_BITS },
	{ "nostrictatime", 0,              MS_STRICTATIME },
	{ "lazytime",      MS_LAZYTIME,    0 },
	{ "nolazytime",    0,              MS_LAZYTIME },
	{ "symfollow",     0,              MS_NOSYMFOLLOW },
	{ "nosymfollow",   MS_NOSYMFOLLOW, 0 },
	{ "remount",       MS_REMOUNT,     0 },
	{ "silent",        MS_SILENT,      0 },
	{ "loud",          0,              MS_SILENT },
	{ "mand",          MS_MANDLOCK,    0 },
	{ "nomand",        0,              MS_MANDLOCK },
	/* mount(8)'s words: dropped, with their implied flags. */
	{ "user",          MS_NOEXEC | MS_NOSUID | MS_NODEV, 0 },
	{ "users",         MS_NOEXEC | MS_NOSUID | MS_NODEV, 0 },
	{ "owner",         MS_NOSUID | MS_NODEV, 0 },
	{ "group",         MS_NOSUID | MS_NODEV, 0 },
	{ "nouser",        0,              0 },
	{ "defaults",      0,              0 },
	{ "auto",          0,              0 },
	{ "noauto",        0,              0 },
	{ "nofail",        0,              0 },
	{ "_netdev",       0,              0 },
};
const unsigned mopt_nflag_words = ARRAY_SIZE(mopt_flag_words);

/* Words with a value that only mount(8) reads (user=NAME is how utab
 * records "user"), and the x-/X- prefixes of fstab comments for other
 * programs (x-systemd.*, X-mount.mkdir). */
static const char *const dropped_with_value[] = {
	"comment", "helper", "uhelper", "user", "users",
};

/* Options every filesystem's mount data may carry: the LSM labels the
 * kernel's security hooks take out of the data before the fs sees it. */
static const struct mopt_spec common_specs[] = {
	{ "context",     MOPT_STRING, 0, 0, 0, NULL, NULL },
	{ "fscontext",   MOPT_STRING, 0, 0, 0, NULL, NULL },
	{ "defcontext",  MOPT_STRING, 0, 0, 0, NULL, NULL },
	{ "rootcontext", MOPT_STRING, 0, 0, 0, NULL, NULL },
	{ "seclabel",    MOPT_FLAG,   0, 0, 0, NULL, NULL },
};

#define ID_MAX 4294967294u   /* (uid_t)-1 means "no id" to the kernel */

/* vboxsf: the mainline driver (fs/vboxsf, Linux 5.6+) takes nls uid gid
 * ttl dmode fmode dmask fmask; VirtualBox's own adds the rest. iocharset
 * is sent as nls and umask as dmask+fmask, which both drivers take. */
static const struct mopt_spec vboxsf_specs[] = {
	{ "nls",        MOPT_STRING, 0, 0, 0, NULL, NULL },
	{ "iocharset",  MOPT_STRING, 0, 0, 0, NULL, "nls" },
	{ "uid",        MOPT_UID,    0, 0, ID_MAX, NULL, NULL },
	{ "gid",        MOPT_GID,    0, 0, ID_MAX, NULL, NULL },
	{ "ttl",        MOPT_U32,    0, 0, 2147483647u, NULL, NULL },
	{ "dmode",      MOPT_OCTAL,  0, 0, 0777, NULL, NULL },
	{ "fmode",      MOPT_OCTAL,  0, 0, 0777, NULL, NULL },
	{ "dmask",      MOPT_OCTAL,  0, 0, 07777, NULL, NULL },
	{ "fmask",      MOPT_OCTAL,  0, 0, 07777, NULL, NULL },
	{ "umask",      MOPT_OCTAL,  MOPT_SETS_MASKS, 0, 07777, NULL, NULL },
	{ "dcachettl",  MOPT_U32,    MOPT_VBOX_ONLY, 0, 2147483647u, NULL, NULL },
	{ "inodettl",   MOPT_U32,    MOPT_VBOX_ONLY, 0, 2147483647u, NULL, NULL },
	/* VMMDEV_MAX_HGCM_DATA_SIZE (16 MiB) in pages */
	{ "maxiopages", MOPT_U32,    MOPT_VBOX_ONLY, 0, 4096, NULL, NULL },
	/* VirtualBox ignores a dirbuf over 16 MiB */
	{ "dirbuf",     MOPT_U32,    MOPT_VBOX_ONLY, 0, 16777216, NULL, NULL },
	{ "cache",      MOPT_ENUM,   MOPT_VBOX_ONLY, 0, 0,
	  "default|none|strict|read|readwrite", NULL },
	{ "tag",        MOPT_STRING, MOPT_VBOX_ONLY, 0, 0, NULL, NULL },
};

/* 9p: fs/9p/v9fs.c, net/9p/client.c and the transports. Older kernels
 * ignore the options they do not know (directio, ignoreqv, noxattr are
 * 6.x); cache=readahead|writeback need 6.6. */
static const struct mopt_spec p9_specs[] = {
	{ "trans",       MOPT_ENUM,   0, 0, 0,
	  "virtio|xen|tcp|unix|fd|rdma|usbg", NULL },
	{ "version",     MOPT_ENUM,   0, 0, 0, "9p2000|9p2000.u|9p2000.L", NULL },
	/* the client refuses msize < 4096 */
	{ "msize",       MOPT_U32,    0, 4096, 0xffffffffu, NULL, NULL },
	{ "cache",       MOPT_ENUM,   0, 0, 0,
	  "none|loose|fscache|mmap|readahead|writeback", NULL },
	{ "access",      MOPT_ENUM,   MOPT_OR_UID, 0, ID_MAX,
	  "user|any|client", NULL },
	{ "posixacl",    MOPT_FLAG,   0, 0, 0, NULL, NULL },
	{ "dfltuid",     MOPT_UID,    0, 0, ID_MAX, NULL, NULL },
	{ "dfltgid",     MOPT_GID,    0, 0, ID_MAX, NULL, NULL },
	{ "afid",        MOPT_U32,    0, 0, 0xffffffffu, NULL, NULL },
	{ "uname",       MOPT_STRING, 0, 0, 0, NULL, NULL },
	{ "aname",       MOPT_STRING, 0, 0, 0, NULL, NULL },
	{ "cachetag",    MOPT_STRING, 0, 0, 0, NULL, NULL },
	{ "nodevmap",    MOPT_FLAG,   0, 0, 0, NULL, NULL },
	{ "noextend",    MOPT_FLAG,   0, 0, 0, NULL, NULL },
	{ "noxattr",     MOPT_FLAG,   0, 0, 0, NULL, NULL },
	{ "directio",    MOPT_FLAG,   0, 0, 0, NULL, NULL },
	{ "ignoreqv",    MOPT_FLAG,   0, 0, 0, NULL, NULL },
	{ "locktimeout", MOPT_U32,    0, 0, 0x7fffffffu, NULL, NULL },
	{ "debug",       MOPT_U32,    MOPT_HEX, 0, 0xffffffffu, NULL, NULL },
	{ "port",        MOPT_U32,    0, 0, 65535, NULL, NULL },
	{ "privport",    MOPT_FLAG,   0, 0, 0, NULL, NULL },
	{ "rfdno",       MOPT_U32,    0, 0, 0x7fffffffu, NULL, NULL },
	{ "wfdno",       MOPT_U32,    0, 0, 0x7fffffffu, NULL, NULL },
	{ "sq",          MOPT_U32,    0, 0, 0xffffffffu, NULL, NULL },
	{ "rq",          MOPT_U32,    0, 0, 0xffffffffu, NULL, NULL },
	{ "timeout",     MOPT_U32,    0, 0, 0xffffffffu, NULL, NULL },
};

/* virtiofs (fs/fuse/virtio_fs.c): "dax" alone, or dax=always|never|inode. */
static const struct mopt_spec virtiofs_specs[] = {
	{ "dax", MOPT_ENUM, MOPT_VALUE_OPTIONAL, 0, 0, "always|never|inode",
	  NULL },
};

const struct mopt_fs mopt_fs_vboxsf = {
	"vboxsf", "vboxsf", vboxsf_specs, ARRAY_SIZE(vboxsf_specs)
};
const struct mopt_fs mopt_fs_9p = {
	"9p", "9p and 9pnet_virtio (9pnet_xen for trans=xen)", p9_specs,
	ARRAY_SIZE(p9_specs)
};
const struct mopt_fs mopt_fs_virtiofs = {
	"virtiofs", "virtiofs", virtiofs_specs, ARRAY_SIZE(virtiofs_specs)
};

/* ---- lookups ----------------------------------------------------------- */

static int word_is(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && memcmp(s, word, len) == 0;
}

static unsigned total_specs(const struct mopt_fs *fs)
{
	return fs->nspecs + (unsigned)ARRAY_SIZE(common_specs);
}

static const struct mopt_spec *spec_at(const struct mopt_fs *fs, unsigned i)
{
	return i < fs->nspecs ? &fs->specs[i] : &common_specs[i - fs->nspecs];
}

static const char *emit_name(const struct mopt_spec *s)
{
	return s->emit ? s->emit : s->name;
}

/* The slot of an emitted name: the first spec that emits it. */
static int slot_of_emit(const struct mopt_fs *fs, const char *emit)
{
	for (unsigned i = 0; i < total_specs(fs); i++)
		if (strcmp(emit_name(spec_at(fs, i)), emit) == 0)
			return (int)i;
	return -1;
}

static int find_spec(const struct mopt_fs *fs, const char *name, size_t len)
{
	for (unsigned i = 0; i < total_specs(fs); i++)
		if (word_is(name, len, spec_at(fs, i)->name))
			return (int)i;
	return -1;
}

static int in_choices(const char *choices, const char *v, size_t len)
{
	const char *p = choices;

	while (*p) {
		size_t n = strcspn(p, "|");
		if (n == len && memcmp(p, v, len) == 0)
			return 1;
		p += n;
		if (*p)
			p++;
	}
	return 0;
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

static void store(struct mopt_ctx *ctx, int slot, const char *str,
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

/* A number in v: decimal, or for MOPT_HEX also 0xHEX. */
static enum mopt_reason parse_number(const struct mopt_spec *sp,
				     const char *v, size_t len, uint32_t *out)
{
	unsigned base = 10;
	uint64_t n;
	int r;

	if (sp->flags & MOPT_HEX && len > 2 && v[0] == '0' &&
	    (v[1] == 'x' || v[1] == 'X')) {
		base = 16;
		v += 2;
		len -= 2;
	}
	r = parse_u64_base(v, len, base, &n);
	if (r == -ERANGE)
		return MOPT_RANGE;
	if (r < 0)
		return MOPT_NOT_NUMBER;
	if (n < sp->min || n > sp->max)
		return MOPT_RANGE;
	*out = (uint32_t)n;
	return MOPT_OK;
}

static int all_digits(const char *v, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (v[i] < '0' || v[i] > '9')
			return 0;
	return len > 0;
}

static enum mopt_reason parse_id(struct mopt_ctx *ctx, int is_group,
				 const char *v, size_t len, uint32_t *out)
{
	uint64_t n;
	int r;

	if (all_digits(v, len)) {
		if (parse_u64_base(v, len, 10, &n) < 0 || n > UINT32_MAX)
			return MOPT_RANGE;
		if (n > ID_MAX)
			return MOPT_BAD_ID;
		*out = (uint32_t)n;
		return MOPT_OK;
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
			   const char *name, size_t nlen, const char *v,
			   size_t vlen, int has_value)
{
	const struct mopt_fs *fs = ctx->fs;
	int i = find_spec(fs, name, nlen), slot;
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
	slot = slot_of_emit(fs, emit_name(sp));

	if (sp->type == MOPT_FLAG) {
		if (has_value)
			return fail(ctx, opt, len, MOPT_NO_VALUE);
	} else if (!has_value) {
		if (!(sp->flags & MOPT_VALUE_OPTIONAL))
			return fail(ctx, opt, len, MOPT_NEEDS_VALUE);
	} else if (vlen == 0) {
		return fail(ctx, opt, len, MOPT_EMPTY_VALUE);
	} else {
		switch (sp->type) {
		case MOPT_U32:
			why = parse_number(sp, v, vlen, &num);
			numeric = sp->flags & MOPT_HEX ? 16 : 10;
			break;
		case MOPT_OCTAL: {
			uint64_t n;
			int r = parse_u64_base(v, vlen, 8, &n);
			if (r == -ERANGE)
				why = MOPT_OCTAL_BITS;
			else if (r < 0)
				why = MOPT_NOT_OCTAL;
			else if (n & ~(uint64_t)sp->max)
				why = MOPT_OCTAL_BITS;
			num = (uint32_t)n;
			numeric = 8;
			break;
		}
		case MOPT_UID:
		case MOPT_GID:
			why = parse_id(ctx, sp->type == MOPT_GID, v, vlen, &num);
			numeric = 10;
			break;
		case MOPT_ENUM:
			if (in_choices(sp->choices, v, vlen))
				break;
			if (!(sp->flags & MOPT_OR_UID)) {
				why = MOPT_CHOICE;
				break;
			}
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
	if (sp->flags & MOPT_SETS_MASKS) {
		int d = slot_of_emit(fs, "dmask"), f = slot_of_emit(fs, "fmask");
		store(ctx, d, NULL, 0, num, 8, 1);
		store(ctx, f, NULL, 0, num, 8, 1);
		return 0;
	}
	store(ctx, slot, numeric ? NULL : v, numeric ? 0 : vlen, num, numeric,
	      has_value);
	return 0;
}

static int parse_one(struct mopt_ctx *ctx, const char *opt, size_t len)
{
	const char *eq = memchr(opt, '=', len);
	size_t nlen = eq ? (size_t)(eq - opt) : len;
	const char *v = eq ? eq + 1 : NULL;
	size_t vlen = eq ? len - nlen - 1 : 0;

	if (memchr(opt, '\0', len))
		return fail(ctx, opt, len, MOPT_NUL_BYTE);
	if (nlen >= 2 && (opt[0] == 'x' || opt[0] == 'X') && opt[1] == '-')
		return 0;   /* x-systemd.*, X-mount.*: for other programs */
	if (!eq) {
		for (unsigned i = 0; i < mopt_nflag_words; i++) {
			const struct mopt_flag_word *w = &mopt_flag_words[i];
			if (word_is(opt, len, w->name)) {
				ctx->flags = (ctx->flags & ~w->clear) | w->set;
				return 0;
			}
		}
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(dropped_with_value); i++)
			if (word_is(opt, nlen, dropped_with_value[i]))
				return 0;
	}
	return parse_fs_option(ctx, opt, len, opt, nlen, v, vlen, eq != NULL);
}

int mopt_parse(struct mopt_ctx *ctx, const char *opts, size_t len)
{
	size_t i = 0;

	while (i < len) {
		const char *p = opts + i;
		const char *comma = memchr(p, ',', len - i);
		size_t n = comma ? (size_t)(comma - p) : len - i;

		if (n > 0 && parse_one(ctx, p, n) < 0)
			return -1;
		i += n + 1;
	}
	return 0;
}

void mopt_default(struct mopt_ctx *ctx, const char *name, const char *value)
{
	int i = find_spec(ctx->fs, name, strlen(name));

	if (i < 0)
		return;
	i = slot_of_emit(ctx->fs, emit_name(spec_at(ctx->fs, (unsigned)i)));
	if (ctx->slot[i].seq)
		return;
	store(ctx, i, value, value ? strlen(value) : 0, 0, 0, value != NULL);
}

static size_t fmt_num(char *buf, uint32_t v, int base)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	size_t n = 0, len = 0;

	if (base == 10)
		return fmt_u64(buf, v);
	if (base == 16) {
		buf[len++] = '0';
		buf[len++] = 'x';
	} else if (v != 0) {
		buf[len++] = '0';   /* octal with a leading 0, as shown by
				       the drivers' show_options */
	}
	do {
		tmp[n++] = digits[v % (unsigned)base];
		v /= (unsigned)base;
	} while (v);
	while (n)
		buf[len++] = tmp[--n];
	return len;
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
	int i = find_spec(ctx->fs, name, strlen(name));
	const struct mopt_slot *s;
	const char *t;
	size_t len;
	char num[24];

	if (i < 0)
		return NULL;
	s = &ctx->slot[slot_of_emit(ctx->fs,
				    emit_name(spec_at(ctx->fs, (unsigned)i)))];
	if (!s->seq || cap == 0)
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
	unsigned n = total_specs(fs);
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
		const char *name = emit_name(spec_at(fs, (unsigned)best));
		char num[24];
		size_t vlen;
		const char *v = slot_text(s, num, &vlen);
		size_t need = (len ? 1 : 0) + strlen(name) +
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
		memcpy(out + len, name, strlen(name));
		len += strlen(name);
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

/* ---- flag names for -v ------------------------------------------------- */

static const struct { unsigned long flag; const char *name; } ms_names[] = {
	{ MS_RDONLY, "MS_RDONLY" },       { MS_NOSUID, "MS_NOSUID" },
	{ MS_NODEV, "MS_NODEV" },         { MS_NOEXEC, "MS_NOEXEC" },
	{ MS_SYNCHRONOUS, "MS_SYNCHRONOUS" },
	{ MS_REMOUNT, "MS_REMOUNT" },     { MS_MANDLOCK, "MS_MANDLOCK" },
	{ MS_DIRSYNC, "MS_DIRSYNC" },     { MS_NOSYMFOLLOW, "MS_NOSYMFOLLOW" },
	{ MS_NOATIME, "MS_NOATIME" },     { MS_NODIRATIME, "MS_NODIRATIME" },
	{ MS_SILENT, "MS_SILENT" },       { MS_RELATIME, "MS_RELATIME" },
	{ MS_STRICTATIME, "MS_STRICTATIME" },
	{ MS_LAZYTIME, "MS_LAZYTIME" },
};

size_t mopt_flags_text(unsigned long flags, char *out, size_t cap)
{
	size_t len = 0;

	if (cap)
		out[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(ms_names); i++) {
		if (!(flags & ms_names[i].flag))
			continue;
		flags &= ~ms_names[i].flag;
		if (len)
			str_append(out, cap, &len, "|", 1);
		str_append(out, cap, &len, ms_names[i].name,
			   strlen(ms_names[i].name));
	}
	if (flags || !len) {
		char hex[24] = "0x";
		size_t n = 2;
		int started = 0;

		for (int sh = 60; sh >= 0; sh -= 4) {
			unsigned d = (unsigned)(flags >> sh) & 15;
			if (d || started || sh == 0) {
				hex[n++] = "0123456789abcdef"[d];
				started = 1;
			}
		}
		hex[n] = '\0';
		if (len)
			str_append(out, cap, &len, "|", 1);
		if (!flags)
			str_append(out, cap, &len, "0", 1);
		else
			str_append(out, cap, &len, hex, n);
	}
	return len;
}

const char *mopt_reason_text(enum mopt_reason r)
{
	switch (r) {
	case MOPT_OK:            return "ok";
	case MOPT_UNKNOWN:       return "unknown option";
	case MOPT_NEEDS_VALUE:   return "needs a value (NAME=VALUE)";
	case MOPT_NO_VALUE:      return "takes no value";
	case MOPT_EMPTY_VALUE:   return "empty value";
	case MOPT_NOT_NUMBER:    return "not a decimal number";
	case MOPT_RANGE:         return "number out of range";
	case MOPT_NOT_OCTAL:     return "not an octal number";
	case MOPT_OCTAL_BITS:    return "octal value has bits outside the "
				        "allowed mask";
	case MOPT_NO_USER:       return "no such user in /etc/passwd";
	case MOPT_NO_GROUP:      return "no such group in /etc/group";
	case MOPT_CHOICE:        return "not one of the accepted values";
	case MOPT_BAD_ID:        return "4294967295 is not a valid id";
	case MOPT_TOO_LONG:      return "mount data longer than the kernel's "
				        "limit of 4095 bytes";
	case MOPT_NOT_VBOX:      return "only VirtualBox's own vboxsf driver "
				        "takes it; the loaded driver is the "
				        "mainline one (or none is loaded)";
	case MOPT_LOOKUP_FAILED: return "cannot read the user/group database";
	case MOPT_NUL_BYTE:      return "contains a NUL byte";
	}
	return "?";
}

/* ---- defaults for the hooks -------------------------------------------- */

int mopt_resolve_passwd(struct mopt_ctx *ctx, int is_group, const char *name,
			size_t len, uint32_t *id)
{
	(void)ctx;
	return lookup_id_in_file(is_group ? "/etc/group" : "/etc/passwd", name,
				 len, id);
}

int mopt_vbox_driver_sysfs(struct mopt_ctx *ctx)
{
	(void)ctx;
	return access("/sys/module/vboxsf/version", F_OK) == 0;
}
