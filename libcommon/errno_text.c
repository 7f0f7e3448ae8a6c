// SPDX-License-Identifier: MIT
/* errno_text.c - short texts for the errno values forkless reports.
 *
 * musl's strerror() carries a 2 KiB table of every errno; the small
 * configs (the Xen wrapper alone is under 16 KiB) cannot afford it, and
 * the messages users see come from this short list anyway: every errno a
 * helper or applet can report (open/read/write/exec/mount errors, and the
 * network ones a 9p trans=tcp mount gets: ECONNREFUSED for a closed port;
 * EPIPE for a closed pipe when SIGPIPE is ignored). Keep it to those: the
 * table is in the Xen-wrapper-only build too (16 KiB budget). The classic texts are musl's
 * wording (where it differs from glibc, e.g. "Out of memory"), the
 * network ones glibc's and musl's alike (tests/unit checks them against
 * glibc's strerror); anything else prints as "error N". */
#include <errno.h>
#include <string.h>

#include "libcommon.h"

/* One string of NUL-separated texts, indexed by errno_codes[]: a table of
 * pointers would cost more than the texts themselves (relocated 8-byte
 * pointers in .data.rel.ro). */
/* N(): the network errnos, only where something that reports them is
 * built (ERRNO_TEXTS_NET, selected by the applets that use sockets: a 9p
 * trans=tcp mount, the hotplug applets' netlink and syslog); the
 * Xen-wrapper-only build cannot meet them and keeps its 16 KiB. */
#define ERRNO_TEXTS(X, N) \
	X(EPERM, "Operation not permitted") \
	X(ENOENT, "No such file or directory") \
	X(EINTR, "Interrupted system call") \
	X(EIO, "I/O error") \
	X(ENXIO, "No such device or address") \
	X(ENOEXEC, "Exec format error") \
	X(EBADF, "Bad file descriptor") \
	X(EAGAIN, "Resource temporarily unavailable") \
	X(ENOMEM, "Out of memory") \
	X(EACCES, "Permission denied") \
	X(EBUSY, "Resource busy") \
	X(EEXIST, "File exists") \
	X(EXDEV, "Cross-device link") \
	X(ENODEV, "No such device") \
	X(ENOTDIR, "Not a directory") \
	X(EISDIR, "Is a directory") \
	X(EINVAL, "Invalid argument") \
	X(ENFILE, "Too many open files in system") \
	X(EMFILE, "No file descriptors available") \
	X(ETXTBSY, "Text file busy") \
	X(EFBIG, "File too large") \
	X(ENOSPC, "No space left on device") \
	X(EROFS, "Read-only file system") \
	X(EMLINK, "Too many links") \
	X(EPIPE, "Broken pipe") \
	X(ERANGE, "Result not representable") \
	X(ENAMETOOLONG, "Filename too long") \
	X(ENOSYS, "Function not implemented") \
	X(ENOTEMPTY, "Directory not empty") \
	X(ELOOP, "Symbolic link loop") \
	X(EPROTO, "Protocol error") \
	X(EBADFD, "File descriptor in bad state") \
	N(EPROTONOSUPPORT, "Protocol not supported") \
	X(EOPNOTSUPP, "Not supported") \
	N(ENETUNREACH, "Network is unreachable") \
	N(ECONNRESET, "Connection reset by peer") \
	N(ENOTCONN, "Transport endpoint is not connected") \
	X(ETIMEDOUT, "Connection timed out") \
	N(ECONNREFUSED, "Connection refused") \
	N(EHOSTUNREACH, "No route to host") \
	X(ESTALE, "Stale file handle") \
	X(EDQUOT, "Disk quota exceeded")

#define X_CODE(e, t) e,
#define X_TEXT(e, t) t "\0"
#define X_NONE(e, t)
#if ENABLE_ERRNO_TEXTS_NET
static const unsigned short errno_codes[] = { ERRNO_TEXTS(X_CODE, X_CODE) };
static const char errno_strings[] = ERRNO_TEXTS(X_TEXT, X_TEXT);
#else
static const unsigned short errno_codes[] = { ERRNO_TEXTS(X_CODE, X_NONE) };
static const char errno_strings[] = ERRNO_TEXTS(X_TEXT, X_NONE);
#endif

const char *errno_text(int err)
{
	static char unknown[sizeof("error -2147483648")];
	char digits[FMT_U64_MAX];
	size_t len = 0, n;

	const char *text = errno_strings;

	for (size_t i = 0; i < ARRAY_SIZE(errno_codes); i++) {
		if (errno_codes[i] == err && err != 0)
			return text;
		text += strlen(text) + 1;
	}
	/* Rare: say the number rather than pretend to know. */
	str_append(unknown, sizeof(unknown), &len, LIT("error "));
	n = fmt_u64_base(digits, (uint64_t)(err < 0 ? -(int64_t)err : err),
			 10);
	if (err < 0)
		str_append(unknown, sizeof(unknown), &len, LIT("-"));
	str_append(unknown, sizeof(unknown), &len, digits, n);
	return unknown;
}
