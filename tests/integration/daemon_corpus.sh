#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Programs nobody here wrote, loaded onto a port of the live appliance: every
# program of the corpus (tests/corpus, as built, for BPF v3 and at -O1),
# by `hwxdp prog load FILE name x port p0`, then `prog unload x`.
#
# What to expect is decided by others: libbpf and the kernel (bpftool prog
# loadall ... type xdp, whose loader is the host copy's) and hwxdp's
# translation for the device (`hwxdp prog translate`: the device's verifier,
# the translator and the device's check of the microcode). A program both take must load, run its host copy on the port's
# TAP (bpftool net shows it there), pin every map it has (bpftool sees each
# pin), and leave no pin behind when unloaded. One either refuses must be
# refused in one error line, with nothing loaded and nothing pinned. And one
# object of several programs (tests/integration/two_progs.bpf.c): the one
# `prog NAME` names runs.
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
# Maps declared LIBBPF_PIN_BY_NAME are pinned by bpftool as /sys/fs/bpf/NAME:
# the object's maps it pins there are removed again.
kernel_takes() {
	local rc before
	before=$(ls /sys/fs/bpf)
	rm -rf "$probe"
	bpftool prog loadall "$1" "$probe" >/dev/null 2>&1
	rc=$?
	rm -rf "$probe"
	if [ $rc -ne 0 ]; then
		bpftool prog loadall "$1" "$probe" type xdp >/dev/null 2>&1
		rc=$?
		rm -rf "$probe"
	fi
	for pin in $(llvm-objdump -t "$1" 2>/dev/null | awk -F'[ \t]+' '/ \.maps\t/ {print $NF}'); do
		[ -e "/sys/fs/bpf/$pin" ] && ! echo "$before" | grep -qx "$pin" &&
			rm -f "/sys/fs/bpf/$pin"
	done
	return $rc
}

# Objects whose maps are struct bpf_map_def in SEC("maps"): bpftool's libbpf
# 1.x refuses them, the appliance loads their host copy with the maps
# rewritten as BTF-defined ones (docs/daemon.md). Such an object is expected
# loaded when hwxdp translates it, and each of its pinned maps must then be,
# as bpftool shows it, the definition read here from the section itself.
legacy_maps() { llvm-objdump -h "$1" 2>/dev/null | awk '$2 == "maps" {found = 1} END {exit !found}'; }
# The first legacy map of $1 pinned in $2 that differs from its definition
# (key, value, max_entries, flags; the daemon adds BPF_F_MMAPABLE to arrays).
legacy_map_wrong() {
	local off name want got
	llvm-objcopy -O binary --only-section=maps "$1" "$tmp/maps.bin" 2>/dev/null ||
		{ echo "its maps section cannot be read"; return; }
	while read -r off name; do
		want=$(od -An -tu4 -w20 -j $((16#$off)) -N 20 "$tmp/maps.bin" | awk 'NR == 1 {print $2, $3, $4, $5}')
		got=$(bpftool -j map show pinned "$2/$name" 2>/dev/null |
			jfield "' '.join(str(d[k]) for k in ('bytes_key', 'bytes_value', 'max_entries')) + ' ' + str(d['flags'] & ~1024)")
		[ "$want" = "$got" ] ||
			{ echo "map $name: key value max_entries flags $got in the kernel, $want defined"; return; }
	done < <(llvm-objdump -t "$1" 2>/dev/null | awk -F'[ \t]+' '/ maps\t/ {print $1, $NF}')
}

loaded=0 refused=0 legacy=0 wrong=()
for obj in "$build"/tests/corpus/*.bpf.o "$build"/tests/corpus-v3/*.bpf.o "$build"/tests/corpus-O1/*.bpf.o; do
	name=$(basename "$(dirname "$obj")")/$(basename "$obj" .bpf.o)
	case $name in */bad_*) continue ;; esac
	want=refused
	is_legacy=0
	legacy_maps "$obj" && is_legacy=1
	{ [ $is_legacy = 1 ] || kernel_takes "$obj"; } &&
		"$build/hwxdp" prog translate "$obj" -o "$tmp/want.hxu" >/dev/null 2>&1 && want=loaded
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
		if [ $is_legacy = 1 ] && [ $rc -eq 0 ]; then
			diff=$(legacy_map_wrong "$obj" "$pins/x")
			[ -n "$diff" ] && wrong+=("$name (legacy maps): $diff")
			legacy=$((legacy + 1))
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
# One object, several programs: the one named runs, on the board and in
# the kernel; a name the object lacks is refused with the names it has.
clang -g -O2 -target bpf -I/usr/include/"$(gcc -dumpmachine)" -c tests/integration/two_progs.bpf.c \
	-o "$tmp/two.o" || setup_failed "cannot build two_progs.bpf.c"
out=$(hwxdp prog load "$tmp/two.o" prog xdp_second name two port p0 2>&1)
rc=$?
runs=$(hwxdp -j prog show two 2>/dev/null | jfield "d['program']")
kid=$(bpftool -j net show dev hx0 2>/dev/null | jfield "d[0]['xdp'][0]['id']")
kname=$(bpftool -j prog show id "${kid:-0}" 2>/dev/null | jfield "d['name']")
probes=$(bpftool -j prog show 2>/dev/null | jfield "len([p for p in d if p.get('name') == 'probe_sleep'])")
# 3 frames into p0: each counted by the board's program and again by the
# host copy on hx0 (both pass it), in the array both share.
py "from scapy.all import Ether, IP, UDP, sendp
sendp(Ether(dst='$(cat /sys/class/net/"$wa"/address)') / IP(src='10.99.0.1', dst='10.99.0.2') / UDP(), iface='$wb', count=3, verbose=False)"
sleep 0.5
seen() { bpftool -j map lookup pinned "$pins/two/seen" key "$1" 0 0 0 2>/dev/null | jfield "d['formatted']['value'] if 'formatted' in d else int.from_bytes(bytes(int(x, 16) for x in d['value']), 'little')"; }
s0=$(seen 0) s1=$(seen 1)
refusal=$(hwxdp prog load "$tmp/two.o" prog nosuch name three port p0 2>&1)
rrc=$?
if [ $rc -eq 0 ] && [ "$runs" = xdp_second ] && [ "$kname" = xdp_second ] && [ "$probes" = 0 ] &&
	[ "$s0" = 0 ] && [ "${s1:-0}" -ge 6 ] && [ $rrc -ne 0 ] &&
	echo "$refusal" | grep -q "no XDP program 'nosuch' for a port (it has: xdp_first xdp_second xdp_on_devmap (for a devmap entry) probe_sleep (not XDP))"; then
	pass "prog xdp_second of 4 programs: it runs (prog show, and bpftool net on hx0: $kname; 3 frames counted $s1 times in its slot, $s0 in xdp_first's), the kprobe not loaded; a name it lacks: $(echo "$refusal" | head -c 160)"
else
	fail "prog selection: rc $rc ($out), runs '$runs', hx0 runs '$kname', $probes kprobes loaded, counts $s0/$s1; nosuch: rc $rrc, $refusal"
fi
hwxdp prog unload two >/dev/null 2>&1

if [ ${#wrong[@]} -eq 0 ] && [ "$loaded" -ge 100 ] && [ "$legacy" -ge 12 ]; then
	pass "$loaded corpus programs loaded on p0 (host copy on hx0, every map pinned and seen by bpftool, nothing left after unload; $legacy with legacy maps, each map as defined); $refused refused in one line, nothing loaded"
else
	fail "$loaded loaded ($legacy with legacy maps, 12 expected), $refused refused, ${#wrong[@]} wrong:"
	printf '    %s\n' "${wrong[@]}"
fi
finish
