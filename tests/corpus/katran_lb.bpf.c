// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of Katran's balancer_kern.c: the destination of a TCP or UDP
 * IPv4 frame is looked up among the VIPs; a hit hashes the 5-tuple (addresses
 * and `sport << 16 | dport`, mixed with a Jenkins-style round) onto a
 * consistent-hash ring kept in an array, whose slot names a real server.
 * The frame is then encapsulated IP-in-IP: bpf_xdp_adjust_head makes room,
 * the new outer IPv4 header is written field by field and its checksum
 * computed by hand in a loop, and it goes back out with XDP_TX. Per-VIP
 * packet and byte counters are in a per-CPU array.
 */
#include "include/corpus.h"

#define RING_SIZE 64
#define MAX_VIPS  16
#define MAX_REALS 32

struct vip_meta {
	__u32 flags;
	__u32 vip_num;
};

struct real_definition {
	__be32 dst;
	__u32 flags;
};

struct lb_stats {
	__u64 v1;
	__u64 v2;
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
	__uint(max_entries, RING_SIZE *MAX_VIPS);
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
	__uint(max_entries, MAX_VIPS);
} stats SEC(".maps");

struct packet_description {
	__be32 src;
	__be32 dst;
	union {
		__u32 ports;
		__u16 port16[2];
	};
	__u8 proto;
};

static __always_inline __u32 rol32(__u32 word, unsigned int shift)
{
	return (word << shift) | (word >> ((-shift) & 31));
}

#define __jhash_final(a, b, c)                                                                     \
	{                                                                                          \
		c ^= b;                                                                            \
		c -= rol32(b, 14);                                                                 \
		a ^= c;                                                                            \
		a -= rol32(c, 11);                                                                 \
		b ^= a;                                                                            \
		b -= rol32(a, 25);                                                                 \
		c ^= b;                                                                            \
		c -= rol32(b, 16);                                                                 \
		a ^= c;                                                                            \
		a -= rol32(c, 4);                                                                  \
		b ^= a;                                                                            \
		b -= rol32(a, 14);                                                                 \
		c ^= b;                                                                            \
		c -= rol32(b, 24);                                                                 \
	}

static __always_inline __u32 jhash_3words(__u32 a, __u32 b, __u32 c, __u32 initval)
{
	a += 0xdeadbeef + initval;
	b += 0xdeadbeef + initval;
	c += 0xdeadbeef + initval;
	__jhash_final(a, b, c);
	return c;
}

static __always_inline __u32 get_packet_hash(struct packet_description *pckt)
{
	return jhash_3words(pckt->src, pckt->dst, pckt->ports, RING_SIZE);
}

static __always_inline __u16 csum_fold_helper(__u64 csum)
{
	int i;

#pragma unroll
	for (i = 0; i < 4; i++) {
		if (csum >> 16)
			csum = (csum & 0xffff) + (csum >> 16);
	}
	return ~csum;
}

static __always_inline void ipv4_csum_inline(void *iph, __u64 *csum)
{
	__u16 *next_iph_u16 = (__u16 *)iph;
	int i;

#pragma clang loop unroll(full)
	for (i = 0; i < (int)(sizeof(struct iphdr) >> 1); i++)
		*csum += *next_iph_u16++;
	*csum = csum_fold_helper(*csum);
}

static __always_inline int encap_v4(struct xdp_md *xdp, struct real_definition *dst, __be32 saddr,
				    __u16 pkt_bytes)
{
	void *data, *data_end;
	struct ethhdr *new_eth, *old_eth;
	struct iphdr *iph;
	__u64 csum = 0;

	if (bpf_xdp_adjust_head(xdp, 0 - (int)sizeof(struct iphdr)))
		return 0;
	data = (void *)(long)xdp->data;
	data_end = (void *)(long)xdp->data_end;
	new_eth = data;
	iph = data + sizeof(struct ethhdr);
	old_eth = data + sizeof(struct iphdr);
	if ((void *)(iph + 1) > data_end || (void *)(old_eth + 1) > data_end)
		return 0;
	__builtin_memcpy(new_eth->h_source, old_eth->h_dest, 6);
	__builtin_memcpy(new_eth->h_dest, old_eth->h_source, 6);
	new_eth->h_proto = bpf_htons(ETH_P_IP);

	iph->version = 4;
	iph->ihl = 5;
	iph->frag_off = 0;
	iph->protocol = IPPROTO_IPIP;
	iph->check = 0;
	iph->tos = 0;
	iph->tot_len = bpf_htons(pkt_bytes + sizeof(struct iphdr));
	iph->id = 0;
	iph->daddr = dst->dst;
	iph->saddr = saddr;
	iph->ttl = 64;
	ipv4_csum_inline(iph, &csum);
	iph->check = csum;
	return 1;
}

SEC("xdp")
int balancer_ingress(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct packet_description pckt = {};
	struct real_definition *dst;
	struct ethhdr *eth = data;
	struct vip_meta *vip_info;
	struct lb_stats *st;
	struct iphdr *iph;
	__u32 key, *real_pos, vip_num;
	__u16 pkt_bytes;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end)
		return XDP_DROP;
	if (iph->ihl != 5)
		return XDP_DROP;
	if (iph->frag_off & bpf_htons(0x3fff))
		return XDP_DROP;
	pckt.proto = iph->protocol;
	pkt_bytes = bpf_ntohs(iph->tot_len);
	pckt.src = iph->saddr;
	pckt.dst = iph->daddr;
	if (pckt.proto == IPPROTO_TCP || pckt.proto == IPPROTO_UDP) {
		__u16 *ports = (void *)(iph + 1);

		if ((void *)(ports + 2) > data_end)
			return XDP_DROP;
		pckt.ports = ((__u32)ports[0] << 16) | ports[1];
	} else {
		return XDP_PASS;
	}

	vip_info = bpf_map_lookup_elem(&vip_map, &pckt.dst);
	if (!vip_info)
		return XDP_PASS;
	vip_num = vip_info->vip_num % MAX_VIPS;

	key = (get_packet_hash(&pckt) % RING_SIZE) + vip_num * RING_SIZE;
	real_pos = bpf_map_lookup_elem(&ch_rings, &key);
	if (!real_pos)
		return XDP_DROP;
	key = *real_pos % MAX_REALS;
	dst = bpf_map_lookup_elem(&reals, &key);
	if (!dst)
		return XDP_DROP;

	st = bpf_map_lookup_elem(&stats, &vip_num);
	if (!st)
		return XDP_DROP;
	st->v1 += 1;
	st->v2 += pkt_bytes;

	if (!encap_v4(ctx, dst, 0x0a00000a, pkt_bytes))
		return XDP_DROP;
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
