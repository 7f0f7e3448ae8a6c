#!/bin/busybox sh
# SPDX-License-Identifier: MIT
# /init of the test domU (tests/vm/toolstack/dom0.sh starts it; tests/vm/run builds its
# initramfs: busybox, this file, xen-blkfront and xen-netfront, 8139cp for an HVM guest's
# emulated NIC, /sbin/poweroff). Debian's kernel, PV (or PVH, HVM: guests.sh), console hvc0
# (HVM: the serial port). Prints on the console, read by dom0 through xl:
#   DOMU-MARKER ...            first line: the guest runs
#   DOMU-DEVICES block=... net=...
#   DOMU-PING <reply line>     (mode check) ping6 ff02::1 over eth0: who answered
#   DOMU-DISK ...              (mode check) "FORKLESS-DISK TOKEN" written at the start of xvda
#   DOMU-READY                 (mode check) all of the above done
#   DOMU-SEED marker=M ll=ADDR up=SECONDS disk=[TEXT]
#                              (mode seed) every 3 s, from the end of its boot on:
#                              M a random id made at boot and kept in RAM
#                              (the same only in the same boot), eth0's link-local address,
#                              the uptime, and the first line of xvda read from the disk
#                              (caches dropped first), as dom0 last wrote it there; at
#                              its start it writes "DOMU-WROTE TOKEN" into xvda's second
#                              block
# Kernel command line: fltest.mode=check|idle|seed, fltest.token=TOKEN.
B=/bin/busybox
$B mount -t proc proc /proc
$B mount -t sysfs sysfs /sys
$B mount -t devtmpfs devtmpfs /dev
$B mkdir -p /tmp /sbin
$B --install -s /bin
export PATH=/bin:/sbin
exec </dev/console >/dev/console 2>&1
MODE=idle TOKEN=none
for a in $(cat /proc/cmdline); do
	case $a in
	fltest.mode=*) MODE=${a#*=} ;;
	fltest.token=*) TOKEN=${a#*=} ;;
	esac
done
echo "DOMU-MARKER up: kernel $(uname -r), mode $MODE, uptime $(cut -d' ' -f1 /proc/uptime)s"
for m in xen-blkfront xen-netfront mii 8139cp; do insmod /lib/modules/$m.ko || echo "DOMU: insmod $m failed"; done
i=0
while { [ ! -e /sys/block/xvda ] || [ ! -e /sys/class/net/eth0 ]; } && [ $i -lt 40 ]; do
	sleep 0.5
	i=$((i + 1))
done
echo "DOMU-DEVICES block=$(ls /sys/block | tr '\n' ' ') net=$(ls /sys/class/net | tr '\n' ' ')"
if [ "$MODE" = check ]; then
	# link-local only: the kernel gives eth0 its fe80:: address once the link is up
	ip link set eth0 up
	i=0
	while ! ip -6 addr show dev eth0 scope link | grep -q 'inet6 fe80' ||
		ip -6 addr show dev eth0 | grep -q tentative; do
		[ $i -lt 60 ] || break
		sleep 0.5
		i=$((i + 1))
	done
	own=$(ip -6 addr show dev eth0 scope link | sed -n 's/.*inet6 \(fe80[^/]*\).*/\1/p')
	# all-nodes multicast: every node on the link answers, dom0's xenbr0 among them
	# (until one that is not us has answered, or 10 tries)
	i=0
	while [ $i -lt 10 ]; do
		ping6 -w 3 -I eth0 ff02::1 >/tmp/ping 2>&1
		grep 'bytes from' /tmp/ping | grep -vq "from $own" && break
		i=$((i + 1))
	done
	echo "DOMU-PING own=$own"
	grep 'bytes from' /tmp/ping | sort -u -k4,4 | sed 's/^/DOMU-PING /'
	echo "FORKLESS-DISK $TOKEN" | dd of=/dev/xvda bs=512 conv=sync,fsync 2>/tmp/dd && echo "DOMU-DISK written" ||
		echo "DOMU-DISK failed: $(cat /tmp/dd)"
	echo DOMU-READY
fi
if [ "$MODE" = seed ]; then
	ip link set eth0 up
	read -r marker </proc/sys/kernel/random/uuid # kept in RAM: the same only in the same boot
	# the guest's own write, in xvda's second block (dom0 reads it from the image)
	echo "DOMU-WROTE $TOKEN" | dd of=/dev/xvda bs=512 seek=1 count=1 conv=notrunc,sync 2>/dev/null
	sync
	own=
	# every 3 s, whoever is attached (an `xl console` sees what is printed while attached);
	# builtins only but `sleep` and, until eth0 has it, `ip`: five guests share one CPU
	while :; do
		[ -n "$own" ] ||
			own=$(ip -6 addr show dev eth0 scope link | sed -n 's/.*inet6 \(fe80[^/]*\).*/\1/p')
		echo 3 >/proc/sys/vm/drop_caches
		read -r disk </dev/xvda
		read -r up _ </proc/uptime
		echo "DOMU-SEED marker=$marker ll=$own up=$up disk=[$disk]"
		sleep 3
	done
fi
while :; do sleep 1000; done
