#!/bin/bash
# SPDX-License-Identifier: MIT
# Benchmark: what one shared-folder mount costs, from execve to exit.
#
# The same 9p and vboxsf mounts through forkless's helpers, through
# util-linux mount(8) without a helper (`mount -i`), through mount(8)
# running the forkless helper (what `mount -t 9p` does once the helper is
# installed), and through busybox mount (busybox-static's binary, fetched
# with `apt-get download` when the VM cache does not have it). mount(2) is
# injected to succeed (strace -e inject=mount:retval=0), so no hypervisor
# is needed and every variant does the same kernel work: one mount(2).
# mount.shared finds its tag in a stand-in sysfs (tests/mount/lib-mount.sh).
# Counted with strace -f: syscalls, processes (execve), and the time of
# RUNS fake mounts (-f, no strace) per variant, in a private mount
# namespace. Prints a Markdown table, also written to build/bench/mount.md
# (docs/benchmarks.md).
. "$(dirname "$0")/../lib.sh"
need_root bench-mount || exit 0
for t in strace unshare mount; do
	command -v $t >/dev/null || { skip bench-mount "$t not installed"; exit 0; }
done
RUNS=${RUNS:-300}
T=$(scratch bench-mount)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/sbin" "$T/mnt"
for a in mount.vboxsf mount.9p mount.shared; do ln -s "$FORKLESS" "$T/sbin/$a"; done

# busybox: the VM harness's cached copy (tests/vm/run unpacks busybox-static
# there), else busybox-static from the archive
BB=
for c in "$TOP/build/vm-cache/unpacked/busybox-static/bin/busybox" "$TOP/build/bench/busybox/bin/busybox"; do
	[ -x "$c" ] && BB=$c && break
done
if [ -z "$BB" ] && command -v apt-get >/dev/null; then
	mkdir -p "$TOP/build/bench/busybox" && (cd "$TOP/build/bench" &&
		apt-get download busybox-static >/dev/null 2>&1 &&
		dpkg -x busybox-static_*.deb busybox) && BB=$TOP/build/bench/busybox/bin/busybox
	[ -x "$BB" ] || BB=
fi
[ -n "$BB" ] && info "bench-mount: busybox: $BB" ||
	info "bench-mount: busybox-static not available: its column is left out"

export T FORKLESS BB RUNS TOP
cat >"$T/ns.sh" <<'NS'
. "$TOP/tests/lib.sh"
. "$TOP/tests/mount/lib-mount.sh"
. "$TOP/tests/bench/lib-bench.sh"
mount --make-rprivate / 2>/dev/null
# mount.shared's rows: the tag in a stand-in sysfs (lib-mount.sh), as the
# kernel shows a virtio-9p device
HAVE_SYSFS=
if sysfs_standin bench-mount/shared; then
	mkdir -p /sys/bus/virtio/drivers/9pnet_virtio/virtio0
	printf 'hostshare\n' >/sys/bus/virtio/drivers/9pnet_virtio/virtio0/mount_tag
	HAVE_SYSFS=1
fi
sbindir=$(readlink -f /sbin)
mount -t overlay overlay -o "lowerdir=$T/sbin:$sbindir" "$sbindir" || { skip bench-mount "no overlayfs"; exit 0; }
M=$T/mnt
O9P=trans=virtio,version=9p2000.L,msize=512000
# measure LABEL CMD...: syscalls and processes under strace -f, and the
# mean time of RUNS runs of the fake variant ($FAKE_CMD).
measure() {
	local label=$1
	shift
	strace -f -qq -c -o "$T/c" -e inject=mount:retval=0 "$@" >/dev/null 2>"$T/err"
	local rc=$?
	local sys=$(awk '$NF == "total" { print $4 }' "$T/c")
	local execs=$(awk '$NF == "execve" { print $4 }' "$T/c")
	local mounts=$(awk '$NF == "mount" { print $4 }' "$T/c")
	sys=$((sys + ${execs:-0}))   # strace -c leaves out exit_group: one per process
	for _ in 1 2 3 4 5 6 7 8; do "${FAKE[@]}" >/dev/null 2>&1; done   # warm the page cache
	# RUNS runs in 5 batches: the mean, and the batches' lowest and highest mean
	local per=$(( (RUNS + 4) / 5 )) b start batches=
	for b in 1 2 3 4 5; do
		start=$(date +%s%N)
		for _ in $(seq "$per"); do "${FAKE[@]}" >/dev/null 2>&1; done
		batches+="$(( ($(date +%s%N) - start) / 1000 / per )) "
	done
	local us=$(awk -v l="$batches" 'BEGIN { n = split(l, x, " "); lo = hi = x[1]
		for (i = 1; i <= n; i++) { s += x[i]; if (x[i] < lo) lo = x[i]; if (x[i] > hi) hi = x[i] }
		printf "%d (%d–%d)", s / n, lo, hi }')
	if [ $rc != 0 ] || [ "${mounts:-0}" != 1 ]; then
		fail "bench-mount/$label" "exit $rc, ${mounts:-0} mount(2) calls" "$(cat "$T/err")"
		return
	fi
	printf '| %-52s | %8s | %9s | %8s |\n' "$label" "$sys" "${execs:-0}" "$us" | tee -a "$T/table.md"
	echo "$label $sys" >>"$T/results"
}
echo
{
	echo "| one mount (mount(2) injected to succeed)              | syscalls | processes | µs (fake) |"
	echo "|------------------------------------------------------|---------:|----------:|----------:|"
} | tee "$T/table.md"
FAKE=("$T/sbin/mount.vboxsf" share "$M" -f -o uid=1000,gid=1000)
measure "forkless mount.vboxsf -o uid=1000,gid=1000" "$T/sbin/mount.vboxsf" share "$M" -o uid=1000,gid=1000
FAKE=(mount -f -i -t vboxsf -o uid=1000,gid=1000 share "$M")
measure "util-linux mount -i -t vboxsf (no helper)" mount -i -t vboxsf -o uid=1000,gid=1000 share "$M"
FAKE=(mount -f -t vboxsf -o uid=1000,gid=1000 share "$M")
measure "util-linux mount -t vboxsf + forkless helper" mount -t vboxsf -o uid=1000,gid=1000 share "$M"
if [ -n "$BB" ]; then
	FAKE=("$BB" mount -f -t vboxsf -o uid=1000,gid=1000 share "$M")
	measure "busybox mount -t vboxsf" "$BB" mount -t vboxsf -o uid=1000,gid=1000 share "$M"
fi
FAKE=("$T/sbin/mount.9p" hostshare "$M" -f)
measure "forkless mount.9p (adds the same options itself)" "$T/sbin/mount.9p" hostshare "$M"
FAKE=(mount -f -i -t 9p -o $O9P hostshare "$M")
measure "util-linux mount -i -t 9p -o (same options)" mount -i -t 9p -o $O9P hostshare "$M"
FAKE=(mount -f -t 9p hostshare "$M")
measure "util-linux mount -t 9p + forkless helper" mount -t 9p hostshare "$M"
if [ -n "$BB" ]; then
	FAKE=("$BB" mount -f -t 9p -o $O9P hostshare "$M")
	measure "busybox mount -t 9p -o (same options)" "$BB" mount -t 9p -o $O9P hostshare "$M"
fi
if [ -n "$HAVE_SYSFS" ] && "$FORKLESS" --list | grep -qx mount.shared; then
	FAKE=("$T/sbin/mount.shared" hostshare "$M" -f)
	measure "forkless mount.shared (tag found in sysfs, then 9p)" "$T/sbin/mount.shared" hostshare "$M"
	FAKE=(mount -f -t shared hostshare "$M")
	measure "util-linux mount -t shared + forkless mount.shared" mount -t shared hostshare "$M"
fi
echo
{
	echo
	echo "Syscalls from execve to exit_group, all processes (strace -f -c); µs: the mean wall time of" \
		"$(( (RUNS + 4) / 5 * 5 )) fake mounts (-f: mount(8) runs no helper then), fork+exec from bash included," \
		"in 5 batches (in parentheses the batches' lowest and highest mean); $(mount -V 2>/dev/null | head -n 1 | sed 's/ *(.*//')."
} >>"$T/table.md"
bench_table mount "\`make bench\` (tests/bench/mount.sh)" <"$T/table.md"
info "bench-mount: syscalls from execve to exit_group, all processes (strace -f -c); µs: mean wall time of $RUNS fake mounts (-f), fork+exec from bash included"
f=$(awk '/^forkless mount.vboxsf/ { print $NF }' "$T/results")
[ -n "$f" ] && [ "$f" -ge 3 ] && [ "$f" -le 8 ] && pass "bench-mount/vboxsf-within-8-syscalls" || fail bench-mount/vboxsf-within-8-syscalls "$f syscalls"
NS
unshare -m bash "$T/ns.sh" </dev/null
exit 0
