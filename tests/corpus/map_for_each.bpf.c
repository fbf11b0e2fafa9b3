// SPDX-License-Identifier: GPL-2.0
/*
 * Maps walked with bpf_for_each_map_elem (kernels since 5.13): an IPv4
 * frame whose source is in a hash map of blocked sources is dropped, and
 * its entry counts the hit; the callback stops at the match. A second walk
 * sums an array of weights, and a frame is dropped when they add up past a
 * threshold.
 */
#include "include/corpus.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 64);
} blocked SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 8);
} weights SEC(".maps");

struct match {
	__u32 saddr;
	__u32 hit;
	__u64 total;
};

static __u64 find_source(void *map, __u32 *key, __u64 *hits, struct match *m)
{
	if (*key != m->saddr)
		return 0;
	__sync_fetch_and_add(hits, 1);
	m->hit = 1;
	return 1;
}

static __u64 add_weight(void *map, __u32 *key, __u64 *weight, struct match *m)
{
	m->total += *weight;
	return 0;
}

SEC("xdp")
int xdp_map_for_each(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = data + sizeof(*eth);
	struct match m = { 0 };

	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	m.saddr = iph->saddr;
	bpf_for_each_map_elem(&blocked, find_source, &m, 0);
	if (m.hit)
		return XDP_DROP;
	bpf_for_each_map_elem(&weights, add_weight, &m, 0);
	return m.total > 1000 ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
