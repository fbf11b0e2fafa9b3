// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of samples/bpf xdp2 as it was built for bpf_load.c: maps as
 * struct bpf_map_def in SEC("maps"), the program in SEC("xdp"). IPv4 and IPv6
 * frames have their MAC addresses swapped with 16-bit loads and stores and go
 * back out (XDP_TX), counted per protocol with an atomic add; the rest pass.
 */
#include "include/corpus.h"

struct bpf_map_def_legacy {
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int map_flags;
};

struct bpf_map_def_legacy rxcnt SEC("maps") = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u64),
	.max_entries = 256,
};

static void swap_src_dst_mac(void *data)
{
	unsigned short *p = data;
	unsigned short dst[3];

	dst[0] = p[0];
	dst[1] = p[1];
	dst[2] = p[2];
	p[0] = p[3];
	p[1] = p[4];
	p[2] = p[5];
	p[3] = dst[0];
	p[4] = dst[1];
	p[5] = dst[2];
}

SEC("xdp")
int xdp_prog2(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u64 nh_off = sizeof(*eth);
	__u32 ipproto = 0;
	__u16 h_proto;
	__u64 *value;

	if (data + nh_off > data_end)
		return XDP_DROP;
	h_proto = eth->h_proto;
	if (h_proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *iph = data + nh_off;

		if ((void *)(iph + 1) > data_end)
			return XDP_DROP;
		ipproto = iph->protocol;
	} else if (h_proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6h = data + nh_off;

		if ((void *)(ip6h + 1) > data_end)
			return XDP_DROP;
		ipproto = ip6h->nexthdr;
	} else {
		return XDP_PASS;
	}

	value = bpf_map_lookup_elem(&rxcnt, &ipproto);
	if (value)
		__sync_fetch_and_add(value, 1);
	swap_src_dst_mac(data);
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
