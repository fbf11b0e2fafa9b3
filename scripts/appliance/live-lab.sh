#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make run`: the live lab. Two link partners in network namespaces, hwxdpd
# with fwd on two ports (VLAN 50 on one, a plain routed port on the other,
# scripts/appliance/topology.sh), a 10-second TCP stream (iperf3) from the
# VLAN side to the plain side, and what it shows: the connection made on the
# device, the frames the host handled before and after, the per-LIF counters
# as bpftool reads them, and the TTL and tag as each partner captured them.
# Everything it made goes again at the end, also when interrupted.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
tag=$$
tmp=/tmp/hwxdp-lab.$tag
secs=${LAB_SECONDS:-10}
. scripts/appliance/topology.sh

topo_failed() {
	echo "hwxdp lab: $*" >&2
	[ -f "$tmp/hwxdpd.log" ] && sed 's/^/  hwxdpd: /' "$tmp/hwxdpd.log" >&2
	exit 1
}
cleanup() {
	topo_down
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'echo; echo "hwxdp lab: interrupted, cleaning up"; exit 130' INT TERM

if [ "$(id -u)" -ne 0 ]; then
	echo "hwxdp lab: the live lab needs root (namespaces, TAPs, kernel BPF); the offline lab instead:"
	exec "$build/hwxdp" lab --object "$build/progs/fwd.bpf.o"
fi
for t in iperf3 ethtool clang tc bpftool; do
	command -v "$t" >/dev/null || topo_failed "no $t (bash scripts/install-deps.sh installs it)"
done
/usr/bin/python3 -c 'import scapy.all' 2>/dev/null || topo_failed "no python3-scapy (scripts/install-deps.sh)"

echo "== the appliance: hwxdpd, ports p0 ($wa, VLAN 50 on it) and p1 ($wb), fwd on both"
topo_up
A ping -c 2 -W 2 10.78.2.2 >/dev/null 2>&1 || A ping -c 2 -W 2 10.78.2.2 >/dev/null 2>&1 ||
	topo_failed "no ping across the appliance"
echo "  wire mode $(hwxdp -j port show p0 | jfield "d['mode']"); partner A 10.78.1.2 on VLAN 50, partner B 10.78.2.2"
B iperf3 -s -D -p 5201 || topo_failed "iperf3 -s"
sleep 0.3
sniff "$nsb" eth0 $((secs + 6)) "$tmp/at_b" --max 20 --host 10.78.1.2
sniff "$nsa" eth0 $((secs + 6)) "$tmp/at_a" --max 20 --host 10.78.2.2
miss0=$(punt_count 13) host0=$(($(punt_count 8) + $(punt_count 7)))
echo "== a ${secs}-second TCP stream, A (VLAN 50) -> B (plain port)"
A iperf3 -c 10.78.2.2 -p 5201 -t "$secs" -J >"$tmp/iperf.json" 2>&1 &
iperf=$!
sleep 1
miss1=$(punt_count 13)
lifs1=$(hwxdp -j lif list)
wait "$iperf" || topo_failed "iperf3: $(head -c 300 "$tmp/iperf.json")"
miss2=$(punt_count 13)
lifs2=$(hwxdp -j lif list)
sniffers
sleep 1.2
rate=$(jfield "round(d['end']['sum_received']['bits_per_second'] / 1e6)" <"$tmp/iperf.json")
mb=$(jfield "round(d['end']['sum_received']['bytes'] / 1e6)" <"$tmp/iperf.json")
punted() { echo "$1" | jfield "sum(l['counters']['punted'] for l in d['lifs'])"; }
echo "  $mb MB at $rate Mbit/s"
echo
echo "== the connection on the device (hwxdp flow list)"
hwxdp -j flow list | jfield "'\n'.join('  %s %s:%d -> %s:%d  in %s vlan %d -> out %s vlan %d  %d frames on the device' % (f['proto'], f['src'], f['sport'], f['dst'], f['dport'], f['in_port'], f['in_vlan'], f['out_port'], f['out_vlan'], f['packets']) for f in d['flows'])"
echo
echo "== frames the host handled"
echo "  before the flows were made (first second): $(($(punted "$lifs1"))) punted to the TAPs, $((miss1 - miss0)) of them flow-miss"
echo "  after (the other $((secs - 1)) s): $(($(punted "$lifs2") - $(punted "$lifs1"))) punted (ARP, neighbour discovery: not the stream's), $((miss2 - miss1)) flow-miss"
echo
echo "== per-LIF counters, as bpftool reads them (bpftool map dump pinned $pins/fwd/lifs)"
bpftool -j map dump pinned "$pins/fwd/lifs" | jfield "'\n'.join('  LIF %5d (port %d vlan %4d): rx %d frames %d bytes, tx %d frames %d bytes, dropped %d' % (e['key'], e['key'] >> 12, e['key'] & 4095, e['value']['rx_packets'], e['value']['rx_bytes'], e['value']['tx_packets'], e['value']['tx_bytes'], e['value']['rx_dropped']) for e in sorted((x.get('formatted', x) for x in d), key=lambda e: e['key']))"
echo
echo "== as the partners captured the stream (scapy)"
capture() {
	py "
import json
fs = [json.loads(l) for l in open('$1') if l.startswith('{\"t\"')]
fs = [f for f in fs if f.get('proto') == 'tcp' and f.get('src') == '$2']
ttl = sorted(set(f['ttl'] for f in fs)); tags = sorted(set(str(f['vlan']) for f in fs))
print('  at %s: %d frames from %s, TTL %s, VLAN tag %s, MACs %s -> %s' % ('$3', len(fs), '$2', ttl, tags,
      fs[0]['smac'] if fs else '?', fs[0]['dmac'] if fs else '?'))"
}
capture "$tmp/at_b" 10.78.1.2 "B (sent with TTL 64 on VLAN 50)"
capture "$tmp/at_a" 10.78.2.2 "A (sent with TTL 64, untagged)"
echo
echo "hwxdp lab: done; removing the namespaces, the daemon, its TAPs and pins"
