// SPDX-License-Identifier: GPL-2.0
/*
 * A header parser that reads the frame through a dynptr rather than data
 * and data_end, as newer XDP code does where frames may span fragments:
 * bpf_dynptr_from_xdp, then bpf_dynptr_slice for each header with a stack
 * buffer to copy into when the bytes are not contiguous. Ethernet, one
 * optional VLAN tag, IPv4 or IPv6, then TCP or UDP ports; a per-protocol
 * counter, a drop list of destination ports, and frames whose TTL is 1
 * dropped.
 */
#include "include/corpus.h"

extern int bpf_dynptr_from_xdp(struct xdp_md *xdp, __u64 flags, struct bpf_dynptr *ptr) __ksym;
extern void *bpf_dynptr_slice(const struct bpf_dynptr *ptr, __u32 offset, void *buffer,
			      __u32 buffer__szk) __ksym;

enum { C_OTHER, C_IPV4, C_IPV6, C_TCP, C_UDP, C_DROPPED, C_MAX };

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, C_MAX);
} parse_counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u16);
	__type(value, __u8);
	__uint(max_entries, 64);
} drop_ports SEC(".maps");

static __always_inline void count(__u32 what)
{
	__u64 *c = bpf_map_lookup_elem(&parse_counts, &what);

	if (c)
		__sync_fetch_and_add(c, 1);
}

SEC("xdp")
int xdp_dynptr_parse(struct xdp_md *ctx)
{
	struct ethhdr eth_buf;
	struct vlan_hdr vlan_buf;
	struct iphdr ip_buf;
	struct ipv6hdr ip6_buf;
	__u16 ports_buf[2];
	struct bpf_dynptr frame;
	struct ethhdr *eth;
	__u32 off = sizeof(*eth);
	__u16 proto, *ports, dport;
	__u8 l4;

	if (bpf_dynptr_from_xdp(ctx, 0, &frame))
		return XDP_ABORTED;
	eth = bpf_dynptr_slice(&frame, 0, &eth_buf, sizeof(eth_buf));
	if (!eth)
		return XDP_DROP;
	proto = eth->h_proto;
	if (proto_is_vlan(proto)) {
		struct vlan_hdr *vlan = bpf_dynptr_slice(&frame, off, &vlan_buf, sizeof(vlan_buf));

		if (!vlan)
			return XDP_DROP;
		proto = vlan->h_vlan_encapsulated_proto;
		off += sizeof(*vlan);
	}
	if (proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *iph = bpf_dynptr_slice(&frame, off, &ip_buf, sizeof(ip_buf));

		if (!iph)
			return XDP_DROP;
		count(C_IPV4);
		if (iph->ihl < 5)
			return XDP_DROP;
		l4 = iph->protocol;
		if (iph->ttl <= 1)
			return XDP_DROP;
		off += iph->ihl * 4;
	} else if (proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6 = bpf_dynptr_slice(&frame, off, &ip6_buf, sizeof(ip6_buf));

		if (!ip6)
			return XDP_DROP;
		count(C_IPV6);
		l4 = ip6->nexthdr;
		off += sizeof(*ip6);
	} else {
		count(C_OTHER);
		return XDP_PASS;
	}
	if (l4 != IPPROTO_TCP && l4 != IPPROTO_UDP)
		return XDP_PASS;
	count(l4 == IPPROTO_TCP ? C_TCP : C_UDP);
	ports = bpf_dynptr_slice(&frame, off, ports_buf, sizeof(ports_buf));
	if (!ports)
		return XDP_DROP;
	dport = bpf_ntohs(ports[1]);
	if (bpf_map_lookup_elem(&drop_ports, &dport)) {
		count(C_DROPPED);
		return XDP_DROP;
	}
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
