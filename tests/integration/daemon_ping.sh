#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# hwxdpd end to end: two link partners in network namespaces, each behind a
# veth whose root-namespace end is a wire port of the daemon; fwd on both
# ports. With no flows the board punts every frame to the port's TAP, Linux
# routes between hx0 and hx1, and the frame leaves by the other wire. A
# capture at the far partner, read by scapy, must show the TTL lowered by
# one, the MACs of the appliance's port and the checksum right.
#
# Prints "N passed, M failed"; exits 77 (skipped) without root, bpffs, TUN
# or scapy, with the reason.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
passed=0 failed=0
tag=$$
nsa=hxda$tag nsb=hxdb$tag
wa=hxdwa$tag wb=hxdwb$tag wc=hxdwc$tag
sock=/tmp/hxdtest.$tag/ctl.sock
pins=/sys/fs/bpf/hxdtest$tag
dlog=/tmp/hxdtest.$tag.log
daemon_pid=
forward_before=

skip() { echo "skipped: $*"; exit 77; }
pass() { echo "  ok: $*"; passed=$((passed + 1)); }
fail() { echo "  FAIL: $*"; failed=$((failed + 1)); }
setup_failed() {
	echo "setup failed: $*"
	[ -f "$dlog" ] && sed 's/^/  hwxdpd: /' "$dlog"
	failed=$((failed + 1))
	finish
}

cleanup() {
	if [ -n "$daemon_pid" ]; then
		kill -TERM "$daemon_pid" 2>/dev/null
		wait "$daemon_pid" 2>/dev/null
	fi
	ip netns del "$nsa" 2>/dev/null
	ip netns del "$nsb" 2>/dev/null
	ip link del "$wa" 2>/dev/null
	ip link del "$wb" 2>/dev/null
	ip link del "$wc" 2>/dev/null
	[ -n "$forward_before" ] && sysctl -qw net.ipv4.ip_forward="$forward_before"
	rm -rf "$pins" "$(dirname "$sock")" "$dlog" /tmp/hxdtest.$tag.*
}
trap cleanup EXIT

finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}

[ "$(id -u)" -eq 0 ] || skip "needs root (network namespaces, TAPs, kernel BPF)"
[ -c /dev/net/tun ] || skip "no /dev/net/tun"
[ -x "$build/hwxdpd" ] && [ -x "$build/hwxdp" ] || skip "build first: make"
[ -f "$build/progs/fwd.bpf.o" ] || skip "no $build/progs/fwd.bpf.o: make"
/usr/bin/python3 -c 'import scapy.all' 2>/dev/null || skip "Debian's python3-scapy is not installed"
if ! mount | grep -q ' /sys/fs/bpf type bpf'; then
	mount -t bpf bpf /sys/fs/bpf 2>/dev/null || skip "cannot mount bpffs at /sys/fs/bpf"
fi

hwxdp() { HWXDP_SOCKET=$sock "$build/hwxdp" "$@"; }
py_field() { /usr/bin/python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }

echo "== hwxdpd: two partners pinging through the appliance"
ip netns add "$nsa" || setup_failed "ip netns add $nsa"
ip netns add "$nsb" || setup_failed "ip netns add $nsb"
ip link add "$wa" type veth peer name eth0 netns "$nsa" || setup_failed "veth $wa"
ip link add "$wb" type veth peer name eth0 netns "$nsb" || setup_failed "veth $wb"
for w in "$wa" "$wb"; do
	ip link set "$w" up || setup_failed "$w up"
	# The wire is the daemon's: the root namespace's stack keeps off it.
	sysctl -qw "net.ipv6.conf.$w.disable_ipv6=1"
done
ip -n "$nsa" addr add 10.77.1.2/24 dev eth0 && ip -n "$nsa" link set eth0 up &&
	ip -n "$nsa" link set lo up && ip -n "$nsa" route add default via 10.77.1.1 ||
	setup_failed "addresses in $nsa"
ip -n "$nsb" addr add 10.77.2.2/24 dev eth0 && ip -n "$nsb" link set eth0 up &&
	ip -n "$nsb" link set lo up && ip -n "$nsb" route add default via 10.77.2.1 ||
	setup_failed "addresses in $nsb"

"$build/hwxdpd" --socket "$sock" --engines 1 --pin-root "$pins" >"$dlog" 2>&1 &
daemon_pid=$!
for _ in $(seq 50); do
	[ -S "$sock" ] && break
	sleep 0.1
done
[ -S "$sock" ] || setup_failed "hwxdpd did not make $sock"

out=$(hwxdp port add p0 dev "$wa" 2>&1) || setup_failed "port add p0: $out"
out=$(hwxdp port add p1 dev "$wb" 2>&1) || setup_failed "port add p1: $out"
mode=$(hwxdp -j port show p0 | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["mode"])')
echo "  wire mode: $mode"
tap0=$(hwxdp -j port show p0 | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["tap"])')
tap1=$(hwxdp -j port show p1 | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["tap"])')
[ -n "$tap0" ] && [ -n "$tap1" ] || setup_failed "no TAP names in port show"

# The TAP follows its wire: MAC and MTU.
if [ "$(cat /sys/class/net/"$tap0"/address)" = "$(cat /sys/class/net/"$wa"/address)" ] &&
	[ "$(cat /sys/class/net/"$tap0"/mtu)" = "$(cat /sys/class/net/"$wa"/mtu)" ] &&
	grep -q 'state UP\|,UP' <<<"$(ip link show "$tap0")"; then
	pass "$tap0 is up with $wa's MAC and MTU"
else
	fail "$tap0 does not follow $wa (MAC, MTU, up)"
fi

# Errors change nothing: a missing netdev, a netdev taken already.
if ! hwxdp port add p9 dev hxd-nonesuch 2>/dev/null && ! hwxdp port add p9 dev "$wa" 2>/dev/null &&
	[ "$(hwxdp -j port list | /usr/bin/python3 -c 'import json,sys; print(len(json.load(sys.stdin)["ports"]))')" = 2 ]; then
	pass "a missing or taken netdev is refused, the ports stay two"
else
	fail "a bad port add changed the port list"
fi

# AF_PACKET when asked for: the fallback works on its own.
why=
ip link add "$wc" type veth peer name "${wc}p" && ip link set "$wc" up || why="cannot make $wc"
[ -z "$why" ] && ! out=$(hwxdp port add p2 dev "$wc" mode af_packet 2>&1) && why="port add: $out"
[ -z "$why" ] && m=$(hwxdp -j port show p2 | py_field '["mode"]') && [ "$m" != af_packet ] && why="mode $m"
[ -z "$why" ] && ! out=$(hwxdp port del p2 2>&1) && why="port del: $out"
[ -z "$why" ] && ip link show hx2 >/dev/null 2>&1 && why="hx2 is still there"
if [ -z "$why" ]; then
	pass "a port in af_packet mode comes and goes with its TAP"
else
	fail "port p2 in af_packet mode: $why"
fi

out=$(hwxdp -j prog load "$build/progs/fwd.bpf.o" port p0 p1 2>&1) || setup_failed "prog load: $out"

# A program the verifier refuses: its log, and nothing changed.
cat >"/tmp/hxdtest.$tag.bad.c" <<'C'
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
if clang -g -O2 -target bpf -I/usr/include/$(gcc -dumpmachine) -c "/tmp/hxdtest.$tag.bad.c" \
	-o "/tmp/hxdtest.$tag.bad.o" 2>/dev/null; then
	err=$(hwxdp prog load "/tmp/hxdtest.$tag.bad.o" port p0 2>&1 >/dev/null)
	rc=$?
	progs=$(hwxdp -j prog list | /usr/bin/python3 -c 'import json,sys; print(" ".join(p["name"] for p in json.load(sys.stdin)["programs"]))')
	p0prog=$(hwxdp -j port show p0 | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["program"])')
	if [ "$rc" -ne 0 ] && echo "$err" | grep -q 'invalid access to packet' &&
		[ "$progs" = fwd ] && [ "$p0prog" = fwd ] && [ ! -e "$pins/hxdtest$tag" ] &&
		[ ! -e "$pins/hxdtest.$tag.bad" ]; then
		pass "a refused program prints the verifier's log and changes nothing"
	else
		fail "refused load: rc $rc, programs '$progs', p0 has '$p0prog', log: $(echo "$err" | tail -n 3 | tr '\n' ' ')"
	fi
else
	fail "cannot compile the refused program"
fi
# one dump, read whole (a grep -q that stops early can fail the pipe)
dump=$(bpftool map dump pinned "$pins/fwd/config" 2>&1)
if grep -q '"vlan_flows"' <<<"$dump"; then
	pass "bpftool dumps the pinned config map with its fields by name"
else
	fail "no pinned config map with BTF at $pins/fwd/config: $(head -n 5 <<<"$dump" | tr "\n" " ")"
fi
host_id=$(hwxdp -j prog show fwd | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["host_prog_id"])')
for t in "$tap0" "$tap1"; do
	on_tap=$(ip -d link show "$t" | sed -nE 's/.*prog\/xdp id ([0-9]+).*/\1/p')
	# read whole: a grep -q that stops early fails the pipe under pipefail
	shown=$(bpftool prog show id "$host_id" 2>/dev/null)
	if [ -n "$host_id" ] && [ "$on_tap" = "$host_id" ] &&
		grep -q 'xdp  *name hwxdp_fwd' <<<"$shown"; then
		pass "the host copy (kernel program $host_id, hwxdp_fwd) is attached to $t"
	else
		fail "$t has XDP program '${on_tap:-none}', not the host copy '${host_id:-?}'"
	fi
done

forward_before=$(sysctl -n net.ipv4.ip_forward)
sysctl -qw net.ipv4.ip_forward=1
ip addr add 10.77.1.1/24 dev "$tap0" || setup_failed "address on $tap0"
ip addr add 10.77.2.1/24 dev "$tap1" || setup_failed "address on $tap1"

cat >"/tmp/hxdtest.$tag.py" <<'PY'
import sys
from scapy.all import AsyncSniffer, ICMP, IP, Ether, raw
import time
sn = AsyncSniffer(iface="eth0", lfilter=lambda p: ICMP in p and p[ICMP].type == 8)
sn.start()
time.sleep(1.0)
open(sys.argv[1], "w").write("ready\n")
time.sleep(float(sys.argv[2]))
pkts = sn.stop()
for p in pkts:
    ip = p[IP]
    fresh = ip.copy(); del fresh.chksum
    ok = IP(raw(fresh)).chksum == ip.chksum
    print("echo src=%s dst=%s ttl=%d smac=%s csum=%s" % (ip.src, ip.dst, ip.ttl, p[Ether].src, "ok" if ok else "bad"))
PY
ready=/tmp/hxdtest.$tag.ready
rm -f "$ready"
ip netns exec "$nsb" /usr/bin/python3 "/tmp/hxdtest.$tag.py" "$ready" 5 >"/tmp/hxdtest.$tag.cap" 2>&1 &
sniffer=$!
for _ in $(seq 50); do [ -f "$ready" ] && break; sleep 0.1; done
rm -f "$ready"
if ip netns exec "$nsa" ping -c 3 -i 0.3 -W 2 -t 64 10.77.2.2 >/tmp/hxdtest.$tag.ping 2>&1; then
	pass "$nsa pings $nsb through the appliance ($(grep -o 'rtt.*' /tmp/hxdtest.$tag.ping))"
else
	fail "no ping through the appliance: $(tail -n 2 /tmp/hxdtest.$tag.ping | tr '\n' ' ')"
fi
wait "$sniffer"
cap=$(cat "/tmp/hxdtest.$tag.cap")
rm -f "/tmp/hxdtest.$tag.cap" "/tmp/hxdtest.$tag.ping"
echo "$cap" | sed 's/^/  capture: /'
if echo "$cap" | grep -q 'src=10.77.1.2 dst=10.77.2.2 ttl=63 '; then
	pass "the echo requests arrive at $nsb with TTL 63 (sent with 64)"
else
	fail "no echo request with TTL 63 in $nsb's capture"
fi
if echo "$cap" | grep 'src=10.77.1.2' | grep -qv 'csum=ok'; then
	fail "an IPv4 header checksum is wrong after the TTL change"
elif echo "$cap" | grep -q 'csum=ok'; then
	pass "IPv4 header checksums agree with scapy's recomputation"
else
	fail "no frames to check checksums on"
fi
wb_mac=$(cat /sys/class/net/"$wb"/address)
if echo "$cap" | grep -q "smac=$wb_mac"; then
	pass "they leave the appliance from port p1's MAC ($wb_mac)"
else
	fail "the source MAC is not p1's ($wb_mac)"
fi

counters=$(hwxdp -j port show p0)
punted=$(echo "$counters" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["counters"]["punted"])')
if [ "${punted:-0}" -ge 3 ]; then
	pass "port p0 counts $punted frames punted to $tap0"
else
	fail "port p0 punted ${punted:-0} frames, expected at least 3"
fi

# Map writes reach the kernel's map (read back by bpftool on the pin) and
# the board's table alike.
ksz=$(hwxdp -j map show fwd/flows | py_field '["key_size"]')
vsz=$(hwxdp -j map show fwd/flows | py_field '["value_size"]')
key=$(seq 1 "$ksz" | sed 's/^/0x/' | tr '\n' ' ')
key=$(/usr/bin/python3 -c "print(' '.join(str((i * 7 + 3) % 256) for i in range($ksz)))")
value=$(/usr/bin/python3 -c "print(' '.join(str((i * 5 + 1) % 256) for i in range($vsz)))")
want=$(/usr/bin/python3 -c "print(' '.join('%02x' % ((i * 5 + 1) % 256) for i in range($vsz)))")
if out=$(hwxdp map update fwd/flows key $key value $value 2>&1); then
	kern=$(bpftool -j map lookup pinned "$pins/fwd/flows" key $key 2>/dev/null |
		/usr/bin/python3 -c 'import json,sys; print(" ".join("%02x" % int(b, 16) for b in json.load(sys.stdin)["value"]))' 2>/dev/null)
	dev=$(hwxdp -j map lookup flows key $key target device |
		/usr/bin/python3 -c 'import json,sys; print(" ".join("%02x" % int(b, 16) for b in json.load(sys.stdin)["value"]))')
	if [ "$kern" = "$want" ] && [ "$dev" = "$want" ]; then
		pass "map update: bpftool reads the entry on the pin, the board has the same bytes"
	else
		fail "map update: bpftool '$kern', board '$dev', want '$want'"
	fi
else
	fail "map update fwd/flows: $out"
fi
if hwxdp map delete flows key $key >/dev/null 2>&1 &&
	! bpftool map lookup pinned "$pins/fwd/flows" key $key >/dev/null 2>&1 &&
	! hwxdp map lookup flows key $key target device >/dev/null 2>&1; then
	pass "map delete: gone from the kernel's map and the board's table"
else
	fail "map delete left the entry somewhere"
fi
if err=$(hwxdp map update flows key 1 2 value 3 2>&1); then
	fail "a 2-byte key for a $ksz-byte map was taken"
elif echo "$err" | grep -q "key has 2 bytes, the map's are $ksz"; then
	pass "a key of the wrong size is refused in words"
else
	fail "wrong-size key: '$err'"
fi

# A second program on p0 replaces the first in place: the TAP's link is
# updated (same link, new program), never left without one.
# The link's program, as bpftool sees it, by the link id the daemon reports.
link_of() { hwxdp -j prog show "$1" | /usr/bin/python3 -c 'import json,sys; print([p["link_id"] for p in json.load(sys.stdin)["ports"] if p["port"] == "p0"][0])'; }
links_on_tap() {
	local id
	id=$(hwxdp -j port show p0 | py_field '["program"]' | { read -r n; link_of "$n"; })
	bpftool -j link show id "$id" 2>/dev/null | /usr/bin/python3 -c 'import json,sys; l = json.load(sys.stdin); print("%d:%d" % (l["id"], l["prog_id"]))'
}
before=$(links_on_tap)
if out=$(hwxdp -j prog load "$build/progs/fwd.bpf.o" name fwd2 port p0 2>&1); then
	new_id=$(hwxdp -j prog show fwd2 | py_field '["host_prog_id"]')
	after=$(links_on_tap)
	if [ "${before%%:*}" = "${after%%:*}" ] && [ "${after#*:}" = "$new_id" ] &&
		[ "$(hwxdp -j port show p0 | py_field '["program"]')" = fwd2 ] &&
		[ "$(hwxdp -j port show p1 | py_field '["program"]')" = fwd ]; then
		pass "prog load on a port with a program updates its link in place ($before -> $after)"
	else
		fail "replace: link:program on $tap0 $before -> $after, fwd2 is kernel program $new_id"
	fi
else
	fail "a second program on p0: $out"
fi

# The control socket under junk (malformed frames, nonsense words, reads)
# while a ping crosses the appliance: every ping answered, the daemon still
# answering in order afterwards.
# HWXDP_JUNK_SECONDS makes it longer (make fuzz-daemon: a sanitized build, 10 minutes).
junk_s=${HWXDP_JUNK_SECONDS:-6}
pings=$((junk_s * 20 + 20))
ip netns exec "$nsa" ping -c "$pings" -i 0.05 -W 1 10.77.2.2 >"/tmp/hxdtest.$tag.ping2" 2>&1 &
pinger=$!
junk=$(/usr/bin/python3 tests/integration/ctl_junk.py "$sock" "$junk_s" "$tag" 2>&1)
wait "$pinger"
prc=$?
loss=$(grep -o '[0-9.]*% packet loss' "/tmp/hxdtest.$tag.ping2")
if [ $prc -eq 0 ] && [ "$loss" = "0% packet loss" ] && kill -0 "$daemon_pid" 2>/dev/null &&
	[ "$(hwxdp -j port list | py_field '["ports"][0]["name"]')" = p0 ]; then
	pass "control socket junk for $junk_s s ($junk) while $pings pings crossed: $loss, the daemon answers"
else
	fail "under junk ($junk): ping rc $prc, ${loss:-no ping}, daemon $(kill -0 "$daemon_pid" 2>/dev/null && echo alive || echo gone)"
fi

# SIGTERM: the daemon removes what it made.
kill -TERM "$daemon_pid"
wait "$daemon_pid"
rc=$?
daemon_pid=
if [ "$rc" -eq 0 ] && [ ! -e "$sock" ] && [ ! -e "$pins/fwd" ] && ! ip link show "$tap0" >/dev/null 2>&1; then
	pass "SIGTERM: exit 0, socket, pins and TAPs gone"
else
	fail "after SIGTERM: rc $rc, socket $( [ -e "$sock" ] && echo left), pins $( [ -e "$pins/fwd" ] && echo left), $tap0 $(ip link show "$tap0" >/dev/null 2>&1 && echo left)"
fi
# A sanitized build (SAN=1) says what it found in the daemon's log.
if [ "$(nm "$build/hwxdpd" 2>/dev/null | grep -c __asan_init)" -gt 0 ]; then
	reports=$(grep -cE 'ERROR: (Address|Leak)Sanitizer|runtime error' "$dlog")
	if [ "$reports" -eq 0 ]; then
		pass "ASan/UBSan/LSan: no report in the daemon's log, through the junk and the stop"
	else
		fail "sanitizer reports in the daemon's log: $(grep -m 3 -E 'ERROR:|runtime error' "$dlog")"
	fi
fi
finish
