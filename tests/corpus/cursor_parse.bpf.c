// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of the xdp-tutorial's parsing_helpers.h: a header cursor
 * moved by parse_ethhdr (VLAN tags stepped over in an unrolled loop, the
 * inner ethertype returned), parse_iphdr (variable header length from ihl),
 * parse_ip6hdr, parse_icmphdr and parse_udphdr, each returning the next
 * protocol or -1. ICMP and ICMPv6 echo requests with an even sequence number
 * are dropped, UDP to port 9 (discard) is dropped, the rest pass.
 */
#include "include/corpus.h"

#define VLAN_MAX_DEPTH 2

struct hdr_cursor {
	void *pos;
};

static __always_inline int parse_ethhdr(struct hdr_cursor *nh, void *data_end,
					struct ethhdr **ethhdr)
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
		vlh++;
	}

	nh->pos = vlh;
	return h_proto;
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
	if (hdrsize < (int)sizeof(*iph))
		return -1;
	if (nh->pos + hdrsize > data_end)
		return -1;

	nh->pos += hdrsize;
	*iphdr = iph;
	return iph->protocol;
}

static __always_inline int parse_icmphdr_common(struct hdr_cursor *nh, void *data_end,
						struct icmphdr **icmphdr)
{
	struct icmphdr *h = nh->pos;

	if ((void *)(h + 1) > data_end)
		return -1;
	nh->pos = h + 1;
	*icmphdr = h;
	return h->type;
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

SEC("xdp")
int xdp_parser_func(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u32 action = XDP_PASS;
	struct hdr_cursor nh;
	struct ethhdr *eth;
	struct iphdr *iph;
	struct ipv6hdr *ip6h;
	struct icmphdr *icmph;
	struct udphdr *udph;
	int nh_type, ip_type;

	nh.pos = data;
	nh_type = parse_ethhdr(&nh, data_end, &eth);
	if (nh_type == bpf_htons(ETH_P_IPV6)) {
		ip_type = parse_ip6hdr(&nh, data_end, &ip6h);
		if (ip_type == IPPROTO_ICMPV6) {
			if (parse_icmphdr_common(&nh, data_end, &icmph) != ICMPV6_ECHO_REQUEST)
				goto out;
			if (bpf_ntohs(icmph->un.echo.sequence) % 2 == 0)
				action = XDP_DROP;
		} else if (ip_type == IPPROTO_UDP) {
			if (parse_udphdr(&nh, data_end, &udph) < 0)
				goto out;
			if (udph->dest == bpf_htons(9))
				action = XDP_DROP;
		}
	} else if (nh_type == bpf_htons(ETH_P_IP)) {
		ip_type = parse_iphdr(&nh, data_end, &iph);
		if (ip_type == IPPROTO_ICMP) {
			if (parse_icmphdr_common(&nh, data_end, &icmph) != ICMP_ECHO)
				goto out;
			if (bpf_ntohs(icmph->un.echo.sequence) % 2 == 0)
				action = XDP_DROP;
		} else if (ip_type == IPPROTO_UDP) {
			if (parse_udphdr(&nh, data_end, &udph) < 0)
				goto out;
			if (udph->dest == bpf_htons(9))
				action = XDP_DROP;
		}
	}
out:
	return action;
}

char _license[] SEC("license") = "GPL";
