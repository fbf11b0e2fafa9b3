// SPDX-License-Identifier: GPL-2.0
/*
 * A path-MTU guard in the manner of the samples that answer for OVN's
 * check_packet_length: an LPM trie gives the MTU of a destination network;
 * an IPv4 frame larger than that, with DF set, is dropped. Frames to other
 * networks are held against the device's own MTU with bpf_check_mtu
 * (mtu_len in, the MTU out): too large ones drop, the rest pass.
 */
#include "include/corpus.h"

#ifndef BPF_MTU_CHK_RET_FRAG_NEEDED
#define BPF_MTU_CHK_RET_FRAG_NEEDED 1
#endif

struct lpm_key {
	__u32 prefixlen;
	__be32 addr;
};

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__type(key, struct lpm_key);
	__type(value, __u32);
	__uint(max_entries, 64);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} net_mtu SEC(".maps");

SEC("xdp")
int xdp_mtu_guard(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct lpm_key key = { .prefixlen = 32 };
	struct iphdr *iph;
	__u32 mtu_len, *mtu;
	int ret;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end)
		return XDP_DROP;
	key.addr = iph->daddr;
	mtu = bpf_map_lookup_elem(&net_mtu, &key);
	if (mtu) {
		/* the map's MTU is of the IP packet; the frame has 14 more */
		if ((iph->frag_off & bpf_htons(0x4000)) &&
		    data_end - data > (long)(*mtu & 0xffff) + (long)sizeof(*eth))
			return XDP_DROP;
		return XDP_PASS;
	}
	mtu_len = (__u32)(data_end - data);
	ret = bpf_check_mtu(ctx, 0, &mtu_len, 0, 0);
	if (ret == BPF_MTU_CHK_RET_FRAG_NEEDED)
		return XDP_DROP;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
