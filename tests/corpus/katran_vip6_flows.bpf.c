// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of Katran's balancer: an IPv6 TCP or UDP frame's
 * destination, port and protocol are a VIP key (struct vip_definition, an
 * address union of 16 bytes, the port, the protocol: 20 bytes with its
 * padding); a frame for no VIP passes to the stack. For a VIP, the
 * connection table, an LRU hash keyed by the frame's addresses and ports
 * (36 bytes), names the real that served the flow before: the frame is sent
 * back out (XDP_TX, MACs swapped, as a one-armed balancer) with the real's
 * index in the flow label, and counted in the VIP's stats. A VIP frame of
 * no known flow is dropped, as Katran drops what its ring cannot place; a
 * frame cut short aborts.
 */
#include "include/corpus.h"

#define F_LRU_BYPASS (1 << 1)

struct vip_definition {
	union {
		__be32 vip;
		__be32 vipv6[4];
	};
	__u16 port;
	__u8 proto;
};

struct vip_meta {
	__u32 flags;
	__u32 vip_num;
};

struct flow6_key {
	__be32 srcv6[4];
	__be32 dstv6[4];
	union {
		__u32 ports;
		__u16 port16[2];
	};
};

struct real_pos_lru {
	__u32 pos;
	__u64 atime;
};

struct lb_stats {
	__u64 v1;
	__u64 v2;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct vip_definition);
	__type(value, struct vip_meta);
	__uint(max_entries, 512);
} vip_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, struct flow6_key);
	__type(value, struct real_pos_lru);
	__uint(max_entries, 4096);
} lru_v6 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct lb_stats);
	__uint(max_entries, 64);
} stats SEC(".maps");

static __always_inline void swap_mac(struct ethhdr *eth)
{
	__u8 tmp[ETH_ALEN];

	__builtin_memcpy(tmp, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, tmp, ETH_ALEN);
}

SEC("xdp")
int balancer_ingress_v6(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct vip_definition vip = {};
	struct flow6_key flow = {};
	struct real_pos_lru *dst;
	struct vip_meta *vip_info;
	struct lb_stats *st;
	struct ipv6hdr *ip6h;
	__u32 stats_key;

	if ((void *)(eth + 1) > data_end)
		return XDP_ABORTED;
	if (eth->h_proto != bpf_htons(ETH_P_IPV6))
		return XDP_PASS;
	ip6h = (void *)(eth + 1);
	if ((void *)(ip6h + 1) > data_end)
		return XDP_ABORTED;
	if (ip6h->nexthdr == IPPROTO_TCP) {
		struct tcphdr *th = (void *)(ip6h + 1);

		if ((void *)(th + 1) > data_end)
			return XDP_ABORTED;
		flow.port16[0] = th->source;
		flow.port16[1] = th->dest;
	} else if (ip6h->nexthdr == IPPROTO_UDP) {
		struct udphdr *uh = (void *)(ip6h + 1);

		if ((void *)(uh + 1) > data_end)
			return XDP_ABORTED;
		flow.port16[0] = uh->source;
		flow.port16[1] = uh->dest;
	} else {
		return XDP_PASS;
	}

	__builtin_memcpy(vip.vipv6, &ip6h->daddr, sizeof(vip.vipv6));
	vip.port = flow.port16[1];
	vip.proto = ip6h->nexthdr;
	vip_info = bpf_map_lookup_elem(&vip_map, &vip);
	if (!vip_info)
		return XDP_PASS;

	__builtin_memcpy(flow.srcv6, &ip6h->saddr, sizeof(flow.srcv6));
	__builtin_memcpy(flow.dstv6, &ip6h->daddr, sizeof(flow.dstv6));
	dst = bpf_map_lookup_elem(&lru_v6, &flow);
	if (!dst)
		return XDP_DROP;

	stats_key = vip_info->vip_num & 63;
	st = bpf_map_lookup_elem(&stats, &stats_key);
	if (st) {
		__sync_fetch_and_add(&st->v1, 1);
		__sync_fetch_and_add(&st->v2, (__u64)(data_end - data));
	}
	ip6h->flow_lbl[2] = (__u8)dst->pos;
	swap_mac(eth);
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
