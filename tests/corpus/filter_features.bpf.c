// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of xdp-tools' xdp-filter, whose one source is built in
 * several feature sets by #defines: this build has FILTER_ETHERNET,
 * FILTER_IPV4, FILTER_IPV6 and FILTER_UDP, FILTER_TCP left out. Up to two
 * VLAN tags are stepped over with the parsing helpers' cursor; the source
 * MAC, the IPv4 or IPv6 source and destination, and the UDP destination
 * port are each looked up (hash maps, an array of ports), every hit
 * counted in the entry with an atomic add. A per-CPU array counts the
 * verdicts. All helpers are __always_inline, as the tools' headers make
 * them.
 */
#include "include/corpus.h"

#define FILTER_ETHERNET 1
#define FILTER_IPV4	1
#define FILTER_IPV6	1
#define FILTER_UDP	1
/* #define FILTER_TCP 1: the build without it */

#define VLAN_MAX_DEPTH 2

#define MAP_FLAG_SRC (1 << 0)
#define MAP_FLAG_DST (1 << 1)
#define MAP_FLAG_TCP (1 << 2)
#define MAP_FLAG_UDP (1 << 3)
#define MAP_FLAGS    (MAP_FLAG_SRC | MAP_FLAG_DST | MAP_FLAG_TCP | MAP_FLAG_UDP)

#define COUNTER_SHIFT 6

#define FILTER_ACT XDP_DROP
#define PASS_ACT   XDP_PASS

struct hdr_cursor {
	void *pos;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, XDP_REDIRECT + 1);
} xdp_stats_map SEC(".maps");

#ifdef FILTER_ETHERNET
struct ethaddr {
	__u8 addr[ETH_ALEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct ethaddr);
	__type(value, __u64);
	__uint(max_entries, 1024);
} filter_ethernet SEC(".maps");
#endif

#ifdef FILTER_IPV4
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1024);
} filter_ipv4 SEC(".maps");
#endif

#ifdef FILTER_IPV6
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct in6_addr);
	__type(value, __u64);
	__uint(max_entries, 1024);
} filter_ipv6 SEC(".maps");
#endif

#if defined(FILTER_UDP) || defined(FILTER_TCP)
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 65536);
} filter_ports SEC(".maps");
#endif

static __always_inline int parse_ethhdr(struct hdr_cursor *nh, void *data_end,
					struct ethhdr **ethhdr)
{
	struct ethhdr *eth = nh->pos;
	struct vlan_hdr *vlh;
	__u16 h_proto;
	int i;

	if ((void *)(eth + 1) > data_end)
		return -1;
	nh->pos = eth + 1;
	*ethhdr = eth;
	vlh = nh->pos;
	h_proto = eth->h_proto;

#pragma unroll
	for (i = 0; i < VLAN_MAX_DEPTH; i++) {
		if (!proto_is_vlan(h_proto))
			break;
		if ((void *)(vlh + 1) > data_end)
			break;
		h_proto = vlh->h_vlan_encapsulated_proto;
		vlh++;
	}
	nh->pos = vlh;
	return h_proto;
}

static __always_inline int parse_iphdr(struct hdr_cursor *nh, void *data_end, struct iphdr **iphdr)
{
	struct iphdr *iph = nh->pos;
	int hdrsize;

	if ((void *)(iph + 1) > data_end)
		return -1;
	hdrsize = iph->ihl * 4;
	if (hdrsize < (int)sizeof(*iph))
		return -1;
	if (nh->pos + hdrsize > data_end)
		return -1;
	nh->pos += hdrsize;
	*iphdr = iph;
	return iph->protocol;
}

static __always_inline int parse_ip6hdr(struct hdr_cursor *nh, void *data_end,
					struct ipv6hdr **ip6hdr)
{
	struct ipv6hdr *ip6h = nh->pos;

	if ((void *)(ip6h + 1) > data_end)
		return -1;
	nh->pos = ip6h + 1;
	*ip6hdr = ip6h;
	return ip6h->nexthdr;
}

static __always_inline int parse_udphdr(struct hdr_cursor *nh, void *data_end,
					struct udphdr **udphdr)
{
	struct udphdr *h = nh->pos;

	if ((void *)(h + 1) > data_end)
		return -1;
	nh->pos = h + 1;
	*udphdr = h;
	return bpf_ntohs(h->len) - (int)sizeof(*h);
}

static __always_inline __u32 record_action(__u32 action)
{
	__u64 *cnt = bpf_map_lookup_elem(&xdp_stats_map, &action);

	if (cnt)
		*cnt += 1;
	return action;
}

/* A hit counts in the value's upper bits; the low bits are the match flags. */
static __always_inline int check_value(__u64 *value, __u64 flags)
{
	if (!value || !(*value & flags))
		return 0;
	__sync_fetch_and_add(value, 1 << COUNTER_SHIFT);
	return 1;
}

#ifdef FILTER_UDP
static __always_inline int lookup_verdict_udp(struct udphdr *udphdr)
{
	__u32 key = bpf_ntohs(udphdr->dest);

	return check_value(bpf_map_lookup_elem(&filter_ports, &key), MAP_FLAG_DST | MAP_FLAG_UDP);
}
#endif

#ifdef FILTER_IPV4
static __always_inline int lookup_verdict_ipv4(struct iphdr *iph)
{
	__u32 addr = iph->daddr;

	if (check_value(bpf_map_lookup_elem(&filter_ipv4, &addr), MAP_FLAG_DST))
		return 1;
	addr = iph->saddr;
	return check_value(bpf_map_lookup_elem(&filter_ipv4, &addr), MAP_FLAG_SRC);
}
#endif

#ifdef FILTER_IPV6
static __always_inline int lookup_verdict_ipv6(struct ipv6hdr *ipv6hdr)
{
	struct in6_addr addr;

	addr = ipv6hdr->daddr;
	if (check_value(bpf_map_lookup_elem(&filter_ipv6, &addr), MAP_FLAG_DST))
		return 1;
	addr = ipv6hdr->saddr;
	return check_value(bpf_map_lookup_elem(&filter_ipv6, &addr), MAP_FLAG_SRC);
}
#endif

#ifdef FILTER_ETHERNET
static __always_inline int lookup_verdict_ethernet(struct ethhdr *eth)
{
	struct ethaddr addr = {};

	__builtin_memcpy(&addr, eth->h_source, sizeof(addr));
	return check_value(bpf_map_lookup_elem(&filter_ethernet, &addr), MAP_FLAG_SRC);
}
#endif

SEC("xdp")
int xdpfilt_dny_udp_ip_eth(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct hdr_cursor nh = { .pos = data };
	struct ipv6hdr *ipv6hdr;
	struct udphdr *udphdr;
	struct ethhdr *eth;
	struct iphdr *iph;
	__u32 action = PASS_ACT;
	int eth_type, ip_type;

	eth_type = parse_ethhdr(&nh, data_end, &eth);
	if (eth_type < 0)
		goto out;
#ifdef FILTER_ETHERNET
	if (lookup_verdict_ethernet(eth))
		goto filter;
#endif
	if (eth_type == bpf_htons(ETH_P_IP)) {
		ip_type = parse_iphdr(&nh, data_end, &iph);
		if (ip_type < 0)
			goto out;
#ifdef FILTER_IPV4
		if (lookup_verdict_ipv4(iph))
			goto filter;
#endif
	} else if (eth_type == bpf_htons(ETH_P_IPV6)) {
		ip_type = parse_ip6hdr(&nh, data_end, &ipv6hdr);
		if (ip_type < 0)
			goto out;
#ifdef FILTER_IPV6
		if (lookup_verdict_ipv6(ipv6hdr))
			goto filter;
#endif
	} else {
		goto out;
	}

#ifdef FILTER_UDP
	if (ip_type == IPPROTO_UDP) {
		if (parse_udphdr(&nh, data_end, &udphdr) < 0)
			goto out;
		if (lookup_verdict_udp(udphdr))
			goto filter;
	}
#endif
out:
	return record_action(action);
filter:
	action = FILTER_ACT;
	goto out;
}

char _license[] SEC("license") = "GPL";
