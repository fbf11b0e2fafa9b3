// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of the kernel's xdp_hw_metadata selftest and xdp-project's
 * AF_XDP-interaction example: the receive hints of the netdev (timestamp,
 * RSS hash and type, VLAN tag) through the XDP metadata kfuncs into a
 * metadata area in front of the frame (bpf_xdp_adjust_meta), for a later
 * stage to read. Where a hint is missing (-EOPNOTSUPP, -ENODATA) the error
 * is kept and a software hash of the addresses stands in for the RSS hash;
 * a map counts the outcomes. UDP frames are sent back (XDP_TX) with the
 * hints written over their payload, where a test can see them.
 *
 * The kernel lets only a device-bound program call these kfuncs (loaded
 * with prog_ifindex and BPF_F_XDP_DEV_BOUND_ONLY), as such loaders do.
 */
#include "include/corpus.h"

/* The kernel's enum (include/net/xdp.h); only its size matters here. */
enum xdp_rss_hash_type {
	XDP_RSS_TYPE_NONE = 0,
};

extern int bpf_xdp_metadata_rx_timestamp(const struct xdp_md *ctx, __u64 *timestamp) __ksym;
extern int bpf_xdp_metadata_rx_hash(const struct xdp_md *ctx, __u32 *hash,
				    enum xdp_rss_hash_type *rss_type) __ksym;
extern int bpf_xdp_metadata_rx_vlan_tag(const struct xdp_md *ctx, __be16 *vlan_proto,
					__u16 *vlan_tci) __ksym;

struct xdp_hints {
	__u64 rx_timestamp;
	__u32 rx_hash;
	__u32 rx_hash_type;
	__be16 vlan_proto;
	__u16 vlan_tci;
	__s16 ts_err, hash_err;
	__s16 vlan_err;
	__u16 flags;
	__u32 pad; /* the headroom's old bytes otherwise */
};

#define HINT_TS	  (1 << 0)
#define HINT_HASH (1 << 1)
#define HINT_VLAN (1 << 2)
#define HINT_SW	  (1 << 3) /* the hash is the software one */

enum { CNT_TS, CNT_HASH, CNT_VLAN, CNT_NO_HINTS, CNT_NO_META, CNT_TX, CNT_MAX };

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, CNT_MAX);
} hint_cnt SEC(".maps");

static __always_inline void count(__u32 what)
{
	__u64 *c = bpf_map_lookup_elem(&hint_cnt, &what);

	if (c)
		__sync_fetch_and_add(c, 1);
}

/* A stand-in for RSS: the IPv4 addresses and ports, mixed. */
static __always_inline __u32 sw_hash(void *data, void *data_end, __u8 *l4)
{
	struct ethhdr *eth = data;
	struct iphdr *iph = (void *)(eth + 1);
	struct udphdr *uh;
	__u32 h;

	*l4 = 0;
	if ((void *)(iph + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return 0;
	h = iph->saddr ^ (iph->daddr * 0x9e3779b1u);
	*l4 = iph->protocol;
	uh = (void *)iph + iph->ihl * 4;
	if (iph->protocol == IPPROTO_UDP && (void *)(uh + 1) <= data_end)
		h ^= ((__u32)uh->source << 16 | uh->dest) * 0x85ebca6bu;
	return h ? h : 1;
}

SEC("xdp")
int xdp_rx_hints(struct xdp_md *ctx)
{
	struct xdp_hints *meta;
	void *data, *data_end;
	struct ethhdr *eth;
	struct iphdr *iph;
	struct udphdr *uh;
	__u8 mac[ETH_ALEN];
	__u8 l4;
	int err;

	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(*meta))) {
		count(CNT_NO_META);
		return XDP_PASS;
	}
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	meta = (void *)(long)ctx->data_meta;
	if ((void *)(meta + 1) > data)
		return XDP_ABORTED;

	meta->flags = 0;
	meta->pad = 0;
	err = bpf_xdp_metadata_rx_timestamp(ctx, &meta->rx_timestamp);
	meta->ts_err = err;
	if (!err) {
		meta->flags |= HINT_TS;
		count(CNT_TS);
	} else {
		meta->rx_timestamp = 0;
	}
	err = bpf_xdp_metadata_rx_hash(ctx, &meta->rx_hash,
				       (enum xdp_rss_hash_type *)&meta->rx_hash_type);
	meta->hash_err = err;
	if (!err) {
		meta->flags |= HINT_HASH;
		count(CNT_HASH);
	}
	err = bpf_xdp_metadata_rx_vlan_tag(ctx, &meta->vlan_proto, &meta->vlan_tci);
	meta->vlan_err = err;
	if (!err) {
		meta->flags |= HINT_VLAN;
		count(CNT_VLAN);
	} else {
		meta->vlan_proto = 0;
		meta->vlan_tci = 0;
	}
	if (!(meta->flags & (HINT_TS | HINT_HASH | HINT_VLAN)))
		count(CNT_NO_HINTS);

	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	if (!(meta->flags & HINT_HASH)) {
		meta->rx_hash = sw_hash(data, data_end, &l4);
		meta->rx_hash_type = XDP_RSS_TYPE_NONE;
		meta->flags |= HINT_SW;
	} else {
		sw_hash(data, data_end, &l4);
	}

	/* UDP goes back with the hints over its first bytes */
	eth = data;
	iph = (void *)(eth + 1);
	if (l4 != IPPROTO_UDP || (void *)(iph + 1) > data_end || iph->ihl != 5)
		return XDP_PASS;
	uh = (void *)(iph + 1);
	if ((void *)(uh + 1) + sizeof(*meta) > data_end)
		return XDP_PASS;
	__builtin_memcpy((void *)(uh + 1), meta, sizeof(*meta));
	uh->check = 0;
	__builtin_memcpy(mac, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, mac, ETH_ALEN);
	count(CNT_TX);
	return XDP_TX;
}

char LICENSE[] SEC("license") = "GPL";
