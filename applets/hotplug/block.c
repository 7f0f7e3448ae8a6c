// SPDX-License-Identifier: MIT
/* block.c - /etc/xen/scripts/block: Debian 4.17's block (with
 * block-common.sh) for phy: and file: disks, in one process.
 *
 * block_main() reads params, mode; add: a device already known
 * (physical-device set) exits 0; phy_add() checks the device and shares
 * it (check_sharing, block-share.c: dom0's mounts by
 * /proc/self/mountinfo, then every backend's physical-device and mode in
 * one xenstore walk on one connection, where the script runs a
 * xenstore-list per domain and a xenstore-read per disk); file_add()
 * checks state == 2, a read-only file for w, the file's loop devices in
 * use, then attaches it (loopdev.c) and writes node,
 * physical-device(-path) and hotplug-status as the script's four writes
 * (hp_write_each_or_die). remove
 * detaches a file: disk's loop device, once it is sure it is the one
 * the add attached. The sharing check and the loop setup run under the
 * "block" lock, the scripts' own. No name is looked up after the lock
 * wait: phy: publishes the device number it stat()ed before it, file:
 * attaches the file it resolved before it (held by an O_PATH fd).
 *
 * Params that are neither a block device nor a file (other disk types
 * the script passes to block-TYPE) and hooks in block-*.d go to the
 * diverted block.distrib.
 */
//config:config HOTPLUG_BLOCK
//config:	bool "block: phy: and file: disks, loop devices (~15 KiB; ~30.6 KiB alone)"
//config:	default y
//config:	select ERRNO_TEXTS_NET
//config:	help
//config:	  /etc/xen/scripts/block as Debian 4.17's script, in one
//config:	  process instead of 27-150: the sharing check in one
//config:	  xenstore walk, loop devices by LOOP_CONFIGURE, the
//config:	  block lock shared with the scripts. Other disk types run
//config:	  the diverted block.distrib.
//config:
//applet:HOTPLUG_BLOCK block etc/xen/scripts/block block_main 0
//usage:Usage: block add|remove
//usage:Xen hotplug script (libxl runs it) for phy: and file: disks, as
//usage:Debian's block: sharing checks, loop devices, physical-device.
//usage:Environment: XENBUS_PATH, XENBUS_TYPE, XENBUS_BASE_PATH. Other disk
//usage:types and block-*.d hooks run /etc/xen/scripts/block.distrib.
//exit:0 done (also: nothing to do for this call)
//exit:1 failed: hotplug-error and hotplug-status written, as Debian's
//exit:other the .distrib script's own, when the call is handed over
//exit-untested:other exec'd: the status is Debian's script's, not the applet's
//replaces:Debian's bash script at the applet's path (`xen-utils-common`, Debian 12 or 13)
//package:`forkless-xen` diverts Debian's script to `/etc/xen/scripts/block.distrib` and puts the applet at its path
//messages:Debian's script's, word for word: the same lines in `/var/log/xen/xen-hotplug.log` and syslog, the same `hotplug-error` in xenstore; a hand-over says `PATH handing over to PATH.distrib: WHY`. Details: [hotplug.md](hotplug.md)
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "block.h"
#include "loopdev.h"

/* The file a file: disk's add attached, recorded in its backend for the
 * remove: "MAJ:MIN:INO" of the file's st_dev and st_ino, decimal (as
 * losetup's BACK-MAJ:MIN and BACK-INO). Not a key of libxl's, blkback's
 * or the scripts' (docs/hotplug.md). */
#define BACKING_KEY "forkless-backing"
#define BACKING_MAX (3 * FMT_U64_MAX)

/* BACKING_KEY's value for the file dev, ino into out (BACKING_MAX). */
static void backing_id(char *out, dev_t dev, ino_t ino)
{
	size_t len = fmt_u64_base(out, major(dev), 10);

	out[len++] = ':';
	len += fmt_u64_base(out + len, minor(dev), 10);
	out[len++] = ':';
	len += fmt_u64_base(out + len, (uint64_t)ino, 10);
	out[len] = '\0';
}

/* ... and back: 0, or -EINVAL for anything but MAJ:MIN:INO. */
static int parse_backing(const char *s, dev_t *dev, uint64_t *ino)
{
	const char *c1 = strchr(s, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	uint64_t ma, mi;

	if (!c2 || parse_u64_base(s, (size_t)(c1 - s), 10, &ma) < 0 ||
	    parse_u64_base(c1 + 1, (size_t)(c2 - c1 - 1), 10, &mi) < 0 ||
	    parse_u64_base(c2 + 1, strlen(c2 + 1), 10, ino) < 0 ||
	    ma > 0xfff || mi > 0xfffff)
		return -EINVAL;
	*dev = makedev((unsigned)ma, (unsigned)mi);
	return 0;
}

static void devmm_add(struct hotplug *h, struct block *b, const char *d)
{
	size_t len = strlen(b->devmm);

	if (str_append(b->devmm, sizeof(b->devmm), &len, d, strlen(d)) < 0 ||
	    str_append(b->devmm, sizeof(b->devmm), &len, LIT(",")) < 0)
		hp_fatal(h, "too many loop devices for this file");
}
/* ---- writing the result ------------------------------------------------- */

/* write_dev (with the node for a file): physical-device and its path,
 * then success: the script's separate writes (hp_write_each_or_die).
 * physical-device is rdev, the device the call checked: the script
 * stats dev by name again here, and so publishes whatever the name
 * points to by then. A file's add also records the file it attached,
 * back (BACKING_KEY, in the same batch: file_remove). */
static void write_dev(struct block *b, const char *dev, dev_t rdev,
		      const char *node, const char *back)
{
	struct hotplug *h = &b->h;
	char mm[24], path[HP_PATH_MAX];

	block_major_minor(mm, rdev);
	if (node) {
		hp_path(h, path, "node");
		hp_log(h, HP_DEBUG, "Writing ", path, " ", node, " to xenstore.");
	}
	hp_path(h, path, "physical-device");
	hp_log(h, HP_DEBUG, "Writing ", path, " ", mm, " to xenstore.");
	hp_path(h, path, "physical-device-path");
	hp_log(h, HP_DEBUG, "Writing ", path, " ", dev, " to xenstore.");
	hp_path(h, path, "hotplug-status");
	hp_log(h, HP_DEBUG, "Writing ", path, " connected to xenstore.");
	if (node)
		hp_write_each_or_die(h, "node", node, BACKING_KEY, back,
				     "physical-device", mm,
				     "physical-device-path", dev,
				     "hotplug-status", "connected");
	else
		hp_write_each_or_die(h, "physical-device", mm,
				     "physical-device-path", dev,
				     "hotplug-status", "connected");
}

/* ---- add ---------------------------------------------------------------- */

static void phy_add(struct block *b, const char *p, const char *mode)
{
	struct hotplug *h = &b->h;
	char dev[PATH_MAX], real[PATH_MAX], found[HP_PATH_MAX], prefix[PATH_MAX + 32];
	struct stat st;
	size_t len = 0;
	int res;

	/* expand_dev: a relative name is below /dev */
	dev[0] = '\0';
	if ((p[0] != '/' && str_append(dev, sizeof(dev), &len, LIT("/dev/")) < 0) ||
	    str_append(dev, sizeof(dev), &len, p, strlen(p)) < 0)
		hp_fatal(h, p, " does not exist.");
	if (lstat(dev, &st) == 0 && S_ISLNK(st.st_mode)) {
		if (hp_realpath(dev, real, sizeof(real)) < 0)
			hp_fatal(h, dev, " link does not exist.");
		memcpy(dev, real, strlen(real) + 1);
	}
	/* The device's one stat, where the script tests -e and -b: its
	 * number is the one checked for sharing and published, whatever
	 * the name points to after the lock wait (docs/hotplug.md) */
	if (stat(dev, &st) < 0)
		hp_fatal(h, dev, " does not exist.");
	if (!S_ISBLK(st.st_mode))
		hp_fatal(h, dev, " is not a block device.");
	hp_lock(h, "block");
	b->mode = block_canonical_mode(mode);
	if (b->mode != '!') {
		char mm[24];

		block_major_minor(mm, st.st_rdev);
		b->devmm[0] = ',';
		b->devmm[1] = '\0';
		devmm_add(h, b, mm);
		res = block_check_sharing(b, found);
		if (res) {
			len = 0;
			prefix[0] = '\0';
			str_append(prefix, sizeof(prefix), &len, LIT("Device "));
			str_append(prefix, sizeof(prefix), &len, dev, strlen(dev));
			str_append(prefix, sizeof(prefix), &len, LIT(" is mounted "));
			block_sharing_busy(b, prefix, res == 2);
		}
	}
	write_dev(b, dev, st.st_rdev, NULL, NULL);
	hp_unlock(h);
}

struct file_id {
	struct block *b;
	uint64_t dev, ino;
};

static int note_loop(const char *dev, dev_t rdev, uint64_t back_dev,
		     uint64_t back_ino, void *ctx)
{
	struct file_id *id = ctx;
	char mm[24];

	(void)dev;
	if (back_dev == id->dev && back_ino == id->ino) {
		block_major_minor(mm, rdev);
		devmm_add(&id->b->h, id->b, mm);
	}
	return 0;
}

/* The refusals' messages, out of file_add: their buffers (4 KiB each) in
 * its frame would push every call below it two pages further down the
 * stack (a page fault each: hp_init). */
static _Noreturn __attribute__((noinline)) void
read_only_busy(struct block *b, const char *file)
{
	char msg[PATH_MAX + 96] = "File ";
	size_t len = 5;

	str_append(msg, sizeof(msg), &len, file, strlen(file));
	str_append(msg, sizeof(msg), &len, LIT(" is read-only, and so I will not\n"
		   "mount it read-write in a guest domain."));
	hp_unlock(&b->h);
	hp_busy(&b->h, msg);
}

static _Noreturn __attribute__((noinline)) void
file_shared_busy(struct block *b, const char *file, const char *found,
		 int same_vm)
{
	char prefix[PATH_MAX + 128];
	size_t len = 0;

	prefix[0] = '\0';
	str_append(prefix, sizeof(prefix), &len, LIT("File "));
	str_append(prefix, sizeof(prefix), &len, file, strlen(file));
	str_append(prefix, sizeof(prefix), &len,
		   LIT(" is loopback-mounted through "));
	str_append(prefix, sizeof(prefix), &len, found, strlen(found));
	str_append(prefix, sizeof(prefix), &len, LIT(",\nwhich is mounted "));
	block_sharing_busy(b, prefix, same_vm);
}

/* The file is resolved once, where the script runs readlink -f (symlinks
 * in the configured path work as there), and held by that O_PATH
 * descriptor across the lock wait; under the lock it is opened through
 * the descriptor (hp_reopen: no name is looked up again), its type, write
 * bits and identity checked on that open file (fstat), and that
 * descriptor given to the loop device. A name changed meanwhile (a
 * symlink swapped in, another file renamed over it) changes nothing: the
 * guest gets the file the path named when the call began. */
static void file_add(struct block *b, const char *p, const char *mode)
{
	struct hotplug *h = &b->h;
	char file[PATH_MAX], state[64], found[HP_PATH_MAX], loop[LOOP_PATH_MAX];
	char back[BACKING_MAX];
	struct stat st;
	const char *step, *st8;
	dev_t rdev = 0;
	int ret, pfd, fd, ro;

	pfd = hp_resolve(p, file, sizeof(file));
	if (pfd < 0)
		hp_fatal(h, p, " does not exist.");
	if (fstat(pfd, &st) < 0 || !S_ISREG(st.st_mode))
		hp_fatal(h, file, " does not exist.");
	b->mode = block_canonical_mode(mode);
	hp_lock(h, "block");
	/* A remove may have raced this add (the path gone, or no longer
	 * InitWait after a timeout): the script reads state once it holds
	 * the lock. The call read it with the others at its start (a round
	 * trip less); a call that had to wait for the lock reads it again,
	 * now. */
	if (h->lock_waited)
		hp_forget(h, "state");
	st8 = hp_read_default(h, "state", state, sizeof(state), "unknown");
	if (strcmp(st8, "2") != 0) {
		hp_unlock(h);
		hp_fatal(h, "Path closed or removed during hotplug add: ",
			 h->xb_path, " state: ", st8);
	}
	/* losetup's open: read-write unless r, read-only where the file
	 * cannot be written (a read-only filesystem: w! attaches it so) */
	ro = b->mode == 'r';
	fd = hp_reopen(pfd, ro ? O_RDONLY : O_RDWR);
	if (fd < 0 && !ro && (errno == EROFS || errno == EACCES)) {
		ro = 1;
		fd = hp_reopen(pfd, O_RDONLY);
	}
	if (fd < 0 || fstat(fd, &st) < 0) {
		hp_log(h, HP_ERR, file, ": ", errno_text(errno));
		hp_unlock(h);
		hp_fatal(h, "losetup ", b->mode == 'r' ? "-r " : "", file, " failed");
	}
	close(pfd);
	/* stat -c %A | grep -q w: any write bit */
	if (b->mode == 'w' && !(st.st_mode & 0222))
		read_only_busy(b, file);
	if (b->mode != '!') {
		struct file_id id = { b, st.st_dev, st.st_ino };

		b->devmm[0] = ',';
		b->devmm[1] = '\0';
		ret = loop_each(note_loop, &id);
		if (ret < 0)
			hp_fatal(h, "Unable to lookup ", file, ": /sys/block: ",
				 errno_text(-ret));
		if (b->devmm[1]) {
			ret = block_check_sharing(b, found);
			if (ret)
				file_shared_busy(b, file, found, ret == 2);
		}
	}
	loop[0] = '\0';
	ret = loop_attach(fd, file, ro, loop, &rdev, &step);
	close(fd);
	if (ret == -ENODEV) {
		hp_unlock(h);
		hp_fatal(h, "Failed to find an unused loop device");
	}
	if (ret < 0) {
		hp_log(h, HP_ERR, step, ": ", errno_text(-ret));
		hp_fatal(h, "losetup ", b->mode == 'r' ? "-r " : "", loop, " ",
			 file, " failed");
	}
	backing_id(back, st.st_dev, st.st_ino);
	write_dev(b, loop, rdev, loop, back);
	hp_unlock(h);
}

/* ---- remove ------------------------------------------------------------- */

/* losetup -d "$node", for the device the add attached only: node must
 * still be a loop device backed by the file the add attached (dev, ino:
 * as LOOP_GET_STATUS64 gives the loop's backing) and be the device
 * physical-device names (where the add wrote it). The file is the one
 * the add recorded (BACKING_KEY), wherever its name is now, moved or
 * deleted; without the key (an add by Debian's script or an older
 * forkless), params' file (its stat). key and val name the one
 * used, for the message. The keys are the backend's,
 * written by libxl and the add, none the guest can write. Anything else
 * -- node stale and its device since attached to another file, another
 * guest's loop device -- is refused, nothing detached (docs/hotplug.md).
 * The script detaches whatever node names, when params is a file. */
static void file_remove(struct block *b, dev_t back_dev, uint64_t back_ino,
			const char *key, const char *val)
{
	struct hotplug *h = &b->h;
	char node[HP_PATH_MAX], phys[HP_PATH_MAX];
	dev_t rdev = 0;
	int ret;

	hp_lock(h, "block");
	hp_read_required(h, "node", node, sizeof(node));
	if (hp_read(h, "physical-device", phys, sizeof(phys)) > 0) {
		char *colon = strchr(phys, ':');
		uint64_t ma, mi;

		if (!colon ||
		    parse_u64_base(phys, (size_t)(colon - phys), 16, &ma) < 0 ||
		    parse_u64_base(colon + 1, strlen(colon + 1), 16, &mi) < 0 ||
		    ma > 0xfff || mi > 0xfffff) {
			hp_unlock(h);
			hp_fatal(h, "physical-device ", phys,
				 " is not MAJOR:MINOR: ", node, " not detached");
		}
		rdev = makedev((unsigned)ma, (unsigned)mi);
	}
	ret = loop_detach(node, back_dev, back_ino, rdev);
	if (ret == -ESTALE) {
		hp_unlock(h);
		hp_fatal(h, node, " is not the loop device of ", h->xb_path,
			 " (", key, val, ", physical-device ",
			 rdev ? phys : "unset", "): not detached");
	}
	if (ret < 0) {
		char what[HP_PATH_MAX + 16] = "losetup -d ";
		size_t len = 11;

		str_append(what, sizeof(what), &len, node, strlen(node));
		/* losetup's complaint, on the script's stderr */
		hp_stderr(h, "losetup: ", node, ": detach failed: ",
			  errno_text(-ret), "\n");
		hp_sigerr(h, what, ret);
	}
	hp_unlock(h);
}

/* ---- the call ----------------------------------------------------------- */

static int is_hook_dir(int dirfd, const char *name, void *ctx)
{
	size_t n = strlen(name);
	char path[HP_PATH_MAX] = HP_SCRIPT_DIR "/";
	size_t len = sizeof(HP_SCRIPT_DIR);

	(void)dirfd;
	(void)ctx;
	return n > 8 && strncmp(name, LIT("block-")) == 0 &&
	       strcmp(name + n - 2, ".d") == 0 &&
	       str_append(path, sizeof(path), &len, name, n) == 0 &&
	       hp_have_hooks(path);
}

int block_main(int argc, char **argv)
{
	static const char *const commands[] = { "add", "remove", NULL };
	static struct block b;        /* zeroed, in .bss: see hp_init */
	static char params[PATH_MAX];
	struct hotplug *h = &b.h;
	char mode[64], phys[HP_PATH_MAX], back[BACKING_MAX];
	struct stat st;
	int add, phy = 0, file = 0;

	hp_init(h, "block", argc, argv);
	/* What the call reads of its backend, in one round trip: libxl
	 * wrote it before running the script (node: by the add). Sent
	 * first, for xenstored to answer while the call logs, checks its
	 * arguments and looks for hooks; an invalid call reads nothing of
	 * it, a fallback closes the connection when it execs. The command
	 * is argv[1] here, findCommand's below. */
	add = strcmp(h->command, "add") == 0;
	if (add)   /* state: for a file (file_add) */
		hp_prefetch(h, "params", "mode", "physical-device",
			    "frontend-id", "state");
	else
		hp_prefetch(h, "params", "mode", "node", "physical-device",
			    BACKING_KEY);
	hp_log_call(h);
	hp_check_command(h, commands, 0);
	add = strcmp(h->command, "add") == 0;
	hp_env_required(h, "XENBUS_PATH", "block-common.sh: line 31");
	if (each_entry(HP_SCRIPT_DIR, is_hook_dir, NULL) > 0)
		hp_fallback(h, "hooks in " HP_SCRIPT_DIR "/block-*.d");
	/* The script reads type first (with a default: it cannot fail),
	 * for block-TYPE, which only the script runs: not asked here. */
	hp_read_required(h, "params", params, sizeof(params));
	hp_read_required(h, "mode", mode, sizeof(mode));
	/* remove: the file the add recorded, whatever params names now; a
	 * key that is there but unusable detaches nothing */
	if (!add) {
		long n = hp_read(h, BACKING_KEY, back, sizeof(back));
		dev_t dev;
		uint64_t ino;

		if (n >= 0 && parse_backing(back, &dev, &ino) == 0) {
			file_remove(&b, dev, ino, BACKING_KEY " ", back);
			hp_exit(h, 0);
		}
		if (n >= 0)
			hp_fatal(h, BACKING_KEY " ", back,
				 " is not MAJ:MIN:INO: not detached");
		if (n != -ENOENT)
			hp_fatal(h, "xenstore-read " BACKING_KEY ": ",
				 errno_text((int)-n), ": not detached");
	}
	if (stat(params, &st) == 0) {
		phy = S_ISBLK(st.st_mode);
		file = S_ISREG(st.st_mode);
	}
	if (!phy && !file) {
		/* the script: add writes connected and runs block-TYPE */
		if (!add)
			hp_exit(h, 0);
		hp_fallback(h, "params is neither a block device nor a file");
	}
	if (!add) {
		if (file)
			file_remove(&b, st.st_dev, st.st_ino, "params ", params);
		hp_exit(h, 0);
	}
	/* libxl may run add twice: a device already set up is done */
	if (hp_read(h, "physical-device", phys, sizeof(phys)) >= 0)
		hp_exit(h, 0);
	hp_read_required(h, "frontend-id", b.frontend_id, sizeof(b.frontend_id));
	if (phy)
		phy_add(&b, params, mode);
	else
		file_add(&b, params, mode);
	hp_exit(h, 0);
}
