/* The floor of a hotplug call in the real dom0 (built with musl-gcc -static by
 * tests/vm/run; run by dom0.sh's opt-in part "floor", HACKING.md "The floor").
 *
 * libxl runs it as /vmtest/floor/MODE/NAME ACTION, NAME block or vif-bridge, at
 * the same places of a domU's create and destroy as a hotplug script. It does
 * what no hotplug implementation can avoid at that place, and nothing else, so
 * its time is what any one-process call costs there:
 *   MODE exit      remove and offline exit at once; online makes the one write
 *                  libxl waits for (hotplug-status = connected)
 *   MODE requests  the xenstore requests the scripts' contract needs: the keys
 *                  Debian's script reads (block remove: params, mode, node;
 *                  vif-bridge offline: vifname, bridge; online: vifname, bridge,
 *                  mtu), on one connection, sent together; online then writes
 *                  hotplug-status = connected
 * block add execs forkless (/usr/bin/forkless, as NAME): the guest's disk needs
 * the real work, and the add is not measured here. No link changes, no loop
 * device (block remove leaves the loop device attached: dom0.sh detaches it),
 * no log: a floor, not a hotplug script. Exit 1 on any error.
 * Its few lines of xs_wire are its own, not libcommon/xenstore.c's client: a
 * floor is what any implementation must pay, so it sends the bytes and reads
 * the replies with nothing of forkless's around them (no deadline, no checks
 * of each reply); forkless's client is what it is measured against. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define XS_READ 2
#define XS_WRITE 11

static char out[4096], in[8192];

/* One request (xs_wire.h: type, req_id, tx_id, len, then the payload: the
 * path XENBUS_PATH/key and its NUL, then a write's value) at out + at. */
static size_t put(size_t at, uint32_t type, uint32_t id, const char *xp,
		  const char *key, const char *val)
{
	size_t pl = strlen(xp), kl = strlen(key), vl = val ? strlen(val) : 0;
	uint32_t h[4] = { type, id, 0, (uint32_t)(pl + 1 + kl + 1 + vl) };
	char *p = out + at + sizeof(h);

	if (at + sizeof(h) + h[3] > sizeof(out))
		_exit(1);
	memcpy(out + at, h, sizeof(h));
	memcpy(p, xp, pl);
	p[pl] = '/';
	memcpy(p + pl + 1, key, kl + 1);
	if (vl)
		memcpy(p + pl + 1 + kl + 1, val, vl);
	return at + sizeof(h) + h[3];
}

/* Send out[0..len), then read n whole replies. */
static void exchange(int fd, size_t len, int n)
{
	size_t have = 0;

	if (write(fd, out, len) != (ssize_t)len)
		_exit(1);
	while (n > 0) {
		uint32_t h[4];
		ssize_t r;

		if (have >= sizeof(h)) {
			memcpy(h, in, sizeof(h));
			if (h[3] > 4096)
				_exit(1);
			if (have >= sizeof(h) + h[3]) {
				have -= sizeof(h) + h[3];
				memmove(in, in + sizeof(h) + h[3], have);
				n--;
				continue;
			}
		}
		r = read(fd, in + have, sizeof(in) - have);
		if (r <= 0)
			_exit(1);
		have += (size_t)r;
	}
}

int main(int argc, char **argv, char **envp)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX,
				  .sun_path = "/var/run/xenstored/socket" };
	const char *name = strrchr(argv[0], '/'), *act = NULL, *xp;
	size_t len = 0;
	uint32_t id = 0;
	int block, up, requests, fd;

	name = name ? name + 1 : argv[0];
	for (int i = 1; i < argc && !act; i++)
		if (!strchr(argv[i], '='))   /* findCommand: the first without '=' */
			act = argv[i];
	if (!act)
		return 1;
	block = strcmp(name, "block") == 0;
	up = strcmp(act, "add") == 0 || strcmp(act, "online") == 0;
	requests = name - argv[0] >= 10 &&
		   strncmp(name - 10, "/requests/", 10) == 0;
	if (block && up) {
		execve("/usr/bin/forkless", argv, envp);
		return 1;
	}
	if (!up && !requests)
		_exit(0);
	xp = getenv("XENBUS_PATH");
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (!xp || fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return 1;
	if (requests) {
		static const char *const keys[3][4] = {
			{ "params", "mode", "node", NULL },    /* block remove */
			{ "vifname", "bridge", NULL },         /* vif offline */
			{ "vifname", "bridge", "mtu", NULL },  /* vif online */
		};
		const char *const *k = keys[block ? 0 : up ? 2 : 1];

		for (; *k; k++)
			len = put(len, XS_READ, ++id, xp, *k, NULL);
		exchange(fd, len, (int)id);
	}
	if (up)
		exchange(fd, put(0, XS_WRITE, ++id, xp, "hotplug-status",
				 "connected"), 1);
	_exit(0);
}
