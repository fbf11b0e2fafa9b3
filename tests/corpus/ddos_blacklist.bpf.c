// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of the prototype-kernel's xdp_ddos01_blacklist: a per-CPU
 * hash keyed by IPv4 source address whose value counts the frames dropped
 * for it, and per-protocol port blacklists (arrays indexed by destination
 * port, a bit per protocol) with per-CPU drop counters by protocol. The
 * parse steps over up to two VLAN tags with a constant-bound loop that is not
 * unrolled by hand.
 */
#include "include/corpus.h"

enum {
	DDOS_FILTER_TCP = 0,
	DDOS_FILTER_UDP,
	DDOS_FILTER_MAX,
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 100000);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} blacklist SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, XDP_REDIRECT + 1);
} verdict_cnt SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 65536);
} port_blacklist SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 65536);
} port_blacklist_drop_count_tcp SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 65536);
} port_blacklist_drop_count_udp SEC(".maps");

static __always_inline void stats_action_verdict(__u32 action)
{
	__u64 *value;

	if (action > XDP_REDIRECT)
		return;
	value = bpf_map_lookup_elem(&verdict_cnt, &action);
	if (value)
		*value += 1;
}

static __always_inline __u32 parse_port(struct xdp_md *ctx, __u8 proto, void *hdr)
{
	void *data_end = (void *)(long)ctx->data_end;
	__u32 dport_idx, dport, *value;
	__u64 *drops;
	__u32 fproto;

	switch (proto) {
	case IPPROTO_UDP: {
		struct udphdr *udph = hdr;

		if ((void *)(udph + 1) > data_end)
			return XDP_ABORTED;
		dport = bpf_ntohs(udph->dest);
		fproto = DDOS_FILTER_UDP;
		break;
	}
	case IPPROTO_TCP: {
		struct tcphdr *tcph = hdr;

		if ((void *)(tcph + 1) > data_end)
			return XDP_ABORTED;
		dport = bpf_ntohs(tcph->dest);
		fproto = DDOS_FILTER_TCP;
		break;
	}
	default:
		return XDP_PASS;
	}

	dport_idx = dport;
	value = bpf_map_lookup_elem(&port_blacklist, &dport_idx);
	if (value && (*value & (1 << fproto))) {
		if (fproto == DDOS_FILTER_TCP)
			drops = bpf_map_lookup_elem(&port_blacklist_drop_count_tcp, &dport_idx);
		else
			drops = bpf_map_lookup_elem(&port_blacklist_drop_count_udp, &dport_idx);
		if (drops)
			*drops += 1;
		return XDP_DROP;
	}
	return XDP_PASS;
}

static __always_inline __u32 parse_ipv4(struct xdp_md *ctx, __u64 l3_offset)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct iphdr *iph = data + l3_offset;
	__u64 *value;
	__u32 ip_src;

	if ((void *)(iph + 1) > data_end)
		return XDP_ABORTED;
	ip_src = iph->saddr;

	value = bpf_map_lookup_elem(&blacklist, &ip_src);
	if (value) {
		*value += 1;
		return XDP_DROP;
	}
	if (iph->ihl != 5)
		return XDP_PASS;
	return parse_port(ctx, iph->protocol, iph + 1);
}

static __always_inline __u32 handle_eth_protocol(struct xdp_md *ctx, __u16 eth_proto,
						 __u64 l3_offset)
{
	switch (eth_proto) {
	case ETH_P_IP:
		return parse_ipv4(ctx, l3_offset);
	case ETH_P_IPV6:
	case ETH_P_ARP:
	default:
		return XDP_PASS;
	}
}

SEC("xdp")
int xdp_program(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u16 eth_proto;
	__u64 l3_offset;
	__u32 action;
	int i;

	l3_offset = sizeof(*eth);
	if (data + l3_offset > data_end) {
		action = XDP_DROP;
		goto out;
	}
	eth_proto = bpf_ntohs(eth->h_proto);
	for (i = 0; i < 2; i++) {
		struct vlan_hdr *vh = data + l3_offset;

		if (eth_proto != ETH_P_8021Q && eth_proto != ETH_P_8021AD)
			break;
		if ((void *)(vh + 1) > data_end) {
			action = XDP_DROP;
			goto out;
		}
		eth_proto = bpf_ntohs(vh->h_vlan_encapsulated_proto);
		l3_offset += sizeof(*vh);
	}
	action = handle_eth_protocol(ctx, eth_proto, l3_offset);
out:
	stats_action_verdict(action);
	return action;
}

char _license[] SEC("license") = "GPL";
