# SPDX-License-Identifier: MIT
# tests/bench/lib-bench.sh - sourced by the benchmarks (after tests/lib.sh):
# how a benchmark hands its table to docs/benchmarks.md.
#
# bench_table NAME PRODUCER: stdin (a Markdown table, with its notes) is
# written to build/bench/NAME.md, followed by the stamp line: which
# command produced it, the revision of the tree, the machine and its load
# average as the table was written (other work on the machine moves the
# timings). `make bench-docs` (tests/bench/docs) copies the file into the block
# <!-- bench:NAME --> ... <!-- /bench:NAME --> of docs/benchmarks.md.
# tests/vm/proctable writes its tables the same way (its bench_stamp).
# BENCH_REV, when set (tests/bench/run sets it once), is the revision.

# ratio_spread A-LIST B-LIST [%]: "MEDIAN (MIN–MAX)" of the ratios
# A[i]/B[i] of two space-separated lists of the same length (one value per
# round); with %, as percentages ("2.1 % (1.8–2.6 %)"). A round whose B is
# not above 0 (lost in the noise) has no ratio: it is left out, and the
# result says how many rounds it holds ("[5 of 7 rounds]").
ratio_spread() {
	awk -v a="$1" -v b="$2" -v pc="${3:-}" 'BEGIN {
		n = split(a, x, " "); split(b, y, " ")
		for (i = 1; i <= n; i++) if (y[i] > 0) r[++k] = x[i] / y[i] * (pc == "%" ? 100 : 1)
		if (k == 0) { printf "– (no round measurable)"; exit }
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (r[j] < r[i]) { t = r[i]; r[i] = r[j]; r[j] = t }
		m = r[int(k / 2) + 1]
		f = m >= 10 ? "%.0f" : m >= 0.1 ? (pc == "%" ? "%.1f" : "%.2f") : "%.4f"
		u = (pc == "%" ? " %%" : "")
		printf f u " (" f "–" f u ")", m, r[1], r[k]
		if (k < n) printf " [%d of %d rounds]", k, n
	}'
}

bench_stamp() { # PRODUCER
	local rev cpu
	rev=${BENCH_REV:-$(git -C "$TOP" describe --always --dirty 2>/dev/null)} || rev=
	rev=${rev:-(not a git tree)}
	cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
	printf '_Produced by %s at revision `%s` on %s × %s, Linux %s, load average %s, %s._\n' \
		"$1" "$rev" "$(nproc)" "${cpu:-unknown CPU}" "$(uname -r)" \
		"$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)" "$(date -u +%Y-%m-%d)"
}

bench_table() { # NAME PRODUCER
	local out=$TOP/build/bench/$1.md
	mkdir -p "$TOP/build/bench"
	{ cat; echo; bench_stamp "$2"; } >"$out.tmp" && mv "$out.tmp" "$out"
}
