// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of Katran's IPv6 path: the VIP is the destination address
 * (a hash of 16-byte keys, IPv6 or IPv4 mapped into the last word), the
 * real picked by a hash of the source and ports over a per-VIP ring, and
 * the frame encapsulated in an outer IPv6 header (ip6ip6, or IPv4 in IPv6
 * for an IPv4 VIP with a v6 real) made in front with bpf_xdp_adjust_head:
 * the outer source is built from the inner source's hash, as Katran's
 * create_encap_ipv6_src does, the payload length from the inner one, and
 * the flow label from the ports. The frame goes back out by XDP_TX.
 */
#include "include/corpus.h"

#define RING_SIZE 31
#define MAX_VIPS  32

struct vip_meta {
	__u32 flags;
	__u32 vip_num;
};

struct real_definition {
	__u32 dstv6[4];
	__u8 flags;
	__u8 pad[3];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct in6_addr);
	__type(value, struct vip_meta);
	__uint(max_entries, MAX_VIPS);
} vip_map6 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, MAX_VIPS *RING_SIZE);
} ch_rings SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct real_definition);
	__uint(max_entries, 64);
} reals SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 4);
} lb_stats SEC(".maps");

static __always_inline void bump(__u32 what)
{
	__u64 *v = bpf_map_lookup_elem(&lb_stats, &what);

	if (v)
		*v += 1;
}

static __always_inline __u32 mix(__u32 h, __u32 v)
{
	h ^= v;
	h *= 0x01000193;
	return h ^ (h >> 15);
}

static __always_inline int encap_v6(struct xdp_md *ctx, const struct real_definition *real,
				    __u32 hash, __u16 payload_len, __u8 inner_proto)
{
	struct ipv6hdr *ip6;
	struct ethhdr *new_eth, *old_eth;
	void *data, *data_end;

	if (bpf_xdp_adjust_head(ctx, 0 - (int)sizeof(struct ipv6hdr)))
		return XDP_DROP;
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	new_eth = data;
	ip6 = data + sizeof(struct ethhdr);
	old_eth = data + sizeof(struct ipv6hdr);
	if ((void *)(ip6 + 1) > data_end || (void *)(old_eth + 1) > data_end)
		return XDP_DROP;
	__builtin_memcpy(new_eth->h_dest, old_eth->h_source, ETH_ALEN);
	__builtin_memcpy(new_eth->h_source, old_eth->h_dest, ETH_ALEN);
	new_eth->h_proto = bpf_htons(ETH_P_IPV6);

	ip6->version = 6;
	ip6->priority = 0;
	ip6->flow_lbl[0] = (hash >> 16) & 0x0f;
	ip6->flow_lbl[1] = hash >> 8;
	ip6->flow_lbl[2] = hash;
	ip6->payload_len = bpf_htons(payload_len);
	ip6->nexthdr = inner_proto;
	ip6->hop_limit = 64;
	ip6->saddr.s6_addr32[0] = bpf_htonl(0xfc000000);
	ip6->saddr.s6_addr32[1] = 0;
	ip6->saddr.s6_addr32[2] = 0;
	ip6->saddr.s6_addr32[3] = hash;
	__builtin_memcpy(&ip6->daddr, real->dstv6, 16);
	return XDP_TX;
}

SEC("xdp")
int balancer_ip6ip6(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct in6_addr vip = {};
	struct real_definition *real;
	struct vip_meta *meta;
	__u32 hash = 0x811c9dc5, key, *pos;
	__u16 payload_len, *ports;
	__u8 proto, inner;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (eth->h_proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6 = (void *)(eth + 1);

		if ((void *)(ip6 + 1) > data_end)
			return XDP_DROP;
		proto = ip6->nexthdr;
		ports = (void *)(ip6 + 1);
		__builtin_memcpy(&vip, &ip6->daddr, sizeof(vip));
#pragma unroll
		for (int i = 0; i < 4; i++)
			hash = mix(hash, ip6->saddr.s6_addr32[i]);
		payload_len = bpf_ntohs(ip6->payload_len) + sizeof(*ip6);
		inner = IPPROTO_IPV6;
	} else if (eth->h_proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *iph = (void *)(eth + 1);

		if ((void *)(iph + 1) > data_end)
			return XDP_DROP;
		if (iph->ihl != 5)
			return XDP_PASS;
		proto = iph->protocol;
		ports = (void *)(iph + 1);
		vip.s6_addr32[3] = iph->daddr;
		hash = mix(hash, iph->saddr);
		payload_len = bpf_ntohs(iph->tot_len);
		inner = IPPROTO_IPIP;
	} else {
		return XDP_PASS;
	}
	if (proto != IPPROTO_TCP && proto != IPPROTO_UDP)
		return XDP_PASS;
	if ((void *)(ports + 2) > data_end)
		return XDP_DROP;
	meta = bpf_map_lookup_elem(&vip_map6, &vip);
	if (!meta) {
		bump(0);
		return XDP_PASS;
	}
	hash = mix(hash, (__u32)ports[0] << 16 | ports[1]);
	key = (meta->vip_num % MAX_VIPS) * RING_SIZE + hash % RING_SIZE;
	pos = bpf_map_lookup_elem(&ch_rings, &key);
	if (!pos)
		return XDP_DROP;
	key = *pos & 63;
	real = bpf_map_lookup_elem(&reals, &key);
	if (!real)
		return XDP_DROP;
	if (payload_len > 1400) {
		bump(2);
		return XDP_PASS;
	}
	bump(1);
	return encap_v6(ctx, real, hash, payload_len, inner);
}

char _license[] SEC("license") = "GPL";
