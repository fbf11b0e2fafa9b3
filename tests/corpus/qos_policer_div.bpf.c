// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of small XDP policers and DSCP markers found in operators'
 * trees: a per-source meter (an LRU hash keyed by the IPv4 source, as
 * user space seeds it) holds a byte budget, a divisor and a shift; the
 * frame's cost is its length divided by the meter's unit (32-bit), its
 * class the flow hash modulo the meter's class count (64-bit), both as C
 * has them on BPF, where a zero divisor gives 0 and a zero modulus leaves
 * the dividend. The TTL's distance from 64, signed, and the population
 * count of the TOS pick the DSCP written back (with the checksum patched);
 * a budget driven below zero (signed) drops.
 */
#include "include/corpus.h"

struct meter {
	__u32 unit;
	__u32 classes;
	__s64 budget;
	__u32 shift;
	__u32 marks;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, __u32);
	__type(value, struct meter);
	__uint(max_entries, 4096);
} meters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 64);
} class_bytes SEC(".maps");

static __always_inline void csum_replace2(__sum16 *sum, __be16 old, __be16 new)
{
	__u32 c = (__u16) ~*sum + (__u16)~old + (__u16) new;

	c = (c & 0xffff) + (c >> 16);
	c = (c & 0xffff) + (c >> 16);
	*sum = ~c;
}

SEC("xdp")
int xdp_policer(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = data + sizeof(*eth);
	__u32 len = data_end - data, cost, cls, key, saddr;
	__u64 hash, *bytes;
	struct meter *m;
	__s32 ttl_delta;
	__u16 old_word, new_word;
	__u8 dscp;

	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;

	/* with no meter, the frame's own fields play its part */
	saddr = iph->saddr;
	m = bpf_map_lookup_elem(&meters, &saddr);
	hash = ((__u64)bpf_ntohs(iph->id) << 32 | iph->daddr) * 0x9e3779b97f4a7c15ull;
	if (m) {
		cost = len / m->unit;
		cls = hash % (m->classes & 0xff);
		m->budget -= (__s64)cost << (m->shift & 15);
		if (m->budget < 0) {
			m->budget = 0;
			return XDP_DROP;
		}
	} else {
		cost = len / (iph->tos & 3);
		cls = (hash >> 7) % (__u64)(iph->tos & 3);
	}
	key = cls & 63;
	bytes = bpf_map_lookup_elem(&class_bytes, &key);
	if (bytes)
		__sync_fetch_and_add(bytes, cost);

	ttl_delta = (__s32)iph->ttl - 64;
	dscp = (__u8)(__builtin_popcount(iph->tos) << 3);
	if (ttl_delta < -32)
		dscp |= 0x20;
	else if ((ttl_delta >> 2) == 0)
		dscp |= 0x08;
	dscp |= (__u8)((ttl_delta >> 31) & 4);
	old_word = *(__u16 *)iph;
	iph->tos = (dscp << 2) | (iph->tos & 3);
	new_word = *(__u16 *)iph;
	csum_replace2(&iph->check, old_word, new_word);
	if (m)
		m->marks++;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
