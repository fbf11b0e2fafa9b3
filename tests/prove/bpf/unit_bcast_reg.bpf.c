// SPDX-License-Identifier: GPL-2.0
/*
 * A program for the prover's unit tests (tests/prove/test_units.c), which
 * makes the translator emit redir with its flags in a register, as
 * unit_redir_flags, but always a broadcast: BPF_F_BROADCAST with the
 * frame's first source byte choosing BPF_F_EXCLUDE_INGRESS and a miss's
 * verdict (which a broadcast never returns), so that a counterexample's
 * flags are a broadcast's. The kernel's copy is the device's.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u32);
} out_ports SEC(".maps");

SEC("xdp")
int unit_bcast_reg(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	__u64 flags;

	if ((void *)(eth + 1) > end)
		return XDP_DROP;
	flags = (eth->h_source[0] & (3 | BPF_F_EXCLUDE_INGRESS)) | BPF_F_BROADCAST;
	return bpf_redirect_map(&out_ports, eth->h_dest[5] & 7, flags);
}

char _license[] SEC("license") = "GPL";
