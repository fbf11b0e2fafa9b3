// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of Suricata's xdp_filter.c built with its CPU map: a frame
 * of a flow the IDS bypassed (a per-CPU hash keyed by the packed IPv4
 * 5-tuple, VLAN ids included) is counted and dropped; every other IPv4 or
 * IPv6 frame goes to one of the capture CPUs through a
 * BPF_MAP_TYPE_CPUMAP, chosen by a hash of the address pair that is the same
 * both ways, so that both directions of a flow reach one capture thread.
 * The CPUs are those user space listed in cpus_available, cpus_count of
 * them (any other count: all the map's slots).
 */
#include "include/corpus.h"

#define CPUMAP_MAX_CPUS 64

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

static __always_inline __u32 mix(__u32 h)
{
	h ^= h >> 16;
	h *= 0x7feb352d;
	h ^= h >> 15;
	h *= 0x846ca68b;
	h ^= h >> 16;
	return h;
}

static __always_inline int to_capture_cpu(__u32 cpu_hash)
{
	__u32 key0 = 0, n, cpu_dest;
	__u32 *cpu_max, *cpu_selected;

	cpu_max = bpf_map_lookup_elem(&cpus_count, &key0);
	if (!cpu_max)
		return XDP_ABORTED;
	n = *cpu_max;
	if (n == 0 || n > CPUMAP_MAX_CPUS)
		n = CPUMAP_MAX_CPUS;
	cpu_dest = mix(cpu_hash) % n;
	cpu_selected = bpf_map_lookup_elem(&cpus_available, &cpu_dest);
	if (!cpu_selected)
		return XDP_ABORTED;
	cpu_dest = *cpu_selected;
	return bpf_redirect_map(&cpu_map, cpu_dest, 0);
}

static __always_inline int l4_ports(void *l4, void *data_end, __u8 proto, __u32 *ports)
{
	if (proto == IPPROTO_TCP) {
		struct tcphdr *th = l4;

		if ((void *)(th + 1) > data_end)
			return -1;
		*ports = *(__u32 *)th;
		return 0;
	}
	if (proto == IPPROTO_UDP) {
		struct udphdr *uh = l4;

		if ((void *)(uh + 1) > data_end)
			return -1;
		*ports = *(__u32 *)uh;
		return 0;
	}
	return -1;
}

static __always_inline int filter_ipv4(void *data, __u64 nh_off, void *data_end, __u16 vlan0,
				       __u16 vlan1)
{
	struct iphdr *iph = data + nh_off;
	struct flowv4_keys tuple = {};
	struct pair *value;

	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;
	if (iph->ihl != 5 || (iph->frag_off & bpf_htons(0x3fff)))
		goto capture;
	if (l4_ports(iph + 1, data_end, iph->protocol, &tuple.ports))
		goto capture;
	tuple.src = iph->saddr;
	tuple.dst = iph->daddr;
	tuple.ip_proto = iph->protocol == IPPROTO_TCP ? 1 : 0;
	tuple.vlan0 = vlan0;
	tuple.vlan1 = vlan1;
	value = bpf_map_lookup_elem(&flow_table_v4, &tuple);
	if (value) {
		value->packets++;
		value->bytes += data_end - data;
		return XDP_DROP;
	}
capture:
	return to_capture_cpu(iph->saddr ^ iph->daddr);
}

static __always_inline int filter_ipv6(void *data, __u64 nh_off, void *data_end)
{
	struct ipv6hdr *ip6h = data + nh_off;
	__u32 h = 0;
	int i;

	if ((void *)(ip6h + 1) > data_end)
		return XDP_PASS;
#pragma unroll
	for (i = 0; i < 4; i++)
		h ^= ip6h->saddr.in6_u.u6_addr32[i] ^ ip6h->daddr.in6_u.u6_addr32[i];
	return to_capture_cpu(h);
}

SEC("xdp")
int xdp_hashfilter_cpu(struct xdp_md *ctx)
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
		struct vlan_hdr *vhdr = data + nh_off;

		if ((void *)(vhdr + 1) > data_end)
			return XDP_PASS;
		nh_off += sizeof(*vhdr);
		h_proto = vhdr->h_vlan_encapsulated_proto;
		vlan0 = bpf_ntohs(vhdr->h_vlan_TCI) & 0x0fff;
	}
	if (h_proto == bpf_htons(ETH_P_8021Q) || h_proto == bpf_htons(ETH_P_8021AD)) {
		struct vlan_hdr *vhdr = data + nh_off;

		if ((void *)(vhdr + 1) > data_end)
			return XDP_PASS;
		nh_off += sizeof(*vhdr);
		h_proto = vhdr->h_vlan_encapsulated_proto;
		vlan1 = bpf_ntohs(vhdr->h_vlan_TCI) & 0x0fff;
	}
	if (h_proto == bpf_htons(ETH_P_IP))
		return filter_ipv4(data, nh_off, data_end, vlan0, vlan1);
	if (h_proto == bpf_htons(ETH_P_IPV6))
		return filter_ipv6(data, nh_off, data_end);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
