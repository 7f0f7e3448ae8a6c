/* xen-early.c - exec the Xen tool before libc initialises itself.
 *
 * The wrapper's work needs no libc state: two small reads and an execve.
 * musl's startup costs two syscalls (arch_prctl to set up TLS,
 * set_tid_address) that the tool is about to throw away with its own
 * execve. So the entry point (forkless_start, selected with -Wl,-e in the
 * Makefile) first tries the wrapper's success path with raw syscalls and,
 * only if it cannot exec, starts libc and main() as usual, which then
 * makes the same decisions again and reports any error. Between the
 * wrapper's execve and the tool's there are 4 syscalls: openat, read,
 * openat, read.
 *
 * Nothing here may touch TLS (errno, the stack protector's canary): it
 * runs before TLS exists. The file is compiled -fno-stack-protector, uses
 * only raw syscalls and the pure helpers (string building, the applet
 * table, version validation). Built only for musl on x86_64; elsewhere
 * forkless_start is plain _start.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "libcommon.h"
#include "xen.h"

#if defined(__x86_64__) && !defined(__GLIBC__)

static long raw_syscall4(long n, long a, long b, long c, long d)
{
	register long r10 __asm__("r10") = d;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
}

/* One sysfs version file appended to str at *len: its fd, or -1. */
static long early_read(const char *file, char *str, size_t *len)
{
	char buf[XEN_VERSION_FILE_MAX];
	size_t start, digits;
	long fd, n;

	fd = raw_syscall4(SYS_openat, AT_FDCWD, (long)file,
			  O_RDONLY | O_CLOEXEC | O_NOCTTY, 0);
	if (fd < 0)
		return -1;
	n = raw_syscall4(SYS_read, fd, (long)buf, sizeof(buf), 0);
	if (n < 0 || (size_t)n >= sizeof(buf) ||
	    xen_parse_version_value(buf, (size_t)n, &start, &digits) < 0) {
		raw_syscall4(SYS_close, fd, 0, 0, 0);
		return -1;
	}
	memcpy(str + *len, buf + start, digits);
	*len += digits;
	return fd;   /* left open on success: O_CLOEXEC closes it in execve */
}

/* The same dispatch decision main() makes (multicall.c) for the two names
 * whose success path is an exec: a name that is neither the multiplexer
 * nor an applet (the wrapper), and `xen` (runs xl). Anything else, and
 * every failure, is left to main(). */
static void early_exec(int argc, char **argv, char **envp)
{
	char version[2 * XEN_VERSION_DIGITS_MAX + 2];
	char path[4096];
	char *argv0;
	const char *name, *command;
	size_t len = 0;
	long fd_major, fd_minor;

	if (argc < 1 || !argv[0])
		return;
	argv0 = argv[0];
	name = dispatch_name(argv0);
	if (strncmp(name, "forkless", 8) == 0)
		return;
	if (ENABLE_XEN && strcmp(name, "xen") == 0)
		command = "xl";
	else if (ENABLE_XEN_UTILS_WRAPPER && !find_applet(name))
		command = name;
	else
		return;
	fd_major = early_read("/sys/hypervisor/version/major", version, &len);
	if (fd_major < 0)
		return;
	version[len++] = '.';
	fd_minor = early_read("/sys/hypervisor/version/minor", version, &len);
	version[len] = '\0';
	if (fd_minor >= 0 &&
	    xen_tool_path(path, sizeof(path), version, command) == 0) {
		/* dash execs "$DIR/$COMMAND": the tool's argv[0] is its path. */
		argv[0] = path;
		raw_syscall4(SYS_execve, (long)path, (long)argv, (long)envp, 0);
		argv[0] = argv0;
	}
	/* Not exec'd: main() starts over and reports why. */
	raw_syscall4(SYS_close, fd_major, 0, 0, 0);
	if (fd_minor >= 0)
		raw_syscall4(SYS_close, fd_minor, 0, 0, 0);
}

/* musl's (main's third parameter, envp, is passed but unused here). */
int __libc_start_main(int (*)(int, char **), int, char **,
		      void (*)(void), void (*)(void), void (*)(void));
int main(int argc, char **argv);
void _init(void) __attribute__((weak));
void _fini(void) __attribute__((weak));

__attribute__((used)) void forkless_start_c(long *sp);
__attribute__((used)) void forkless_start_c(long *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1);

	if (ENABLE_XEN_EARLY_EXEC)
		early_exec(argc, argv, argv + argc + 1);
	__libc_start_main(main, argc, argv, _init, _fini, 0);
}

/* The kernel enters with the stack pointer at argc; clear the frame
 * pointer (end of the call chain), align, and call into C. */
__asm__(".text\n"
	".global forkless_start\n"
	".type forkless_start,@function\n"
	"forkless_start:\n"
	"	xor %rbp,%rbp\n"
	"	mov %rsp,%rdi\n"
	"	andq $-16,%rsp\n"
	"	call forkless_start_c\n"
	"	hlt\n");

#elif defined(__x86_64__)

/* glibc: its own entry point does all the work. */
__asm__(".text\n"
	".global forkless_start\n"
	"forkless_start:\n"
	"	jmp _start\n");

#endif
