// SPDX-License-Identifier: GPL-2.0
/*
 * A program for the prover's unit tests (tests/prove/test_units.c), which
 * makes the translator emit one unit: csum16: a TTL decrement with its checksum update, as fwd has
 * it. It reads no hwxdp_target: the kernel's copy is the device's, so the kernel replays its
 * counterexamples.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>

#define SEC(name) __attribute__((section(name), used))
#define htons(x)  __builtin_bswap16(x)

/* IPv4 frames with a TTL above 1 leave by the port they came in on, TTL
 * one less and the header checksum updated (RFC 1624). */
SEC("xdp") int ttl_csum(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *iph = data + sizeof(*eth);
	__u32 check;

	if ((void *)(iph + 1) > end)
		return XDP_DROP;
	if (eth->h_proto != htons(ETH_P_IP) || iph->ttl <= 1)
		return XDP_PASS;
	check = iph->check;
	check += htons(0x0100);
	iph->check = (__u16)(check + (check >= 0xffff));
	iph->ttl--;
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
