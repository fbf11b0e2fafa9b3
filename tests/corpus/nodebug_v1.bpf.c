// SPDX-License-Identifier: GPL-2.0
/*
 * Built as release objects of older projects were: no debug information
 * (no -g, hence no BTF, no line info and no BTF-defined maps) and for the
 * first BPF instruction set (-mcpu=v1: no 32-bit jumps, no JLT/JLE/JSLT/JSLE,
 * so clang turns every "less than" around). State lives in global data, a
 * .bss array of counters and a .data threshold, which libbpf can place in
 * maps without BTF. IPv4 frames longer than the threshold and IPv6 frames
 * with a hop limit under 2 are dropped; the rest pass, counted by family.
 */
#include "include/corpus.h"

__u64 family_count[3];
__u32 long_frame = 256;

static __always_inline void count(__u32 i)
{
	if (i < 3)
		__sync_fetch_and_add(&family_count[i], 1);
}

SEC("xdp")
int xdp_nodebug(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u64 len = data_end - data;

	if (data + sizeof(*eth) > data_end)
		return XDP_DROP;
	if (eth->h_proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *iph = data + sizeof(*eth);

		if ((void *)(iph + 1) > data_end)
			return XDP_DROP;
		count(0);
		if (bpf_ntohs(iph->tot_len) < 20 || len > long_frame)
			return XDP_DROP;
		return XDP_PASS;
	}
	if (eth->h_proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6h = data + sizeof(*eth);

		if ((void *)(ip6h + 1) > data_end)
			return XDP_DROP;
		count(1);
		if (ip6h->hop_limit < 2)
			return XDP_DROP;
		return XDP_PASS;
	}
	count(2);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
