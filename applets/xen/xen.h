// SPDX-License-Identifier: MIT
/* xen.h - the pure parts of the Xen applets, shared with the unit tests. */
#ifndef FORKLESS_XEN_H
#define FORKLESS_XEN_H

#include <stddef.h>
#include <sys/types.h>

#define XEN_VERSION_DIGITS_MAX 10   /* a u32 */
#define XEN_VERSION_FILE_MAX 32     /* bytes read from major/minor */
#define XEN_TYPE_FILE_MAX 4096      /* a sysfs page */
/* "/usr/lib/xen-" + 10 digits + "." + 10 digits + NUL */
#define XEN_DIR_MAX 48

struct xen_version {
	char str[2 * XEN_VERSION_DIGITS_MAX + 2];   /* "MAJOR.MINOR" */
	const char *bad_file;   /* on failure: which file */
	int err;                /* on failure: errno, or 0 if invalid */
	size_t raw_len;         /* on failure: what it held */
	char raw[XEN_VERSION_FILE_MAX];
};

struct xen_type {
	int err;
	size_t len;
	char value[XEN_TYPE_FILE_MAX];
};

/* The sysfs fds a reader left open: the exec path leaves them to
 * O_CLOEXEC (no close syscalls); off it they are closed. */
struct xen_fds {
	int fd[3];
	unsigned n;
};
void xen_fds_init(struct xen_fds *f);
void xen_fds_close(struct xen_fds *f);

/* Validate a major/minor file's content; *start, *digits locate the
 * number. 0, or -EINVAL / -ERANGE. */
int xen_parse_version_value(const char *buf, size_t len, size_t *start,
			    size_t *digits);
/* Read both files; 0, or -1 with bad_file/err/raw describing why (err
 * EBADFD: not a regular file). */
int xen_read_version(struct xen_version *xv, struct xen_fds *f);
/* Debian's message when the running hypervisor's /usr/lib/xen-VERSION
 * is missing, on stderr, as xen-utils-wrapper (then exit 127) and
 * /etc/init.d/xen (then exit 1) print it: "ERROR:  Can't find version
 * V of xen utils (maybe xen-utils-V was already removed before rebooting
 * out of Xen V), bailing out!". */
void xen_no_tools_error(const char *v);
void xen_read_type(struct xen_type *xt, struct xen_fds *f);
/* The value `read var` (dash, no -r) gives for this file content. */
size_t xen_shell_read_line(const char *buf, size_t len, char *out,
			   size_t cap);
/* /usr/lib/xen-VERSION/bin/COMMAND into buf; 0 or -ENAMETOOLONG. */
int xen_tool_path(char *buf, size_t cap, const char *version,
		  const char *command);

/* Exec /usr/lib/xen-VERSION/bin/COMMAND (VERSION the running Xen's) with
 * argv[1..], argv[0] its path; on failure Debian's wrapper's message and
 * exit status (1 or 127). */
_Noreturn void xen_exec_tool(const char *command, char **argv);

#endif
