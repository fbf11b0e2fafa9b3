#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Per-CPU maps on the live appliance: a program that counts frames in a
# per-CPU array and a per-CPU hash and passes them, on port p0 of a daemon
# with its default 4 engines. The board counts each frame and punts it to
# the TAP, where the host copy counts it again: after a mirror round the
# copies of each map add up to twice the frames, read by bpftool on the pin
# (per host CPU) and by `hwxdp map dump target device` (per engine). A
# reset to 0 by bpftool reaches every engine; `hwxdp map update` writes
# every copy on both sides.
#
# Prints "N passed, M failed"; exits 77 (skipped) without root, bpffs, TUN,
# clang, ethtool or scapy, with the reason.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
tag=$$
tmp=/tmp/hxptest.$tag
. tests/integration/appliance_test.sh
appliance_requires gcc
pins=/sys/fs/bpf/hxptest$tag

echo "== hwxdpd: per-CPU maps, the board's engines as CPUs"
mkdir -p "$tmp"
clang -g -O2 -target bpf -I/usr/include/"$(gcc -dumpmachine)" -c tests/integration/percpu_count.bpf.c \
	-o "$tmp/percpu.o" || setup_failed "cannot build percpu_count.bpf.c"
gcc -O2 -Wall -o "$tmp/udpgen" bench/live/udpgen.c || setup_failed "cannot build udpgen"
ip netns add "$nsa" || setup_failed "ip netns add"
ip link add "$wa" type veth peer name eth0 netns "$nsa" || setup_failed "veth $wa"
sysctl -qw "net.ipv6.conf.$wa.disable_ipv6=1"
A sysctl -qw net.ipv6.conf.all.disable_ipv6=1
ip link set "$wa" up && A ip link set eth0 up && A ip addr add 10.79.1.2/24 dev eth0 ||
	setup_failed "links"
A ethtool -K eth0 tx off >/dev/null
wamac=$(cat /sys/class/net/"$wa"/address)
"$build/hwxdpd" --socket "$sock" --pin-root "$pins" >"$tmp/hwxdpd.log" 2>&1 &
daemon_pid=$!
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || setup_failed "hwxdpd did not make $sock"
out=$(hwxdp port add p0 dev "$wa" 2>&1) || setup_failed "port add: $out"
sysctl -qw net.ipv6.conf.hx0.disable_ipv6=1
out=$(hwxdp prog load "$tmp/percpu.o" name pcount port p0 2>&1) || setup_failed "prog load: $out"
cpus=$(py "import re; n=0
for part in open('/sys/devices/system/cpu/possible').read().strip().split(','):
    a, _, b = part.partition('-'); n += int(b or a) - int(a) + 1
print(n)")

send() { A "$tmp/udpgen" eth0 30 64 "$wamac" 10.79.1.2 10.79.1.9 "$1" 2000 >/dev/null; }
# sums JSON_OF_A_DUMP KEY FIELD_OFFSET: "copies sum" over one entry's
# per-CPU values (the first u64 at the offset), from the byte lists.
sums() {
	py "
import json, sys
d = json.load(sys.stdin)
entries = d['entries'] if isinstance(d, dict) else d
def num(bs): return int.from_bytes(bytes(int(b, 16) for b in bs), 'little')
for e in entries:
    if num(e['key']) == $1:
        vals = [num(v['value'][$2:$2 + 8]) for v in e['values']]
        print(len(vals), sum(vals), ' '.join(map(str, vals)))
        break
else:
    print(0, 0, '')
"
}
kernel() { bpftool -j map dump pinned "$pins/pcount/$1" | sums "$2" "${3:-0}"; }
board() { hwxdp -j map dump "pcount/$1" target device | sums "$2" "${3:-0}"; }

send 300
sleep 1.5
rx=$(hwxdp -j port show p0 | jfield "d['counters']['rx']")
read -r kc kt _ <<<"$(kernel pcpu_totals 0)"
read -r bc bt _ <<<"$(board pcpu_totals 0)"
read -r _ kp _ <<<"$(kernel pcpu_proto 17)"
read -r _ bp bvals <<<"$(board pcpu_proto 17)"
if [ "$kc" = "$cpus" ] && [ "$bc" = 4 ] && [ "$kt" = $((2 * rx)) ] && [ "$bt" = "$kt" ] &&
	[ "$kp" = 600 ] && [ "$bp" = 600 ]; then
	pass "per-CPU array: $rx frames at p0, counted twice (board, host copy): bpftool's $kc CPUs sum to $kt, the board's 4 engines to $bt; per-CPU hash UDP: 600 both ($bvals)"
else
	fail "per-CPU sums: p0 rx $rx; totals kernel $kc copies sum ${kt:-?}, board $bc copies sum ${bt:-?}; UDP kernel ${kp:-?}, board ${bp:-?} ($bvals)"
fi
b0=$(kernel pcpu_totals 0 8 | cut -d' ' -f2) b1=$(board pcpu_totals 0 8 | cut -d' ' -f2)
[ -n "$b0" ] && [ "$b0" = "$b1" ] && [ "$b0" -ge $((2 * 64 * 300)) ] &&
	pass "bytes, the value's second field: $b0 on both sides" ||
	fail "bytes: kernel ${b0:-?}, board ${b1:-?}"

bpftool map update pinned "$pins/pcount/pcpu_proto" key 17 0 0 0 value 0 0 0 0 0 0 0 0 ||
	fail "bpftool map update"
sleep 1.2
read -r _ bz bzvals <<<"$(board pcpu_proto 17)"
send 100
sleep 1.5
read -r _ kp2 _ <<<"$(kernel pcpu_proto 17)"
read -r _ bp2 _ <<<"$(board pcpu_proto 17)"
if [ "$bz" = 0 ] && [ "$bzvals" = "0 0 0 0" ] && [ "$kp2" = 200 ] && [ "$bp2" = 200 ]; then
	pass "bpftool's reset to 0 reached every engine; 100 more frames: 200 on both sides"
else
	fail "after the reset: board ${bz:-?} ($bzvals); after 100 more: kernel ${kp2:-?}, board ${bp2:-?}"
fi

out=$(hwxdp map update pcount/pcpu_proto key 6 0 0 0 value 7 0 0 0 0 0 0 0 2>&1)
kv=$(kernel pcpu_proto 6 | cut -d' ' -f3-) bv=$(board pcpu_proto 6 | cut -d' ' -f3-)
if [ "$kv" = "$(printf '7 %.0s' $(seq "$cpus") | sed 's/ $//')" ] && [ "$bv" = "7 7 7 7" ]; then
	pass "hwxdp map update of a per-CPU hash: 7 on each of the $cpus CPUs and each of the 4 engines"
else
	fail "hwxdp map update: '$out'; kernel '$kv', board '$bv'"
fi
err=$(hwxdp map delete pcount/pcpu_totals key 0 0 0 0 2>&1)
rc=$?
[ "$rc" -ne 0 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] &&
	pass "delete in a per-CPU array refused in one line ($err)" ||
	fail "delete in a per-CPU array: rc $rc, '$err'"
finish
