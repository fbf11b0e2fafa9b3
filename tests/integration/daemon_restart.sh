#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# hwxdpd killed with SIGKILL mid-stream and started again: the TAPs (with the
# host's addresses), the pinned maps and the state file outlive it; the new
# daemon makes the same ports, LIFs and program again on the pinned maps, so
# the flows come back on the board without a flow-miss and the counters go
# on from where they were. The topology is daemon_flows.sh's: partner A on
# VLAN 50 of p0, partner B on p1, fwd on both.
#
# Prints "N passed, M failed"; exits 77 (skipped) without root, bpffs, TUN,
# iperf3, clang, ethtool or scapy, with the reason.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
tag=$$
tmp=/tmp/hxrtest.$tag
. tests/integration/appliance_test.sh
appliance_requires iperf3

echo "== hwxdpd: SIGKILL mid-stream, started again on its pins"
topo_up
state=$tmp/hwxdpd.state
[ -s "$state" ] || setup_failed "no state file $state after the setup"

# The board's count of a flow direction, by the flow list; the kernel's by
# bpftool on the pinned flows map (what the mirror last copied).
flow_packets() { hwxdp -j flow list | jfield "sum(f['packets'] for f in d['flows'] if f['dport'] == 5201 or f['sport'] == 5201)"; }
pinned_packets() {
	bpftool -j map dump pinned "$pins/fwd/flows" 2>/dev/null |
		jfield "sum((e['formatted']['value'] if 'formatted' in e else e['value'])['packets'] for e in d)"
}
board_tx() { hwxdp -j port show p1 | jfield "d['counters']['tx']"; }

B iperf3 -s -D -p 5201 --logfile "$tmp/iperf-server.log" || setup_failed "iperf3 -s in $nsb"
sleep 0.5
A iperf3 -c 10.78.2.2 -p 5201 -t 10 -b 100M -J >"$tmp/iperf.json" 2>&1 &
iperf=$!
sleep 3
made0=$(hwxdp -j flow list | jfield "d['counters']['active']")
lif0=$(lif_counter 50 rx_packets)
miss0=$(punt_count $FLOW_MISS)
pinned0=$(pinned_packets)
sleep 0.6 # a mirror round: the kernel's copy holds at least what was read
kill -KILL "$daemon_pid"
wait "$daemon_pid" 2>/dev/null
t_kill=$(date +%s%N)

# What outlives the daemon: TAPs with their addresses, pins, the state file.
taps=$(ip -o link show | grep -cE ': (hx0|hx1|hx0\.50)[@:]')
addr=$(ip -o -4 addr show dev hx1 2>/dev/null | grep -c '10\.78\.2\.1/')
if [ "$taps" -eq 3 ] && [ "$addr" -eq 1 ] && [ -e "$pins/fwd/flows" ] && [ -s "$state" ]; then
	pass "SIGKILL: hx0, hx0.50 and hx1 stay (10.78.2.1 on hx1), the maps stay pinned, the state file stays ($(grep -vc '^#' "$state") commands)"
else
	fail "after SIGKILL: $taps TAPs, address on hx1 $addr, pins $(ls "$pins/fwd" 2>/dev/null | tr '\n' ' '), state $(wc -c <"$state" 2>/dev/null)"
fi

"$build/hwxdpd" --socket "$sock" --engines 1 --pin-root "$pins" >"$tmp/hwxdpd2.log" 2>&1 &
daemon_pid=$!
for _ in $(seq 100); do [ -S "$sock" ] && hwxdp daemon status >/dev/null 2>&1 && break; sleep 0.02; done
t_up=$(date +%s%N)
# Back on the board: p1 transmits the stream's frames again.
tx0=$(board_tx) back=
for _ in $(seq 100); do
	tx=$(board_tx)
	if [ "${tx:-0}" -gt $((${tx0:-0} + 100)) ]; then back=$(date +%s%N); break; fi
	sleep 0.05
done
made1=$(hwxdp -j flow list | jfield "d['counters']['taken_back']")
restored=$(grep -c 'restored:' "$tmp/hwxdpd2.log")
if [ "$restored" -eq "$(grep -vc '^#' "$state")" ] && hwxdp -j prog show fwd | jfield "' '.join(p['port'] for p in d['ports'])" | grep -qx 'p0 p1' &&
	hwxdp -j lif list p0 2>/dev/null | grep -q '"vlan": *50'; then
	pass "started again: $restored commands restored (ports p0 p1, LIF p0.50, fwd on both), up $(((t_up - t_kill) / 1000000)) ms after the kill"
else
	fail "restore: $restored commands restored; log: $(tr '\n' '|' <"$tmp/hwxdpd2.log" | head -c 600)"
fi
if [ -n "$back" ] && [ $((back - t_kill)) -le 2000000000 ] && [ "${made1:-0}" -ge "${made0:-99}" ]; then
	pass "the stream is back on the board $(((back - t_kill) / 1000000)) ms after the kill, $made1 flows taken back from the pinned table ($made0 before)"
else
	when=never
	[ -n "$back" ] && when="$(((back - t_kill) / 1000000)) ms after the kill"
	fail "back on the board: $when (p1 tx $tx0 -> $tx), flows taken back $made1 of $made0"
fi
sleep 1
miss1=$(punt_count $FLOW_MISS)
lif1=$(lif_counter 50 rx_packets)
packets1=$(flow_packets)
if [ "$miss1" = "$miss0" ] && [ "${lif1:-0}" -gt "${lif0:-0}" ] && [ "${packets1:-0}" -gt "${pinned0:-0}" ]; then
	pass "counters go on: LIF 50 rx $lif0 -> $lif1, the flows' packets ${pinned0} (pinned, before) -> $packets1 (board, after), no new flow-miss ($miss1)"
else
	fail "counters: flow-miss $miss0 -> $miss1, LIF 50 rx $lif0 -> $lif1, flows' packets $pinned0 -> $packets1"
fi

wait "$iperf"
irc=$?
read -r sent rcvd retr < <(jfield "'%d %d %d' % (d['end']['sum_sent']['bytes'], d['end']['sum_received']['bytes'], d['end']['sum_sent'].get('retransmits', -1))" <"$tmp/iperf.json" 2>/dev/null)
if [ "$irc" -eq 0 ] && [ "${sent:-0}" -gt 0 ] && [ "$sent" = "$rcvd" ]; then
	pass "the stream lived through it: $rcvd of $sent bytes received, $retr retransmissions (what TCP recovered of the gap)"
else
	fail "iperf3 rc $irc: $(head -c 300 "$tmp/iperf.json")"
fi

# A clean stop after a restart still removes everything, the state file too.
kill -TERM "$daemon_pid"
wait "$daemon_pid"
rc=$?
daemon_pid=
left=$(ip -o link show | grep -cE ': (hx0|hx1|hx0\.50)[@:]')
if [ $rc -eq 0 ] && [ "$left" -eq 0 ] && [ ! -e "$state" ] && [ ! -e "$pins/fwd" ]; then
	pass "SIGTERM after the restart: TAPs, pins and the state file gone"
else
	fail "SIGTERM: rc $rc, $left TAPs left, state $(ls "$state" 2>/dev/null), pins $(ls "$pins" 2>/dev/null)"
fi
# A state file that is not one: each bad line said and skipped, the daemon serves.
{
	echo "# hwxdpd state 1"
	echo "port add p9 dev no-such-netdev mode auto index 9"
	echo "port add bad%zzname dev lo"
	printf 'prog load %%00 name x\n'
	# Never a comment: the first byte is not '#'.
	printf 'z'
	head -c 300 /dev/urandom | tr -d '\n'
	echo
	echo "lif add nosuchport vlan 5"
} >"$state"
"$build/hwxdpd" --socket "$sock" --engines 1 --pin-root "$pins" >"$tmp/hwxdpd3.log" 2>&1 &
daemon_pid=$!
for _ in $(seq 100); do [ -S "$sock" ] && hwxdp daemon status >/dev/null 2>&1 && break; sleep 0.02; done
ports=$(hwxdp -j daemon status 2>/dev/null | jfield "d['ports']")
said=$(grep -cE 'hwxdpd.state:[0-9]+: (not restored|not a command)' "$tmp/hwxdpd3.log")
if [ "${ports:-x}" = 0 ] && [ "$said" -eq 5 ] && grep -q '0 commands of .* restored, 5 not' "$tmp/hwxdpd3.log"; then
	pass "a broken state file: its 5 bad lines named and skipped, the daemon serves with no port"
else
	fail "broken state file: ports ${ports:-?}, $said lines named; log: $(tr '\n' '|' <"$tmp/hwxdpd3.log" | head -c 600)"
fi
finish
