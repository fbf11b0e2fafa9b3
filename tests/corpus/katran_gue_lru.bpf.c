// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of Katran's balancer with GUE encapsulation: the VIP is
 * found by destination address (a hash of __be32), the connection first in
 * this CPU's LRU (an ARRAY_OF_MAPS of LRU hashes indexed by
 * bpf_get_smp_processor_id()), else in a shared fallback LRU, else by the
 * consistent-hash ring, and then remembered in the LRU it came from. The
 * frame is wrapped in outer IPv4 + UDP + a 4-byte GUE header by
 * bpf_xdp_adjust_head, the outer header's checksum by bpf_csum_diff folded
 * by hand, the UDP source port a hash of the flow; it leaves by XDP_TX.
 * Per-VIP counters are per-CPU; a map-miss counter is global.
 */
#include <stdbool.h>
#include "include/corpus.h"

#define MAX_VIPS	   64
#define CH_RINGS_SIZE	   (MAX_VIPS * 17)
#define RING_SIZE	   17
#define MAX_REALS	   128
#define LRU_SIZE	   1000
#define GUE_DPORT	   6080
#define MAX_SUPPORTED_CPUS 4
#define F_LRU_BYPASS	   (1U << 1)
#define F_HASH_NO_SRC_PORT (1U << 0)

struct flow_key {
	__be32 src;
	__be32 dst;
	union {
		__u32 ports;
		__u16 port16[2];
	};
	__u8 proto;
	__u8 pad[3];
};

struct real_pos_lru {
	__u32 pos;
	__u64 atime;
};

struct vip_meta {
	__u32 flags;
	__u32 vip_num;
};

struct real_definition {
	__be32 dst;
	__u8 flags;
	__u8 pad[3];
};

struct lb_stats {
	__u64 v1;
	__u64 v2;
};

struct lru_map {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, struct flow_key);
	__type(value, struct real_pos_lru);
	__uint(max_entries, LRU_SIZE);
};

struct lru_map lru_cpu0 SEC(".maps");
struct lru_map lru_cpu1 SEC(".maps");
struct lru_map fallback_cache SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, MAX_SUPPORTED_CPUS);
	__type(key, __u32);
	__array(values, struct lru_map);
} lru_mapping SEC(".maps") = {
	.values = { [0] = &lru_cpu0, [1] = &lru_cpu1 },
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __be32);
	__type(value, struct vip_meta);
	__uint(max_entries, MAX_VIPS);
} vip_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, CH_RINGS_SIZE);
} ch_rings SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct real_definition);
	__uint(max_entries, MAX_REALS);
} reals SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct lb_stats);
	__uint(max_entries, MAX_VIPS + 1);
} stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 4);
} lru_misses SEC(".maps");

/* the outer source, as Katran keeps it per address family */
const volatile __be32 gue_src = 0x0101a8c0; /* 192.168.1.1 */

static __always_inline __u32 rol32(__u32 word, unsigned int shift)
{
	return (word << shift) | (word >> ((-shift) & 31));
}

static __always_inline __u32 jhash_3words(__u32 a, __u32 b, __u32 c, __u32 initval)
{
	a += 0xdeadbeef + initval + 12;
	b += 0xdeadbeef + initval + 12;
	c += 0xdeadbeef + initval + 12;
	c ^= b;
	c -= rol32(b, 14);
	a ^= c;
	a -= rol32(c, 11);
	b ^= a;
	b -= rol32(a, 25);
	c ^= b;
	c -= rol32(b, 16);
	a ^= c;
	a -= rol32(c, 4);
	b ^= a;
	b -= rol32(a, 14);
	c ^= b;
	c -= rol32(b, 24);
	return c;
}

static __always_inline void count(__u32 idx, __u64 bytes)
{
	struct lb_stats *s = bpf_map_lookup_elem(&stats, &idx);

	if (s) {
		s->v1 += 1;
		s->v2 += bytes;
	}
}

static __always_inline __u16 csum_fold_helper(__u64 csum)
{
#pragma clang loop unroll(full)
	for (int i = 0; i < 4; i++)
		if (csum >> 16)
			csum = (csum & 0xffff) + (csum >> 16);
	return ~csum;
}

static __always_inline struct real_definition *
pick_real(struct flow_key *fk, const struct vip_meta *vip, bool *from_ring)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct real_pos_lru *dst_lru, new_lru = {};
	void *lru_map;
	__u32 key, *real_pos, hash;

	lru_map = bpf_map_lookup_elem(&lru_mapping, &cpu);
	if (!lru_map) {
		__u32 k = 0;
		__u64 *miss = bpf_map_lookup_elem(&lru_misses, &k);

		if (miss)
			__sync_fetch_and_add(miss, 1);
		lru_map = &fallback_cache;
	}
	if (!(vip->flags & F_LRU_BYPASS)) {
		dst_lru = bpf_map_lookup_elem(lru_map, fk);
		if (dst_lru) {
			key = dst_lru->pos;
			*from_ring = false;
			return bpf_map_lookup_elem(&reals, &key);
		}
	}
	if (vip->flags & F_HASH_NO_SRC_PORT)
		fk->port16[0] = 0;
	hash = jhash_3words(fk->src, fk->ports, fk->proto, CH_RINGS_SIZE);
	key = RING_SIZE * (vip->vip_num % MAX_VIPS) + hash % RING_SIZE;
	real_pos = bpf_map_lookup_elem(&ch_rings, &key);
	if (!real_pos)
		return NULL;
	key = *real_pos % MAX_REALS;
	*from_ring = true;
	if (!(vip->flags & F_LRU_BYPASS)) {
		new_lru.pos = key;
		new_lru.atime = 0;
		bpf_map_update_elem(lru_map, fk, &new_lru, BPF_ANY);
	}
	return bpf_map_lookup_elem(&reals, &key);
}

static __always_inline int gue_encap(struct xdp_md *ctx, const struct real_definition *real,
				     __u16 sport, __u16 inner_len)
{
	void *data, *data_end;
	struct ethhdr *new_eth, *old_eth;
	struct iphdr *iph;
	struct udphdr *udp;
	__u32 *gue;
	__u64 csum;
	int hdr = sizeof(struct iphdr) + sizeof(struct udphdr) + 4;

	if (bpf_xdp_adjust_head(ctx, -hdr))
		return XDP_DROP;
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	new_eth = data;
	old_eth = data + hdr;
	iph = data + sizeof(struct ethhdr);
	udp = (void *)(iph + 1);
	gue = (void *)(udp + 1);
	if ((void *)(gue + 1) > data_end || (void *)(old_eth + 1) > data_end)
		return XDP_DROP;
	__builtin_memcpy(new_eth->h_source, old_eth->h_dest, ETH_ALEN);
	__builtin_memcpy(new_eth->h_dest, old_eth->h_source, ETH_ALEN);
	new_eth->h_proto = bpf_htons(ETH_P_IP);

	iph->version = 4;
	iph->ihl = 5;
	iph->tos = 0;
	iph->tot_len = bpf_htons(inner_len + hdr);
	iph->id = 0;
	iph->frag_off = 0;
	iph->ttl = 64;
	iph->protocol = IPPROTO_UDP;
	iph->check = 0;
	iph->saddr = gue_src;
	iph->daddr = real->dst;
	csum = bpf_csum_diff(0, 0, (__be32 *)iph, sizeof(*iph), 0);
	iph->check = csum_fold_helper(csum);

	udp->source = bpf_htons(sport | 0x8000);
	udp->dest = bpf_htons(GUE_DPORT);
	udp->len = bpf_htons(inner_len + sizeof(*udp) + 4);
	udp->check = 0;
	/* version 0, no flags, the inner protocol IPPROTO_IPIP */
	*gue = bpf_htonl(IPPROTO_IPIP << 16);
	return XDP_TX;
}

SEC("xdp")
int balancer_gue(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct real_definition *real;
	struct flow_key fk = {};
	struct vip_meta *vip;
	bool from_ring = false;
	struct iphdr *iph;
	__be32 vip_addr;
	__u16 *l4;
	__u16 inner_len;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end)
		return XDP_DROP;
	if (iph->ihl != 5 || (iph->frag_off & bpf_htons(0x3fff)))
		return XDP_PASS;
	if (iph->protocol != IPPROTO_TCP && iph->protocol != IPPROTO_UDP)
		return XDP_PASS;
	l4 = (void *)(iph + 1);
	if ((void *)(l4 + 2) > data_end)
		return XDP_DROP;
	vip_addr = iph->daddr;
	vip = bpf_map_lookup_elem(&vip_map, &vip_addr);
	if (!vip) {
		count(MAX_VIPS, data_end - data);
		return XDP_PASS;
	}
	fk.src = iph->saddr;
	fk.dst = iph->daddr;
	fk.port16[0] = l4[0];
	fk.port16[1] = l4[1];
	fk.proto = iph->protocol;
	inner_len = bpf_ntohs(iph->tot_len);
	if (inner_len > 1400)
		return XDP_PASS;
	real = pick_real(&fk, vip, &from_ring);
	if (!real)
		return XDP_DROP;
	count(vip->vip_num % MAX_VIPS, data_end - data);
	return gue_encap(ctx, real, (__u16)(fk.src ^ fk.ports ^ from_ring), inner_len);
}

char _license[] SEC("license") = "GPL";
