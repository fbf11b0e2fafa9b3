// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. A ring buffer dynptr whose stack slots are
 * reused for a scratch value before the record is submitted: a store into
 * a dynptr that holds a reference.
 */
#include "include/corpus.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 12);
} events SEC(".maps");

SEC("xdp")
int xdp_reuse_slot(struct xdp_md *ctx)
{
	union {
		struct bpf_dynptr rec;
		__u64 words[2];
	} u;
	__u32 q = ctx->rx_queue_index;

	bpf_ringbuf_reserve_dynptr(&events, 8, 0, &u.rec);
	*(volatile __u64 *)&u.words[1] = q;
	bpf_ringbuf_discard_dynptr(&u.rec, 0);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
