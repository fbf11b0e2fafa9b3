#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Runs every test binary of the build and the frame-builder check against
# scapy, then prints one total; exits non-zero when anything failed.
set -uo pipefail
build=${BUILD:-build}
status=0 passed=0 failed=0 skipped=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Criterion ends with "Synthesis: Tested: T | Passing: P | Failing: F | Crashing: C".
count_criterion() {
	local line t p f c
	line=$(grep -a 'Synthesis:' "$log" | tail -n 1)
	[ -n "$line" ] || { failed=$((failed + 1)); return; }
	t=$(sed -E 's/.*Tested: ([0-9]+).*/\1/' <<<"$line")
	p=$(sed -E 's/.*Passing: ([0-9]+).*/\1/' <<<"$line")
	f=$(sed -E 's/.*Failing: ([0-9]+).*/\1/' <<<"$line")
	c=$(sed -E 's/.*Crashing: ([0-9]+).*/\1/' <<<"$line")
	passed=$((passed + p))
	failed=$((failed + f + c))
	skipped=$((skipped + t - p - f - c))
}

for t in "$build"/tests/*.test; do
	jobs=2
	# the daemon's tests make the host's TAPs (hx0, hx1...): one at a time
	[ "$(basename "$t")" = daemon.test ] && jobs=1
	echo "== $t"
	"$t" --jobs "$jobs" 2>&1 | tee "$log" || status=1
	count_criterion
done

# The foundation's program tests once more with the device's engines in
# compiled mode (device/compile.h): the same bodies, the same kernel.
for t in fwd vlan malformed esp; do
	echo "== $build/tests/$t.test, compiled engines"
	HWXDP_ENGINE=compiled "$build/tests/$t.test" --jobs 2 2>&1 | tee "$log" || status=1
	count_criterion
done

# The prover's tests once more with the outputs compared path against path
# from the start (hwmap/prove.c compare_pairs): its proofs and its
# counterexamples, which the replay checks, on the tests' programs.
echo "== $build/tests/prove.test, compared path against path"
HWXDP_PROVE_BY_PAIRS=1 "$build/tests/prove.test" --jobs 2 2>&1 | tee "$log" || status=1
count_criterion

# fwd's suite on fwd as clang's alu32 code has it (-mcpu=v3): 32-bit copies
# and differences of packet pointers, the default of newer clang.
echo "== $build/tests/fwd.test on fwd_alu32.bpf.o"
HWXDP_FWD_PROG=fwd_alu32 "$build/tests/fwd.test" --jobs 2 2>&1 | tee "$log" || status=1
count_criterion

# A dumper's output checked by scapy, which prints "N passed, M failed".
scapy_check() {
	local what=$1 dumper=$2 checker=$3 line
	echo "== $what against scapy"
	if ! { [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import scapy.layers.ipsec' 2>/dev/null; }; then
		echo "skipped: Debian's python3-scapy is not installed"
		skipped=$((skipped + 1))
		return
	fi
	"$build/tests/$dumper" | /usr/bin/python3 "$checker" | tee "$log" || status=1
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	if [ -z "$line" ]; then
		failed=$((failed + 1))
		return
	fi
	passed=$((passed + $(cut -d' ' -f1 <<<"$line")))
	failed=$((failed + $(cut -d' ' -f3 <<<"$line")))
}

scapy_check "frame builder" pkt_dump tests/lab/check_pkt_scapy.py
scapy_check "ESP packets" esp_dump tests/esp/check_esp_scapy.py

# An end-to-end script that prints "N passed, M failed" itself (77: skipped).
script_check() {
	local what=$1 script=$2 line rc
	echo "== $what"
	BUILD="$build" "$script" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	if [ "$rc" -eq 77 ]; then
		skipped=$((skipped + 1))
		return
	fi
	[ "$rc" -eq 0 ] || status=1
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	if [ -z "$line" ]; then
		failed=$((failed + 1))
		return
	fi
	passed=$((passed + $(cut -d' ' -f1 <<<"$line")))
	failed=$((failed + $(cut -d' ' -f3 <<<"$line")))
}

script_check "hwxdp prog prove: fwd, vlan_tag, lpm_route and every corpus program" \
	scripts/prove-check.sh
script_check "hwxdp run: ESP end to end against scapy" tests/esp_e2e/run.sh
script_check "make install: the installed library, headers and examples" tests/install/run.sh
script_check "hwxdpd: partners pinging through the appliance" tests/integration/daemon_ping.sh
script_check "hwxdpd: TCP on the device, VLAN to plain port, flows made" tests/integration/daemon_flows.sh
script_check "hwxdpd: SIGKILL mid-stream, started again on its pins" tests/integration/daemon_restart.sh
script_check "hwxdpd: 100 replaces during 1,000,000 numbered frames, vlan_flows toggled 20 times" tests/integration/daemon_replace.sh
script_check "hwxdpd: ESP SAs, a tunnel flow, a lifetime" tests/integration/daemon_sa.sh
script_check "hwxdpd: per-CPU maps, the board's engines as CPUs" tests/integration/daemon_percpu.sh
script_check "hwxdpd: rekeys of a tunnel mid-stream, its flows made from a policy" tests/integration/daemon_rekey.sh
script_check "hwxdpd: every corpus program onto a port" tests/integration/daemon_corpus.sh

# Checks that must fail: the translator built with a fault put back. A
# mutant the tests pass is a hole in the tests.
mutant_check() {
	local what=$1 bin=$2 filter=$3
	echo "== mutant: $what"
	if [ "$(id -u)" -ne 0 ]; then
		echo "skipped: the differential tests need root"
		skipped=$((skipped + 1))
		return
	fi
	if "$bin" --jobs 1 --filter "$filter" >"$log" 2>&1; then
		echo "FAIL: the tests pass on the mutant"
		failed=$((failed + 1))
		status=1
	elif grep -aq 'Failing: [1-9]' "$log"; then
		grep -aE 'differ' "$log" | head -n 3
		echo "caught"
		passed=$((passed + 1))
	else
		cat "$log"
		echo "FAIL: the mutant's run broke without a failed assertion"
		failed=$((failed + 1))
		status=1
	fi
}

mutant_check "assembled loads in any byte order made one load" \
	"$build/mutants/devdiff_combine.test" 'assembled/*'
mutant_check "the same, found by the random program generator" \
	"$build/mutants/devdiff_combine.test" 'devdiff/random*'

# The mutation run over the translator, a short part of it (make
# prove-mutants runs all): prints its score, exits non-zero below 95 % or
# on a fault of the prover's own.
echo "== mutation run over the translator, quick"
if "$build/mutants/prove_mutants" --quick 2>/dev/null | tee "$log"; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	status=1
fi

# The fuzz harnesses, briefly: "fuzz: N passed, M failed" counts harnesses.
echo "== fuzz harnesses"
BUILD="$build" scripts/run-fuzz.sh "${FUZZ_SECONDS:-20}" | tee "$log" || status=1
line=$(grep -E '^fuzz: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
if [ -n "$line" ]; then
	passed=$((passed + $(cut -d' ' -f2 <<<"$line")))
	failed=$((failed + $(cut -d' ' -f4 <<<"$line")))
else
	failed=$((failed + 1))
fi

[ "$failed" -eq 0 ] || status=1
echo "total: $passed passed, $failed failed, $skipped skipped"
exit $status
