// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of xdp-tools' xdp-filter as its later versions build it:
 * one object, the filters chosen by feature bits in a read-only global the
 * loader sets (`const volatile __u32 features`), not by #defines. Addresses
 * and MACs sit in per-CPU hashes, ports in a per-CPU array of 65,536; each
 * value holds the match flags in its low bits and a hit counter above them,
 * bumped by a plain add (per-CPU: no atomics). The run config the library
 * reads is a struct in the object's "xdp_metadata" section, and the mode
 * (deny or allow list) is a second read-only global.
 */
#include <stdbool.h>
#include "include/corpus.h"

#define FEAT_TCP      (1U << 0)
#define FEAT_UDP      (1U << 1)
#define FEAT_IPV6     (1U << 2)
#define FEAT_IPV4     (1U << 3)
#define FEAT_ETHERNET (1U << 4)
#define FEAT_ALL      (FEAT_TCP | FEAT_UDP | FEAT_IPV6 | FEAT_IPV4 | FEAT_ETHERNET)

#define MAP_FLAG_SRC  (1U << 0)
#define MAP_FLAG_DST  (1U << 1)
#define MAP_FLAG_TCP  (1U << 2)
#define MAP_FLAG_UDP  (1U << 3)
#define MAP_FLAGS     (MAP_FLAG_SRC | MAP_FLAG_DST | MAP_FLAG_TCP | MAP_FLAG_UDP)
#define COUNTER_SHIFT 6

#define XDP_RUN_CONFIG(f) _##f SEC("xdp_metadata")

const volatile __u32 features = FEAT_IPV4 | FEAT_IPV6 | FEAT_UDP | FEAT_TCP | FEAT_ETHERNET;
/* 0: what matches is dropped; 1: only what matches passes */
const volatile __u8 allow_mode = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 65536);
} filter_ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 10000);
} filter_ipv4 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__type(key, struct in6_addr);
	__type(value, __u64);
	__uint(max_entries, 10000);
} filter_ipv6 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__type(key, __u8[ETH_ALEN]);
	__type(value, __u64);
	__uint(max_entries, 10000);
} filter_ethernet SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, XDP_REDIRECT + 1);
} xdp_stats_map SEC(".maps");

struct {
	__uint(priority, 10);
	__uint(XDP_PASS, 1);
} XDP_RUN_CONFIG(xdpfilt_all);

static __always_inline int verdict_of(bool matched)
{
	if (allow_mode)
		return matched ? XDP_PASS : XDP_DROP;
	return matched ? XDP_DROP : XDP_PASS;
}

static __always_inline bool check_value(__u64 *value, __u32 flags)
{
	if (value && (*value & flags)) {
		*value += 1 << COUNTER_SHIFT;
		return true;
	}
	return false;
}

static __always_inline bool lookup_port(__u16 port_be, __u32 flags)
{
	__u32 key = bpf_ntohs(port_be);

	return check_value(bpf_map_lookup_elem(&filter_ports, &key), flags);
}

static __always_inline int record(struct xdp_md *ctx, int action)
{
	__u32 key = action;
	__u64 *rec;

	if (action > XDP_REDIRECT)
		return XDP_ABORTED;
	rec = bpf_map_lookup_elem(&xdp_stats_map, &key);
	if (rec)
		*rec += 1;
	return action;
}

SEC("xdp")
int xdpfilt_all(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u16 proto, l4_sport = 0, l4_dport = 0;
	__u8 l4 = 0;
	bool matched = false;
	void *l3;

	if ((void *)(eth + 1) > data_end)
		return record(ctx, XDP_ABORTED);
	proto = eth->h_proto;
	l3 = eth + 1;

	if (features & FEAT_ETHERNET) {
		matched |= check_value(bpf_map_lookup_elem(&filter_ethernet, eth->h_source),
				       MAP_FLAG_SRC);
		matched |= check_value(bpf_map_lookup_elem(&filter_ethernet, eth->h_dest),
				       MAP_FLAG_DST);
	}

	if (proto == bpf_htons(ETH_P_IP) && (features & FEAT_IPV4)) {
		struct iphdr *iph = l3;
		__u32 addr;

		if ((void *)(iph + 1) > data_end)
			goto out;
		addr = iph->saddr;
		matched |= check_value(bpf_map_lookup_elem(&filter_ipv4, &addr), MAP_FLAG_SRC);
		addr = iph->daddr;
		matched |= check_value(bpf_map_lookup_elem(&filter_ipv4, &addr), MAP_FLAG_DST);
		if (iph->ihl < 5)
			goto out;
		l4 = iph->protocol;
		l3 = (void *)iph + iph->ihl * 4;
	} else if (proto == bpf_htons(ETH_P_IPV6) && (features & FEAT_IPV6)) {
		struct ipv6hdr *ip6 = l3;

		if ((void *)(ip6 + 1) > data_end)
			goto out;
		matched |=
			check_value(bpf_map_lookup_elem(&filter_ipv6, &ip6->saddr), MAP_FLAG_SRC);
		matched |=
			check_value(bpf_map_lookup_elem(&filter_ipv6, &ip6->daddr), MAP_FLAG_DST);
		l4 = ip6->nexthdr;
		l3 = ip6 + 1;
	} else {
		goto out;
	}

	if (l4 == IPPROTO_TCP && (features & FEAT_TCP)) {
		struct tcphdr *tcp = l3;

		if ((void *)(tcp + 1) > data_end)
			goto out;
		l4_sport = tcp->source;
		l4_dport = tcp->dest;
		matched |= lookup_port(l4_sport, MAP_FLAG_SRC | MAP_FLAG_TCP) ||
			   lookup_port(l4_dport, MAP_FLAG_DST | MAP_FLAG_TCP);
	} else if (l4 == IPPROTO_UDP && (features & FEAT_UDP)) {
		struct udphdr *udp = l3;

		if ((void *)(udp + 1) > data_end)
			goto out;
		l4_sport = udp->source;
		l4_dport = udp->dest;
		matched |= lookup_port(l4_sport, MAP_FLAG_SRC | MAP_FLAG_UDP) ||
			   lookup_port(l4_dport, MAP_FLAG_DST | MAP_FLAG_UDP);
	}
out:
	return record(ctx, verdict_of(matched));
}

char _license[] SEC("license") = "GPL";
