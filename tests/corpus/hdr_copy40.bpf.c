// SPDX-License-Identifier: GPL-2.0
/*
 * Whole headers moved with __builtin_memcpy and struct assignment: the
 * 14-byte Ethernet header and the 40-byte IPv6 header are copied into the
 * stack, edited there (MACs and addresses exchanged, hop limit lowered, the
 * flow label's low bits set from a packed 5-tuple summary built beside
 * them), and copied back whole; a packed 13-byte flow key is filled from
 * the frame and used as the key of a hash of counters. IPv6 UDP and TCP
 * frames are reflected (XDP_TX); others pass.
 */
#include "include/corpus.h"

struct flow6 {
	__u8 src_low[4];
	__u8 dst_low[4];
	__be16 sport;
	__be16 dport;
	__u8 proto;
} __attribute__((packed));

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct flow6);
	__type(value, __u64);
	__uint(max_entries, 512);
} flows6 SEC(".maps");

SEC("xdp")
int xdp_hdr_copy40(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr eth_copy, *eth = data;
	struct ipv6hdr ip6_copy, *ip6h = data + sizeof(*eth);
	struct udphdr *l4 = (void *)(ip6h + 1);
	struct flow6 key;
	__u64 one = 1, *cnt;
	__u8 mac[ETH_ALEN];
	struct in6_addr a;

	if ((void *)(l4 + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_IPV6))
		return XDP_PASS;
	if (ip6h->nexthdr != IPPROTO_UDP && ip6h->nexthdr != IPPROTO_TCP)
		return XDP_PASS;
	if (ip6h->hop_limit <= 1)
		return XDP_DROP;

	__builtin_memcpy(&eth_copy, eth, sizeof(eth_copy));
	__builtin_memcpy(&ip6_copy, ip6h, sizeof(ip6_copy));

	__builtin_memcpy(key.src_low, &ip6_copy.saddr.in6_u.u6_addr8[12], 4);
	__builtin_memcpy(key.dst_low, &ip6_copy.daddr.in6_u.u6_addr8[12], 4);
	key.sport = l4->source;
	key.dport = l4->dest;
	key.proto = ip6_copy.nexthdr;
	cnt = bpf_map_lookup_elem(&flows6, &key);
	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	else
		bpf_map_update_elem(&flows6, &key, &one, BPF_ANY);

	__builtin_memcpy(mac, eth_copy.h_dest, ETH_ALEN);
	__builtin_memcpy(eth_copy.h_dest, eth_copy.h_source, ETH_ALEN);
	__builtin_memcpy(eth_copy.h_source, mac, ETH_ALEN);
	a = ip6_copy.saddr;
	ip6_copy.saddr = ip6_copy.daddr;
	ip6_copy.daddr = a;
	ip6_copy.hop_limit--;
	ip6_copy.flow_lbl[2] = key.sport >> 8 ^ key.dport ^ key.proto;

	__builtin_memcpy(eth, &eth_copy, sizeof(eth_copy));
	__builtin_memcpy(ip6h, &ip6_copy, sizeof(ip6_copy));
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
