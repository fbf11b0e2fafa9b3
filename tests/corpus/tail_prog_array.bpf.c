// SPDX-License-Identifier: GPL-2.0
/*
 * A pipeline of tail calls whose program array libbpf fills when it loads
 * the object (libbpf 0.7's `.values = { [i] = &prog }` in the map's
 * definition), as newer multi-stage programs set themselves up: the entry
 * program parses the Ethernet header and jumps by ethertype to an IPv4 or
 * IPv6 stage, each of which counts and decides; a missing stage (index
 * 2, left empty) falls through to XDP_PASS after the call.
 */
#include "include/corpus.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 4);
} stage_hits SEC(".maps");

static __always_inline void hit(__u32 i)
{
	__u64 *v = bpf_map_lookup_elem(&stage_hits, &i);

	if (v)
		__sync_fetch_and_add(v, 1);
}

struct stages_map {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__array(values, int(struct xdp_md *));
};

/* defined after the programs it holds, so that the entry comes first */
extern struct stages_map stages;

SEC("xdp")
int xdp_entry(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (eth->h_proto == bpf_htons(ETH_P_IP))
		bpf_tail_call(ctx, &stages, 0);
	else if (eth->h_proto == bpf_htons(ETH_P_IPV6))
		bpf_tail_call(ctx, &stages, 1);
	else
		bpf_tail_call(ctx, &stages, 2);
	hit(3);
	return XDP_PASS;
}

SEC("xdp")
int stage_v4(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct iphdr *iph = data + sizeof(struct ethhdr);

	hit(0);
	if ((void *)(iph + 1) > data_end)
		return XDP_DROP;
	return iph->ttl <= 1 ? XDP_DROP : XDP_PASS;
}

SEC("xdp")
int stage_v6(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ipv6hdr *ip6h = data + sizeof(struct ethhdr);

	hit(1);
	if ((void *)(ip6h + 1) > data_end)
		return XDP_DROP;
	return ip6h->hop_limit <= 1 ? XDP_DROP : XDP_PASS;
}

struct stages_map stages SEC(".maps") = {
	.values = {
		[0] = (void *)&stage_v4,
		[1] = (void *)&stage_v6,
	},
};

char _license[] SEC("license") = "GPL";
