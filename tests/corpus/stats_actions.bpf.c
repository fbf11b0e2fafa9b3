// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of the xdp-tutorial's xdp_stats: a per-CPU array of
 * {packets, bytes} records indexed by the XDP action, updated by a
 * stats-record function every program returns through. The frame length
 * comes from bpf_xdp_get_buff_len; the action is chosen from the IPv4 TTL
 * and the IPv6 hop limit (expired: drop, one left: pass, else transmit back
 * with swapped MACs), and out-of-range actions are refused as XDP_ABORTED.
 */
#include "include/corpus.h"

#ifndef XDP_ACTION_MAX
#define XDP_ACTION_MAX (XDP_REDIRECT + 1)
#endif

struct datarec {
	__u64 rx_packets;
	__u64 rx_bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct datarec);
	__uint(max_entries, XDP_ACTION_MAX);
} xdp_stats_map SEC(".maps");

static __always_inline __u32 xdp_stats_record_action(struct xdp_md *ctx, __u32 action)
{
	struct datarec *rec;

	if (action >= XDP_ACTION_MAX)
		return XDP_ABORTED;

	rec = bpf_map_lookup_elem(&xdp_stats_map, &action);
	if (!rec)
		return XDP_ABORTED;

	rec->rx_packets++;
	rec->rx_bytes += bpf_xdp_get_buff_len(ctx);
	return action;
}

SEC("xdp")
int xdp_stats_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u32 action = XDP_PASS;
	__u8 ttl = 64;

	if ((void *)(eth + 1) > data_end) {
		action = XDP_DROP;
		goto out;
	}
	if (eth->h_proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *iph = (void *)(eth + 1);

		if ((void *)(iph + 1) > data_end)
			goto out;
		ttl = iph->ttl;
	} else if (eth->h_proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6h = (void *)(eth + 1);

		if ((void *)(ip6h + 1) > data_end)
			goto out;
		ttl = ip6h->hop_limit;
	} else {
		goto out;
	}
	if (ttl == 0) {
		action = XDP_DROP;
	} else if (ttl == 1) {
		action = XDP_PASS;
	} else {
		__u8 tmp[ETH_ALEN];

		__builtin_memcpy(tmp, eth->h_dest, ETH_ALEN);
		__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
		__builtin_memcpy(eth->h_source, tmp, ETH_ALEN);
		action = XDP_TX;
	}
out:
	return xdp_stats_record_action(ctx, action);
}

char _license[] SEC("license") = "GPL";
