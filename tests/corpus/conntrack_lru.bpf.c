// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of Cilium's XDP prefilter and connection tracker: a source
 * address whose longest prefix in an LPM trie (BPF_F_NO_PREALLOC, as
 * Cilium's CIDR maps are) has the deny bit drops; otherwise a TCP or UDP IPv4 flow is tracked in an
 * LRU hash without a common LRU list (BPF_F_NO_COMMON_LRU), keyed by its tuple as it arrived. A
 * frame of a known flow counts in its entry (packets, bytes, TCP flags seen: counters with atomic
 * adds, flags ored in place); a reply is found under the reversed tuple; a SYN or any UDP frame of
 * an unknown flow creates the entry (BPF_NOEXIST), and a RST deletes it. A TCP frame of no flow
 * that is not a SYN drops. Non-IPv4 frames pass.
 */
#include "include/corpus.h"

#define TUPLE_F_OUT  0
#define TUPLE_F_IN   1
#define CT_MAP_SIZE  4096
#define TCP_FLAG_FIN 0x01
#define TCP_FLAG_SYN 0x02
#define TCP_FLAG_RST 0x04
#define TCP_FLAG_ACK 0x10

struct ipv4_ct_tuple {
	__be32 daddr;
	__be32 saddr;
	__be16 dport;
	__be16 sport;
	__u8 nexthdr;
	__u8 flags;
} __attribute__((packed));

struct ct_entry {
	__u64 packets;
	__u64 bytes;
	__u32 tx_flags_seen;
	__u32 rx_flags_seen;
};

struct lpm_v4_key {
	__u32 prefixlen;
	__u8 addr[4];
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, struct ipv4_ct_tuple);
	__type(value, struct ct_entry);
	__uint(max_entries, CT_MAP_SIZE);
	__uint(map_flags, BPF_F_NO_COMMON_LRU);
} ct_map4 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__type(key, struct lpm_v4_key);
	__type(value, __u8);
	__uint(max_entries, 1024);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} cidr4_lmap SEC(".maps");

static __always_inline void ipv4_ct_tuple_reverse(struct ipv4_ct_tuple *t)
{
	__be32 a = t->daddr;
	__be16 p = t->dport;

	t->daddr = t->saddr;
	t->saddr = a;
	t->dport = t->sport;
	t->sport = p;
	t->flags ^= TUPLE_F_IN;
}

static __always_inline int ct_account(struct ct_entry *e, __u64 len, __u8 tcp_flags, int dir)
{
	__sync_fetch_and_add(&e->packets, 1);
	__sync_fetch_and_add(&e->bytes, len);
	if (dir == TUPLE_F_OUT)
		e->tx_flags_seen |= tcp_flags;
	else
		e->rx_flags_seen |= tcp_flags;
	return XDP_PASS;
}

SEC("xdp")
int cil_xdp_prefilter_ct(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct ipv4_ct_tuple tuple = {};
	struct lpm_v4_key pfx;
	struct ct_entry *e, fresh = {};
	struct iphdr *ip4;
	__u8 tcp_flags = 0, *deny;
	__u64 len;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip4 = (void *)(eth + 1);
	if ((void *)(ip4 + 1) > data_end)
		return XDP_DROP;

	pfx.prefixlen = 32;
	__builtin_memcpy(pfx.addr, &ip4->saddr, sizeof(pfx.addr));
	deny = bpf_map_lookup_elem(&cidr4_lmap, &pfx);
	if (deny && (*deny & 1))
		return XDP_DROP;

	if (ip4->ihl != 5)
		return XDP_PASS;
	tuple.nexthdr = ip4->protocol;
	tuple.daddr = ip4->daddr;
	tuple.saddr = ip4->saddr;
	if (ip4->protocol == IPPROTO_TCP) {
		struct tcphdr *th = (void *)(ip4 + 1);

		if ((void *)(th + 1) > data_end)
			return XDP_DROP;
		tuple.dport = th->dest;
		tuple.sport = th->source;
		tcp_flags = ((__u8 *)th)[13];
	} else if (ip4->protocol == IPPROTO_UDP) {
		struct udphdr *uh = (void *)(ip4 + 1);

		if ((void *)(uh + 1) > data_end)
			return XDP_DROP;
		tuple.dport = uh->dest;
		tuple.sport = uh->source;
	} else {
		return XDP_PASS;
	}
	len = data_end - data;

	e = bpf_map_lookup_elem(&ct_map4, &tuple);
	if (e) {
		if (tcp_flags & TCP_FLAG_RST) {
			bpf_map_delete_elem(&ct_map4, &tuple);
			return XDP_PASS;
		}
		return ct_account(e, len, tcp_flags, TUPLE_F_OUT);
	}
	ipv4_ct_tuple_reverse(&tuple);
	e = bpf_map_lookup_elem(&ct_map4, &tuple);
	if (e)
		return ct_account(e, len, tcp_flags, TUPLE_F_IN);
	ipv4_ct_tuple_reverse(&tuple);

	if (tuple.nexthdr == IPPROTO_TCP && !(tcp_flags & TCP_FLAG_SYN))
		return XDP_DROP;
	fresh.packets = 1;
	fresh.bytes = len;
	fresh.tx_flags_seen = tcp_flags;
	if (bpf_map_update_elem(&ct_map4, &tuple, &fresh, BPF_NOEXIST))
		return XDP_DROP;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
