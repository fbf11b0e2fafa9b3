// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of samples/bpf xdp_redirect_cpu's load balancer by IP pair:
 * frames are spread over the CPUs user space enabled (cpus_available, with
 * their number in cpus_count) by a hash of the source and destination
 * addresses that is the same in both directions, and redirected into a
 * BPF_MAP_TYPE_CPUMAP. Every frame is counted first in a per-CPU record, as
 * the sample does; frames that are not IP, or whose CPU slot is out of range,
 * are counted as issues and go to the stack.
 */
#include "include/corpus.h"

#define MAX_CPUS 12

struct datarec {
	__u64 processed;
	__u64 dropped;
	__u64 issue;
};

struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(struct bpf_cpumap_val));
	__uint(max_entries, MAX_CPUS);
} cpu_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct datarec);
	__uint(max_entries, 1);
} rx_cnt SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, MAX_CPUS);
} cpus_available SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 1);
} cpus_count SEC(".maps");

#define INITVAL 15485863

/* A small mixing step in the spirit of jhash's final rounds. */
static __always_inline __u32 rol32(__u32 word, unsigned int shift)
{
	return (word << shift) | (word >> ((-shift) & 31));
}

static __always_inline __u32 hash_pair(__u32 a, __u32 b, __u32 c)
{
	c ^= b;
	c -= rol32(b, 14);
	a ^= c;
	a -= rol32(c, 11);
	b ^= a;
	b -= rol32(a, 25);
	c ^= b;
	c -= rol32(b, 16);
	return c;
}

static __always_inline __u32 get_ipv4_hash_ip_pair(void *data, __u64 nh_off, void *data_end)
{
	struct iphdr *iph = data + nh_off;

	if ((void *)(iph + 1) > data_end)
		return 0;
	/* the sum makes both directions of a connection land on one CPU */
	return hash_pair(iph->saddr + iph->daddr, iph->protocol, INITVAL);
}

static __always_inline __u32 get_ipv6_hash_ip_pair(void *data, __u64 nh_off, void *data_end)
{
	struct ipv6hdr *ip6h = data + nh_off;
	__u32 cpu_hash;

	if ((void *)(ip6h + 1) > data_end)
		return 0;
	cpu_hash = ip6h->saddr.in6_u.u6_addr32[0] + ip6h->daddr.in6_u.u6_addr32[0];
	cpu_hash += ip6h->saddr.in6_u.u6_addr32[1] + ip6h->daddr.in6_u.u6_addr32[1];
	cpu_hash += ip6h->saddr.in6_u.u6_addr32[2] + ip6h->daddr.in6_u.u6_addr32[2];
	cpu_hash += ip6h->saddr.in6_u.u6_addr32[3] + ip6h->daddr.in6_u.u6_addr32[3];
	return hash_pair(cpu_hash, ip6h->nexthdr, INITVAL);
}

SEC("xdp")
int xdp_prognum5_lb_hash_ip_pairs(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u32 key = 0, cpu_idx, cpu_hash = 0;
	__u32 *cpu_selected, *cpu_max;
	struct datarec *rec;
	__u32 cpu_dest;
	__u16 eth_proto;
	__u64 l3_offset;

	cpu_max = bpf_map_lookup_elem(&cpus_count, &key);
	if (!cpu_max)
		return XDP_ABORTED;

	rec = bpf_map_lookup_elem(&rx_cnt, &key);
	if (!rec)
		return XDP_ABORTED;
	rec->processed++;

	l3_offset = sizeof(*eth);
	if (data + l3_offset > data_end) {
		rec->issue++;
		return XDP_PASS;
	}
	eth_proto = eth->h_proto;
	if (eth_proto == bpf_htons(ETH_P_IP))
		cpu_hash = get_ipv4_hash_ip_pair(data, l3_offset, data_end);
	else if (eth_proto == bpf_htons(ETH_P_IPV6))
		cpu_hash = get_ipv6_hash_ip_pair(data, l3_offset, data_end);
	else
		return XDP_PASS;

	if (*cpu_max == 0) {
		rec->issue++;
		return XDP_PASS;
	}
	cpu_idx = cpu_hash % *cpu_max;
	cpu_selected = bpf_map_lookup_elem(&cpus_available, &cpu_idx);
	if (!cpu_selected)
		return XDP_ABORTED;
	cpu_dest = *cpu_selected;
	if (cpu_dest >= MAX_CPUS) {
		rec->issue++;
		return XDP_ABORTED;
	}
	return bpf_redirect_map(&cpu_map, cpu_dest, 0);
}

char _license[] SEC("license") = "GPL";
