// SPDX-License-Identifier: GPL-2.0
/*
 * The small helpers debugging and sampling code reaches for, as many GitHub
 * XDP examples use them: bpf_printk of the ethertype for unknown frames,
 * bpf_ktime_get_ns stamped into a per-CPU "last seen" slot,
 * bpf_get_prandom_u32 and bpf_get_smp_processor_id mixed into a per-CPU
 * sample value, and a plain array counting frames by length bucket. The
 * verdict depends on the frame only: IPv4 and IPv6 pass, everything else
 * drops.
 */
#include "include/corpus.h"

struct sample {
	__u64 last_ns;
	__u32 rnd;
	__u32 cpu;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct sample);
	__uint(max_entries, 1);
} samples SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 16);
} len_buckets SEC(".maps");

SEC("xdp")
int xdp_misc_helpers(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct sample *s;
	__u32 zero = 0, bucket;
	__u64 *cnt;

	bucket = (__u32)(data_end - data) >> 7;
	if (bucket > 15)
		bucket = 15;
	cnt = bpf_map_lookup_elem(&len_buckets, &bucket);
	if (cnt)
		__sync_fetch_and_add(cnt, 1);

	s = bpf_map_lookup_elem(&samples, &zero);
	if (s) {
		s->last_ns = bpf_ktime_get_ns();
		s->rnd = bpf_get_prandom_u32();
		s->cpu = bpf_get_smp_processor_id();
	}
	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (eth->h_proto == bpf_htons(ETH_P_IP) || eth->h_proto == bpf_htons(ETH_P_IPV6))
		return XDP_PASS;
	bpf_printk("xdp_misc: ethertype 0x%x dropped", bpf_ntohs(eth->h_proto));
	return XDP_DROP;
}

char _license[] SEC("license") = "GPL";
