// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of the kernel's samples/bpf firewalls: an IPv4 TCP or UDP
 * frame (behind at most two VLAN tags, no fragment) is looked up by its
 * 5-tuple, a packed struct of 13 bytes, in a deny list; a hit counts in the
 * entry and drops (and only a hit does: a frame cut short aborts). A miss
 * is looked up again by the address and port pair alone (12 bytes, no
 * protocol), whose entry counts the bytes that pass. Per-verdict counters
 * in an array, as xdp1 keeps them.
 */
#include "include/corpus.h"

struct flow_key_v4 {
	__be32 saddr;
	__be32 daddr;
	__be16 sport;
	__be16 dport;
	__u8 proto;
} __attribute__((packed));

struct pair_key_v4 {
	__be32 saddr;
	__be32 daddr;
	__be16 sport;
	__be16 dport;
};

struct acl_entry {
	__u64 hits;
	__u32 rule_id;
	__u32 flags;
};

struct pair_stats {
	__u64 packets;
	__u64 bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct flow_key_v4);
	__type(value, struct acl_entry);
	__uint(max_entries, 1024);
} acl_deny SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct pair_key_v4);
	__type(value, struct pair_stats);
	__uint(max_entries, 1024);
} pair_seen SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, XDP_REDIRECT + 1);
} verdict_cnt SEC(".maps");

static __always_inline int count_verdict(int action)
{
	__u32 key = action;
	__u64 *cnt = bpf_map_lookup_elem(&verdict_cnt, &key);

	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	return action;
}

SEC("xdp")
int xdp_acl_5tuple(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct flow_key_v4 key = {};
	struct pair_key_v4 pair = {};
	struct acl_entry *acl;
	struct pair_stats *ps;
	struct iphdr *iph;
	__u16 h_proto;
	__u64 off;
	int i;

	off = sizeof(*eth);
	if (data + off > data_end)
		return XDP_ABORTED;
	h_proto = eth->h_proto;
#pragma unroll
	for (i = 0; i < 2; i++) {
		struct vlan_hdr *vh = data + off;

		if (!proto_is_vlan(h_proto))
			break;
		if ((void *)(vh + 1) > data_end)
			return XDP_ABORTED;
		h_proto = vh->h_vlan_encapsulated_proto;
		off += sizeof(*vh);
	}
	if (h_proto != bpf_htons(ETH_P_IP))
		return count_verdict(XDP_PASS);
	iph = data + off;
	if ((void *)(iph + 1) > data_end)
		return count_verdict(XDP_ABORTED);
	if (iph->ihl != 5 || (iph->frag_off & bpf_htons(0x3fff)))
		return count_verdict(XDP_PASS);
	key.saddr = iph->saddr;
	key.daddr = iph->daddr;
	key.proto = iph->protocol;
	if (iph->protocol == IPPROTO_TCP) {
		struct tcphdr *th = (void *)(iph + 1);

		if ((void *)(th + 1) > data_end)
			return count_verdict(XDP_ABORTED);
		key.sport = th->source;
		key.dport = th->dest;
	} else if (iph->protocol == IPPROTO_UDP) {
		struct udphdr *uh = (void *)(iph + 1);

		if ((void *)(uh + 1) > data_end)
			return count_verdict(XDP_ABORTED);
		key.sport = uh->source;
		key.dport = uh->dest;
	} else {
		return count_verdict(XDP_PASS);
	}

	acl = bpf_map_lookup_elem(&acl_deny, &key);
	if (acl) {
		__sync_fetch_and_add(&acl->hits, 1);
		return count_verdict(XDP_DROP);
	}

	pair.saddr = key.saddr;
	pair.daddr = key.daddr;
	pair.sport = key.sport;
	pair.dport = key.dport;
	ps = bpf_map_lookup_elem(&pair_seen, &pair);
	if (ps) {
		__sync_fetch_and_add(&ps->packets, 1);
		__sync_fetch_and_add(&ps->bytes, (__u64)(data_end - data));
	}
	return count_verdict(XDP_PASS);
}

char _license[] SEC("license") = "GPL";
