// SPDX-License-Identifier: MIT
// sources: applets/mount/mountopt.c applets/mount/mountopt-tables.c
/* test_mountopt.c - the mount option engine (applets/mount/mountopt.c) and
 * the passwd/group lookup (libcommon/passwd.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "unit.h"
#include "libcommon.h"
#include "mount/mountopt.h"
#include "passwd.h"

static int vbox_answer;
static int warned;

static int fake_resolve(struct mopt_ctx *ctx, int is_group, const char *name,
			size_t len, uint32_t *id)
{
	(void)ctx;
	if (len == 5 && memcmp(name, "alice", 5) == 0 && !is_group) {
		*id = 1234;
		return 0;
	}
	if (len == 5 && memcmp(name, "staff", 5) == 0 && is_group) {
		*id = 50;
		return 0;
	}
	if (len == 6 && memcmp(name, "broken", 6) == 0)
		return -EACCES;
	return -ENOENT;
}

static int fake_vbox(struct mopt_ctx *ctx)
{
	(void)ctx;
	return vbox_answer;
}

static void count_warn(struct mopt_ctx *ctx, const char *opt, size_t len,
		       enum mopt_reason why)
{
	(void)ctx; (void)opt; (void)len; (void)why;
	warned++;
}

/* Parse opts for fs; return the data, or "ERR:<reason>:<option>". */
static const char *run(const struct mopt_fs *fs, int sloppy, const char *opts,
		       unsigned long *flags)
{
	static char out[8192];
	struct mopt_ctx ctx;

	mopt_init(&ctx, fs);
	ctx.resolve = fake_resolve;
	ctx.vbox_driver = fake_vbox;
	ctx.warn = count_warn;
	ctx.sloppy = sloppy;
	if (mopt_parse(&ctx, opts, strlen(opts)) < 0 ||
	    mopt_build(&ctx, out, MOPT_DATA_MAX + 1) < 0) {
		snprintf(out, sizeof(out), "ERR:%d:%.*s", (int)ctx.error,
			 ctx.err_opt ? (int)ctx.err_len : 0,
			 ctx.err_opt ? ctx.err_opt : "");
		return out;
	}
	if (flags)
		*flags = ctx.flags;
	return out;
}

static char errbuf[64];
static const char *err(enum mopt_reason r, const char *opt)
{
	snprintf(errbuf, sizeof(errbuf), "ERR:%d:%s", (int)r, opt);
	return errbuf;
}

static void test_flags(void)
{
	unsigned long f;

	UNIT_STREQ("mountopt/flags-only", "",
		   run(&mopt_fs_vboxsf, 0, "ro,nosuid,nodev,noexec", &f));
	UNIT_CHECK("mountopt/flags-bits",
		   f == (MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC));
	run(&mopt_fs_9p, 0, "ro,rw", &f);
	UNIT_CHECK("mountopt/ro-then-rw", f == 0);
	run(&mopt_fs_9p, 0, "noatime,relatime", &f);
	UNIT_CHECK("mountopt/atime-last-wins", f == MS_RELATIME);
	run(&mopt_fs_9p, 0, "relatime,strictatime", &f);
	UNIT_CHECK("mountopt/strictatime-last", f == MS_STRICTATIME);
	run(&mopt_fs_9p, 0, "sync,dirsync,silent,mand,lazytime", &f);
	UNIT_CHECK("mountopt/more-flags", f == (MS_SYNCHRONOUS | MS_DIRSYNC |
		   MS_SILENT | MS_MANDLOCK | (1 << 25)));
	run(&mopt_fs_9p, 0, "user", &f);
	UNIT_CHECK("mountopt/user-implies", f == (MS_NOEXEC | MS_NOSUID | MS_NODEV));
	run(&mopt_fs_9p, 0, "user,exec,dev,suid", &f);
	UNIT_CHECK("mountopt/user-overridden", f == 0);
	run(&mopt_fs_9p, 0, "users", &f);
	UNIT_CHECK("mountopt/users-implies", f == (MS_NOEXEC | MS_NOSUID | MS_NODEV));
	run(&mopt_fs_9p, 0, "owner", &f);
	UNIT_CHECK("mountopt/owner-implies", f == (MS_NOSUID | MS_NODEV));
	run(&mopt_fs_9p, 0, "group", &f);
	UNIT_CHECK("mountopt/group-implies", f == (MS_NOSUID | MS_NODEV));
	run(&mopt_fs_9p, 0, "nouser,user=bob,users=x,x-a=1", &f);
	UNIT_CHECK("mountopt/valued-words-imply-nothing", f == 0);
	UNIT_STREQ("mountopt/comment-needs-value", err(MOPT_UNKNOWN, "comment"),
		   run(&mopt_fs_9p, 0, "comment", NULL));
	UNIT_STREQ("mountopt/nofail-takes-no-value", err(MOPT_UNKNOWN, "nofail=1"),
		   run(&mopt_fs_9p, 0, "nofail=1", NULL));
	UNIT_STREQ("mountopt/flag-with-value", err(MOPT_UNKNOWN, "ro=1"),
		   run(&mopt_fs_9p, 0, "ro=1", NULL));
}

static void test_dropped(void)
{
	UNIT_STREQ("mountopt/dropped-words", "",
		   run(&mopt_fs_vboxsf, 0, "defaults,auto,noauto,nofail,_netdev,"
		       "nouser,x-systemd.automount,X-mount.mkdir=0755,"
		       "comment=foo,helper=x,uhelper=udisks2,user=bob", NULL));
	UNIT_STREQ("mountopt/empty-and-commas", "uid=1",
		   run(&mopt_fs_vboxsf, 0, ",,uid=1,,,", NULL));
	UNIT_STREQ("mountopt/empty-string", "", run(&mopt_fs_9p, 0, "", NULL));
	UNIT_STREQ("mountopt/only-commas", "", run(&mopt_fs_9p, 0, ",,,", NULL));
	{
		struct mopt_ctx ctx;
		mopt_init(&ctx, &mopt_fs_9p);
		UNIT_CHECK("mountopt/nul-byte-refused",
			   mopt_parse(&ctx, "uname=a\0b", 9) < 0 &&
			   ctx.error == MOPT_NUL_BYTE);
	}
}

static void test_vboxsf(void)
{
	vbox_answer = 0;
	UNIT_STREQ("vboxsf/all-mainline",
		   "nls=utf8,uid=1234,gid=50,ttl=200,dmode=0755,fmode=0644,"
		   "dmask=027,fmask=0137",
		   run(&mopt_fs_vboxsf, 0, "nls=utf8,uid=alice,gid=staff,ttl=200,"
		       "dmode=755,fmode=0644,dmask=027,fmask=137", NULL));
	UNIT_STREQ("vboxsf/iocharset-is-nls", "nls=cp437",
		   run(&mopt_fs_vboxsf, 0, "iocharset=cp437", NULL));
	UNIT_STREQ("vboxsf/nls-iocharset-last-wins", "nls=koi8-r",
		   run(&mopt_fs_vboxsf, 0, "nls=utf8,iocharset=koi8-r", NULL));
	UNIT_STREQ("vboxsf/umask-both", "dmask=022,fmask=022",
		   run(&mopt_fs_vboxsf, 0, "umask=022", NULL));
	UNIT_STREQ("vboxsf/umask-then-fmask", "dmask=022,fmask=0133",
		   run(&mopt_fs_vboxsf, 0, "umask=22,fmask=133", NULL));
	UNIT_STREQ("vboxsf/duplicate-last-wins", "gid=2,uid=3",
		   run(&mopt_fs_vboxsf, 0, "uid=1,gid=2,uid=3", NULL));
	UNIT_STREQ("vboxsf/octal-zero", "dmode=0",
		   run(&mopt_fs_vboxsf, 0, "dmode=0", NULL));
	UNIT_STREQ("vboxsf/dmode-777", "dmode=0777",
		   run(&mopt_fs_vboxsf, 0, "dmode=00777", NULL));
	UNIT_STREQ("vboxsf/dmode-1777", err(MOPT_OCTAL_BITS, "dmode=1777"),
		   run(&mopt_fs_vboxsf, 0, "dmode=1777", NULL));
	UNIT_STREQ("vboxsf/dmask-7777", "dmask=07777",
		   run(&mopt_fs_vboxsf, 0, "dmask=7777", NULL));
	UNIT_STREQ("vboxsf/dmode-8", err(MOPT_NOT_OCTAL, "dmode=8"),
		   run(&mopt_fs_vboxsf, 0, "dmode=8", NULL));
	UNIT_STREQ("vboxsf/dmode-huge", err(MOPT_OCTAL_BITS,
		   "fmode=7777777777777777777777777"),
		   run(&mopt_fs_vboxsf, 0, "fmode=7777777777777777777777777",
		       NULL));
	UNIT_STREQ("vboxsf/uid-max", "uid=4294967294",
		   run(&mopt_fs_vboxsf, 0, "uid=4294967294", NULL));
	UNIT_STREQ("vboxsf/uid-minus-one", err(MOPT_BAD_ID, "uid=4294967295"),
		   run(&mopt_fs_vboxsf, 0, "uid=4294967295", NULL));
	UNIT_STREQ("vboxsf/uid-overflow", err(MOPT_RANGE, "uid=99999999999"),
		   run(&mopt_fs_vboxsf, 0, "uid=99999999999", NULL));
	UNIT_STREQ("vboxsf/uid-unknown-name", err(MOPT_NO_USER, "uid=bob"),
		   run(&mopt_fs_vboxsf, 0, "uid=bob", NULL));
	UNIT_STREQ("vboxsf/gid-unknown-name", err(MOPT_NO_GROUP, "gid=alice"),
		   run(&mopt_fs_vboxsf, 0, "gid=alice", NULL));
	UNIT_STREQ("vboxsf/uid-lookup-error", err(MOPT_LOOKUP_FAILED,
		   "uid=broken"), run(&mopt_fs_vboxsf, 0, "uid=broken", NULL));
	UNIT_STREQ("vboxsf/uid-negative", err(MOPT_NO_USER, "uid=-1"),
		   run(&mopt_fs_vboxsf, 0, "uid=-1", NULL));
	UNIT_STREQ("vboxsf/uid-empty", err(MOPT_EMPTY_VALUE, "uid="),
		   run(&mopt_fs_vboxsf, 0, "uid=", NULL));
	UNIT_STREQ("vboxsf/uid-no-value", err(MOPT_NEEDS_VALUE, "uid"),
		   run(&mopt_fs_vboxsf, 0, "uid", NULL));
	UNIT_STREQ("vboxsf/ttl-text", err(MOPT_NOT_NUMBER, "ttl=1s"),
		   run(&mopt_fs_vboxsf, 0, "ttl=1s", NULL));
	UNIT_STREQ("vboxsf/ttl-sign", err(MOPT_NOT_NUMBER, "ttl=+1"),
		   run(&mopt_fs_vboxsf, 0, "ttl=+1", NULL));
	UNIT_STREQ("vboxsf/ttl-range", err(MOPT_RANGE, "ttl=2147483648"),
		   run(&mopt_fs_vboxsf, 0, "ttl=2147483648", NULL));
	UNIT_STREQ("vboxsf/unknown", err(MOPT_UNKNOWN, "foo"),
		   run(&mopt_fs_vboxsf, 0, "uid=1,foo", NULL));
	warned = 0;
	UNIT_STREQ("vboxsf/sloppy", "uid=1",
		   run(&mopt_fs_vboxsf, 1, "foo,uid=1,bar=2", NULL));
	UNIT_CHECK("vboxsf/sloppy-warns", warned == 2);
	UNIT_STREQ("vboxsf/sloppy-bad-value-still-error",
		   err(MOPT_NOT_NUMBER, "ttl=x1"),
		   run(&mopt_fs_vboxsf, 1, "ttl=x1", NULL));
	/* VirtualBox-only options: passed to VirtualBox's driver only. */
	warned = 0;
	vbox_answer = 0;
	UNIT_STREQ("vboxsf/vbox-only-dropped", "uid=1",
		   run(&mopt_fs_vboxsf, 0, "dcachettl=1,inodettl=2,maxiopages=3,"
		       "dirbuf=65536,cache=read,tag=t,uid=1", NULL));
	UNIT_CHECK("vboxsf/vbox-only-warns", warned == 6);
	vbox_answer = 1;
	UNIT_STREQ("vboxsf/vbox-only-passed",
		   "dcachettl=1,inodettl=2,maxiopages=3,dirbuf=65536,"
		   "cache=readwrite,tag=VBoxAutomounter",
		   run(&mopt_fs_vboxsf, 0, "dcachettl=1,inodettl=2,maxiopages=3,"
		       "dirbuf=65536,cache=readwrite,tag=VBoxAutomounter", NULL));
	UNIT_STREQ("vboxsf/vbox-cache-bad", err(MOPT_CHOICE, "cache=loose"),
		   run(&mopt_fs_vboxsf, 0, "cache=loose", NULL));
	UNIT_STREQ("vboxsf/dirbuf-range", err(MOPT_RANGE, "dirbuf=16777217"),
		   run(&mopt_fs_vboxsf, 0, "dirbuf=16777217", NULL));
	vbox_answer = 0;
	/* A bad value of a VirtualBox-only option is still an error. */
	UNIT_STREQ("vboxsf/vbox-only-bad-value", err(MOPT_NOT_NUMBER, "dirbuf=x"),
		   run(&mopt_fs_vboxsf, 0, "dirbuf=x", NULL));
}

static void test_9p(void)
{
	UNIT_STREQ("9p/all",
		   "trans=xen,version=9p2000.u,msize=65536,cache=loose,"
		   "access=client,posixacl,dfltuid=1234,dfltgid=50,afid=7,"
		   "uname=u,aname=/srv,cachetag=ct,nodevmap,noextend,noxattr,"
		   "directio,ignoreqv,locktimeout=30,debug=0x1f,port=564,"
		   "privport,rfdno=3,wfdno=4,sq=8,rq=9,timeout=10",
		   run(&mopt_fs_9p, 0, "trans=xen,version=9p2000.u,msize=65536,"
		       "cache=loose,access=client,posixacl,dfltuid=alice,"
		       "dfltgid=staff,afid=7,uname=u,aname=/srv,cachetag=ct,"
		       "nodevmap,noextend,noxattr,directio,ignoreqv,"
		       "locktimeout=30,debug=0x1F,port=564,privport,rfdno=3,"
		       "wfdno=4,sq=8,rq=9,timeout=10", NULL));
	UNIT_STREQ("9p/debug-decimal", "debug=0x10",
		   run(&mopt_fs_9p, 0, "debug=16", NULL));
	UNIT_STREQ("9p/access-uid", "access=1234",
		   run(&mopt_fs_9p, 0, "access=alice", NULL));
	UNIT_STREQ("9p/access-number", "access=0",
		   run(&mopt_fs_9p, 0, "access=0", NULL));
	UNIT_STREQ("9p/access-bad", err(MOPT_CHOICE, "access=nobody-here"),
		   run(&mopt_fs_9p, 0, "access=nobody-here", NULL));
	UNIT_STREQ("9p/msize-small", err(MOPT_RANGE, "msize=4095"),
		   run(&mopt_fs_9p, 0, "msize=4095", NULL));
	UNIT_STREQ("9p/trans-bad", err(MOPT_CHOICE, "trans=vsock"),
		   run(&mopt_fs_9p, 0, "trans=vsock", NULL));
	UNIT_STREQ("9p/version-case", err(MOPT_CHOICE, "version=9p2000.l"),
		   run(&mopt_fs_9p, 0, "version=9p2000.l", NULL));
	UNIT_STREQ("9p/posixacl-value", err(MOPT_NO_VALUE, "posixacl=1"),
		   run(&mopt_fs_9p, 0, "posixacl=1", NULL));
	UNIT_STREQ("9p/port-range", err(MOPT_RANGE, "port=65536"),
		   run(&mopt_fs_9p, 0, "port=65536", NULL));
	UNIT_STREQ("9p/selinux-context", "context=system_u:object_r:tmp_t",
		   run(&mopt_fs_9p, 0, "context=system_u:object_r:tmp_t", NULL));
	UNIT_STREQ("9p/no-uid-option", err(MOPT_UNKNOWN, "uid=1"),
		   run(&mopt_fs_9p, 0, "uid=1", NULL));
}

/* libmount passes an MLS label quoted: a comma inside double quotes does
 * not split, and the quotes reach the kernel, whose LSM option parsers
 * split the same way and strip them. */
static void test_quotes(void)
{
	int open_quote = -1;

	UNIT_STREQ("quotes/mls-context",
		   "context=\"system_u:object_r:tmp_t:s0,c1\"",
		   run(&mopt_fs_vboxsf, 0,
		       "context=\"system_u:object_r:tmp_t:s0,c1\"", NULL));
	UNIT_STREQ("quotes/between-options",
		   "uid=1,fscontext=\"u:r:t:s0:c1,c2,c3\",gid=2",
		   run(&mopt_fs_vboxsf, 0,
		       "uid=1,fscontext=\"u:r:t:s0:c1,c2,c3\",gid=2", NULL));
	UNIT_STREQ("quotes/fstab-words-inside-kept",
		   "defcontext=\"a,nofail,,x-y\",trans=xen",
		   run(&mopt_fs_9p, 0, "defcontext=\"a,nofail,,x-y\",nofail,"
		       "trans=xen", NULL));
	UNIT_STREQ("quotes/two-quoted-parts", "rootcontext=\"a,b\":\"c,d\"",
		   run(&mopt_fs_virtiofs, 0, "rootcontext=\"a,b\":\"c,d\"",
		       NULL));
	UNIT_STREQ("quotes/open-refused",
		   err(MOPT_OPEN_QUOTE, "context=\"a:b:c:s0,c1,uid=1"),
		   run(&mopt_fs_vboxsf, 0, "gid=2,context=\"a:b:c:s0,c1,uid=1",
		       NULL));
	UNIT_STREQ("quotes/open-refused-sloppy",
		   err(MOPT_OPEN_QUOTE, "\"x,uid=1"),
		   run(&mopt_fs_vboxsf, 1, "\"x,uid=1", NULL));
	UNIT_STREQ("quotes/open-reason", "unclosed double quote",
		   mopt_reason_text(MOPT_OPEN_QUOTE));
	UNIT_CHECK("quotes/option-len",
		   mopt_option_len("a=\"x,y\",b", 9, &open_quote) == 7 &&
		   open_quote == 0);
	UNIT_CHECK("quotes/option-len-stops-at-len",
		   mopt_option_len("a,b", 1, &open_quote) == 1 &&
		   open_quote == 0);
	UNIT_CHECK("quotes/option-len-open",
		   mopt_option_len("a=\"x,y", 6, &open_quote) == 6 &&
		   open_quote == 1);
}

static void test_defaults(void)
{
	struct mopt_ctx ctx;
	char out[MOPT_DATA_MAX + 1], buf[32];

	mopt_init(&ctx, &mopt_fs_9p);
	mopt_parse(&ctx, "cache=loose,msize=8192", 22);
	mopt_default(&ctx, "trans", "virtio");
	mopt_default(&ctx, "msize", "512000");
	mopt_build(&ctx, out, sizeof(out));
	UNIT_STREQ("defaults/user-value-kept", "cache=loose,msize=8192,"
		   "trans=virtio", out);
	UNIT_STREQ("defaults/get", "virtio", mopt_get(&ctx, "trans", buf,
		   sizeof(buf)));
	UNIT_CHECK("defaults/get-unset", mopt_get(&ctx, "aname", buf,
		   sizeof(buf)) == NULL);
}

static void test_virtiofs(void)
{
	UNIT_STREQ("virtiofs/dax", "dax", run(&mopt_fs_virtiofs, 0, "dax", NULL));
	UNIT_STREQ("virtiofs/dax-always", "dax=always",
		   run(&mopt_fs_virtiofs, 0, "dax=always", NULL));
	UNIT_STREQ("virtiofs/dax-never", "dax=never",
		   run(&mopt_fs_virtiofs, 0, "dax=never", NULL));
	UNIT_STREQ("virtiofs/dax-inode-last", "dax=inode",
		   run(&mopt_fs_virtiofs, 0, "dax,dax=inode", NULL));
	UNIT_STREQ("virtiofs/dax-bad", err(MOPT_CHOICE, "dax=sometimes"),
		   run(&mopt_fs_virtiofs, 0, "dax=sometimes", NULL));
	UNIT_STREQ("virtiofs/dax-empty", err(MOPT_EMPTY_VALUE, "dax="),
		   run(&mopt_fs_virtiofs, 0, "dax=", NULL));
	UNIT_STREQ("virtiofs/unknown", err(MOPT_UNKNOWN, "cache=auto"),
		   run(&mopt_fs_virtiofs, 0, "cache=auto", NULL));
}

static void test_long(void)
{
	static char opts[20000];
	struct mopt_ctx ctx;
	char out[MOPT_DATA_MAX + 1];
	size_t n;

	/* exactly at the limit: "nls=" + 4091 bytes = 4095 */
	strcpy(opts, "nls=");
	memset(opts + 4, 'a', 4091);
	opts[4095] = '\0';
	UNIT_CHECK("long/4095-fits",
		   strlen(run(&mopt_fs_vboxsf, 0, opts, NULL)) == 4095);
	opts[4095] = 'a';
	opts[4096] = '\0';
	UNIT_STREQ("long/4096-refused", err(MOPT_TOO_LONG, ""),
		   run(&mopt_fs_vboxsf, 0, opts, NULL));
	mopt_init(&ctx, &mopt_fs_vboxsf);
	mopt_parse(&ctx, opts, strlen(opts));
	UNIT_CHECK("long/error-length", mopt_build(&ctx, out, sizeof(out)) < 0
		   && ctx.err_len == 4096 && out[0] == '\0');
	/* A long string that shrinks: last wins before the limit counts. */
	strcpy(opts + 4096, ",nls=utf8");
	UNIT_STREQ("long/replaced-fits", "nls=utf8",
		   run(&mopt_fs_vboxsf, 0, opts, NULL));
	/* 10 KiB of dropped words: fine */
	n = 0;
	while (n + 8 < sizeof(opts) / 2) {
		memcpy(opts + n, "nofail,", 7);
		n += 7;
	}
	strcpy(opts + n, "uid=5");
	UNIT_STREQ("long/many-dropped", "uid=5",
		   run(&mopt_fs_vboxsf, 0, opts, NULL));
}

static void test_flags_text(void)
{
	char buf[256];

	mopt_flags_text(0, buf, sizeof(buf));
	UNIT_STREQ("flagstext/zero", "0", buf);
	mopt_flags_text(MS_RDONLY | MS_NODEV | MS_RELATIME, buf, sizeof(buf));
	UNIT_STREQ("flagstext/names", "MS_RDONLY|MS_NODEV|MS_RELATIME", buf);
	mopt_flags_text(MS_NOSUID | 0x40000000ul, buf, sizeof(buf));
	UNIT_STREQ("flagstext/unknown-bits", "MS_NOSUID|0x40000000", buf);
	mopt_flags_text(MS_NOSYMFOLLOW | MS_LAZYTIME | 0x100000000ul, buf,
			sizeof(buf));
	UNIT_STREQ("flagstext/last-names-and-high-bits",
		   "MS_NOSYMFOLLOW|MS_LAZYTIME|0x100000000", buf);
}

/* What a bad value's message says is accepted (mopt_accepted_text). */
static const char *accepted(const struct mopt_fs *fs, const char *opts)
{
	static char out[256];
	struct mopt_ctx ctx;

	mopt_init(&ctx, fs);
	ctx.resolve = fake_resolve;
	ctx.vbox_driver = fake_vbox;
	if (mopt_parse(&ctx, opts, strlen(opts)) == 0)
		return "(parsed)";
	mopt_accepted_text(&ctx, out, sizeof(out));
	return out;
}

static void test_accepted(void)
{
	UNIT_STREQ("accepted/enum", " (accepted: always, never, inode)",
		   accepted(&mopt_fs_virtiofs, "dax=x"));
	UNIT_STREQ("accepted/enum-or-uid",
		   " (accepted: user, any, client, or a user id or name)",
		   accepted(&mopt_fs_9p, "access=nobody-here"));
	UNIT_STREQ("accepted/range", " (accepted: 4096..4294967295)",
		   accepted(&mopt_fs_9p, "msize=1"));
	UNIT_STREQ("accepted/octal-mode", " (accepted: octal, within 0777)",
		   accepted(&mopt_fs_vboxsf, "dmode=1777"));
	UNIT_STREQ("accepted/octal-mask", " (accepted: octal, within 07777)",
		   accepted(&mopt_fs_vboxsf, "umask=9"));
	UNIT_STREQ("accepted/uid", " (accepted: a user/group id or name, up "
		   "to 4294967294)", accepted(&mopt_fs_vboxsf,
		   "uid=99999999999"));
	UNIT_STREQ("accepted/string-nothing", "",
		   accepted(&mopt_fs_vboxsf, "nls="));
	UNIT_STREQ("accepted/unknown-nothing", "",
		   accepted(&mopt_fs_vboxsf, "bogus=1"));
	UNIT_STREQ("accepted/common-option", "context=x",
		   run(&mopt_fs_virtiofs, 0, "context=x", NULL));
}

static char tmpdir[] = "/tmp/test_mountopt.XXXXXX";

static const char *write_file(const char *name, const char *text, size_t len)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	fwrite(text, 1, len, f);
	fclose(f);
	return path;
}

/* lookup_id for the checks below: the id into *id, the line kept. */
static unsigned long looked_up_line;

static int lookup(const char *path, const char *name, size_t len,
		  uint32_t *id)
{
	struct id_lookup res;
	int ret = lookup_id(path, name, len, &res);

	*id = res.id;
	looked_up_line = res.line;
	return ret;
}

static void test_passwd(void)
{
	static char big[20000];
	const char *p;
	uint32_t id = 0;
	size_t n;

	if (!mkdtemp(tmpdir)) {
		UNIT_CHECK("passwd/mkdtemp", 0);
		return;
	}
	p = write_file("passwd", "root:x:0:0:root:/root:/bin/sh\n"
		       "alice:x:1000:1000::/home/alice:/bin/sh\n"
		       "al:x:1001:1001::/:/bin/sh\n"
		       "bad:x:notanumber:1::/:/bin/sh\n"
		       "last:x:4242:1::/:/bin/sh", 148);
	UNIT_CHECK("passwd/alice", lookup(p, "alice", 5, &id) == 0
		   && id == 1000);
	UNIT_CHECK("passwd/prefix-not-match", lookup(p, "ali", 3,
		   &id) == -ENOENT);
	UNIT_CHECK("passwd/short-name", lookup(p, "al", 2, &id) == 0
		   && id == 1001);
	UNIT_CHECK("passwd/no-final-newline", lookup(p, "last", 4,
		   &id) == 0 && id == 4242);
	UNIT_CHECK("passwd/bad-id", lookup(p, "bad", 3, &id) ==
		   -EINVAL);
	UNIT_CHECK("passwd/bad-id: its line", looked_up_line == 4);
	UNIT_CHECK("passwd/the line of a name found", lookup(p, "last", 4,
		   &id) == 0 && looked_up_line == 5);
	UNIT_CHECK("passwd/missing", lookup(p, "nobody", 6, &id) ==
		   -ENOENT);
	UNIT_CHECK("passwd/colon-in-name", lookup(p, "root:x", 6,
		   &id) == -ENOENT);
	UNIT_CHECK("passwd/no-file", lookup("/nonexistent/passwd",
		   "root", 4, &id) == -ENOENT);
	/* group(5): the id is the third field too */
	p = write_file("group", "root:x:0:\nstaff:x:50:alice,bob\n", 31);
	UNIT_CHECK("group/staff", lookup(p, "staff", 5, &id) == 0 &&
		   id == 50);
	/* Names after a line longer than the read buffer, and lines that
	 * straddle the 4 KiB chunk boundaries. */
	n = 0;
	memset(big, 'x', 9000);
	n = 9000;
	big[n++] = '\n';
	for (int i = 0; n < sizeof(big) - 100; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n,
				      "user%d:x:%d:1::/:/bin/sh\n", i, 5000 + i);
	n += (size_t)snprintf(big + n, sizeof(big) - n, "zed:x:77:1::/:/bin/sh\n");
	p = write_file("big", big, n);
	UNIT_CHECK("passwd/after-long-line", lookup(p, "zed", 3,
		   &id) == 0 && id == 77);
	UNIT_CHECK("passwd/straddling", lookup(p, "user100", 7,
		   &id) == 0 && id == 5100);
	UNIT_CHECK("passwd/long-line-not-a-name", lookup(p, "xxxx",
		   4, &id) == -ENOENT);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd) != 0)
		printf("INFO: could not remove %s\n", tmpdir);
}

int main(void)
{
	test_flags();
	test_dropped();
	test_vboxsf();
	test_9p();
	test_quotes();
	test_defaults();
	test_virtiofs();
	test_long();
	test_flags_text();
	test_accepted();
	test_passwd();
	return unit_failures ? 1 : 0;
}
