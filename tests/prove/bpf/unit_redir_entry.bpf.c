// SPDX-License-Identifier: GPL-2.0
/*
 * A program for the prover's unit tests (tests/prove/test_units.c): a frame
 * is redirected to the port its last destination byte names and the
 * verdict is XDP_REDIRECT whether the devmap has that port or not (the
 * kernel and the device then drop it), so that only the egress tells two
 * translations apart. The kernel's copy is the device's.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u32);
} ports SEC(".maps");

SEC("xdp")
int unit_redir_entry(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;

	if ((void *)(eth + 1) > end)
		return XDP_DROP;
	bpf_redirect_map(&ports, eth->h_dest[5] & 7, 0);
	return XDP_REDIRECT;
}

char _license[] SEC("license") = "GPL";
