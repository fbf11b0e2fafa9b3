// SPDX-License-Identifier: GPL-2.0
/*
 * Flooding as software bridges built on XDP do it: a destination MAC the
 * learning table does not know (or a multicast one) is sent to every port
 * of a devmap but the one it came in on (bpf_redirect_map with
 * BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS); a known one goes to its port
 * (devmap index from the table), and the source MAC is learnt on the way,
 * keyed by the MAC as a u64.
 */
#include "include/corpus.h"

#ifndef BPF_F_BROADCAST
#define BPF_F_BROADCAST (1ULL << 3)
#endif
#ifndef BPF_F_EXCLUDE_INGRESS
#define BPF_F_EXCLUDE_INGRESS (1ULL << 4)
#endif

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 8);
} bridge_ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u64);
	__type(value, __u32);
	__uint(max_entries, 256);
} fdb SEC(".maps");

static __always_inline __u64 mac_key(const unsigned char *mac)
{
	__u64 k = 0;

	__builtin_memcpy(&k, mac, ETH_ALEN);
	return k;
}

SEC("xdp")
int xdp_bridge_flood(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u32 in_port = ctx->ingress_ifindex & 7, *out;
	__u64 src, dst;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	src = mac_key(eth->h_source);
	dst = mac_key(eth->h_dest);
	if (!(eth->h_source[0] & 1))
		bpf_map_update_elem(&fdb, &src, &in_port, BPF_ANY);
	if (eth->h_dest[0] & 1)
		return bpf_redirect_map(&bridge_ports, 0, BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS);
	out = bpf_map_lookup_elem(&fdb, &dst);
	if (!out)
		return bpf_redirect_map(&bridge_ports, 0, BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS);
	if (*out == in_port)
		return XDP_DROP;
	return bpf_redirect_map(&bridge_ports, *out, XDP_PASS);
}

char _license[] SEC("license") = "GPL";
