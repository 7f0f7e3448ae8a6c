// SPDX-License-Identifier: MIT
/* xen-early.c - the Xen applets' early hooks: exec the tool before libc
 * initialises itself.
 *
 * The wrapper's work needs no libc state: two small reads and an execve.
 * musl's startup costs two syscalls (arch_prctl to set up TLS,
 * set_tid_address) that the tool is about to throw away with its own
 * execve. So the //applet: lines of xen-utils-wrapper and xen name these
 * hooks (early=), and the ELF entry point (core/entry.c) runs them before
 * libc starts: they try the success path with raw syscalls and, only if
 * they cannot exec, return; main() then makes the same decisions again
 * and reports any error. Between the wrapper's execve and the tool's
 * there are 4 syscalls: openat, read, openat, read.
 *
 * Nothing here may touch TLS (errno, the stack protector's canary): it
 * runs before TLS exists. The build is -fno-stack-protector; this file
 * uses only sys_* calls (libcommon/sys.h) and pure helpers (string
 * building, version validation).
 */
#include <fcntl.h>
#include <string.h>

#include "libcommon.h"
#include "applet.h"
#include "sys.h"
#include "xen.h"

/* One sysfs version file appended to str at *len: its fd, or -1.
 * O_NONBLOCK: a FIFO planted at the sysfs path must not block the open
 * (its read then returns 0 bytes, an invalid version: main() reports). */
static int early_read(const char *file, char *str, size_t *len)
{
	char buf[XEN_VERSION_FILE_MAX];
	size_t start, digits;
	ssize_t n;
	int fd;

	fd = sys_openat(AT_FDCWD, file,
			O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	n = sys_read(fd, buf, sizeof(buf));
	if (n < 0 || (size_t)n >= sizeof(buf) ||
	    xen_parse_version_value(buf, (size_t)n, &start, &digits) < 0) {
		sys_close(fd);
		return -1;
	}
	memcpy(str + *len, buf + start, digits);
	*len += digits;
	return fd;   /* left open on success: O_CLOEXEC closes it in execve */
}

/* Exec /usr/lib/xen-MAJOR.MINOR/bin/COMMAND, or return with nothing
 * changed (fds closed, argv[0] restored). */
static void early_exec_tool(const char *command, char **argv, char **envp)
{
	char version[2 * XEN_VERSION_DIGITS_MAX + 2];
	char path[4096];
	char *argv0 = argv[0];
	size_t len = 0;
	int fd_major, fd_minor;

	if (!ENABLE_XEN_EARLY_EXEC)
		return;
	fd_major = early_read("/sys/hypervisor/version/major", version, &len);
	if (fd_major < 0)
		return;
	version[len++] = '.';
	fd_minor = early_read("/sys/hypervisor/version/minor", version, &len);
	version[len] = '\0';
	if (fd_minor >= 0 &&
	    xen_tool_path(path, sizeof(path), version, command) == 0) {
		/* dash execs "$DIR/$COMMAND": the tool's argv[0] is its path. */
		argv[0] = path;
		sys_execve(path, argv, envp);
		argv[0] = argv0;
	}
	/* Not exec'd: main() starts over and reports why. */
	sys_close(fd_major);
	if (fd_minor >= 0)
		sys_close(fd_minor);
}

/* Any name that is not an applet: the tool of that name. */
void xen_utils_wrapper_early(const char *name, char **argv, char **envp)
{
	early_exec_tool(name, argv, envp);
}

/* /usr/sbin/xen: xl. */
void xen_early(const char *name, char **argv, char **envp)
{
	(void)name;
	early_exec_tool("xl", argv, envp);
}
