#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/hotplug/vif-bridge.sh - forkless's vif-bridge against Debian's
# script (bash, real ip and brctl, real xenstore-read/write over the
# stand-in xenstored's socket) in a network namespace: a veth vif1.0 and
# real bridges. Each scenario is set up twice from scratch, run once with
# each, and the end states compared: exit status, every xenstore key,
# links (flags, MAC, MTU, master), addresses, routes, the syslog lines.
# Then what only forkless does: one process per call, hand-overs.
# Every scenario runs against Debian 13's scripts (trixie, Debian's
# stable; checks named trixie/...), a subset against Debian 12's (the
# end of this file; bookworm/...): the two releases' scripts differ
# only in hotplugpath.sh's /usr/lib/xen-4.XX paths, which put a PATH
# directory before /sbin:/bin holding none of the commands the scripts
# run (docs/hotplug.md), so the rest would be the same code compared
# twice, at the cost of a minute or more of `tests/run hotplug`.
HP_RELEASES="trixie bookworm"
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-hotplug.sh"
hp_prepare vif-bridge || exit 0
hp_enter "$@"
hp_root || { fail vif-bridge/setup "cannot build the test dom0"; exit 0; }

VIF_ENV=(script=/etc/xen/scripts/vif-bridge XENBUS_TYPE=vif
	XENBUS_PATH=backend/vif/1/0 XENBUS_BASE_PATH=backend vif=vif1.0
	netdev= type_if=vif)

HP_FAMILY=vif-bridge
hp_reset() { net_reset; vif_xs_reset vif-bridge; }
# What a run leaves: rc, the tree, links, addresses, routes, syslog.
state() {
	echo "rc $RC"
	grep -v -e '^/=' -e '^/local=' -e '^/local/domain=' -e '^/local/domain/0=' "$HP/xs/tree"
	net_state
	hp_syslog
}

s_plain() { add_bridge xenbr0 02:00:00:00:00:10 1400; add_vif vif1.0; xs write backend/vif/1/0/bridge xenbr0; }
scenario online s_plain "${VIF_ENV[@]}" -- vif-bridge online
has online "hotplug-status=connected"
has online "/local/domain/1/device/vif/0/mtu=1400"
has online "vif1.0@guest1: <NO-CARRIER,BROADCAST,MULTICAST,UP,M-DOWN> mtu 1400 qdisc noqueue master xenbr0"
has online "link/ether fe:ff:ff:ff:ff:ff"

s_offline() { s_plain; ip link set vif1.0 master xenbr0 up; }
scenario offline s_offline "${VIF_ENV[@]}" -- vif-bridge offline
# libxl's own call: `vif-bridge online type_if=vif` (libxl_linux.c), the
# argument evalVariables evals; an argument it would eval as code, and
# extra words, which findCommand passes over.
scenario libxl-args s_plain "${VIF_ENV[@]}" -- vif-bridge online type_if=vif
scenario libxl-args-offline s_offline "${VIF_ENV[@]}" -- vif-bridge offline type_if=vif
# Requests to xenstored (oxenstored's work for each is milliseconds in a TCG dom0) and
# round trips (each a wait on xenstored, a context switch each way on a one-vCPU dom0):
# online reads vifname, bridge and mtu at once, then writes the frontend's mtu and
# hotplug-status; offline reads vifname and bridge. Not ip: vif-common.sh reads it for
# handle_iptable, which Debian's vif-bridge (4.17 and 4.20) does not call.
check "vif-bridge/online: xenstore requests (Debian's: $(cat "$HP/libxl-args.debian.xsreq"))" 5 "$(cat "$HP/libxl-args.forkless.xsreq")"
check "vif-bridge/online: xenstore round trips" 3 "$(hp_xs_trips "$HP/libxl-args.forkless.strace")"
check "vif-bridge/offline: xenstore requests (Debian's: $(cat "$HP/libxl-args-offline.debian.xsreq"))" 2 "$(cat "$HP/libxl-args-offline.forkless.xsreq")"
check "vif-bridge/offline: xenstore round trips" 1 "$(hp_xs_trips "$HP/libxl-args-offline.forkless.strace")"
# System calls (lib-hotplug.sh): the syslog lines stamped once, as they are sent; no
# geteuid (the kernel's AT_EUID), no getpid, no netlink bind (the kernel binds at the first
# send). 12 of them check that the files vif-bridge stands in for are Debian's (hp_use wrote
# the stamp): the stamp's open, fstat, read and close, a stat of each of the 8 files.
if [ -z "${FORKLESS_SANITIZED:-}" ]; then   # (its runtime makes syscalls of its own)
	check "vif-bridge/online: at most 51 system calls (Debian's: $(hp_procs "$HP/libxl-args.debian.strace") processes)" \
		yes "$(hp_syscalls_within "$HP/libxl-args.forkless.strace" 51)"
fi
if [ -z "${FORKLESS_SANITIZED:-}" ]; then   # (its runtime makes syscalls of its own)
	check "vif-bridge/offline: at most 33 system calls (Debian's: $(hp_procs "$HP/libxl-args-offline.debian.strace") processes)" \
		yes "$(hp_syscalls_within "$HP/libxl-args-offline.forkless.strace" 33)"
fi
# The frontend's mtu is written ahead of the script's place for it (before the link's down,
# MAC, flush and MTU, its answer read before the vif is enslaved): sent before the address
# flush's dump ends, and a refused write still stops the call where it stops the script's
# (fatal, the vif down and not enslaved: the same end state).
check "vif-bridge/online: the frontend's mtu sent before the address flush" yes \
	"$(awk '/write\(.*device\/vif\/0\/mtu/ { print "yes"; exit } /NLMSG_DONE/ { print "no"; exit }' "$HP/libxl-args.forkless.strace")"
hp_xenstored --fail-write=/device/vif/0/mtu
scenario mtu-write-refused s_plain "${VIF_ENV[@]}" -- vif-bridge online
has mtu-write-refused "rc 1"
has mtu-write-refused "/local/domain/0/backend/vif/1/0/hotplug-error=Writing /local/domain/1/device/vif/0/mtu 1400 to xenstore failed."
hp_xenstored
# the first reads are sent before the hook scan and netlink, for xenstored to answer meanwhile
for sc in libxl-args libxl-args-offline; do
	check "vif-bridge/$sc: reads sent before the hook scan and netlink" yes \
		"$(hp_xs_sent_before "$HP/$sc.forkless.strace" 'vif-post\.d|socket\(AF_NETLINK')"
done
scenario command-after-assignment s_plain "${VIF_ENV[@]}" -- vif-bridge type_if=vif online
scenario extra-words s_plain "${VIF_ENV[@]}" -- vif-bridge online extra words
has offline "vif1.0@guest1: <BROADCAST,MULTICAST,M-DOWN> mtu 1500 qdisc noqueue state DOWN"

s_offline_gone() { s_plain; ip link del vif1.0; }
scenario offline-vanished s_offline_gone "${VIF_ENV[@]}" -- vif-bridge offline
has offline-vanished "rc 0"

s_mtu() { s_plain; xs write backend/vif/1/0/mtu 1280; }
scenario mtu-from-xenstore s_mtu "${VIF_ENV[@]}" -- vif-bridge online
has mtu-from-xenstore "/local/domain/1/device/vif/0/mtu=1280"

s_bad_mtu() { s_plain; xs write backend/vif/1/0/mtu jumbo; }
scenario mtu-not-a-number s_bad_mtu "${VIF_ENV[@]}" -- vif-bridge online

s_env() { add_bridge br-env 02:00:00:00:00:11; add_bridge xenbr0 02:00:00:00:00:10; add_vif vif1.0; }
scenario bridge-from-env s_env "${VIF_ENV[@]}" bridge=br-env -- vif-bridge online
has bridge-from-env "master br-env"
scenario arg-overrides-env s_env "${VIF_ENV[@]}" -- vif-bridge online bridge=br-env
has arg-overrides-env "master br-env"

s_first() { add_bridge xenbr0 02:00:00:00:00:10; add_bridge abr 02:00:00:00:00:11; add_bridge mbr 02:00:00:00:00:12; add_vif vif1.0; }
scenario first-bridge s_first "${VIF_ENV[@]}" -- vif-bridge online
has first-bridge "master abr"

s_empty_key() { s_first; xs write backend/vif/1/0/bridge ""; }
scenario empty-bridge-key s_empty_key "${VIF_ENV[@]}" -- vif-bridge online

s_xenbr_eth() { add_bridge eth0 02:00:00:00:00:10; add_vif vif1.0; xs write backend/vif/1/0/bridge xenbr0; }
scenario xenbr-to-eth s_xenbr_eth "${VIF_ENV[@]}" -- vif-bridge online
has xenbr-to-eth "master eth0"

s_missing() { add_bridge xenbr0 02:00:00:00:00:10; add_vif vif1.0; xs write backend/vif/1/0/bridge xenbr9; }
scenario missing-bridge s_missing "${VIF_ENV[@]}" -- vif-bridge online
has missing-bridge "hotplug-error=Could not find bridge device xenbr9"
has missing-bridge "hotplug-status=error"
scenario missing-bridge-offline s_missing "${VIF_ENV[@]}" -- vif-bridge offline

s_none() { add_vif vif1.0; }
scenario no-bridge-at-all s_none "${VIF_ENV[@]}" -- vif-bridge online
has no-bridge-at-all "hotplug-error=Could not find bridge, and none was specified"

s_vifname() { s_plain; xs write backend/vif/1/0/vifname web0; }
# Debian's set_mtu takes the frontend's DOMID.DEVID from the renamed
# vif's name ("web0": /local/domain/web0/device/vif/web0/mtu); forkless
# from XENBUS_PATH, so the frontend learns its MTU.
FIXUP='s|/local/domain/web0/device/vif/web0/mtu|/local/domain/1/device/vif/0/mtu|; /^\/local\/domain\/web0\(\/device\(\/vif\(\/web0\)\?\)\?\)\?=$/d' \
scenario vifname s_vifname "${VIF_ENV[@]}" -- vif-bridge online
has vifname "web0@guest1"
has vifname "/local/domain/1/device/vif/0/mtu=1400"

s_vifname_taken() { s_vifname; ip link add web0 address 02:00:00:00:00:20 type veth peer name web0-peer address 02:00:00:00:00:21; }
scenario vifname-taken s_vifname_taken "${VIF_ENV[@]}" -- vif-bridge online
has vifname-taken "hotplug-error=Cannot rename interface vif1.0. An interface with name web0 already exists."

s_vifname_off() { s_plain; ip link set vif1.0 name web0; ip link set web0 master xenbr0 up; xs write backend/vif/1/0/vifname web0; }
scenario vifname-offline s_vifname_off "${VIF_ENV[@]}" -- vif-bridge offline

s_other_bridge() { s_plain; add_bridge xenbr1 02:00:00:00:00:11; ip link set vif1.0 master xenbr1; }
# brctl addif fails inside add_to_bridge: set -e exits 1 there, and the
# ERR trap does not run in functions: no hotplug-error (both). Debian's
# error goes to /var/log/xen/xen-hotplug.log (the scripts' stderr);
# forkless logs what failed.
FIXUP='$a <27>TIME root: /etc/xen/scripts/vif-bridge: brctl addif: already a member of a bridge: Resource busy' \
scenario on-another-bridge s_other_bridge "${VIF_ENV[@]}" -- vif-bridge online
has on-another-bridge "rc 1"
has on-another-bridge "hotplug-status="

s_already() { s_plain; ip link set vif1.0 master xenbr0; }
scenario already-on-bridge s_already "${VIF_ENV[@]}" -- vif-bridge online

s_novif() { add_bridge xenbr0 02:00:00:00:00:10; xs write backend/vif/1/0/bridge xenbr0; }
FIXUP='$a <27>TIME root: /etc/xen/scripts/vif-bridge: vif1.0: No such device' \
scenario vif-vanished s_novif "${VIF_ENV[@]}" -- vif-bridge online
has vif-vanished "rc 1"

scenario invalid-command s_plain "${VIF_ENV[@]}" -- vif-bridge start
has invalid-command "rc 1"
scenario vif-add-is-noop s_plain "${VIF_ENV[@]}" -- vif-bridge add
scenario tap-online-is-noop s_plain "${VIF_ENV[@]}" type_if=tap INTERFACE=vif1.0-emu -- vif-bridge online
scenario unknown-type-if s_plain "${VIF_ENV[@]}" type_if=ovs -- vif-bridge online
has unknown-type-if "rc 1"

# The ${VAR:?} messages (bash's, with the file and line): exit 1, the
# message in xen-hotplug.log, where the scripts' stderr goes.
scenario no-XENBUS_PATH s_plain vif=vif1.0 -- vif-bridge online
has no-XENBUS_PATH "rc 1"
check "vif-bridge/no-XENBUS_PATH: xen-hotplug.log" \
	"/etc/xen/scripts/vif-common.sh: line 84: XENBUS_PATH: parameter null or not set" \
	"$(cat "$HP/no-XENBUS_PATH.forkless.hplog")"
scenario no-vif s_plain XENBUS_PATH=backend/vif/1/0 -- vif-bridge online
has no-vif "rc 1"

# ---- emulated NICs: QEMU's tap (type_if=tap add|remove) -------------------

# libxl runs `vif-bridge add|remove type_if=tap` for an HVM guest's
# emulated NIC with INTERFACE, the tap QEMU made (vifDOMID.DEVID-emu, or
# VIFNAME-emu), beside vif and XENBUS_PATH: a real tap device here.
TAP_ENV=(script=/etc/xen/scripts/vif-bridge XENBUS_TYPE=vif
	XENBUS_PATH=backend/vif/1/0 XENBUS_BASE_PATH=backend netdev=
	INTERFACE=vif1.0-emu vif=vif1.0)
add_tap() {   # add_tap NAME: QEMU's tap, with an address to be flushed
	ip tuntap add dev "$1" mode tap && ip link set "$1" address 00:16:3e:00:00:03
	ip addr add 192.0.2.19/24 dev "$1"
}
s_tap() { add_bridge xenbr0 02:00:00:00:00:10 1400; add_tap vif1.0-emu; xs write backend/vif/1/0/bridge xenbr0; }
scenario tap-add s_tap "${TAP_ENV[@]}" -- vif-bridge add type_if=tap
has tap-add "rc 0"
has tap-add "vif1.0-emu: <NO-CARRIER,BROADCAST,MULTICAST,UP> mtu 1400 qdisc"
has tap-add "master xenbr0 state DOWN"
has tap-add "link/ether fe:ff:ff:ff:ff:ff"
# no frontend mtu, no hotplug-status (libxl waits for neither on a tap)
has tap-add "/local/domain/0/backend/vif/1/0/hotplug-status="
check "vif-bridge/tap-add: no frontend mtu" "" "$(grep 'device/vif/0/mtu' "$HP/tap-add.forkless")"
s_tap_on() { s_tap; ip link set vif1.0-emu master xenbr0 up; }
scenario tap-remove s_tap_on "${TAP_ENV[@]}" -- vif-bridge remove type_if=tap
has tap-remove "vif1.0-emu: <BROADCAST,MULTICAST> mtu 1500 qdisc"
scenario tap-add-env-type s_tap "${TAP_ENV[@]}" type_if=tap -- vif-bridge add
scenario tap-remove-vanished s_tap "${TAP_ENV[@]}" -- vif-bridge remove type_if=tap
# The keys are read where the tap's name points (vif1.0-emu: backend/vif/1/0),
# not at XENBUS_PATH: here the environment's names another device.
s_tap_mtu() { s_tap; xs write backend/vif/1/0/mtu 1280; }
scenario tap-mtu-from-xenstore s_tap_mtu "${TAP_ENV[@]/XENBUS_PATH=backend\/vif\/1\/0/XENBUS_PATH=backend/vif/7/7}" -- vif-bridge add type_if=tap
has tap-mtu-from-xenstore "vif1.0-emu: <NO-CARRIER,BROADCAST,MULTICAST,UP> mtu 1280"
s_tap_bad_mtu() { s_tap; xs write backend/vif/1/0/mtu jumbo; }
scenario tap-mtu-not-a-number s_tap_bad_mtu "${TAP_ENV[@]}" -- vif-bridge add type_if=tap
# vifname: the tap is renamed VIFNAME-emu on add, named so on remove
s_tap_vifname() { s_tap; xs write backend/vif/1/0/vifname web0; }
scenario tap-vifname s_tap_vifname "${TAP_ENV[@]}" -- vif-bridge add type_if=tap
has tap-vifname "web0-emu: <NO-CARRIER,BROADCAST,MULTICAST,UP> mtu 1400 qdisc pfifo_fast master xenbr0"
s_tap_vifname_on() { s_tap_vifname; ip link set vif1.0-emu name web0-emu; ip link set web0-emu master xenbr0 up; }
scenario tap-vifname-remove s_tap_vifname_on "${TAP_ENV[@]}" -- vif-bridge remove type_if=tap
has tap-vifname-remove "web0-emu: <BROADCAST,MULTICAST> mtu 1500 qdisc pfifo_fast state DOWN"
s_tap_vifname_taken() { s_tap_vifname; add_tap web0-emu; }
scenario tap-vifname-taken s_tap_vifname_taken "${TAP_ENV[@]}" -- vif-bridge add type_if=tap
has tap-vifname-taken "/local/domain/0/backend/vif/1/0/hotplug-error=Cannot rename interface vif1.0-emu. An interface with name web0-emu already exists."
has tap-vifname-taken "rc 1"
# What libxl passes when vifname is set: INTERFACE=web0-emu, the name QEMU
# gave the tap. The scripts then look for keys under backend/vif/web0/web0
# (none: no rename, the bridge from $bridge or the first one).
s_tap_named() { add_bridge xenbr0 02:00:00:00:00:10 1400; add_tap web0-emu; xs write backend/vif/1/0/vifname web0; }
scenario tap-libxl-vifname s_tap_named "${TAP_ENV[@]/INTERFACE=vif1.0-emu/INTERFACE=web0-emu}" -- vif-bridge add type_if=tap
has tap-libxl-vifname "web0-emu: <NO-CARRIER,BROADCAST,MULTICAST,UP> mtu 1400 qdisc pfifo_fast master xenbr0"
# Odd names: the DOMID up to the last dot, the DEVID after the first.
s_tap_odd() { s_tap; ip link set vif1.0-emu name vif2.3.4-emu; xs write backend/vif/2.3/3.4/bridge xenbr0 backend/vif/2.3/3.4/mtu 1300; }
scenario tap-dotted-name s_tap_odd "${TAP_ENV[@]/INTERFACE=vif1.0-emu/INTERFACE=vif2.3.4-emu}" -- vif-bridge add type_if=tap
has tap-dotted-name "mtu 1300"
s_tap_plain_name() { add_bridge xenbr0 02:00:00:00:00:10; add_tap qemutap; }
scenario tap-other-name s_tap_plain_name "${TAP_ENV[@]/INTERFACE=vif1.0-emu/INTERFACE=qemutap}" -- vif-bridge add type_if=tap
has tap-other-name "master xenbr0"
# failures: no such bridge (fatal: hotplug-error under the tap's path), the
# tap gone (set -e: exit 1, ip's complaint in xen-hotplug.log), no INTERFACE
s_tap_missing() { s_tap; xs write backend/vif/1/0/bridge xenbr9; }
scenario tap-missing-bridge s_tap_missing "${TAP_ENV[@]}" -- vif-bridge add type_if=tap
has tap-missing-bridge "/local/domain/0/backend/vif/1/0/hotplug-error=Could not find bridge device xenbr9"
s_tap_gone() { add_bridge xenbr0 02:00:00:00:00:10; xs write backend/vif/1/0/bridge xenbr0; }
FIXUP='$a <27>TIME root: /etc/xen/scripts/vif-bridge: vif1.0-emu: No such device' \
scenario tap-vanished s_tap_gone "${TAP_ENV[@]}" -- vif-bridge add type_if=tap
has tap-vanished "rc 1"
check "vif-bridge/tap-vanished: xen-hotplug.log" 'Cannot find device "vif1.0-emu"' "$(cat "$HP/tap-vanished.forkless.hplog")"
s_tap_other() { s_tap; add_bridge xenbr1 02:00:00:00:00:11; ip link set vif1.0-emu master xenbr1; }
FIXUP='$a <27>TIME root: /etc/xen/scripts/vif-bridge: brctl addif: already a member of a bridge: Resource busy' \
scenario tap-on-another-bridge s_tap_other "${TAP_ENV[@]}" -- vif-bridge add type_if=tap
scenario tap-no-INTERFACE s_tap "${TAP_ENV[@]/INTERFACE=vif1.0-emu/INTERFACE=}" -- vif-bridge add type_if=tap
has tap-no-INTERFACE "rc 1"
scenario tap-invalid-type s_tap "${TAP_ENV[@]}" -- vif-bridge add type_if=emu
# add reads vifname, bridge and mtu in one round trip, and writes nothing;
# remove reads vifname and bridge
check "vif-bridge/tap-add: xenstore requests (Debian's: $(cat "$HP/tap-add.debian.xsreq"))" 3 "$(cat "$HP/tap-add.forkless.xsreq")"
check "vif-bridge/tap-add: xenstore round trips" 1 "$(hp_xs_trips "$HP/tap-add.forkless.strace")"
check "vif-bridge/tap-remove: xenstore requests (Debian's: $(cat "$HP/tap-remove.debian.xsreq"))" 2 "$(cat "$HP/tap-remove.forkless.xsreq")"
if [ -z "${FORKLESS_SANITIZED:-}" ]; then   # (its runtime makes syscalls of its own)
	# online's, less the frontend's mtu and hotplug-status
	check "vif-bridge/tap-add: at most 47 system calls (Debian's: $(hp_procs "$HP/tap-add.debian.strace") processes)" \
		yes "$(hp_syscalls_within "$HP/tap-add.forkless.strace" 47)"
	check "vif-bridge/tap-remove: at most 33 system calls (Debian's: $(hp_procs "$HP/tap-remove.debian.strace") processes)" \
		yes "$(hp_syscalls_within "$HP/tap-remove.forkless.strace" 33)"
fi

# ---- forkless only -------------------------------------------------------

# Without /dev/log the lines go to stderr as logging.sh's fallback does:
# to xen-hotplug.log
net_reset; vif_xs_reset vif-bridge; : >"$HP/syslog"; s_plain; hp_use forkless vif-bridge
mv /dev/log /dev/log.off
rm -f "$HP_ERR_LOG"
hp_call "${VIF_ENV[@]}" -- vif-bridge online
check "vif-bridge/stderr-log: status" 0 "$RC"
check "vif-bridge/stderr-log: lines" "/etc/xen/scripts/vif-bridge online XENBUS_PATH=backend/vif/1/0
/etc/xen/scripts/vif-bridge xenbr0 MTU is 1400" "$(head -2 "$HP_ERR_LOG")"
check "vif-bridge/stderr-log: nothing on stderr" "" "$ERR"
check "vif-bridge/stderr-log: the file made as >> makes it" "-rw-r--r-- root" "$(stat -c '%A %U' "$HP_ERR_LOG")"
mv /dev/log.off /dev/log
# Appended to, never truncated; without /var/log/xen, stderr (where
# Debian's exec 2>> fails and the script exits 1)
printf 'before\n' >"$HP_ERR_LOG"
net_reset; vif_xs_reset vif-bridge; s_plain; ip link del vif1.0
hp_call "${VIF_ENV[@]}" -- vif-bridge online
check "vif-bridge/xen-hotplug.log: appended" 'before
Cannot find device "vif1.0"' "$(cat "$HP_ERR_LOG")"
mv /var/log/xen /var/log/xen.off
hp_call "${VIF_ENV[@]}" -- vif-bridge online
check "vif-bridge/xen-hotplug.log: no directory: stderr" '1 Cannot find device "vif1.0"' "$RC $(printf '%s' "$ERR")"
mv /var/log/xen.off /var/log/xen

# Hooks in vif-post.d: Debian's script runs them, so it runs instead, by
# exec (the strace shows one process: forkless, then the script's bash
# with its own children).
net_reset; vif_xs_reset vif-bridge; : >"$HP/syslog"; s_plain; hp_use forkless vif-bridge
mkdir -p /etc/xen/scripts/vif-post.d
printf 'xenstore_write "$XENBUS_PATH/hooked" yes\n' >/etc/xen/scripts/vif-post.d/10-test.hook
chmod +x /etc/xen/scripts/vif-post.d/10-test.hook
HP_STRACE=$HP/hook.strace hp_call "${VIF_ENV[@]}" -- vif-bridge online
check "vif-bridge/hook: status" 0 "$RC"
check "vif-bridge/hook: the hook ran" yes "$(xs read backend/vif/1/0/hooked 2>&1)"
check "vif-bridge/hook: connected" connected "$(xs read backend/vif/1/0/hotplug-status 2>&1)"
check "vif-bridge/hook: exec'd, not forked" \
	"execve(\"/etc/xen/scripts/vif-bridge.distrib\", [\"/etc/xen/scripts/vif-bridge.distrib\", \"online\"]" \
	"$(grep -o 'execve("/etc/xen/scripts/vif-bridge.distrib", \[[^]]*\]' "$HP/hook.strace" | head -1)"
check "vif-bridge/hook: same pid" 1 "$(grep -E 'execve\("/etc/xen/scripts/vif-bridge(.distrib)?"' "$HP/hook.strace" | cut -d' ' -f1 | sort -u | wc -l)"
check "vif-bridge/hook: logged once" 1 "$(grep -c 'handing over to /etc/xen/scripts/vif-bridge.distrib: hooks in /etc/xen/scripts/vif-post.d' "$HP/syslog")"
chmod -x /etc/xen/scripts/vif-post.d/10-test.hook
net_reset; vif_xs_reset vif-bridge; s_plain
HP_STRACE=$HP/nohook.strace hp_call "${VIF_ENV[@]}" -- vif-bridge online
check "vif-bridge/hook: a non-executable hook is not one" 1 "$(hp_procs "$HP/nohook.strace")"
rm -r /etc/xen/scripts/vif-post.d

# A call to hand over without the diverted script: an error.
net_reset; vif_xs_reset vif-bridge; s_plain
rm /etc/xen/scripts/vif-bridge.distrib
xs write backend/vif/1/0/hotplug-status ""
hp_call "${VIF_ENV[@]}" -- vif-bridge online 'bridge=$(true)'
check "vif-bridge/no-distrib: status" 1 "$RC"
check "vif-bridge/no-distrib: hotplug-error" \
	"cannot run /etc/xen/scripts/vif-bridge.distrib (/etc/xen/scripts/vif-bridge.distrib is neither Debian 12's nor Debian 13's): No such file or directory" \
	"$(xs read backend/vif/1/0/hotplug-error 2>&1)"

# ---- Debian 12's scripts (4.17): the subset --------------------------
# a bridge's online and offline, an error's, a missing variable's (bash's
# words with a file and line), QEMU's tap
hp_release bookworm
scenario online s_plain "${VIF_ENV[@]}" -- vif-bridge online
has online "hotplug-status=connected"
scenario offline s_offline "${VIF_ENV[@]}" -- vif-bridge offline
scenario missing-bridge s_missing "${VIF_ENV[@]}" -- vif-bridge online
scenario no-XENBUS_PATH s_plain vif=vif1.0 -- vif-bridge online
scenario tap-add s_tap "${TAP_ENV[@]}" -- vif-bridge add type_if=tap
scenario tap-remove s_tap_on "${TAP_ENV[@]}" -- vif-bridge remove type_if=tap

# A xenstored that never answers: reported within the budget, not hung.
exit 0
