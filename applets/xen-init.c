/* xen-init.c - Debian's xendomains helpers in /usr/lib/xen-common/bin,
 * without Python and without running xl. xen-init-name is here; its
 * sibling xen-init-list (the running domains, from xenstore) belongs here
 * too.
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

//config:config XEN_INIT_NAME
//config:	bool "xen-init-name: the domain name of an xl config file (~7 KiB)"
//config:	default y
//config:	help
//config:	  Debian's /usr/lib/xen-common/bin/xen-init-name, which xendomains
//config:	  runs for every file in /etc/xen/auto, without python3 and
//config:	  without running xl: the name as Xen 4.17's own parser reads
//config:	  the file, quirks included. Files up to 1 MiB. Costs about
//config:	  7 KiB of the static binary (8 KiB alone: with its libc parts).
//config:

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libcommon.h"
#include "xlcfg.h"

enum {
	EXIT_NO_NAME = 1,   /* unreadable, invalid, or no usable name */
	EXIT_USAGE = 2,
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
		die_msg(EXIT_USAGE, argc < 2 ? "missing FILE" :
			argc > 2 ? "one FILE only" : "FILE is empty",
			" (see --help)");
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
