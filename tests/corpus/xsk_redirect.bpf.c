// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of OVS's AF_XDP and libxdp's default program: a frame goes
 * to the AF_XDP socket bound to its receive queue through an XSKMAP, with
 * XDP_PASS as the fallback when no socket is there; a per-queue counter in
 * an array records the attempts; ARP always goes to the stack.
 */
#include "include/corpus.h"

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(int));
	__uint(max_entries, 64);
} xsks_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 64);
} xsk_attempts SEC(".maps");

SEC("xdp")
int xsk_def_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u32 index = ctx->rx_queue_index;
	__u64 *cnt;

	if ((void *)(eth + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto == bpf_htons(ETH_P_ARP))
		return XDP_PASS;
	cnt = bpf_map_lookup_elem(&xsk_attempts, &index);
	if (cnt != NULL)
		__sync_fetch_and_add(cnt, 1);
	return bpf_redirect_map(&xsks_map, index, XDP_PASS);
}

char _license[] SEC("license") = "GPL";
