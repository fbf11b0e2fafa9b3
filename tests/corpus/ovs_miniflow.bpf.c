// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of Open vSwitch's AF_XDP/eBPF datapath: a miniflow is
 * extracted from the frame into a zeroed key (in_port, MACs, VLAN TCI,
 * ethertype, IPv4 or IPv6 addresses folded to 32 bits, protocol, TOS, TTL,
 * L4 ports), fields copied out of the frame with __builtin_memcpy where
 * they sit unaligned and turned to host order with __builtin_bswap; the key
 * is looked up in a flow hash map whose value is an action (drop, pass,
 * output to a port through a devmap). A miss is an upcall: counted in a
 * per-CPU array and passed to the host, which would install the flow.
 */
#include "include/corpus.h"

enum { ACT_DROP = 1, ACT_PASS, ACT_OUTPUT };
enum { STAT_HIT, STAT_UPCALL, STAT_BAD, STAT_MAX };

struct flow_key {
	__u32 in_port;
	__u8 dl_dst[6];
	__u8 dl_src[6];
	__u16 vlan_tci;
	__u16 dl_type;
	__u32 nw_src; /* host order; IPv6: the xor of the address's words */
	__u32 nw_dst;
	__u8 nw_proto;
	__u8 nw_tos;
	__u8 nw_ttl;
	__u8 pad;
	__u16 tp_src; /* host order */
	__u16 tp_dst;
};

struct flow_action {
	__u32 kind;
	__u32 port;
	__u64 packets;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct flow_key);
	__type(value, struct flow_action);
	__uint(max_entries, 4096);
} flow_table SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, STAT_MAX);
} dp_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 8);
} out_ports SEC(".maps");

static __always_inline void stat(__u32 idx)
{
	__u64 *v = bpf_map_lookup_elem(&dp_stats, &idx);

	if (v)
		*v += 1;
}

static __always_inline int extract_l4(void *l4, void *data_end, __u8 proto, struct flow_key *key)
{
	__u16 ports[2];

	if (proto != IPPROTO_TCP && proto != IPPROTO_UDP)
		return 0;
	if (l4 + 4 > data_end)
		return -1;
	__builtin_memcpy(ports, l4, sizeof(ports));
	key->tp_src = __builtin_bswap16(ports[0]);
	key->tp_dst = __builtin_bswap16(ports[1]);
	return 0;
}

SEC("xdp")
int xdp_ovs_flow(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct flow_action *act;
	struct flow_key key;
	void *nh = data + 14;
	__u16 type;

	__builtin_memset(&key, 0, sizeof(key));
	if (nh > data_end) {
		stat(STAT_BAD);
		return XDP_DROP;
	}
	key.in_port = ctx->ingress_ifindex;
	__builtin_memcpy(key.dl_dst, data, 6);
	__builtin_memcpy(key.dl_src, data + 6, 6);
	__builtin_memcpy(&type, data + 12, 2);
	if (type == bpf_htons(ETH_P_8021Q)) {
		__u16 tci;

		if (nh + 4 > data_end) {
			stat(STAT_BAD);
			return XDP_DROP;
		}
		__builtin_memcpy(&tci, nh, 2);
		__builtin_memcpy(&type, nh + 2, 2);
		key.vlan_tci = __builtin_bswap16(tci) | 0x1000;
		nh += 4;
	}
	key.dl_type = __builtin_bswap16(type);

	if (type == bpf_htons(ETH_P_IP)) {
		struct iphdr *ip = nh;
		__u32 a;

		if ((void *)(ip + 1) > data_end)
			goto upcall;
		__builtin_memcpy(&a, &ip->saddr, 4);
		key.nw_src = __builtin_bswap32(a);
		__builtin_memcpy(&a, &ip->daddr, 4);
		key.nw_dst = __builtin_bswap32(a);
		key.nw_proto = ip->protocol;
		key.nw_tos = ip->tos;
		key.nw_ttl = ip->ttl;
		if (!(ip->frag_off & bpf_htons(0x1fff)) &&
		    extract_l4(nh + ip->ihl * 4, data_end, ip->protocol, &key))
			goto upcall;
	} else if (type == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6 = nh;
		__u32 w[4];

		if ((void *)(ip6 + 1) > data_end)
			goto upcall;
		__builtin_memcpy(w, &ip6->saddr, 16);
		key.nw_src = __builtin_bswap32(w[0] ^ w[1] ^ w[2] ^ w[3]);
		__builtin_memcpy(w, &ip6->daddr, 16);
		key.nw_dst = __builtin_bswap32(w[0] ^ w[1] ^ w[2] ^ w[3]);
		key.nw_proto = ip6->nexthdr;
		key.nw_ttl = ip6->hop_limit;
		if (extract_l4(ip6 + 1, data_end, ip6->nexthdr, &key))
			goto upcall;
	}

	act = bpf_map_lookup_elem(&flow_table, &key);
	if (!act)
		goto upcall;
	__sync_fetch_and_add(&act->packets, 1);
	stat(STAT_HIT);
	switch (act->kind) {
	case ACT_DROP:
		return XDP_DROP;
	case ACT_OUTPUT:
		return bpf_redirect_map(&out_ports, act->port & 7, XDP_PASS);
	default:
		return XDP_PASS;
	}
upcall:
	stat(STAT_UPCALL);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
