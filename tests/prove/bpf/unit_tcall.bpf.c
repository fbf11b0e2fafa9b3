// SPDX-License-Identifier: GPL-2.0
/*
 * A program for the prover's unit tests (tests/prove/test_units.c), which
 * makes the translator emit one unit: tcall: tail calls through a program
 * array of three slots, two filled by the object, one empty, the index
 * from the frame. The image holds the three programs.
 * It reads no hwxdp_target: the kernel's copy is the device's, so the
 * kernel replays its counterexamples.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct jumps_map {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 3);
	__type(key, __u32);
	__array(values, int(struct xdp_md *));
};

/* defined after the programs it holds, so that the entry comes first */
extern struct jumps_map jumps;

/* Byte 14 picks the slot (3 is past the end); byte 16 counts the entry's
 * runs (a slot holding the entry itself runs it 34 times: the first and
 * 33 tail calls); byte 17 is set where the call goes on. */
SEC("xdp") int tcall_entry(struct xdp_md *ctx)
{
	unsigned char *p = (unsigned char *)(long)ctx->data;
	unsigned char *end = (unsigned char *)(long)ctx->data_end;

	if (p + 20 > end)
		return XDP_ABORTED;
	p[16] += 1;
	bpf_tail_call(ctx, &jumps, p[14] & 3);
	p[17] = 0xee;
	return XDP_PASS;
}

/* Slot 0: byte 18 from byte 15, sent back. */
SEC("xdp") int tcall_add(struct xdp_md *ctx)
{
	unsigned char *p = (unsigned char *)(long)ctx->data;
	unsigned char *end = (unsigned char *)(long)ctx->data_end;

	if (p + 20 > end)
		return XDP_ABORTED;
	p[18] = p[15] + 7;
	return XDP_TX;
}

/* Slot 1: byte 19 flipped, then on through the slot byte 15 picks. */
SEC("xdp") int tcall_chain(struct xdp_md *ctx)
{
	unsigned char *p = (unsigned char *)(long)ctx->data;
	unsigned char *end = (unsigned char *)(long)ctx->data_end;

	if (p + 20 > end)
		return XDP_ABORTED;
	p[19] ^= 0x5a;
	bpf_tail_call(ctx, &jumps, p[15] & 3);
	return XDP_DROP;
}

struct jumps_map jumps SEC(".maps") = {
	.values = {
		[0] = (void *)&tcall_add,
		[1] = (void *)&tcall_chain,
	},
};

char _license[] SEC("license") = "GPL";
