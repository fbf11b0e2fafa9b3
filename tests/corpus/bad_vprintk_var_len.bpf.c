// SPDX-License-Identifier: GPL-2.0
/*
 * Meant to be refused: a trace that prints as many of its u64 arguments as
 * the frame's first byte asks for. bpf_trace_vprintk reads data_len bytes
 * of the array, and nothing keeps the byte below 5: up to 255 arguments,
 * 2040 bytes, beyond the array and the stack.
 */
#include "include/corpus.h"

SEC("xdp")
int xdp_trace_n(struct xdp_md *ctx)
{
	static const char fmt[] = "a %llu b %llu c %llu d %llu";
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u64 args[4] = { 1, 2, 3, 4 };
	__u32 n;

	if (data + 1 > data_end)
		return XDP_PASS;
	n = *(__u8 *)data;
	bpf_trace_vprintk(fmt, sizeof(fmt), args, n * 8);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
