// SPDX-License-Identifier: GPL-2.0
/*
 * Newer libbpf-style code: counters in .bss and .data updated with atomic
 * adds, a plain store of the last ethertype in .data, a threshold in
 * .rodata, the length from bpf_xdp_get_buff_len, and the program in
 * SEC("xdp.frags") (multi-buffer aware). Two more programs sit in the
 * object as xdp_redirect_cpu's and xdp_redirect_map's do: one for a devmap
 * entry, SEC("xdp/devmap"), reading ctx->egress_ifindex, which only that
 * attach type may, and one for a cpumap entry, SEC("xdp/cpumap").
 */
#include "include/corpus.h"

static volatile __u64 frames_seen;
__u64 bytes_seen = 0;
__u32 last_proto = 7;
const volatile __u32 min_len = 60;

SEC("xdp.frags")
int xdp_frags_count(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u64 len = bpf_xdp_get_buff_len(ctx);

	__sync_fetch_and_add(&frames_seen, 1);
	__sync_fetch_and_add(&bytes_seen, len);
	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	last_proto = bpf_ntohs(eth->h_proto);
	if (len < min_len)
		return XDP_DROP;
	return XDP_PASS;
}

SEC("xdp/devmap")
int xdp_devmap_egress(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (ctx->egress_ifindex == ctx->ingress_ifindex)
		return XDP_DROP;
	eth->h_source[5] = (__u8)ctx->egress_ifindex;
	return XDP_PASS;
}

SEC("xdp/cpumap")
int xdp_cpumap_second(struct xdp_md *ctx)
{
	return ctx->rx_queue_index ? XDP_PASS : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
