// SPDX-License-Identifier: GPL-2.0
/*
 * A program for the prover's unit tests (tests/prove/test_units.c), which
 * makes the translator emit redir with its flags in a register: the frame
 * names both the port (its last destination byte) and the flags (its
 * first source byte: a miss's verdict, a broadcast, leaving out the
 * ingress port, or bits the kernel refuses with XDP_ABORTED). The
 * kernel's copy is the device's.
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
int unit_redir_flags(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;

	if ((void *)(eth + 1) > end)
		return XDP_DROP;
	return bpf_redirect_map(&out_ports, eth->h_dest[5] & 7, eth->h_source[0]);
}

char _license[] SEC("license") = "GPL";
