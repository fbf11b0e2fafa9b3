// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of the xdp-tutorial's VLAN exercises and the kernel's
 * xdp_vlan selftest: an untagged IPv4 frame gets an 802.1Q tag pushed
 * (bpf_xdp_adjust_head by -4, the MAC addresses moved with two 4-byte and
 * two 2-byte copies, the tag's TCI taken from a per-source config array or
 * VLAN 100), a tagged frame with VID 200 has its tag popped, and a frame
 * with two tags has its outer VID rewritten in place. All of them go out
 * with XDP_TX; anything else passes.
 */
#include "include/corpus.h"

#define VLAN_HDR_SZ 4

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u16);
	__uint(max_entries, 256);
} vid_by_src SEC(".maps");

static __always_inline int push_tag(struct xdp_md *ctx, __u16 vid)
{
	void *data_end, *data;
	struct vlan_hdr *vh;
	__u32 *p32;
	__u16 *p16, proto;

	if (bpf_xdp_adjust_head(ctx, -VLAN_HDR_SZ))
		return -1;
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	if (data + ETH_HLEN + VLAN_HDR_SZ > data_end)
		return -1;
	/* the old Ethernet header now starts VLAN_HDR_SZ bytes in */
	p32 = data;
	p32[0] = p32[1];
	p32[1] = p32[2];
	p16 = data;
	p16[4] = p16[6];
	p16[5] = p16[7];
	proto = p16[8];
	p16[6] = bpf_htons(ETH_P_8021Q);
	vh = data + 14;
	vh->h_vlan_TCI = bpf_htons(vid & 0x0fff);
	vh->h_vlan_encapsulated_proto = proto;
	return 0;
}

static __always_inline int pop_tag(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u8 macs[12];
	__u16 inner;

	if (data + ETH_HLEN + VLAN_HDR_SZ > data_end)
		return -1;
	__builtin_memcpy(macs, data, 12);
	inner = *(__u16 *)(data + 16);
	if (bpf_xdp_adjust_head(ctx, VLAN_HDR_SZ))
		return -1;
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	if (data + ETH_HLEN > data_end)
		return -1;
	__builtin_memcpy(data, macs, 12);
	*(__u16 *)(data + 12) = inner;
	return 0;
}

SEC("xdp")
int xdp_vlan_change(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct vlan_hdr *vh;
	__u16 vid, *cfg;
	__u32 key;

	if ((void *)(eth + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto == bpf_htons(ETH_P_IP)) {
		key = eth->h_source[5];
		cfg = bpf_map_lookup_elem(&vid_by_src, &key);
		vid = cfg && *cfg ? *cfg : 100;
		return push_tag(ctx, vid) ? XDP_DROP : XDP_TX;
	}
	if (!proto_is_vlan(eth->h_proto))
		return XDP_PASS;
	vh = (void *)(eth + 1);
	if ((void *)(vh + 1) > data_end)
		return XDP_PASS;
	if (proto_is_vlan(vh->h_vlan_encapsulated_proto)) {
		vh->h_vlan_TCI = (vh->h_vlan_TCI & bpf_htons(0xf000)) | bpf_htons(300);
		return XDP_TX;
	}
	if ((bpf_ntohs(vh->h_vlan_TCI) & 0x0fff) == 200)
		return pop_tag(ctx) ? XDP_DROP : XDP_TX;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
