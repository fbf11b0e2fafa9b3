// SPDX-License-Identifier: GPL-2.0
/*
 * A bpf_loop callback that sums the first bytes of the frame into a stack
 * context, with a count of calls that depends on the frame's length (up to
 * 15); frames whose sum is odd are dropped. The sum decides nothing inside
 * the loop, so a verifier can let its calls converge instead of walking
 * each one.
 */
#include "include/corpus.h"

struct byte_sum {
	void *data;
	void *data_end;
	__u64 sum;
};

static int add_byte(__u32 index, void *arg)
{
	struct byte_sum *s = arg;
	__u8 *p;

	if (index >= 32)
		return 1;
	p = s->data + index;
	if ((void *)(p + 1) > s->data_end)
		return 1;
	s->sum += *p;
	return 0;
}

SEC("xdp")
int xdp_byte_sum(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct byte_sum s = { .data = data, .data_end = data_end };
	__u32 n = (data_end - data) & 15;

	bpf_loop(n, add_byte, &s, 0);
	return s.sum & 1 ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
