#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make install` into a scratch DESTDIR, then what a user of the installed
# package sees: the exports and headers (check_exports.sh); the examples,
# copied out of the tree and built with nothing but pkg-config, their tests
# run; the harness failing where it must (harness_fails.c). Prints
# "N passed, M failed" for the whole.
set -uo pipefail
build=${BUILD:-build}
prefix=/usr/local
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
passed=0 failed=0

count() {
	local line
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
	if [ -z "$line" ]; then
		failed=$((failed + 1))
		return
	fi
	passed=$((passed + $(cut -d' ' -f1 <<<"$line")))
	failed=$((failed + $(cut -d' ' -f3 <<<"$line")))
}

log=$root/log
if ! make --no-print-directory BUILD="$build" DESTDIR="$root/dest" PREFIX=$prefix install >"$log" 2>&1; then
	cat "$log"
	echo "0 passed, 1 failed"
	exit 1
fi

echo "-- exports and headers"
tests/install/check_exports.sh "$root/dest" $prefix | tee "$log"
count "$log"

dest=$root/dest
export PKG_CONFIG_PATH=$dest$prefix/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest
export LD_LIBRARY_PATH=$dest$prefix/lib

# Criterion's "Synthesis: Tested: T | Passing: P | Failing: F | Crashing: C".
count_criterion() {
	local line
	line=$(grep -a 'Synthesis:' "$1" | tail -n 1)
	if [ -z "$line" ]; then
		failed=$((failed + 1))
		return
	fi
	passed=$((passed + $(sed -E 's/.*Passing: ([0-9]+).*/\1/' <<<"$line")))
	failed=$((failed + $(sed -E 's/.*Failing: ([0-9]+) \| Crashing: ([0-9]+).*/\1 + \2/' <<<"$line")))
}

cp -r examples "$root/examples"
for ex in udp-filter l4-lb; do
	echo "-- examples/$ex, out of the tree"
	if ! make --no-print-directory -C "$root/examples/$ex" test >"$log" 2>&1; then
		grep -a -B2 -A3 'FAIL\|rror' "$log" | head -n 40
	fi
	grep -a 'Synthesis' "$log"
	count_criterion "$log"
done

echo "-- the harness fails where it must"
if ${CC:-cc} -std=gnu11 -Wall -Wextra -Werror $(pkg-config --cflags hwxdp) \
	-DVLAN_TAG="\"$PWD/$build/progs/vlan_tag.bpf.o\"" \
	-DFWD="\"$PWD/$build/progs/fwd.bpf.o\"" \
	-DUDP_FILTER="\"$root/examples/udp-filter/udp_filter.bpf.o\"" \
	tests/install/harness_fails.c $(pkg-config --libs hwxdp) -lcriterion \
	-o "$root/harness_fails" 2>"$log"; then
	"$root/harness_fails" --jobs 2 >"$log" 2>&1
	targets="interp compiled"
	[ "$(id -u)" -eq 0 ] && targets="kernel $targets"
	for target in $targets; do
		for want in "frame byte 22 (IPv4 TTL) is 0x09, expected 0x08" \
			"verdict XDP_TX, expected XDP_DROP" \
			"metadata byte 8 is 0x02, expected 0x06" \
			"map counts, key 50 00: value byte 8 (bytes) is 0x4a, expected 0x4b"; do
			if grep -aqF "$target target: $want" "$log"; then
				passed=$((passed + 1))
			else
				echo "FAIL: no \"$target target: $want\""
				failed=$((failed + 1))
			fi
		done
	done
	if grep -aq 'Passing: 0 ' "$log"; then passed=$((passed + 1)); else
		echo "FAIL: a wrong expectation passed:"; grep -a 'PASS\|Synthesis' "$log"
		failed=$((failed + 1))
	fi
else
	cat "$log"
	failed=$((failed + 1))
fi

# A program of one's own on the installed platform header alone: the
# target global, the device kfunc and the metadata compile for BPF, the
# kfunc stays a weak extern the kernel can leave NULL, and the installed
# command translates it for the device (the kfunc's name is the one the
# device knows).
echo "-- a program on <hwxdp/platform.h>"
cat >"$root/plat.bpf.c" <<'BPF'
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <hwxdp/platform.h>

const volatile __u32 hwxdp_target = HWXDP_TARGET_HOST;

SEC("xdp")
int plat(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	struct hwxdp_meta *meta;

	if (hwxdp_target == HWXDP_TARGET_DEVICE && bpf_hwxdp_esp_encap &&
	    !bpf_hwxdp_esp_encap(ctx, 1, 14))
		return XDP_TX;
	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(*meta)))
		return XDP_PASS;
	meta = (void *)(long)ctx->data_meta;
	data = (void *)(long)ctx->data;
	if ((void *)(meta + 1) > data)
		return XDP_PASS;
	meta->lif = 0;
	meta->egress_port = 0;
	meta->reason = HWXDP_PUNT_NO_CRYPTO;
	meta->pad = 0;
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
BPF
if ${CLANG:-clang} -g -O2 -target bpf -Wall -Werror $(pkg-config --cflags hwxdp) \
	-I/usr/include/$(${CC:-cc} -dumpmachine) -c "$root/plat.bpf.c" -o "$root/plat.bpf.o" 2>"$log"; then
	passed=$((passed + 1))
	if readelf -sW "$root/plat.bpf.o" | grep -Eq 'WEAK +DEFAULT +UND bpf_hwxdp_esp_encap$'; then
		passed=$((passed + 1))
	else
		echo "FAIL: bpf_hwxdp_esp_encap is not a weak undefined symbol of the object"
		failed=$((failed + 1))
	fi
	if "$dest$prefix/bin/hwxdp" prog translate "$root/plat.bpf.o" -o "$root/plat.hxu" >"$log" 2>&1 &&
		"$dest$prefix/bin/hwxdp" prog dump "$root/plat.hxu" 2>&1 | grep -qi 'esp'; then
		passed=$((passed + 1))
	else
		echo "FAIL: the installed hwxdp does not translate the program to an ESP command:"
		head -n 5 "$log"
		failed=$((failed + 1))
	fi
else
	echo "FAIL: a BPF program does not compile on <hwxdp/platform.h>:"; head -n 5 "$log"
	failed=$((failed + 1))
fi

# The installed completion offers the objects the command has, no more, no
# less, and the installed page and script are what the command prints.
comp=$(find "$root/dest" -path '*bash-completion/completions/hwxdp' | head -n 1)
have=$(bash -c 'source "$1"; COMP_WORDS=(hwxdp ""); COMP_CWORD=1; _hwxdp; printf "%s\n" "${COMPREPLY[@]}"' _ "$comp" 2>/dev/null | sort | xargs)
want=$("$build/hwxdp" help 2>&1 | sed -n '/^OBJECT:/,/^$/s/^  \([a-z]*\) .*/\1/p' | sort | xargs)
if [ -n "$want" ] && [ "$have" = "$want" ]; then passed=$((passed + 1)); else
	echo "FAIL: completion objects '$have', hwxdp help's '$want'"; failed=$((failed + 1)); fi
if "$build/hwxdp" help --bash-completion | cmp -s - "$comp"; then passed=$((passed + 1)); else
	echo "FAIL: the installed completion is not what hwxdp help --bash-completion prints"
	failed=$((failed + 1)); fi
page=$dest$prefix/share/man/man8/hwxdp.8
if "$build/hwxdp" help --man docs/man/hwxdp.8.in | cmp -s - "$page"; then passed=$((passed + 1)); else
	echo "FAIL: $page is not what hwxdp help --man prints"; failed=$((failed + 1)); fi

# uninstall leaves nothing of ours behind
make --no-print-directory BUILD="$build" DESTDIR="$root/dest" PREFIX=$prefix uninstall >/dev/null 2>&1
left=$(find "$root/dest" -type f -o -type l)
if [ -z "$left" ]; then passed=$((passed + 1)); else
	echo "FAIL: make uninstall left:"; echo "$left"; failed=$((failed + 1)); fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
