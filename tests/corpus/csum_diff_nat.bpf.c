// SPDX-License-Identifier: GPL-2.0
/*
 * A destination NAT in the manner of small XDP load balancers on GitHub: the
 * IPv4 destination is looked up in a hash; on a hit it is rewritten, the IP
 * checksum and the TCP/UDP checksum updated with bpf_csum_diff over the old
 * and new 4-byte address (then folded by hand), and the frame sent back out
 * with swapped MACs. A UDP checksum of zero stays zero.
 */
#include "include/corpus.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __be32);
	__type(value, __be32);
	__uint(max_entries, 128);
} nat_table SEC(".maps");

static __always_inline __u16 csum_fold(__u32 csum)
{
	csum = (csum & 0xffff) + (csum >> 16);
	csum = (csum & 0xffff) + (csum >> 16);
	return (__u16)~csum;
}

SEC("xdp")
int xdp_dnat(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u8 mac[ETH_ALEN];
	struct iphdr *iph;
	__be32 old, *new;
	__s64 diff;

	if ((void *)(eth + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;
	if (iph->ihl != 5)
		return XDP_PASS;
	old = iph->daddr;
	new = bpf_map_lookup_elem(&nat_table, &old);
	if (!new)
		return XDP_PASS;

	diff = bpf_csum_diff(&old, 4, new, 4, 0);
	if (diff < 0)
		return XDP_ABORTED;
	iph->daddr = *new;
	iph->check = csum_fold((__u16)~iph->check + (__u32)diff);

	if (iph->protocol == IPPROTO_TCP) {
		struct tcphdr *th = (void *)(iph + 1);

		if ((void *)(th + 1) > data_end)
			return XDP_DROP;
		th->check = csum_fold((__u16)~th->check + (__u32)diff);
	} else if (iph->protocol == IPPROTO_UDP) {
		struct udphdr *uh = (void *)(iph + 1);

		if ((void *)(uh + 1) > data_end)
			return XDP_DROP;
		if (uh->check)
			uh->check = csum_fold((__u16)~uh->check + (__u32)diff);
	}
	__builtin_memcpy(mac, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, mac, ETH_ALEN);
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
