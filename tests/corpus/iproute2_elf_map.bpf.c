// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of programs written for iproute2's loader (`ip link set dev
 * D xdp obj F.o sec prog`, older Cilium): maps as struct bpf_elf_map in
 * SEC("maps"), nine words each with the pinning and inner-map fields the
 * loader reads, and the program in SEC("prog"). IPv4 frames are counted per
 * protocol in a per-CPU array; a source address in the drop hash drops.
 */
#include "include/corpus.h"

struct bpf_elf_map {
	__u32 type;
	__u32 size_key;
	__u32 size_value;
	__u32 max_elem;
	__u32 flags;
	__u32 id;
	__u32 pinning;
	__u32 inner_id;
	__u32 inner_idx;
};

#define PIN_GLOBAL_NS 2

struct bpf_elf_map SEC("maps") proto_cnt = {
	.type = BPF_MAP_TYPE_PERCPU_ARRAY,
	.size_key = sizeof(__u32),
	.size_value = sizeof(__u64),
	.max_elem = 256,
	.pinning = PIN_GLOBAL_NS,
};

struct bpf_elf_map SEC("maps") drop_src = {
	.type = BPF_MAP_TYPE_HASH,
	.size_key = sizeof(__u32),
	.size_value = sizeof(__u32),
	.max_elem = 64,
};

SEC("prog")
int xdp_tc_style(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = data + sizeof(*eth);
	__u32 key;
	__u64 *c;

	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	key = iph->protocol;
	c = bpf_map_lookup_elem(&proto_cnt, &key);
	if (c)
		*c += 1;
	key = iph->saddr;
	if (bpf_map_lookup_elem(&drop_src, &key))
		return XDP_DROP;
	return XDP_PASS;
}

char __license[] SEC("license") = "GPL";
