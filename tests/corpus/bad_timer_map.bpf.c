// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. Two tables of the same value layout, new and
 * established flows; the timer of an entry in the established table is
 * initialised with the other table, where the kernel wants the map the
 * value belongs to.
 */
#include "include/corpus.h"

struct entry {
	__u64 hits;
	struct bpf_timer timer;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, struct entry);
	__uint(max_entries, 64);
} pending SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, struct entry);
	__uint(max_entries, 64);
} established SEC(".maps");

SEC("xdp")
int xdp_promote(struct xdp_md *ctx)
{
	struct entry fresh = {}, *e;
	__u32 key = ctx->rx_queue_index;

	bpf_map_update_elem(&established, &key, &fresh, BPF_NOEXIST);
	e = bpf_map_lookup_elem(&established, &key);
	if (!e)
		return XDP_PASS;
	e->hits++;
	bpf_timer_init(&e->timer, &pending, 1);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
