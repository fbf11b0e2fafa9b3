/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tutorial's own parsing and rewriting helpers, kept in one header that
 * its lessons include: a header cursor, one parse function per header that
 * advances it and returns the next protocol (or -1), a 16-bit checksum fold,
 * and a per-CPU {packets, bytes} record of each verdict.
 */
#ifndef TUT_PARSE_H
#define TUT_PARSE_H

#include "corpus.h"

#ifndef VLAN_MAX_DEPTH
#define VLAN_MAX_DEPTH 4
#endif
#define VLAN_VID_MASK 0x0fff

#ifndef XDP_ACTION_MAX
#define XDP_ACTION_MAX (XDP_REDIRECT + 1)
#endif

struct hdr_cursor {
	void *pos;
};

struct collect_vlans {
	__u16 id[VLAN_MAX_DEPTH];
};

struct datarec {
	__u64 rx_packets;
	__u64 rx_bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct datarec);
	__uint(max_entries, XDP_ACTION_MAX);
} xdp_stats_map SEC(".maps");

static __always_inline __u32 xdp_stats_record_action(struct xdp_md *ctx, __u32 action)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct datarec *rec;

	if (action >= XDP_ACTION_MAX)
		return XDP_ABORTED;
	rec = bpf_map_lookup_elem(&xdp_stats_map, &action);
	if (!rec)
		return XDP_ABORTED;
	rec->rx_packets++;
	rec->rx_bytes += (data_end - data);
	return action;
}

static __always_inline int parse_ethhdr_vlan(struct hdr_cursor *nh, void *data_end,
					     struct ethhdr **ethhdr, struct collect_vlans *vlans)
{
	struct ethhdr *eth = nh->pos;
	int hdrsize = sizeof(*eth);
	struct vlan_hdr *vlh;
	__u16 h_proto;
	int i;

	if (nh->pos + hdrsize > data_end)
		return -1;
	nh->pos += hdrsize;
	*ethhdr = eth;
	vlh = nh->pos;
	h_proto = eth->h_proto;

#pragma unroll
	for (i = 0; i < VLAN_MAX_DEPTH; i++) {
		if (!proto_is_vlan(h_proto))
			break;
		if ((void *)(vlh + 1) > data_end)
			break;
		h_proto = vlh->h_vlan_encapsulated_proto;
		if (vlans)
			vlans->id[i] = bpf_ntohs(vlh->h_vlan_TCI) & VLAN_VID_MASK;
		vlh++;
	}
	nh->pos = vlh;
	return h_proto;
}

static __always_inline int parse_ethhdr(struct hdr_cursor *nh, void *data_end,
					struct ethhdr **ethhdr)
{
	return parse_ethhdr_vlan(nh, data_end, ethhdr, NULL);
}

static __always_inline int parse_ip6hdr(struct hdr_cursor *nh, void *data_end,
					struct ipv6hdr **ip6hdr)
{
	struct ipv6hdr *ip6h = nh->pos;

	if ((void *)(ip6h + 1) > data_end)
		return -1;
	nh->pos = ip6h + 1;
	*ip6hdr = ip6h;
	return ip6h->nexthdr;
}

static __always_inline int parse_iphdr(struct hdr_cursor *nh, void *data_end, struct iphdr **iphdr)
{
	struct iphdr *iph = nh->pos;
	int hdrsize;

	if ((void *)(iph + 1) > data_end)
		return -1;
	hdrsize = iph->ihl * 4;
	if (hdrsize < sizeof(*iph))
		return -1;
	if (nh->pos + hdrsize > data_end)
		return -1;
	nh->pos += hdrsize;
	*iphdr = iph;
	return iph->protocol;
}

static __always_inline int parse_icmp6hdr(struct hdr_cursor *nh, void *data_end,
					  struct icmp6hdr **icmp6hdr)
{
	struct icmp6hdr *icmp6h = nh->pos;

	if ((void *)(icmp6h + 1) > data_end)
		return -1;
	nh->pos = icmp6h + 1;
	*icmp6hdr = icmp6h;
	return icmp6h->icmp6_type;
}

static __always_inline int parse_icmphdr(struct hdr_cursor *nh, void *data_end,
					 struct icmphdr **icmphdr)
{
	struct icmphdr *icmph = nh->pos;

	if ((void *)(icmph + 1) > data_end)
		return -1;
	nh->pos = icmph + 1;
	*icmphdr = icmph;
	return icmph->type;
}

static __always_inline int parse_udphdr(struct hdr_cursor *nh, void *data_end,
					struct udphdr **udphdr)
{
	struct udphdr *h = nh->pos;
	int len;

	if ((void *)(h + 1) > data_end)
		return -1;
	nh->pos = h + 1;
	*udphdr = h;
	len = bpf_ntohs(h->len) - sizeof(struct udphdr);
	if (len < 0)
		return -1;
	return len;
}

static __always_inline int parse_tcphdr(struct hdr_cursor *nh, void *data_end,
					struct tcphdr **tcphdr)
{
	struct tcphdr *h = nh->pos;
	int len;

	if ((void *)(h + 1) > data_end)
		return -1;
	len = h->doff * 4;
	if (len < sizeof(*h))
		return -1;
	if (nh->pos + len > data_end)
		return -1;
	nh->pos += len;
	*tcphdr = h;
	return len;
}

static __always_inline __u16 csum_fold_helper(__u32 csum)
{
	__u32 sum;

	sum = (csum >> 16) + (csum & 0xffff);
	sum += (sum >> 16);
	return ~sum;
}

/* RFC 1624: HC' = ~(~HC + ~m + m'), for one 16-bit word. */
static __always_inline __u16 icmp_checksum_diff(__u16 seed, struct icmphdr *icmphdr_new,
						struct icmphdr *icmphdr_old)
{
	__u32 csum, size = sizeof(struct icmphdr);

	csum = bpf_csum_diff((__be32 *)icmphdr_old, size, (__be32 *)icmphdr_new, size, seed);
	return csum_fold_helper(csum);
}

static __always_inline void swap_src_dst_mac(struct ethhdr *eth)
{
	__u8 h_tmp[ETH_ALEN];

	__builtin_memcpy(h_tmp, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, h_tmp, ETH_ALEN);
}

static __always_inline void swap_src_dst_ipv6(struct ipv6hdr *ipv6)
{
	struct in6_addr tmp = ipv6->saddr;

	ipv6->saddr = ipv6->daddr;
	ipv6->daddr = tmp;
}

static __always_inline void swap_src_dst_ipv4(struct iphdr *iphdr)
{
	__be32 tmp = iphdr->saddr;

	iphdr->saddr = iphdr->daddr;
	iphdr->daddr = tmp;
}

#endif
