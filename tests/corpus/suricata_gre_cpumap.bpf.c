// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of Suricata's xdp_filter with its tunnel and CPU options:
 * up to two VLAN tags are read into the flow key, GRE (version 0, with the
 * checksum, key and sequence words it may carry) is stepped over to the
 * inner IPv4 or IPv6 header, and the inner 5-tuple is looked up in the
 * per-CPU bypass tables. A hit is counted and dropped; with IPS mode on
 * (`tx_peer_int`) it is sent to the peer port through a devmap instead. A
 * miss is spread over the CPUs user space enabled by a hash of the address
 * pair (the same in both directions) and redirected into a CPUMAP.
 */
#include "include/corpus.h"

#define GRE_CSUM	   0x8000
#define GRE_ROUTING	   0x4000
#define GRE_KEY		   0x2000
#define GRE_SEQ		   0x1000
#define GRE_VERSION	   0x0007
#define CPUMAP_MAX_CPUS	   64
#define LINUX_VERSION_CODE 263682
#define USE_PERCPU_HASH	   1

struct vlan_hdr_s {
	__u16 h_vlan_TCI;
	__u16 h_vlan_encapsulated_proto;
};

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
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__type(key, struct flowv4_keys);
	__type(value, struct pair);
	__uint(max_entries, 32768);
} flow_table_v4 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__type(key, struct flowv6_keys);
	__type(value, struct pair);
	__uint(max_entries, 32768);
} flow_table_v6 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, CPUMAP_MAX_CPUS);
} cpu_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, CPUMAP_MAX_CPUS);
} cpus_available SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 1);
} cpus_count SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__type(key, int);
	__type(value, int);
	__uint(max_entries, 1);
} tx_peer SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, int);
	__uint(max_entries, 1);
} tx_peer_int SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} global_bypass SEC(".maps");

/* SuperFastHash-like, as the original's rss hash is hand-rolled */
static __always_inline __u32 pair_hash(__u32 a, __u32 b)
{
	__u32 h = a ^ b, t;

	h += h >> 16;
	t = (h << 11) ^ (a & 0xffff0000);
	h = (h << 16) ^ t;
	h += h >> 11;
	h ^= h << 3;
	h += h >> 5;
	h ^= h << 4;
	h += h >> 17;
	h ^= h << 25;
	h += h >> 6;
	return h;
}

static __always_inline int get_sport(void *trans_data, void *data_end, __u8 protocol)
{
	struct tcphdr *th;
	struct udphdr *uh;

	switch (protocol) {
	case IPPROTO_TCP:
		th = (struct tcphdr *)trans_data;
		if ((void *)(th + 1) > data_end)
			return -1;
		return th->source;
	case IPPROTO_UDP:
		uh = (struct udphdr *)trans_data;
		if ((void *)(uh + 1) > data_end)
			return -1;
		return uh->source;
	default:
		return 0;
	}
}

static __always_inline int get_dport(void *trans_data, void *data_end, __u8 protocol)
{
	struct tcphdr *th;
	struct udphdr *uh;

	switch (protocol) {
	case IPPROTO_TCP:
		th = (struct tcphdr *)trans_data;
		if ((void *)(th + 1) > data_end)
			return -1;
		return th->dest;
	case IPPROTO_UDP:
		uh = (struct udphdr *)trans_data;
		if ((void *)(uh + 1) > data_end)
			return -1;
		return uh->dest;
	default:
		return 0;
	}
}

static __always_inline int bypassed(struct xdp_md *ctx, struct pair *value)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	int *iface_peer, zero = 0;
	__u64 *bypass;

	value->packets++;
	value->bytes += data_end - data;
	bypass = bpf_map_lookup_elem(&global_bypass, &zero);
	if (bypass)
		*bypass += 1;
	iface_peer = bpf_map_lookup_elem(&tx_peer_int, &zero);
	if (iface_peer && *iface_peer)
		return bpf_redirect_map(&tx_peer, 0, 0);
	return XDP_DROP;
}

static __always_inline int to_cpu(__u32 hash)
{
	__u32 key = 0, *count, *cpu;

	count = bpf_map_lookup_elem(&cpus_count, &key);
	if (!count || !*count)
		return XDP_PASS;
	key = hash % *count;
	cpu = bpf_map_lookup_elem(&cpus_available, &key);
	if (!cpu)
		return XDP_ABORTED;
	return bpf_redirect_map(&cpu_map, *cpu, 0);
}

static __always_inline int filter_ipv4(struct xdp_md *ctx, void *data, __u64 nh_off, void *data_end,
				       __u16 vlan0, __u16 vlan1)
{
	struct iphdr *iph = data + nh_off;
	int dport, sport;
	struct flowv4_keys tuple;
	struct pair *value;

	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;
	if (iph->protocol != IPPROTO_TCP && iph->protocol != IPPROTO_UDP)
		return XDP_PASS;
	dport = get_dport(iph + 1, data_end, iph->protocol);
	if (dport == -1)
		return XDP_PASS;
	sport = get_sport(iph + 1, data_end, iph->protocol);
	if (sport == -1)
		return XDP_PASS;
	tuple.ip_proto = (__u32)iph->protocol == IPPROTO_TCP ? 1 : 0;
	tuple.src = iph->saddr;
	tuple.dst = iph->daddr;
	tuple.port16[0] = (__u16)sport;
	tuple.port16[1] = (__u16)dport;
	tuple.vlan0 = vlan0;
	tuple.vlan1 = vlan1;
	value = bpf_map_lookup_elem(&flow_table_v4, &tuple);
	if (value)
		return bypassed(ctx, value);
	return to_cpu(pair_hash(iph->saddr, iph->daddr));
}

static __always_inline int filter_ipv6(struct xdp_md *ctx, void *data, __u64 nh_off, void *data_end,
				       __u16 vlan0, __u16 vlan1)
{
	struct ipv6hdr *ip6h = data + nh_off;
	int dport, sport;
	struct flowv6_keys tuple;
	struct pair *value;

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
	tuple.ip_proto = ip6h->nexthdr == IPPROTO_TCP ? 1 : 0;
	__builtin_memcpy(tuple.src, ip6h->saddr.s6_addr32, sizeof(tuple.src));
	__builtin_memcpy(tuple.dst, ip6h->daddr.s6_addr32, sizeof(tuple.dst));
	tuple.port16[0] = sport;
	tuple.port16[1] = dport;
	tuple.vlan0 = vlan0;
	tuple.vlan1 = vlan1;
	value = bpf_map_lookup_elem(&flow_table_v6, &tuple);
	if (value)
		return bypassed(ctx, value);
	return to_cpu(pair_hash(ip6h->saddr.s6_addr32[3] ^ ip6h->saddr.s6_addr32[2],
				ip6h->daddr.s6_addr32[3] ^ ip6h->daddr.s6_addr32[2]));
}

static __always_inline int filter_gre(struct xdp_md *ctx, void *data, __u64 nh_off, void *data_end,
				      __u16 vlan0, __u16 vlan1)
{
	struct iphdr *iph = data + nh_off;
	struct vlan_hdr_s *vhdr;
	__u16 proto, flags;
	__u64 off;
	struct {
		__be16 flags;
		__be16 proto;
	} * grhdr;

	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;
	if (iph->ihl != 5)
		return XDP_PASS;
	off = nh_off + sizeof(*iph);
	grhdr = data + off;
	if ((void *)(grhdr + 1) > data_end)
		return XDP_PASS;
	flags = bpf_ntohs(grhdr->flags);
	if (flags & (GRE_VERSION | GRE_ROUTING))
		return XDP_PASS;
	off += 4;
	proto = grhdr->proto;
	if (flags & GRE_CSUM)
		off += 4;
	if (flags & GRE_KEY)
		off += 4;
	if (flags & GRE_SEQ)
		off += 4;
	if (data + off > data_end)
		return XDP_PASS;
	if (proto == bpf_htons(ETH_P_8021Q)) {
		vhdr = data + off;
		if ((void *)(vhdr + 1) > data_end)
			return XDP_PASS;
		proto = vhdr->h_vlan_encapsulated_proto;
		off += sizeof(*vhdr);
	}
	if (proto == bpf_htons(ETH_P_IP))
		return filter_ipv4(ctx, data, off, data_end, vlan0, vlan1);
	if (proto == bpf_htons(ETH_P_IPV6))
		return filter_ipv6(ctx, data, off, data_end, vlan0, vlan1);
	return XDP_PASS;
}

SEC("xdp")
int xdp_hashfilter(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u16 h_proto, vlan0 = 0, vlan1 = 0;
	__u64 nh_off = sizeof(*eth);

	if (data + nh_off > data_end)
		return XDP_PASS;
	h_proto = eth->h_proto;
	if (h_proto == bpf_htons(ETH_P_8021Q) || h_proto == bpf_htons(ETH_P_8021AD)) {
		struct vlan_hdr_s *vhdr = data + nh_off;

		if ((void *)(vhdr + 1) > data_end)
			return XDP_PASS;
		nh_off += sizeof(struct vlan_hdr_s);
		h_proto = vhdr->h_vlan_encapsulated_proto;
		vlan0 = vhdr->h_vlan_TCI & 0x0fff;
	}
	if (h_proto == bpf_htons(ETH_P_8021Q) || h_proto == bpf_htons(ETH_P_8021AD)) {
		struct vlan_hdr_s *vhdr = data + nh_off;

		if ((void *)(vhdr + 1) > data_end)
			return XDP_PASS;
		nh_off += sizeof(struct vlan_hdr_s);
		h_proto = vhdr->h_vlan_encapsulated_proto;
		vlan1 = vhdr->h_vlan_TCI & 0x0fff;
	}
	if (h_proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *iph = data + nh_off;

		if ((void *)(iph + 1) > data_end)
			return XDP_PASS;
		if (iph->protocol == IPPROTO_GRE)
			return filter_gre(ctx, data, nh_off, data_end, vlan0, vlan1);
		return filter_ipv4(ctx, data, nh_off, data_end, vlan0, vlan1);
	}
	if (h_proto == bpf_htons(ETH_P_IPV6))
		return filter_ipv6(ctx, data, nh_off, data_end, vlan0, vlan1);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
__u32 _version SEC("version") = LINUX_VERSION_CODE;
