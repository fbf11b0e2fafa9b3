// SPDX-License-Identifier: GPL-2.0
/*
 * Programs for `hwxdp prog prove`: no maps, no helpers, the packet only, so
 * that the prover covers all of them. odd_order assembles a u32 from four
 * packet bytes in an order that is neither memory nor network order, the
 * shape the HWXDP_MUTANT_COMBINE_ORDER translator gets wrong.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>

#define SEC(name) __attribute__((section(name), used))

SEC("xdp") int odd_order(struct xdp_md *ctx)
{
	unsigned char *p = (unsigned char *)(long)ctx->data;
	unsigned char *end = (unsigned char *)(long)ctx->data_end;
	unsigned int v;

	if (p + 48 > end)
		return XDP_DROP;
	v = (unsigned int)p[5] << 24 | (unsigned int)p[4] << 16 | (unsigned int)p[7] << 8 | p[6];
	*(volatile unsigned int *)(p + 40) = v;
	if (p[12] == 0x08 && p[13] == 0x00)
		return XDP_TX;
	return XDP_PASS;
}

/* Sends IPv4 frames back where they came from, MACs swapped. */
SEC("xdp") int swap_macs(struct xdp_md *ctx)
{
	unsigned char *p = (unsigned char *)(long)ctx->data;
	unsigned char *end = (unsigned char *)(long)ctx->data_end;
	unsigned char t;

	if (p + ETH_HLEN > end)
		return XDP_ABORTED;
	if (((struct ethhdr *)p)->h_proto != __builtin_bswap16(ETH_P_IP))
		return XDP_PASS;
	for (int i = 0; i < ETH_ALEN; i++) {
		t = p[i];
		p[i] = p[ETH_ALEN + i];
		p[ETH_ALEN + i] = t;
	}
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
