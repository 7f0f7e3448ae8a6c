/* xen.h - the pure parts of the Xen applets, shared with the unit tests. */
#ifndef FORKLESS_XEN_H
#define FORKLESS_XEN_H

#include <stddef.h>

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

/* Validate a major/minor file's content; *start, *digits locate the
 * number. 0, or -EINVAL / -ERANGE. */
int xen_parse_version_value(const char *buf, size_t len, size_t *start,
			    size_t *digits);
/* Read both files; 0, or -1 with bad_file/err/raw describing why. */
int xen_read_version(struct xen_version *xv);
void xen_read_type(struct xen_type *xt);
/* The value `read var` (dash, no -r) gives for this file content. */
size_t xen_shell_read_line(const char *buf, size_t len, char *out,
			   size_t cap);
/* /usr/lib/xen-VERSION/bin/COMMAND into buf; 0 or -ENAMETOOLONG. */
int xen_tool_path(char *buf, size_t cap, const char *version,
		  const char *command);

#endif
