// SPDX-License-Identifier: MIT
/* xen-init.c - Debian's xendomains helpers in /usr/lib/xen-common/bin,
 * without Python and without running xl: xen-init-name (the name in an
 * xl config file) and xen-init-list (the running domUs, from xenstore).
 *
 * xen-init-name FILE: Debian's script runs
 * `xen create --quiet --dryrun --defconfig FILE` (xl, which needs a
 * running hypervisor and libxl), parses the JSON it prints with python3
 * and prints c_info.name. xendomains calls it once per file in
 * /etc/xen/auto, as name=$(xen-init-name "$file" 2>/dev/null). Here FILE
 * is read as xl reads it (libxl_read_file_contents: a regular file, read
 * whole) and parsed as xl's parser does (xlcfg.c); the name is what
 * xlu_cfg_get_string(cfg, "name") returns. The success path is mmap,
 * openat, fstat, read, read (end of file), close, write: no fork, no
 * exec, no heap.
 *
 * FILE is read into a buffer of XLCFG_TEXT_MAX (1 MiB) + 1 bytes: a
 * bigger file is refused with a message that says so.
 *
 * xen-init-list: Debian's script runs `xen list -l` and prints
 * "DOMID NAME" for every domain but 0 in the JSON's order. xl builds
 * that list (xl_info.c list_domains_details) from the hypervisor's
 * domains in domid order, keeping those whose libxl configuration
 * (libxl_retrieve_domain_configuration) can be read, with the name from
 * xenstore's /local/domain/N/name. Here one xenstore connection answers
 * it all: DIRECTORY /local/domain, then per domain IS_DOMAIN_INTRODUCED
 * (xenstored drops a domain once the hypervisor reports it dying: a
 * stale /local/domain/N is left out, as xl leaves out a domain it cannot
 * find), READ name (none: left out) and READ target (a device-model stub
 * domain: left out, as xl has no libxl configuration for it). The lines
 * go out in one write. docs/xen.md's xen-init-list section lists where this
 * can differ from xl.
 */
//applet:XEN_INIT_NAME xen-init-name usr/lib/xen-common/bin/xen-init-name xen_init_name_main 0
//usage:Usage: xen-init-name FILE
//usage:
//usage:Print the domain name (the `name =` setting) of the xl domain
//usage:configuration FILE, as xl's own parser (Xen 4.17 libxlutil) reads
//usage:it: an error anywhere in FILE rejects it, as `xl create` does.
//usage:Nothing is executed; python3 and xl are not needed.
//exit:0 the name was printed
//exit:1 FILE unreadable, not a plain file, over 1 MiB, invalid for xl, nameless
//exit:2 usage error
//replaces:Debian's python3 script at the applet's path
//package:`forkless-xen` diverts Debian's file to `xen-init-name.distrib`
//messages:`xen-init-name: FILE:LINE: WHAT near 'TOKEN'` and the like on stderr, nothing on stdout; the cases in [xen.md](xen.md#messages)
//applet:XEN_INIT_LIST xen-init-list usr/lib/xen-common/bin/xen-init-list xen_init_list_main 0
//usage:Usage: xen-init-list
//usage:
//usage:Print "DOMID NAME" for every running domain but dom0, one a line
//usage:in domid order, as Debian's xen-init-list prints them from
//usage:`xl list -l`, read from xenstore (xenstored's socket, else
//usage:/dev/xen/xenbus). Nothing is executed; python3 and xl are not
//usage:needed. Names are printed as they are, control bytes included.
//exit:0 the list was printed (no domU: nothing)
//exit:1 no xenstore, no reply within 5 s, a broken reply, stdout not writable
//exit:2 usage error
//replaces:Debian's python3 script at the applet's path
//package:`forkless-xen` diverts Debian's file to `xen-init-list.distrib`
//messages:`xen-init-list: WHAT` on stderr, nothing on stdout; the cases in [xen.md](xen.md#messages-1)

//config:config XEN_INIT_NAME
//config:	bool "xen-init-name: the domain name of an xl config file (~1.3 KiB; ~8 KiB alone)"
//config:	default y
//config:	help
//config:	  Debian's /usr/lib/xen-common/bin/xen-init-name, which xendomains
//config:	  runs for every file in /etc/xen/auto, without python3 and
//config:	  without running xl: the name as Xen 4.17's own parser reads
//config:	  the file, quirks included. Files up to 1 MiB. Costs about
//config:	  8 KiB of the static binary alone (with its libc parts),
//config:	  ~1.3 KiB where xendomains brings the xl.cfg parser.
//config:
//config:config XEN_INIT_LIST
//config:	bool "xen-init-list: the running domUs, from xenstore (~1.2 KiB; ~6 KiB alone)"
//config:	default y
//config:	select ERRNO_TEXTS_NET
//config:	help
//config:	  Debian's /usr/lib/xen-common/bin/xen-init-list, which
//config:	  xendomains stop runs four times, without python3 and without
//config:	  running xl: "DOMID NAME" lines read from xenstore over one
//config:	  connection, with a 5 s bound on the wait for xenstored.
//config:	  Costs about 6 KiB of the static binary alone, with the
//config:	  xenstore connection code and the network errno texts; ~1.2
//config:	  KiB where other applets bring those (xendomains, which
//config:	  lists the domains the same way, and the hotplug ones).
//config:

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libcommon.h"
#include "xen-init.h"
#include "xenstore.h"
#include "xlcfg.h"

enum {
	EXIT_NO_NAME = 1,   /* unreadable, invalid, or no usable name */
	EXIT_NO_LIST = 1,   /* no xenstore, no or a broken reply */
	/* a usage error: libcommon.h's EXIT_USAGE, 2 */
};


/* "FILE" or "FILE:LINE", shown escaped, for the messages. */
static const char *where(char *out, size_t cap, const char *file,
			 unsigned line)
{
	char shown[256];
	size_t len = 0;

	shown_input(shown, sizeof(shown), file, strlen(file));
	out[0] = '\0';
	str_append(out, cap, &len, shown, strlen(shown));
	if (line) {
		char num[24];

		num[0] = ':';
		num[1 + fmt_u64_base(num + 1, line, 10)] = '\0';
		str_append(out, cap, &len, num, strlen(num));
	}
	return out;
}

static _Noreturn void no_name(const char *file, unsigned line,
			      const char *first, const char *second)
{
	char at[300];

	die_msg(EXIT_NO_NAME, where(at, sizeof(at), file, line), ": ", first,
		second);
}

/* xl's libxl_read_file_contents: a regular file, read whole. O_NONBLOCK:
 * a FIFO is refused instead of waiting for a writer (xl would block). */
static long read_config(const char *file, char *text, struct xen_name_error *e)
{
	struct stat st;
	ssize_t n;
	int fd = openat(AT_FDCWD, file, O_RDONLY | O_CLOEXEC | O_NOCTTY |
			O_NONBLOCK);

	e->more = "";
	if (fd < 0) {
		e->what = errno_text(errno);
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		e->what = errno_text(errno);
	} else if (!S_ISREG(st.st_mode)) {
		e->what = S_ISDIR(st.st_mode) ? "is a directory" :
			"not a regular file";
		e->more = " (xl reads only plain files)";
	} else {
		n = read_fd_all(fd, text, XLCFG_TEXT_MAX + 1);
		close(fd);
		if (n >= 0)
			return n;
		e->what = n == -EFBIG ? "larger than 1 MiB (1048576 bytes), "
			"the limit of xen-init-name" : errno_text((int)-n);
		return -1;
	}
	close(fd);
	return -1;
}

long xen_config_name(const char *file, struct xen_name_buffers *b,
		     struct xen_name_error *e)
{
	struct xlcfg_want want = { "name", NULL, XLCFG_TEXT_MAX, 0, 0, 0 };
	struct xlcfg_error err;
	long len;

	e->line = 0;
	e->near = 0;
	e->what = e->more = "";
	want.value = b->name;
	len = read_config(file, b->text, e);
	if (len < 0)
		return -1;
	if (xlcfg_parse(b->text, (size_t)len, &b->keys, &want, &err) < 0) {
		e->line = err.line;
		e->what = err.what;
		e->more = "";
		e->near = 1;
		e->near_at = err.near;
		e->near_len = err.near_len;
		return -1;
	}
	e->line = want.line;
	e->more = "";
	if (want.type == XLCFG_UNSET)
		e->what = "no name setting (xl: \"Domain name must be "
			"specified.\")";
	else if (want.type == XLCFG_LIST)
		e->what = "name is a list, not a single value";
	else if (want.value_len == 0)
		e->what = "name is empty";
	else
		return (long)want.value_len;
	if (want.type == XLCFG_UNSET)
		e->line = 0;
	return -1;
}

struct xen_name_buffers *xen_name_buffers_map(void)
{
	void *b = mmap(NULL, sizeof(struct xen_name_buffers),
		       PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return b == MAP_FAILED ? NULL : b;
}

int xen_init_name_main(int argc, char **argv)
{
	struct xen_name_buffers *b;
	struct xen_name_error e;
	const char *file;
	char at[300];
	long len;

	if (argc != 2 || argv[1][0] == '\0')
		die_usage(EXIT_USAGE, argc < 2 ? "missing FILE" :
			  argc > 2 ? "one FILE only" : "FILE is empty");
	file = argv[1];
	b = xen_name_buffers_map();
	if (!b)
		die_msg(EXIT_NO_NAME, "cannot map 4 MiB of buffers: ",
			errno_text(errno));
	len = xen_config_name(file, b, &e);
	if (len < 0 && e.near) {
		char near[64];

		shown_input(near, sizeof(near), b->text + e.near_at, e.near_len);
		if (e.near_len == 0)
			no_name(file, e.line, e.what, " (at the end of the file)");
		die_msg(EXIT_NO_NAME, where(at, sizeof(at), file, e.line),
			": ", e.what, " near '", near, "'");
	}
	if (len < 0)
		no_name(file, e.line, e.what, e.more);
	b->name[len] = '\n';
	return stdout_status(write_all(1, b->name, (size_t)len + 1));
}

/* ---- xen-init-list ------------------------------------------------------ */

#define XS_LIST_MS 5000   /* the whole run's wait for xenstored */

size_t xen_domids_of_directory(const char *list, size_t len,
			       struct xen_domid_set *set)
{
	size_t count = 0;

	memset(set, 0, sizeof(*set));
	for (size_t at = 0; at < len;) {
		const char *end = memchr(list + at, '\0', len - at);
		size_t n = end ? (size_t)(end - (list + at)) : len - at;
		const char *name = list + at;
		unsigned id = 0;
		size_t i;

		at += n + 1;
		/* 1 .. 5 digits, no leading zero: "0", "007", "1a" are not. */
		if (n == 0 || n > 5 || name[0] < '1' || name[0] > '9')
			continue;
		for (i = 0; i < n && name[i] >= '0' && name[i] <= '9'; i++)
			id = id * 10 + (unsigned)(name[i] - '0');
		if (i < n || id > XEN_DOMID_LAST)
			continue;
		if (!(set->bits[id / 64] & (UINT64_C(1) << (id % 64))))
			count++;
		set->bits[id / 64] |= UINT64_C(1) << (id % 64);
	}
	return count;
}

unsigned xen_domid_next(const struct xen_domid_set *set, unsigned from)
{
	for (unsigned id = from; id <= XEN_DOMID_LAST; id++) {
		uint64_t word = set->bits[id / 64] >> (id % 64);

		if (word & 1)
			return id;
		if (word == 0)   /* none left in this word */
			id |= 63;
	}
	return 0;
}

_Noreturn void xen_xs_die(const struct xs_conn *c, const char *what,
			  const char *path, long err)
{
	char shown[256];

	shown_input(shown, sizeof(shown), path, strlen(path));
	if (err == -ETIMEDOUT)
		die_msg(EXIT_NO_LIST, c->dev, ": no reply from xenstore within 5 s"
			" (is xenstored running?)");
	die_msg(EXIT_NO_LIST, c->dev, ": ", what, " ", shown, ": ",
		err == -EIO ? "broken reply from xenstore" : errno_text((int)-err));
}

/* "/local/domain/ID/KEY" into path. */
static const char *domain_key(char *path, size_t cap, unsigned id,
			      const char *key)
{
	char num[8];
	size_t len = 0;

	num[fmt_u64_base(num, id, 10)] = '\0';
	path[0] = '\0';
	str_append(path, cap, &len, LIT("/local/domain/"));
	str_append(path, cap, &len, num, strlen(num));
	str_append(path, cap, &len, LIT("/"));
	str_append(path, cap, &len, key, strlen(key));
	return path;
}

int xen_each_domu(struct xs_conn *c, xen_domu_fn *fn, void *ctx,
		  const char **what, char *path)
{
	struct xen_domid_set set;
	char list[XS_PAYLOAD_MAX + 1], value[XS_PAYLOAD_MAX + 1], num[8];
	struct xs_request rq = { XS_IS_DOMAIN_INTRODUCED, 0, num, NULL, 0 };
	long n;
	int ret;

	*what = "DIRECTORY";
	memcpy(path, "/local/domain", sizeof("/local/domain"));
	n = xs_directory(c, 0, "/local/domain", list, sizeof(list));
	if (n == -ENOENT)
		n = 0;   /* no domain at all: nothing to list */
	if (n < 0)
		return (int)n;
	if (xen_domids_of_directory(list, (size_t)n, &set) == 0)
		return 0;
	for (unsigned id = xen_domid_next(&set, 1); id;
	     id = id < XEN_DOMID_LAST ? xen_domid_next(&set, id + 1) : 0) {
		/* still known to xenstored (introduced, not dying)? */
		num[fmt_u64_base(num, id, 10)] = '\0';
		*what = "IS_DOMAIN_INTRODUCED";
		memcpy(path, num, sizeof(num));
		n = xs_request(c, &rq, value, sizeof(value));
		if (n < 0)
			return (int)n;
		if (n < 1 || value[0] != 'T')
			continue;
		*what = "READ";
		n = xs_read(c, 0, domain_key(path, 64, id, "target"), value,
			    sizeof(value));
		if (n >= 0)
			continue;   /* a stub domain */
		if (n != -ENOENT)
			return (int)n;
		n = xs_read(c, 0, domain_key(path, 64, id, "name"), value,
			    sizeof(value));
		if (n == -ENOENT)
			continue;   /* no name (yet, or any more) */
		if (n < 0)
			return (int)n;
		/* libxl reads the name as a C string: up to a NUL. */
		ret = fn(ctx, id, value, strnlen(value, (size_t)n));
		if (ret)
			return ret;
	}
	return 0;
}

struct list_out {
	char *out;
	size_t len;
};

static int list_line(void *ctx, unsigned id, const char *name, size_t len)
{
	struct list_out *o = ctx;

	if (!o->out) {   /* the first domU: the buffer, for them all */
		o->out = mmap(NULL, (size_t)XEN_DOMID_LAST * (12 + XS_PAYLOAD_MAX),
			      PROT_READ | PROT_WRITE, MAP_PRIVATE |
			      MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (o->out == MAP_FAILED)
			die_msg(EXIT_NO_LIST, "cannot map the output buffer: ",
				errno_text(errno));
	}
	o->len += fmt_u64_base(o->out + o->len, id, 10);
	o->out[o->len++] = ' ';
	memcpy(o->out + o->len, name, len);
	o->len += len;
	o->out[o->len++] = '\n';
	return 0;
}

/* The lines for every domU, in domid order: 12 + XS_PAYLOAD_MAX bytes
 * each at most, mapped (untouched pages cost nothing) so that they go
 * out in one write, or not at all when xenstore fails half-way. At most
 * XEN_DOMID_LAST domUs: 134 MB of address space, reserved by nothing and
 * mapped only once there is a domU to list. */
int xen_init_list_main(int argc, char **argv)
{
	struct xs_conn c;
	struct list_out o = { NULL, 0 };
	const char *what;
	char path[64];
	int ret;

	(void)argv;
	if (argc > 1)
		die_usage(EXIT_USAGE, "takes no arguments");
	ret = xs_open(&c, clock_ms() + XS_LIST_MS);
	if (ret == -ENODEV)
		die_msg(EXIT_NO_LIST, "no xenstore: no xenstored on " XS_SOCKET
			" and no " XS_DEV " (not a Xen dom0, or xenstored not"
			" started)");
	if (ret < 0)
		die_msg(EXIT_NO_LIST, c.dev, ": ", errno_text(-ret));
	ret = xen_each_domu(&c, list_line, &o, &what, path);
	if (ret < 0)
		xen_xs_die(&c, what, path, ret);
	xs_close(&c);
	return stdout_status(o.len ? write_all(1, o.out, o.len) : 0);
}
