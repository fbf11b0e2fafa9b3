// SPDX-License-Identifier: GPL-2.0
/*
 * A program for the prover's unit tests (tests/prove/test_units.c): each
 * of the kernel's four clocks read once, and kept in a map slot of its
 * own, so that a translation that reads one clock for another writes
 * another clock's reading into a slot. The kernel's copy is the device's.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} clock_seen SEC(".maps");

static __always_inline void keep(__u32 slot, __u64 ns)
{
	__u64 *seen = bpf_map_lookup_elem(&clock_seen, &slot);

	if (seen)
		*seen = ns;
}

SEC("xdp")
int unit_clocks(struct xdp_md *ctx)
{
	keep(0, bpf_ktime_get_ns());
	keep(1, bpf_ktime_get_boot_ns());
	keep(2, bpf_ktime_get_coarse_ns());
	keep(3, bpf_ktime_get_tai_ns());
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
