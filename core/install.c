// SPDX-License-Identifier: MIT
/* install.c - `forkless --install [-s] DIR`.
 *
 * Creates DIR (0755, like install -d) when it is missing. Installs the
 * running binary as DIR/usr/bin/forkless (a hard link to /proc/self/exe
 * where the filesystem allows, else a copy; nothing when the binary
 * running is that file already, which a chroot without /proc can tell
 * from AT_EXECFN), then every path of --list-full as a hard link to it,
 * or with -s as a relative symlink (Debian's own layout: usr/sbin/xl ->
 * ../lib/xen-common/bin/xen-utils-wrapper). Relative links work the same in place, in a chroot
 * and in an initramfs built on another machine. Each entry is created
 * under a temporary name and renamed over the old one, so an existing
 * tree is updated atomically, entry by entry. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>   /* renameat only: no stdio streams are used */
#include <string.h>
#include <sys/auxv.h>   /* AT_EXECFN */
#include <sys/stat.h>   /* fchmod */
#include <unistd.h>

#include "libcommon.h"
#include "applet.h"
#include "sys.h"   /* statx: musl's fstatat would add 1.5 KiB */

struct install_ctx {
	int rootfd;
	int selffd;   /* /proc/self/exe */
	int symlinks;
	const char *root;   /* DIR as given */
	const char *sep;    /* "/" between DIR and a path, "" when DIR ends
			       with one: messages name /usr/bin/forkless */
};

static int fail(const struct install_ctx *ic, const char *path, int err)
{
	warn_msg(ic->root, ic->sep, path, ": ", errno_text(err));
	return 1;
}

/* mkdir -p for the directories of path (relative to rootfd), and for
 * path itself when all is set. */
static int make_dirs(int rootfd, const char *path, int all)
{
	char dir[4096];
	const char *p = path;

	while ((p = strchr(p + 1, '/')) || (all && (p = strchr(path, 0)))) {
		size_t len = 0;

		if (str_append(dir, sizeof(dir), &len, path,
			       (size_t)(p - path)) < 0)
			return -ENAMETOOLONG;
		if (mkdirat(rootfd, dir, 0755) < 0 && errno != EEXIST)
			return -errno;
		if (!*p)
			break;
	}
	return 0;
}

static int copy_self(int in, int rootfd, const char *tmp)
{
	char buf[16384];
	int out, ret = 0;

	out = openat(rootfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		     0755);
	if (out < 0)
		return -errno;
	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : 0;
			break;
		}
		if ((ret = write_all(out, buf, (size_t)n)) < 0)
			break;
	}
	if (fchmod(out, 0755) < 0 && ret == 0)
		ret = -errno;
	if (close(out) < 0 && ret == 0)
		ret = -errno;
	return ret;
}

/* path with each directory on its way that is a symlink in the root
 * replaced by where it points, as the kernel walks it: a relative link is
 * counted from where it lands. In a merged-/usr root (bin -> usr/bin)
 * bin/sh is then "forkless", not "../usr/bin/forkless", which from
 * usr/bin names usr/usr/bin/forkless. The last component stays; ".." at
 * the top stays at the top, as in a chroot; a directory not made yet is
 * taken as it is written. */
static int resolve_dirs(int rootfd, const char *path, char *out, size_t cap)
{
	char todo[4096], lnk[4096];
	const char *p = todo, *end;
	size_t len = 0, n = strlen(path), mark;
	ssize_t got;
	int hops = 40;

	if (n >= sizeof(todo))
		return -ENAMETOOLONG;
	memcpy(todo, path, n + 1);
	for (; *p; p = end) {
		end = strchrnul(p, '/');
		n = (size_t)(end - p);
		if (*end)
			end++;
		mark = len;
		if (n == 2 && p[0] == '.' && p[1] == '.') {   /* up, not above */
			while (len && out[--len] != '/')
				;
			n = 0;
		}
		if (!n) {
			out[len] = '\0';
			continue;
		}
		if (len + n + 2 > cap)
			return -ENAMETOOLONG;
		if (len)
			out[len++] = '/';
		memcpy(out + len, p, n);
		out[len += n] = '\0';
		/* the last component stays; a directory (or none yet) too */
		if (!*end || (got = sys_readlinkat(rootfd, out, lnk,
						   sizeof(lnk) - 1)) < 0)
			continue;
		if (!hops--)
			return -ELOOP;
		if ((n = strlen(end)) + (size_t)got + 2 > sizeof(lnk))
			return -ENAMETOOLONG;
		len = lnk[0] == '/' ? 0 : mark;   /* a symlink: its target, */
		out[len] = '\0';
		lnk[got] = '/';                    /* then the rest */
		memcpy(lnk + got + 1, end, n + 1);
		memcpy(todo, lnk, (size_t)got + n + 2);
		end = todo;
	}
	return 0;
}

/* How the entry for path is made under its temporary name tmp. */
typedef int make_entry_fn(const struct install_ctx *ic, const char *path,
			  const char *tmp, const char *link_to);

/* Replace path with a fresh entry, atomically: make() creates it under a
 * temporary name beside it, which is renamed over path. The temporary
 * name is removed in every case: rename(2) of two links to one inode (an
 * install into the tree we run from, or hard links installed again) does
 * nothing and would leave it behind. */
static int replace_entry(const struct install_ctx *ic, const char *path,
			 const char *link_to, make_entry_fn *make)
{
	char real[4096], tmp[4096 + sizeof(".forkless-new")];
	size_t len;
	int ret;

	/* where path lands in DIR: a symlink on its way (bin -> /usr/bin)
	 * followed by the kernel would leave DIR */
	if ((ret = resolve_dirs(ic->rootfd, path, real, sizeof(real))) < 0 ||
	    (ret = make_dirs(ic->rootfd, real, 0)) < 0)
		return fail(ic, path, -ret);
	len = strlen(real);
	memcpy(tmp, real, len);
	memcpy(tmp + len, ".forkless-new", sizeof(".forkless-new"));
	unlinkat(ic->rootfd, tmp, 0);
	if ((ret = make(ic, real, tmp, link_to)) < 0)
		return fail(ic, path, -ret);
	ret = renameat(ic->rootfd, tmp, ic->rootfd, real) < 0 ? errno : 0;
	unlinkat(ic->rootfd, tmp, 0);
	return ret ? fail(ic, path, ret) : 0;
}

/* The binary: a hard link to /proc/self/exe, else a copy. */
static int make_binary(const struct install_ctx *ic, const char *path,
		       const char *tmp, const char *link_to)
{
	(void)path;
	(void)link_to;
	if (linkat(AT_FDCWD, "/proc/self/exe", ic->rootfd, tmp,
		   AT_SYMLINK_FOLLOW) == 0)
		return 0;
	return copy_self(ic->selffd, ic->rootfd, tmp);
}

/* A link (path: where it lands, resolve_dirs's): a relative symlink to
 * where link_to lands (-s), else a hard link to the installed binary. */
static int make_link(const struct install_ctx *ic, const char *path,
		     const char *tmp, const char *link_to)
{
	char target[4096], to[4096];
	int ret;

	if (!ic->symlinks)
		return linkat(ic->rootfd, FORKLESS_INSTALL_PATH, ic->rootfd,
			      tmp, 0) < 0 ? -errno : 0;
	if ((ret = resolve_dirs(ic->rootfd, link_to, to, sizeof(to))) < 0 ||
	    (ret = relative_link_target(path, to, target, sizeof(target))) < 0)
		return ret;
	return symlinkat(target, ic->rootfd, tmp) < 0 ? -errno : 0;
}

static int install_link(const char *path, const char *link_to, void *ctx)
{
	return replace_entry(ctx, path, link_to, make_link);
}

/* DIR, created when it is missing (mkdir -p; DIR itself 0755 whatever
 * the umask, like install -d): an fd, or -1 with errno set. */
static int open_root(const char *root)
{
	int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret;

	if (fd >= 0 || errno != ENOENT || !root[0])
		return fd;
	if ((ret = make_dirs(AT_FDCWD, root, 1)) < 0) {
		errno = -ret;
		return -1;
	}
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0)
		fchmod(fd, 0755);
	return fd;
}

/* Is the binary at DIR/usr/bin/forkless the one running? Asked of the
 * path we were executed by (AT_EXECFN), which needs no /proc. */
static int binary_in_place(const struct install_ctx *ic)
{
	const char *execfn = (const char *)getauxval(AT_EXECFN);
	struct sys_statx self, dst;

	return execfn &&
	       sys_statx(AT_FDCWD, execfn, 0, SYS_STATX_BASIC, &self) == 0 &&
	       sys_statx(ic->rootfd, FORKLESS_INSTALL_PATH, 0,
			 SYS_STATX_BASIC, &dst) == 0 &&
	       self.ino == dst.ino && self.dev_major == dst.dev_major &&
	       self.dev_minor == dst.dev_minor;
}

int forkless_install(int argc, char **argv)
{
	struct install_ctx ic = { .symlinks = 0 };
	struct optscan os;
	int c;

	optscan_init(&os, argc, argv, "s");
	while ((c = optscan_next(&os)) != -1) {
		if (c == 's')
			ic.symlinks = 1;
		else
			die_optscan(EXIT_USAGE, &os, c);
	}
	if (os.noperands != 1)
		die_usage(EXIT_USAGE, "usage: forkless --install [-s] DIR");
	ic.root = os.operands[0];
	ic.rootfd = open_root(ic.root);
	if (ic.rootfd < 0)
		die_msg(1, ic.root, ": ", errno_text(errno));
	ic.sep = ic.root[0] && ic.root[strlen(ic.root) - 1] == '/' ? "" : "/";
	if (binary_in_place(&ic))
		return for_each_install_link(install_link, &ic) ? 1 : 0;
	ic.selffd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (ic.selffd < 0)
		die_msg(1, ic.root, ic.sep, FORKLESS_INSTALL_PATH,
			": cannot copy the running binary from /proc/self/exe: ",
			errno_text(errno), " (is /proc mounted?)");
	if (replace_entry(&ic, FORKLESS_INSTALL_PATH, NULL, make_binary))
		return 1;
	return for_each_install_link(install_link, &ic) ? 1 : 0;
}
