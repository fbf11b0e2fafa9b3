#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# ESP SAs on the live appliance: `hwxdp sa add` with the key on standard
# input (a key on the command line is refused), a tunnel flow from partner A
# (VLAN 50 of p0) to B (p1), and what reaches B, read by scapy alone: every
# ESP frame decrypts (SecurityAssociation, AES-GCM) to A's numbered packet,
# sequence numbers 1, 2, 3, ... per SA, no frame of the flow in clear. Then a
# second SA with a lifetime of 20 packets takes the flow over: the board
# encrypts exactly 20 and holds the rest (the host has no ESP here and never
# gets them in clear). `sa del` takes the flows naming an SA off first.
#
# Prints "N passed, M failed"; exits 77 (skipped) without root, bpffs, TUN,
# clang, ethtool or scapy, with the reason.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
tag=$$
tmp=/tmp/hxstest.$tag
. tests/integration/appliance_test.sh
KEY1=000102030405060708090a0b0c0d0e0fc0c1c2c3
KEY2=f0e1d2c3b4a5968778695a4b3c2d1e0f00112233
ESP_FAILED=22
appliance_requires gcc tcpdump

echo "== hwxdpd: ESP SAs, a tunnel flow, a lifetime"
topo_up
gcc -O2 -Wall -o "$tmp/udpgen" bench/live/udpgen.c || setup_failed "cannot build udpgen"
# B is a host, not a router: it must not send the tunnel's frames back.
B sysctl -qw net.ipv4.ip_forward=0
A ping -c 2 -i 0.2 -W 1 10.78.2.2 >/dev/null || setup_failed "A cannot ping B through the appliance"
# The flow of A's numbered frames (VLAN 50, UDP 40000 -> 9), made by the flow maker.
send() { A "$tmp/udpgen" eth0 30 64 "$wamac" 10.78.1.2 10.78.2.2 "$1" 1000 50 >/dev/null; }
send 3
sleep 0.5
nexthop=$(hwxdp -j flow list | jfield "[f['nexthop'] for f in d['flows'] if f['proto'] == 'udp' and f['in_vlan'] == 50][0]")
[ -n "$nexthop" ] || setup_failed "no flow made for A's frames: $(hwxdp -j flow list)"
le32() { py "import struct; print(' '.join(str(b) for b in struct.pack('<I', $1)))"; }
zeros() { printf '0 %.0s' $(seq "$1"); }
flow_key="50 0 0 0 4 17 0 0 156 64 0 9 10 78 1 2 $(zeros 12)10 78 2 2 $(zeros 12)"
# tunnel HANDLE REVISION: the flow encrypted with that SA.
tunnel() {
	hwxdp map update fwd/flows key $flow_key value $(le32 "$nexthop") 1 0 0 0 $(le32 "$1") \
		$(le32 "$2") $(zeros 16) >/dev/null
}
revision() { hwxdp -j sa list | jfield "[s['revision'] for s in d['sas'] if s['handle'] == $1][0]"; }
sa_field() { hwxdp -j sa list | jfield "[s['$2'] for s in d['sas'] if s['handle'] == $1][0]"; }
# expect_esp SPI N OTHER_SPI < check's JSON: True when exactly N frames of SPI
# came, all decrypted to A's packets 0..N-1 with TTL 63, ESP sequence 1..N,
# none in clear and none of OTHER_SPI (0: none to exclude).
expect_esp() {
	py "
import json, sys
d = json.load(sys.stdin)
e = d['spis'].get(str($1), {})
print(d['clear'] == 0 and str($3) not in d['spis'] and e.get('frames') == $2 and
      e.get('decrypted') == $2 and e.get('seq') == list(range(1, $2 + 1)) and
      e.get('payload_seq') == list(range($2)) and set(e.get('ttl', [])) == {63})"
}
check() {
	/usr/bin/python3 tests/integration/esp_capture.py check "$1" --sa "0x1001:$KEY1" \
		--sa "0x2002:$KEY2" --inner-src 10.78.1.2 --inner-dst 10.78.2.2 --dport 9
}

# 1. The key never on the command line.
out=$(hwxdp sa add 1 spi 0x1001 src 192.0.2.1 dst 198.51.100.1 key "$KEY1" 2>&1)
rc=$?
none=$(hwxdp -j sa list | jfield "len(d['sas'])")
if [ $rc -ne 0 ] && echo "$out" | grep -q 'no key on the command line' && [ "$none" = 0 ]; then
	pass "a key on the command line is refused: $out"
else
	fail "key on the command line: rc $rc, $out, $none SAs"
fi
out=$(echo "$KEY1" | hwxdp sa add 1 spi 0x1001 src 192.0.2.1 dst 198.51.100.1 key-file - 2>&1) ||
	setup_failed "sa add 1: $out"
printf '%s\n' "$KEY2" >"$tmp/key2" && chmod 600 "$tmp/key2"
bad=$(echo "00zz" | hwxdp sa add 3 spi 0x3003 src 192.0.2.1 dst 198.51.100.1 key-file - 2>&1)
if ! echo "$bad" | grep -q 'zz'; then
	pass "a bad key is refused without echoing it: $bad"
else
	fail "a bad key's message shows it: $bad"
fi

# 2. The flow through SA 1: 50 frames, each decrypted at B.
hwxdp map update fwd/config key 0 0 0 0 value 1 0 0 0 1 0 0 0 1 0 0 0 0 0 0 0 >/dev/null
tunnel 1 "$(revision 1)"
tx0=$(hwxdp -j port show p1 | jfield "d['counters']['tx']")
capture 6 "$tmp/sa1.pcap"
send 50
wait "$cap"
res=$(check "$tmp/sa1.pcap")
ok=$(echo "$res" | expect_esp 0x1001 50 0)
if [ "$ok" = True ] && [ "$(sa_field 1 packets)" = 50 ] && [ "$(sa_field 1 bytes)" = $((50 * 46)) ]; then
	pass "SA 1: 50 ESP frames at B, each decrypted by scapy to A's packet (TTL 63, payload 0..49 in order), ESP sequence 1..50, 0 in clear; sa list counts 50 packets, 2300 bytes"
else
	fail "SA 1: p1 tx +$(($(hwxdp -j port show p1 | jfield "d['counters']['tx']") - tx0)), sa list $(sa_field 1 packets) packets $(sa_field 1 bytes) bytes; at B: $(echo "$res" | head -c 600)"
fi

# 3. SA 2 with a lifetime of 20 packets takes the flow over (a rekey).
out=$(hwxdp sa add 2 spi 0x2002 src 192.0.2.1 dst 198.51.100.1 key-file "$tmp/key2" lifetime-packets 20 2>&1) ||
	fail "sa add 2: $out"
tunnel 2 "$(revision 2)"
held0=$(hwxdp -j port show p0 | jfield "d['counters']['tunnel_held']")
ef0=$(punt_count $ESP_FAILED)
capture 6 "$tmp/sa2.pcap"
send 30
wait "$cap"
res=$(check "$tmp/sa2.pcap")
held1=$(hwxdp -j port show p0 | jfield "d['counters']['tunnel_held']")
ef1=$(punt_count $ESP_FAILED)
ok=$(echo "$res" | expect_esp 0x2002 20 0x1001)
if [ "$ok" = True ] && [ "$(sa_field 2 packets)" = 20 ] && [ "$(sa_field 2 expired)" = True ] &&
	[ $((held1 - held0)) = 10 ] && [ $((ef1 - ef0)) = 10 ]; then
	pass "SA 2, lifetime 20 packets: exactly 20 encrypted (ESP sequence 1..20, decrypted by scapy), the other 10 held on the board (esp-failed +10, tunnel_held +10), 0 in clear"
else
	fail "lifetime: sa list packets $(sa_field 2 packets) expired $(sa_field 2 expired), held +$((held1 - held0)), esp-failed +$((ef1 - ef0)); at B: $(echo "$res" | head -c 600)"
fi

# 4. sa del: SA 1 has no flow now; SA 2's flow goes with it, first.
out1=$(hwxdp sa del 1 2>&1) && out2=$(hwxdp sa del 2 2>&1)
left=$(hwxdp -j sa list | jfield "len(d['sas'])")
valid=$(bpftool -j map lookup pinned "$pins/fwd/sas" key 2 0 0 0 | jfield "(d['formatted']['value'] if 'formatted' in d else d['value'])['flags']")
gone=$(hwxdp -j map lookup fwd/flows key $flow_key 2>&1 | grep -c 'no entry')
if echo "$out1" | grep -q '0 tunnel flows' && echo "$out2" | grep -q '1 tunnel flows taken off' &&
	[ "$left" = 0 ] && [ "$valid" = 0 ] && [ "$gone" -ge 1 ]; then
	pass "sa del: '$out2'; sas[2] invalid for bpftool, the flow gone from the map"
else
	fail "sa del: '$out1' / '$out2', $left SAs left, sas[2].flags ${valid:-?}, flow lookup: $(hwxdp -j map lookup fwd/flows key $flow_key 2>&1 | head -c 200)"
fi
finish
