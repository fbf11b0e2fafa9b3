#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make prove-all: `hwxdp prog prove` on fwd, vlan_tag, lpm_route and every
# corpus program, each under a time limit (PROVE_LIMIT seconds, default
# 300), one after the other and niced; prints one line each: the paths of
# both sides, the result, the seconds and what the solver held at the end.
# Exits non-zero when a program is refuted or its counterexample does not
# replay (exit status 70); "not proven", the time limit and a program the
# verifier rejects (the corpus's bad_*) are reported, not failures.
set -uo pipefail
build=${BUILD:-build}
limit=${PROVE_LIMIT:-300}
status=0

field() { # field NAME JSON: a number or string field of the command's JSON
	sed -nE "s/.*\"$1\":(\"([^\"]*)\"|([0-9]+)).*/\2\3/p" <<<"$2"
}

printf '%-48s %9s %9s  %-14s %8s %8s  %s\n' program 'BPF' microcode result seconds 'MiB' reason
for obj in "$build"/progs/fwd.bpf.o "$build"/progs/vlan_tag.bpf.o "$build"/progs/lpm_route.bpf.o \
	"$build"/tests/corpus/*.bpf.o; do
	# every program of the object, one by one
	progs=$("$build"/hwxdp -j verify "$obj" 2>/dev/null | grep -o '"prog":"[^"]*"' | cut -d'"' -f4)
	for prog in ${progs:-?}; do
		name=${obj#"$build"/}
		name=${name%.bpf.o}/$prog
		start=$(date +%s.%N)
		err=$(mktemp)
		out=$(timeout "$limit" nice -n 10 "$build"/hwxdp -j prog prove "$obj" --prog "$prog" 2>"$err")
		rc=$?
		why=$(grep -v 'read as XDP' "$err" | head -n 1)
		rm -f "$err"
		secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
		if [ "$rc" -eq 124 ]; then
			printf '%-48s %9s %9s  %-14s %8s %8s  %s\n' "$name" - - 'time limit' "$secs" - \
				"not done in ${limit} s"
			continue
		fi
		result=$(field status "$out")
		reason=$(field reason "$out")
		bytes=$(field solver_bytes "$out")
		mib=$(awk -v b="${bytes:-0}" 'BEGIN { printf "%.0f", b / 1048576 }')
		# no JSON, status 1: the verifier refuses the program (the corpus's bad_*)
		if [ -z "$result" ] && [ "$rc" -eq 1 ]; then
			result=rejected
			reason=${why#hwxdp: }
		fi
		[ -n "$result" ] || result="error $rc"
		printf '%-48s %9s %9s  %-14s %8s %8s  %s\n' "$name" "$(field bpf_paths "$out")" \
			"$(field hxu_paths "$out")" "$result" "$secs" "$mib" "${reason:0:80}"
		case "$rc:$result" in
		0:proven | 1:not\ proven | 1:rejected) ;;
		*) status=1 ;;
		esac
	done
done
exit $status
