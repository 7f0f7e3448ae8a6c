#!/bin/busybox sh
# SPDX-License-Identifier: MIT
# /init of the driver domain (tests/vm/toolstack/driver.sh starts it; tests/vm/run builds
# its initramfs: busybox, forkless and its links (`forkless --install -s`), xl and the
# libraries it needs from the dom0 root, Debian's xen-utils-wrapper, the backend modules,
# this file). A PV domU with driver_domain=1: its `xl devd` (started through forkless's
# xl link) runs the hotplug calls of the devices it backs, with forkless's applets in
# /etc/xen/scripts. Prints on its console, read by dom0 through `xl console`:
#   DD-WRAP forkless|debian rc=N err=[TEXT]   `xl` through forkless's link and through
#                              Debian's xen-utils-wrapper with /usr/lib/xen-VERSION moved
#                              away: the version lock's message in a domU
#   DD-READY                   xenbr1 made, xl devd running
#   DD-STAT devd=PID|none calls=N procs=M scripts=[NAME ...] disk=[TEXT]  every 3 s:
#                              the hotplug calls so far (the kernel's sched events: a call
#                              is an exec of /etc/xen/scripts/*, its processes the call's
#                              own and every process forked below it), the first line of
#                              the disk image it backs
#   DD-LOG FILE: TEXT          each new line of a file in its /var/log/xen (xen-hotplug.log,
#                              xldevd.log, syslog: busybox syslogd's)
B=/bin/busybox
$B mount -t proc proc /proc
$B mount -t sysfs sysfs /sys
$B mount -t devtmpfs devtmpfs /dev
$B mkdir -p /tmp /sbin /run/xen /run/lock /var/lib/xen /var/log/xen /proc/xen
$B --install -s /bin
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
exec </dev/console >/dev/console 2>&1
for m in $(cat /lib/modules/order); do insmod /lib/modules/$m.ko || echo "DD: insmod $m failed"; done
mount -t xenfs xenfs /proc/xen || echo "DD: mount xenfs failed"
ln -sf /proc/self/fd /dev/fd
# the version lock: the wrapper with no /usr/lib/xen-VERSION for the running hypervisor
XV=$(cat /sys/hypervisor/version/major).$(cat /sys/hypervisor/version/minor)
mv /usr/lib/xen-$XV /usr/lib/xen-$XV.away
for w in forkless:/usr/sbin/xl debian:/debian/xl; do
	${w#*:} list >/tmp/w.out 2>/tmp/w.err
	echo "DD-WRAP ${w%%:*} rc=$? err=[$(tr '\n' '|' </tmp/w.err)]"
done
mv /usr/lib/xen-$XV.away /usr/lib/xen-$XV
# the disk it backs (a file: the block applet attaches a loop device) and its bridge
dd if=/dev/zero of=/var/lib/xen/dd-disk.img bs=1M count=8 2>/dev/null
brctl addbr xenbr1 && ip link set xenbr1 up || echo "DD: bridge xenbr1 failed"
# every fork, exec and exit from here on (tracefs), then xl devd, as a driver domain runs it
T=/sys/kernel/tracing
mount -t tracefs tracefs $T
echo 4096 >$T/buffer_size_kb
for e in sched_process_fork sched_process_exec; do echo 1 >$T/events/sched/$e/enable; done
echo 1 >$T/tracing_on
# syslog (the applets' reasons for a failed call) into a file below /var/log/xen
syslogd -O /var/log/xen/syslog || echo "DD: syslogd failed"
xl devd -p /run/xen/devd.pid >/tmp/devd.log 2>&1 || echo "DD: xl devd failed: $(cat /tmp/devd.log)"
echo DD-READY
while :; do
	disk=$(dd if=/var/lib/xen/dd-disk.img bs=64 count=1 2>/dev/null | tr -d '\000\n')
	awk '
	/sched_process_exec: filename=\/etc\/xen\/scripts\// {
		split($0, a, "filename="); split(a[2], f, " "); split(a[2], p, "pid="); split(p[2], q, " ")
		calls++; in_call[q[1]] = 1; n = f[1]; sub(".*/", "", n); names = names " " n
	}
	/sched_process_fork:/ {
		split($0, a, "pid="); split(a[2], pp, " "); split($0, c, "child_pid="); split(c[2], cc, " ")
		if (pp[1] in in_call) in_call[cc[1]] = 1
	}
	END { m = 0; for (k in in_call) m++; printf "calls=%d procs=%d scripts=[%s]", calls, m, substr(names, 2) }
	' $T/trace >/tmp/stat
	echo "DD-STAT devd=$(cat /run/xen/devd.pid 2>/dev/null || echo none) $(cat /tmp/stat) disk=[$disk]"
	# what the hotplug calls left in /var/log/xen (xen-hotplug.log, xl devd's own
	# log with their stderr, syslog): the lines new since the last pass, as DD-LOG
	for f in /var/log/xen/*; do
		[ -f "$f" ] || continue
		k=$(echo "$f" | tr -c 'a-z0-9\n' _)
		n=$(wc -l <"$f") || n=0
		eval "s=\${shown_$k:-0}"
		[ "${n:-0}" -gt "$s" ] && tail -n +$((s + 1)) "$f" | sed "s|^|DD-LOG ${f##*/}: |"
		eval "shown_$k=\${n:-0}"
	done
	sleep 3
done
