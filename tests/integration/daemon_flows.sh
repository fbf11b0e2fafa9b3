#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# hwxdpd carrying TCP on the device: partner A on VLAN 50 of port p0, partner
# B on the plain port p1, fwd on both. The first frames of a connection are
# punted (flow-miss), Linux routes them between hx0.50 and hx1, the flow maker
# puts both directions on the board, and the rest of the stream never reaches
# the host. Partner A has no 802.1Q module: tc programs tag and untag its
# frames (vlan_partner.bpf.c). What arrives at the partners is read by scapy
# (scripts/appliance/sniff.py), the counters by bpftool on the pins.
#
# Prints "N passed, M failed"; exits 77 (skipped) without root, bpffs, TUN,
# iperf3, clang, ethtool or scapy, with the reason.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
here=scripts/appliance
tag=$$
tmp=/tmp/hxftest.$tag
. tests/integration/appliance_test.sh
appliance_requires iperf3 traceroute


echo "== hwxdpd: TCP on the device, VLAN 50 to a plain port"
topo_up
echo "  wire modes: $(hwxdp -j port show p0 | jfield "d['mode']"), $(hwxdp -j port show p1 | jfield "d['mode']")"

# Errors are one line, and change nothing.
err=$(hwxdp lif add p0 vlan 5000 2>&1)
rc=$?
if [ $rc -ne 0 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] && echo "$err" | grep -q "vlan '5000'" &&
	! hwxdp lif add p0 vlan 50 2>/dev/null && ! hwxdp lif add p9 vlan 7 2>/dev/null &&
	[ "$(hwxdp -j lif list | jfield "len(d['lifs'])")" = 3 ]; then
	pass "bad lif commands are refused in one line, the LIFs stay three ($err)"
else
	fail "lif add with a bad VLAN: rc $rc, '$err'"
fi

A ping -c 2 -W 2 10.78.2.2 >/dev/null 2>&1 || A ping -c 2 -W 2 10.78.2.2 >/dev/null 2>&1 ||
	setup_failed "no ping from $nsa to $nsb across the appliance"
B ping -6 -c 2 -W 2 fd78:1::2 >/dev/null 2>&1 || B ping -6 -c 2 -W 2 fd78:1::2 >/dev/null 2>&1 ||
	setup_failed "no IPv6 ping from $nsb to $nsa across the appliance"

# --- 1. an IPv4 stream, 6 s
B iperf3 -s -D -p 5201 --logfile "$tmp/iperf-server.log" || setup_failed "iperf3 -s in $nsb"
sleep 0.5
# Each capture is ready before the next starts (scapy takes seconds to load
# on a busy machine): the TAPs' last until the stream is over, the partners'
# stop at 300 frames.
sniff - hx1 14 "$tmp/tap1" --host 10.78.1.2
sniff - hx0.50 14 "$tmp/tap050" --host 10.78.2.2
sniff "$nsb" eth0 12 "$tmp/at_b" --max 300 --host 10.78.1.2
sniff "$nsa" eth0 12 "$tmp/at_a" --max 300 --host 10.78.2.2
# At a rate that leaves the captures CPU on two cores.
A iperf3 -c 10.78.2.2 -p 5201 -t 6 -b 300M -J >"$tmp/iperf1.json" 2>&1 &
iperf=$!
sleep 2.5
mid=$(punt_count $FLOW_MISS)
wait "$iperf"
rc=$?
end=$(punt_count $FLOW_MISS)
sniffers
sent=$(jfield "d['end']['sum_sent']['bytes']" <"$tmp/iperf1.json" 2>/dev/null)
rcvd=$(jfield "d['end']['sum_received']['bytes']" <"$tmp/iperf1.json" 2>/dev/null)
rate=$(jfield "round(d['end']['sum_received']['bits_per_second']/1e6)" <"$tmp/iperf1.json" 2>/dev/null)
if [ $rc -eq 0 ] && [ "${rcvd:-0}" -gt 0 ]; then
	pass "iperf3 over IPv4, VLAN 50 -> p1: $rcvd bytes received of $sent sent, $rate Mbit/s"
else
	fail "iperf3 over IPv4: rc $rc, $(head -c 300 "$tmp/iperf1.json")"
fi
flows=$(hwxdp -j flow list)
made=$(echo "$flows" | jfield "len([f for f in d['flows'] if f['proto']=='tcp' and f['family']=='ipv4'])")
if [ "${made:-0}" -ge 4 ]; then
	pass "the flow maker put $made IPv4 TCP directions on the board (iperf3's control and data connections)"
else
	fail "flows made: ${made:-none}: $(echo "$flows" | head -c 400)"
fi
if [ -n "$mid" ] && [ "$mid" = "$end" ]; then
	pass "from 2.5 s on, no frame was punted flow-miss (punt_stats by bpftool: $end, all before)"
else
	fail "flow-miss punts mid-stream: ${mid:-?} -> ${end:-?}"
fi
ontap=$(py "
import json
fs = [json.loads(l) for f in ('$tmp/tap1', '$tmp/tap050') for l in open(f) if l.startswith('{')]
fs = [f for f in fs if f.get('proto') == 'tcp']
t0 = min([f['t'] for f in fs] or [0])
late = [f for f in fs if f['t'] > t0 + 1.0]
print('%d %d' % (len(fs), len(late)))")
if [ "${ontap#* }" = 0 ] && [ "${ontap% *}" -le 12 ]; then
	pass "captures on hx1 and hx0.50 saw ${ontap% *} TCP frames of the stream, all in its first second"
else
	fail "the TAPs saw TCP frames of the stream (all, later than 1 s): $ontap"
fi
py "
import json, sys
def load(p):
    return [json.loads(l) for l in open(p) if l.startswith('{')]
b = [f for f in load('$tmp/at_b') if f.get('src') == '10.78.1.2' and f.get('proto') == 'tcp']
a = [f for f in load('$tmp/at_a') if f.get('src') == '10.78.2.2' and f.get('proto') == 'tcp']
bad = []
if len(b) < 50 or len(a) < 20: bad.append('too few frames: %d at B, %d at A' % (len(b), len(a)))
for f in b:
    if f['ttl'] != 63 or f['vlan'] is not None or f['smac'] != '$wbmac' or f['dmac'] != '$bmac' \
       or not f['ip_csum'] or not f['l4_csum']:
        bad.append('at B: %s' % f); break
for f in a:
    if f['ttl'] != 63 or f['smac'] != '$wamac' or f['dmac'] != '$amac' or not f['ip_csum'] or not f['l4_csum']:
        bad.append('at A: %s' % f); break
tagged = sum(1 for f in a if f['vlan'] == 50)
print('%d frames at B, %d at A (%d of them seen with tag 50)' % (len(b), len(a), tagged))
if bad: print('BAD ' + '; '.join(bad)); sys.exit(1)
" >"$tmp/fields" 2>&1
if [ $? -eq 0 ]; then
	pass "scapy at the partners: TTL 63, tag removed towards B, MACs of the appliance's ports, IPv4 and TCP checksums right; $(cat "$tmp/fields")"
else
	fail "frames at the partners: $(cat "$tmp/fields"); at A: $(tail -n 1 "$tmp/at_a"), at B: $(tail -n 1 "$tmp/at_b")"
fi
tagged_at_a=$(grep -c '"vlan": 50' "$tmp/at_a")
untagged_at_a=$(grep -c '"vlan": null' "$tmp/at_a")
if [ "$tagged_at_a" -gt 0 ] && [ "$untagged_at_a" -eq 0 ]; then
	pass "towards A every frame carries VLAN 50 ($tagged_at_a seen)"
else
	fail "towards A: $tagged_at_a frames with tag 50, $untagged_at_a without"
fi

# --- 2. vlan_flows 0 while a stream runs: the host carries it; 1 again: the
# device, within 2 s. config is an array the kernel and the board share.
cfg_write() { # vlan_flows ipsec_flows lif_apply
	hwxdp map update fwd/config key 0 0 0 0 value "$1" 0 0 0 "$2" 0 0 0 "$3" 0 0 0 0 0 0 0 >/dev/null
}
A iperf3 -c 10.78.2.2 -p 5201 -t 8 -b 200M -J >"$tmp/iperf2.json" 2>&1 &
iperf=$!
sleep 2
cfg_write 0 0 1
off0=$(punt_count 8)
sleep 2
off1=$(punt_count 8)
on_at=$(date +%s.%N)
cfg_write 1 0 1
sleep 2
on0=$(punt_count 8)
sleep 1.5
on1=$(punt_count 8)
wait "$iperf"
rc=$?
rcvd=$(jfield "d['end']['sum_received']['bytes']" <"$tmp/iperf2.json" 2>/dev/null)
sent=$(jfield "d['end']['sum_sent']['bytes']" <"$tmp/iperf2.json" 2>/dev/null)
if [ $rc -eq 0 ] && [ "${rcvd:-0}" -gt 0 ] && [ "$((off1 - off0))" -gt 1000 ] &&
	[ "$on0" = "$on1" ]; then
	pass "vlan_flows 0: $((off1 - off0)) frames in 2 s went to the host (vlan-flows-off), the stream went on ($rcvd of $sent bytes); 1 again: none from 2 s on"
else
	fail "vlan_flows toggle: rc $rc, vlan-flows-off punts ${off0:-?} -> ${off1:-?} while off, ${on0:-?} -> ${on1:-?} after on; $(head -c 200 "$tmp/iperf2.json")"
fi

# --- 3. IPv6 TCP through the device, both ways, hop limit lowered.
sniff "$nsb" eth0 10 "$tmp/at_b6" --max 200 --host fd78:1::2
sniff "$nsa" eth0 10 "$tmp/at_a6" --max 200 --host fd78:2::2
miss0=$(punt_count $FLOW_MISS)
A iperf3 -6 -c fd78:2::2 -p 5201 -t 3 -b 100M -J >"$tmp/iperf6.json" 2>&1
rc1=$?
A iperf3 -6 -c fd78:2::2 -p 5201 -t 3 -b 100M -R -J >"$tmp/iperf6r.json" 2>&1
rc2=$?
miss1=$(punt_count $FLOW_MISS)
sniffers
made6=$(hwxdp -j flow list | jfield "len([f for f in d['flows'] if f['family']=='ipv6'])")
py "
import json, sys
def load(p):
    return [json.loads(l) for l in open(p) if l.startswith('{')]
b = [f for f in load('$tmp/at_b6') if f.get('src') == 'fd78:1::2' and f.get('proto') == 'tcp']
a = [f for f in load('$tmp/at_a6') if f.get('src') == 'fd78:2::2' and f.get('proto') == 'tcp']
bad = [f for f in b if f['ttl'] != 63 or f['vlan'] is not None or not f['l4_csum']] + \
      [f for f in a if f['ttl'] != 63 or not f['l4_csum']]
print('%d frames at B, %d at A' % (len(b), len(a)))
sys.exit(1 if bad or len(a) < 20 or len(b) < 20 else 0)
" >"$tmp/fields6" 2>&1
fr=$?
if [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ "${made6:-0}" -ge 4 ] && [ $fr -eq 0 ] &&
	[ "$((miss1 - miss0))" -le 16 ]; then
	pass "IPv6 TCP both ways on the device: $made6 directions made, $((miss1 - miss0)) flow-miss punts in all, hop limit 63 and TCP checksums right ($(cat "$tmp/fields6"))"
else
	fail "IPv6: iperf3 rc $rc1/$rc2, $made6 flows, flow-miss $miss0 -> $miss1, fields: $(cat "$tmp/fields6"); at A: $(head -c 300 "$tmp/at_a6") $(tail -n 1 "$tmp/at_a6")"
fi

# --- 4. LIF states: offload-disabled carries through the host, admin-disabled drops.
hwxdp lif set p0 vlan 50 state offload-disabled >/dev/null
before=$(punt_count 7)
A ping -c 3 -i 0.2 -W 2 10.78.2.2 >/dev/null 2>&1
prc=$?
after=$(punt_count 7)
if [ $prc -eq 0 ] && [ "$((after - before))" -ge 3 ]; then
	pass "offload-disabled: ping goes on through the host ($((after - before)) frames punted lif-offload-disabled)"
else
	fail "offload-disabled: ping rc $prc, lif-offload-disabled punts ${before:-?} -> ${after:-?}"
fi
hwxdp lif set p0 vlan 50 state admin-disabled >/dev/null
dropped0=$(sleep 0.6; lif_counter 50 rx_dropped)
A ping -c 3 -i 0.2 -W 1 10.78.2.2 >/dev/null 2>&1
prc=$?
dropped1=$(sleep 1.2; lif_counter 50 rx_dropped)
if [ $prc -ne 0 ] && [ "$((dropped1 - dropped0))" -ge 3 ]; then
	pass "admin-disabled: ping fails, bpftool counts $((dropped1 - dropped0)) frames in rx_dropped"
else
	fail "admin-disabled: ping rc $prc, rx_dropped ${dropped0:-?} -> ${dropped1:-?}"
fi
hwxdp lif set p0 vlan 50 state enabled >/dev/null
for _ in 1 2 3; do A ping -c 1 -W 2 10.78.2.2 >/dev/null 2>&1 && break; done

# State changes while the board counts on the LIF (a UDP stream on the
# device): the state written is the state read back, the counters go on.
A iperf3 -c 10.78.2.2 -p 5201 -u -b 20M -t 5 >/dev/null 2>&1 &
iperf=$!
sleep 1
for st in offload-disabled enabled admin-disabled enabled; do
	hwxdp lif set p0 vlan 50 state "$st" >/dev/null
	sleep 0.7
done
wait "$iperf"
sleep 1.2
st=$(lif_counter 50 state)
rx0=$(lif_counter 50 rx_packets)
A iperf3 -c 10.78.2.2 -p 5201 -t 2 -b 100M >/dev/null 2>&1
sleep 1.2
rx1=$(lif_counter 50 rx_packets)
if [ "$st" = 0 ] && [ "$((rx1 - rx0))" -gt 1000 ]; then
	pass "LIF states changed under traffic: bpftool reads state 0 (enabled) after, and the next stream is on the device (+$((rx1 - rx0)) frames)"
else
	fail "after state changes under traffic: state ${st:-?}, rx_packets ${rx0:-?} -> ${rx1:-?}"
fi

# --- 5. prog replace during a stream: another build in fwd's place (here
# built again from the same source), its maps and their contents kept; a
# refused one changes nothing.
clang -g -O2 -target bpf -Wall -Iprogs/include -Iinclude -I/usr/include/"$(gcc -dumpmachine)" \
	-c progs/fwd.bpf.c -o "$tmp/fwd_again.o" 2>"$tmp/cc.log" || setup_failed "fwd again: $(head -n 3 "$tmp/cc.log")"
cat >"$tmp/bad.c" <<'C'
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("xdp")
int unchecked(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;

	return data[20] == 6 ? XDP_DROP : XDP_PASS; /* no bounds check */
}
char LICENSE[] SEC("license") = "GPL";
C
clang -g -O2 -target bpf -I/usr/include/"$(gcc -dumpmachine)" -c "$tmp/bad.c" -o "$tmp/bad.o" ||
	setup_failed "cannot build the refused program"
host_id0=$(hwxdp -j prog show fwd | jfield "d['host_prog_id']")
A iperf3 -c 10.78.2.2 -p 5201 -t 6 -b 200M -J >"$tmp/iperf5.json" 2>&1 &
iperf=$!
sleep 2
made0=$(hwxdp -j flow list | jfield "d['counters']['active']")
miss0=$(punt_count $FLOW_MISS) rx0=$(lif_counter 50 rx_packets)
rerr=$(hwxdp prog replace fwd "$tmp/bad.o" 2>&1 >/dev/null)
rrc=$?
out=$(hwxdp prog replace fwd "$tmp/fwd_again.o" 2>&1)
orc=$?
# From the board's own counters: after the replace, the stream is forwarded
# there, not punted.
sleep 0.3
verdicts() { hwxdp -j stats | jfield "'%d %d' % (d['verdicts']['pass'], d['verdicts']['redirect'])"; }
read -r pass0 redir0 < <(verdicts)
sleep 1.2
read -r pass1 redir1 < <(verdicts)
passed_after=$((pass1 - pass0)) redirected_after=$((redir1 - redir0))
miss1=$(punt_count $FLOW_MISS) rx1=$(lif_counter 50 rx_packets)
made1=$(hwxdp -j flow list | jfield "d['counters']['active']")
wait "$iperf"
irc=$?
show=$(hwxdp -j prog show fwd)
host_id1=$(echo "$show" | jfield "d['host_prog_id']")
on_tap=$(ip -d link show hx0.50 | sed -nE 's/.*prog\/xdp id ([0-9]+).*/\1/p')
if [ $rrc -ne 0 ] && echo "$rerr" | grep -q 'invalid access to packet'; then
	pass "prog replace with a refused program: the verifier's log, nothing changed"
else
	fail "refused replace: rc $rrc, $(echo "$rerr" | tail -n 2 | tr '\n' ' ')"
fi
if [ $orc -eq 0 ] && [ $irc -eq 0 ] && [ "$made0" = "$made1" ] && [ "$miss0" = "$miss1" ] &&
	[ "${passed_after:-99}" -le 5 ] && [ "${redirected_after:-0}" -gt 1000 ] &&
	[ "$((rx1 - rx0))" -gt 1000 ] && [ "$host_id1" != "$host_id0" ] && [ "$on_tap" = "$host_id1" ] &&
	[ "$(echo "$show" | jfield "d['replaces']")" = 1 ]; then
	pass "prog replace mid-stream: $made1 flows kept, 0 new flow-miss, in the 1.2 s after it the board forwarded $redirected_after frames and punted $passed_after, LIF counters went on (+$((rx1 - rx0))), TAPs on kernel program $host_id1"
else
	fail "prog replace: rc $orc ($out), iperf3 rc $irc, after it $redirected_after forwarded and $passed_after punted, flows $made0 -> $made1, flow-miss $miss0 -> $miss1, rx $rx0 -> $rx1, host $host_id0 -> $host_id1 (TAP: $on_tap)"
fi

# --- 5b. 100 replaces during one stream, alternating two builds of fwd (the
# usual one and clang's alu32 code): the stream goes on, the flows stay,
# nothing is punted flow-miss, and the receiver never holds a segment out of
# order (none was lost; daemon_replace.sh counts every frame of a UDP stream).
A nstat -n; B nstat -n
A iperf3 -c 10.78.2.2 -p 5201 -t 30 -b 100M -J >"$tmp/iperf100.json" 2>&1 &
iperf=$!
sleep 1.5
made0=$(hwxdp -j flow list | jfield "d['counters']['active']")
miss0=$(punt_count $FLOW_MISS)
read -r pass0 redir0 < <(verdicts)
n=0 t0=$(date +%s%N)
for i in $(seq 100); do
	if [ $((i % 2)) -eq 1 ]; then obj=$build/progs/fwd_alu32.bpf.o; else obj=$build/progs/fwd.bpf.o; fi
	hwxdp prog replace fwd "$obj" >/dev/null 2>"$tmp/replace.err" && n=$((n + 1))
	kill -0 "$iperf" 2>/dev/null || break
done
t1=$(date +%s%N)
read -r pass1 redir1 < <(verdicts)
miss1=$(punt_count $FLOW_MISS)
made1=$(hwxdp -j flow list | jfield "d['counters']['active']")
kill -INT "$iperf" 2>/dev/null
wait "$iperf"
retr=$(jfield "d['end']['sum_sent'].get('retransmits', -1)" <"$tmp/iperf100.json" 2>/dev/null)
ofo=$(B nstat -z TcpExtTCPOFOQueue | awk '$1 == "TcpExtTCPOFOQueue" { print $2 }')
probes=$(A nstat -z TcpExtTCPLossProbes TcpExtTCPDSACKRecv | awk 'NR > 1 { print $1, $2 }' | paste -sd, -)
errs=$(hwxdp -j port list | jfield "' '.join('%s:%d' % (p['name'], p['counters']['errors']) for p in d['ports'])")
# The retransmissions iperf3 counts are tail-loss probes: a replace takes
# CPU (verification, translation, the compiler) from the board thread on two
# cores, an ACK comes a few ms late, TCP probes, and the receiver reports the
# probe as a duplicate (D-SACK). Out-of-order segments would mean a loss.
if [ "$n" -eq 100 ] && [ "$made0" = "$made1" ] && [ "$miss0" = "$miss1" ] && [ "${ofo:-x}" = 0 ] &&
	[ "${retr:--1}" -ge 0 ] && [ "${retr:-99}" -le 60 ] && [ "$((redir1 - redir0))" -gt 10000 ] &&
	[ "$((pass1 - pass0))" -le 20 ]; then
	pass "100 replaces in $(((t1 - t0) / 1000000)) ms during one stream: $((redir1 - redir0)) frames forwarded on the board meanwhile, $((pass1 - pass0)) punted, $made1 flows kept, 0 segments out of order at B; $retr retransmissions, tail-loss probes ($probes)"
else
	fail "100 replaces: $n done ($(head -c 200 "$tmp/replace.err")), flows $made0 -> $made1, flow-miss $miss0 -> $miss1, out of order at B ${ofo:-?}, retransmits ${retr:-?} ($probes; port errors $errs), forwarded $((redir1 - redir0)), punted $((pass1 - pass0))"
fi

# --- 6. An unknown VLAN is punted and counted; traceroute through the host.
uv0=$(punt_count 6)
A /usr/bin/python3 -c "
from scapy.all import Ether, Dot1Q, IP, UDP, sendp
sendp(Ether(dst='$wamac')/Dot1Q(vlan=77)/IP(src='10.78.1.2', dst='10.78.2.2')/UDP(dport=9), iface='eth0', count=5, verbose=False)
" 2>/dev/null
sleep 1
uv1=$(punt_count 6)
seen=$(hwxdp -j port show p0 | jfield "d['counters']['unknown_vlan']")
if [ "$((uv1 - uv0))" -eq 5 ] && [ "${seen:-0}" -ge 5 ]; then
	pass "5 frames on unknown VLAN 77: punt_stats[unknown-vlan] +5 (bpftool), port p0 counts $seen"
else
	fail "unknown VLAN: punt_stats ${uv0:-?} -> ${uv1:-?}, p0 unknown_vlan ${seen:-?}"
fi
trace=$(A traceroute -n -q 1 -w 2 -m 4 10.78.2.2 2>&1)
if echo "$trace" | grep -qE '^ *1 +10\.78\.1\.1 ' && echo "$trace" | grep -qE '^ *2 +10\.78\.2\.2 '; then
	pass "traceroute across the appliance: 10.78.1.1, then 10.78.2.2"
else
	fail "traceroute: $(echo "$trace" | tr '\n' '|')"
fi

# --- 6b. Every receive queue of a wire is read: p0's veth has two, and A's
# kernel spreads its sockets over its two transmit queues by their hash, so
# 32 UDP sockets (32 source ports) arrive on both. Each datagram reaches B.
queue_rx() { hwxdp -j port show p0 | jfield "' '.join(str(q['rx']) for q in d['queues'])"; }
qa=($(queue_rx))
sniff "$nsb" eth0 10 "$tmp/at_bq" --host 10.78.1.2 --max 32
A bash -c 'for i in $(seq 32); do echo q >/dev/udp/10.78.2.2/9; done'
sniffers
qb=($(queue_rx))
got_q=$(grep -c '"dport": 9,' "$tmp/at_bq")
if [ "${#qa[@]}" -eq 2 ] && [ "${#qb[@]}" -eq 2 ] && [ "$((qb[0] - qa[0]))" -gt 0 ] &&
	[ "$((qb[1] - qa[1]))" -gt 0 ] && [ "$got_q" -eq 32 ]; then
	pass "both receive queues of p0 read: +$((qb[0] - qa[0])) and +$((qb[1] - qa[1])) frames; all 32 UDP datagrams of 32 sockets reached B"
else
	fail "queues of p0: ${qa[*]:-?} -> ${qb[*]:-?}; $got_q of 32 datagrams at B"
fi

# --- 7. The per-LIF counters, as bpftool reads them, are the frames forwarded.
sleep 1.5
stats=$(hwxdp -j stats)
fwd_frames=$(echo "$stats" | jfield "d['verdicts']['tx'] + d['verdicts']['redirect']")
rx=$(($(lif_counter 50 rx_packets) + $(lif_counter 4096 rx_packets)))
tx=$(($(lif_counter 50 tx_packets) + $(lif_counter 4096 tx_packets)))
port_rx0=$(lif_counter 0 rx_packets)
if [ "$rx" = "$fwd_frames" ] && [ "$tx" = "$fwd_frames" ] && [ "$port_rx0" = "$(lif_counter 50 rx_packets)" ]; then
	pass "bpftool's lifs: rx $rx and tx $tx frames, the $fwd_frames the board forwarded (lif_apply: p0's LIF has VLAN 50's)"
else
	fail "lifs rx $rx, tx $tx, p0 LIF rx $port_rx0, the board forwarded $fwd_frames"
fi

# --- 8. SIGTERM: TAPs and links go, and the daemon says what stays pinned.
kill -TERM "$daemon_pid"
wait "$daemon_pid"
rc=$?
daemon_pid=
left=$(ip -o link show | grep -cE ': hx(0|1|0\.50)[@:]')
if [ $rc -eq 0 ] && [ "$left" -eq 0 ] && [ ! -S "$sock" ] && [ ! -e "$pins/fwd" ] &&
	grep -q 'pinned' "$tmp/hwxdpd.log"; then
	pass "SIGTERM: exit 0, hx0, hx0.50, hx1 and their links gone; $(grep 'pinned' "$tmp/hwxdpd.log" | tail -n 1)"
else
	fail "SIGTERM: rc $rc, $left TAPs left, log: $(tail -n 3 "$tmp/hwxdpd.log" | tr '\n' ' ')"
fi
finish
