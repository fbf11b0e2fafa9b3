// SPDX-License-Identifier: GPL-2.0
/*
 * The forwarding program: VLAN logical interfaces, microflows, next hops,
 * tag push/pop/rewrite, TTL, ESP tunnel selection. One program for both
 * targets: translated for the coprocessor, and loaded into the kernel as the
 * host fallback for every frame the coprocessor punts.
 *
 * Every check that can send a frame to the host runs before the first write
 * to the frame, so a punted frame always reaches the host as it arrived.
 * docs/programs.md is the user-level description.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "hwxdp/fwd.h"
#include "hwxdp/platform.h"

/* Set by the loader before each load; the other target's code is dead. */
const volatile __u32 hwxdp_target = HWXDP_TARGET_HOST;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, HWXDP_MAX_PORTS);
	__type(key, __u32);
	__type(value, struct hwxdp_port);
} ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, HWXDP_MAX_PORTS);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} tx_ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, HWXDP_MAX_LIFS);
	__type(key, __u32);
	__type(value, struct hwxdp_lif);
} lifs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hwxdp_config);
} config SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, HWXDP_MAX_FLOWS);
	__type(key, struct hwxdp_flow_key);
	__type(value, struct hwxdp_flow);
} flows SEC(".maps");

/* The coprocessor holds far more connections than the host copy's map:
 * the flow table's size on the device (hwxdp_entries_MAP, loader/device.c). */
const volatile __u32 hwxdp_entries_flows = 2000000;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, HWXDP_MAX_NEXTHOPS);
	__type(key, __u32);
	__type(value, struct hwxdp_nexthop);
} nexthops SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, HWXDP_MAX_SAS);
	__type(key, __u32);
	__type(value, struct hwxdp_sa);
} sas SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, HWXDP_PUNT__MAX);
	__type(key, __u32);
	__type(value, struct hwxdp_counter);
} punt_stats SEC(".maps");

#define ETH_P_8021AD_ 0x88a8
#define ETH_P_QINQ1_  0x9100
#define VLAN_HLEN_    4
#define IP_MF_        0x2000
#define IP_OFFSET_    0x1fff

/* Outer IPv4 + ESP header + GCM IV + trailer (pad length, next header) + ICV. */
#define ESP_TUNNEL_OVERHEAD (20 + 8 + 8 + 2 + 16)

struct vlan_hdr_ {
	__be16 tci;
	__be16 proto;
};

/* What parsing learned; the commit phase works from this alone. */
struct frame {
	__u32 len;                    /* bytes as it arrived */
	__u32 iface_id;               /* ingress port */
	__u32 lif;
	__u16 tci;                    /* arriving tag, when tagged */
	__u8 tagged;
	__u8 family;
	__u32 l3_off;
	__u32 l3_len;                 /* IP total length */
	__u8 ttl;
	__u8 pad[3];
	struct hwxdp_flow_key key;
};

/* The decision, carried to the exit: reason is set for a punt. */
struct verdict {
	__u32 lif;
	__u32 egress_port;
	__u16 reason;
};

static __always_inline int punt(struct verdict *v, __u16 reason)
{
	v->reason = reason;
	return XDP_PASS;
}

static __always_inline int is_tag_tpid(__be16 proto)
{
	return proto == bpf_htons(ETH_P_8021Q) || proto == bpf_htons(ETH_P_8021AD_) ||
	       proto == bpf_htons(ETH_P_QINQ1_);
}

static __always_inline int is_ipv6_ext(__u8 nexthdr)
{
	switch (nexthdr) {
	case IPPROTO_HOPOPTS:
	case IPPROTO_ROUTING:
	case IPPROTO_FRAGMENT:
	case IPPROTO_AH:
	case IPPROTO_DSTOPTS:
	case 135: /* mobility */
	case 139: /* HIP */
	case 140: /* shim6 */
	case 253: /* experimental */
	case 254:
		return 1;
	}
	return 0;
}

/* The L4 header must be whole, both in the frame and inside the IP length. */
static __always_inline int l4_fits(void *l4, void *data_end, __u32 room, __u8 proto)
{
	__u32 need = proto == IPPROTO_TCP ? 20 : 8;

	return need <= room && l4 + need <= data_end;
}

static __always_inline int parse_ipv4(void *l3, void *data_end, struct frame *f,
				      struct verdict *v)
{
	struct iphdr *iph = l3;
	__u32 ihl_bytes;
	void *l4;

	if ((void *)(iph + 1) > data_end)
		return punt(v, HWXDP_PUNT_MALFORMED);
	if (iph->version != 4 || iph->ihl < 5)
		return punt(v, HWXDP_PUNT_MALFORMED);
	ihl_bytes = iph->ihl * 4;
	f->l3_len = bpf_ntohs(iph->tot_len);
	if (f->l3_len < ihl_bytes || l3 + f->l3_len > data_end)
		return punt(v, HWXDP_PUNT_MALFORMED);
	if (iph->ihl != 5)
		return punt(v, HWXDP_PUNT_IP_OPTIONS);
	if (iph->frag_off & bpf_htons(IP_MF_ | IP_OFFSET_))
		return punt(v, HWXDP_PUNT_FRAGMENT);
	if (iph->protocol != IPPROTO_TCP && iph->protocol != IPPROTO_UDP)
		return punt(v, HWXDP_PUNT_L4_PROTO);
	l4 = iph + 1;
	if (!l4_fits(l4, data_end, f->l3_len - sizeof(*iph), iph->protocol))
		return punt(v, HWXDP_PUNT_MALFORMED);

	f->family = HWXDP_FAMILY_IPV4;
	f->ttl = iph->ttl;
	f->key.family = HWXDP_FAMILY_IPV4;
	f->key.proto = iph->protocol;
	__builtin_memcpy(f->key.src, &iph->saddr, 4);
	__builtin_memcpy(f->key.dst, &iph->daddr, 4);
	__builtin_memcpy(&f->key.sport_be, l4, 4);
	return XDP_REDIRECT;
}

static __always_inline int parse_ipv6(void *l3, void *data_end, struct frame *f,
				      struct verdict *v)
{
	struct ipv6hdr *ip6h = l3;
	void *l4;

	if ((void *)(ip6h + 1) > data_end)
		return punt(v, HWXDP_PUNT_MALFORMED);
	if (ip6h->version != 6)
		return punt(v, HWXDP_PUNT_MALFORMED);
	f->l3_len = sizeof(*ip6h) + bpf_ntohs(ip6h->payload_len);
	if (l3 + f->l3_len > data_end)
		return punt(v, HWXDP_PUNT_MALFORMED);
	if (is_ipv6_ext(ip6h->nexthdr))
		return punt(v, HWXDP_PUNT_IPV6_EXT);
	if (ip6h->nexthdr != IPPROTO_TCP && ip6h->nexthdr != IPPROTO_UDP)
		return punt(v, HWXDP_PUNT_L4_PROTO);
	l4 = ip6h + 1;
	if (!l4_fits(l4, data_end, f->l3_len - sizeof(*ip6h), ip6h->nexthdr))
		return punt(v, HWXDP_PUNT_MALFORMED);

	f->family = HWXDP_FAMILY_IPV6;
	f->ttl = ip6h->hop_limit;
	f->key.family = HWXDP_FAMILY_IPV6;
	f->key.proto = ip6h->nexthdr;
	__builtin_memcpy(f->key.src, &ip6h->saddr, 16);
	__builtin_memcpy(f->key.dst, &ip6h->daddr, 16);
	__builtin_memcpy(&f->key.sport_be, l4, 4);
	return XDP_REDIRECT;
}

/* Ethernet, at most one 802.1Q tag, the LIF and its state, then L3/L4. */
static __always_inline int parse(struct xdp_md *ctx, struct frame *f, struct verdict *v,
				 const struct hwxdp_config *cfg)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct hwxdp_port *port;
	struct hwxdp_lif *lif;
	void *l3 = eth + 1;
	__u32 ifindex = ctx->ingress_ifindex;
	__be16 proto;
	__u16 vlan = 0;

	f->len = data_end - data;
	if (l3 > data_end)
		return punt(v, HWXDP_PUNT_MALFORMED);
	port = bpf_map_lookup_elem(&ports, &ifindex);
	if (!port)
		return punt(v, HWXDP_PUNT_UNKNOWN_PORT);
	f->iface_id = port->iface_id;

	proto = eth->h_proto;
	if (proto == bpf_htons(ETH_P_8021AD_) || proto == bpf_htons(ETH_P_QINQ1_))
		return punt(v, HWXDP_PUNT_QINQ);
	if (proto == bpf_htons(ETH_P_8021Q)) {
		struct vlan_hdr_ *vh = l3;

		if ((void *)(vh + 1) > data_end)
			return punt(v, HWXDP_PUNT_MALFORMED);
		proto = vh->proto;
		if (is_tag_tpid(proto))
			return punt(v, HWXDP_PUNT_QINQ);
		f->tci = bpf_ntohs(vh->tci);
		vlan = f->tci & HWXDP_VLAN_MASK;
		if (vlan == HWXDP_VLAN_RESERVED)
			return punt(v, HWXDP_PUNT_VLAN_RESERVED);
		f->tagged = 1;
		l3 = vh + 1;
	}

	f->lif = HWXDP_LIF(f->iface_id, vlan);
	v->lif = f->lif;
	lif = bpf_map_lookup_elem(&lifs, &f->lif);
	if (!lif)
		return punt(v, HWXDP_PUNT_UNKNOWN_VLAN);
	if (lif->state == HWXDP_LIF_ADMIN_DISABLED) {
		__sync_fetch_and_add(&lif->rx_dropped, 1);
		return XDP_DROP;
	}
	if (lif->state != HWXDP_LIF_ENABLED)
		return punt(v, HWXDP_PUNT_LIF_OFFLOAD_OFF);
	if (vlan && !cfg->vlan_flows)
		return punt(v, HWXDP_PUNT_VLAN_FLOWS_OFF);

	f->l3_off = l3 - data;
	f->key.lif = f->lif;
	if (proto == bpf_htons(ETH_P_IP))
		return parse_ipv4(l3, data_end, f, v);
	if (proto == bpf_htons(ETH_P_IPV6))
		return parse_ipv6(l3, data_end, f, v);
	return punt(v, HWXDP_PUNT_ETHERTYPE);
}

/* TTL - 1 with the header checksum adjusted for the changed word (RFC 1624). */
static __always_inline void ipv4_decrement_ttl(struct iphdr *iph)
{
	__u32 check = iph->check;

	check += bpf_htons(0x0100);
	iph->check = (__sum16)(check + (check >= 0xffff));
	iph->ttl--;
}

static __always_inline void ipv4_increment_ttl(struct iphdr *iph)
{
	__u32 check = iph->check;

	check += bpf_htons(0xfeff);
	iph->check = (__sum16)(check + (check >= 0xffff));
	iph->ttl++;
}

#ifdef HWXDP_FWD_MARK
/* A test build's mark: DSCP HWXDP_FWD_MARK on the IPv4 frames it forwards,
 * the header checksum adjusted for the changed word (RFC 1624), so that
 * the far end can tell which build forwarded a frame. */
static __always_inline void ipv4_mark(struct iphdr *iph)
{
	__u16 old = *(__u16 *)iph, new;
	__u32 sum;

	iph->tos = (__u8)(HWXDP_FWD_MARK << 2 | (iph->tos & 3));
	new = *(__u16 *)iph;
	sum = (__u16)~iph->check + (__u32)(__u16)~old + new;
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	iph->check = (__sum16) ~(__u16)sum;
}
#endif

/* Hop limit / TTL - 1 (or + 1 to undo); 0 on success. */
static __always_inline int adjust_ttl(struct xdp_md *ctx, const struct frame *f, int down)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	void *l3 = data + (f->l3_off & 0xff);

	if (f->family == HWXDP_FAMILY_IPV4) {
		struct iphdr *iph = l3;

		if ((void *)(iph + 1) > data_end)
			return -1;
		if (down)
			ipv4_decrement_ttl(iph);
		else
			ipv4_increment_ttl(iph);
#ifdef HWXDP_FWD_MARK
		if (down)
			ipv4_mark(iph);
#endif
	} else {
		struct ipv6hdr *ip6h = l3;

		if ((void *)(ip6h + 1) > data_end)
			return -1;
		ip6h->hop_limit += down ? -1 : 1;
	}
	return 0;
}

/*
 * The Ethernet header the next hop wants: push, pop or rewrite the tag, new
 * MACs. Popping leaves the inner ethertype where the new header ends, and
 * pushing leaves the old ethertype where the tag ends, so neither copies.
 */
static __always_inline int rewrite_l2(struct xdp_md *ctx, const struct frame *f,
				      const struct hwxdp_nexthop *nh, int tunnel)
{
	struct ethhdr *eth;
	void *data, *data_end;
	__u16 tci = 0;

	if (f->tagged && !nh->vlan) {
		if (bpf_xdp_adjust_head(ctx, VLAN_HLEN_))
			return -1;
	} else if (!f->tagged && nh->vlan) {
		if (bpf_xdp_adjust_head(ctx, -VLAN_HLEN_))
			return -1;
	}
	if (nh->vlan)
		tci = (f->tagged ? (f->tci & ~HWXDP_VLAN_MASK) : 0) | nh->vlan;

	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	eth = data;
	if ((void *)(eth + 1) + (nh->vlan ? VLAN_HLEN_ : 0) > data_end)
		return -1;
	__builtin_memcpy(eth->h_dest, nh->dmac, ETH_ALEN);
	__builtin_memcpy(eth->h_source, nh->smac, ETH_ALEN);
	if (nh->vlan) {
		struct vlan_hdr_ *vh = (void *)(eth + 1);

		if ((void *)(vh + 1) > data_end)
			return -1;
		eth->h_proto = bpf_htons(ETH_P_8021Q);
		vh->tci = bpf_htons(tci);
		if (tunnel)
			vh->proto = bpf_htons(ETH_P_IP);
	} else if (tunnel) {
		eth->h_proto = bpf_htons(ETH_P_IP);
	}
	return 0;
}

static __always_inline void count(struct hwxdp_lif *lif, int rx, __u64 bytes)
{
	if (rx) {
		__sync_fetch_and_add(&lif->rx_packets, 1);
		__sync_fetch_and_add(&lif->rx_bytes, bytes);
	} else {
		__sync_fetch_and_add(&lif->tx_packets, 1);
		__sync_fetch_and_add(&lif->tx_bytes, bytes);
	}
}

/* A VLAN's counts also go to its port's LIF when lif_apply is on. */
static __always_inline void count_port_lif(__u32 lif_id, int rx, __u64 bytes,
					   const struct hwxdp_config *cfg)
{
	__u32 port_lif = lif_id & ~HWXDP_VLAN_MASK;
	struct hwxdp_lif *lif;

	if (!HWXDP_LIF_VLAN(lif_id) || !cfg->lif_apply)
		return;
	lif = bpf_map_lookup_elem(&lifs, &port_lif);
	if (lif)
		count(lif, rx, bytes);
}

static __always_inline int forward(struct xdp_md *ctx, struct verdict *v)
{
	struct hwxdp_lif *in_lif, *out_lif;
	struct hwxdp_config *cfg;
	struct hwxdp_nexthop *nh;
	struct hwxdp_flow *flow;
	struct frame f = {};
	__u32 zero = 0, out_len, egress_lif, l3_len;
	int tunnel, action;

	cfg = bpf_map_lookup_elem(&config, &zero);
	if (!cfg)
		return punt(v, HWXDP_PUNT_MALFORMED);
	action = parse(ctx, &f, v, cfg);
	if (action != XDP_REDIRECT)
		return action;

	flow = bpf_map_lookup_elem(&flows, &f.key);
	if (!flow)
		return punt(v, HWXDP_PUNT_FLOW_MISS);
	nh = bpf_map_lookup_elem(&nexthops, &flow->nexthop);
	if (!nh || !(nh->flags & HWXDP_NEXTHOP_VALID) || nh->vlan >= HWXDP_VLAN_RESERVED)
		return punt(v, HWXDP_PUNT_NEXTHOP_MISS);
	if (!bpf_map_lookup_elem(&tx_ports, &nh->port))
		return punt(v, HWXDP_PUNT_EGRESS_MISS);
	if (nh->vlan && !cfg->vlan_flows)
		return punt(v, HWXDP_PUNT_VLAN_FLOWS_OFF);
	/* Leaving by a LIF that is switched off is the host's decision. */
	egress_lif = HWXDP_LIF(nh->port, nh->vlan);
	out_lif = bpf_map_lookup_elem(&lifs, &egress_lif);
	if (out_lif && out_lif->state != HWXDP_LIF_ENABLED)
		return punt(v, HWXDP_PUNT_EGRESS_LIF_OFF);
	if (f.ttl <= 1)
		return punt(v, HWXDP_PUNT_TTL_EXCEEDED);

	tunnel = flow->flags & HWXDP_FLOW_TUNNEL;
	l3_len = f.l3_len;
	if (tunnel) {
		struct hwxdp_sa *sa;

		if (!cfg->ipsec_flows)
			return punt(v, HWXDP_PUNT_IPSEC_OFF);
		sa = bpf_map_lookup_elem(&sas, &flow->sa_handle);
		if (!sa || !(sa->flags & HWXDP_SA_VALID) || sa->revision != flow->sa_revision)
			return punt(v, HWXDP_PUNT_SA_STALE);
		/* GCM pads the payload and trailer to 4 bytes. */
		l3_len = ((l3_len + 2 + 3) & ~3u) - 2 + ESP_TUNNEL_OVERHEAD;
	}
	if (l3_len > nh->mtu)
		return punt(v, HWXDP_PUNT_MTU_EXCEEDED);
	if (tunnel && (hwxdp_target != HWXDP_TARGET_DEVICE || !bpf_hwxdp_esp_encap))
		return punt(v, HWXDP_PUNT_NO_CRYPTO);

	/* Committed: from here on the frame is written. */
	if (adjust_ttl(ctx, &f, 1))
		return punt(v, HWXDP_PUNT_MALFORMED);
	if (tunnel && bpf_hwxdp_esp_encap(ctx, flow->sa_handle, f.l3_off)) {
		adjust_ttl(ctx, &f, 0);
		return punt(v, HWXDP_PUNT_ESP_FAILED);
	}
	if (rewrite_l2(ctx, &f, nh, tunnel))
		return XDP_ABORTED;

	out_len = (void *)(long)ctx->data_end - (void *)(long)ctx->data;
	__sync_fetch_and_add(&flow->packets, 1);
	__sync_fetch_and_add(&flow->bytes, f.len);
	in_lif = bpf_map_lookup_elem(&lifs, &f.lif);
	if (in_lif)
		count(in_lif, 1, f.len);
	count_port_lif(f.lif, 1, f.len, cfg);
	if (out_lif)
		count(out_lif, 0, out_len);
	count_port_lif(egress_lif, 0, out_len, cfg);

	v->egress_port = nh->port;
	if (nh->port == f.iface_id)
		return XDP_TX;
	return bpf_redirect_map(&tx_ports, nh->port, 0);
}

/* Count a punt and tell whoever receives the frame what was decided. */
static __always_inline int finish(struct xdp_md *ctx, int action, const struct verdict *v)
{
	struct hwxdp_meta *meta;
	void *data;

	if (action == XDP_PASS) {
		__u32 reason = v->reason;
		struct hwxdp_counter *c = bpf_map_lookup_elem(&punt_stats, &reason);

		if (c) {
			__sync_fetch_and_add(&c->packets, 1);
			__sync_fetch_and_add(&c->bytes,
					     (void *)(long)ctx->data_end - (void *)(long)ctx->data);
		}
	}
	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(*meta)))
		return action;
	meta = (void *)(long)ctx->data_meta;
	data = (void *)(long)ctx->data;
	if ((void *)(meta + 1) > data)
		return action;
	meta->lif = v->lif;
	meta->egress_port = v->egress_port;
	meta->reason = v->reason;
	meta->pad = 0;
	return action;
}

SEC("xdp")
int hwxdp_fwd(struct xdp_md *ctx)
{
	struct verdict v = {};
	int action = forward(ctx, &v);

	return finish(ctx, action, &v);
}

char LICENSE[] SEC("license") = "GPL";
