#!/bin/bash
# tests/fuzz/mountopt.sh - fuzz the mount option engine for a bounded time.
#
# Builds tests/fuzz/fuzz_mountopt.c with clang -fsanitize=fuzzer,address,
# undefined against libcommon/mountopt.c, passwd.c and the helpers they use,
# and runs it for FUZZ_SECONDS (default 30) from the checked-in corpus
# tests/fuzz/corpus-mountopt (new inputs go to a scratch copy; add the
# interesting ones by hand). A crash, sanitizer report or broken invariant
# is a FAIL naming the saved input. Needs clang with its runtime (Debian:
# clang, libclang-rt-dev on newer releases; clang-14 ships it in
# libclang-common-14-dev).
. "$(dirname "$0")/../lib.sh"

secs=${FUZZ_SECONDS:-30}
out=$TMPBASE/fuzz-mountopt
rm -rf "$out"
mkdir -p "$out/corpus" "$out/artifacts"
if ! command -v clang >/dev/null; then
	skip fuzz/mountopt "********** clang not installed (Debian: clang) - the option engine was NOT fuzzed **********"
	exit 0
fi
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }' >"$out/probe.c"
if ! clang -fsanitize=fuzzer -o "$out/probe" "$out/probe.c" 2>"$out/probe.log"; then
	skip fuzz/mountopt "********** clang cannot build libFuzzer targets (Debian: libclang-rt-dev or libclang-common-NN-dev): $(head -c 200 "$out/probe.log") **********"
	exit 0
fi
: >"$out/autoconf.h"   # the engine uses no ENABLE_ symbols
srcs="$TOP/tests/fuzz/fuzz_mountopt.c $TOP/libcommon/mountopt.c $TOP/libcommon/passwd.c
	$TOP/libcommon/parse_num.c $TOP/libcommon/fmt_num.c $TOP/libcommon/str.c
	$TOP/applets/mount-xenstore.c $TOP/libcommon/write.c"
if ! clang -std=c11 -g -O1 -D_GNU_SOURCE -Wall -Wextra -Werror \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-I"$TOP/libcommon" -I"$TOP/applets" -I"$out" -o "$out/fuzz" $srcs 2>"$out/build.log"; then
	fail fuzz/mountopt/build "does not compile" "$(cat "$out/build.log")"
	exit 0
fi
cp "$TOP"/tests/fuzz/corpus-mountopt/* "$out/corpus/"
"$out/fuzz" -max_total_time="$secs" -max_len=6000 -timeout=10 -print_final_stats=1 \
	-artifact_prefix="$out/artifacts/" "$out/corpus" >"$out/log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/log")
if [ $rc = 0 ] && [ -z "$(ls "$out/artifacts")" ]; then
	pass "fuzz/mountopt"
	info "fuzz/mountopt: $runs inputs in ${secs}s, corpus $(ls "$out/corpus" | wc -l) entries"
else
	fail fuzz/mountopt "fuzzer exit $rc; input saved in $out/artifacts" \
		"$(grep -E 'ERROR|SUMMARY|==[0-9]+==|runtime error|abort' "$out/log" | head -20)"
fi
exit 0
