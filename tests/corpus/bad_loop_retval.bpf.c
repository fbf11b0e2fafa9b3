// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. A bpf_loop callback that counts frames' bytes and
 * returns 2 once it has seen a zero byte: a callback may return only 0
 * (go on) or 1 (stop).
 */
#include "include/corpus.h"

struct scan {
	void *data;
	void *data_end;
	__u32 zeros;
};

static int scan_byte(__u32 index, void *arg)
{
	struct scan *s = arg;
	__u8 *p;

	if (index >= 16)
		return 1;
	p = s->data + index;
	if ((void *)(p + 1) > s->data_end)
		return 1;
	if (*p)
		return 0;
	s->zeros++;
	return 2;
}

SEC("xdp")
int xdp_bad_loop_retval(struct xdp_md *ctx)
{
	struct scan s = { .data = (void *)(long)ctx->data,
			  .data_end = (void *)(long)ctx->data_end };

	bpf_loop(16, scan_byte, &s, 0);
	return s.zeros ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
