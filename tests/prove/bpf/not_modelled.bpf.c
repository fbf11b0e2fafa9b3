// SPDX-License-Identifier: GPL-2.0
/*
 * A program the device runs and the prover does not model
 * (tests/prove/test_units.c: a translation required to be proven is
 * refused): bpf_get_prandom_u32, whose values the model has no term for.
 */
#include <linux/bpf.h>

#define SEC(name) __attribute__((section(name), used))
static __u32 (*bpf_get_prandom_u32)(void) = (void *)7;

SEC("xdp") int not_modelled(struct xdp_md *ctx)
{
	return bpf_get_prandom_u32() & 1 ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
