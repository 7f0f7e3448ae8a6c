// SPDX-License-Identifier: MIT
/* entry.c - the ELF entry point, forkless_start (-Wl,-e in the Makefile).
 *
 * On musl/x86_64 it asks dispatch() what runs under argv[0] and, when
 * that applet declares an early hook (//applet: early=), runs it before
 * libc initialises: the hook execs its tool with raw syscalls or returns.
 * Then libc starts and calls main() as usual. Nothing on this path may
 * touch TLS (errno, the stack protector's canary): it does not exist yet.
 * glibc (and any other libc on x86_64): forkless_start is plain _start.
 * Other architectures keep the default entry point (no -e flag).
 */
#include "libcommon.h"
#include "applet.h"

#if FORKLESS_EARLY_ENTRY

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

	/* Without argv[0] the hook could not set the tool's argv[0]. */
	if (argc > 0 && argv[0]) {
		const char *name = dispatch_name(argv[0]);
		const struct applet *a = dispatch(argv[0], name);

		applet_early_fn *early = a ? applet_early(a) : NULL;

		if (early)
			early(name, argv, argv + argc + 1);
	}
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
