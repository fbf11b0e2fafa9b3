// SPDX-License-Identifier: GPL-2.0
/*
 * A global function that fills a struct through a pointer argument, as
 * libxdp-era code writes them: the kernel verifies it once against its BTF
 * prototype, where the pointer may be NULL, so the function must test it
 * before the first store (without the test the kernel refuses the object).
 * The caller passes a struct on its stack; the frame's family, L4 protocol
 * and length decide the verdict and a per-protocol counter.
 */
#include "include/corpus.h"

struct pkt_info {
	__u16 family;
	__u8 l4_proto;
	__u8 pad;
	__u32 l3_len;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 256);
} proto_count SEC(".maps");

__noinline int parse_l3(struct xdp_md *ctx, struct pkt_info *info)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;

	if (!info)
		return -1;
	if ((void *)(eth + 1) > data_end)
		return -1;
	info->family = bpf_ntohs(eth->h_proto);
	info->l3_len = data_end - (void *)(eth + 1);
	if (info->family == ETH_P_IP) {
		struct iphdr *iph = (void *)(eth + 1);

		if ((void *)(iph + 1) > data_end)
			return -1;
		info->l4_proto = iph->protocol;
	} else if (info->family == ETH_P_IPV6) {
		struct ipv6hdr *ip6h = (void *)(eth + 1);

		if ((void *)(ip6h + 1) > data_end)
			return -1;
		info->l4_proto = ip6h->nexthdr;
	} else {
		info->l4_proto = 0;
	}
	return 0;
}

SEC("xdp")
int xdp_global_ptr(struct xdp_md *ctx)
{
	struct pkt_info info = {};
	__u32 key;
	__u64 *v;

	if (parse_l3(ctx, &info))
		return XDP_DROP;
	key = info.l4_proto;
	v = bpf_map_lookup_elem(&proto_count, &key);
	if (v)
		__sync_fetch_and_add(v, 1);
	if (info.l4_proto == IPPROTO_ICMP && info.l3_len > 512)
		return XDP_DROP;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
