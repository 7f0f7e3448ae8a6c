# SPDX-License-Identifier: MIT
# lib-fuzz.sh - run a libFuzzer target for a bounded time (sourced after
# tests/lib.sh by the tests/fuzz/*.sh scripts).
#
# fuzz_target NAME CORPUS-DIR SOURCE...: builds SOURCES and libcommon with clang
# -fsanitize=fuzzer,address,undefined (with libcommon's headers and an
# all-applets autoconf.h), runs it for FUZZ_SECONDS (default 30; split over
# one process per CPU, as libFuzzer's -jobs/-workers) from the
# checked-in corpus (new inputs go to a scratch copy; add interesting ones
# by hand). A crash, sanitizer report or broken invariant is a FAIL naming
# the saved input. Needs clang with its runtime (Debian: clang and
# libclang-rt-dev, the runtime of the default clang: 14 on 12, 19 on 13).
FUZZ_CFLAGS=(-std=c11 -g -O1 -D_GNU_SOURCE -Wall -Wextra -Werror
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
	-I"$TOP/libcommon" -I"$TOP/applets")

fuzz_target() {
	local name=$1 corpus=$2 out=$TMPBASE/fuzz-$1 secs=${FUZZ_SECONDS:-30} rc runs
	shift 2
	rm -rf "$out"
	mkdir -p "$out/corpus" "$out/artifacts"
	# .ci/run installs the toolchain: without it this is a failure, not a
	# skip, so that a green run has fuzzed.
	if ! command -v clang >/dev/null; then
		fail "fuzz/$name" "clang not installed (Debian: clang): $name was NOT fuzzed"
		return 0
	fi
	echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }' >"$out/probe.c"
	if ! clang -fsanitize=fuzzer -o "$out/probe" "$out/probe.c" 2>"$out/probe.log"; then
		fail "fuzz/$name" "clang cannot build libFuzzer targets (Debian: libclang-rt-dev): $(head -c 200 "$out/probe.log")"
		return 0
	fi
	# Every applet enabled, so ENABLE_X code is compiled as in a full build.
	allyes_autoconf "$out" ||
		{ fail "fuzz/$name/build" "cannot generate autoconf.h"; return 0; }
	# All of libcommon is linked (a target lists only its own and the
	# applets' sources): a hand-kept list broke whenever a helper moved.
	# It is compiled once for every target (tests/lib.sh's
	# libcommon_archive) and linked with the target's own sources.
	local lib
	if ! lib=$(libcommon_archive fuzz "$out" clang "${FUZZ_CFLAGS[@]}") ||
	   ! clang "${FUZZ_CFLAGS[@]}" -I"$out" -o "$out/fuzz" "$@" "$lib" 2>"$out/build.log"; then
		fail "fuzz/$name/build" "does not compile" "$(cat "$out/build.log")"
		return 0
	fi
	cp "$corpus"/* "$out/corpus/"
	# One fuzzing process per CPU, each for its share of the time: as many
	# seconds of fuzzing as one process for FUZZ_SECONDS, in a fraction of
	# the wall time (each process loads the corpus itself, so somewhat fewer
	# inputs: xlcfg, the slowest target, tried half as many). Each job
	# writes fuzz-N.log in $out, which libFuzzer copies to its own output
	# when the job ends: the log holds every job's.
	local jobs
	jobs=$(nproc 2>/dev/null) || jobs=1
	[ "$jobs" -ge 1 ] && [ "$jobs" -le "$secs" ] || jobs=1
	( cd "$out" && "$out/fuzz" -jobs="$jobs" -workers="$jobs" -max_total_time=$((secs / jobs)) \
		-max_len=6000 -timeout=10 -print_final_stats=1 \
		-artifact_prefix="$out/artifacts/" "$out/corpus" ) >"$out/log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/log" | awk '{ s += $1 } END { print s + 0 }')
	if [ $rc = 0 ] && [ -z "$(ls "$out/artifacts")" ]; then
		pass "fuzz/$name"
		info "fuzz/$name: $runs inputs in ${secs}s of fuzzing ($jobs processes), corpus $(ls "$out/corpus" | wc -l) entries"
	else
		fail "fuzz/$name" "fuzzer exit $rc; input saved in $out/artifacts" \
			"$(grep -E 'ERROR|SUMMARY|==[0-9]+==|runtime error|abort|deadly' "$out/log" | head -20)"
	fi
}
