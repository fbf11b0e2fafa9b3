#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# 100 `prog replace` during one numbered UDP stream of 1,000,000 frames,
# alternating two builds of fwd that mark what they forward (DSCP 1 and 2,
# fwd_mark1/fwd_mark2.bpf.o). The far end (seqsink.bpf.c, XDP in partner B)
# notes every sequence number: none may be missing or doubled, every frame
# must carry one build's mark or none (the first, routed by the host), and
# the flow's and the LIF's counters must be exactly the marked frames. The
# topology is daemon_flows.sh's, partner A on p0 and B on p1; udpgen's frames
# bypass A's qdisc (and its VLAN tagger), so they arrive on p0's LIF 0.
# Then a policy switched live: vlan_flows off and on 20 times, by bpftool on
# the pin, during 200,000 numbered frames udpgen tags with VLAN 50. Last, a
# build with another flow-table size, refused, then taken with fresh flows.
#
# Prints "N passed, M failed"; exits 77 (skipped) without root, bpffs, TUN,
# clang, ethtool or scapy, with the reason.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
tag=$$
tmp=/tmp/hxptest.$tag
. tests/integration/appliance_test.sh
COUNT=1000000 RATE=${HWXDP_REPLACE_RATE:-50000}
appliance_requires gcc
for o in fwd_mark1 fwd_mark2 fwd_flows32k; do
	[ -f "$build/progs/$o.bpf.o" ] || skip "no $build/progs/$o.bpf.o: make"
done

echo "== hwxdpd: 100 replaces during 1,000,000 numbered frames, vlan_flows toggled 20 times"
topo_up
gcc -O2 -Wall -o "$tmp/udpgen" bench/live/udpgen.c || setup_failed "cannot build udpgen"
clang -g -O2 -target bpf -I/usr/include/"$(gcc -dumpmachine)" -c scripts/appliance/seqsink.bpf.c \
	-o "$tmp/seqsink.o" || setup_failed "cannot build seqsink"
# A fresh sink on B's eth0, counting from 0; stats_map is its counters' id.
sink_attach() {
	B ip link set eth0 xdp off 2>/dev/null
	B ip link set eth0 xdp obj "$tmp/seqsink.o" sec xdp || setup_failed "seqsink on B's eth0"
	sink_prog=$(B ip -j link show eth0 | jfield "d[0]['xdp']['prog']['id']")
	stats_map=$(bpftool -j prog show id "$sink_prog" | jfield "d['map_ids']" | tr -d '[],' |
		xargs -n1 | while read -r id; do
			[ "$(bpftool -j map show id "$id" | jfield "d['name']")" = stats ] && echo "$id"
		done)
	[ -n "$stats_map" ] || setup_failed "no stats map on the sink"
}
sink_attach
# seen, doubled, out of range, TTL 63, DSCP 0, 1, 2, other
sink_stats() {
	bpftool -j map dump id "$stats_map" |
		jfield "' '.join(str(int.from_bytes(bytes(int(b, 16) for b in e['value']), 'little')) for e in sorted(d, key=lambda e: int.from_bytes(bytes(int(b, 16) for b in e['key']), 'little')))"
}
out=$(hwxdp prog replace fwd "$build/progs/fwd_mark1.bpf.o" 2>&1) || setup_failed "replace by fwd_mark1: $out"
A ping -c 2 -i 0.2 -W 1 10.78.2.2 >/dev/null || setup_failed "A cannot ping B through the appliance"

miss0=$(punt_count $FLOW_MISS) lif0=$(lif_counter 0 rx_packets)
A "$tmp/udpgen" eth0 30 60 "$wamac" 10.78.1.2 10.78.2.2 "$COUNT" "$RATE" >"$tmp/sent" 2>&1 &
gen=$!
sleep 0.3
n=0 t0=$(date +%s%N)
for i in $(seq 100); do
	if [ $((i % 2)) -eq 1 ]; then obj=$build/progs/fwd_mark2.bpf.o; else obj=$build/progs/fwd_mark1.bpf.o; fi
	hwxdp prog replace fwd "$obj" >/dev/null 2>"$tmp/replace.err" && n=$((n + 1))
	hwxdp -j prog show fwd >>"$tmp/swaps.json"
	echo >>"$tmp/swaps.json"
	kill -0 "$gen" 2>/dev/null || break
done
t1=$(date +%s%N)
running=0
kill -0 "$gen" 2>/dev/null && running=1
wait "$gen"
sent=$(cat "$tmp/sent")
sleep 1.5 # the last frames, and a mirror round for the kernel's copies
read -r seen doubled beyond ttl63 dscp0 dscp1 dscp2 dscp_other < <(sink_stats)
miss1=$(punt_count $FLOW_MISS) lif1=$(lif_counter 0 rx_packets)
flow=$(hwxdp -j flow list | jfield "sum(f['packets'] for f in d['flows'] if f['proto'] == 'udp' and f['dport'] == 9)")
drops=$(hwxdp -j port list | jfield "' '.join('%s:%d/%d/%d' % (p['name'], p['counters']['errors'], p['counters']['dropped'], p['counters'].get('kernel_rx_dropped', 0) + p['counters'].get('kernel_rx_ring_full', 0)) for p in d['ports'])")
echo "  sent $sent in $RATE frames/s; 100 replaces took $(((t1 - t0) / 1000000)) ms; at the far end: $seen distinct, $doubled doubled, DSCP 0/1/2/other $dscp0/$dscp1/$dscp2/$dscp_other; port errors/dropped/kernel drops $drops"

if [ "$n" -eq 100 ] && [ "$running" -eq 1 ]; then
	pass "100 replaces, alternating fwd_mark2 and fwd_mark1, all done while the stream ran ($(((t1 - t0) / 1000000)) ms)"
else
	fail "$n of 100 replaces ($(head -c 300 "$tmp/replace.err")); stream still running at the end: $running"
fi
if [ "${sent:-0}" = "$COUNT" ] && [ "$seen" = "$COUNT" ] && [ "$doubled" = 0 ] && [ "$beyond" = 0 ]; then
	pass "0 frames lost: the far end saw each of the $COUNT sequence numbers once"
else
	fail "lost: sent ${sent:-?}, seen ${seen:-?} distinct, ${doubled:-?} doubled, ${beyond:-?} out of range"
fi
# A build whose maps are not fwd's: refused before anything changes.
before=$(hwxdp -j prog show fwd | jfield "'%d %s' % (d['replaces'], d['file'])")
out=$(hwxdp prog replace fwd "$build/progs/vlan_tag.bpf.o" 2>&1)
rc=$?
after=$(hwxdp -j prog show fwd | jfield "'%d %s' % (d['replaces'], d['file'])")
if [ $rc -ne 0 ] && [ "$before" = "$after" ] && [ "$(echo "$out" | grep -c 'error')" -ge 1 ]; then
	pass "a build with other maps is refused, nothing changed: $(echo "$out" | grep error | head -n 1)"
else
	fail "incompatible replace: rc $rc, prog $before -> $after: $(echo "$out" | head -c 300)"
fi

# Each replace's own account (prog show's last_replace), as medians.
swaps=$(py "
import json, statistics
s = [json.loads(l)['last_replace'] for l in open('$tmp/swaps.json') if l.strip()]
ran = [x['switch_to_first_frame_us'] for x in s if x['switch_to_first_frame_us'] is not None]
med = lambda k: statistics.median(x[k] for x in s)
print(len(s), len(ran), int(statistics.median(ran)) if ran else -1, max(ran) if ran else -1,
      ' '.join('%s %d' % (k[:-3], med(k)) for k in ('request_to_switch_us', 'open_us', 'verify_us', 'translate_us', 'install_us', 'host_load_us', 'links_us')))
" 2>&1)
read -r swaps_n swaps_ran first_med first_max swaps_rest <<<"$swaps"
if [ "$swaps_n" = 100 ] && [ "$swaps_ran" = 100 ]; then
	pass "each of the 100 builds ran frames on the board; from the switch to its first frame: median $first_med us, at most $first_max us (medians in us: $swaps_rest)"
else
	fail "swap records: $swaps"
fi
marked=$((dscp1 + dscp2))
if [ "$dscp_other" = 0 ] && [ "$ttl63" = "$seen" ] && [ "$dscp1" -gt 0 ] && [ "$dscp2" -gt 0 ] &&
	[ $((marked + dscp0)) = "$seen" ] && [ "$dscp0" = $((miss1 - miss0)) ]; then
	pass "every frame run whole by one build: $dscp1 marked by fwd_mark1, $dscp2 by fwd_mark2, $dscp0 unmarked (the $((miss1 - miss0)) punted flow-miss, routed by the host), all with TTL 63"
else
	fail "marks: DSCP 0/1/2/other $dscp0/$dscp1/$dscp2/$dscp_other, TTL 63 on $ttl63 of $seen, flow-miss punts $((miss1 - miss0))"
fi
if [ "${flow:-x}" = "$marked" ] && [ $((lif1 - lif0)) = "$marked" ]; then
	pass "counters exact: the flow's packets ($flow) and LIF 0's rx (+$((lif1 - lif0))) are the $marked frames the board forwarded"
else
	fail "counters: flow packets ${flow:-?}, LIF 0 rx $lif0 -> $lif1, marked frames $marked"
fi

# --- vlan_flows switched off and on 20 times by bpftool on the pinned config,
# during 200,000 numbered frames tagged VLAN 50: a made flow punts while it
# is off (vlan-flows-off) and the host carries those frames; none is lost,
# and every one the host carried is counted.
VLAN_FLOWS_OFF=8
# The flow made first, by a few frames the fresh sink below does not count:
# then every frame the host carries is a vlan-flows-off punt (flow-miss
# counts any port's TCP or UDP frame without a flow, the stream's or not).
# fwd punts any VLAN frame vlan-flows-off while vlan_flows is 0, A's ARP and
# IPv6 chatter too: A is kept quiet, so that the count is the stream's.
A ip neigh replace 10.78.1.1 lladdr "$wamac" dev eth0 nud permanent
A sysctl -qw net.ipv6.conf.eth0.disable_ipv6=1
A "$tmp/udpgen" eth0 30 64 "$wamac" 10.78.1.2 10.78.2.2 20 1000 50 >/dev/null
sleep 0.5
sink_attach
config() { bpftool map update pinned "$pins/fwd/config" key 0 0 0 0 value "$1" 0 0 0 0 0 0 0 1 0 0 0 0 0 0 0; }
TCOUNT=200000
miss0=$(punt_count $FLOW_MISS) off0=$(punt_count $VLAN_FLOWS_OFF)
flow0=$(hwxdp -j flow list | jfield "sum(f['packets'] for f in d['flows'] if f['proto'] == 'udp' and f['in_vlan'] == 50)")
A "$tmp/udpgen" eth0 30 64 "$wamac" 10.78.1.2 10.78.2.2 "$TCOUNT" 20000 50 >"$tmp/sent" 2>&1 &
gen=$!
sleep 0.5
toggles=0
for i in $(seq 20); do
	config 0 && sleep 0.1 && config 1 && toggles=$((toggles + 1))
	sleep 0.3
done
running=0
kill -0 "$gen" 2>/dev/null && running=1
wait "$gen"
sent=$(cat "$tmp/sent")
sleep 1.5
read -r seen doubled beyond ttl63 dscp0 dscp1 dscp2 dscp_other < <(sink_stats)
miss1=$(punt_count $FLOW_MISS) off1=$(punt_count $VLAN_FLOWS_OFF)
flow=$(($(hwxdp -j flow list | jfield "sum(f['packets'] for f in d['flows'] if f['proto'] == 'udp' and f['in_vlan'] == 50)") - flow0))
host=$((off1 - off0))
echo "  sent $sent tagged VLAN 50; $toggles toggles; at the far end $seen distinct, $doubled doubled, DSCP 0/1/2/other $dscp0/$dscp1/$dscp2/$dscp_other; punted vlan-flows-off +$((off1 - off0)), flow-miss +$((miss1 - miss0))"
if [ "$toggles" = 20 ] && [ "$running" = 1 ] && [ "${sent:-0}" = "$TCOUNT" ] && [ "$seen" = "$TCOUNT" ] &&
	[ "$doubled" = 0 ] && [ "$ttl63" = "$seen" ]; then
	pass "vlan_flows switched off and on 20 times by bpftool during the stream: 0 of $TCOUNT frames lost, none doubled"
else
	fail "vlan_flows toggles: $toggles done, stream running $running, sent ${sent:-?}, seen $seen, doubled $doubled, TTL 63 on $ttl63"
fi
if [ "$((off1 - off0))" -gt 0 ] && [ "$dscp0" = "$host" ] && [ "${flow:-x}" = "$dscp1" ] && [ "$dscp2" = 0 ] &&
	[ "$dscp_other" = 0 ]; then
	pass "the host carried $dscp0 frames, each counted: $((off1 - off0)) punted vlan-flows-off; the board forwarded the other $dscp1, the flow's count"
else
	fail "counted: host-carried (DSCP 0) $dscp0, punts vlan-flows-off +$((off1 - off0)) flow-miss +$((miss1 - miss0)), board (DSCP 1) $dscp1, flow packets ${flow:-?}"
fi

# --- A build whose flow table has another size (32,768 entries): refused as
# it is, taken with `fresh flows` — a new, empty flow table pinned where the
# old one was, every other map kept with its contents, and the next stream
# made again on the board.
small=$build/progs/fwd_flows32k.bpf.o
flows_pin() { bpftool -j map show pinned "$pins/fwd/flows" | jfield "'%d %d' % (d['id'], d['max_entries'])"; }
read -r fid0 fmax0 <<<"$(flows_pin)"
lif0=$(lif_counter 0 rx_packets) cfg0=$(bpftool -j map dump pinned "$pins/fwd/config" | md5sum)
listed0=$(hwxdp -j flow list | jfield "len(d['flows'])")
refused=$(hwxdp prog replace fwd "$small" 2>&1)
rrc=$?
out=$(hwxdp prog replace fwd "$small" fresh flows 2>&1)
frc=$?
read -r fid1 fmax1 <<<"$(flows_pin)"
entries=$(bpftool -j map dump pinned "$pins/fwd/flows" | jfield "len(d)")
listed1=$(hwxdp -j flow list | jfield "len(d['flows'])")
lif1=$(lif_counter 0 rx_packets) cfg1=$(bpftool -j map dump pinned "$pins/fwd/config" | md5sum)
if [ $rrc -ne 0 ] && [ $frc -eq 0 ] && [ "$fmax0" = 65536 ] && [ "$fmax1" = 32768 ] &&
	[ "$fid0" != "$fid1" ] && [ "$entries" = 0 ] && [ "${listed1:-x}" = 0 ] && [ "$lif1" = "$lif0" ] &&
	[ "$cfg0" = "$cfg1" ]; then
	pass "fresh flows: refused without it ($(echo "$refused" | grep error | head -c 120)); with it a new flow table at the pin (65536 -> 32768 entries, empty; flow list $listed0 -> 0), LIF counters ($lif1) and config kept"
else
	fail "fresh flows: rc $rrc/$frc ($out), flows $fid0/$fmax0 -> $fid1/$fmax1 with $entries entries, flow list $listed0 -> $listed1, LIF 0 rx $lif0 -> $lif1, config same: $([ "$cfg0" = "$cfg1" ] && echo yes || echo no)"
fi
sink_attach
A "$tmp/udpgen" eth0 30 60 "$wamac" 10.78.1.2 10.78.2.2 2000 2000 >/dev/null 2>&1
sleep 0.5
read -r seen doubled beyond ttl63 _ <<<"$(sink_stats)"
made=$(hwxdp -j flow list | jfield "len([f for f in d['flows'] if f['proto'] == 'udp'])")
fpk=$(hwxdp -j flow list | jfield "sum(f['packets'] for f in d['flows'] if f['proto'] == 'udp')")
lif2=$(lif_counter 0 rx_packets)
if [ "$seen" = 2000 ] && [ "$doubled" = 0 ] && [ "${made:-0}" -ge 1 ] && [ "${fpk:-0}" -ge 1990 ] &&
	[ "$((lif2 - lif1))" = "$fpk" ]; then
	pass "after the fresh replace: 2000 of 2000 frames at B, the flow made again in the new table ($fpk frames on the board, LIF 0 rx +$((lif2 - lif1)))"
else
	fail "after the fresh replace: B saw ${seen:-?} (doubled ${doubled:-?}), $made UDP flows with $fpk frames, LIF 0 rx +$((lif2 - lif1))"
fi
finish
