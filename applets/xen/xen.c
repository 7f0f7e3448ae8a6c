// SPDX-License-Identifier: MIT
/* xen.c - drop-in replacements for Debian's xen-utils-common scripts.
 *
 * Debian installs every Xen tool (xl, xentop, xenstored...) as a symlink
 * to /usr/lib/xen-common/bin/xen-utils-wrapper, a shell script that reads
 * the running hypervisor's version from sysfs and execs
 * /usr/lib/xen-MAJOR.MINOR/bin/TOOL. That script runs on every call; here
 * it is four syscalls between our execve and the tool's: openat+read
 * major, openat+read minor, then execve (xen-early.c runs this before
 * musl's own startup; through main() musl adds arch_prctl and
 * set_tid_address: six). The fds are O_CLOEXEC, so nothing needs closing
 * before the exec.
 *
 * Compatibility with Debian 4.17's scripts is byte for byte on stdout,
 * stderr and exit status, except where the scripts are unsafe or fail
 * with a shell error; tests/xen/diff-debian.sh runs both and
 * docs/xen.md ("Differences from Debian's scripts") lists every exception.
 */
//applet:XEN_UTILS_WRAPPER xen-utils-wrapper usr/lib/xen-common/bin/xen-utils-wrapper xen_utils_wrapper_main ARGS_PASSTHROUGH,FALLBACK early=xen_utils_wrapper_early links=XEN_WRAPPED_TOOLS
//usage:Usage: TOOL [ARGS...]   (TOOL is any name linked to xen-utils-wrapper)
//usage:
//usage:Run /usr/lib/xen-MAJOR.MINOR/bin/TOOL with ARGS, where MAJOR.MINOR is
//usage:the running Xen version from /sys/hypervisor/version/{major,minor}.
//usage:The tool gets the same arguments, environment and file descriptors,
//usage:with argv[0] set to its full path. Nothing is forked.
//exit:1 not running on Xen, or sysfs holds no valid Xen version
//exit:127 no /usr/lib/xen-MAJOR.MINOR, or TOOL cannot be executed there
//exit:other the tool's own: once it runs, its status is the caller's
//replaces:Debian's sh script at the applet's path
//package:`forkless-xen` diverts Debian's file to `xen-utils-wrapper.distrib`; the tool names of `XEN_WRAPPED_TOOLS` are links to it
//messages:Debian's, word for word, on stderr: `ERROR:  WHAT` (two spaces, as the scripts' `echo "ERROR: " "$@"`); the cases in [xen.md](xen.md#messages-and-exit-codes)
//applet:XEN_VERSION xen-version usr/lib/xen-common/bin/xen-version xen_version_main 0
//usage:Usage: xen-version
//usage:
//usage:Print the running Xen version as MAJOR.MINOR (e.g. 4.17).
//exit:0 printed
//exit:1 not running on Xen, or no valid version in sysfs
//replaces:Debian's sh script at the applet's path
//package:`forkless-xen` diverts Debian's file to `xen-version.distrib`
//messages:Debian's, word for word, on stderr: `ERROR:  WHAT` (two spaces, as the scripts' `echo "ERROR: " "$@"`); the cases in [xen.md](xen.md#messages-and-exit-codes)
//applet:XEN_DIR xen-dir usr/lib/xen-common/bin/xen-dir xen_dir_main 0
//usage:Usage: xen-dir
//usage:
//usage:Print the directory of the Xen tools for the running hypervisor,
//usage:/usr/lib/xen-MAJOR.MINOR.
//exit:0 printed
//exit:1 not running on Xen, or no valid version in sysfs
//exit:127 the directory does not exist
//replaces:Debian's sh script at the applet's path
//package:`forkless-xen` diverts Debian's file to `xen-dir.distrib`
//messages:Debian's, word for word, on stderr: `ERROR:  WHAT` (two spaces, as the scripts' `echo "ERROR: " "$@"`); the cases in [xen.md](xen.md#messages-and-exit-codes)
//applet:XEN xen usr/sbin/xen xen_main ARGS_PASSTHROUGH early=xen_early
//usage:Usage: xen [XL-ARGS...]
//usage:
//usage:Run xl, as Debian's /usr/sbin/xen script does, but without looking
//usage:xl up in PATH and without the second exec: the tool is
//usage:/usr/lib/xen-MAJOR.MINOR/bin/xl.
//exit:1 not running on Xen, or sysfs holds no valid Xen version
//exit:127 no /usr/lib/xen-MAJOR.MINOR, or xl cannot be executed there
//exit:other xl's own: once it runs, its status is the caller's
//replaces:Debian's sh script at the applet's path
//package:`forkless-xen` diverts Debian's file to `/usr/sbin/xen.distrib`
//messages:Debian's, word for word, on stderr: `ERROR:  WHAT` (two spaces, as the scripts' `echo "ERROR: " "$@"`); the cases in [xen.md](xen.md#messages-and-exit-codes)
//applet:XEN_TOOLSTACK xen-toolstack usr/lib/xen-common/bin/xen-toolstack xen_toolstack_main 0
//usage:Usage: xen-toolstack
//usage:
//usage:Deprecated by Debian: warn on stderr and print "xl".
//exit:0 printed
//exit:1 stdout not writable
//replaces:Debian's sh script at the applet's path
//package:`forkless-xen` diverts Debian's file to `xen-toolstack.distrib`
//messages:Debian's deprecation warning, word for word, on stderr
//applet:XEN_TOOLSTACK_WRAPPER xen-toolstack-wrapper usr/lib/xen-common/bin/xen-toolstack-wrapper xen_toolstack_wrapper_main ARGS_PASSTHROUGH
//usage:Usage: xen-toolstack-wrapper [XL-ARGS...]
//usage:
//usage:Deprecated by Debian: warn on stderr, then run xl as `xen` does.
//exit:1 not running on Xen, or sysfs holds no valid Xen version
//exit:127 no /usr/lib/xen-MAJOR.MINOR, or xl cannot be executed there
//exit:other xl's own: once it runs, its status is the caller's
//replaces:Debian's sh script at the applet's path
//package:`forkless-xen` diverts Debian's file to `xen-toolstack-wrapper.distrib`
//messages:Debian's deprecation warning on stderr, then as `xen`: Debian's, word for word, on stderr: `ERROR:  WHAT` (two spaces, as the scripts' `echo "ERROR: " "$@"`); the cases in [xen.md](xen.md#messages-and-exit-codes)

//config:config XEN_UTILS_WRAPPER
//config:	bool "xen-utils-wrapper: the dispatcher behind xl, xentop... (~1.4 KiB)"
//config:	default y
//config:	help
//config:	  Debian links every Xen tool to this dispatcher. It execs the tool
//config:	  of the running hypervisor version in 4 syscalls (6 without
//config:	  XEN_EARLY_EXEC), no fork.
//config:	  With it enabled, forkless invoked under any name that is not an
//config:	  applet behaves as the wrapper for that name.
//config:
//config:config XEN_WRAPPED_TOOLS
//config:	string "Xen tool names to install as links to the wrapper"
//config:	depends on XEN_UTILS_WRAPPER
//config:	default "xl xentop xenstored oxenstored xenconsoled xenwatchdogd xenpm xenperf xenlockprof xentrace xentrace_setsize xen-access xen-diag xen-hptool xen-hvmcrash xen-hvmctx xen-kdd xen-livepatch xen-lowmemd xen-mceinj xen-memshare xen-mfndump xen-ucode xen-vmtrace xencov flask-get-bool flask-getenforce flask-label-pci flask-loadpolicy flask-set-bool flask-setenforce usr/bin/xen-cpuid usr/bin/vchan-socket-proxy"
//config:	help
//config:	  Space-separated install paths (relative to the root) that
//config:	  `forkless --install` and `make install` create as links to
//config:	  xen-utils-wrapper. A name without a '/' goes to usr/sbin.
//config:	  The default is Debian's xen-utils-common 4.17 list.
//config:	  `forkless NAME` runs the wrapper for these names only.
//config:
//config:config XEN_VERSION
//config:	bool "xen-version: print the running Xen version (~0.3 KiB)"
//config:	default y
//config:
//config:config XEN_DIR
//config:	bool "xen-dir: print /usr/lib/xen-VERSION (~0.5 KiB)"
//config:	default y
//config:
//config:config XEN
//config:	bool "xen: /usr/sbin/xen, runs xl (~0.3 KiB)"
//config:	default y
//config:
//config:config XEN_TOOLSTACK
//config:	bool "xen-toolstack: deprecated, prints xl (~0.2 KiB)"
//config:	default y
//config:
//config:config XEN_TOOLSTACK_WRAPPER
//config:	bool "xen-toolstack-wrapper: deprecated, runs xl (~0.2 KiB)"
//config:	default y
//config:
//config:config XEN_EARLY_EXEC
//config:	bool "Exec Xen tools before libc starts: 4 syscalls, not 6 (~0.5 KiB)"
//config:	default y
//config:	depends on XEN_UTILS_WRAPPER || XEN
//config:	help
//config:	  On musl/x86_64, the wrapper's success path runs from the ELF
//config:	  entry point with raw syscalls, skipping musl's TLS setup
//config:	  (arch_prctl, set_tid_address). Any failure falls back to the
//config:	  normal path, which reports it. Other libcs and architectures
//config:	  always take the normal path.

#include <errno.h>
#include <string.h>
#include <sys/auxv.h>
#include <fcntl.h>
#include <unistd.h>

#include "libcommon.h"
#include "xen.h"

extern char **environ;

#define SYSFS_TYPE "/sys/hypervisor/type"
#define SYSFS_MAJOR "/sys/hypervisor/version/major"
#define SYSFS_MINOR "/sys/hypervisor/version/minor"
#define XEN_LIB_PREFIX "/usr/lib/xen-"

enum {
	EXIT_NOT_XEN = 1,      /* the scripts' `error 1` cases */
	EXIT_NO_TOOLS = 127,   /* the scripts' `error 127` cases */
};

/* ---- sysfs values ------------------------------------------------------ */

int xen_parse_version_value(const char *buf, size_t len, size_t *start,
			    size_t *digits)
{
	size_t i = 0, d;
	uint64_t v;

	/* What dash's `read` would accept safely: blanks around one
	 * decimal number, an optional final newline, nothing after it. */
	while (i < len && (buf[i] == ' ' || buf[i] == '\t'))
		i++;
	*start = i;
	while (i < len && buf[i] >= '0' && buf[i] <= '9')
		i++;
	d = i - *start;
	while (i < len && (buf[i] == ' ' || buf[i] == '\t'))
		i++;
	if (i < len && buf[i] == '\n')
		i++;
	if (i != len || d == 0 || d > XEN_VERSION_DIGITS_MAX)
		return -EINVAL;
	if (parse_u64_base(buf + *start, d, 10, &v) < 0 || v > UINT32_MAX)
		return -ERANGE;
	*digits = d;
	return 0;
}

void xen_fds_init(struct xen_fds *f)
{
	f->n = 0;
}

void xen_fds_close(struct xen_fds *f)
{
	while (f->n)
		close(f->fd[--f->n]);
}

/* One sysfs file into buf: the byte count or -errno, -EBADFD when it is
 * not a regular file. The fd is held in f (the exec path saves the close:
 * O_CLOEXEC does it; the others exit right after); when an open runs out
 * of fds (RLIMIT_NOFILE), the held ones are closed and the open retried,
 * so a low limit never blames a good file. */
static ssize_t read_sysfs(struct xen_fds *f, const char *path, char *buf,
			  size_t cap)
{
	int fd;
	ssize_t n = read_small_file_keep(AT_FDCWD, path, buf, cap, &fd);

	if ((n == -EMFILE || n == -ENFILE) && f->n) {
		xen_fds_close(f);
		n = read_small_file_keep(AT_FDCWD, path, buf, cap, &fd);
	}
	if (fd < 0)
		return n;
	/* Nothing, or EAGAIN, is what a FIFO gives with O_NONBLOCK: only
	 * then is the file type worth a syscall. */
	if (n == -EAGAIN || (n == 0 && check_empty_regular(fd) < 0))
		n = -EBADFD;
	if (f->n < ARRAY_SIZE(f->fd))
		f->fd[f->n++] = fd;
	else
		close(fd);
	return n;
}

int xen_read_version(struct xen_version *xv, struct xen_fds *f)
{
	static const char *const files[2] = { SYSFS_MAJOR, SYSFS_MINOR };
	size_t len = 0;

	xv->str[0] = '\0';
	for (int i = 0; i < 2; i++) {
		char buf[XEN_VERSION_FILE_MAX];
		ssize_t n = read_sysfs(f, files[i], buf, sizeof(buf));
		size_t start, digits;

		xv->bad_file = files[i];
		xv->err = n < 0 ? (int)-n : 0;
		xv->raw_len = n < 0 ? 0 : (size_t)n;
		if (n < 0 && n != -EFBIG)
			return -1;
		if (n == -EFBIG)
			xv->raw_len = sizeof(buf);
		memcpy(xv->raw, buf, xv->raw_len);
		if (n < 0 || xen_parse_version_value(buf, (size_t)n, &start,
						     &digits) < 0) {
			xv->err = 0;
			return -1;
		}
		if (i == 1)
			xv->str[len++] = '.';
		memcpy(xv->str + len, buf + start, digits);
		len += digits;
		xv->str[len] = '\0';
	}
	xv->bad_file = NULL;
	return 0;
}

void xen_read_type(struct xen_type *xt, struct xen_fds *f)
{
	char buf[XEN_TYPE_FILE_MAX];
	ssize_t n = read_sysfs(f, SYSFS_TYPE, buf, sizeof(buf));

	xt->err = n < 0 ? (int)-n : 0;
	xt->len = 0;
	xt->value[0] = '\0';
	if (n >= 0)
		xt->len = xen_shell_read_line(buf, (size_t)n, xt->value,
					      sizeof(xt->value));
}

/* The first line of buf as `read var` (dash, no -r, default IFS) stores
 * it: NUL bytes are dropped (dash reads byte by byte and skips them),
 * backslash quotes the next byte, backslash-newline joins lines, leading
 * and trailing blanks (space, tab, newline) are dropped. */
size_t xen_shell_read_line(const char *buf, size_t len, char *out,
			   size_t cap)
{
	size_t o = 0, keep = 0;   /* keep: length up to the last quoted or
				     non-blank byte */
	int quoted = 0;           /* the last byte was an unquoted backslash */

	for (size_t i = 0; i < len && o + 1 < cap; i++) {
		char c = buf[i];

		if (c == '\0')
			continue;
		if (quoted) {
			quoted = 0;
			if (c == '\n')
				continue;          /* line continuation */
			out[o++] = c;
			keep = o;
			continue;
		}
		if (c == '\\') {
			quoted = 1;                /* a trailing one is dropped */
			continue;
		}
		if (c == '\n')
			break;
		if (o == 0 && (c == ' ' || c == '\t'))
			continue;                  /* leading blanks */
		out[o++] = c;
		if (c != ' ' && c != '\t')
			keep = o;
	}
	out[keep] = '\0';
	return keep;
}

/* ---- diagnostics (the scripts' slow path) ------------------------------ */

/* The scripts print `echo "ERROR: " "$@" >&2`: note the two spaces. */
#define xen_error(status, ...) xen_error_strv(status, STR_LIST(__VA_ARGS__))
static _Noreturn void xen_error_strv(int status, const char *const *list)
{
	write_line(2, STR_LIST("ERROR:  "), list, STR_LIST("\n"));
	_exit(status);
}

/* Why a sysfs file could not be read: read_sysfs's -EBADFD is a FIFO or
 * a socket where a regular file belongs. */
static const char *read_error_text(int err)
{
	return err == EBADFD ? "not a regular file" : errno_text(err);
}

/* The checks both scripts make, in their order: is this Xen at all? */
static void check_hypervisor_type(struct xen_fds *f)
{
	struct xen_type xt;
	char shown[XEN_TYPE_FILE_MAX * 4];

	xen_read_type(&xt, f);
	if (xt.err == ENOENT || xt.err == ENOTDIR)
		xen_error(EXIT_NOT_XEN,
			  "Can't find hypervisor information in sysfs!");
	if (xt.err == EFBIG)
		xen_error(EXIT_NOT_XEN, "Can't read hypervisor type from sysfs: "
			  SYSFS_TYPE " is larger than a page");
	if (xt.err)
		xen_error(EXIT_NOT_XEN, "Can't read hypervisor type from sysfs: "
			  SYSFS_TYPE ": ", read_error_text(xt.err));
	if (strcmp(xt.value, "xen") == 0)
		return;
	if (xt.len == 0)
		xen_error(EXIT_NOT_XEN, "Can't read hypervisor type from sysfs!");
	/* Printed as the script prints it, but control bytes escaped: a
	 * sysfs value must not move the cursor of the reader's terminal.
	 * (shown[] holds any page escaped: never cut.) */
	xen_error(EXIT_NOT_XEN, "Hypervisor is not xen but '",
		  shown_input(shown, sizeof(shown), xt.value, xt.len), "'!");
}

/* Stricter than the scripts: a version that is not a plain decimal
 * number must never become part of a path that is executed. */
static _Noreturn void bad_version(const struct xen_version *xv)
{
	/* Cut below the read size, so that a file longer than what was
	 * read always shows as cut. */
	char shown[XEN_VERSION_FILE_MAX];
	size_t len = xv->raw_len;

	if (xv->err)
		xen_error(EXIT_NOT_XEN, "Can't read Xen version from ",
			  xv->bad_file, ": ", read_error_text(xv->err));
	if (len == 0)
		xen_error(EXIT_NOT_XEN, "Invalid Xen version in ", xv->bad_file,
			  ": the file is empty");
	if (len < XEN_VERSION_FILE_MAX && xv->raw[len - 1] == '\n')
		len--;   /* sysfs's own newline is not part of the value */
	xen_error(EXIT_NOT_XEN, "Invalid Xen version in ", xv->bad_file, ": '",
		  shown_input(shown, sizeof(shown), xv->raw, len),
		  "' (expected a decimal number up to 4294967295)");
}

void xen_no_tools_error(const char *v)
{
	write_line(2, STR_LIST("ERROR:  Can't find version ", v,
			       " of xen utils (maybe xen-utils-", v,
			       " was already removed before rebooting out "
			       "of Xen ", v, "), bailing out!\n"), NULL, NULL);
}

static _Noreturn void no_version_dir(const char *v)
{
	xen_no_tools_error(v);
	_exit(EXIT_NO_TOOLS);
}

/* "ERROR:  Unable to execute DIR/bin/COMMAND", the command escaped as the
 * type is (it comes from argv[0]: a newline must not start a line of its
 * own) and never cut: argv[0] may be up to 128 KiB, so a long one is
 * escaped and written in parts. */
static _Noreturn void cannot_execute(const char *version, const char *command)
{
	char shown[4096];
	size_t len = strlen(command), done = 0;
	const char *msg[] = { "ERROR:  Unable to execute " XEN_LIB_PREFIX,
			      version, "/bin/", shown, NULL };
	const char *const *parts = msg;

	do {   /* one write(2) unless the command is over 1000 bytes */
		size_t n = len - done < 1000 ? len - done : 1000;

		escape_octal(shown, sizeof(shown), command + done, n, 0);
		done += n;
		write_line(2, NULL, parts, done == len ? STR_LIST("\n") : NULL);
		parts = msg + 3;
	} while (done < len);
	_exit(EXIT_NO_TOOLS);
}

/* Fills dir with /usr/lib/xen-VERSION and says whether it is a directory
 * (the scripts' `[ -d ]`, which follows symlinks). */
static int version_dir(char *dir, size_t cap, const struct xen_version *xv)
{
	size_t len = 0;
	int fd;

	dir[0] = '\0';
	str_append(dir, cap, &len, XEN_LIB_PREFIX, sizeof(XEN_LIB_PREFIX) - 1);
	str_append(dir, cap, &len, xv->str, strlen(xv->str));
	/* O_PATH|O_DIRECTORY: succeeds exactly for a directory (symlinks
	 * followed), like [ -d ], without musl's larger stat code. */
	fd = openat(AT_FDCWD, dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

static int version_dir_exists(const struct xen_version *xv)
{
	char dir[XEN_DIR_MAX];

	return version_dir(dir, sizeof(dir), xv);
}

/* ---- the wrapper ------------------------------------------------------- */

int xen_tool_path(char *buf, size_t cap, const char *version,
		  const char *command)
{
	size_t len = 0;

	buf[0] = '\0';
	if (str_append(buf, cap, &len, XEN_LIB_PREFIX,
		       sizeof(XEN_LIB_PREFIX) - 1) < 0 ||
	    str_append(buf, cap, &len, version, strlen(version)) < 0 ||
	    str_append(buf, cap, &len, LIT("/bin/")) < 0 ||
	    str_append(buf, cap, &len, command, strlen(command)) < 0)
		return -ENAMETOOLONG;
	return 0;
}

/* Exec /usr/lib/xen-VERSION/bin/COMMAND with argv[1..]; on failure,
 * report exactly as Debian's wrapper does and exit. */
_Noreturn void xen_exec_tool(const char *command, char **argv)
{
	struct xen_version xv;
	struct xen_fds fds;
	char path[4096];
	char *no_args[2] = { NULL, NULL };
	int have_version;

	if (!argv[0])
		argv = no_args;   /* execve with an empty argv */
	xen_fds_init(&fds);
	have_version = xen_read_version(&xv, &fds) == 0;
	if (have_version && xen_tool_path(path, sizeof(path), xv.str, command) == 0) {
		/* dash execs "$DIR/$COMMAND": argv[0] is the full path. */
		argv[0] = path;
		execve(path, argv, environ);
	}

	/* The slow path, in the script's order, off the exec path: what
	 * was read is closed (a low RLIMIT_NOFILE, fds 0-2 closed: no
	 * message goes to a sysfs fd). */
	xen_fds_close(&fds);
	check_hypervisor_type(&fds);
	xen_fds_close(&fds);   /* the directory check needs an fd */
	if (!have_version)
		bad_version(&xv);
	if (!version_dir_exists(&xv))
		no_version_dir(xv.str);
	cannot_execute(xv.str, command);
}

int xen_utils_wrapper_main(int argc, char **argv)
{
	(void)argc;
	xen_exec_tool(dispatch_name(argv[0]), argv);
}

int xen_main(int argc, char **argv)
{
	(void)argc;
	xen_exec_tool("xl", argv);
}

/* The script's $0: the path the kernel was asked to execute (AT_EXECFN),
 * when we were run under this applet's name; `forkless xen-toolstack`
 * has no such path, so the applet name stands in. */
static const char *script_name(const char *argv0)
{
	const char *execfn = (const char *)getauxval(AT_EXECFN);

	if (execfn && argv0 &&
	    strcmp(path_basename(execfn), path_basename(argv0)) == 0)
		return execfn;
	return argv0 ? argv0 : applet_name;
}

static void deprecated_warning(const char *argv0)
{
	write_strs(2, "warning: something called deprecated script ",
		   script_name(argv0), "\n");
}

int xen_toolstack_main(int argc, char **argv)
{
	(void)argc;
	deprecated_warning(argv[0]);
	return stdout_status(write_all(1, LIT("xl\n")));
}

int xen_toolstack_wrapper_main(int argc, char **argv)
{
	(void)argc;
	deprecated_warning(argv[0]);
	xen_exec_tool("xl", argv);
}

/* ---- xen-version, xen-dir ---------------------------------------------- */

/* The fds stay open until exit (three closes would be three syscalls
 * more); read_sysfs closes them when fds run out. */
static void get_version(struct xen_version *xv, struct xen_fds *fds)
{
	xen_fds_init(fds);
	check_hypervisor_type(fds);
	if (xen_read_version(xv, fds) < 0)
		bad_version(xv);
}

int xen_version_main(int argc, char **argv)
{
	struct xen_version xv;
	struct xen_fds fds;
	size_t len;

	(void)argc;
	(void)argv;
	get_version(&xv, &fds);
	len = strlen(xv.str);
	xv.str[len] = '\n';
	return stdout_status(write_all(1, xv.str, len + 1));
}

int xen_dir_main(int argc, char **argv)
{
	struct xen_version xv;
	struct xen_fds fds;
	char dir[XEN_DIR_MAX];
	size_t len;

	(void)argc;
	(void)argv;
	get_version(&xv, &fds);
	/* The directory check needs an fd of its own. */
	xen_fds_close(&fds);
	if (!version_dir(dir, sizeof(dir), &xv))
		no_version_dir(xv.str);
	len = strlen(dir);
	dir[len] = '\n';
	return stdout_status(write_all(1, dir, len + 1));
}
