// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. An encapsulation that makes room with
 * bpf_xdp_adjust_head and then writes through the Ethernet header pointer
 * it had before the call; the kernel invalidates every packet pointer at
 * the helper, so the store is through a pointer it no longer knows.
 */
#include "include/corpus.h"

SEC("xdp")
int xdp_stale_pointer(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;

	if ((void *)(eth + 1) > data_end)
		return XDP_PASS;
	if (bpf_xdp_adjust_head(ctx, -4))
		return XDP_DROP;
	eth->h_proto = bpf_htons(ETH_P_8021Q);
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
