// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of xdp-tools' xdp-bench redirect-cpu and samples/bpf
 * xdp_redirect_cpu: the entry program spreads frames over the CPUs in
 * cpus_available round-robin (a per-CPU iterator) or by an L4 hash, as a
 * read-only global chooses, and redirects into a CPUMAP whose entries may
 * carry a second-stage program, SEC("xdp/cpumap"), that runs on the target
 * CPU: one drops UDP to the discard port, one passes everything and counts
 * it. Both stages and the entry share a noinline static function that
 * classifies the frame, and the stats are per CPU, as the tools keep them.
 */
#include "include/corpus.h"

#define MAX_CPUS 64

enum { MODE_ROUND_ROBIN, MODE_L4_HASH };

const volatile __u32 cpu_mode = MODE_L4_HASH;

struct datarec {
	__u64 processed;
	__u64 dropped;
	__u64 issue;
	__u64 xdp_pass;
};

struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(struct bpf_cpumap_val));
	__uint(max_entries, MAX_CPUS);
} cpu_map SEC(".maps");

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

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 1);
} cpus_iterator SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct datarec);
	__uint(max_entries, 3);
} rx_cnt SEC(".maps");

/* 0: not IPv4, 1: other, 2: TCP, 3: UDP to the discard port, 4: UDP; the
 * L4 ports' hash in *hash */
static __noinline int classify(struct xdp_md *ctx, __u32 *hash)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = data + sizeof(*eth);
	struct udphdr *uh;

	*hash = 0;
	if ((void *)(iph + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return 0;
	*hash = iph->saddr ^ iph->daddr;
	if (iph->ihl != 5 || (iph->protocol != IPPROTO_TCP && iph->protocol != IPPROTO_UDP))
		return 1;
	uh = (void *)(iph + 1);
	if ((void *)(uh + 1) > data_end)
		return 1;
	*hash ^= (__u32)uh->source << 16 | uh->dest;
	*hash *= 0x9e3779b1;
	if (iph->protocol == IPPROTO_TCP)
		return 2;
	return uh->dest == bpf_htons(9) ? 3 : 4;
}

static __always_inline struct datarec *stats(__u32 i)
{
	return bpf_map_lookup_elem(&rx_cnt, &i);
}

SEC("xdp")
int xdp_redirect_cpu_entry(struct xdp_md *ctx)
{
	struct datarec *rec = stats(0);
	__u32 key = 0, *cnt, *iter, *cpu, hash, idx;

	if (!rec)
		return XDP_ABORTED;
	rec->processed++;
	cnt = bpf_map_lookup_elem(&cpus_count, &key);
	if (!cnt || !*cnt) {
		rec->issue++;
		return XDP_PASS;
	}
	if (cpu_mode == MODE_ROUND_ROBIN) {
		iter = bpf_map_lookup_elem(&cpus_iterator, &key);
		if (!iter)
			return XDP_ABORTED;
		idx = (*iter)++;
		if (*iter == *cnt)
			*iter = 0;
	} else {
		classify(ctx, &hash);
		idx = hash % *cnt;
	}
	if (idx >= MAX_CPUS) {
		rec->issue++;
		return XDP_ABORTED;
	}
	cpu = bpf_map_lookup_elem(&cpus_available, &idx);
	if (!cpu)
		return XDP_ABORTED;
	return bpf_redirect_map(&cpu_map, *cpu, 0);
}

SEC("xdp/cpumap")
int xdp_cpumap_drop_discard(struct xdp_md *ctx)
{
	struct datarec *rec = stats(1);
	__u32 hash;

	if (!rec)
		return XDP_ABORTED;
	rec->processed++;
	if (classify(ctx, &hash) == 3) {
		rec->dropped++;
		return XDP_DROP;
	}
	rec->xdp_pass++;
	return XDP_PASS;
}

SEC("xdp/cpumap")
int xdp_cpumap_pass(struct xdp_md *ctx)
{
	struct datarec *rec = stats(2);
	__u32 hash;

	if (!rec)
		return XDP_ABORTED;
	rec->processed++;
	rec->issue += classify(ctx, &hash) == 0;
	rec->xdp_pass++;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
