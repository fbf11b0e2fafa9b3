#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Rekeys of a tunnel while its stream runs, the flows made by the flow maker
# from a policy: partner A (VLAN 50 of p0) sends numbered UDP frames to B
# (p1), and a policy puts 10.78.1.0/24 -> 10.78.2.0/24 into the tunnel
# 192.0.2.1 -> 198.51.100.1. What reaches B is read by scapy alone: every
# ESP frame decrypts (SecurityAssociation, AES-GCM) to A's packet, every
# numbered packet arrives exactly once, none in clear, ESP sequence numbers
# 1, 2, 3, ... per SA in the order they arrive.
#   1. SA 1; mid-stream SA 2 is added and SA 1 deleted: the flow goes to the
#      host path (encrypted with SA 2) and is made again on SA 2.
#   2. SA 4 (no lifetime) and then SA 3 (a byte lifetime of 500 frames):
#      SA 3, the newest, encrypts exactly 500 frames; the 501st is refused
#      by the board, the flow retired, and SA 4 carries the rest.
#   3. ipsec_flows 0: no tunnel flow is made, the host path encrypts them
#      all, with the sequence numbers going on from the board's.
#   4. Without an SA the policy's frames are held.
#   5. SIGKILL of hwxdpd and a start: the SA is taken up again from the SA
#      file with its counts, its sequence numbers going on past the board's
#      (never one used twice), the stream encrypted on it again.
#
# Prints "N passed, M failed"; exits 77 (skipped) without root, bpffs, TUN,
# clang, ethtool or scapy, with the reason.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
tag=$$
tmp=/tmp/hxktest.$tag
. tests/integration/appliance_test.sh
KEY1=000102030405060708090a0b0c0d0e0fc0c1c2c3
KEY2=f0e1d2c3b4a5968778695a4b3c2d1e0f00112233
KEY3=2b7e151628aed2a6abf7158809cf4f3c01020304
KEY4=603deb1015ca71be2b73aef0857d77811f352c07
KEY6=8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b0a0b0c0d
appliance_requires gcc tcpdump

echo "== hwxdpd: rekeys of a tunnel mid-stream, its flows made from a policy"
topo_up
gcc -O2 -Wall -o "$tmp/udpgen" bench/live/udpgen.c || setup_failed "cannot build udpgen"
B sysctl -qw net.ipv4.ip_forward=0
A ping -c 2 -i 0.2 -W 1 10.78.2.2 >/dev/null || setup_failed "A cannot ping B through the appliance"
# ipsec_flows 1 (vlan_flows 1, lif_apply 1)
config() { hwxdp map update fwd/config key 0 0 0 0 value 1 0 0 0 "$1" 0 0 0 1 0 0 0 0 0 0 0 >/dev/null; }
config 1
out=$(hwxdp policy add src 10.78.1.0/24 dst 10.78.2.0/24 tunnel 192.0.2.1 198.51.100.1 2>&1) ||
	setup_failed "policy add: $out"
sa_add() { # HANDLE SPI KEY [lifetime words]
	local h=$1 spi=$2 key=$3
	shift 3
	echo "$key" | hwxdp sa add "$h" spi "$spi" src 192.0.2.1 dst 198.51.100.1 key-file - "$@" >/dev/null
}
sa_field() { hwxdp -j sa list | jfield "[s['$2'] for s in d['sas'] if s['handle'] == $1][0]"; }
send() { A "$tmp/udpgen" eth0 30 64 "$wamac" 10.78.1.2 10.78.2.2 "$1" "$2" 50 >/dev/null; }
check() {
	/usr/bin/python3 tests/integration/esp_capture.py check "$1" --sa "0x1001:$KEY1" \
		--sa "0x2002:$KEY2" --sa "0x3003:$KEY3" --sa "0x4004:$KEY4" --sa "0x6006:$KEY6" \
		--inner-src 10.78.1.2 --inner-dst 10.78.2.2 --dport 9
}
# verdict N SPI... < check's JSON: "ok" when the N packets 0..N-1 each came
# once, decrypted, TTL 63, none in clear, and each SPI's ESP sequence is
# 1..k in order of arrival; else what is wrong. Prints the count per SPI.
verdict() {
	py "
import json, sys
d = json.load(sys.stdin)
n, spis = $1, [str(int(s, 0)) for s in '${*:2}'.split()]
got, why, per = [], [], []
for s, e in d['spis'].items():
    if s not in spis:
        why.append('frames of SPI %s' % s)
        continue
    k = e['frames']
    per.append('0x%x: %d' % (int(s), k))
    if e['decrypted'] != k:
        why.append('%d of %d of SPI 0x%x decrypt' % (e['decrypted'], k, int(s)))
    if e['seq'] != list(range(1, k + 1)):
        why.append('SPI 0x%x sequence not 1..%d in order: %s' % (int(s), k, e['seq'][:20]))
    if set(e['ttl']) - {63}:
        why.append('TTLs %s' % sorted(set(e['ttl'])))
    got += e['payload_seq']
if d['clear']:
    why.append('%d in clear' % d['clear'])
if sorted(got) != list(range(n)):
    miss = sorted(set(range(n)) - set(got))
    why.append('%d packets of %d, %d missing (%s), %d doubled' % (len(got), n, len(miss), miss[:8], len(got) - len(set(got))))
print(('ok' if not why else '; '.join(why)) + ' | ' + ', '.join(sorted(per)))
"
}
flow_sa() { hwxdp -j flow list | jfield "','.join(str(f['sa']) for f in d['flows'] if f['proto'] == 'udp' and f['in_vlan'] == 50)"; }

# 1. SA 1, then SA 2 added and SA 1 deleted mid-stream.
sa_add 1 0x1001 "$KEY1" || setup_failed "sa add 1"
capture 8 "$tmp/k1.pcap"
send 6000 2000 &
gen=$!
sleep 1.5
sa1_flow=$(flow_sa)
sa_add 2 0x2002 "$KEY2" || fail "sa add 2"
del1=$(hwxdp sa del 1 2>&1)
wait "$gen"
sleep 0.3
sa2_flow=$(flow_sa)
sa2_board=$(hwxdp -j flow list | jfield "sum(f['packets'] for f in d['flows'] if f.get('sa') == 2)")
host_enc=$(hwxdp -j policy list | jfield "d['policies'][0]['host_encrypted']")
wait "$cap"
res=$(check "$tmp/k1.pcap" | verdict 6000 0x1001 0x2002)
if [ "${res%% |*}" = ok ] && [ "$sa1_flow" = 1 ] && [ "$sa2_flow" = 2 ] && [ "${sa2_board:-0}" -gt 1000 ]; then
	pass "rekey 1 -> 2 mid-stream: 6000 of 6000 packets at B, each decrypted by scapy, none in clear, ESP sequence 1..k per SA in order (${res#*| }); the flow on SA 1 before, made again on SA 2 after ($sa2_board frames of it on the board); $host_enc frames through the host path"
else
	fail "rekey 1 -> 2: $res; flow's SA before '$sa1_flow', after '$sa2_flow', on the board ${sa2_board:-?}; sa del: $del1"
fi

# 2. SA 4, then SA 3 with a lifetime of 500 frames' bytes; SA 2 deleted.
bytes=$(($(sa_field 2 bytes) / $(sa_field 2 packets)))
sa_add 4 0x4004 "$KEY4" && sa_add 3 0x3003 "$KEY3" lifetime-bytes $((500 * bytes)) ||
	fail "sa add 3, 4"
hwxdp sa del 2 >/dev/null
capture 6 "$tmp/k2.pcap"
send 2000 2000
sleep 0.3
wait "$cap"
res=$(check "$tmp/k2.pcap" | verdict 2000 0x3003 0x4004)
p3=$(sa_field 3 packets) e3=$(sa_field 3 expired) p4=$(sa_field 4 packets)
if [ "${res%% |*}" = ok ] && [ "$p3" = 500 ] && [ "$e3" = True ] && [ "$p4" = 1500 ] &&
	[ "$(flow_sa)" = 4 ]; then
	pass "byte lifetime of SA 3 ($((500 * bytes)) bytes): exactly 500 frames on it, then SA 4 (1500), 2000 of 2000 at B decrypted, none in clear (${res#*| }); the flow made again on SA 4"
else
	fail "lifetime: $res; SA 3 packets ${p3:-?} expired ${e3:-?}, SA 4 ${p4:-?}, flow on SA '$(flow_sa)'"
fi

# 3. ipsec_flows 0: the host path encrypts, the sequence numbers go on.
seq4=$(sa_field 4 packets)
config 0
enc0=$(hwxdp -j policy list | jfield "d['policies'][0]['host_encrypted']")
capture 5 "$tmp/k3.pcap"
send 500 1000
sleep 0.3
wait "$cap"
enc1=$(hwxdp -j policy list | jfield "d['policies'][0]['host_encrypted']")
res=$(check "$tmp/k3.pcap" | py "
import json, sys
d = json.load(sys.stdin)
e = d['spis'].get(str(0x4004), {})
print(d['clear'] == 0 and list(d['spis']) == [str(0x4004)] and e.get('decrypted') == 500 and
      e.get('seq') == list(range($seq4 + 1, $seq4 + 501)) and sorted(e.get('payload_seq', [])) == list(range(500)))")
if [ "$res" = True ] && [ $((enc1 - enc0)) -ge 499 ]; then
	pass "ipsec_flows 0: the host path encrypted $((enc1 - enc0)) of 500 frames with SA 4, ESP sequence $((seq4 + 1))..$((seq4 + 500)) after the board's $seq4, all decrypted at B, none in clear"
else
	fail "ipsec_flows 0: $res, host path +$((enc1 - enc0)); $(check "$tmp/k3.pcap" | head -c 300)"
fi

# 4. No SA for the policy: held, never in clear.
hwxdp sa del 3 >/dev/null
hwxdp sa del 4 >/dev/null
held0=$(hwxdp -j policy list | jfield "d['policies'][0]['held']")
capture 4 "$tmp/k4.pcap"
send 50 1000
sleep 0.3
wait "$cap"
held1=$(hwxdp -j policy list | jfield "d['policies'][0]['held']")
clear=$(check "$tmp/k4.pcap" | jfield "d['clear'] + sum(e['frames'] for e in d['spis'].values())")
if [ "$clear" = 0 ] && [ $((held1 - held0)) = 50 ]; then
	pass "without an SA the policy's 50 frames are held by the host path, 0 at B"
else
	fail "no SA: held +$((held1 - held0)), $clear frames of the flow at B"
fi

# 5. SIGKILL and start again: the SA and its sequence numbers from the SA file.
config 1
sa_add 6 0x6006 "$KEY6" || fail "sa add 6"
capture 4 "$tmp/k5.pcap"
send 1000 2000
sleep 0.3
wait "$cap"
# No command from here to the kill (each one writes the SA file too): the
# upkeep's round must have written the counts.
sleep 0.7
kill -KILL "$daemon_pid"
wait "$daemon_pid" 2>/dev/null
"$build/hwxdpd" --socket "$sock" --engines 1 --pin-root "$pins" >"$tmp/hwxdpd2.log" 2>&1 &
daemon_pid=$!
for _ in $(seq 100); do hwxdp -j sa list >/dev/null 2>&1 && break; sleep 0.1; done
after=$(sa_field 6 seq) pk=$(sa_field 6 packets)
capture 4 "$tmp/k6.pcap"
send 500 2000
sleep 0.3
wait "$cap"
skip=$((1 << 22))
res=$( (check "$tmp/k5.pcap"; check "$tmp/k6.pcap") | py "
import json, sys
a, b = (json.loads(l) for l in sys.stdin.read().split('\n') if l.strip())
e, f = a['spis'].get(str(0x6006), {}), b['spis'].get(str(0x6006), {})
ok = (a['clear'] + b['clear'] == 0 and e.get('seq') == list(range(1, 1001)) and
      f.get('seq') == list(range(1001 + $skip, 1501 + $skip)) and e.get('decrypted') == 1000 and
      f.get('decrypted') == 500 and sorted(f.get('payload_seq', [])) == list(range(500)))
print(ok, len(e.get('seq', [])), f.get('seq', [0])[:1], f.get('decrypted'))")
if [ "${res%% *}" = True ] && [ "$after" = $((1000 + skip)) ] && [ "$pk" = 1000 ]; then
	pass "SIGKILL and start: SA 6 taken up again from the SA file (1000 packets counted), its ESP sequence going on at $((1001 + skip)) past the board's 1000, 500 more frames decrypted at B, none in clear"
else
	fail "SA across a restart: $res; seq after ${after:-?}, packets ${pk:-?}; $(grep -i 'sa\b\|restored' "$tmp/hwxdpd2.log" | head -n 8 | tr '\n' ' ')"
fi
finish
