// SPDX-License-Identifier: GPL-2.0
/*
 * An SRv6 endpoint (RFC 8754, RFC 8986 "End") as XDP prototypes of it
 * are written: an IPv6 frame whose destination is one of this node's
 * segment identifiers (a hash map keyed by the 128-bit address) and that
 * carries a segment routing header (routing type 4) with segments left has
 * segments left decremented, the next segment copied into the destination,
 * the hop limit decremented and goes back out of the port it came in by,
 * MACs swapped. A SID frame without a routing header, or at its last
 * segment, is the host's. The segment is found by a bounded loop over the
 * list, as the index is the frame's.
 */
#include "include/corpus.h"

#define IPV6_ROUTING 43
#define SRH_TYPE     4
#define SRH_SEGS_MAX 8

struct srh {
	__u8 nexthdr;
	__u8 hdrlen;
	__u8 type;
	__u8 segments_left;
	__u8 first_segment;
	__u8 flags;
	__u16 tag;
	struct in6_addr segments[];
};

struct sid_stat {
	__u64 end;
	__u64 local;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct in6_addr);
	__type(value, struct sid_stat);
	__uint(max_entries, 64);
} local_sids SEC(".maps");

static __always_inline void swap_macs(struct ethhdr *eth)
{
	__u8 tmp[ETH_ALEN];

	__builtin_memcpy(tmp, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, tmp, ETH_ALEN);
}

SEC("xdp")
int xdp_srv6_end(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct in6_addr *next = NULL;
	struct sid_stat *sid;
	struct ipv6hdr *ip6;
	struct srh *srh;
	__u8 sl;
	int i;

	if ((void *)(eth + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IPV6))
		return XDP_PASS;
	ip6 = (void *)(eth + 1);
	if ((void *)(ip6 + 1) > data_end)
		return XDP_PASS;
	sid = bpf_map_lookup_elem(&local_sids, &ip6->daddr);
	if (!sid)
		return XDP_PASS;
	srh = (void *)(ip6 + 1);
	if (ip6->nexthdr != IPV6_ROUTING || (void *)(srh + 1) > data_end || srh->type != SRH_TYPE ||
	    !srh->segments_left) {
		__sync_fetch_and_add(&sid->local, 1);
		return XDP_PASS;
	}
	if (ip6->hop_limit <= 1)
		return XDP_PASS;
	sl = srh->segments_left - 1;
	/* the segment must lie inside the header's length and the frame */
	if ((__u32)sl * 2 + 2 > srh->hdrlen)
		return XDP_DROP;
	for (i = 0; i < SRH_SEGS_MAX; i++) {
		if (i == sl) {
			next = &srh->segments[i];
			break;
		}
	}
	if (!next || (void *)(next + 1) > data_end)
		return XDP_DROP;
	srh->segments_left = sl;
	__builtin_memcpy(&ip6->daddr, next, sizeof(*next));
	ip6->hop_limit--;
	swap_macs(eth);
	__sync_fetch_and_add(&sid->end, 1);
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
