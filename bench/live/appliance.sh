#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The appliance against the kernel, on the same veths, same frames:
#   1. frames per second, 64-byte and 1,514-byte UDP frames from partner A
#      to partner B: the kernel running fwd natively on the veths
#      (XDP_REDIRECT), then hwxdpd with fwd on the same veths, its flow made
#      by the flow maker. B's sink (sink.bpf.c) counts what arrives.
#   2. the 64-byte frames per second through hwxdpd while 100 `prog replace`
#      run (fwd and its alu32 build in turn), against the same time without;
#   3. the machine's CPU time while a TCP stream (iperf3, 400 Mbit/s, 5 s)
#      is on the device, and while the host carries it (the LIF
#      offload-disabled: fwd punts every frame, as with vlan_flows 0 for a
#      VLAN); the difference is the host fallback's cost.
# Three runs each, medians; prints a JSON document at the end. Root only.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
here=bench/live
secs=${BENCH_SECONDS:-4}
runs=${BENCH_RUNS:-3}
tag=$$
nsa=hxba$tag nsb=hxbb$tag wa=hxbwa$tag wb=hxbwb$tag
tmp=/tmp/hxbench.$tag
pins=/sys/fs/bpf/hxbench$tag
sock=$tmp/ctl.sock
daemon_pid=

die() { echo "appliance bench: $*" >&2; exit 1; }
cleanup() {
	[ -n "$daemon_pid" ] && kill -TERM "$daemon_pid" 2>/dev/null && wait "$daemon_pid" 2>/dev/null
	ip link set "$wa" xdp off 2>/dev/null
	ip netns pids "$nsa" 2>/dev/null | xargs -r kill 2>/dev/null
	ip netns pids "$nsb" 2>/dev/null | xargs -r kill 2>/dev/null
	ip netns del "$nsa" 2>/dev/null
	ip netns del "$nsb" 2>/dev/null
	ip link del "$wa" 2>/dev/null
	ip link del "$wb" 2>/dev/null
	rm -rf "$pins" "$tmp"
}
trap cleanup EXIT
[ "$(id -u)" -eq 0 ] || { echo "appliance bench: skipped: needs root"; exit 0; }
for t in iperf3 bpftool clang gcc; do command -v $t >/dev/null || die "no $t"; done
mkdir -p "$tmp" "$pins"
gcc -O2 -Wall -o "$tmp/udpgen" "$here/udpgen.c" || die "cannot build udpgen"
clang -g -O2 -target bpf -I/usr/include/"$(gcc -dumpmachine)" -c "$here/sink.bpf.c" \
	-o "$tmp/sink.o" || die "cannot build the sink"
A() { ip netns exec "$nsa" "$@"; }
B() { ip netns exec "$nsb" "$@"; }
hwxdp() { HWXDP_SOCKET=$sock "$build/hwxdp" "$@"; }
py() { /usr/bin/python3 -c "$@"; }

ip netns add "$nsa" && ip netns add "$nsb" || die "netns"
ip link add "$wa" type veth peer name eth0 netns "$nsa" || die "veth"
ip link add "$wb" type veth peer name eth0 netns "$nsb" || die "veth"
for w in "$wa" "$wb"; do ip link set "$w" up; sysctl -qw "net.ipv6.conf.$w.disable_ipv6=1"; done
A ethtool -K eth0 tx off >/dev/null 2>&1
B ethtool -K eth0 tx off >/dev/null 2>&1
for ns in "$nsa" "$nsb"; do ip -n "$ns" link set lo up; ip -n "$ns" link set eth0 up; done
ip -n "$nsa" addr add 10.79.1.2/24 dev eth0 && ip -n "$nsa" route add default via 10.79.1.1
ip -n "$nsb" addr add 10.79.2.2/24 dev eth0 && ip -n "$nsb" route add default via 10.79.2.1
B ip link set eth0 xdp obj "$tmp/sink.o" sec xdp || die "sink attach"
sink_prog=$(B ip -j link show eth0 | py "import json,sys; print(json.load(sys.stdin)[0]['xdp']['prog']['id'])")
sink_map=$(bpftool -j prog show id "$sink_prog" | py "import json,sys; print(json.load(sys.stdin)['map_ids'][0])")
wamac=$(cat /sys/class/net/"$wa"/address) wbmac=$(cat /sys/class/net/"$wb"/address)
bmac=$(B cat /sys/class/net/eth0/address)
wai=$(cat /sys/class/net/"$wa"/ifindex) wbi=$(cat /sys/class/net/"$wb"/ifindex)

received() {
	bpftool -j map lookup id "$sink_map" key 0 0 0 0 |
		py "import json,sys; d=json.load(sys.stdin); print(d['value'] if isinstance(d['value'], int) else int.from_bytes(bytes(int(x,16) for x in d['value']), 'little'))"
}
# fps SIZE: the median frames per second at B over $runs runs of $secs s.
fps() {
	local out=()
	for _ in $(seq "$runs"); do
		local r0 r1
		r0=$(received)
		A "$tmp/udpgen" eth0 "$secs" "$1" "$wamac" 10.79.1.2 10.79.2.2 >/dev/null
		sleep 0.3
		r1=$(received)
		out+=($(((r1 - r0) / secs)))
	done
	printf '%s\n' "${out[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p"
}
le32() { py "import struct,sys; print(' '.join('%d' % b for b in struct.pack('<I', $1)))"; }
macb() { echo "$1" | tr ':' ' ' | sed 's/\([0-9a-f][0-9a-f]\)/0x\1/g'; }

echo "== kernel: fwd native on $wa, XDP_REDIRECT to $wb"
bpftool prog load "$build/progs/fwd.bpf.o" "$pins/fwd" type xdp pinmaps "$pins/fwdmaps" ||
	die "fwd load"
m=$pins/fwdmaps
bpftool map update pinned "$m/ports" key $(le32 "$wai") value 0 0 0 0 0 0 0 0 &&
	bpftool map update pinned "$m/ports" key $(le32 "$wbi") value 1 0 0 0 0 0 0 0 &&
	bpftool map update pinned "$m/tx_ports" key 1 0 0 0 value $(le32 "$wbi") 0 0 0 0 &&
	bpftool map update pinned "$m/lifs" key 0 0 0 0 value $(printf '0 %.0s' $(seq 48)) &&
	bpftool map update pinned "$m/lifs" key 0 16 0 0 value $(printf '0 %.0s' $(seq 48)) &&
	bpftool map update pinned "$m/config" key 0 0 0 0 value 1 0 0 0 0 0 0 0 1 0 0 0 0 0 0 0 &&
	bpftool map update pinned "$m/nexthops" key 1 0 0 0 value 1 0 0 0 1 0 0 0 0 0 0xdc 0x05 \
		$(macb "$bmac") $(macb "$wbmac") &&
	bpftool map update pinned "$m/flows" key 0 0 0 0 4 17 0 0 0x9c 0x40 0 9 \
		10 79 1 2 $(printf '0 %.0s' $(seq 12)) 10 79 2 2 $(printf '0 %.0s' $(seq 12)) \
		value 1 0 0 0 $(printf '0 %.0s' $(seq 28)) || die "fwd's maps"
ip link set "$wa" xdp pinned "$pins/fwd" || die "attach fwd to $wa"
k64=$(fps 60) k1500=$(fps 1514)
echo "  64 B: $k64 frames/s, 1514 B: $k1500 frames/s"
ip link set "$wa" xdp off
rm -rf "$pins/fwd" "$pins/fwdmaps"

echo "== hwxdpd: fwd on ports $wa and $wb, the flow made by the flow maker"
"$build/hwxdpd" --socket "$sock" --engines 1 --pin-root "$pins/hwxdp" >"$tmp/hwxdpd.log" 2>&1 &
daemon_pid=$!
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
hwxdp port add p0 dev "$wa" >/dev/null && hwxdp port add p1 dev "$wb" >/dev/null &&
	hwxdp prog load "$build/progs/fwd.bpf.o" port p0 p1 >/dev/null || die "daemon setup"
sysctl -qw net.ipv4.ip_forward=1
ip addr add 10.79.1.1/24 dev hx0 && ip addr add 10.79.2.1/24 dev hx1
A ping -c 2 -W 2 10.79.2.2 >/dev/null 2>&1 || A ping -c 2 -W 2 10.79.2.2 >/dev/null 2>&1 ||
	die "no ping through the appliance"
A "$tmp/udpgen" eth0 0.2 60 "$wamac" 10.79.1.2 10.79.2.2 >/dev/null
sleep 0.5
made=$(hwxdp -j flow list | py "import json,sys; print(len([f for f in json.load(sys.stdin)['flows'] if f['proto']=='udp']))")
[ "$made" -ge 1 ] || die "the flow maker made no UDP flow"
mode=$(hwxdp -j port show p0 | py "import json,sys; print(json.load(sys.stdin)['mode'])")
d64=$(fps 60) d1500=$(fps 1514)
echo "  ($mode) 64 B: $d64 frames/s, 1514 B: $d1500 frames/s"

echo "== hwxdpd: 64-byte frames per second during 100 prog replaces, against the same time without"
# window WITH: frames per second at B while 100 replaces run (WITH=1), or for
# the same time without them; the window's length is the replaces'.
window_s=5
window() {
	local gen r0 r1 t0 t1 n=0
	# Not through A: $! must be udpgen itself, for the kill.
	ip netns exec "$nsa" "$tmp/udpgen" eth0 60 60 "$wamac" 10.79.1.2 10.79.2.2 >/dev/null &
	gen=$!
	sleep 0.5
	r0=$(received) t0=$(date +%s%N)
	if [ "$1" = 1 ]; then
		for i in $(seq 100); do
			if [ $((i % 2)) -eq 1 ]; then o=fwd_alu32; else o=fwd; fi
			hwxdp prog replace fwd "$build/progs/$o.bpf.o" >/dev/null && n=$((n + 1))
		done
	else
		sleep "$window_s"
	fi
	r1=$(received) t1=$(date +%s%N)
	kill "$gen" 2>/dev/null
	wait "$gen" 2>/dev/null
	[ "$1" = 1 ] && window_s=$(py "print(round(($t1 - $t0) / 1e9, 2))")
	[ "$1" = 1 ] && [ "$n" -ne 100 ] && die "$n of 100 replaces"
	echo $(((r1 - r0) * 1000000000 / (t1 - t0)))
}
rep_with=() rep_without=()
for _ in $(seq "$runs"); do
	rep_with+=("$(window 1)")
	rep_without+=("$(window 0)")
done
med() { printf '%s\n' "$@" | sort -g | sed -n "$((($# + 1) / 2))p"; }
rw_med=$(med "${rep_with[@]}") rwo_med=$(med "${rep_without[@]}")
echo "  during 100 replaces ($window_s s): $rw_med frames/s; without: $rwo_med frames/s (runs: ${rep_with[*]} / ${rep_without[*]})"

echo "== host CPU: a TCP stream on the device, then carried by the host"
B iperf3 -s -D -p 5201 || die "iperf3 -s"
sleep 0.3
busy() { awk '/^cpu /{print $2+$3+$4+$7+$8}' /proc/stat; }
# Datagrams the host's IPv4 stack forwarded (the root namespace's).
forwarded() { awk '/^Ip: [0-9]/{print $7}' /proc/net/snmp; }
ptime() { awk '{print $14+$15}' /proc/"$1"/stat 2>/dev/null || echo 0; }
# host_cpu: over a 5 s stream at 400 Mbit/s, the whole machine's CPU and
# hwxdpd's (all its threads), in percent of one CPU, and the datagrams the
# host's stack forwarded. On veths the partners' kernels run on the same
# cores, and softirq work is charged to whichever task it interrupts, so no
# one process's share is the host's: the same stream in the two modes, the
# whole machine each time, and the difference is what carrying it costs.
host_cpu() {
	local b0 b1 d0 d1 f0 f1 hz
	hz=$(getconf CLK_TCK)
	b0=$(busy) d0=$(ptime "$daemon_pid") f0=$(forwarded)
	A iperf3 -c 10.79.2.2 -p 5201 -t 5 -b 400M >"$tmp/iperf.log" 2>&1
	b1=$(busy) d1=$(ptime "$daemon_pid") f1=$(forwarded)
	py "print(round(100.0 * ($b1 - $b0) / $hz / 5.0, 1), round(100.0 * ($d1 - $d0) / $hz / 5.0, 1), $f1 - $f0)"
}
cpu_dev=() cpu_host=() dmn_dev=() dmn_host=() fwd_dev=() fwd_host=()
for _ in $(seq "$runs"); do
	hwxdp lif set p0 vlan 0 state enabled >/dev/null
	read -r c m f < <(host_cpu)
	cpu_dev+=("$c") dmn_dev+=("$m") fwd_dev+=("$f")
	hwxdp lif set p0 vlan 0 state offload-disabled >/dev/null
	read -r c m f < <(host_cpu)
	cpu_host+=("$c") dmn_host+=("$m") fwd_host+=("$f")
done
cd_med=$(med "${cpu_dev[@]}") ch_med=$(med "${cpu_host[@]}")
md_med=$(med "${dmn_dev[@]}") mh_med=$(med "${dmn_host[@]}")
fd_med=$(med "${fwd_dev[@]}") fh_med=$(med "${fwd_host[@]}")
extra=$(py "print(round($ch_med - $cd_med, 1))")
echo "  datagrams the host routed in 5 s: $fd_med with the stream on the device, $fh_med carried by the host"
echo "  the machine's CPU: $cd_med % on the device, $ch_med % by the host, +$extra % to carry it (runs: ${cpu_dev[*]} / ${cpu_host[*]})"
echo "  hwxdpd's share: $md_med % / $mh_med % (runs: ${dmn_dev[*]} / ${dmn_host[*]})"
py "
import json
print(json.dumps({'frames_per_second': {
    'udp64':   {'kernel': $k64, 'appliance': $d64, 'ratio': round($d64 / max($k64, 1), 3)},
    'udp1514': {'kernel': $k1500, 'appliance': $d1500, 'ratio': round($d1500 / max($k1500, 1), 3)}},
  'udp64_during_100_replaces': {'replacing': $rw_med, 'not_replacing': $rwo_med,
                                'ratio': round($rw_med / max($rwo_med, 1), 3)},
  'wire_mode': '$mode', 'runs': $runs, 'seconds': $secs,
  'host_routed_datagrams_5s': {'offloaded': $fd_med, 'host_carried': $fh_med},
  'cpu_percent_machine': {'offloaded': $cd_med, 'host_carried': $ch_med, 'host_carrying_costs': $extra},
  'cpu_percent_hwxdpd': {'offloaded': $md_med, 'host_carried': $mh_med}}))"
