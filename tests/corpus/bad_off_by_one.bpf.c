// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. A cursor-style parser whose check covers the
 * Ethernet header and the first 19 bytes of the IPv4 header only (an
 * off-by-one in the length), and then reads the last byte of the
 * destination address.
 */
#include "include/corpus.h"

SEC("xdp")
int xdp_off_by_one(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u8 *p = data;

	if (data + ETH_HLEN + sizeof(struct iphdr) - 1 > data_end)
		return XDP_PASS;
	if (p[12] != 0x08 || p[13] != 0x00)
		return XDP_PASS;
	return p[ETH_HLEN + 19] == 1 ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
