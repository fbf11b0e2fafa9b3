#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Builds the libFuzzer harnesses of tests/fuzz (clang, ASan and UBSan), makes
# their seed corpora from the built BPF objects (fuzz_device: from the lab's
# frames, fuzz_image: the objects' images, through HWXDP_FUZZ_SEEDS), runs
# each for SECONDS, and
# prints "fuzz: N passed, M failed" (N, M count harnesses). Exits 1 when a
# harness crashed, leaked, hung on one input, hit UB, or could not be built.
# Needs `make` first: build/progs/*.bpf.o, the loader's corpus objects and
# build/libhwxdp.a (for the seed writer).
#
#   scripts/run-fuzz.sh          20 seconds each, as run-tests.sh runs it
#   scripts/run-fuzz.sh 600      the 10-minute runs (one harness after the other)
#   scripts/run-fuzz.sh 0        build and make the seed corpora only
#   BUILD=dir scripts/run-fuzz.sh   another build folder; output in $BUILD/fuzz
#
# Every run starts from the seeds and tests/fuzz/regress/NAME/ (inputs that
# once failed): a corpus kept from a long run would take longer to replay
# than a short run lasts. What a run found stays in $BUILD/fuzz/corpus/
# until the next one; a failing input lands in $BUILD/fuzz/crash/, the
# harness's output in $BUILD/fuzz/NAME.log. Replay an input with
#   $BUILD/fuzz/fuzz_verify FILE
set -uo pipefail

seconds=${1:-20}
build=${BUILD:-build}
out=$build/fuzz
clang=${CLANG:-clang}
harnesses=(fuzz_object fuzz_verify fuzz_device fuzz_image)
passed=0 failed=0

cd "$(dirname "$0")/.."
case $seconds in
'' | *[!0-9]*)
	echo "usage: $0 [SECONDS]" >&2
	exit 2
	;;
esac

san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cflags="-g -O1 -std=gnu11 -I. -Iinclude -Iprogs/include $(pkg-config --cflags libbpf 2>/dev/null)"
libs=$(pkg-config --libs libbpf libelf zlib libcrypto libpcap 2>/dev/null || echo -lbpf -lelf -lz -lcrypto -lpcap)
seed_libs=$(pkg-config --libs libbpf libelf zlib libcrypto 2>/dev/null || echo -lbpf -lelf -lz -lcrypto)

finish() {
	echo "fuzz: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}

build_all() {
	local objects=("$build"/progs/*.bpf.o "$build"/tests/loader/corpus/*.bpf.o)

	if [ ! -e "${objects[0]}" ] || [ ! -e "$build/libhwxdp.a" ]; then
		echo "fuzz: no BPF objects or library in $build: run make first" >&2
		return 1
	fi
	if ! echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return d && n; }' |
		"$clang" -fsanitize=fuzzer -x c - -o /dev/null 2>/dev/null; then
		echo "fuzz: $clang cannot link libFuzzer (Debian: libclang-rt-14-dev)" >&2
		return 1
	fi
	mkdir -p "$out/crash" "$out/seeds" "$out/corpus"

	# The code under test, instrumented, through the project's own rules so
	# that a changed header rebuilds what includes it. -w: gcc's -Werror
	# build is the one that judges warnings. No comparison tracing: the
	# verifier's pruning compares states, not input bytes, and tracing it
	# cost 7x in executions per second.
	local lib_cflags="$cflags -w -MMD -MP -fsanitize=fuzzer-no-link -fno-sanitize-coverage=trace-cmp $san"
	# make does not see flags change: start over when they do
	if [ "$(cat "$out/obj/cflags" 2>/dev/null)" != "$clang $lib_cflags" ]; then
		rm -rf "$out/obj"
		mkdir -p "$out/obj"
		echo "$clang $lib_cflags" >"$out/obj/cflags"
	fi
	make --no-print-directory -s -j"$(nproc)" BUILD="$out/obj" CC="$clang" CFLAGS="$lib_cflags" \
		LIB_SRCS="$(echo base/*.c loader/*.c verifier/*.c hwmap/*.c device/*.c lab/*.c runner/*.c)" \
		"$out/obj/libhwxdp.a" "$out/obj/libhwxdplab.a" >/dev/null || return 1

	local h
	for h in "${harnesses[@]}"; do
		"$clang" $cflags -Wall -Wextra -Werror -Wno-missing-field-initializers \
			-fsanitize=fuzzer $san "tests/fuzz/$h.c" "$out/obj/libhwxdplab.a" \
			"$out/obj/libhwxdp.a" $libs \
			-o "$out/$h" || return 1
	done
	"$clang" $cflags -Wall -Wextra -Werror -Wno-missing-field-initializers \
		tests/fuzz/verify_seeds.c tests/verifier/cases_accept.c \
		tests/verifier/cases_reject.c tests/verifier/kernel.c tests/vdiff/gen.c \
		"$build/libhwxdplab.a" "$build/libhwxdp.a" $seed_libs -o "$out/verify_seeds" || return 1

	rm -rf "$out/seeds" "$out/corpus"
	mkdir -p "$out/seeds/object" "$out/seeds/verify" "$out/seeds/device" "$out/seeds/image" \
		"$out/corpus/object" "$out/corpus/verify" "$out/corpus/device" "$out/corpus/image"
	cp "${objects[@]}" "$out/seeds/object/"
	"$out/verify_seeds" "$out/seeds/verify" "${objects[@]}" >/dev/null || return 1
	HWXDP_FUZZ_SEEDS="$out/seeds/device" "$out/fuzz_device" || return 1
	HWXDP_BUILD=$build HWXDP_FUZZ_SEEDS="$out/seeds/image" "$out/fuzz_image" || return 1
}

if ! build_all; then
	echo "fuzz: build failed" >&2
	failed=${#harnesses[@]}
	finish
fi
[ "$seconds" -gt 0 ] || exit 0

for h in "${harnesses[@]}"; do
	name=${h#fuzz_}
	log=$out/$h.log
	# room for the verifier's 4096 instructions; objects: the largest seed;
	# frames: a full Ethernet frame and the port byte, as jumbo tails only
	# slow the search down
	max_len=
	[ "$h" = fuzz_verify ] && max_len=-max_len=40000
	[ "$h" = fuzz_device ] && max_len=-max_len=1600
	# images: fwd's (about 12 KB) with room to grow
	[ "$h" = fuzz_image ] && max_len=-max_len=16384
	echo "== $h, $seconds s"
	# -timeout: one input taking this long is a hang; the outer timeout
	# catches a harness that stops making progress altogether.
	UBSAN_OPTIONS=print_stacktrace=1 HWXDP_BUILD=$build timeout --kill-after=10 $((seconds + 300)) \
		"$out/$h" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$out/crash/$name-" $max_len \
		"$out/corpus/$name" "$out/seeds/$name" $(ls -d "tests/fuzz/regress/$name" 2>/dev/null) \
		>"$log" 2>&1
	rc=$?
	runs=$(grep -a 'stat::number_of_executed_units' "$log" | awk '{print $2}')
	cov=$(grep -aoE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1)
	if [ $rc -eq 0 ] && grep -aq 'Done [0-9]* runs' "$log"; then
		echo "$h: passed, ${runs:-?} runs, ${cov:-no coverage line}"
		passed=$((passed + 1))
	else
		echo "$h: FAILED (exit $rc), ${runs:-?} runs; from $log:"
		grep -aE '^==[0-9]+==ERROR|SUMMARY|runtime error|fuzz_verify:|fuzz_device:|fuzz_image:|Test unit written|ALARM|timeout' "$log" | head -n 20
		failed=$((failed + 1))
	fi
done
finish
