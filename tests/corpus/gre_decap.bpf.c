// SPDX-License-Identifier: GPL-2.0
/*
 * A tunnel terminator in the manner of the GRE and IPIP decapsulators
 * people put in front of a load balancer: an IPv4 frame carrying GRE
 * (version 0, with the optional checksum, key and sequence words) or IPIP
 * loses its outer IPv4 and GRE headers with bpf_xdp_adjust_head, the
 * Ethernet header is written again in front of the inner packet with the
 * inner protocol's type, and the frame goes on to the stack. Frames and
 * bytes removed count per tunnel kind in a per-CPU array; a GRE key, when
 * present, picks a per-key counter in a hash map.
 */
#include "include/corpus.h"

#define GRE_CSUM    0x8000
#define GRE_KEY	    0x2000
#define GRE_SEQ	    0x1000
#define GRE_VER	    0x0007
#define GRE_ROUTING 0x4000

enum { TUN_GRE, TUN_IPIP, TUN_BAD, TUN_MAX };

struct tun_stat {
	__u64 frames;
	__u64 bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct tun_stat);
	__uint(max_entries, TUN_MAX);
} tun_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 256);
} gre_keys SEC(".maps");

struct gre_base {
	__be16 flags;
	__be16 protocol;
};

static __always_inline void count(__u32 kind, __u32 bytes)
{
	struct tun_stat *st = bpf_map_lookup_elem(&tun_stats, &kind);

	if (st) {
		st->frames++;
		st->bytes += bytes;
	}
}

SEC("xdp")
int xdp_tunnel_decap(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data, saved;
	struct iphdr *outer;
	__u16 inner_proto;
	__u32 strip, kind;

	if ((void *)(eth + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	outer = (void *)(eth + 1);
	if ((void *)(outer + 1) > data_end)
		return XDP_PASS;
	/* a fragment or options: the stack reassembles and decides */
	if (outer->ihl != 5 || (outer->frag_off & bpf_htons(0x3fff)))
		return XDP_PASS;

	if (outer->protocol == IPPROTO_IPIP) {
		kind = TUN_IPIP;
		strip = sizeof(*outer);
		inner_proto = bpf_htons(ETH_P_IP);
	} else if (outer->protocol == IPPROTO_GRE) {
		struct gre_base *gre = (void *)(outer + 1);
		__u16 flags;

		if ((void *)(gre + 1) > data_end)
			return XDP_PASS;
		flags = bpf_ntohs(gre->flags);
		if ((flags & (GRE_VER | GRE_ROUTING)) || (gre->protocol != bpf_htons(ETH_P_IP) &&
							  gre->protocol != bpf_htons(ETH_P_IPV6))) {
			count(TUN_BAD, 0);
			return XDP_DROP;
		}
		strip = sizeof(*outer) + sizeof(*gre);
		if (flags & GRE_CSUM)
			strip += 4;
		if (flags & GRE_KEY) {
			__be32 *kp = (void *)outer + strip;
			__u32 key;
			__u64 *hits;

			if ((void *)(kp + 1) > data_end)
				return XDP_PASS;
			key = bpf_ntohl(*kp);
			hits = bpf_map_lookup_elem(&gre_keys, &key);
			if (hits)
				__sync_fetch_and_add(hits, 1);
			strip += 4;
		}
		if (flags & GRE_SEQ)
			strip += 4;
		kind = TUN_GRE;
		inner_proto = gre->protocol;
	} else {
		return XDP_PASS;
	}

	/* the inner packet must at least hold its version byte */
	if (data + sizeof(*eth) + strip + 1 > data_end)
		return XDP_PASS;
	__builtin_memcpy(&saved, eth, sizeof(saved));
	if (bpf_xdp_adjust_head(ctx, (int)strip))
		return XDP_ABORTED;
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	eth = data;
	if ((void *)(eth + 1) > data_end)
		return XDP_ABORTED;
	__builtin_memcpy(eth, &saved, sizeof(*eth));
	eth->h_proto = inner_proto;
	count(kind, strip);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
