// SPDX-License-Identifier: MIT
/* cgroup-resolve.c - cgroup v2 id <-> path, in the fewest syscalls.
 *
 * eBPF tools record bpf_get_current_cgroup_id(): the kernfs node id of a
 * cgroup2 directory, which on 64-bit kernels >= 5.5 is also its inode
 * number and the d_ino readdir reports. Two ways to turn it into a path:
 *
 * - Handles (CAP_DAC_READ_SEARCH and /proc): the id IS a kernfs file
 *   handle (type FILEID_KERNFS, 8 bytes), so open_by_handle_at +
 *   readlinkat(/proc/self/fd, N): 2 syscalls per id, the fds closed 256
 *   at a time with close_range (release_fds()). The kernel
 *   path is checked against the mount: an id outside a bind-mounted
 *   subtree or cgroup namespace reads back as "/" or a path outside it.
 *   A path of a page or more (readlink's limit) is found by the walk.
 * - A walk (no privilege, no /proc, or --walk): getdents64 with a big
 *   buffer, d_ino as the id, d_type to skip the ~20 files of each cgroup.
 *   About 4 syscalls per cgroup and no stat at all; other resolvers stat
 *   every entry. Built once per run, re-walked on a miss at most once a
 *   second (re-walking per miss melted CPUs on hosts with 7,000 cgroups).
 * - Neither forced: choose() walks when the ids outnumber cgroups * 7/4
 *   (cgroup.stat's count); stdin goes by handle until that many ids were
 *   asked, then walks once, misses still by handle.
 *
 * Watch mode keeps that index current from fanotify events, or rescans
 * where fanotify cannot watch cgroupfs (cgroup-resolve-watch.c says how).
 *
 * Call graph (the files: cgroup-resolve-*.c, each with its own):
 *   cgroup_resolve_main() scans the options, find_mount() (-find.c), then
 *   one mode:
 *   ID...|-  probe_handles(), choose() -> count_cgroups() (-handle.c);
 *            answer() (-translate.c) -> from_index() (-> walk() ->
 *            walk_tree() -> list_dir(), -readdir.c) and/or
 *            resolve_by_handle() (open_held(), fd_path(), hold_fd() ->
 *            release_fds(); a path longer than /proc's readlink gives ->
 *            from_index()); `-`: resolve_stdin() -> answer()
 *   -p       resolve_paths() -> below_root() (-r), open_cgroup2(),
 *            id_at_mount()
 *   -l       walk(), list_index()
 *   -w       watch() (-watch.c): watch_fanotify(), walk(), then per read
 *            watch_batch() -> watch_event() -> watch_add(),
 *            watch_remove(), keep_orphan()/adopt_orphans(); or, on
 *            overflow and without fanotify, rescan() -> cgr_index_diff()
 *   Lines and messages go out through -emit.c; the pure parsers are in
 *   cgroup-parse.c. The index (cgroup-index.c) does no I/O but mmap.
 *
 * Size matters (the whole binary has a budget): the --help text is short
 * (docs/cgroup.md, "How it resolves", explains), and a few raw syscalls stand in for
 * libc wrappers that would pull in code this applet does not need.
 */
//applet:CGROUP_RESOLVE cgroup-resolve usr/bin/cgroup-resolve cgroup_resolve_main 0
//usage:Usage: cgroup-resolve [-r] [-m DIR] [--walk|--handles] ID...|-
//usage:       cgroup-resolve [-r] [-m DIR] -p PATH...
//usage:       cgroup-resolve [-r] [-m DIR] -l | -w [-l] [-i MS]
//usage:
//usage:cgroup v2 id (decimal, or hex with 0x) <-> path.
//usage:  -       IDs on stdin, answers ID<TAB>PATH (or ID<TAB>?)
//usage:  -p      print the id of each PATH
//usage:  -l      list all as ID<TAB>PATH, parents first
//usage:  -w      print +ID<TAB>PATH, -ID<TAB>PATH as cgroups come and go,
//usage:          until SIGINT/SIGTERM (exit 0)
//usage:  -i MS   -w without fanotify: rescan every MS ms (1000)
//usage:  -r      paths relative to the cgroup2 root
//usage:  -m DIR  the cgroup2 mount (default: from /proc/self/mountinfo)
//usage:  --walk  list the tree, no open_by_handle_at
//usage:  --handles  open_by_handle_at, however many IDs (default:
//usage:          a walk when IDs outnumber cgroups*7/4)
//exit:0 every ID or PATH resolved (-w: until SIGINT or SIGTERM)
//exit:1 some did not
//exit:2 usage error
//replaces:nothing packaged: `find /sys/fs/cgroup -inum ID`, and resolvers that stat every cgroup
//messages:`cgroup-resolve: WHAT: WHY` on stderr; an unknown ID is `ID<TAB>?` on stdout. Details: [cgroup.md](cgroup.md)

//config:config CGROUP_RESOLVE
//config:	bool "cgroup-resolve: cgroup v2 id <-> path, list, watch (~12.5 KiB; ~15 KiB alone)"
//config:	default y
//config:	help
//config:	  Turn the cgroup ids eBPF tools record into paths (2 syscalls
//config:	  per id with CAP_DAC_READ_SEARCH, else -- or for many ids --
//config:	  one stat-free walk of the tree), paths into ids, list the
//config:	  tree, or watch cgroups come and go (fanotify, or

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "libcommon.h"
#include "cgroup-resolve.h"

/* fds 0-2 closed by the parent would be taken by the first opens (the
 * mount read as "stdin"): each closed one is held by an O_PATH fd of "/",
 * on which read and write fail with EBADF, as on the closed fd. An open
 * takes the lowest free fd: open until one lands above 2, close that. */
static void hold_std_fds(void)
{
	int fd;

	while ((fd = openat(AT_FDCWD, "/", O_PATH | O_CLOEXEC)) >= 0 && fd < 3)
		;
	if (fd > 2)
		close(fd);
}

/* How ids are looked up: as choose() decides, or as --walk or --handles
 * forces. */
enum lookup { LOOKUP_CHOSEN, LOOKUP_WALK, LOOKUP_HANDLES };

/* What the options ask (c->relative aside: set as -r is read). */
struct request {
	const char *mount_dir, *interval;
	uint64_t interval_ms;
	int paths, list, watching;
	enum lookup lookup;
};

/* The options into rq and c, then their checks: a usage error exits 2. */
static void scan_options(struct cgr *c, struct optscan *os, char **argv,
			 struct request *rq)
{
	enum lookup forced;
	int opt;

	while ((opt = optscan_next(os)) != -1) {
		switch (opt) {
		case 'p': rq->paths = 1; break;
		case 'l': rq->list = 1; break;
		case 'w': rq->watching = 1; break;
		case 'r': c->relative = 1; break;
		case 'm': rq->mount_dir = os->value; break;
		case 'i': rq->interval = os->value; break;
		default:   /* '?' or ':'; perhaps --walk or --handles */
			if (opt == ':')
				die_optscan(EXIT_USAGE, os, opt);
			if (strcmp(argv[os->index - 1], "--walk") == 0)
				forced = LOOKUP_WALK;
			else if (strcmp(argv[os->index - 1], "--handles") == 0)
				forced = LOOKUP_HANDLES;
			else
				die_optscan(EXIT_USAGE, os, opt);
			if (rq->lookup != LOOKUP_CHOSEN && rq->lookup != forced)
				die_usage(EXIT_USAGE, "--walk and --handles "
					  "do not go together");
			rq->lookup = forced;
		}
	}
	if (rq->interval && (parse_u64_base(rq->interval, strlen(rq->interval),
					    10, &rq->interval_ms) < 0 ||
			     rq->interval_ms == 0 || rq->interval_ms > INT_MAX))
		die_usage_arg(EXIT_USAGE, "-i wants milliseconds "
			      "(1..2147483647), not ", rq->interval);
	if (rq->paths && (rq->list || rq->watching))
		die_usage(EXIT_USAGE, "-p does not go with -l or -w");
	if (rq->interval && !rq->watching)
		die_usage(EXIT_USAGE, "-i goes with -w only");
	if ((rq->list || rq->watching) && os->noperands > 0)
		die_usage_arg(EXIT_USAGE, "-l and -w take no operands, not ",
			      os->operands[0]);
	if (!rq->list && !rq->watching && os->noperands == 0)
		die_usage(EXIT_USAGE, "missing operand: expected ",
			  rq->paths ? "PATH..." : "ID... or -");
	for (int i = 0; !rq->paths && os->noperands > 1 && i < os->noperands;
	     i++)
		if (strcmp(os->operands[i], "-") == 0)
			die_usage(EXIT_USAGE, "- (IDs on stdin) goes alone");
}

/* ID... or -: by handle or by the walk, as lookup says or choose()
 * decides. */
static void resolve_ids(struct cgr *c, const struct optscan *os,
			enum lookup lookup)
{
	int from_stdin = strcmp(os->operands[0], "-") == 0;

	c->handles = lookup != LOOKUP_WALK && probe_handles(c);
	if (lookup == LOOKUP_HANDLES && !c->handles)
		die_msg(EXIT_UNRESOLVED, "--handles: ", c->proc_fd < 0
			? "no /proc/self/fd" : "open_by_handle_at: ",
			c->proc_fd < 0 ? "" : errno_text(errno));
	if (!c->handles)
		c->walk_first = 1;
	else if (lookup == LOOKUP_HANDLES)
		c->walk_after = UINT64_MAX;
	else
		choose(c, from_stdin ? UINT64_MAX : (uint64_t)os->noperands);
	if (from_stdin)
		resolve_stdin(c);
	else
		for (int i = 0; i < os->noperands; i++)
			answer(c, os->operands[i], strlen(os->operands[i]), 0);
}

int cgroup_resolve_main(int argc, char **argv)
{
	struct cgr cgr, *c = &cgr;
	struct optscan os;
	struct request rq = { .interval_ms = 1000, .lookup = LOOKUP_CHOSEN };

	hold_std_fds();
	memset(c, 0, offsetof(struct cgr, out));
	optscan_init(&os, argc, argv, "plwrm:i:");
	scan_options(c, &os, argv, &rq);

	c->mount_fd = c->proc_fd = -1;
	outbuf_init(&c->out, 1);
	/* -p: PATHs below the mount with -r, on it with -m */
	if (!rq.paths || c->relative || rq.mount_dir)
		find_mount(c, rq.mount_dir);
	if (rq.paths) {
		resolve_paths(c, os.operands, os.noperands);
	} else if (rq.watching) {
		c->status = watch(c, rq.list, (int)rq.interval_ms);
	} else if (rq.list) {
		walk(c, &c->ix);
		list_index(c, 0);
	} else {
		resolve_ids(c, &os, rq.lookup);
	}
	release_fds(c);
	if (outbuf_flush(&c->out) < 0)
		die_err("stdout", c->out.error);
	return c->status;
}
