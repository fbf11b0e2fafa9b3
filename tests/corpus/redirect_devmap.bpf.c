// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of the xdp-tutorial's redirect lesson: a hash maps a source
 * MAC to the MAC of the next hop; a frame whose source is known gets that
 * destination, and leaves through a DEVMAP slot chosen by the low bits of the
 * destination IPv4 address, with XDP_PASS as bpf_redirect_map's fallback for
 * an empty slot. A per-CPU counter of redirects sits in an array.
 */
#include "include/corpus.h"

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__type(key, int);
	__type(value, int);
	__uint(max_entries, 8);
} tx_port SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, unsigned char[ETH_ALEN]);
	__type(value, unsigned char[ETH_ALEN]);
	__uint(max_entries, 64);
} redirect_params SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} redirects SEC(".maps");

SEC("xdp")
int xdp_redirect_map_func(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	unsigned char *dst;
	struct iphdr *iph;
	__u32 zero = 0;
	__u64 *cnt;
	int slot;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;

	dst = bpf_map_lookup_elem(&redirect_params, eth->h_source);
	if (!dst)
		return XDP_PASS;

	__builtin_memcpy(eth->h_dest, dst, ETH_ALEN);
	slot = bpf_ntohl(iph->daddr) & 7;
	cnt = bpf_map_lookup_elem(&redirects, &zero);
	if (cnt)
		*cnt += 1;
	return bpf_redirect_map(&tx_port, slot, XDP_PASS);
}

char _license[] SEC("license") = "GPL";
