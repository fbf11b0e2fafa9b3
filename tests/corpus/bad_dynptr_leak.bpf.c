// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. A ring buffer logger through a dynptr that
 * returns when the reservation fails, taking a failed reservation for
 * nothing held; the kernel wants the dynptr discarded even then.
 */
#include "include/corpus.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 12);
} events SEC(".maps");

SEC("xdp")
int xdp_log_len(struct xdp_md *ctx)
{
	__u32 len = ctx->data_end - ctx->data;
	struct bpf_dynptr rec;

	if (bpf_ringbuf_reserve_dynptr(&events, sizeof(len), 0, &rec))
		return XDP_PASS;
	bpf_dynptr_write(&rec, 0, &len, sizeof(len), 0);
	bpf_ringbuf_submit_dynptr(&rec, 0);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
