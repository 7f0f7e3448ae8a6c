// SPDX-License-Identifier: MIT
/* mount-shared.c - mount-shared and mount.shared: find a share by its tag
 * (virtiofs and virtio 9p tags in sysfs, Xen 9pfs tags in xenstore,
 * VirtualBox shared folders by name) and mount it as mount.TYPE would
 * (mount_run(), in mount.c).
 *
 * shared_main() scans argv, then polls for_each_share() (the walk,
 * mount-shared-walk.c) every 100 ms until TAG is seen or the wait (-w or
 * -o wait=SECONDS) has passed (a clock deadline, not a count of polls: a
 * slow walk does not stretch the wait). Each xenstore walk has its own reply deadline of 1 s; a xenstore
 * that does not answer is reported once and not asked again, so the whole
 * run is bounded by the wait plus one reply timeout.
 *
 * mount.shared is the same walk as a mount(8) helper: filesystem type
 * "shared" (`mount -t shared TAG DIR`, an fstab line `TAG DIR shared
 * nofail,wait=10 0 0`), called as /sbin/mount.shared TAG DIR [-sfnvrw]
 * [-N NS] [-o OPTS] [-t shared.SUBTYPE]. mount(8) never passes x-* options
 * to helpers, so the wait is an option of its own, wait=SECONDS, taken out
 * of the options before they are parsed (the kernel never sees it); -t
 * shared.9p|virtiofs|vboxsf (fstab type shared.9p) restricts the kinds.
 */
//config:config MOUNT_SHARED
//config:	bool "mount-shared: mount a share by its tag (~0.8 KiB; ~19 KiB alone)"
//config:	default y
//config:	help
//config:	  Finds TAG among virtiofs and virtio-9p tags (sysfs), Xen 9pfs
//config:	  tags (xenstore) and, in a VirtualBox guest, vboxsf shares, waits
//config:	  for it at boot (-w), and mounts it with the logic of whichever
//config:	  mount.TYPE helpers are enabled. -l lists the tags. Next to
//config:	  the three helpers and mount.shared (the same code) ~0.8 KiB;
//config:	  alone ~19 KiB.
//config:
//config:config MOUNT_SHARED_TYPE
//config:	bool "mount.shared: filesystem type shared for fstab (~0.75 KiB; ~19 KiB alone)"
//config:	default y
//config:	help
//config:	  /sbin/mount.shared: mount-shared as a mount(8) helper, so that
//config:	  `mount -t shared TAG DIR` and an fstab line
//config:	  `TAG DIR shared nofail,wait=10 0 0` find TAG, wait for it
//config:	  (wait=SECONDS, never passed to the kernel; mount(8) does not
//config:	  pass x-* options to helpers) and mount it as 9p, virtiofs or
//config:	  vboxsf. fstab type shared.9p (-t shared.TYPE) restricts the
//config:	  kinds. Next to mount-shared ~0.6 KiB (the same code), its
//config:	  --help text ~0.6 KiB more with FORKLESS_HELP; alone,
//config:	  as much as mount-shared alone.
//config:
//applet:MOUNT_SHARED mount-shared usr/bin/mount-shared mount_shared_main OWN_HELP
//usage:Usage: mount-shared [-sfnvh] [-t TYPE] [-o OPTS] [-w SECONDS] [-N NS] TAG DIR
//usage:       mount-shared -l
//usage:Find share TAG (virtiofs, virtio 9p, Xen 9pfs, VirtualBox) and mount it
//usage:on DIR as mount.TYPE would.
//usage:  -l          list the tags found: TAG TYPE WHERE
//usage:  -t TYPE     only 9p, virtiofs or vboxsf (Xen: -t 9p -o trans=xen)
//usage:  -o OPTS     options of that type (see mount.TYPE --help), and
//usage:              wait=SECONDS (as -w; never passed to the kernel)
//usage:  -w SECONDS  wait for TAG to appear (default 5, 0: no wait)
//usage:  -s -f -v -n -N   as for mount.vboxsf
//exit:0 mounted (with -f: would have mounted)
//exit:1 usage or bad option
//exit:2 system error
//exit:32 mount failure, or TAG not found (the tags present are listed)
//replaces:boot scripts that probe each shared-folder type and retry
//messages:`HELPER: WHAT: WHY` on stderr, naming the option or path; `-v` prints the mount(2) call. Details: [mount.md](mount.md)
//applet:MOUNT_SHARED_TYPE mount.shared usr/sbin/mount.shared mount_dot_shared_main OWN_HELP
//usage:Usage: mount.shared TAG DIR [-sfnvrwh] [-o OPTS] [-t shared.TYPE] [-N NS]
//usage:Filesystem type "shared" for mount(8) and fstab: mount-shared's search
//usage:for TAG (virtiofs, virtio 9p, Xen 9pfs, VirtualBox), then the mount.
//usage:  -o OPTS  options of the type found (see mount.TYPE --help), and
//usage:           wait=SECONDS  wait for TAG to appear (default 5, 0: no
//usage:           wait), never passed to the kernel
//usage:  -t shared.TYPE  only 9p, virtiofs or vboxsf (fstab type shared.9p)
//usage:  -s -f -v -n -r -w -N -h  as for mount.vboxsf
//exit:0 mounted (with -f: would have mounted)
//exit:1 usage or bad option
//exit:2 system error
//exit:32 mount failure, or TAG not found (the tags present are listed)
//replaces:fstab lines tied to one shared-folder type
//messages:`HELPER: WHAT: WHY` on stderr, naming the option or path; `-v` prints the mount(2) call. Details: [mount.md](mount.md)

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mount.h"
#include "mount-shared.h"
#include "sys.h"

/* TYPE and WHERE of each kind in -l lines, and its name in messages. */
static const char kind_text[][18] = {
	[SHARE_VIRTIOFS] = "virtiofs\tvirtiofs",
	[SHARE_9P_VIRTIO] = "9p\tvirtio",
	[SHARE_9P_XEN] = "9p\txen",
	[SHARE_VBOXSF] = "vboxsf\tvirtualbox",
};
static const char kind_name[][11] = {
	[SHARE_VIRTIOFS] = "virtiofs",
	[SHARE_9P_VIRTIO] = "9p",
	[SHARE_9P_XEN] = "Xen 9pfs",
	[SHARE_VBOXSF] = "VirtualBox",
};

/* s escaped as mountinfo is (tags and device names are below
 * SHARE_TAG_MAX bytes) at line + n; returns the new length. */
static size_t put_escaped(char *line, size_t n, const char *s)
{
	size_t need = escape_octal(line + n, 4 * SHARE_TAG_MAX + 1, s,
				   strlen(s), 1);

	return n + (need > 4 * SHARE_TAG_MAX ? 4 * SHARE_TAG_MAX : need);
}

/* TAG<tab>TYPE<tab>WHERE:DEV and a newline into line (LINE_MAX_LEN
 * bytes); returns its length. */
#define LINE_MAX_LEN (2 * 4 * SHARE_TAG_MAX + 32)
static size_t share_line(char *line, enum share_kind kind, const char *tag,
			 const char *dev)
{
	size_t n = put_escaped(line, 0, tag);

	line[n++] = '\t';
	memcpy(line + n, kind_text[kind], strlen(kind_text[kind]));
	n += strlen(kind_text[kind]);
	line[n++] = ':';
	n = put_escaped(line, n, dev);
	line[n++] = '\n';
	return n;
}

/* The lines of the last walk, for the message when TAG is not found (a
 * second walk would cost a second xenstore wait). */
struct seen {
	char buf[4096];
	size_t len;
	unsigned more;             /* lines that did not fit */
};

struct find {
	const char *tag;
	int found;                 /* kind + 1 */
	struct outbuf *list;       /* -l */
	struct seen *seen;         /* or the lines for a message */
	unsigned count;
};

static int on_share(void *ctx, enum share_kind kind, const char *tag,
		    const char *dev)
{
	char line[LINE_MAX_LEN];
	struct find *f = ctx;
	size_t n;

	f->count++;
	if (f->tag && strcmp(f->tag, tag) == 0) {
		f->found = (int)kind + 1;
		return 1;
	}
	if (!f->list && !f->seen)
		return 0;
	n = share_line(line, kind, tag, dev);
	if (f->list) {
		outbuf_put(f->list, line, n);
	} else if (f->seen->len + n <= sizeof(f->seen->buf)) {
		memcpy(f->seen->buf + f->seen->len, line, n);
		f->seen->len += n;
	} else {
		f->seen->more++;
	}
	return 0;
}

static const struct mopt_fs *fs_of_kind(enum share_kind kind)
{
	if (kind == SHARE_VIRTIOFS)
		return ENABLE_MOUNT_VIRTIOFS ? &mopt_fs_virtiofs : NULL;
	if (kind == SHARE_VBOXSF)
		return ENABLE_MOUNT_VBOXSF ? &mopt_fs_vboxsf : NULL;
	return ENABLE_MOUNT_9P ? &mopt_fs_9p : NULL;
}

/* The kinds to look at: all enabled, or those of -t (and trans=xen). */
static unsigned wanted_kinds(const struct helper *h, const char *type)
{
	unsigned all = 0;
	int xen = 0;
	char buf[SHOWN_MAX];

	/* The last trans= of the -o options (the engine's rules; a quote
	 * left open is refused when the options are parsed). */
	for (unsigned i = 0; i < h->nopts; i++)
		for (const char *p = h->opts[i]; *p;) {
			int open_quote;
			size_t n = mopt_option_len(p, strlen(p), &open_quote);

			if (n > 6 && memcmp(p, LIT("trans=")) == 0)
				xen = n == 9 && memcmp(p + 6, LIT("xen")) == 0;
			p += n + (p[n] == ',');
		}
	if (ENABLE_MOUNT_VIRTIOFS)
		all |= KIND(SHARE_VIRTIOFS);
	if (ENABLE_MOUNT_9P)
		all |= xen ? KIND(SHARE_9P_XEN)
			   : KIND(SHARE_9P_VIRTIO) | KIND(SHARE_9P_XEN);
	if (ENABLE_MOUNT_VBOXSF)
		all |= KIND(SHARE_VBOXSF);
	if (!type)
		return all;
	if (strcmp(type, "9p") == 0)
		return all & (KIND(SHARE_9P_VIRTIO) | KIND(SHARE_9P_XEN));
	if (strcmp(type, "virtiofs") == 0)
		return all & KIND(SHARE_VIRTIOFS);
	if (strcmp(type, "vboxsf") == 0)
		return all & KIND(SHARE_VBOXSF);
	die_usage(MNT_EX_USAGE, "-t ", shown_input(buf, sizeof(buf), type,
		  strlen(type)), ": not a type mount-shared handles (9p, "
		  "virtiofs, vboxsf, as configured in)");
}

/* The lines for shares no walk lists: virtio-fs devices without a
 * visible tag, a VirtualBox guest. */
static void put_unlisted(unsigned kinds, struct outbuf *ob)
{
	int untagged = (kinds & KIND(SHARE_VIRTIOFS)) ?
		count_untagged_virtiofs() : 0;

	if (untagged) {
		outbuf_puts(ob, "?\tvirtiofs\tvirtiofs:");
		outbuf_put_num(ob, (uint64_t)untagged, 10);
		outbuf_puts(ob, " device(s), tags not shown by this kernel "
			    "(< 6.9)\n");
	}
	if (kinds & KIND(SHARE_VBOXSF) && in_virtualbox())
		outbuf_puts(ob, "*\tvboxsf\tvirtualbox:shared folder names "
			    "are not listed; any name is tried\n");
}

/* "9p, virtiofs or Xen 9pfs": the kinds looked for, for a message. */
static void put_kind_names(struct outbuf *ob, unsigned kinds)
{
	static const uint8_t order[] = {
		SHARE_9P_VIRTIO, SHARE_VIRTIOFS, SHARE_9P_XEN, SHARE_VBOXSF
	};
	unsigned left = 0;

	for (unsigned k = kinds; k; k &= k - 1)
		left++;
	for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
		if (!(kinds & KIND(order[i])))
			continue;
		outbuf_puts(ob, kind_name[order[i]]);
		left--;
		outbuf_puts(ob, left > 1 ? ", " : left == 1 ? " or " : "");
	}
}

/* Sleep ms (< 1000), with sys.h's nanosleep. */
static void sleep_ms(uint64_t ms)
{
	struct timespec ts = { 0, (long)ms * 1000000L };

	while (sys_nanosleep(&ts, &ts) == -EINTR)
		;
}

#define WAIT_MAX 86400

/* A number of seconds for -w or wait= (len bytes at v), or exit 1. */
static uint64_t parse_wait(const char *what, const char *v, size_t len)
{
	uint64_t s;
	char buf[SHOWN_MAX];

	if (len == 0)
		die_usage(MNT_EX_USAGE, what, " wants a number of seconds "
			  "(0..86400), not an empty value");
	if (parse_u64_base(v, len, 10, &s) < 0 || s > WAIT_MAX)
		die_usage(MNT_EX_USAGE, what, " wants a number of seconds "
			  "(0..86400), not ", shown_input(buf, sizeof(buf), v,
			  len));
	return s;
}

/* Take each wait=SECONDS out of one -o string (argv's, edited in place,
 * so that mount_run() never sees it); the last one sets *wait_s. */
static void take_wait(char *opts, uint64_t *wait_s)
{
	char *p = opts;

	while (*p) {
		int open_quote;
		size_t n = mopt_option_len(p, strlen(p), &open_quote);
		size_t skip = n + (p[n] == ',');

		if (LIT_STARTS(p, n, "wait=")) {
			*wait_s = parse_wait("wait=", p + 5, n - 5);
			memmove(p, p + skip, strlen(p + skip) + 1);
		} else {
			p += skip;
		}
	}
}

/* -l: a line for each tag found, and for the shares no walk lists. */
static int list_shares(unsigned kinds, int noperands)
{
	struct xen_state xs = { 0 };
	struct outbuf ob;
	struct find f;

	if (noperands != 0)
		die_usage(MNT_EX_USAGE, "-l takes no operands");
	memset(&f, 0, sizeof(f));
	f.list = &ob;
	outbuf_init(&ob, 1);
	for_each_share(kinds, &xs, on_share, &f);
	put_unlisted(kinds, &ob);
	mount_check_output(outbuf_flush(&ob));
	return MNT_EX_SUCCESS;
}

/* TAG not found: the message lists the tags of the kinds looked for that
 * do exist (f, seen: what the last, complete, walk saw), or names those
 * kinds. */
static int not_found(const struct helper *h, unsigned kinds, uint64_t wait_s,
		     const struct find *f, const struct seen *seen)
{
	struct outbuf ob;
	char buf[SHOWN_MAX];

	outbuf_init(&ob, 2);
	outbuf_puts(&ob, applet_name);
	outbuf_puts(&ob, ": no share with tag '");
	outbuf_puts(&ob, shown_input(buf, sizeof(buf), h->source,
				     strlen(h->source)));
	outbuf_puts(&ob, "' found");
	if (wait_s) {
		outbuf_puts(&ob, " after waiting ");
		outbuf_put_num(&ob, wait_s, 10);
		outbuf_puts(&ob, " s");
	}
	if (f->count == 0 && !(kinds & KIND(SHARE_VIRTIOFS) &&
			       count_untagged_virtiofs())) {
		outbuf_puts(&ob, "; no ");
		put_kind_names(&ob, kinds);
		outbuf_puts(&ob, " share is visible (are the modules "
			    "loaded?)\n");
	} else {
		outbuf_puts(&ob, "; the tags present are (TAG TYPE WHERE):\n");
		outbuf_put(&ob, seen->buf, seen->len);
		if (seen->more) {
			outbuf_puts(&ob, "... and ");
			outbuf_put_num(&ob, seen->more, 10);
			outbuf_puts(&ob, " more (mount-shared -l lists them)\n");
		}
		put_unlisted(kinds, &ob);
	}
	outbuf_flush(&ob);
	return MNT_EX_FAIL;
}

/* TAG (h->source) found and mounted, waiting up to wait_s for it: the
 * status of the mount, or not_found's.
 * Poll every 100 ms until the deadline: at boot the device may not be
 * probed yet. The shares no walk lists are tried by name as soon as
 * their device is there, not after the wait: VirtualBox shared folders
 * (the guest device is enumerated before userspace runs, so it is looked
 * for once) and virtio-fs devices whose tags the kernel does not show
 * (before 6.9; tried again when another appears). */
static int find_and_mount(struct helper *h, unsigned kinds, uint64_t wait_s)
{
	static struct seen seen;
	struct xen_state xs = { 0 };
	struct find f;
	uint64_t deadline = clock_ms() + wait_s * 1000;
	int vbox = -1, tried = 0;   /* tried: untagged virtio-fs */

	for (;;) {
		int untagged;
		uint64_t now;

		memset(&f, 0, sizeof(f));
		f.tag = h->source;
		f.seen = &seen;
		seen.len = 0;
		seen.more = 0;
		for_each_share(kinds, &xs, on_share, &f);
		if (f.found)
			break;
		if (ENABLE_MOUNT_VIRTIOFS && kinds & KIND(SHARE_VIRTIOFS) &&
		    (untagged = count_untagged_virtiofs()) > tried) {
			tried = untagged;
			h->fs = &mopt_fs_virtiofs;
			if (mount_run(h, 1) == MNT_EX_SUCCESS)
				return MNT_EX_SUCCESS;
		}
		if (vbox < 0)
			vbox = ENABLE_MOUNT_VBOXSF &&
			       kinds & KIND(SHARE_VBOXSF) && in_virtualbox();
		now = clock_ms();
		if (vbox || now >= deadline)
			break;
		sleep_ms(deadline - now < 100 ? deadline - now : 100);
	}
	if (f.found) {
		h->fs = fs_of_kind((enum share_kind)(f.found - 1));
		if (f.found - 1 == SHARE_9P_XEN)
			h->opts[h->nopts++] = "trans=xen";   /* its slot is free */
		return mount_run(h, 0);
	}
	if (vbox) {
		h->fs = &mopt_fs_vboxsf;
		return mount_run(h, 0);
	}
	return not_found(h, kinds, wait_s, &f, &seen);
}

/* mount-shared (helper 0) and mount.shared (helper 1). */
static int shared_main(int argc, char **argv, int helper)
{
	struct helper h;
	const char *type = NULL;
	uint64_t wait_s = 5;
	unsigned kinds;
	int c, list = 0;
	struct optscan os;

	memset(&h, 0, sizeof(h));
	optscan_init(&os, argc, argv, helper ? "sfnvrwhN:o:t:"
				       : "sfnvhlN:o:t:w:");
	while ((c = optscan_next(&os)) != -1) {
		if (c == 'l') {
			list = 1;
		} else if (c == 't') {
			type = os.value;
		} else if (c == 'w' && !helper) {
			wait_s = parse_wait("-w", os.value, strlen(os.value));
		} else if (c == 'r' || c == 'w') {   /* mount.shared -r, -w */
			h.ro = c == 'r';
			h.rw = c == 'w';
		} else {
			if (c == 'o')   /* argv's: writable */
				take_wait((char *)os.value, &wait_s);
			mount_common_option(&h, &os, c);
		}
	}
	/* mount(8) passes -t TYPE.SUBTYPE for an fstab type shared.9p */
	if (helper && type && strncmp(type, LIT("shared")) == 0 &&
	    (type[6] == '\0' || type[6] == '.'))
		type = type[6] ? type + 7 : NULL;
	if (h.ns)
		mount_enter_ns(h.ns);
	kinds = wanted_kinds(&h, type);
	if (list)
		return list_shares(kinds, os.noperands);
	mount_take_operands(&h, os.noperands, argv, "TAG");
	return find_and_mount(&h, kinds, wait_s);
}

int mount_shared_main(int argc, char **argv)
{
	return shared_main(argc, argv, 0);
}

int mount_dot_shared_main(int argc, char **argv)
{
	return shared_main(argc, argv, 1);
}
