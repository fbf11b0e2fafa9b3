// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. A bpf_loop callback counts the calls in its
 * context, and the caller then indexes an 8-entry global table with that
 * count: up to 12 calls make it 12, past the table's end. Only a verifier
 * that follows the loop for every number of calls sees it; after 0 or 1
 * calls the index is in bounds.
 */
#include "include/corpus.h"

__u8 table[8] = { 1, 0, 1, 0, 1, 0, 1, 0 };

struct counter {
	__u64 calls;
};

static int count_call(__u32 index, void *arg)
{
	struct counter *c = arg;

	c->calls++;
	return 0;
}

SEC("xdp")
int xdp_bad_loop_count(struct xdp_md *ctx)
{
	struct counter c = { 0 };
	__u32 n = (ctx->data_end - ctx->data) > 100 ? 12 : 4;

	bpf_loop(n, count_call, &c, 0);
	return table[c.calls] ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
