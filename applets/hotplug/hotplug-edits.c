/* hotplug-edits.c - is the call Debian's to take? Each hotplug applet
 * stands in for Debian 12's NAME.distrib and the files it sources; when
 * any of them is not byte for byte as xen-utils-common 4.17 ships it (an
 * admin's edit, upstream Xen's scripts, a file gone), the call runs the
 * script instead (hp_check_command's hp_fallback, one notice line naming
 * the file).
 *
 * Decided per call (hp_edits, from hp_check_command): HP_STAMP holds, for
 * each file of `watched` that matched its digest when the stamp was
 * written (hp_stamp_write, for `NAME --stamp`: forkless-xen's postinst
 * and its dpkg trigger on /etc/xen/scripts), its stat (device, inode,
 * size, mode, owner, mtime, ctime...; not the access time) and the
 * digest; a file whose stat(2) still gives that record is vouched for:
 * 4 syscalls for the stamp (open, fstat, read, close) and one stat per
 * file. Any other file is read and hashed now (open, read, close): equal
 * to Debian's digest, native (a restored file is native again at once),
 * else the script. No stamp (forkless installed by hand): every file is
 * hashed on every call. A stamp that another user than root could have
 * written, or of another size, is ignored, and logged.
 *
 * The stamp is this binary's own records (struct rec, one per `watched`
 * entry, in order), compared whole with memcmp: no parsing. A record
 * carries the digest it vouched for, so a stamp of a build with other
 * digests vouches for nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hotplug.h"

#define HP_STAMP_DIR "/var/lib/forkless"
#define HP_STAMP HP_STAMP_DIR "/hotplug-stamp"

/* What each script runs: NAME.distrib (the diverted script) and what it
 * sources ("$dir/FILE"), each name after a byte saying whose it is (1
 * vif-bridge, 2 vif-route, 4 block); then Debian 12's MD5 of each, in
 * the same order (xen-utils-common 4.17.5+72-g01140da4e8-1 and
 * 4.17.7+13-g2445b30a44-0+deb12u1: the same for every file; dpkg-query
 * -W -f='${Conffiles}' xen-utils-common lists them). */
static const char watched[] =
	"\1" "vif-bridge.distrib\0"
	"\2" "vif-route.distrib\0"
	"\4" "block.distrib\0"
	"\3" "vif-common.sh\0"
	"\3" "xen-network-common.sh\0"
	"\4" "block-common.sh\0"
	"\7" "xen-hotplug-common.sh\0"
	"\7" "hotplugpath.sh\0"
	"\7" "logging.sh\0"
	"\7" "xen-script-common.sh\0"
	"\7" "locking.sh\0";
#define NWATCHED 11
static const unsigned char debian_md5[NWATCHED][16] = {
	"\x38\xf6\xa0\xaf\x3d\xfb\x8c\x41\xc2\xb5\xda\x0d\x10\x5a\x68\x9d",
	"\x11\xd2\x3d\x6e\x84\x70\x64\x94\xa6\x24\x78\x81\x16\xb7\x91\x1f",
	"\x80\xa7\xa4\x69\x6c\x50\xbc\x72\xf5\xdf\x81\xe6\x3e\x7c\xc8\x73",
	"\xb8\xa0\x04\x08\x81\xf1\xca\xfa\x96\xc7\x03\xc4\x0c\xdd\xd9\xec",
	"\x49\x0a\x49\xa9\xa3\xb5\x93\xda\x02\xf2\xe0\x97\x25\x5e\xb4\x16",
	"\x36\x7e\x66\x62\x7e\x9a\xab\xeb\x67\x18\x11\x3c\xa3\xdb\xf3\x63",
	"\x1d\xa9\x4a\x99\x3e\x2d\x72\x04\xfd\xc0\x18\x23\x48\x95\x2e\x2c",
	"\xc3\x75\x3f\x4a\x57\x96\xd7\x3a\x4f\x7b\xcf\xc2\xe0\xa9\x82\x03",
	"\x0a\x6f\xbb\x67\x5e\x18\x5f\x21\x33\xf1\x11\xf9\xd3\xf1\xc0\xd5",
	"\x9f\xb8\x04\xd7\xc1\xbe\xd7\xed\x0e\x9d\xbb\xc1\xbb\x3e\x6b\xdb",
	"\x55\x8a\xda\x00\x0b\x59\xb3\x60\xc9\xfe\x28\x6f\xbe\xba\xf8\x82"
};

/* A file as the stamp vouches for it: its stat(2), the access time left
 * out, and the digest it matched; all zero: not vouched for. */
static struct rec {
	struct stat st;
	unsigned char md5[16];
} stamp[NWATCHED], now;
/* HP_SCRIPT_DIR/NAME of the file debians() looked at last, with room
 * for hp_edits' reason */
static char path[96];

static void set_path(const char *name)
{
	memcpy(path, HP_SCRIPT_DIR "/", sizeof(HP_SCRIPT_DIR));
	memcpy(path + sizeof(HP_SCRIPT_DIR), name, strlen(name) + 1);
}

/* Is watched[i] Debian's (1), not (0), or not there at all (-1)?
 * Vouched for by stamp[i], else read and
 * hashed. now.st is its stat, taken before the read: a write after it
 * changes the ctime, a rename the inode, and the stamp then no longer
 * vouches for it. Debian's files are under 9 KiB: a longer one is not. */
static int debians(size_t i, const char *name)
{
	static unsigned char buf[16384];
	unsigned char md5_buf[16];
	ssize_t n;
	int fd;

	set_path(name);
	memcpy(now.md5, debian_md5[i], sizeof(now.md5));
	if (stat(path, &now.st) < 0)
		return errno == ENOENT ? -1 : 0;
	now.st.st_atim = (struct timespec){ 0 };
	if (memcmp(&now, &stamp[i], sizeof(now)) == 0)
		return 1;
	fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n != now.st.st_size)
		return 0;
	md5(buf, (size_t)n, md5_buf);
	return memcmp(md5_buf, debian_md5[i], sizeof(md5_buf)) == 0;
}

_Noreturn void hp_stamp_write(void)
{
	const char *w = watched;
	int fd;

	for (size_t i = 0; i < NWATCHED; i++, w += strlen(w) + 1)
		if (debians(i, w + 1) > 0)
			stamp[i] = now;
	mkdir(HP_STAMP_DIR, 0755);
	fd = openat(AT_FDCWD, HP_STAMP ".new", O_WRONLY | O_CREAT | O_TRUNC |
		    O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 || write_all(fd, stamp, sizeof(stamp)) < 0 || close(fd) < 0 ||
	    rename(HP_STAMP ".new", HP_STAMP) < 0)
		die_msg(1, "cannot write ", HP_STAMP, ": ", errno_text(errno));
	_exit(0);
}

const char *hp_edits(struct hotplug *h)
{
	const char *w = watched;
	struct stat st;
	/* vif-bridge, vif-route or block */
	int who = h->name[0] == 'b' ? 4 : h->name[4] == 'b' ? 1 : 2;
	int fd = openat(AT_FDCWD, HP_STAMP, O_RDONLY | O_CLOEXEC | O_NOCTTY |
			O_NONBLOCK);

	if (fd >= 0) {
		if (fstat(fd, &st) < 0 || st.st_uid != 0 || (st.st_mode & 022) ||
		    st.st_size != sizeof(stamp) ||
		    read(fd, stamp, sizeof(stamp)) != sizeof(stamp)) {
			memset(stamp, 0, sizeof(stamp));
			hp_log(h, HP_NOTICE, HP_STAMP " ignored: not root's"
			       " alone, or not this build's");
		}
		close(fd);
	}
	static const char not[] = " is not Debian 12's";
	const char *gone = NULL;
	int d, there = 0;

	for (size_t i = 0; i < NWATCHED; i++, w += strlen(w) + 1) {
		if (!(*w & who) || (d = debians(i, w + 1)) > 0) {
			there |= *w & who;
			continue;
		}
		if (d == 0) {
			memcpy(path + strlen(path), not, sizeof(not));
			return path;
		}
		if (!gone)
			gone = w + 1;
	}
	/* None of them there (a driver domain's root, forkless alone): no
	 * script to stand in for, so nothing to defer to. Some gone: the
	 * first one names the reason. */
	if (!gone || !there)
		return NULL;
	set_path(gone);
	memcpy(path + strlen(path), not, sizeof(not));
	return path;
}
