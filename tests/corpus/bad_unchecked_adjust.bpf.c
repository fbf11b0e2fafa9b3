// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. After bpf_xdp_adjust_tail grows the frame, the
 * pointers are reloaded but the new trailer is written at a variable offset
 * (the frame's length read from the IPv4 total length) with no check
 * against data_end.
 */
#include "include/corpus.h"

SEC("xdp")
int xdp_unchecked_trailer(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct iphdr *iph = data + ETH_HLEN;
	__u16 len;

	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;
	len = bpf_ntohs(iph->tot_len);
	if (bpf_xdp_adjust_tail(ctx, 4))
		return XDP_PASS;
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	if (data + ETH_HLEN > data_end)
		return XDP_PASS;
	*(__u32 *)(data + ETH_HLEN + len) = 0xdeadbeef;
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
