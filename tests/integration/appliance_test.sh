# SPDX-License-Identifier: GPL-2.0
#
# What the appliance's integration tests share, sourced after they set build,
# tag and tmp: the lab topology (scripts/appliance/topology.sh), the verdict
# helpers ("N passed, M failed", exit 77 with a reason to skip), the cleanup
# that runs even when a test fails, and the checks of what the tests need.
# appliance_requires TOOL... skips without root, TUN, the built daemon and
# fwd, bpffs, scapy or one of the tools.

. scripts/appliance/topology.sh
passed=0 failed=0

skip() { echo "skipped: $*"; exit 77; }
pass() { echo "  ok: $*"; passed=$((passed + 1)); }
fail() { echo "  FAIL: $*"; failed=$((failed + 1)); }
finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}
setup_failed() {
	echo "setup failed: $*"
	for log in "$tmp"/hwxdpd*.log; do
		[ -f "$log" ] && sed "s/^/  $(basename "$log" .log): /" "$log"
	done
	failed=$((failed + 1))
	finish
}
topo_failed() { setup_failed "$@"; }
cleanup() {
	topo_down
	rm -rf "$tmp"
}
trap cleanup EXIT

appliance_requires() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (network namespaces, TAPs, kernel BPF)"
	[ -c /dev/net/tun ] || skip "no /dev/net/tun"
	[ -x "$build/hwxdpd" ] && [ -x "$build/hwxdp" ] || skip "build first: make"
	[ -f "$build/progs/fwd.bpf.o" ] || skip "no $build/progs/fwd.bpf.o: make"
	for t in ethtool clang tc bpftool "$@"; do
		command -v "$t" >/dev/null || skip "no $t (scripts/install-deps.sh installs it)"
	done
	/usr/bin/python3 -c 'import scapy.all' 2>/dev/null ||
		skip "Debian's python3-scapy is not installed"
	if ! mount | grep -q ' /sys/fs/bpf type bpf'; then
		mount -t bpf bpf /sys/fs/bpf 2>/dev/null || skip "cannot mount bpffs at /sys/fs/bpf"
	fi
}

# capture SECONDS OUT.pcap: what arrives at partner B's eth0 (tcpdump, by
# esp_capture.py) in the background, ready when it returns; its pid in cap.
capture() {
	local ready=$tmp/ready.$RANDOM
	B /usr/bin/python3 tests/integration/esp_capture.py capture eth0 "$1" "$ready" "$2" &
	cap=$!
	for _ in $(seq 100); do [ -f "$ready" ] && break; sleep 0.1; done
}
