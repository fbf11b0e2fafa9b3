// SPDX-License-Identifier: GPL-2.0
/*
 * A program for the prover's unit tests (tests/prove/test_units.c), which
 * makes the translator emit redir with BPF_F_BROADCAST as a constant: a
 * frame is flooded to every port of the devmap, whatever the key (the
 * frame's last destination byte). The kernel's copy is the device's.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u32);
} flood_ports SEC(".maps");

SEC("xdp")
int unit_bcast(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;

	if ((void *)(eth + 1) > end)
		return XDP_DROP;
	return bpf_redirect_map(&flood_ports, eth->h_dest[5] & 7, BPF_F_BROADCAST);
}

char _license[] SEC("license") = "GPL";
