// SPDX-License-Identifier: GPL-2.0
/*
 * A loop as a bpf_loop callback (kernels since 5.17): the IPv6 extension
 * headers are walked one per call, through a cursor kept in a stack struct
 * the callback receives as its context. A routing header drops the frame,
 * a walk that ends on TCP or UDP passes it, one that runs out of headers or
 * of frame aborts it.
 */
#include "include/corpus.h"

#define MAX_EXT_HDRS 6

struct ext_walk {
	void *data;
	void *data_end;
	__u32 off;
	__u8 nexthdr;
	__u8 verdict;
};

static int walk_one(__u32 index, void *arg)
{
	struct ext_walk *w = arg;
	__u8 *p;

	switch (w->nexthdr) {
	case IPPROTO_TCP:
	case IPPROTO_UDP:
		w->verdict = XDP_PASS;
		return 1;
	case IPPROTO_ROUTING:
		w->verdict = XDP_DROP;
		return 1;
	case IPPROTO_HOPOPTS:
	case IPPROTO_DSTOPTS:
		break;
	default:
		w->verdict = XDP_PASS;
		return 1;
	}
	if (w->off > 256)
		return 1;
	p = w->data + w->off;
	if ((void *)(p + 2) > w->data_end)
		return 1;
	w->nexthdr = p[0];
	w->off += (p[1] + 1) * 8;
	return 0;
}

SEC("xdp")
int xdp_ext_walk(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct ipv6hdr *ip6 = data + sizeof(*eth);
	struct ext_walk w;

	if ((void *)(ip6 + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_IPV6))
		return XDP_PASS;
	w.data = data;
	w.data_end = data_end;
	w.off = sizeof(*eth) + sizeof(*ip6);
	w.nexthdr = ip6->nexthdr;
	w.verdict = XDP_ABORTED;
	bpf_loop(MAX_EXT_HDRS, walk_one, &w, 0);
	return w.verdict;
}

char _license[] SEC("license") = "GPL";
