#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The prover in make test: `hwxdp prog prove` on every XDP program of fwd,
# vlan_tag, lpm_route and every corpus object, each under a time limit
# (fwd: PROVE_FWD_LIMIT seconds, default 1800; the others: PROVE_LIMIT,
# default 120). A program passes when it is proven. tests/prove/not_proven
# lists the programs that are not, each with the words its reason must
# hold ("slow": not run here, past the limit; make prove-all runs it): such
# a program passes neither way and is listed, and one that is proven after
# all fails, so that the list stays true. Programs the verifier refuses for
# the device (host-only helpers and maps, the corpus's bad_*) are listed,
# not counted. Prints "N passed, M failed".
set -uo pipefail
build=${BUILD:-build}
limit=${PROVE_LIMIT:-120}
fwd_limit=${PROVE_FWD_LIMIT:-1800}
# fwd's solver queries: a pair's query that takes seconds alone can pass the
# default 10 s on a loaded machine, and then fwd is not proven
fwd_query_ms=${PROVE_FWD_QUERY_MS:-60000}
expect=${PROVE_EXPECT:-tests/prove/not_proven}
passed=0 failed=0 known=0 slow=0 host=0

# the expected reason of NAME/PROG (or NAME), or nothing
expected() {
	awk -v a="$1" -v b="$2" '
		/^[[:space:]]*(#|$)/ { next }
		$1 == a || $1 == b { $1 = ""; sub(/^ +/, ""); print; exit }' "$expect"
}

field() { # field NAME JSON: a string or number field of the command's JSON
	sed -nE "s/.*\"$1\":(\"([^\"]*)\"|([0-9]+)).*/\2\3/p" <<<"$2"
}

for obj in "$build"/progs/fwd.bpf.o "$build"/progs/vlan_tag.bpf.o "$build"/progs/lpm_route.bpf.o \
	"$build"/tests/corpus/*.bpf.o; do
	name=$(basename "$obj" .bpf.o)
	progs=$("$build"/hwxdp -j verify "$obj" 2>/dev/null | grep -o '"prog":"[^"]*"' | cut -d'"' -f4)
	if [ -z "$progs" ]; then
		echo "FAIL $name: no program listed by hwxdp verify"
		failed=$((failed + 1))
		continue
	fi
	for prog in $progs; do
		id="$name/$prog"
		want=$(expected "$name" "$id")
		if [ "$want" = slow ]; then
			echo "slow $id: not run here (make prove-all)"
			slow=$((slow + 1))
			continue
		fi
		secs=$limit
		query=()
		if [ "$name" = fwd ]; then
			secs=$fwd_limit
			query=(--timeout-ms "$fwd_query_ms")
		fi
		start=$(date +%s)
		out=$(timeout "$secs" "$build"/hwxdp -j prog prove "$obj" --prog "$prog" "${query[@]}" 2>/dev/null)
		rc=$?
		took=$(($(date +%s) - start))
		status=$(field status "$out")
		reason=$(field reason "$out")
		if [ "$rc" -eq 124 ]; then
			echo "FAIL $id: not done in $secs s"
			failed=$((failed + 1))
		elif [ "$rc" -eq 1 ] && [ -z "$status" ]; then
			echo "host $id: refused for the device: $(field error "$out")"
			host=$((host + 1))
		elif [ "$status" = proven ] && [ -z "$want" ]; then
			echo "ok   $id: proven ($(field bpf_paths "$out") / $(field hxu_paths "$out") paths, $took s)"
			passed=$((passed + 1))
		elif [ "$status" = proven ]; then
			echo "FAIL $id: proven, but $expect says \"$want\""
			failed=$((failed + 1))
		elif [ "$status" = "not proven" ] && [ -n "$want" ] && [[ $reason == *"$want"* ]]; then
			echo "known $id: not proven: $reason"
			known=$((known + 1))
		else
			echo "FAIL $id: rc $rc, ${status:-no result}: ${reason:-$(field error "$out")}"
			failed=$((failed + 1))
		fi
	done
done
echo "$known not proven as listed, $slow past the limit (make prove-all), $host not for the device"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
