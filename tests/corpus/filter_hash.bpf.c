// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of xdp-tools' xdp-filter: hash maps of IPv4 and IPv6
 * addresses and an array of ports, each value a bit mask saying which fields
 * it matches (source, destination, TCP, UDP) and a per-entry hit counter
 * updated with an atomic add. A frame that matches any is dropped (or, with
 * the allow-mode switch in a configuration array, only matching frames
 * pass). Ports are looked up by their host-order value.
 */
#include "include/corpus.h"

#define MAP_FLAG_SRC (1 << 0)
#define MAP_FLAG_DST (1 << 1)
#define MAP_FLAG_TCP (1 << 2)
#define MAP_FLAG_UDP (1 << 3)

#define FILTER_ALLOW 1

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1024);
} filter_ipv4 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct in6_addr);
	__type(value, __u64);
	__uint(max_entries, 1024);
} filter_ipv6 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 65536);
} filter_ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 1);
} filter_mode SEC(".maps");

/* the mask sits in the low byte, the hit count above it */
static __always_inline int check_mask(__u64 *value, __u8 mask)
{
	if (value && (*value & mask)) {
		__sync_fetch_and_add(value, 1 << 8);
		return 1;
	}
	return 0;
}

static __always_inline int lookup_port(__u16 port, __u8 mask)
{
	__u32 key = port;

	return check_mask(bpf_map_lookup_elem(&filter_ports, &key), mask);
}

static __always_inline int l4_match(void *l4, void *data_end, __u8 proto)
{
	if (proto == IPPROTO_TCP) {
		struct tcphdr *tcph = l4;

		if ((void *)(tcph + 1) > data_end)
			return 0;
		return lookup_port(bpf_ntohs(tcph->source), MAP_FLAG_SRC | MAP_FLAG_TCP) ||
		       lookup_port(bpf_ntohs(tcph->dest), MAP_FLAG_DST | MAP_FLAG_TCP);
	}
	if (proto == IPPROTO_UDP) {
		struct udphdr *udph = l4;

		if ((void *)(udph + 1) > data_end)
			return 0;
		return lookup_port(bpf_ntohs(udph->source), MAP_FLAG_SRC | MAP_FLAG_UDP) ||
		       lookup_port(bpf_ntohs(udph->dest), MAP_FLAG_DST | MAP_FLAG_UDP);
	}
	return 0;
}

SEC("xdp")
int xdpfilt_alw_all(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	int match = 0;
	__u32 zero = 0, *mode;
	__u16 proto;

	if ((void *)(eth + 1) > data_end)
		return XDP_PASS;
	proto = eth->h_proto;
	if (proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *iph = (void *)(eth + 1);
		__u32 a;

		if ((void *)(iph + 1) > data_end)
			return XDP_PASS;
		a = iph->saddr;
		match = check_mask(bpf_map_lookup_elem(&filter_ipv4, &a), MAP_FLAG_SRC);
		a = iph->daddr;
		match = match || check_mask(bpf_map_lookup_elem(&filter_ipv4, &a), MAP_FLAG_DST);
		if (!match && iph->ihl == 5)
			match = l4_match(iph + 1, data_end, iph->protocol);
	} else if (proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6h = (void *)(eth + 1);
		struct in6_addr a;

		if ((void *)(ip6h + 1) > data_end)
			return XDP_PASS;
		__builtin_memcpy(&a, &ip6h->saddr, sizeof(a));
		match = check_mask(bpf_map_lookup_elem(&filter_ipv6, &a), MAP_FLAG_SRC);
		__builtin_memcpy(&a, &ip6h->daddr, sizeof(a));
		match = match || check_mask(bpf_map_lookup_elem(&filter_ipv6, &a), MAP_FLAG_DST);
		if (!match)
			match = l4_match(ip6h + 1, data_end, ip6h->nexthdr);
	}
	mode = bpf_map_lookup_elem(&filter_mode, &zero);
	if (mode && *mode == FILTER_ALLOW)
		return match ? XDP_PASS : XDP_DROP;
	return match ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
