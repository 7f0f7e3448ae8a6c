#!/bin/bash
# SPDX-License-Identifier: MIT
# Benchmark: what every `xl` call costs before the real tool starts.
# Spawns, in one interleaved run, the tool directly, forkless's wrapper,
# Debian 4.17's wrapper script (dash) and the pre-2020 script, all in one
# chroot test root with a static stub as the tool; counts syscalls, clones
# and execs with strace; prints the overhead ratios and the binary sizes,
# and writes the table to build/bench/xen.md (docs/benchmarks.md).
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/xen/lib-xen.sh"
. "$TOP/tests/bench/lib-bench.sh"
need_root bench-xen || exit 0
ROUNDS=${ROUNDS:-7} CALLS=${CALLS:-300}

DEBIAN_SCRIPTS=$(fetch_debian_scripts) || { fail bench-xen "apt-get download xen-utils-common failed"; exit 0; }
STUB=$(build_stub) || exit 1
base=$(scratch bench)
trap 'rm -rf "$base"' EXIT
root=$base/root
make_root "$root" && install_impl "$root" forkless && set_state "$root" ok || exit 1
# The tool: a static program that exits at once, so only wrappers differ.
printf 'int main(void){return 0;}\n' >"$base/true.c"
musl-gcc -static -Os -o "$root/usr/lib/xen-4.17/bin/xl" "$base/true.c" || exit 1
musl-gcc -static -O2 -o "$root/spawn" "$TOP/tests/bench/spawn.c" || exit 1
for t in basename cat; do   # the pre-2020 scripts' external commands
	cp "$(command -v $t)" "$root/usr/bin/$t"
	for lib in $(ldd "$(command -v $t)" | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$lib")"; cp -L "$lib" "$root$lib"
	done
done
mkdir -p "$root/deb/sbin" "$root/deb/lib" "$root/old/sbin" "$root/old/lib"
cp "$DEBIAN_SCRIPTS/usr/lib/xen-common/bin/xen-utils-wrapper" "$root/deb/lib/"
ln -s ../lib/xen-utils-wrapper "$root/deb/sbin/xl"
install -m 755 "$TOP/tests/bench/pre2020-wrapper.sh" "$root/old/lib/xen-utils-wrapper"
install -m 755 "$TOP/tests/bench/pre2020-xen-dir.sh" "$root/old/lib/xen-dir"
install -m 755 "$TOP/tests/bench/pre2020-xen-version.sh" "$root/old/lib/xen-version"
ln -s ../lib/xen-utils-wrapper "$root/old/sbin/xl"

VARIANTS="/usr/lib/xen-4.17/bin/xl /usr/sbin/xl /deb/sbin/xl /old/sbin/xl"
LABELS=("direct exec of the tool" "forkless (static C)" "Debian 4.17 script (dash)" "pre-2020 script")

# Correctness first: every variant must reach the tool.
for v in $VARIANTS; do
	env -i PATH=/usr/bin:/bin /usr/sbin/chroot "$root" "$v" list ||
		{ fail "bench-xen/$v runs" "exit $?"; exit 0; }
done

# Syscalls from the wrapper's execve to the tool's, with children.
count() {   # count PATH: prints "syscalls clones execs"
	local log=$base/st.log
	env -i PATH=/usr/bin:/bin strace -f -qq -o "$log" /usr/sbin/chroot "$root" "$1" list
	awk -v first="execve(\"$1\"" -v tool='execve("/usr/lib/xen-4.17/bin/xl"' '
		{ line = $0; sub(/^[0-9]+ +/, "", line) }
		!on && index(line, first) == 1 { on = 1; next }
		!on { next }
		index(line, tool) == 1 { done = 1; exit }
		line ~ /^<\.\.\. .* resumed>/ || line ~ /^(\+\+\+|---)/ { next }
		{ n++ }
		line ~ /^(clone|clone3|fork|vfork)\(/ { c++ }
		line ~ /^execve\(/ { e++ }
		END { printf "%d %d %d\n", n, c, e + 2 }' "$log"
}

spawn_out=$(env -i PATH=/usr/bin:/bin /usr/sbin/chroot "$root" /spawn "$ROUNDS" "$CALLS" $VARIANTS)
read -r -a res <<<"$(awk '{printf "%s ", $2}' <<<"$spawn_out")"
[ "${#res[@]}" -eq 4 ] || { fail bench-xen "the spawn loop failed"; exit 0; }
# each round's time per call, per variant (ns), in round order
mapfile -t rounds < <(awk '{ $1 = ""; $2 = ""; sub(/^ +/, ""); print }' <<<"$spawn_out")
# overheads round by round (a variant's time minus the direct exec's of the
# same round, ns); under 1 µs it is noise, given as 0: no ratio to it
over_rounds() { awk -v a="${rounds[$1]}" -v d="${rounds[0]}" 'BEGIN {
	n = split(a, x, " "); split(d, y, " ")
	for (i = 1; i <= n; i++) { o = x[i] - y[i]; printf "%s%d", (i > 1 ? " " : ""), (o < 1000 ? 0 : o) } }'; }
fk_rounds=$(over_rounds 1)
direct=${res[0]} fk=${res[1]}
fk_over=$(( fk - direct )); [ "$fk_over" -lt 1 ] && fk_over=1

table=$base/table.md
{
	echo "| variant | µs/call | overhead µs | overhead ÷ forkless's | syscalls | clones | execs |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
} >"$table"
printf '\n%-28s %10s %12s %10s %9s %7s %6s\n' variant "us/call" "overhead us" "overhead" syscalls clones execs
i=0
for v in $VARIANTS; do
	t=${res[$i]}
	if [ $i = 0 ]; then sc="-" cl=0 ex=1; else read -r sc cl ex <<<"$(count "$v")"; fi
	over=$(( t - direct ))
	ratio=$(awk -v a="$over" -v b="$fk_over" 'BEGIN { printf "%.1fx", a / b }')
	spread="–"
	[ $i -ge 2 ] && spread=$(ratio_spread "$(over_rounds $i)" "$fk_rounds")
	[ $i = 1 ] && spread=1
	[ $i = 0 ] && ratio="-"
	printf '%-28s %10.1f %12.1f %10s %9s %7s %6s\n' "${LABELS[$i]}" \
		"$(awk -v t="$t" 'BEGIN{print t/1000}')" "$(awk -v t="$over" 'BEGIN{print t/1000}')" "$ratio" "$sc" "$cl" "$ex"
	printf '| %s | %.1f | %.1f | %s | %s | %s | %s |\n' "${LABELS[$i]}" \
		"$(awk -v t="$t" 'BEGIN{print t/1000}')" "$(awk -v t="$over" 'BEGIN{print t/1000}')" "$spread" "$sc" "$cl" "$ex" >>"$table"
	eval "sc_$i=\$sc over_$i=\$over"
	i=$((i + 1))
done
echo "(median of $ROUNDS interleaved rounds of $CALLS spawns each; overhead = time minus the direct exec;"
echo " syscalls = from the wrapper's execve to the tool's, children included; execs include both of those)"
echo
{
	echo
	echo "µs: the median over $ROUNDS interleaved rounds of $CALLS spawns of each variant;" \
		"overhead: above the direct exec; overhead ÷ forkless's: the median of the rounds' ratios" \
		"(in parentheses their lowest and highest; a round where forkless's overhead is under 1 µs," \
		"lost in the noise, has no ratio); syscalls from the wrapper's execve to the tool's," \
		"children included; execs include both of those."
} >>"$table"
bench_table xen "\`make bench\` (tests/bench/xen.sh)" <"$table"

deb_ratio=$(awk -v a="$over_2" -v b="$fk_over" 'BEGIN { printf "%.1f", a / b }')
info "bench-xen: forkless overhead $((fk_over / 1000)) us, Debian script overhead $((over_2 / 1000)) us: ratio $deb_ratio"
if awk -v r="$deb_ratio" 'BEGIN { exit !(r >= 8) }'; then
	pass "bench/xen: forkless overhead at most 1/8 of Debian's script (ratio $deb_ratio)"
else
	fail "bench/xen: forkless overhead at most 1/8 of Debian's script" "ratio $deb_ratio"
fi
[ "$sc_1" -le 6 ] && pass "bench/xen: forkless $sc_1 syscalls (target <= 6)" || fail "bench/xen: forkless syscalls" "$sc_1"

# Sizes of the default and wrapper-only builds.
for cfg in full xen-wrapper-only; do
	d=build/bench-$cfg
	mkdir -p "$TOP/$d"
	( cd "$TOP" && make -s O=$d BIN=$d/forkless KCONFIG_CONFIG=$d/.config ${cfg}_defconfig >/dev/null &&
	  make -s O=$d BIN=$d/forkless KCONFIG_CONFIG=$d/.config >/dev/null ) || { fail "bench/size $cfg" "build failed"; continue; }
	s=$(stat -c %s "$TOP/$d/forkless")
	limit=$([ $cfg = full ] && echo 98304 || echo 16384)
	printf '%-34s %6d bytes (%.1f KiB; target <= %d KiB)\n' "binary size, ${cfg}_defconfig:" "$s" "$(awk -v s=$s 'BEGIN{print s/1024}')" $((limit / 1024))
	[ "$s" -le "$limit" ] && pass "bench/size $cfg <= $((limit / 1024)) KiB" || fail "bench/size $cfg" "$s bytes"
done
