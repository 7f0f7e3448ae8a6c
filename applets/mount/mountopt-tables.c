// SPDX-License-Identifier: MIT
/* mountopt-tables.c - the mount option engine's tables (mountopt.h;
 * mountopt-tables.h between this file and the parser, mountopt.c, which
 * alone calls in): the VFS flag words, the words mount(8) keeps to
 * itself, the ranges and choices of values, and the option tables of
 * vboxsf, 9p and virtiofs with their value types; and the lookups in
 * them. */
#include <string.h>
#include <sys/mount.h>

#include "libcommon.h"
#include "mountopt-tables.h"

#ifndef MS_NOSYMFOLLOW
#define MS_NOSYMFOLLOW 256
#endif
#ifndef MS_LAZYTIME
#define MS_LAZYTIME (1 << 25)
#endif

/* Word lists are "pools": the words one after another, each ended by a
 * NUL, the list ended by an empty word (BusyBox's index_in_strings()).
 * One string instead of a table of pointers: 1 byte per word, not 8. */
int mopt_pool_index(const char *pool, const char *s, size_t len)
{
	for (int i = 0; *pool; i++) {
		size_t n = strlen(pool);
		if (n == len && memcmp(pool, s, len) == 0)
			return i;
		pool += n + 1;
	}
	return -1;
}

const char *mopt_pool_at(const char *pool, unsigned i)
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
const uint32_t mopt_ms_flags[] = { MS_FLAG_WORDS(MS_VALUE) };
const size_t mopt_ms_nflags = ARRAY_SIZE(mopt_ms_flags);
const char mopt_ms_names[] = MS_FLAG_WORDS(MS_NAME);
static const char ms_words[] = MS_FLAG_WORDS(MS_WORDS);
static const unsigned long atime_bits = 0ul MS_FLAG_WORDS(MS_ATIME_BIT);

/* opt (len bytes, no '=') a VFS flag word: its flag set in or cleared
 * from *flags (setting one of the ATIME group clears the others), 1;
 * else 0. */
int mopt_flag_word(const char *opt, size_t len, unsigned long *flags)
{
	int i = mopt_pool_index(ms_words, opt, len);
	unsigned long flag;

	if (i < 0)
		return 0;
	/* word 2k sets flag k, word 2k+1 clears it */
	flag = mopt_ms_flags[i / 2];
	if (i & 1)
		*flags &= ~flag;
	else
		*flags = (*flags & ~((flag & atime_bits) ? atime_bits : 0ul)) |
			 flag;
	return 1;
}

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

/* opt (len bytes; its name, before any '=', nlen bytes) a word only
 * mount(8) reads: what it implies set in *flags, 1; else 0. */
int mopt_mount8_word(const char *opt, size_t len, size_t nlen,
		     unsigned long *flags)
{
	const struct mount8_word *w = mount8_word(opt, len, nlen);

	if (!w)
		return 0;
	*flags |= w->implies;
	return 1;
}

/* The ranges of U32 options and the masks of OCTAL ones (mopt_spec.arg). */
enum { R_U32, R_INT, R_MSIZE, R_PORT, R_IOPAGES, R_DIRBUF, R_MODE, R_MASK };
const uint32_t mopt_ranges[][2] = {
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
const char *const mopt_choices[] = {
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
const size_t mopt_ncommon = ARRAY_SIZE(common_specs);

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
const struct mopt_spec *mopt_spec_at(const struct mopt_fs *fs, unsigned i)
{
	return i < fs->nspecs ? &fs->specs[i] : &common_specs[i - fs->nspecs];
}

/* The slot (and emitted name) of spec i: its own, or its alias's. */
unsigned mopt_slot_of(const struct mopt_fs *fs, unsigned i)
{
	return mopt_spec_at(fs, i)->flags & MOPT_ALIAS_OF_PREV ? i - 1 : i;
}

const char *mopt_name_at(const struct mopt_fs *fs, unsigned i)
{
	return i < fs->nspecs ? mopt_pool_at(fs->names, i)
			      : mopt_pool_at(common_names, i - fs->nspecs);
}

int mopt_find_spec(const struct mopt_fs *fs, const char *name, size_t len)
{
	int i = mopt_pool_index(fs->names, name, len);

	if (i < 0 && (i = mopt_pool_index(common_names, name, len)) >= 0)
		i += (int)fs->nspecs;
	return i;
}
