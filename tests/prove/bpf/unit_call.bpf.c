// SPDX-License-Identifier: GPL-2.0
/*
 * A program for the prover's unit tests (tests/prove/test_units.c), which
 * makes the translator emit one unit: call and ret: BPF-to-BPF calls, two deep, each with a stack.
 * It reads no hwxdp_target: the kernel's copy is the device's, so the
 * kernel replays its counterexamples.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>

#define SEC(name) __attribute__((section(name), used))
#define noinline  __attribute__((noinline))

/* Two levels of calls, each with a stack of its own. */
static noinline __u32 mix(__u32 a, __u32 b)
{
	volatile __u32 t[2];

	t[0] = a * 3;
	t[1] = b ^ 0x5a5a;
	return t[0] + (t[1] >> 3);
}

static noinline __u32 digest(const unsigned char *p)
{
	volatile __u32 acc = 7;

	acc = mix(acc, p[4] | (__u32)p[5] << 8);
	acc = mix(acc, p[6]);
	return acc;
}

SEC("xdp") int call_sub(struct xdp_md *ctx)
{
	unsigned char *p = (unsigned char *)(long)ctx->data;
	unsigned char *end = (unsigned char *)(long)ctx->data_end;
	__u32 d;

	if (p + 48 > end)
		return XDP_DROP;
	d = digest(p);
	*(volatile __u32 *)(p + 40) = d;
	return d & 1 ? XDP_TX : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
