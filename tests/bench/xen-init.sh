#!/bin/bash
# SPDX-License-Identifier: MIT
# Benchmark: xen-init-name, Debian's python3 script against forkless.
#
# Debian's script runs `xen create --quiet --dryrun --defconfig FILE` and
# parses its JSON. Without a hypervisor xl cannot run, so a stand-in
# `xen` (a sh script printing the JSON of an xl dry run) takes its place:
# Debian's numbers are a lower bound, without xl's own work (libxl, the
# hypervisor) and without the real `xen` -> xl exec. Both read the same
# config. Syscalls and processes from strace -f; time per call is the
# median of ROUNDS (default 5) interleaved rounds of CALLS (default 50);
# the table also goes to build/bench/xen-init.md (docs/benchmarks.md).
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/xen/lib-xen.sh"
. "$TOP/tests/bench/lib-bench.sh"
ROUNDS=${ROUNDS:-5} CALLS=${CALLS:-50}
for t in strace python3; do
	command -v $t >/dev/null || { fail bench-xen-init "$t not installed"; exit 0; }
done
debian=$(fetch_debian_scripts) || { fail bench-xen-init "apt-get download xen-utils-common failed"; exit 0; }
script=$debian/usr/lib/xen-common/bin/xen-init-name
base=$(scratch bench-xen-init)
trap 'rm -rf "$base"' EXIT
mkdir "$base/bin"
printf '#!/bin/sh\necho %s\n' "'{\"c_info\": {\"name\": \"guest1\"}}'" >"$base/bin/xen"
chmod +x "$base/bin/xen"
printf 'name = "guest1"\nmemory = 512\nvcpus = 2\n' >"$base/guest.cfg"
export PATH=$base/bin:/usr/sbin:/usr/bin:/sbin:/bin

debian_cmd=(/usr/bin/python3 "$script" "$base/guest.cfg")
forkless_cmd=("$FORKLESS" xen-init-name "$base/guest.cfg")
debian_call() { "${debian_cmd[@]}"; }
forkless_call() { "${forkless_cmd[@]}"; }
for v in debian forkless; do
	out=$(${v}_call 2>&1)
	[ "$out" = guest1 ] || { fail "bench-xen-init/$v prints the name" "$out"; exit 0; }
	eval "cmd=(\"\${${v}_cmd[@]}\")"
	strace -f -qq -o "$base/$v.strace" "${cmd[@]}" >/dev/null 2>&1
	calls=$(grep -vc ' +++ ' "$base/$v.strace")
	pids=$(awk '{print $1}' "$base/$v.strace" | sort -u | wc -l)
	eval "${v}_sys=\$calls ${v}_procs=\$pids"
done
declare -a debian_t forkless_t
for r in $(seq "$ROUNDS"); do
	for v in debian forkless; do
		s=$EPOCHREALTIME
		for i in $(seq "$CALLS"); do ${v}_call >/dev/null; done
		e=$EPOCHREALTIME
		eval "${v}_t+=(\$(awk -v s=$s -v e=$e -v n=$CALLS 'BEGIN { printf \"%.0f\", (e - s) * 1e6 / n }'))"
	done
done
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
dt=$(median "${debian_t[@]}") ft=$(median "${forkless_t[@]}")
{
	echo "| variant | µs/call | ÷ forkless's | syscalls | processes |"
	echo "|---|---:|---:|---:|---:|"
	echo "| Debian 4.17 script (python3, stand-in xl) | $dt | $(ratio_spread "${debian_t[*]}" "${forkless_t[*]}") | $debian_sys | $debian_procs |"
	echo "| **forkless** | $ft | 1 | $forkless_sys | $forkless_procs |"
	echo
	echo "µs: the median of $ROUNDS interleaved rounds of $CALLS calls; ÷ forkless's: the median of the" \
		"rounds' ratios (in parentheses their lowest and highest). Debian's is a lower bound: a stand-in" \
		"\`xen\` prints an xl dry run's JSON, without xl's own work."
} >"$base/table.md"
cat "$base/table.md"
bench_table xen-init "\`make bench\` (tests/bench/xen-init.sh)" <"$base/table.md"
info "bench-xen-init: forkless is $(awk -v a=$dt -v b=$ft 'BEGIN { printf "%.0f", a / b }')x faster than the lower bound of Debian's script"
[ "$forkless_procs" = 1 ] && pass "bench-xen-init/forkless: one process" ||
	fail "bench-xen-init/forkless: one process" "$forkless_procs"
exit 0
