// SPDX-License-Identifier: GPL-2.0
/*
 * A program for the prover's unit tests (tests/prove/test_units.c), which
 * makes the translator emit rand twice: a frame is sampled one in 16 by
 * the first number (to the host), and the second, a flow label as a
 * tunnel might draw it, is written into the frame's first source bytes.
 * The kernel's copy is the device's.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int unit_rand(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	__u32 sample, label;

	if ((void *)(eth + 1) > end)
		return XDP_DROP;
	sample = bpf_get_prandom_u32();
	label = bpf_get_prandom_u32();
	__builtin_memcpy(eth->h_source, &label, sizeof(label));
	return (sample & 15) ? XDP_TX : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
