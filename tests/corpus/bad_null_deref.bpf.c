// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. In the style of samples/bpf xdp1 with the lookup's
 * result used without the NULL check: the per-protocol counter is
 * incremented through a pointer that may be NULL.
 */
#include "include/corpus.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 256);
} proto_cnt SEC(".maps");

SEC("xdp")
int xdp_null_deref(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u32 key;
	__u64 *v;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	key = eth->h_proto;
	v = bpf_map_lookup_elem(&proto_cnt, &key);
	*v += 1;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
