// SPDX-License-Identifier: GPL-2.0
/*
 * A program for the prover's unit tests (tests/prove/test_units.c), which
 * makes the translator emit redir with BPF_F_BROADCAST |
 * BPF_F_EXCLUDE_INGRESS as a constant, as a bridge floods a multicast
 * frame to every port but the one it came in on; a unicast one goes to
 * the port its last destination byte names, or to the host without one.
 * The kernel's copy is the device's.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u32);
} bridge_ports SEC(".maps");

SEC("xdp")
int unit_bcast_excl(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	long r;

	if ((void *)(eth + 1) > end)
		return XDP_DROP;
	if (eth->h_dest[0] & 1) {
		r = bpf_redirect_map(&bridge_ports, 0, BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS);
		/* the result on the wire: the two calls stay two */
		eth->h_source[0] = (__u8)r;
		return r;
	}
	return bpf_redirect_map(&bridge_ports, eth->h_dest[5], XDP_PASS);
}

char _license[] SEC("license") = "GPL";
