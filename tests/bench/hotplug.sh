#!/bin/bash
# tests/bench/hotplug.sh - the Xen hotplug calls, Debian 4.17's scripts
# against forkless's applets, in the test dom0 of tests/hotplug (network
# namespace, stand-in xenstored on its socket, real bridge, veth and loop
# devices): processes per call (strace -f) and wall time per call (mean
# of RUNS, default 20, each call timed alone from fork to exit with
# bash's EPOCHREALTIME, minus the same launch of a static no-op: the
# `env -i` that sets libxl's environment, forkless --list). A
# lifecycle is what one domU with one vif and one file: disk costs:
# vif-bridge online + offline, block add + remove.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/hotplug/lib-hotplug.sh"
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

declare -A us procs
tot=0
for _ in $(seq "$RUNS"); do call -- "$FORKLESS" --list; tot=$((tot + T)); done
floor=$((tot / RUNS / 1000))
for how in debian forkless; do
	hp_use "$how" vif-bridge block
	for c in "vif-bridge online" "vif-bridge offline" "block add" "block remove"; do
		set -- $c
		if [ "$1" = vif-bridge ]; then env=("${VIF[@]}"); else env=("${BLK[@]}"); fi
		HP_STRACE=$HP/st hp_call "${env[@]}" -- "$1" "$2"
		procs[$how $c]=$(hp_procs "$HP/st")
		[ "$c" = "block remove" ] && undo_block
	done
	tot_on=0 tot_off=0 tot_add=0 tot_rm=0
	for _ in $(seq "$RUNS"); do
		call "${VIF[@]}" -- /etc/xen/scripts/vif-bridge online; tot_on=$((tot_on + T))
		call "${VIF[@]}" -- /etc/xen/scripts/vif-bridge offline; tot_off=$((tot_off + T))
		call "${BLK[@]}" -- /etc/xen/scripts/block add; tot_add=$((tot_add + T))
		call "${BLK[@]}" -- /etc/xen/scripts/block remove; tot_rm=$((tot_rm + T))
		undo_block
	done
	us[$how vif-bridge online]=$((tot_on / RUNS / 1000 - floor))
	us[$how vif-bridge offline]=$((tot_off / RUNS / 1000 - floor))
	us[$how block add]=$((tot_add / RUNS / 1000 - floor))
	us[$how block remove]=$((tot_rm / RUNS / 1000 - floor))
done
[ "$(xs read backend/vif/1/0/hotplug-status)" = connected ] || fail bench/hotplug "vif-bridge online did not connect"

echo "Hotplug calls in a network namespace ($RUNS runs each, $(uname -r); µs above the launch of a static no-op, ${floor} µs):"
echo
echo "| call | Debian processes | forkless processes | Debian µs | forkless µs | forkless / Debian |"
echo "|---|---:|---:|---:|---:|---:|"
sum_d=0 sum_f=0 proc_d=0 proc_f=0
for c in "vif-bridge online" "vif-bridge offline" "block add" "block remove"; do
	d=${us[debian $c]} f=${us[forkless $c]}
	sum_d=$((sum_d + d)) sum_f=$((sum_f + f))
	proc_d=$((proc_d + ${procs[debian $c]})) proc_f=$((proc_f + ${procs[forkless $c]}))
	printf '| `%s` | %s | %s | %s | %s | %s %% |\n' "$c" "${procs[debian $c]}" "${procs[forkless $c]}" "$d" "$f" \
		"$(awk -v a="$f" -v b="$d" 'BEGIN { printf "%.1f", 100 * a / b }')"
done
printf '| one domU lifecycle | %s | %s | %s | %s | %s %% |\n' "$proc_d" "$proc_f" "$sum_d" "$sum_f" \
	"$(awk -v a="$sum_f" -v b="$sum_d" 'BEGIN { printf "%.1f", 100 * a / b }')"
check "bench/hotplug: one process per call" 4 "$proc_f"
exit 0
