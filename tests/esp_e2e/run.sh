#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The device's ESP, end to end: tunnel_pcap_dump writes plain frames of two
# tunnel microflows, `hwxdp run` sends them through the forwarding program
# on the coprocessor model with tests/esp_e2e/state.json, and scapy checks
# every encrypted frame (check_run_scapy.py). Three times: the SA's key
# given with --sa, then in a --maps file, then with three engines, which put
# the two flows on different engines (the SA must still number its packets
# in arrival order). Prints "N passed, M failed" (the sum);
# exits 1 when anything failed, 77 when scapy is missing.
set -uo pipefail
build=${BUILD:-build}
here=$(dirname "$0")
key=000102030405060708090a0b0c0d0e0f
salt=c0c1c2c3

if ! { [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import scapy.layers.ipsec' 2>/dev/null; }; then
	echo "skipped: Debian's python3-scapy is not installed"
	exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

passed=0 failed=0
"$build/tests/tunnel_pcap_dump" "$dir/in.pcap" || { echo "0 passed, 1 failed"; exit 1; }
printf '%s%s\n' "$key" "$salt" >"$dir/sa.key"
for how in --sa --maps --engines --sa-inline; do
	if [ "$how" = --maps ]; then
		sa=(--maps "$here/sa.json")
	elif [ "$how" = --sa-inline ]; then
		sa=(--sa "1:0x1001:$key:$salt:192.0.2.1:198.51.100.1")
	else
		# The key from a file, not the command line.
		sa=(--sa "1:0x1001:@$dir/sa.key:192.0.2.1:198.51.100.1")
	fi
	[ "$how" = --engines ] && sa+=(--engines 3)
	echo "-- ${how#--}: ${sa[*]}"
	rm -f "$dir/out.pcap" "$dir/punt.pcap"
	if ! "$build/hwxdp" run "$build/progs/fwd.bpf.o" --in "2:$dir/in.pcap" \
		--out "$dir/out.pcap" --punt "$dir/punt.pcap" --maps "$here/state.json" "${sa[@]}" \
		2> >(tee "$dir/run.err" >&2); then
		failed=$((failed + 1))
		continue
	fi
	# A key on the command line is said to be visible; from a file it is not.
	warned=$(grep -c 'visible to every user' "$dir/run.err")
	want=0
	[ "$how" = --sa-inline ] && want=1
	if [ "$warned" -ne "$want" ]; then
		echo "   FAIL: --sa ${how#--sa}: $warned warnings about a key on the command line"
		failed=$((failed + 1))
	fi
	/usr/bin/python3 "$here/check_run_scapy.py" "$dir/in.pcap" "$dir/out.pcap" \
		"$dir/punt.pcap" --spi 0x1001 --key "$key" --salt "$salt" \
		--src 192.0.2.1 --dst 198.51.100.1 --dmac 02:00:00:00:03:01 \
		--smac 02:00:00:00:03:fe --flow tcp:40000:80 --flow udp:40001:53 >"$dir/check.log"
	# Indented, so that only the total below reads as "N passed, M failed".
	sed 's/^/   /' "$dir/check.log"
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$dir/check.log" | tail -n 1)
	if [ -z "$line" ]; then
		failed=$((failed + 1))
		continue
	fi
	passed=$((passed + $(cut -d' ' -f1 <<<"$line")))
	failed=$((failed + $(cut -d' ' -f3 <<<"$line")))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
