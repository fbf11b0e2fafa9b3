// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. A scan of a small table by an open-coded
 * iterator written out by hand, that returns from inside the loop on a
 * match without bpf_iter_num_destroy: the iterator's reference is held at
 * the exit.
 */
#include "include/corpus.h"

struct bpf_iter_num {
	__u64 opaque[1];
} __attribute__((aligned(8)));

extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __ksym;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 4);
} ports SEC(".maps");

SEC("xdp")
int xdp_port_scan(struct xdp_md *ctx)
{
	__u32 q = ctx->rx_queue_index;
	struct bpf_iter_num it;
	int *v;

	bpf_iter_num_new(&it, 0, 4);
	while ((v = bpf_iter_num_next(&it))) {
		__u32 k = *v & 3;
		__u32 *p = bpf_map_lookup_elem(&ports, &k);

		if (p && *p == q)
			return XDP_DROP;
	}
	bpf_iter_num_destroy(&it);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
