// SPDX-License-Identifier: GPL-2.0
/*
 * Unaligned and oddly assembled loads, as hand-written parsers in the wild
 * have them: a packed struct laid over the frame at offset 14 + 1 so that
 * its 32-bit and 16-bit fields sit at odd addresses, the IPv4 source address
 * assembled from single bytes lowest first, the destination read as two
 * 16-bit halves swapped with bpf_ntohs, signed compares of a difference of
 * TTL and a threshold, and 32-bit arithmetic that wraps. The result picks
 * the verdict and a counter in an array.
 */
#include "include/corpus.h"

struct odd_view {
	__u8 vihl_tos[1];
	__be16 tot_len;
	__be16 id;
	__be16 frag;
	__u8 ttl;
	__u8 proto;
	__be16 check;
	__be32 saddr;
	__be32 daddr;
} __attribute__((packed));

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 8);
} odd_counts SEC(".maps");

SEC("xdp")
int xdp_odd_loads(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	__u8 *data = (void *)(long)ctx->data;
	struct odd_view *v;
	__u32 src, dst, mix, key, *cnt;
	__s32 margin;
	__u8 *ip;

	if (data + ETH_HLEN + 20 > (__u8 *)data_end)
		return XDP_PASS;
	if (data[12] != 0x08 || data[13] != 0x00)
		return XDP_PASS;
	ip = data + ETH_HLEN;
	v = (struct odd_view *)(ip + 1);
	if ((void *)(v + 1) > data_end)
		return XDP_PASS;

	src = (__u32)ip[12] | (__u32)ip[13] << 8 | (__u32)ip[14] << 16 | (__u32)ip[15] << 24;
	dst = ((__u32)bpf_ntohs(*(__u16 *)(ip + 18)) << 16) | bpf_ntohs(*(__u16 *)(ip + 16));
	/* the packed view is one byte late: its ttl is the real protocol */
	mix = src * 2654435761u + dst;
	mix ^= (__u32)bpf_ntohs(v->id) << 3;
	margin = (__s32)ip[8] - 32;
	key = mix & 7;
	cnt = bpf_map_lookup_elem(&odd_counts, &key);
	if (cnt)
		*cnt += (__u32)v->ttl;
	if (margin < 0)
		return XDP_DROP;
	if ((__s32)(mix - 0x80000000u) < -1000)
		return XDP_TX;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
