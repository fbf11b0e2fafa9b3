// SPDX-License-Identifier: GPL-2.0
/*
 * A program for the prover's unit tests (tests/prove/test_units.c), which
 * makes the translator emit one unit: tcall at its limit: a program that
 * tail-calls itself until the 33 tail calls a frame may make are spent.
 * It reads no hwxdp_target: the kernel's copy is the device's, so the
 * kernel replays its counterexamples.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct loop_map {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, int(struct xdp_md *));
};

extern struct loop_map loop;

/* Byte 16 counts the runs of tlimit_again from 0: the entry's tail call is
 * the first, and with the slot holding tlimit_again it runs 33 times, its
 * 33rd tail call the 34th of the frame, which goes on: the frame goes back
 * where the count is 33. */
SEC("xdp") int tlimit_entry(struct xdp_md *ctx)
{
	unsigned char *p = (unsigned char *)(long)ctx->data;
	unsigned char *end = (unsigned char *)(long)ctx->data_end;

	if (p + 20 > end)
		return XDP_ABORTED;
	p[16] = 0;
	bpf_tail_call(ctx, &loop, 0);
	return XDP_PASS;
}

SEC("xdp") int tlimit_again(struct xdp_md *ctx)
{
	unsigned char *p = (unsigned char *)(long)ctx->data;
	unsigned char *end = (unsigned char *)(long)ctx->data_end;

	if (p + 20 > end)
		return XDP_ABORTED;
	p[16] += 1;
	bpf_tail_call(ctx, &loop, 0);
	return p[16] == 33 ? XDP_TX : XDP_DROP;
}

struct loop_map loop SEC(".maps") = {
	.values = {
		[0] = (void *)&tlimit_again,
	},
};

char _license[] SEC("license") = "GPL";
