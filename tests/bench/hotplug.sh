#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/bench/hotplug.sh - the Xen hotplug calls, Debian's scripts (Debian 13's, 4.20)
# against forkless's applets, in the test dom0 of tests/hotplug (network
# namespace, stand-in xenstored on its socket, real bridge, veth and loop
# devices): processes per call (strace -f) and wall time per call (the
# median of RUNS rounds, default 20, the two sides in turn in each round,
# each call timed alone from fork to exit with bash's EPOCHREALTIME, the
# `env -i` that sets libxl's environment included; the same launch of a
# static no-op, forkless --list, is timed in each round too), and
# forkless's time as a ratio of Debian's, round by round. A lifecycle is what one domU with one vif and
# one file: disk costs: vif-bridge online + offline, block add + remove.
# The table also goes to build/bench/hotplug.md (docs/benchmarks.md).
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/hotplug/lib-hotplug.sh"
. "$TOP/tests/bench/lib-bench.sh"
RUNS=${RUNS:-20}
hp_prepare bench/hotplug || exit 0
hp_enter "$@"
hp_root || { fail bench/hotplug "cannot build the test dom0"; exit 0; }

BE=backend/vbd/1/51712
IMG=$HP/disk.img
truncate -s 8M "$IMG"
add_bridge xenbr0 02:00:00:00:00:10
add_vif vif1.0
vif_xs_reset vif-bridge
xs write backend/vif/1/0/bridge xenbr0 /local/domain/1/vm /vm/1 \
	$BE/params "$IMG" $BE/mode w $BE/type phy $BE/frontend-id 1 $BE/state 2 $BE/hotplug-status ""
VIF=(XENBUS_TYPE=vif XENBUS_PATH=backend/vif/1/0 XENBUS_BASE_PATH=backend vif=vif1.0 type_if=vif)
BLK=(XENBUS_TYPE=vbd XENBUS_PATH=$BE XENBUS_BASE_PATH=backend)

# call NAME ENV... -- SCRIPT ACTION: one call, its wall time in ns to T
call() {
	local env=() t0 t1
	while [ "$1" != -- ]; do env+=("$1"); shift; done
	shift
	t0=${EPOCHREALTIME/./}
	env -C / -i PATH="$HP_PATH" LD_LIBRARY_PATH="$XS_ROOT/usr/lib/x86_64-linux-gnu" \
		"${env[@]}" "$@" </dev/null >/dev/null 2>&1
	t1=${EPOCHREALTIME/./}
	T=$(( (t1 - t0) * 1000 ))   # ns
}
undo_block() { xs rm $BE/physical-device; xs rm $BE/physical-device-path; xs rm $BE/node; }

declare -A procs samples
CALLS=("vif-bridge online" "vif-bridge offline" "block add" "block remove")
for how in debian forkless; do   # processes, and a first call of each (warm caches)
	hp_use "$how" vif-bridge block
	for c in "${CALLS[@]}"; do
		set -- $c
		if [ "$1" = vif-bridge ]; then env=("${VIF[@]}"); else env=("${BLK[@]}"); fi
		HP_STRACE=$HP/st hp_call "${env[@]}" -- "$1" "$2"
		procs[$how $c]=$(hp_procs "$HP/st")
		[ "$c" = "block remove" ] && undo_block
	done
done
# RUNS rounds, the two sides in turn in each (so that a slower spell of the
# machine falls on both); each call's time, fork to exit, in µs; and the
# launch of a static no-op, what any call costs at least
for _ in $(seq "$RUNS"); do
	call -- "$FORKLESS" --list
	samples[noop]+="$((T / 1000)) "
	for how in debian forkless; do
		hp_use "$how" vif-bridge block
		for c in "${CALLS[@]}"; do
			set -- $c
			if [ "$1" = vif-bridge ]; then env=("${VIF[@]}"); else env=("${BLK[@]}"); fi
			call "${env[@]}" -- /etc/xen/scripts/$1 $2
			samples[$how $c]+="$((T / 1000)) "
		done
		undo_block
	done
done
[ "$(xs read backend/vif/1/0/hotplug-status)" = connected ] || fail bench/hotplug "vif-bridge online did not connect"

median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{ a[NR] = $1 } END { print a[int(NR / 2) + 1] }'; }
sum_lists() { awk -v a="$1" -v b="$2" -v c="$3" -v d="$4" 'BEGIN {
	n = split(a, w, " "); split(b, x, " "); split(c, y, " "); split(d, z, " ")
	for (i = 1; i <= n; i++) printf "%s%d", (i > 1 ? " " : ""), w[i] + x[i] + y[i] + z[i] }'; }
table=$HP/table.md
{
	echo "Hotplug calls in a network namespace ($RUNS rounds, $(uname -r); the launch of a static no-op in the same rounds: $(median "${samples[noop]}") µs):"
	echo
	echo "| call | Debian processes | forkless processes | Debian µs | forkless µs | forkless ÷ Debian |"
	echo "|---|---:|---:|---:|---:|---:|"
	proc_d=0 proc_f=0
	for c in "${CALLS[@]}"; do
		proc_d=$((proc_d + ${procs[debian $c]})) proc_f=$((proc_f + ${procs[forkless $c]}))
		printf '| `%s` | %s | %s | %s | %s | %s |\n' "$c" "${procs[debian $c]}" "${procs[forkless $c]}" \
			"$(median "${samples[debian $c]}")" "$(median "${samples[forkless $c]}")" \
			"$(ratio_spread "${samples[forkless $c]}" "${samples[debian $c]}" %)"
	done
	all_d=$(sum_lists "${samples[debian vif-bridge online]}" "${samples[debian vif-bridge offline]}" \
		"${samples[debian block add]}" "${samples[debian block remove]}")
	all_f=$(sum_lists "${samples[forkless vif-bridge online]}" "${samples[forkless vif-bridge offline]}" \
		"${samples[forkless block add]}" "${samples[forkless block remove]}")
	printf '| one domU lifecycle | %s | %s | %s | %s | %s |\n' "$proc_d" "$proc_f" \
		"$(median "$all_d")" "$(median "$all_f")" "$(ratio_spread "$all_f" "$all_d" %)"
	echo
	echo "µs: each call from fork to exit, the median of the $RUNS rounds; forkless ÷ Debian: the median of the rounds' ratios" \
		"(in parentheses their lowest and highest). Processes: strace -f of one call."
} >"$table"
cat "$table"
bench_table hotplug "\`make bench\` (tests/bench/hotplug.sh)" <"$table"
check "bench/hotplug: one process per call" 4 "$proc_f"
exit 0
