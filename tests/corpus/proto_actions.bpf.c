// SPDX-License-Identifier: GPL-2.0
/*
 * An action table in the manner of small policy programs: an array indexed
 * by the IPv4 protocol holds a verdict and an egress ifindex. The IPv4
 * header checksum is checked with bpf_csum_diff over the header; a frame to
 * forward has its TTL decremented, the checksum updated with bpf_csum_diff
 * seeded with the old one, and leaves by XDP_TX or bpf_redirect to the
 * entry's ifindex. The verdict is mixed with the IP id, so that every value
 * of its low three bits occurs, the three beyond XDP_REDIRECT included:
 * the program returns them as they are, as careless table entries do.
 */
#include "include/corpus.h"

struct proto_action {
	__u32 verdict;
	__u32 ifindex;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct proto_action);
	__uint(max_entries, 256);
} proto_actions SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 8);
} verdict_counts SEC(".maps");

static __always_inline __u16 fold(__u32 csum)
{
	csum = (csum & 0xffff) + (csum >> 16);
	csum = (csum & 0xffff) + (csum >> 16);
	return (__u16)~csum;
}

SEC("xdp")
int xdp_proto_action(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct proto_action *a;
	__u32 key, v, old, new;
	struct iphdr *iph;
	__u16 proto;
	__u64 *cnt;
	__u8 mac[ETH_ALEN];

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	proto = eth->h_proto;
	iph = (void *)(eth + 1);
	if (proto == bpf_htons(ETH_P_8021Q)) {
		struct vlan_hdr *vh = (void *)(eth + 1);

		if ((void *)(vh + 1) > data_end)
			return XDP_DROP;
		proto = vh->h_vlan_encapsulated_proto;
		iph = (void *)(vh + 1);
	}
	if (proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	if ((void *)(iph + 1) > data_end)
		return XDP_DROP;
	if (iph->ihl != 5)
		return XDP_PASS;
	/* a header that does not sum to 0xffff is damaged */
	if (fold(bpf_csum_diff(0, 0, (__be32 *)iph, sizeof(*iph), 0)))
		return XDP_DROP;

	key = iph->protocol;
	a = bpf_map_lookup_elem(&proto_actions, &key);
	if (!a)
		return XDP_ABORTED;
	v = (a->verdict ^ bpf_ntohs(iph->id)) & 7;
	key = v;
	cnt = bpf_map_lookup_elem(&verdict_counts, &key);
	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	if (v != XDP_TX && v != XDP_REDIRECT)
		return v;

	if (iph->ttl <= 1)
		return XDP_PASS;
	old = *(__u16 *)&iph->ttl;
	iph->ttl--;
	new = *(__u16 *)&iph->ttl;
	iph->check = fold(
		bpf_csum_diff(&old, sizeof(old), &new, sizeof(new), ~(__u32)iph->check & 0xffff));
	if (v == XDP_REDIRECT)
		return bpf_redirect(a->ifindex, 0);
	__builtin_memcpy(mac, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, mac, ETH_ALEN);
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
