#!/bin/bash
# SPDX-License-Identifier: MIT
# Benchmark: shared-folder mount options measured in the VM (`make
# bench-shares`; in `make bench` only with BENCH_SHARES=1, since it boots
# QEMU for several minutes).
#
# Boots tests/vm/run's plain guest (VM_ONLY=noxen, TCG) with
# tests/bench/shares-guest.sh as an extra guest script: on the real 9p
# share and on three virtio-fs shares (one virtiofsd each, --cache
# auto|always|none) it times `ls -l` of a 5,000-file directory (cold and
# warm), a sequential read of a READ_MB MB file and a loop writing 500
# files of 4 KiB, for 9p msize 8 KiB / 128 KiB / 512000 (the virtio
# transport's maximum) with each cache= mode of the 6.1 kernel (none,
# loose, fscache, mmap), the kernel's defaults (no options) and forkless's
# (mount.9p without options). RUNS runs each, every run on a fresh mount.
# Prints a Markdown table (also build/bench/shares.md: docs/benchmarks.md):
# the mean of the runs in ms and the ratio to the kernel default (9p) or to
# virtiofsd's default (--cache auto). Raw lines in build/bench/shares.txt.
#
# Environment: RUNS (default 3), READ_MB (default 100), VM_CACHE (the VM
# harness's cache of .deb files, default build/vm-cache), VM_LOCK (a lock
# file to take around the boot, default none).
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/bench/lib-bench.sh"
if [ -z "${BENCH_SHARES:-}" ]; then
	skip bench-shares "boots QEMU for minutes: make bench-shares (or BENCH_SHARES=1) runs it"
	exit 0
fi
need_root bench-shares || exit 0
RUNS=${RUNS:-3}
READ_MB=${READ_MB:-100}
CACHE=${VM_CACHE:-$TOP/build/vm-cache}
OUT=$TOP/build/bench
mkdir -p "$OUT"
SEED=$OUT/shares-seed
# the data set, made once: bench/ls5000/f0000..f4999 (100 bytes each),
# bench/big (READ_MB MB)
if [ ! -d "$SEED/bench/ls5000" ] || [ "$(find "$SEED/bench/ls5000" -type f | wc -l)" != 5000 ]; then
	rm -rf "$SEED" && mkdir -p "$SEED/bench/ls5000" || exit 1
	(cd "$SEED/bench/ls5000" && for i in $(seq -w 0 4999); do head -c 100 /dev/urandom >"f$i"; done)
fi
if [ "$(stat -c %s "$SEED/bench/big" 2>/dev/null)" != $((READ_MB * 1048576)) ]; then
	head -c $((READ_MB * 1048576)) /dev/urandom >"$SEED/bench/big" || exit 1
fi

lock=()
[ -n "${VM_LOCK:-}" ] && lock=(flock "$VM_LOCK")
start=$(date +%s)
"${lock[@]}" env VM_ONLY=noxen VM_SHARE_SEED="$SEED" VM_VIRTIOFS_CACHES="auto always none" \
	VM_GUEST_EXTRA="$TOP/tests/bench/shares-guest.sh" VM_BOOT_TIMEOUT=${VM_BOOT_TIMEOUT:-900} \
	VM_APPEND="vmtest.bench=shares vmtest.runs=$RUNS" \
	"$TOP/tests/vm/run" "$FORKLESS" "$CACHE" >"$OUT/shares-vm.txt" 2>&1
rc=$?
took=$(($(date +%s) - start))
grep -a 'INFO: vm-noxen: BENCH ' "$OUT/shares-vm.txt" | sed 's/^INFO: vm-noxen: BENCH //' >"$OUT/shares.txt"
if ! grep -q '^done' "$OUT/shares.txt"; then
	fail bench-shares "the guest did not finish (vm exit $rc, ${took}s); see $OUT/shares-vm.txt" \
		"$(grep -E '^(FAIL|SKIPPED)' "$OUT/shares-vm.txt" | head -5)"
	exit 0
fi
grep -E 'failed|mounted:' "$OUT/shares.txt" | sed 's/^/INFO: bench-shares: /'
info "bench-shares: one boot, ${took}s (vm exit $rc), $RUNS runs per configuration, read of $READ_MB MB"

# the table: means in ms, ratio to the reference of its group
awk -v runs="$RUNS" -v mb="$READ_MB" '
/ run=[0-9]+ / {
	cfg = $1
	if (!(cfg in n)) order[++ncfg] = cfg
	n[cfg]++
	for (i = 3; i <= NF; i++) {
		split($i, kv, "=")
		sum[cfg, kv[1]] += kv[2]
	}
}
function mean(c, k) { return sum[c, k] / n[c] / 1000 }
function ref(c) { return c ~ /^virtiofs/ ? "virtiofs/virtiofsd-cache=auto" : "9p/kernel-default" }
function cell(c, k,   r) {
	r = ref(c)
	if (!(r in n) || mean(r, k) == 0) return sprintf("%.0f", mean(c, k))
	return sprintf("%.0f (%.2f)", mean(c, k), mean(c, k) / mean(r, k))
}
END {
	printf "| share / options | ls -l 5,000 cold | ls -l warm | read %d MB | write 500 x 4 KiB |\n", mb
	print "| --- | --- | --- | --- | --- |"
	for (i = 1; i <= ncfg; i++) {
		c = order[i]
		printf "| %s | %s | %s | %s | %s |\n", c, cell(c, "ls_cold"), cell(c, "ls_warm"), cell(c, "read"), cell(c, "write")
	}
	printf "\nms, mean of %d runs (ratio to the kernel default for 9p, to virtiofsd --cache auto for virtio-fs)\n", runs
}' "$OUT/shares.txt" >"$OUT/shares-table.tmp"
cat "$OUT/shares-table.tmp"
bench_table shares "\`make bench-shares\` (tests/bench/shares.sh, QEMU $("${VM_QEMU:-qemu-system-x86_64}" -version 2>/dev/null | awk 'NR == 1 { print $4 }'), TCG)" <"$OUT/shares-table.tmp"
rm -f "$OUT/shares-table.tmp"
pass bench-shares
exit 0
