// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of the xdp-tutorial's packet rewriting lesson: the outermost
 * VLAN tag is popped (the MACs moved forward over it with the tag saved
 * first, the head then shrunk with bpf_xdp_adjust_head), and the destination
 * port of UDP and TCP is decremented with the L4 checksum fixed up by the
 * one's-complement rule (RFC 1624) on the 16-bit word that changed. Frames
 * that change go back out with XDP_TX.
 */
#include "include/corpus.h"

struct hdr_cursor {
	void *pos;
};

static __always_inline __u16 csum16_add(__u16 csum, __u16 addend)
{
	__u32 res = (__u32)csum + addend;

	return (__u16)(res + (res >> 16));
}

static __always_inline __u16 csum_replace2(__u16 check, __u16 old, __u16 new)
{
	return ~csum16_add(csum16_add(~check, ~old), new);
}

static __always_inline int vlan_tag_pop(struct xdp_md *ctx, struct ethhdr *eth)
{
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr eth_cpy;
	struct vlan_hdr *vlh;
	__be16 h_proto;
	int vlid;

	if (!proto_is_vlan(eth->h_proto))
		return -1;
	vlh = (void *)(eth + 1);
	if ((void *)(vlh + 1) > data_end)
		return -1;
	vlid = bpf_ntohs(vlh->h_vlan_TCI) & 0x0fff;
	h_proto = vlh->h_vlan_encapsulated_proto;

	__builtin_memcpy(&eth_cpy, eth, sizeof(eth_cpy));
	if (bpf_xdp_adjust_head(ctx, (int)sizeof(*vlh)))
		return -1;

	eth = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	if ((void *)(eth + 1) > data_end)
		return -1;
	__builtin_memcpy(eth, &eth_cpy, sizeof(*eth));
	eth->h_proto = h_proto;
	return vlid;
}

SEC("xdp")
int xdp_port_rewrite_func(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct hdr_cursor nh = { .pos = data };
	struct ethhdr *eth = data;
	int changed = 0, popped;
	__u16 proto;
	__u8 l4;

	if ((void *)(eth + 1) > data_end)
		return XDP_ABORTED;
	popped = vlan_tag_pop(ctx, eth);
	if (popped >= 0)
		changed = 1;

	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	eth = data;
	if ((void *)(eth + 1) > data_end)
		return XDP_ABORTED;
	nh.pos = eth + 1;
	proto = bpf_ntohs(eth->h_proto);
	if (proto == ETH_P_IP) {
		struct iphdr *iph = nh.pos;

		if ((void *)(iph + 1) > data_end)
			goto out;
		if (iph->ihl != 5)
			goto out;
		l4 = iph->protocol;
		nh.pos = iph + 1;
	} else if (proto == ETH_P_IPV6) {
		struct ipv6hdr *ip6h = nh.pos;

		if ((void *)(ip6h + 1) > data_end)
			goto out;
		l4 = ip6h->nexthdr;
		nh.pos = ip6h + 1;
	} else {
		goto out;
	}

	if (l4 == IPPROTO_UDP) {
		struct udphdr *udph = nh.pos;
		__u16 old;

		if ((void *)(udph + 1) > data_end)
			goto out;
		old = udph->dest;
		udph->dest = bpf_htons(bpf_ntohs(udph->dest) - 1);
		if (udph->check)
			udph->check = csum_replace2(udph->check, old, udph->dest);
		changed = 1;
	} else if (l4 == IPPROTO_TCP) {
		struct tcphdr *tcph = nh.pos;
		__u16 old;

		if ((void *)(tcph + 1) > data_end)
			goto out;
		old = tcph->dest;
		tcph->dest = bpf_htons(bpf_ntohs(tcph->dest) - 1);
		tcph->check = csum_replace2(tcph->check, old, tcph->dest);
		changed = 1;
	}
out:
	return changed ? XDP_TX : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
