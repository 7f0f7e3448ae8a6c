// SPDX-License-Identifier: MIT
/* mountopt.h - the mount option engine shared by the mount helpers
 * (mount.vboxsf, mount.9p, mount.virtiofs, mount-shared).
 *
 * An option string ("rw,nofail,uid=alice,dmode=755") is split three ways:
 *   - VFS flag words (ro, nosuid, relatime...) become MS_* bits, from a
 *     table {name, set, clear}, last word wins;
 *   - words only mount(8) and fstab care about (defaults, nofail, _netdev,
 *     x-*, comment=...) are dropped;
 *   - the filesystem's own options are checked against its table (value
 *     type, range, choices), names in uid=/gid= are resolved from
 *     /etc/passwd and /etc/group, and the result is the text mount data.
 * Duplicates: the last one wins (and is emitted once). Empty options and
 * commas at either end are ignored. A comma inside double quotes does not
 * split (an MLS label: context="system_u:object_r:tmp_t:s0,c1"): the
 * quotes stay in the data, as mount(8) passes them and the kernel's LSM
 * option parsers expect; a quote left open is an error, as in libmount.
 * Nothing is truncated: mount data longer than the kernel's page (4095
 * bytes) is an error.
 *
 * No heap, no stdio: values are kept as pointers into the caller's option
 * strings (argv), which must outlive the result.
 */
#ifndef FORKLESS_MOUNTOPT_H
#define FORKLESS_MOUNTOPT_H

#include <stddef.h>
#include <stdint.h>

/* The kernel copies one page of mount data, NUL included. */
#define MOPT_DATA_MAX 4095
#define MOPT_MAX_SLOTS 48

enum mopt_type {
	MOPT_FLAG,     /* no value: "posixacl" */
	MOPT_U32,      /* decimal number within a range */
	MOPT_OCTAL,    /* octal number using only the bits of a mask */
	MOPT_UID,      /* number or user name (/etc/passwd) */
	MOPT_GID,      /* number or group name (/etc/group) */
	MOPT_STRING,   /* any non-empty text */
	MOPT_ENUM,     /* one of a list of words */
};

/* mopt_spec.flags */
enum {
	MOPT_VALUE_OPTIONAL = 1,  /* ENUM that may also stand alone: "dax" */
	MOPT_OR_UID = 2,          /* ENUM or a uid/user name: 9p access= */
	MOPT_VBOX_ONLY = 4,       /* only VirtualBox's own vboxsf driver */
	MOPT_SETS_MASKS = 8,      /* umask=: sets dmask and fmask */
	MOPT_HEX = 16,            /* U32 also as 0xHEX, emitted as 0xHEX */
	MOPT_ALIAS_OF_PREV = 32,  /* passed to the kernel as the option
				     before it in the table, sharing its
				     value, last wins (iocharset -> nls) */
};

/* One option of a filesystem. Three bytes and no pointers: the names are
 * in one string per table (mopt_fs.names), so a table entry costs its
 * name and 3 bytes instead of 40 bytes of relocated pointers. */
struct mopt_spec {
	uint8_t type;             /* enum mopt_type */
	uint8_t flags;
	uint8_t arg;              /* U32, OCTAL: index of its range;
				     ENUM: index of its list of words */
};

struct mopt_fs {
	const char *type;         /* filesystem type for mount(2) */
	const char *names;        /* "nls\0iocharset\0...": one per spec */
	const struct mopt_spec *specs;
	unsigned nspecs;
};

extern const struct mopt_fs mopt_fs_vboxsf, mopt_fs_9p, mopt_fs_virtiofs;

/* Why an option was refused or dropped (mopt_reason_text). */
enum mopt_reason {
	MOPT_OK,
	MOPT_UNKNOWN,        /* not an option of this filesystem */
	MOPT_NEEDS_VALUE,
	MOPT_NO_VALUE,       /* takes no value */
	MOPT_EMPTY_VALUE,
	MOPT_NOT_NUMBER,
	MOPT_RANGE,
	MOPT_NOT_OCTAL,
	MOPT_OCTAL_BITS,
	MOPT_NO_USER,        /* name not in /etc/passwd */
	MOPT_NO_GROUP,       /* name not in /etc/group */
	MOPT_CHOICE,         /* not one of spec->choices */
	MOPT_BAD_ID,         /* 4294967295 is no valid id */
	MOPT_TOO_LONG,       /* mount data over MOPT_DATA_MAX */
	MOPT_NOT_VBOX,       /* VirtualBox-only option, other driver */
	MOPT_LOOKUP_FAILED,  /* /etc/passwd or /etc/group unreadable */
	MOPT_NUL_BYTE,       /* the kernel would cut the data there */
	MOPT_OPEN_QUOTE,     /* a double quote left open */
};
const char *mopt_reason_text(enum mopt_reason r);

struct mopt_ctx;
/* Resolve a user (is_group 0) or group name: 0, -ENOENT, or -errno. */
typedef int mopt_resolve_fn(struct mopt_ctx *ctx, int is_group,
			    const char *name, size_t len, uint32_t *id);
/* Called for each option dropped with a warning (sloppy unknown option,
 * VirtualBox-only option on another driver). */
typedef void mopt_warn_fn(struct mopt_ctx *ctx, const char *opt, size_t len,
			  enum mopt_reason why);
/* Is the loaded vboxsf driver VirtualBox's own? Asked once, lazily, only
 * when a VirtualBox-only option is given. */
typedef int mopt_vbox_fn(struct mopt_ctx *ctx);

struct mopt_ctx {
	const struct mopt_fs *fs;
	int sloppy;
	mopt_resolve_fn *resolve;   /* NULL: mopt_resolve_passwd */
	mopt_warn_fn *warn;         /* NULL: drop silently */
	mopt_vbox_fn *vbox_driver;  /* NULL: mopt_vbox_driver_sysfs */
	int vbox_known;             /* -1 not asked yet, else 0/1 */
	void *user;

	/* results */
	unsigned long flags;        /* MS_*: set the defaults before
				       parsing; flag words update it */
	uint32_t seq;
	struct mopt_slot {
		const char *str;    /* value text (NULL: numeric or flag) */
		uint32_t len;
		uint32_t num;
		uint32_t seq;       /* order of the last occurrence, 0 unset */
		uint8_t numeric;    /* emit num (1 decimal, 8 octal, 16 hex) */
		uint8_t has_value;
	} slot[MOPT_MAX_SLOTS];

	/* the first error */
	enum mopt_reason error;
	const char *err_opt;
	size_t err_len;
	int err_errno;
	/* MOPT_LOOKUP_FAILED by mopt_resolve_passwd: the file, and for a
	 * malformed id (err_errno EINVAL) its line, from 1 */
	const char *err_file;
	unsigned long err_line;
};

void mopt_init(struct mopt_ctx *ctx, const struct mopt_fs *fs);
/* The length of the option at s (at most len bytes): up to the first
 * comma outside double quotes. *open_quote: 1 when a quote is left open. */
size_t mopt_option_len(const char *s, size_t len, int *open_quote);
/* Parse one option string (one -o). 0, or -1 with ctx->error set. */
int mopt_parse(struct mopt_ctx *ctx, const char *opts, size_t len);
/* Set NAME=VALUE (a static string) unless the user gave NAME. */
void mopt_default(struct mopt_ctx *ctx, const char *name, const char *value);
/* The value given for NAME: the text (numbers are formatted into buf),
 * or NULL when not given. */
const char *mopt_get(const struct mopt_ctx *ctx, const char *name,
		     char *buf, size_t cap);
/* Build the mount data: NUL-terminated in out (cap > MOPT_DATA_MAX).
 * Returns the length, or -1 (MOPT_TOO_LONG) with ctx->error set. */
long mopt_build(struct mopt_ctx *ctx, char *out, size_t cap);

/* "MS_RDONLY|MS_NODEV" (or "0") into out; returns the length needed. */
size_t mopt_flags_text(unsigned long flags, char *out, size_t cap);

/* What ctx->err_opt's option accepts, for a bad value (MOPT_CHOICE,
 * MOPT_RANGE, MOPT_NOT_OCTAL...): " (accepted: a, b, c)" into out, or ""
 * when there is nothing to add. */
void mopt_accepted_text(const struct mopt_ctx *ctx, char *out, size_t cap);

/* The default resolver: /etc/passwd, /etc/group (libcommon's lookup_id);
 * on an error other than -ENOENT it sets ctx->err_file and err_line. */
int mopt_resolve_passwd(struct mopt_ctx *ctx, int is_group, const char *name,
			size_t len, uint32_t *id);
/* The default driver probe: 1 when /sys/module/vboxsf/version exists
 * (VirtualBox's module declares MODULE_VERSION; the mainline one does
 * not and has a world-readable follow_symlinks parameter instead). */
int mopt_vbox_driver_sysfs(struct mopt_ctx *ctx);

#endif
