// SPDX-License-Identifier: GPL-2.0
/*
 * Shared state guarded by a bpf_spin_lock in a hash value, as rate limiters
 * keep a token bucket, beside per-CPU state read across CPUs: an LRU
 * per-CPU hash counts frames per source MAC, and
 * bpf_map_lookup_percpu_elem reads CPU 0's slot of a per-CPU array of
 * byte totals. A source over its budget in the locked bucket is dropped;
 * the budget is counted down by frame length under the lock.
 */
#include "include/corpus.h"

struct bucket {
	struct bpf_spin_lock lock;
	__u32 tokens;
	__u64 seen;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, struct bucket);
	__uint(max_entries, 128);
} buckets SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_PERCPU_HASH);
	__type(key, __u64);
	__type(value, __u64);
	__uint(max_entries, 128);
} per_mac SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} byte_total SEC(".maps");

SEC("xdp")
int xdp_spin_percpu(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct bucket *b, fresh = {};
	__u64 mac = 0, one = 1, *cnt, *total;
	__u32 len = data_end - data, zero = 0, key;
	struct iphdr *iph;
	int over;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	__builtin_memcpy(&mac, eth->h_source, ETH_ALEN);
	cnt = bpf_map_lookup_elem(&per_mac, &mac);
	if (cnt)
		*cnt += 1;
	else
		bpf_map_update_elem(&per_mac, &mac, &one, BPF_NOEXIST);

	total = bpf_map_lookup_elem(&byte_total, &zero);
	if (total)
		*total += len;
	total = bpf_map_lookup_percpu_elem(&byte_total, &zero, 0);
	if (total && *total > (1ull << 40))
		return XDP_ABORTED;

	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end)
		return XDP_DROP;
	key = iph->saddr;
	b = bpf_map_lookup_elem(&buckets, &key);
	if (!b) {
		fresh.tokens = 4000;
		bpf_map_update_elem(&buckets, &key, &fresh, BPF_NOEXIST);
		b = bpf_map_lookup_elem(&buckets, &key);
		if (!b)
			return XDP_PASS;
	}
	bpf_spin_lock(&b->lock);
	over = b->tokens < len;
	if (!over)
		b->tokens -= len;
	b->seen++;
	bpf_spin_unlock(&b->lock);
	return over ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
