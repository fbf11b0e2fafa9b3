// SPDX-License-Identifier: GPL-2.0
/*
 * A program for the prover's unit tests (tests/prove/test_units.c): a
 * table on the stack read at an index of few values (a nibble of the
 * frame), and a histogram on the stack counted at two such indices, the
 * accesses the prover takes one value at a time. It reads no
 * hwxdp_target: the kernel's copy is the device's, so the kernel replays
 * its counterexamples.
 */
#include <linux/bpf.h>

#define SEC(name) __attribute__((section(name), used))

/* Bytes 0 and 1 of a frame of 16 bytes or more become a table entry and a
 * bucket of the histogram, picked by the nibbles of bytes 14 and 15. */
SEC("xdp") int unit_table(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	volatile __u8 t[16], h[16];
	__u8 *p = data;

	if ((void *)(p + 16) > end)
		return XDP_PASS;
#pragma clang loop unroll(full)
	for (int i = 0; i < 16; i++) {
		t[i] = p[i] ^ 0x5a;
		h[i] = 0;
	}
	h[p[14] & 15]++;
	h[p[15] >> 4]++;
	p[0] = t[p[14] & 15];
	p[1] = h[p[15] & 15];
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
