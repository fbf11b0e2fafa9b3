// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of Suricata's xdp_filter.c: flows the IDS chose to bypass
 * sit in LRU per-CPU hashes keyed by a packed 5-tuple (IPv4 and IPv6 apart,
 * ports in network order, the VLAN ids kept in the key); a hit adds to the
 * flow's packet and byte counters in the direction the frame goes and drops
 * it, a miss passes. The VLAN tags are read through a packed struct.
 */
#include "include/corpus.h"

struct flowv4_keys {
	__u32 src;
	__u32 dst;
	union {
		__u32 ports;
		__u16 port16[2];
	};
	__u8 ip_proto : 1;
	__u16 vlan0 : 15;
	__u16 vlan1;
};

struct flowv6_keys {
	__u32 src[4];
	__u32 dst[4];
	union {
		__u32 ports;
		__u16 port16[2];
	};
	__u8 ip_proto : 1;
	__u16 vlan0 : 15;
	__u16 vlan1;
};

struct pair {
	__u64 packets;
	__u64 bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_PERCPU_HASH);
	__type(key, struct flowv4_keys);
	__type(value, struct pair);
	__uint(max_entries, 32768);
} flow_table_v4 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_PERCPU_HASH);
	__type(key, struct flowv6_keys);
	__type(value, struct pair);
	__uint(max_entries, 32768);
} flow_table_v6 SEC(".maps");

struct vlan_tag {
	__u16 tci;
	__u16 proto;
} __attribute__((packed));

static __always_inline int get_sport(void *trans_data, void *data_end, __u8 protocol)
{
	struct tcphdr *th = trans_data;
	struct udphdr *uh = trans_data;

	switch (protocol) {
	case IPPROTO_TCP:
		if ((void *)(th + 1) > data_end)
			return -1;
		return th->source;
	case IPPROTO_UDP:
		if ((void *)(uh + 1) > data_end)
			return -1;
		return uh->source;
	default:
		return 0;
	}
}

static __always_inline int get_dport(void *trans_data, void *data_end, __u8 protocol)
{
	struct tcphdr *th = trans_data;
	struct udphdr *uh = trans_data;

	switch (protocol) {
	case IPPROTO_TCP:
		if ((void *)(th + 1) > data_end)
			return -1;
		return th->dest;
	case IPPROTO_UDP:
		if ((void *)(uh + 1) > data_end)
			return -1;
		return uh->dest;
	default:
		return 0;
	}
}

static __always_inline int filter_ipv4(struct xdp_md *ctx, void *data, __u64 nh_off, void *data_end,
				       __u16 vlan0, __u16 vlan1)
{
	struct iphdr *iph = data + nh_off;
	struct flowv4_keys tuple;
	struct pair *value;
	int sport, dport;

	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;
	if (iph->protocol != IPPROTO_TCP && iph->protocol != IPPROTO_UDP)
		return XDP_PASS;
	if (iph->ihl != 5)
		return XDP_PASS;
	dport = get_dport(iph + 1, data_end, iph->protocol);
	if (dport == -1)
		return XDP_PASS;
	sport = get_sport(iph + 1, data_end, iph->protocol);
	if (sport == -1)
		return XDP_PASS;

	__builtin_memset(&tuple, 0, sizeof(tuple));
	tuple.ip_proto = (__u8)(iph->protocol == IPPROTO_TCP ? 1 : 0);
	tuple.src = iph->saddr;
	tuple.dst = iph->daddr;
	tuple.port16[0] = (__u16)sport;
	tuple.port16[1] = (__u16)dport;
	tuple.vlan0 = vlan0;
	tuple.vlan1 = vlan1;

	value = bpf_map_lookup_elem(&flow_table_v4, &tuple);
	if (value) {
		value->packets++;
		value->bytes += data_end - data;
		return XDP_DROP;
	}
	return XDP_PASS;
}

static __always_inline int filter_ipv6(struct xdp_md *ctx, void *data, __u64 nh_off, void *data_end,
				       __u16 vlan0, __u16 vlan1)
{
	struct ipv6hdr *ip6h = data + nh_off;
	struct flowv6_keys tuple;
	struct pair *value;
	int sport, dport;

	if ((void *)(ip6h + 1) > data_end)
		return XDP_PASS;
	if (ip6h->nexthdr != IPPROTO_TCP && ip6h->nexthdr != IPPROTO_UDP)
		return XDP_PASS;
	dport = get_dport(ip6h + 1, data_end, ip6h->nexthdr);
	if (dport == -1)
		return XDP_PASS;
	sport = get_sport(ip6h + 1, data_end, ip6h->nexthdr);
	if (sport == -1)
		return XDP_PASS;

	__builtin_memset(&tuple, 0, sizeof(tuple));
	tuple.ip_proto = ip6h->nexthdr == IPPROTO_TCP ? 1 : 0;
	__builtin_memcpy(tuple.src, ip6h->saddr.in6_u.u6_addr32, sizeof(tuple.src));
	__builtin_memcpy(tuple.dst, ip6h->daddr.in6_u.u6_addr32, sizeof(tuple.dst));
	tuple.port16[0] = sport;
	tuple.port16[1] = dport;
	tuple.vlan0 = vlan0;
	tuple.vlan1 = vlan1;

	value = bpf_map_lookup_elem(&flow_table_v6, &tuple);
	if (value) {
		value->packets++;
		value->bytes += data_end - data;
		return XDP_DROP;
	}
	return XDP_PASS;
}

SEC("xdp")
int xdp_hashfilter(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u16 vlan0 = 0, vlan1 = 0;
	__u16 h_proto;
	__u64 nh_off;

	nh_off = sizeof(*eth);
	if (data + nh_off > data_end)
		return XDP_PASS;
	h_proto = eth->h_proto;

	if (h_proto == bpf_htons(ETH_P_8021Q) || h_proto == bpf_htons(ETH_P_8021AD)) {
		struct vlan_tag *vh = data + nh_off;

		nh_off += sizeof(*vh);
		if (data + nh_off > data_end)
			return XDP_PASS;
		h_proto = vh->proto;
		vlan0 = vh->tci & 0x0fff;
	}
	if (h_proto == bpf_htons(ETH_P_8021Q) || h_proto == bpf_htons(ETH_P_8021AD)) {
		struct vlan_tag *vh = data + nh_off;

		nh_off += sizeof(*vh);
		if (data + nh_off > data_end)
			return XDP_PASS;
		h_proto = vh->proto;
		vlan1 = vh->tci & 0x0fff;
	}

	if (h_proto == bpf_htons(ETH_P_IP))
		return filter_ipv4(ctx, data, nh_off, data_end, vlan0, vlan1);
	if (h_proto == bpf_htons(ETH_P_IPV6))
		return filter_ipv6(ctx, data, nh_off, data_end, vlan0, vlan1);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
