// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of Cilium's bpf_xdp.c: an entry program that classifies the
 * frame with a big switch on the ethertype and hands it on through a
 * PROG_ARRAY tail call to a per-family program (IPv4, IPv6), each helper
 * __always_inline, the frame's state carried in a per-CPU scratch map. If a
 * tail call finds no program the entry falls back to a drop reason counter
 * and passes the frame, as Cilium's "missed tail call" path does.
 */
#include "include/corpus.h"

#define CILIUM_CALL_IPV4      1
#define CILIUM_CALL_IPV6      2
#define DROP_MISSED_TAIL_CALL 0
#define DROP_UNKNOWN_L3	      1
#define DROP_INVALID	      2

struct scratch {
	__u32 l3_off;
	__u32 proto;
};

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, 4);
} cilium_calls_xdp SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct scratch);
	__uint(max_entries, 1);
} cilium_scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 4);
} cilium_drops SEC(".maps");

static __always_inline int send_drop_notify(__u32 reason, int verdict)
{
	__u64 *cnt = bpf_map_lookup_elem(&cilium_drops, &reason);

	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	return verdict;
}

static __always_inline struct scratch *scratch_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&cilium_scratch, &zero);
}

static __always_inline int validate_ethertype(struct xdp_md *ctx, __u16 *proto, __u32 *l3_off)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;

	if (data + ETH_HLEN > data_end)
		return 0;
	*proto = eth->h_proto;
	*l3_off = ETH_HLEN;
	if (bpf_ntohs(*proto) < ETH_P_802_3_MIN)
		return 0;
	return 1;
}

SEC("xdp")
int cil_xdp_entry(struct xdp_md *ctx)
{
	struct scratch *s;
	__u32 l3_off;
	__u16 proto;

	if (!validate_ethertype(ctx, &proto, &l3_off))
		return send_drop_notify(DROP_INVALID, XDP_DROP);
	s = scratch_get();
	if (!s)
		return XDP_ABORTED;
	s->l3_off = l3_off;
	s->proto = proto;

	switch (proto) {
	case bpf_htons(ETH_P_IP):
		bpf_tail_call(ctx, &cilium_calls_xdp, CILIUM_CALL_IPV4);
		return send_drop_notify(DROP_MISSED_TAIL_CALL, XDP_PASS);
	case bpf_htons(ETH_P_IPV6):
		bpf_tail_call(ctx, &cilium_calls_xdp, CILIUM_CALL_IPV6);
		return send_drop_notify(DROP_MISSED_TAIL_CALL, XDP_PASS);
	case bpf_htons(ETH_P_ARP):
	case bpf_htons(ETH_P_8021Q):
	case bpf_htons(ETH_P_8021AD):
		return XDP_PASS;
	case bpf_htons(0x88cc): /* LLDP */
		return XDP_PASS;
	default:
		return send_drop_notify(DROP_UNKNOWN_L3, XDP_PASS);
	}
}

SEC("xdp")
int tail_handle_ipv4(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct scratch *s = scratch_get();
	struct iphdr *iph;

	if (!s)
		return XDP_ABORTED;
	iph = data + ETH_HLEN;
	if ((void *)(iph + 1) > data_end)
		return send_drop_notify(DROP_INVALID, XDP_DROP);
	if (iph->ttl <= 1)
		return XDP_PASS;
	return iph->protocol == IPPROTO_ICMP ? XDP_DROP : XDP_PASS;
}

SEC("xdp")
int tail_handle_ipv6(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ipv6hdr *ip6h = data + ETH_HLEN;

	if ((void *)(ip6h + 1) > data_end)
		return send_drop_notify(DROP_INVALID, XDP_DROP);
	return ip6h->nexthdr == IPPROTO_ICMPV6 ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
