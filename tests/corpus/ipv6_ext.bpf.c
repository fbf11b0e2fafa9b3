// SPDX-License-Identifier: GPL-2.0
/*
 * IPv6 extension headers walked as the kernel's samples and Cilium's
 * ipv6_hdrlen do: up to four hop-by-hop, routing, destination-options or
 * fragment headers stepped over in an unrolled loop (the length in 8-byte
 * units plus one, the fragment header fixed at 8), then the upper layer:
 * ICMPv6 echo requests get their hop limit decremented and go back with
 * swapped addresses, fragments and unknown headers pass, and the hop limit
 * of everything else is checked.
 */
#include "include/corpus.h"

#define MAX_EXT 4

struct ipv6_opt_hdr_s {
	__u8 nexthdr;
	__u8 hdrlen;
};

SEC("xdp")
int xdp_ipv6_ext(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct ipv6hdr *ip6h;
	struct in6_addr tmp;
	void *pos;
	__u8 nh;
	int i;

	if ((void *)(eth + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_IPV6))
		return XDP_PASS;
	ip6h = (void *)(eth + 1);
	if ((void *)(ip6h + 1) > data_end)
		return XDP_PASS;
	nh = ip6h->nexthdr;
	pos = ip6h + 1;

#pragma unroll
	for (i = 0; i < MAX_EXT; i++) {
		struct ipv6_opt_hdr_s *opt = pos;

		switch (nh) {
		case IPPROTO_HOPOPTS:
		case IPPROTO_ROUTING:
		case IPPROTO_DSTOPTS:
			if ((void *)(opt + 1) > data_end)
				return XDP_DROP;
			nh = opt->nexthdr;
			pos += (opt->hdrlen + 1) * 8;
			break;
		case IPPROTO_FRAGMENT:
			return XDP_PASS;
		default:
			goto done;
		}
	}
done:
	if (nh != IPPROTO_ICMPV6) {
		if (ip6h->hop_limit <= 1)
			return XDP_DROP;
		return XDP_PASS;
	}
	{
		struct icmp6hdr *icmp6 = pos;

		if ((void *)(icmp6 + 1) > data_end)
			return XDP_DROP;
		if (icmp6->icmp6_type != ICMPV6_ECHO_REQUEST)
			return XDP_PASS;
	}
	if (ip6h->hop_limit <= 1)
		return XDP_DROP;
	ip6h->hop_limit--;
	__builtin_memcpy(&tmp, &ip6h->saddr, sizeof(tmp));
	__builtin_memcpy(&ip6h->saddr, &ip6h->daddr, sizeof(tmp));
	__builtin_memcpy(&ip6h->daddr, &tmp, sizeof(tmp));
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
