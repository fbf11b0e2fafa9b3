#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Programs nobody here wrote, loaded onto a port of the live appliance: every
# program of the corpus (tests/corpus, as built and as built for BPF v3),
# by `hwxdp prog load FILE name x port p0`, then `prog unload x`.
#
# What to expect is decided by others: libbpf and the kernel (bpftool prog
# loadall ... type xdp, whose loader is the host copy's) and hwxdp's device
# verifier. A program both take must load, run its host copy on the port's
# TAP (bpftool net shows it there), pin every map it has (bpftool sees each
# pin), and leave no pin behind when unloaded. One either refuses must be
# refused in one error line, with nothing loaded and nothing pinned.
#
# Prints "N passed, M failed"; exits 77 (skipped) without root, bpffs, TUN,
# clang, ethtool or scapy, with the reason.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
tag=$$
tmp=/tmp/hxctest.$tag
. tests/integration/appliance_test.sh
appliance_requires
pins=/sys/fs/bpf/hxctest$tag
probe=/sys/fs/bpf/hxcprobe$tag
trap 'rm -rf "$probe"; cleanup' EXIT

echo "== hwxdpd: every corpus program onto a port"
mkdir -p "$tmp"
ip link add "$wa" type veth peer name "$wb" || setup_failed "veth $wa"
ip link set "$wa" up && ip link set "$wb" up || setup_failed "links"
"$build/hwxdpd" --socket "$sock" --pin-root "$pins" --no-restore >"$tmp/hwxdpd.log" 2>&1 &
daemon_pid=$!
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || setup_failed "hwxdpd did not make $sock"
out=$(hwxdp port add p0 dev "$wa" 2>&1) || setup_failed "port add: $out"

# Whether libbpf and the kernel take the object: as its sections say, or
# (sections libbpf 1.x gives no type, such as xdp1) every program as XDP.
kernel_takes() {
	local rc
	rm -rf "$probe"
	bpftool prog loadall "$1" "$probe" >/dev/null 2>&1
	rc=$?
	rm -rf "$probe"
	if [ $rc -ne 0 ]; then
		bpftool prog loadall "$1" "$probe" type xdp >/dev/null 2>&1
		rc=$?
		rm -rf "$probe"
	fi
	return $rc
}

loaded=0 refused=0 wrong=()
for obj in "$build"/tests/corpus/*.bpf.o "$build"/tests/corpus-v3/*.bpf.o; do
	name=$(basename "$(dirname "$obj")")/$(basename "$obj" .bpf.o)
	case $name in */bad_*) continue ;; esac
	want=refused
	kernel_takes "$obj" && "$build/hwxdp" prog verify "$obj" --target device >/dev/null 2>&1 &&
		want=loaded
	out=$(hwxdp prog load "$obj" name x port p0 2>&1)
	rc=$?
	if [ "$want" = loaded ]; then
		maps=$(hwxdp -j map list 2>/dev/null | jfield "len([m for m in d['maps'] if m['program'] == 'x'])")
		pinned=$(find "$pins/x" -maxdepth 1 -mindepth 1 2>/dev/null | wc -l)
		seen=0
		for p in "$pins"/x/*; do
			[ -e "$p" ] && bpftool -j map show pinned "$p" >/dev/null 2>&1 && seen=$((seen + 1))
		done
		on_tap=$(bpftool -j net show dev hx0 2>/dev/null | jfield "len(d[0]['xdp'])")
		if [ $rc -ne 0 ] || [ "${maps:-x}" != "$pinned" ] || [ "$seen" != "$pinned" ] ||
			[ "${on_tap:-0}" != 1 ]; then
			wrong+=("$name: rc $rc, $maps maps, $pinned pinned, $seen seen by bpftool, $on_tap XDP programs on hx0: $(echo "$out" | grep -m1 error)")
		fi
		out=$(hwxdp prog unload x 2>&1) || wrong+=("$name: unload: $out")
		[ -e "$pins/x" ] && wrong+=("$name: $pins/x left after unload")
		loaded=$((loaded + 1))
	else
		lines=$(echo "$out" | grep -c 'error:')
		progs=$(hwxdp -j prog show 2>/dev/null | jfield "len(d['programs'])")
		if [ $rc -eq 0 ] || [ "$lines" != 1 ] || [ "${progs:-x}" != 0 ] || [ -e "$pins/x" ]; then
			wrong+=("$name: expected a refusal: rc $rc, $lines error lines, $progs programs loaded after, pins $(ls "$pins" 2>/dev/null)")
			hwxdp prog unload x >/dev/null 2>&1
		fi
		refused=$((refused + 1))
	fi
done
if [ ${#wrong[@]} -eq 0 ] && [ "$loaded" -ge 40 ]; then
	pass "$loaded corpus programs loaded on p0 (host copy on hx0, every map pinned and seen by bpftool, nothing left after unload); $refused refused in one line, nothing loaded"
else
	fail "$loaded loaded, $refused refused, ${#wrong[@]} wrong:"
	printf '    %s\n' "${wrong[@]}"
fi
finish
