#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/bench/shares-guest.sh - the guest half of tests/bench/shares.sh:
# copied into the VM guest's /vmtest/guest.d by tests/vm/run (VM_GUEST_EXTRA)
# and run by its /init after the checks, only when the kernel command line
# has vmtest.bench=shares (POSIX sh: busybox sh in the guest).
#
# On the real 9p share (tag hostshare) and the virtio-fs shares (tags
# vfs-MODE, one virtiofsd each, its --cache mode MODE), for each mount
# configuration, RUNS times, each run on a fresh mount (and dropped
# caches): `ls -l` of a 5,000-file directory (cold: the first after the
# mount; warm: the second), a sequential read of a READMB MB file, and a
# loop writing 500 files of 4 KiB (the shell's own echo: no process per
# file). One line per run:
#   VMTEST INFO BENCH CONFIG run=N ls_cold=US ls_warm=US read=US write=US
# (microseconds, /vmtest/vmclock). The host's shares hold bench/ls5000/
# and bench/big (tests/bench/shares.sh makes them).
if ! grep -q 'vmtest\.bench=shares' /proc/cmdline 2>/dev/null; then
	echo "INFO: tests/bench/shares-guest.sh runs inside the VM of tests/bench/shares.sh only"
	exit 0
fi
RUNS=3 VFS=
for arg in $(cat /proc/cmdline); do
	case $arg in
	vmtest.runs=*) RUNS=${arg#*=} ;;
	vmtest.vfs=*) VFS=${arg#*=} ;;
	esac
done
SBIN=/usr/sbin
M=/tmp/bench
CLK=/vmtest/vmclock
mkdir -p $M
info() { echo "VMTEST INFO $*"; }
# 4 KiB of text for the write loop
d=0123456789abcdef
d=$d$d$d$d; d=$d$d$d$d; d=$d$d$d$d   # 1024
DATA=$d$d$d$d

# run CONFIG N: one run on the share mounted at $M
run() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	t0=$($CLK)
	ls -l $M/bench/ls5000 >/dev/null
	t1=$($CLK)
	ls -l $M/bench/ls5000 >/dev/null
	t2=$($CLK)
	cat $M/bench/big >/dev/null
	t3=$($CLK)
	w=$M/bench/w-$2
	mkdir -p "$w"
	t4=$($CLK)
	i=0
	while [ $i -lt 500 ]; do
		echo "$DATA" >"$w/f$i"
		i=$((i + 1))
	done
	sync
	t5=$($CLK)
	rm -rf "$w"
	info "BENCH $1 run=$2 ls_cold=$((t1 - t0)) ls_warm=$((t2 - t1)) read=$((t3 - t2)) write=$((t5 - t4))"
}

# bench CONFIG MOUNT-CMD...: RUNS runs, each on a fresh mount
bench() {
	cfg=$1
	shift
	n=1
	while [ $n -le "$RUNS" ]; do
		if ! "$@" >/tmp/bench.err 2>&1; then
			info "BENCH $cfg failed: $(tr '\n' ' ' </tmp/bench.err | head -c 300)"
			return
		fi
		[ $n = 1 ] && info "BENCH $cfg mounted: $(grep " $M " /proc/mounts | head -1)"
		if [ ! -d $M/bench/ls5000 ]; then
			info "BENCH $cfg failed: no bench/ls5000 on the share"
			umount $M
			return
		fi
		run "$cfg" $n
		umount $M
		n=$((n + 1))
	done
}

# the kernel's defaults: plain mount(2), no options (busybox mount -i:
# no helper; trans=virtio is the kernel default too)
bench 9p/kernel-default mount -i -t 9p hostshare $M
for ms in 8192 131072 512000; do
	for c in none loose fscache mmap; do
		bench "9p/msize=$ms/cache=$c" mount -i -t 9p -o "trans=virtio,version=9p2000.L,msize=$ms,cache=$c" hostshare $M
	done
done
bench 9p/forkless-default $SBIN/mount.9p hostshare $M
for tag in $(echo "$VFS" | tr ',' ' '); do
	bench "virtiofs/virtiofsd-cache=${tag#vfs-}" $SBIN/mount.virtiofs "$tag" $M
done
info "BENCH done"
exit 0
