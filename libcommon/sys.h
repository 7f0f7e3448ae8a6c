// SPDX-License-Identifier: MIT
/* sys.h - raw system calls, nolibc's shape: sys_x() returns the result or
 * a negative errno and never touches errno.
 *
 * Use them where libc is bypassed: before libc has started (an applet's
 * early hook, see core/applet.h: no TLS yet, so no errno) and for calls
 * musl has no wrapper for. On x86_64 they are inline `syscall`
 * instructions; elsewhere they go through syscall(2) and turn errno
 * around, which is fine after libc has started (early hooks only run on
 * musl/x86_64). Every raw syscall forkless makes is listed here.
 */
#ifndef FORKLESS_SYS_H
#define FORKLESS_SYS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/types.h>

#ifndef SYS_statx
#define SYS_statx 332   /* x86_64; musl's headers name it on every arch */
#endif
#ifndef SYS_openat2
#define SYS_openat2 437   /* Linux 5.6, the same on every architecture */
#endif
#ifndef SYS_close_range
#define SYS_close_range 436   /* Linux 5.9, the same on every architecture */
#endif

#if defined(__x86_64__)

static inline long sys_call6(long n, long a, long b, long c, long d, long e,
			     long f)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8),
			   "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

static inline long sys_call4(long n, long a, long b, long c, long d)
{
	register long r10 __asm__("r10") = d;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
}

#else

#include <errno.h>
#include <unistd.h>

static inline long sys_call6(long n, long a, long b, long c, long d, long e,
			     long f)
{
	long ret = syscall(n, a, b, c, d, e, f);

	return ret < 0 ? -errno : ret;
}

static inline long sys_call4(long n, long a, long b, long c, long d)
{
	return sys_call6(n, a, b, c, d, 0, 0);
}

#endif

struct file_handle;

/* The kernel's struct statx (linux/stat.h), which musl before 1.2.5 does
 * not declare: the same layout on every architecture. */
struct sys_statx {
	uint32_t mask, blksize;
	uint64_t attributes;
	uint32_t nlink, uid, gid;
	uint16_t mode, spare0;
	uint64_t ino, size, blocks, attributes_mask;
	struct { int64_t sec; uint32_t nsec; int32_t spare; } times[4];
	uint32_t rdev_major, rdev_minor, dev_major, dev_minor;
	uint64_t spare[14];
};
#define SYS_STATX_BASIC 0x7ffu   /* STATX_BASIC_STATS */

static inline int sys_openat(int dirfd, const char *path, int flags,
			     unsigned mode)
{
	return (int)sys_call4(SYS_openat, dirfd, (long)path, flags, mode);
}

/* openat2(2) (musl has no wrapper): the kernel's struct open_how. */
struct sys_open_how {
	uint64_t flags, mode, resolve;
};
#define SYS_RESOLVE_NO_XDEV 0x01
#define SYS_RESOLVE_NO_MAGICLINKS 0x02
#define SYS_RESOLVE_BENEATH 0x08
static inline int sys_openat2(int dirfd, const char *path,
			      const struct sys_open_how *how)
{
	return (int)sys_call4(SYS_openat2, dirfd, (long)path, (long)how,
			      sizeof(*how));
}

static inline ssize_t sys_read(int fd, void *buf, size_t len)
{
	return sys_call4(SYS_read, fd, (long)buf, (long)len, 0);
}

static inline ssize_t sys_write(int fd, const void *buf, size_t len)
{
	return sys_call4(SYS_write, fd, (long)buf, (long)len, 0);
}

static inline int sys_close(int fd)
{
	return (int)sys_call4(SYS_close, fd, 0, 0, 0);
}

/* Returns only on failure. */
static inline int sys_execve(const char *path, char *const argv[],
			     char *const envp[])
{
	return (int)sys_call4(SYS_execve, (long)path, (long)argv, (long)envp, 0);
}

/* Bytes of struct linux_dirent64 records read into buf, 0 at the end. */
static inline long sys_getdents64(int fd, void *buf, size_t len)
{
	return sys_call4(SYS_getdents64, fd, (long)buf, (long)len, 0);
}

static inline int sys_name_to_handle_at(int dirfd, const char *path,
					struct file_handle *fh, int *mount_id,
					int flags)
{
	return (int)sys_call6(SYS_name_to_handle_at, dirfd, (long)path,
			      (long)fh, (long)mount_id, flags, 0);
}

static inline int sys_open_by_handle_at(int mount_fd, struct file_handle *fh,
					int flags)
{
	return (int)sys_call4(SYS_open_by_handle_at, mount_fd, (long)fh, flags,
			      0);
}

/* flags: AT_* (AT_EMPTY_PATH with path "" for an fd). */
static inline int sys_statx(int dirfd, const char *path, int flags,
			    unsigned mask, struct sys_statx *st)
{
	return (int)sys_call6(SYS_statx, dirfd, (long)path, flags, mask,
			      (long)st, 0);
}

/* clock_gettime without musl's vDSO lookup (~1 KiB); clock_ms() (clock.c)
 * is its one caller. */
struct timespec;
static inline int sys_clock_gettime(int clock, struct timespec *ts)
{
	return (int)sys_call4(SYS_clock_gettime, clock, (long)ts, 0, 0);
}

/* musl's nanosleep adds clock_nanosleep's code. */
static inline int sys_nanosleep(const struct timespec *req,
				struct timespec *rem)
{
	return (int)sys_call4(SYS_nanosleep, (long)req, (long)rem, 0, 0);
}

/* The length, not NUL-terminated (musl's readlinkat adds a case for a
 * zero-length buffer). */
static inline ssize_t sys_readlinkat(int dirfd, const char *path, char *buf,
				     size_t len)
{
	return sys_call4(SYS_readlinkat, dirfd, (long)path, (long)buf,
			 (long)len);
}

/* The length with the NUL (musl's getcwd brings strdup and malloc). */
static inline long sys_getcwd(char *buf, size_t len)
{
	return sys_call4(SYS_getcwd, (long)buf, (long)len, 0, 0);
}

/* The kernel's struct rlimit64 (musl's getrlimit adds cases). */
struct sys_rlimit {
	uint64_t cur, max;
};
static inline int sys_prlimit64(int pid, int resource,
				const struct sys_rlimit *new_limit,
				struct sys_rlimit *old_limit)
{
	return (int)sys_call4(SYS_prlimit64, pid, resource, (long)new_limit,
			      (long)old_limit);
}

/* Signal sets as the kernel has them: 64 bits, signal N is bit N-1 (not
 * musl's 128-byte sigset_t and its helpers). */
static inline int sys_rt_sigprocmask(int how, const uint64_t *set,
				     uint64_t *old)
{
	return (int)sys_call4(SYS_rt_sigprocmask, how, (long)set, (long)old,
			      8);
}

static inline int sys_signalfd4(int fd, const uint64_t *mask, int flags)
{
	return (int)sys_call4(SYS_signalfd4, fd, (long)mask, 8, flags);
}

/* musl's faccessat carries an AT_EACCESS emulation (~0.5 KiB); the plain
 * syscall (real ids, no flags) is what `[ -x FILE ]` asks as root. */
static inline int sys_faccessat(int dirfd, const char *path, int mode)
{
	return (int)sys_call4(SYS_faccessat, dirfd, (long)path, mode, 0);
}

/* musl has no pidfd_open wrapper: an fd that polls readable once the
 * process PID has ended (any process, not only a child). */
static inline int sys_pidfd_open(int pid, unsigned flags)
{
	return (int)sys_call4(SYS_pidfd_open, pid, flags, 0, 0);
}

static inline int sys_close_range(unsigned first, unsigned last,
				  unsigned flags)
{
	return (int)sys_call4(SYS_close_range, first, last, flags, 0);
}

/* musl's sendmmsg on 64-bit is a loop of sendmsg (its msghdr has padding
 * where the kernel's has size_t fields): the real one sends them all in
 * one call. The msghdrs must be zero-initialized (the padding then reads
 * as the upper half of the kernel's size_t on little-endian). */
struct mmsghdr;
static inline int sys_sendmmsg(int fd, struct mmsghdr *v, unsigned n,
			       unsigned flags)
{
	return (int)sys_call4(SYS_sendmmsg, fd, (long)v, n, flags);
}

#endif
