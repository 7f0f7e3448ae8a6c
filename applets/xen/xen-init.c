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
//usage:
//usage:Exit status: 0 the name was printed; 1 FILE unreadable, not a
//usage:regular file, larger than 1 MiB, not valid for xl, or without a
//usage:name (unset, empty or a list; the message on stderr names FILE and
//usage:the line); 2 usage error.
//applet:XEN_INIT_LIST xen-init-list usr/lib/xen-common/bin/xen-init-list xen_init_list_main 0
//usage:Usage: xen-init-list
//usage:
//usage:Print "DOMID NAME" for every running domain but dom0, one a line
//usage:in domid order, as Debian's xen-init-list prints them from
//usage:`xl list -l`, read from xenstore (xenstored's socket, else
//usage:/dev/xen/xenbus). Nothing is executed; python3 and xl are not
//usage:needed. Names are printed as they are, control bytes included.
//usage:
//usage:Exit status: 0 the list was printed (no domU: nothing); 1 no
//usage:xenstore, no reply within 5 s, a broken reply, or stdout not
//usage:writable (a message on stderr, nothing on stdout); 2 usage error.

//config:config XEN_INIT_NAME
//config:	bool "xen-init-name: the domain name of an xl config file (~6 KiB; ~8.5 KiB alone)"
//config:	default y
//config:	help
//config:	  Debian's /usr/lib/xen-common/bin/xen-init-name, which xendomains
//config:	  runs for every file in /etc/xen/auto, without python3 and
//config:	  without running xl: the name as Xen 4.17's own parser reads
//config:	  the file, quirks included. Files up to 1 MiB. Costs about
//config:	  6 KiB of the static binary (8.5 KiB alone: with its libc
//config:	  parts).
//config:
//config:config XEN_INIT_LIST
//config:	bool "xen-init-list: the running domUs, from xenstore (~2.4 KiB; ~6 KiB alone)"
//config:	default y
//config:	select ERRNO_TEXTS_NET
//config:	help
//config:	  Debian's /usr/lib/xen-common/bin/xen-init-list, which
//config:	  xendomains stop runs four times, without python3 and without
//config:	  running xl: "DOMID NAME" lines read from xenstore over one
//config:	  connection, with a 5 s bound on the wait for xenstored.
//config:	  Costs about 6 KiB of the static binary alone, with the
//config:	  xenstore connection code and the network errno texts; ~2.4
//config:	  KiB where other applets bring those (the hotplug ones).
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

/* 4 MiB, mapped when the applet runs (static storage would be charged to
 * every forkless process, every xl call): a small file touches a few of
 * its pages. */
struct buffers {
	char text[XLCFG_TEXT_MAX + 1];   /* + 1: a longer file is seen */
	char name[XLCFG_TEXT_MAX + 1];   /* + the newline */
	struct xlcfg_keys keys;
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
static size_t read_config(const char *file, char *text)
{
	struct stat st;
	ssize_t n;
	int fd = openat(AT_FDCWD, file, O_RDONLY | O_CLOEXEC | O_NOCTTY |
			O_NONBLOCK);

	if (fd < 0)
		no_name(file, 0, errno_text(errno), "");
	if (fstat(fd, &st) < 0)
		no_name(file, 0, errno_text(errno), "");
	if (!S_ISREG(st.st_mode))
		no_name(file, 0, S_ISDIR(st.st_mode) ? "is a directory" :
			"not a regular file", " (xl reads only plain files)");
	n = read_fd_all(fd, text, XLCFG_TEXT_MAX + 1);
	if (n == -EFBIG)
		no_name(file, 0, "larger than 1 MiB (1048576 bytes), the "
			"limit of xen-init-name", "");
	if (n < 0)
		no_name(file, 0, errno_text((int)-n), "");
	close(fd);
	return (size_t)n;
}

int xen_init_name_main(int argc, char **argv)
{
	struct buffers *b;
	struct xlcfg_want want = { "name", NULL, XLCFG_TEXT_MAX, 0, 0, 0 };
	struct xlcfg_error err;
	const char *file;
	size_t len;

	if (argc != 2 || argv[1][0] == '\0')
		die_usage(EXIT_USAGE, argc < 2 ? "missing FILE" :
			  argc > 2 ? "one FILE only" : "FILE is empty");
	file = argv[1];
	b = mmap(NULL, sizeof(*b), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (b == MAP_FAILED)
		die_msg(EXIT_NO_NAME, "cannot map 4 MiB of buffers: ",
			errno_text(errno));
	want.value = b->name;
	len = read_config(file, b->text);
	if (xlcfg_parse(b->text, len, &b->keys, &want, &err) < 0) {
		char near[64];

		shown_input(near, sizeof(near), b->text + err.near, err.near_len);
		if (err.near_len == 0)
			no_name(file, err.line, err.what, " (at the end of the file)");
		char at[300];
		die_msg(EXIT_NO_NAME, where(at, sizeof(at), file, err.line),
			": ", err.what, " near '", near, "'");
	}
	if (want.type == XLCFG_UNSET)
		no_name(file, 0, "no name setting (xl: \"Domain name must be "
			"specified.\")", "");
	if (want.type == XLCFG_LIST)
		no_name(file, want.line, "name is a list, not a single value", "");
	if (want.value_len == 0)
		no_name(file, want.line, "name is empty", "");
	b->name[want.value_len] = '\n';
	return stdout_status(write_all(1, b->name, want.value_len + 1));
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

/* What a failed request means, as a message naming the device. */
static _Noreturn void xs_failed(const struct xs_conn *c, const char *what,
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

/* One READ: its length, or -ENOENT when the key is not there. */
static long read_key(struct xs_conn *c, const char *path, char *out,
		     size_t cap)
{
	long n = xs_read(c, 0, path, out, cap);

	if (n < 0 && n != -ENOENT)
		xs_failed(c, "READ", path, n);
	return n;
}

/* "/local/domain/ID/KEY" into path. */
static const char *domain_key(char *path, size_t cap, unsigned id,
			      const char *key)
{
	char num[8];
	size_t len = 0;

	num[fmt_u64_base(num, id, 10)] = '\0';
	path[0] = '\0';
	str_append(path, cap, &len, "/local/domain/", 14);
	str_append(path, cap, &len, num, strlen(num));
	str_append(path, cap, &len, "/", 1);
	str_append(path, cap, &len, key, strlen(key));
	return path;
}

/* Is domain id still known to xenstored (introduced, not dying)? */
static int introduced(struct xs_conn *c, unsigned id)
{
	char num[8], reply[8];
	struct xs_request rq = { XS_IS_DOMAIN_INTRODUCED, 0, num, NULL, 0 };
	long n;

	num[fmt_u64_base(num, id, 10)] = '\0';
	n = xs_request(c, &rq, reply, sizeof(reply));
	if (n < 0)
		xs_failed(c, "IS_DOMAIN_INTRODUCED", num, n);
	return n >= 1 && reply[0] == 'T';
}

/* The lines for every domU, in domid order: 12 + XS_PAYLOAD_MAX bytes
 * each at most, mapped (untouched pages cost nothing) so that they go
 * out in one write, or not at all when xenstore fails half-way. */
int xen_init_list_main(int argc, char **argv)
{
	struct xs_conn c;
	struct xen_domid_set set;
	char list[XS_PAYLOAD_MAX + 1], value[XS_PAYLOAD_MAX + 1], path[64];
	size_t count, len = 0, cap;
	char *out;
	long n;
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
	n = xs_directory(&c, 0, "/local/domain", list, sizeof(list));
	if (n == -ENOENT)
		n = 0;   /* no domain at all: nothing to list */
	if (n < 0)
		xs_failed(&c, "DIRECTORY", "/local/domain", n);
	count = xen_domids_of_directory(list, (size_t)n, &set);
	if (count == 0)
		return 0;
	cap = count * (12 + XS_PAYLOAD_MAX);
	out = mmap(NULL, cap, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (out == MAP_FAILED)
		die_msg(EXIT_NO_LIST, "cannot map the output buffer: ",
			errno_text(errno));
	for (unsigned id = xen_domid_next(&set, 1); id;
	     id = id < XEN_DOMID_LAST ? xen_domid_next(&set, id + 1) : 0) {
		if (!introduced(&c, id))
			continue;
		n = read_key(&c, domain_key(path, sizeof(path), id, "target"),
			     value, sizeof(value));
		if (n >= 0)
			continue;   /* a stub domain */
		n = read_key(&c, domain_key(path, sizeof(path), id, "name"),
			     value, sizeof(value));
		if (n < 0)
			continue;   /* no name (yet, or any more) */
		len += fmt_u64_base(out + len, id, 10);
		out[len++] = ' ';
		/* libxl reads the name as a C string: up to a NUL. */
		n = (long)strnlen(value, (size_t)n);
		memcpy(out + len, value, (size_t)n);
		len += (size_t)n;
		out[len++] = '\n';
	}
	xs_close(&c);
	return stdout_status(len ? write_all(1, out, len) : 0);
}
