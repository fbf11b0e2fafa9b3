# SPDX-License-Identifier: GPL-2.0
#
# The appliance's lab topology, sourced by `make run` (scripts/appliance/live-lab.sh)
# and tests/integration/daemon_flows.sh:
#
#   partner A (netns $nsa)           hwxdpd                partner B (netns $nsb)
#   eth0 10.78.1.2 fd78:1::2  <veth> $wa = port p0          $wb = port p1 <veth> eth0
#   VLAN 50 by tc programs           LIF p0.50: TAP hx0.50  LIF p1: TAP hx1  10.78.2.2
#   (no 802.1Q module needed)        10.78.1.1 fd78:1::1    10.78.2.1        fd78:2::2
#
# fwd is loaded on p0 and p1; the host routes between hx0.50 and hx1. The
# caller sets build, tag (unique), tmp (a scratch directory it owns) and
# defines topo_failed MESSAGE; topo_up makes everything, topo_down removes it
# all again and is safe to call at any point, more than once.

nsa=hxfa$tag nsb=hxfb$tag
wa=hxfwa$tag wb=hxfwb$tag
sock=$tmp/ctl.sock
pins=/sys/fs/bpf/hxftest$tag
daemon_pid=
forward_before= forward6_before=

A() { ip netns exec "$nsa" "$@"; }
B() { ip netns exec "$nsb" "$@"; }
hwxdp() { HWXDP_SOCKET=$sock "$build/hwxdp" "$@"; }

py() { /usr/bin/python3 -c "$@"; }
jfield() { py "import json,sys; d=json.load(sys.stdin); print($1)"; }

# sniff NS|- IFACE SECONDS OUT [args]: a scapy capture in the background,
# ready when it returns; sniffers waits for them all.
sniffer_pids=()
sniffers() {
	for p in "${sniffer_pids[@]}"; do wait "$p"; done
	sniffer_pids=()
}
sniff() {
	local ns=$1 ifc=$2 secs=$3 out=$4 ready=$tmp/ready.$RANDOM
	shift 4
	if [ "$ns" = - ]; then
		/usr/bin/python3 scripts/appliance/sniff.py "$ifc" "$secs" "$ready" "$@" >"$out" 2>&1 &
	else
		ip netns exec "$ns" /usr/bin/python3 scripts/appliance/sniff.py "$ifc" "$secs" "$ready" "$@" \
			>"$out" 2>&1 &
	fi
	sniffer_pids+=($!)
	for _ in $(seq 300); do [ -f "$ready" ] && break; sleep 0.1; done
	[ -f "$ready" ] || echo "  (the capture on $ifc was not ready after 30 s)"
}

# The LIF's counters as bpftool reads them on the pin: lif_counter LIF FIELD.
lif_counter() {
	bpftool -j map lookup pinned "$pins/fwd/lifs" key $(($1 & 255)) $((($1 >> 8) & 255)) \
		$((($1 >> 16) & 255)) 0 2>/dev/null | jfield "d['formatted']['value']['$2'] if 'formatted' in d else d['value']['$2']"
}
# Frames punted for a reason (docs/programs.md, section 5), by bpftool.
punt_count() {
	bpftool -j map lookup pinned "$pins/fwd/punt_stats" key "$1" 0 0 0 2>/dev/null |
		jfield "d['formatted']['value']['packets'] if 'formatted' in d else d['value']['packets']"
}
FLOW_MISS=13

topo_down() {
	if [ -n "$daemon_pid" ]; then
		kill -TERM "$daemon_pid" 2>/dev/null
		wait "$daemon_pid" 2>/dev/null
		daemon_pid=
	fi
	# TAPs are persistent: a daemon killed by a failing test leaves them.
	for t in hx0.50 hx0 hx1; do ip link del "$t" 2>/dev/null; done
	ip netns pids "$nsa" 2>/dev/null | xargs -r kill 2>/dev/null
	ip netns pids "$nsb" 2>/dev/null | xargs -r kill 2>/dev/null
	ip netns del "$nsa" 2>/dev/null
	ip netns del "$nsb" 2>/dev/null
	ip link del "$wa" 2>/dev/null
	ip link del "$wb" 2>/dev/null
	[ -n "$forward_before" ] && sysctl -qw net.ipv4.ip_forward="$forward_before"
	[ -n "$forward6_before" ] && sysctl -qw net.ipv6.conf.all.forwarding="$forward6_before"
	forward_before= forward6_before=
	rm -rf "$pins"
}

topo_up() {
	local here=scripts/appliance out
	mkdir -p "$tmp"
	clang -g -O2 -target bpf -I/usr/include/"$(gcc -dumpmachine)" -c "$here/vlan_partner.bpf.c" \
		-o "$tmp/vlan_partner.o" || topo_failed "cannot build $here/vlan_partner.bpf.c"
	ip netns add "$nsa" && ip netns add "$nsb" || topo_failed "ip netns add"
	# Two queues each way: the board reads every receive queue of a wire.
	ip link add "$wa" numtxqueues 2 numrxqueues 2 type veth peer name eth0 netns "$nsa" \
		numtxqueues 2 numrxqueues 2 || topo_failed "veth $wa"
	ip link add "$wb" numtxqueues 2 numrxqueues 2 type veth peer name eth0 netns "$nsb" \
		numtxqueues 2 numrxqueues 2 || topo_failed "veth $wb"
	for w in "$wa" "$wb"; do
		ip link set "$w" up || topo_failed "$w up"
		sysctl -qw "net.ipv6.conf.$w.disable_ipv6=1"
	done
	# Checksums in software: a partial checksum does not survive the wire's XDP.
	A ethtool -K eth0 txvlan off rxvlan off tx off >/dev/null || topo_failed "ethtool in $nsa"
	B ethtool -K eth0 tx off >/dev/null || topo_failed "ethtool in $nsb"
	for ns in "$nsa" "$nsb"; do
		ip -n "$ns" link set lo up && ip -n "$ns" link set eth0 up || topo_failed "links in $ns"
	done
	ip -n "$nsa" addr add 10.78.1.2/24 dev eth0 && ip -n "$nsa" addr add fd78:1::2/64 dev eth0 nodad &&
		ip -n "$nsa" route add default via 10.78.1.1 &&
		ip -n "$nsa" -6 route add default via fd78:1::1 || topo_failed "addresses in $nsa"
	ip -n "$nsb" addr add 10.78.2.2/24 dev eth0 && ip -n "$nsb" addr add fd78:2::2/64 dev eth0 nodad &&
		ip -n "$nsb" route add default via 10.78.2.1 &&
		ip -n "$nsb" -6 route add default via fd78:2::1 || topo_failed "addresses in $nsb"
	A tc qdisc add dev eth0 clsact &&
		A tc filter add dev eth0 egress bpf direct-action obj "$tmp/vlan_partner.o" sec tc program tag &&
		A tc filter add dev eth0 ingress bpf direct-action obj "$tmp/vlan_partner.o" sec tc program untag ||
		topo_failed "VLAN 50 on $nsa's eth0 (tc)"
	amac=$(A cat /sys/class/net/eth0/address) bmac=$(B cat /sys/class/net/eth0/address)
	wamac=$(cat /sys/class/net/"$wa"/address) wbmac=$(cat /sys/class/net/"$wb"/address)

	"$build/hwxdpd" --socket "$sock" --engines 1 --pin-root "$pins" >"$tmp/hwxdpd.log" 2>&1 &
	daemon_pid=$!
	for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
	[ -S "$sock" ] || topo_failed "hwxdpd did not make $sock"
	out=$(hwxdp port add p0 dev "$wa" 2>&1) || topo_failed "port add p0: $out"
	out=$(hwxdp port add p1 dev "$wb" 2>&1) || topo_failed "port add p1: $out"
	out=$(hwxdp lif add p0 vlan 50 2>&1) || topo_failed "lif add p0 vlan 50: $out"
	out=$(hwxdp prog load "$build/progs/fwd.bpf.o" port p0 p1 2>&1) || topo_failed "prog load: $out"
	forward_before=$(sysctl -n net.ipv4.ip_forward)
	forward6_before=$(sysctl -n net.ipv6.conf.all.forwarding)
	sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1
	# The addresses stay when admin-disabled takes a TAP down.
	sysctl -qw net.ipv6.conf.hx0/50.keep_addr_on_down=1 net.ipv6.conf.hx1.keep_addr_on_down=1
	ip addr add 10.78.1.1/24 dev hx0.50 && ip addr add fd78:1::1/64 dev hx0.50 nodad &&
		ip addr add 10.78.2.1/24 dev hx1 && ip addr add fd78:2::1/64 dev hx1 nodad ||
		topo_failed "addresses on hx0.50 and hx1"
}
