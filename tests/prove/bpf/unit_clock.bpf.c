// SPDX-License-Identifier: GPL-2.0
/*
 * A program for the prover's unit tests (tests/prove/test_units.c), which
 * makes the translator emit time twice: the frame's arrival is kept in a
 * map, and a frame whose handling took longer than a budget (the second
 * reading minus the first) is dropped, as bytes_helpers does. The kernel's
 * copy is the device's.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

const volatile __u64 budget_ns = 1000000000;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} last_seen SEC(".maps");

SEC("xdp")
int unit_clock(struct xdp_md *ctx)
{
	__u64 t0 = bpf_ktime_get_ns(), *seen;
	__u32 key = 0;

	seen = bpf_map_lookup_elem(&last_seen, &key);
	if (!seen)
		return XDP_ABORTED;
	*seen = t0;
	if (bpf_ktime_get_ns() - t0 > budget_ns)
		return XDP_DROP;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
