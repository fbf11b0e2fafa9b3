// SPDX-License-Identifier: GPL-2.0
/*
 * A program for the prover's unit tests (tests/prove/test_units.c), which
 * makes the translator emit one unit: esp, the crypto unit's command
 * (bpf_hwxdp_esp_encap). The kernel has no such kfunc: its copy passes
 * every frame, so only the device and the reference interpreter replay.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hwxdp/platform.h"

/* The SA handle from the IPv4 TOS byte, the L3 header after 14 bytes of
 * Ethernet; a refused command sends the frame back with the error in its
 * first byte, so that two errors tell apart. */
SEC("xdp") int esp_out(struct xdp_md *ctx)
{
	unsigned char *p = (unsigned char *)(long)ctx->data;
	unsigned char *end = (unsigned char *)(long)ctx->data_end;
	int err;

	if (p + 34 > end || !bpf_hwxdp_esp_encap)
		return XDP_PASS;
	err = bpf_hwxdp_esp_encap(ctx, p[15], 14);
	p = (unsigned char *)(long)ctx->data;
	end = (unsigned char *)(long)ctx->data_end;
	if (p + 14 > end)
		return XDP_ABORTED;
	if (err) {
		p[0] = (unsigned char)-err;
		return XDP_TX;
	}
	p[12] = 0x08;
	p[13] = 0x00;
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
