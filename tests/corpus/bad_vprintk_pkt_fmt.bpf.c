// SPDX-License-Identifier: GPL-2.0
/*
 * Meant to be refused: a debugging shortcut that hands the frame's own
 * bytes to bpf_trace_vprintk as the format. The helper may not read the
 * packet ("helper access to the packet is not allowed"), whichever helper
 * would print it.
 */
#include "include/corpus.h"

SEC("xdp")
int xdp_dump_payload(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u64 args[2] = { 1, 2 };

	if (data + 16 > data_end)
		return XDP_PASS;
	bpf_trace_vprintk(data, 16, args, sizeof(args));
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
