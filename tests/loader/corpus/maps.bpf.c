// SPDX-License-Identifier: GPL-2.0
/*
 * Map kinds: hash with a struct key, array, per-CPU array, LRU hash with
 * flags; a bounded loop over map entries and one unrolled at compile time.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct flow_key {
	__u32 src, dst;
	__u16 sport, dport;
	__u8 proto;
	__u8 pad[3];
};

struct flow_stats {
	__u64 packets, bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, struct flow_key);
	__type(value, struct flow_stats);
} flows SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} totals SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct flow_stats);
} scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 256);
	__uint(map_flags, BPF_F_NO_COMMON_LRU);
	__type(key, __u32);
	__type(value, __u32);
} recent SEC(".maps");

SEC("xdp")
int maps_main(struct xdp_md *ctx)
{
	__u32 len = ctx->data_end - ctx->data, zero = 0, i;
	int j;
	struct flow_key key = { .src = len, .proto = 6 };
	struct flow_stats init = { 1, len }, *st;
	__u64 sum = 0;

	st = bpf_map_lookup_elem(&flows, &key);
	if (st) {
		__sync_fetch_and_add(&st->packets, 1);
		__sync_fetch_and_add(&st->bytes, len);
	} else {
		bpf_map_update_elem(&flows, &key, &init, BPF_NOEXIST);
	}
	for (i = 0; i < 16; i++) {
		__u64 *t = bpf_map_lookup_elem(&totals, &i);

		if (t)
			sum += *t;
	}
#pragma unroll
	for (j = 0; j < 4; j++) {
		__u32 k = len + j, v = j * 7;

		bpf_map_update_elem(&recent, &k, &v, BPF_ANY);
	}
	st = bpf_map_lookup_elem(&scratch, &zero);
	if (st)
		st->bytes = sum;
	return sum & 1 ? XDP_PASS : XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
