// SPDX-License-Identifier: GPL-2.0
/*
 * For tests/devdiff/test_tail_values.c: a tail call after a map write into
 * a program, named by the array's definition, that calls a host-only helper.
 * The device would punt there, and the host copy, run from the start,
 * would count the frame twice: the device refuses the object, the kernel
 * runs it. pkt_entry writes nothing before its tail call, so its stage may
 * punt.
 */
#include "../../corpus/include/corpus.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} seen SEC(".maps");

struct jump_map {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__array(values, int(struct xdp_md *));
};

extern struct jump_map jump, jump_clean;

SEC("xdp")
int count_entry(struct xdp_md *ctx)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&seen, &zero);

	if (n)
		__sync_fetch_and_add(n, 1);
	bpf_tail_call(ctx, &jump, 0);
	return XDP_PASS;
}

SEC("xdp")
int clean_entry(struct xdp_md *ctx)
{
	bpf_tail_call(ctx, &jump_clean, 0);
	return XDP_PASS;
}

SEC("xdp")
int host_stage(struct xdp_md *ctx)
{
	return bpf_jiffies64() & 1 ? XDP_PASS : XDP_DROP;
}

struct jump_map jump SEC(".maps") = {
	.values = { [0] = (void *)&host_stage },
};

struct jump_map jump_clean SEC(".maps") = {
	.values = { [0] = (void *)&host_stage },
};

char _license[] SEC("license") = "GPL";
