// SPDX-License-Identifier: MIT
/* hotplug-edits.c - is the call Debian's to take? Each hotplug applet
 * stands in for Debian's NAME.distrib and the files it sources; when
 * any of them is not byte for byte as xen-utils-common ships it (an
 * admin's edit, upstream Xen's scripts, a file gone), the call runs the
 * script instead (hp_check_command's hp_fallback, one notice line naming
 * the file).
 *
 * "As xen-utils-common ships it" is Debian 12's (4.17) or Debian 13's
 * (4.20), each file checked against the release it belongs to: a call is
 * native when every file of its script is one release's, the same for
 * all (a file's releases are a mask, intersected down the list; a file
 * that empties it hands the call over, named: "is neither Debian 12's
 * nor Debian 13's", or for a mix of the two "is Debian 13's, the others
 * Debian 12's"). Of the 11 files only hotplugpath.sh differs between the
 * two (LIBEXEC, LIBEXEC_BIN and XENFIRMWAREDIR name /usr/lib/xen-4.17 or
 * -4.20); the other 10 are byte for byte the same, so each release's set
 * is the other's with its own hotplugpath.sh, and a genuine mix cannot
 * be made from the two packages' files (the rule is there for a point
 * release that changes another file). The scripts use hotplugpath.sh
 * for one thing: xen-hotplug-common.sh puts LIBEXEC_BIN into PATH after
 * /usr/bin and /usr/sbin (before /sbin, /bin). None of the commands they
 * run by PATH (ip, brctl, xenstore-*, losetup, flock, logger...) is in
 * /usr/lib/xen-4.17/bin (xen-utils-4.17) or /usr/lib/xen-4.20/bin
 * (xen-utils-4.20: the same tools, xen-9pfsd for xenpvnetboot): the two releases'
 * scripts do the same, and so does forkless on both.
 *
 * Decided per call (hp_edits, from hp_check_command): HP_STAMP holds, for
 * each file of `watched` that matched a release's digest when the stamp
 * was written (hp_stamp_write, for `NAME --stamp`: forkless-xen's
 * postinst and its dpkg trigger on /etc/xen/scripts), its stat (device,
 * inode, size, mode, owner, mtime, ctime...; not the access time), the
 * digest and the releases it is the file of; a file whose stat(2) still
 * gives that record is vouched for: 4 syscalls for the stamp (open,
 * fstat, read, close) and one stat per file. Any other file is read and
 * hashed now (open, read, close): one release's digest, native (a
 * restored file is native again at once, an upgrade's new file hashed
 * once: its inode and ctime are new), else the script. No stamp
 * (forkless installed by hand): every file is hashed on every call. A
 * stamp that another user than root could have written, or of another
 * size, is ignored, and logged.
 *
 * The stamp is this binary's own records (struct rec, one per `watched`
 * entry, in order), compared with what the call sees: no parsing. A
 * record carries the digest it vouched for and its releases, which must
 * be this build's for that digest, so a stamp of a build with other
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
 * vif-bridge, 2 vif-route, 4 block); then each release's MD5 of each, in
 * the same order (dpkg-query -W -f='${Conffiles}' xen-utils-common lists
 * them). Debian 12: xen-utils-common 4.17.5+72-g01140da4e8-1 and
 * 4.17.7+13-g2445b30a44-0+deb12u1, the same for every file; Debian 13:
 * 4.20.4+63-g7abfd2bce2-0+deb13u1, Debian 12's but hotplugpath.sh. */
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
#define NRELEASES 2
/* hp_edits' reasons: a file no release's, or the file of release r
 * among the other release's files (two releases: a mix is one of each) */
static const char neither[] = " is neither Debian 12's nor Debian 13's";
static const char mix[NRELEASES][40] = {
	" is Debian 12's, the others Debian 13's",
	" is Debian 13's, the others Debian 12's"
};
_Static_assert(NRELEASES == 2, "mix[] and hp_edits' d >> 1 know two releases");
static const unsigned char debian_md5[NRELEASES][NWATCHED][16] = { {
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
}, {
	"\x38\xf6\xa0\xaf\x3d\xfb\x8c\x41\xc2\xb5\xda\x0d\x10\x5a\x68\x9d",
	"\x11\xd2\x3d\x6e\x84\x70\x64\x94\xa6\x24\x78\x81\x16\xb7\x91\x1f",
	"\x80\xa7\xa4\x69\x6c\x50\xbc\x72\xf5\xdf\x81\xe6\x3e\x7c\xc8\x73",
	"\xb8\xa0\x04\x08\x81\xf1\xca\xfa\x96\xc7\x03\xc4\x0c\xdd\xd9\xec",
	"\x49\x0a\x49\xa9\xa3\xb5\x93\xda\x02\xf2\xe0\x97\x25\x5e\xb4\x16",
	"\x36\x7e\x66\x62\x7e\x9a\xab\xeb\x67\x18\x11\x3c\xa3\xdb\xf3\x63",
	"\x1d\xa9\x4a\x99\x3e\x2d\x72\x04\xfd\xc0\x18\x23\x48\x95\x2e\x2c",
	"\x93\x93\x7c\xff\xbc\xa0\xa6\xc2\x47\x68\x9b\xa3\x5c\xa4\x78\x69",
	"\x0a\x6f\xbb\x67\x5e\x18\x5f\x21\x33\xf1\x11\xf9\xd3\xf1\xc0\xd5",
	"\x9f\xb8\x04\xd7\xc1\xbe\xd7\xed\x0e\x9d\xbb\xc1\xbb\x3e\x6b\xdb",
	"\x55\x8a\xda\x00\x0b\x59\xb3\x60\xc9\xfe\x28\x6f\xbe\xba\xf8\x82"
} };

/* A file as the stamp vouches for it: its stat(2), the access time left
 * out, the digest it matched and whose file that is (bit 1 << r for
 * release r of debian_md5: 1 Debian 12's, 2 Debian 13's, 3 both's);
 * all zero: not vouched for. No padding: the stamp is these bytes. */
static struct rec {
	struct stat st;
	unsigned char md5[16];
	uint64_t releases;
} stamp[NWATCHED], now;
_Static_assert(sizeof(struct rec) == sizeof(struct stat) + 16 + 8,
	       "struct rec has padding");
/* HP_SCRIPT_DIR/NAME of the file debians() looked at last, with room
 * for hp_edits' reason */
static char path[96];

static void set_path(const char *name)
{
	memcpy(path, HP_SCRIPT_DIR "/", sizeof(HP_SCRIPT_DIR));
	memcpy(path + sizeof(HP_SCRIPT_DIR), name, strlen(name) + 1);
}

/* The releases whose watched[i] has the digest d: a mask, 0 for none */
static unsigned releases_of(size_t i, const unsigned char d[16])
{
	unsigned m = 0;

	for (size_t r = 0; r < NRELEASES; r++)
		if (memcmp(d, debian_md5[r][i], 16) == 0)
			m |= 1u << r;
	return m;
}

/* Whose is watched[i]: the mask of the releases it is the file of
 * (> 0), no release's (0), or not there at all (-1)? Vouched for by
 * stamp[i] (its stat, and a digest and releases that are this build's),
 * else read and hashed (now then holds its record, for
 * hp_stamp_write). now.st is its stat, taken before the read: a write
 * after it changes the ctime, a rename the inode, and the stamp then no
 * longer vouches for it. Debian's files are under 9 KiB: a longer one
 * is not. */
static int debians(size_t i, const char *name)
{
	static unsigned char buf[16384];
	ssize_t n;
	int fd;

	set_path(name);
	if (stat(path, &now.st) < 0)
		return errno == ENOENT ? -1 : 0;
	now.st.st_atim = (struct timespec){ 0 };
	if (stamp[i].releases &&
	    memcmp(&now.st, &stamp[i].st, sizeof(now.st)) == 0 &&
	    releases_of(i, stamp[i].md5) == stamp[i].releases)
		return (int)stamp[i].releases;
	fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n != now.st.st_size)
		return 0;
	md5(buf, (size_t)n, now.md5);
	now.releases = releases_of(i, now.md5);
	return (int)now.releases;
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

/* path, WHY appended (path has room for the longest) */
static const char *reason(const char *why)
{
	memcpy(path + strlen(path), why, strlen(why) + 1);
	return path;
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
	const char *gone = NULL;
	unsigned same = (1u << NRELEASES) - 1;	/* the releases all so far are of */
	int d, there = 0;

	for (size_t i = 0; i < NWATCHED; i++, w += strlen(w) + 1) {
		if (!(*w & who))
			continue;
		if ((d = debians(i, w + 1)) > 0) {
			if (!(same & (unsigned)d))	/* d is the other release */
				return reason(mix[d >> 1]);
			same &= (unsigned)d;
			there = 1;
			continue;
		}
		if (d == 0)
			return reason(neither);
		if (!gone)
			gone = w + 1;
	}
	/* None of them there (a driver domain's root, forkless alone): no
	 * script to stand in for, so nothing to defer to. Some gone: the
	 * first one names the reason. */
	if (!gone || !there)
		return NULL;
	set_path(gone);
	return reason(neither);
}
