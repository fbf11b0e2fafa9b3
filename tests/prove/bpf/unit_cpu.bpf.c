// SPDX-License-Identifier: GPL-2.0
/*
 * A program for the prover's unit tests (tests/prove/test_units.c), which
 * makes the translator emit cpu: statistics per CPU, as xdp-bench keeps
 * them, and the CPU's number folded into the frame, so that a wrong
 * number shows on the wire. The kernel's copy is the device's: on CPU 0
 * the kernel replays its counterexamples.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u64);
} frames_per_cpu SEC(".maps");

SEC("xdp")
int unit_cpu(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u32 cpu = bpf_get_smp_processor_id();
	struct ethhdr *eth = data;
	__u64 *n;

	n = bpf_map_lookup_elem(&frames_per_cpu, &cpu);
	if (!n)
		return XDP_ABORTED;
	*n += 1;
	if ((void *)(eth + 1) > end)
		return XDP_DROP;
	eth->h_source[5] ^= (__u8)cpu;
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
