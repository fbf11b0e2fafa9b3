// SPDX-License-Identifier: GPL-2.0
/*
 * Section names of the samples/bpf era, given with the attribute itself
 * rather than SEC(): "xdp_drop", "xdp_pass" and "xdp_filter" for three
 * programs of one object that an old loader told apart by name, and BTF
 * maps beside them. The first, the one a loader translates, drops IPv4
 * from a blocked host or /24 kept in a hash keyed by the address, counting
 * hits; the others pass everything and drop everything but ARP.
 */
#include "include/corpus.h"

#define ETH_P_ARP 0x0806

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 64);
} blocked_nets __attribute__((section(".maps"), used));

__attribute__((section("xdp_drop"), used)) int xdp_drop_nets(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph;
	__u32 net;
	__u64 *hits;

	if (data + sizeof(*eth) + sizeof(*iph) > data_end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = data + sizeof(*eth);
	/* a host entry first, then its /24 network with the last byte cleared */
	net = iph->saddr;
	hits = bpf_map_lookup_elem(&blocked_nets, &net);
	if (!hits) {
		net = iph->saddr & bpf_htonl(0xffffff00);
		hits = bpf_map_lookup_elem(&blocked_nets, &net);
	}
	if (!hits)
		return XDP_PASS;
	__sync_fetch_and_add(hits, 1);
	return XDP_DROP;
}

__attribute__((section("xdp_pass"), used)) int xdp_pass_all(struct xdp_md *ctx)
{
	return XDP_PASS;
}

__attribute__((section("xdp_filter"), used)) int xdp_arp_only(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	return eth->h_proto == bpf_htons(ETH_P_ARP) ? XDP_PASS : XDP_DROP;
}

char _license[] __attribute__((section("license"), used)) = "GPL";
