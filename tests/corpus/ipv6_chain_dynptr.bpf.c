// SPDX-License-Identifier: GPL-2.0
/*
 * An IPv6 extension header walk through the frame's dynptr, in the manner
 * of Cilium's datapath: ctx helpers, negative drop reasons counted in a
 * metrics map before the drop, and loops over open-coded iterators. The
 * chain (hop-by-hop, routing, fragment, destination options, AH) is
 * followed for at most IPV6_MAX_HEADERS headers; a type 0 routing header
 * (RFC 5095) is dropped, a later fragment passes without an L4 look, and
 * a TCP header's options are walked for an MSS too small to be honest. The
 * L4 stage finds the chain's end in per-CPU scratch slots, as Cilium's XDP
 * code passes what tc keeps in skb->cb.
 */
#include "include/corpus.h"

#define __section(x) __attribute__((section(x), used))
#define __ctx_buff   xdp_md
#define CTX_ACT_OK   XDP_PASS
#define CTX_ACT_DROP XDP_DROP

#define IPV6_MAX_HEADERS 6
#define TCP_MAX_OPTIONS	 40
#define TCP_MIN_MSS	 536

#define NEXTHDR_HOP	 0
#define NEXTHDR_ROUTING	 43
#define NEXTHDR_FRAGMENT 44
#define NEXTHDR_AUTH	 51
#define NEXTHDR_DEST	 60

#define TCPOPT_EOL 0
#define TCPOPT_NOP 1
#define TCPOPT_MSS 2

#define DROP_INVALID	    -134
#define DROP_INVALID_EXTHDR -156
#define DROP_RH0	    -157
#define DROP_TCP_OPT	    -158
#define DROP_SMALL_MSS	    -159

enum metric_dir {
	METRIC_INGRESS = 1,
};

struct metrics_key {
	__u8 reason; /* 0: forwarded, else -DROP_* */
	__u8 dir;
	__u16 pad;
};

struct metrics_value {
	__u64 count;
	__u64 bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct metrics_key);
	__type(value, struct metrics_value);
	__uint(max_entries, 64);
} cilium_metrics_v6 SEC(".maps");

/* as Cilium's XDP side keeps what skb->cb holds for tc: per CPU */
enum {
	CB_L4_OFF,
	CB_NEXTHDR,
	CB_MAX,
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u32[CB_MAX]);
	__uint(max_entries, 1);
} cilium_xdp_scratch SEC(".maps");

struct bpf_iter_num {
	__u64 opaque[1];
} __attribute__((aligned(8)));

extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __ksym;
extern int bpf_dynptr_from_xdp(struct xdp_md *xdp, __u64 flags, struct bpf_dynptr *ptr) __ksym;
extern void *bpf_dynptr_slice(const struct bpf_dynptr *ptr, __u32 offset, void *buffer,
			      __u32 buffer__szk) __ksym;

static __always_inline int iter_step(struct bpf_iter_num *it, int *i)
{
	int *v = bpf_iter_num_next(it);

	if (!v)
		return 0;
	/* no bound needed: the index only makes dynptr offsets, which the
	 * kfunc checks */
	*i = *v;
	return 1;
}

/* a call clang 14 sees, so that the kfunc's BTF is emitted */
static __always_inline void iter_release(struct bpf_iter_num *it)
{
	bpf_iter_num_destroy(it);
}

/* i over [lo, hi), the iterator released however the loop is left */
#define for_each_idx(i, lo, hi)                                                                    \
	for (struct bpf_iter_num __iter __attribute__((cleanup(iter_release))),                    \
	     *__once __attribute__((unused)) = (bpf_iter_num_new(&__iter, lo, hi), NULL);          \
	     iter_step(&__iter, &(i));)

static __always_inline __u32 ctx_full_len(const struct __ctx_buff *ctx)
{
	return (__u32)(ctx->data_end - ctx->data);
}

static __always_inline void ctx_store_meta(struct __ctx_buff *ctx, __u32 slot, __u32 data)
{
	__u32 zero = 0, *meta = bpf_map_lookup_elem(&cilium_xdp_scratch, &zero);

	if (meta)
		meta[slot] = data;
}

static __always_inline __u32 ctx_load_meta(const struct __ctx_buff *ctx, __u32 slot)
{
	__u32 zero = 0, *meta = bpf_map_lookup_elem(&cilium_xdp_scratch, &zero);

	return meta ? meta[slot] : 0;
}

static __always_inline void update_metrics(const struct __ctx_buff *ctx, int reason)
{
	struct metrics_key key = { .reason = (__u8)-reason, .dir = METRIC_INGRESS };
	struct metrics_value *entry, fresh = {};

	entry = bpf_map_lookup_elem(&cilium_metrics_v6, &key);
	if (entry) {
		__sync_fetch_and_add(&entry->count, 1);
		__sync_fetch_and_add(&entry->bytes, ctx_full_len(ctx));
		return;
	}
	fresh.count = 1;
	fresh.bytes = ctx_full_len(ctx);
	bpf_map_update_elem(&cilium_metrics_v6, &key, &fresh, BPF_ANY);
}

static __always_inline int send_drop_notify(struct __ctx_buff *ctx, int reason)
{
	update_metrics(ctx, reason);
	return CTX_ACT_DROP;
}

struct ipv6_ext_hdr {
	__u8 nexthdr;
	__u8 hdrlen;
	__u8 type;     /* routing: its type; fragment: offset, high bits */
	__u8 segments; /* routing: segments left; fragment: offset, low bits, M */
};

/* The offset of the L4 header behind the chain at *off, its protocol in
 * *proto; a drop reason; or 1 for a later fragment, which has none. */
static __always_inline int ipv6_skip_exthdrs(const struct bpf_dynptr *pkt, __u32 *off, __u8 *proto)
{
	struct ipv6_ext_hdr buf, *hdr;
	__u8 nh = *proto;
	int i;

	for_each_idx(i, 0, IPV6_MAX_HEADERS)
	{
		if (nh != NEXTHDR_HOP && nh != NEXTHDR_ROUTING && nh != NEXTHDR_FRAGMENT &&
		    nh != NEXTHDR_AUTH && nh != NEXTHDR_DEST) {
			*proto = nh;
			return 0;
		}
		hdr = bpf_dynptr_slice(pkt, *off, &buf, sizeof(buf));
		if (!hdr)
			return DROP_INVALID_EXTHDR;
		switch (nh) {
		case NEXTHDR_ROUTING:
			if (hdr->type == 0)
				return DROP_RH0;
			*off += ((__u32)hdr->hdrlen + 1) * 8;
			break;
		case NEXTHDR_FRAGMENT:
			/* the offset's 13 bits: not 0, no L4 header here */
			if ((((__u16)hdr->type << 8 | hdr->segments) & 0xfff8) != 0)
				return 1;
			*off += 8;
			break;
		case NEXTHDR_AUTH:
			*off += ((__u32)hdr->hdrlen + 2) * 4;
			break;
		default:
			*off += ((__u32)hdr->hdrlen + 1) * 8;
		}
		nh = hdr->nexthdr;
	}
	return DROP_INVALID_EXTHDR;
}

/* The TCP header at off: its options looked through for the MSS, byte
 * by byte, the bytes of an option already read skipped. */
static __always_inline int tcp_check_options(const struct bpf_dynptr *pkt, __u32 off)
{
	struct tcphdr tbuf, *th;
	__u32 opts, end, skip = 0;
	__u8 obuf[4], *opt;
	int i;

	th = bpf_dynptr_slice(pkt, off, &tbuf, sizeof(tbuf));
	if (!th)
		return DROP_INVALID;
	if (th->doff < 5)
		return DROP_TCP_OPT;
	opts = off + sizeof(*th);
	end = off + th->doff * 4;
	for_each_idx(i, 0, TCP_MAX_OPTIONS)
	{
		__u32 at = opts + i;

		if (at >= end)
			break;
		if (skip) {
			skip--;
			continue;
		}
		opt = bpf_dynptr_slice(pkt, at, obuf, 1);
		if (!opt)
			return DROP_TCP_OPT;
		if (opt[0] == TCPOPT_EOL)
			break;
		if (opt[0] == TCPOPT_NOP)
			continue;
		opt = bpf_dynptr_slice(pkt, at, obuf, 2);
		if (!opt || opt[1] < 2 || at + opt[1] > end)
			return DROP_TCP_OPT;
		skip = opt[1] - 1;
		if (opt[0] != TCPOPT_MSS)
			continue;
		if (opt[1] != 4)
			return DROP_TCP_OPT;
		opt = bpf_dynptr_slice(pkt, at, obuf, 4);
		if (!opt)
			return DROP_TCP_OPT;
		if (((__u16)opt[2] << 8 | opt[3]) < TCP_MIN_MSS)
			return DROP_SMALL_MSS;
	}
	return 0;
}

/* The L4 stage: where the chain ended, from the scratch slots, as a
 * tail-called stage would find it. */
static __always_inline int handle_l4(struct __ctx_buff *ctx, const struct bpf_dynptr *pkt)
{
	int ret;

	if (ctx_load_meta(ctx, CB_NEXTHDR) == IPPROTO_TCP) {
		ret = tcp_check_options(pkt, ctx_load_meta(ctx, CB_L4_OFF));
		if (ret < 0)
			return send_drop_notify(ctx, ret);
	}
	update_metrics(ctx, 0);
	return CTX_ACT_OK;
}

__section("xdp") int cil_xdp_ipv6_chain(struct __ctx_buff *ctx)
{
	struct ipv6hdr ip6_buf, *ip6;
	struct ethhdr eth_buf, *eth;
	struct bpf_dynptr pkt;
	__u32 off = ETH_HLEN;
	__u8 proto;
	int ret;

	if (bpf_dynptr_from_xdp(ctx, 0, &pkt))
		return send_drop_notify(ctx, DROP_INVALID);
	eth = bpf_dynptr_slice(&pkt, 0, &eth_buf, sizeof(eth_buf));
	if (!eth || eth->h_proto != bpf_htons(ETH_P_IPV6))
		return CTX_ACT_OK;
	ip6 = bpf_dynptr_slice(&pkt, off, &ip6_buf, sizeof(ip6_buf));
	if (!ip6)
		return send_drop_notify(ctx, DROP_INVALID);
	proto = ip6->nexthdr;
	off += sizeof(*ip6);
	ret = ipv6_skip_exthdrs(&pkt, &off, &proto);
	if (ret < 0)
		return send_drop_notify(ctx, ret);
	if (ret > 0)
		proto = 0;
#ifdef L4_INLINE
	/* the L4 stage called at once, the chain's end in registers */
	if (proto == IPPROTO_TCP) {
		ret = tcp_check_options(&pkt, off);
		if (ret < 0)
			return send_drop_notify(ctx, ret);
	}
	update_metrics(ctx, 0);
	return CTX_ACT_OK;
#else
	ctx_store_meta(ctx, CB_L4_OFF, off);
	ctx_store_meta(ctx, CB_NEXTHDR, proto);
	return handle_l4(ctx, &pkt);
#endif
}

char _license[] __section("license") = "GPL";
