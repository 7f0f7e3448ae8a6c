#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/hotplug/xenstore.sh - the hotplug applets' xenstore connection:
# through the kernel's device when xenstored's socket is absent (a raw pty
# standing in for /dev/xen/xenbus), no xenstore at all, and a xenstored
# that never answers (reported within the call's 30 s budget, before
# libxl's 40 s kill), and one whose reply in the middle of a batch of
# reads carries the wrong request id, and one that answers a commit EAGAIN.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-hotplug.sh"
hp_prepare xenstore || exit 0
hp_enter "$@"
hp_root || { fail hotplug-xenstore/setup "cannot build the test dom0"; exit 0; }

HP_FAMILY=vif-bridge
VIF_ENV=(XENBUS_PATH=backend/vif/1/0 vif=vif1.0 type_if=vif)
setup() { net_reset; vif_xs_reset vif-bridge; add_bridge xenbr0 02:00:00:00:00:10; add_vif vif1.0; xs write backend/vif/1/0/bridge xenbr0; }
hp_use forkless vif-bridge

# /dev/xen/xenbus: the socket gone, the device answers (one stream)
setup
hp_xenstored --pty
vif_xs_reset vif-bridge
xs write backend/vif/1/0/bridge xenbr0
rm /var/run/xenstored/socket
ln -sf "$(cat "$HP/xs/pty")" /dev/xen/xenbus
HP_STRACE=$HP/dev.strace hp_call "${VIF_ENV[@]}" -- vif-bridge online
check "hotplug-xenstore/xenbus-device: status" 0 "$RC"
check "hotplug-xenstore/xenbus-device: connected" "/local/domain/0/backend/vif/1/0/hotplug-status=connected" \
	"$(grep hotplug-status "$HP/xs/tree")"
check "hotplug-xenstore/xenbus-device: socket tried first, as libxenstore" \
	'connect(3, {sa_family=AF_UNIX, sun_path="/var/run/xenstored/socket"}, 110) = -1 ENOENT (No such file or directory)' \
	"$(grep -o 'connect([0-9]*, {sa_family=AF_UNIX, sun_path="/var/run/xenstored/socket"}.*' "$HP/dev.strace" | sed 's/^connect([0-9]*/connect(3/')"
check "hotplug-xenstore/xenbus-device: opened" 1 "$(grep -c 'openat(AT_FDCWD, "/dev/xen/xenbus", O_RDWR|.*) = [0-9]' "$HP/dev.strace")"
# The kernel's device (xenbus_file_write) takes one message a write: it says it took every
# byte and drops what follows the first message, which a pty (a stream) cannot show. So on
# the device every request is its own write (tests/vm: the real one).
check "hotplug-xenstore/xenbus-device: one request a write ($(hp_xs_requests) requests)" "$(hp_xs_requests)" \
	"$(hp_xs_writes "$HP/dev.strace")"
# And one request in flight: the kernel queues a request with its payload still in the
# file's buffer, and the next write overwrites it before xenstored has it (Debian 13's 6.12
# driver domain: a prefetch's reads refused EINVAL, a write's key with another's value).
# So no write on the device before the last request's reply has been read.
check "hotplug-xenstore/xenbus-device: one request in flight" 0 \
	"$(awk "$HP_XS_FD_AWK"'
	     fd != "" && index($0, " write(" fd ", ") { if (w) n++; w = 1 }
	     fd != "" && index($0, " read(" fd ", ") && $NF + 0 > 0 { w = 0 }
	     END { print n + 0 }' "$HP/dev.strace")"

# no xenstore at all
rm /dev/xen/xenbus
: >"$HP/syslog"
hp_call "${VIF_ENV[@]}" -- vif-bridge online
check "hotplug-xenstore/none: status" 1 "$RC"
check "hotplug-xenstore/none: logged" "<27>TIME root: /etc/xen/scripts/vif-bridge: xenstore /dev/xen/xenbus: cannot read backend/vif/1/0/vifname: No such device" \
	"$(hp_syslog | grep '<27>')"

# A reply that breaks the stream in the middle of a batch (the second of the keys read at
# once, bridge, answered with the next request's id): reported for that key, as a read of it
# alone would be, and nothing later is paired with the wrong request: no key written.
hp_xenstored --wrong-id=/bridge
setup
: >"$HP/syslog"
HP_STRACE=$HP/wrong-id.strace hp_call "${VIF_ENV[@]}" -- vif-bridge online
check "hotplug-xenstore/wrong-id: status" 1 "$RC"
check "hotplug-xenstore/wrong-id: reported for the key" "<27>TIME root: /etc/xen/scripts/vif-bridge: xenstore /var/run/xenstored/socket: cannot read backend/vif/1/0/bridge: I/O error" \
	"$(hp_syslog | grep '<27>')"
check "hotplug-xenstore/wrong-id: the batch was one write" 1 "$(hp_xs_trips "$HP/wrong-id.strace")"
check "hotplug-xenstore/wrong-id: nothing written" "" "$(grep -E 'hotplug-(status|error)=.|/mtu=' "$HP/xs/tree")"

# A commit lost to another writer (xenstored answers EAGAIN): the transaction runs again, as
# xenstore-write's does, so a refusal's hotplug-error and hotplug-status (one transaction, as
# fatal's one xenstore-write makes them) are written all the same. Debian's script first, over
# the same state: the same keys.
for side in debian forkless; do
	hp_use $side vif-bridge
	hp_xenstored --lose-commit=/hotplug-error
	setup
	xs write backend/vif/1/0/bridge xenbr9   # no such bridge: fatal
	hp_call "${VIF_ENV[@]}" -- vif-bridge online
	check "hotplug-xenstore/lost-commit-$side: status" 1 "$RC"
	check "hotplug-xenstore/lost-commit-$side: written after the retry" \
		"/local/domain/0/backend/vif/1/0/hotplug-error=Could not find bridge device xenbr9|/local/domain/0/backend/vif/1/0/hotplug-status=error|" \
		"$(grep -E 'hotplug-(status|error)=' "$HP/xs/tree" | tr '\n' '|')"
	check "hotplug-xenstore/lost-commit-$side: committed twice" 2 \
		"$(tail -n +$((HP_XS_MARK + 1)) "$HP/xs/log" | grep -c ' TRANSACTION_END [0-9]* T$')"
done
hp_use forkless vif-bridge

# a xenstored that never answers
hp_xenstored
setup
hp_xenstored --silent
: >"$HP/syslog"
start=$(date +%s)
hp_call "${VIF_ENV[@]}" -- vif-bridge online
took=$(( $(date +%s) - start ))
check "hotplug-xenstore/hung: status" 1 "$RC"
check "hotplug-xenstore/hung: reported" "<27>TIME root: /etc/xen/scripts/vif-bridge: xenstore /var/run/xenstored/socket: cannot read backend/vif/1/0/vifname: Connection timed out" \
	"$(hp_syslog | grep '<27>')"
if [ "$took" -ge 29 ] && [ "$took" -le 35 ]; then
	pass "hotplug-xenstore/hung: within the 30 s budget (${took} s)"
else
	fail "hotplug-xenstore/hung: within the 30 s budget" "took ${took} s"
fi
exit 0
