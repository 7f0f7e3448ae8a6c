#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/hotplug/vif-route.sh - forkless's vif-route against Debian's
# script (bash, real ifconfig and ip) in a network namespace: dom0's eth0
# (a veth with 10.1.0.1/24), vif1.0 (a veth); the end states compared:
# exit status, every xenstore key, links, addresses, routes, proxy ARP,
# the syslog lines.
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
hp_prepare vif-route || exit 0
if ! command -v ifconfig >/dev/null; then
	apt-get install -y -q net-tools >/dev/null 2>&1 ||
		{ fail vif-route "ifconfig missing (Debian: net-tools; Debian's vif-route runs it)"; exit 0; }
fi
hp_enter "$@"
hp_root || { fail vif-route/setup "cannot build the test dom0"; exit 0; }

HP_FAMILY=vif-route
VIF_ENV=(script=/etc/xen/scripts/vif-route XENBUS_TYPE=vif
	XENBUS_PATH=backend/vif/1/0 XENBUS_BASE_PATH=backend vif=vif1.0
	netdev= type_if=vif)
hp_reset() { net_reset; vif_xs_reset vif-route; }
state() {
	echo "rc $RC"
	grep -v -e '^/=' -e '^/local=' -e '^/local/domain=' -e '^/local/domain/0=' "$HP/xs/tree"
	net_state
	for f in /proc/sys/net/ipv4/conf/vif1.0/proxy_arp; do [ -e $f ] && echo "proxy_arp $(cat $f)"; done
	hp_syslog
}
add_eth() {   # add_eth NAME ADDR/LEN
	ip link add "$1" address 02:00:00:00:01:01 type veth peer name "$1-peer" address 02:00:00:00:01:02
	ip addr add "$2" dev "$1"
	ip addr add 10.1.0.77/24 dev "$1"   # a secondary: not dom0's address
	ip link set "$1" up
}

s_plain() { add_eth eth0 10.1.0.1/24; add_vif vif1.0; xs write backend/vif/1/0/ip "10.1.0.5 10.2.0.0/16"; }
scenario online s_plain "${VIF_ENV[@]}" -- vif-route online
# vifname and ip read at once, then hotplug-status written: 3 requests, 2 round trips
check "vif-route/online: xenstore requests (Debian's: $(cat "$HP/online.debian.xsreq"))" 3 "$(cat "$HP/online.forkless.xsreq")"
check "vif-route/online: xenstore round trips" 2 "$(hp_xs_trips "$HP/online.forkless.strace")"
has online "10.1.0.5 dev vif1.0 scope link src 10.1.0.1 metric 2 linkdown "
has online "vif1.0    inet 10.1.0.1/32 brd 10.255.255.255 scope global vif1.0 valid_lft forever preferred_lft forever"
has online "proxy_arp 1"
has online "/local/domain/0/backend/vif/1/0/hotplug-status=connected"

s_noip() { add_eth eth0 10.1.0.1/24; add_vif vif1.0; }
scenario online-no-ip s_noip "${VIF_ENV[@]}" -- vif-route online
scenario online-ip-from-env s_noip "${VIF_ENV[@]}" ip=10.1.0.9 -- vif-route online
has online-ip-from-env "10.1.0.9 dev vif1.0 scope link src 10.1.0.1 metric 2 linkdown "

s_classc() { add_eth eth1 192.168.7.1/24; add_vif vif1.0; xs write backend/vif/1/0/ip 192.168.7.20; }
scenario netdev-eth1-class-c s_classc "${VIF_ENV[@]}" netdev=eth1 -- vif-route online
has netdev-eth1-class-c "inet 192.168.7.1/32 brd 192.168.7.255"

s_offline() { s_plain; ip addr add 10.1.0.1/32 dev vif1.0; ip link set vif1.0 up
	ip route add 10.1.0.5 dev vif1.0 src 10.1.0.1 metric 2; ip route add 10.2.0.0/16 dev vif1.0 src 10.1.0.1 metric 2; }
scenario offline s_offline "${VIF_ENV[@]}" -- vif-route offline
s_offline_gone() { s_plain; ip link del vif1.0; }
scenario offline-vif-gone s_offline_gone "${VIF_ENV[@]}" -- vif-route offline

s_no_eth0() { add_vif vif1.0; xs write backend/vif/1/0/ip 10.1.0.5; }
scenario no-netdev s_no_eth0 "${VIF_ENV[@]}" -- vif-route online
has no-netdev "/local/domain/0/backend/vif/1/0/hotplug-error=/etc/xen/scripts/vif-route failed; error detected."
has no-netdev " is not up.  Bring it up or specify another interface with  netdev=<if> as a parameter to /etc/xen/scripts/vif-route."
scenario no-netdev-named s_no_eth0 "${VIF_ENV[@]}" netdev=eth5 -- vif-route online

s_badprefix() { s_plain; xs write backend/vif/1/0/ip 10.1.0.5/24; }
FIXUP='/scripts\/vif-route: online XENBUS_PATH/a <27>TIME root: /etc/xen/scripts/vif-route: ip route add: Invalid argument' \
scenario host-bits-in-prefix s_badprefix "${VIF_ENV[@]}" -- vif-route online
has host-bits-in-prefix "/local/domain/0/backend/vif/1/0/hotplug-status=error"

s_novif() { add_eth eth0 10.1.0.1/24; }
FIXUP='/scripts\/vif-route: online XENBUS_PATH/a <27>TIME root: /etc/xen/scripts/vif-route: ifconfig: No such device' \
scenario vif-vanished s_novif "${VIF_ENV[@]}" -- vif-route online

# An emulated NIC's tap (type_if=tap add|remove, QEMU's tap vif1.0-emu, a real
# tap device): the same steps, routes at metric 1, no hotplug-status.
TAP_ENV=(script=/etc/xen/scripts/vif-route XENBUS_TYPE=vif
	XENBUS_PATH=backend/vif/1/0 XENBUS_BASE_PATH=backend netdev=
	INTERFACE=vif1.0-emu vif=vif1.0)
s_tap() { add_eth eth0 10.1.0.1/24; ip tuntap add dev vif1.0-emu mode tap; ip link set vif1.0-emu address 00:16:3e:00:00:03
	xs write backend/vif/1/0/ip "10.1.0.5 10.2.0.0/16"; }
state() {   # (with the taps' proxy_arp)
	echo "rc $RC"
	grep -v -e '^/=' -e '^/local=' -e '^/local/domain=' -e '^/local/domain/0=' "$HP/xs/tree"
	net_state
	for f in /proc/sys/net/ipv4/conf/*/proxy_arp; do case $f in */vif*) echo "$f $(cat $f)";; esac; done
	hp_syslog; }
scenario tap-add s_tap "${TAP_ENV[@]}" -- vif-route add type_if=tap
has tap-add "10.1.0.5 dev vif1.0-emu scope link src 10.1.0.1 metric 1 linkdown "
has tap-add "/proc/sys/net/ipv4/conf/vif1.0-emu/proxy_arp 1"
has tap-add "/local/domain/0/backend/vif/1/0/hotplug-status="
s_tap_on() { s_tap; ip addr add 10.1.0.1/32 dev vif1.0-emu; ip link set vif1.0-emu up
	ip route add 10.1.0.5 dev vif1.0-emu src 10.1.0.1 metric 1; ip route add 10.2.0.0/16 dev vif1.0-emu src 10.1.0.1 metric 1; }
scenario tap-remove s_tap_on "${TAP_ENV[@]}" -- vif-route remove type_if=tap
s_tap_vifname() { s_tap; xs write backend/vif/1/0/vifname web0; }
scenario tap-vifname s_tap_vifname "${TAP_ENV[@]}" -- vif-route add type_if=tap
has tap-vifname "10.1.0.5 dev web0-emu scope link src 10.1.0.1 metric 1 linkdown "
s_tap_gone() { add_eth eth0 10.1.0.1/24; }
FIXUP='/scripts\/vif-route: add type_if=tap XENBUS_PATH/a <27>TIME root: /etc/xen/scripts/vif-route: ifconfig: No such device' \
scenario tap-vanished s_tap_gone "${TAP_ENV[@]}" -- vif-route add type_if=tap
scenario tap-remove-vanished s_tap_gone "${TAP_ENV[@]}" -- vif-route remove type_if=tap

# An ip entry forkless does not parse (IPv6 here): Debian's script runs.
s_v6() { s_plain; xs write backend/vif/1/0/ip 2001:db8::5; }
FIXUP='/scripts\/vif-route: online XENBUS_PATH/a <29>TIME root: /etc/xen/scripts/vif-route: handing over to /etc/xen/scripts/vif-route.distrib: an ip entry other than ADDR[/LEN]\n<31>TIME root: /etc/xen/scripts/vif-route.distrib: online XENBUS_PATH=backend/vif/1/0
s|/etc/xen/scripts/vif-route: Writing|/etc/xen/scripts/vif-route.distrib: Writing|
s|^\(<27>TIME root: \)/etc/xen/scripts/vif-route: /etc/xen/scripts/vif-route failed|\1/etc/xen/scripts/vif-route.distrib: /etc/xen/scripts/vif-route.distrib failed|
s|hotplug-error=/etc/xen/scripts/vif-route failed|hotplug-error=/etc/xen/scripts/vif-route.distrib failed|
s|hotplug-error /etc/xen/scripts/vif-route failed|hotplug-error /etc/xen/scripts/vif-route.distrib failed|' \
WANT_PROCS=- scenario ipv6-handed-over s_v6 "${VIF_ENV[@]}" -- vif-route online
# ---- Debian 12's scripts (4.17): the subset --------------------------
# online and offline, no netdev (an error), QEMU's tap added and removed
hp_release bookworm
scenario online s_plain "${VIF_ENV[@]}" -- vif-route online
scenario offline s_offline "${VIF_ENV[@]}" -- vif-route offline
scenario no-netdev s_no_eth0 "${VIF_ENV[@]}" -- vif-route online
scenario tap-add s_tap "${TAP_ENV[@]}" -- vif-route add type_if=tap
scenario tap-remove s_tap_on "${TAP_ENV[@]}" -- vif-route remove type_if=tap
exit 0
