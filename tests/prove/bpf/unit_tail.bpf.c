// SPDX-License-Identifier: GPL-2.0
/*
 * A program for the prover's unit tests (tests/prove/test_units.c), which
 * makes the translator emit one unit: tadj: bpf_xdp_adjust_tail growing and shrinking the frame.
 * It reads no hwxdp_target: the kernel's copy is the device's, so the
 * kernel replays its counterexamples.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>

#define SEC(name) __attribute__((section(name), used))
static long (*bpf_xdp_adjust_tail)(struct xdp_md *ctx, int delta) = (void *)65;

/* The frame's length set from byte 14: grown by up to 31 bytes (the new
 * ones zero) or cut by up to 32, not below the 14 bytes the kernel keeps;
 * then byte 63 set where the frame has one. A refused adjustment drops. */
SEC("xdp") int trim_tail(struct xdp_md *ctx)
{
	unsigned char *p = (unsigned char *)(long)ctx->data;
	unsigned char *end = (unsigned char *)(long)ctx->data_end;
	int delta;

	if (p + 16 > end)
		return XDP_ABORTED;
	delta = (int)(p[14] & 0x3f) - 32;
	if (bpf_xdp_adjust_tail(ctx, delta))
		return XDP_DROP;
	p = (unsigned char *)(long)ctx->data;
	end = (unsigned char *)(long)ctx->data_end;
	if (p + 64 <= end)
		p[63] = 0xee;
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
