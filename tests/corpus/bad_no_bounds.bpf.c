// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. In the style of a first attempt at the
 * xdp-tutorial's parsing lesson: the Ethernet header is bounds-checked, the
 * IPv4 header behind it is not, and its protocol is read anyway.
 */
#include "include/corpus.h"

SEC("xdp")
int xdp_no_bounds(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = (void *)(eth + 1);
	return iph->protocol == IPPROTO_ICMP ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
