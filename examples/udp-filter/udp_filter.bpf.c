// SPDX-License-Identifier: GPL-2.0
/*
 * A UDP port filter with per-port counters. Every UDP datagram (IPv4 or
 * IPv6, untagged or in one 802.1Q tag) is counted under its destination
 * port; a port with a non-zero entry in `blocked` is dropped, everything
 * else passes to the stack.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "udp_filter.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u16);	  /* destination port, host order */
	__type(value, __u32);	  /* non-zero: drop */
} blocked SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u16);		  /* destination port, host order */
	__type(value, struct port_counts);
} counts SEC(".maps");

struct vlan_hdr {
	__be16 tci;
	__be16 proto;
};

SEC("xdp")
int udp_filter(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct port_counts *c, first = {};
	struct udphdr *udp;
	__u32 *drop;
	__be16 proto;
	void *l3;
	__u16 port;

	if ((void *)(eth + 1) > data_end)
		return XDP_PASS;
	proto = eth->h_proto;
	l3 = eth + 1;
	if (proto == bpf_htons(ETH_P_8021Q)) {
		struct vlan_hdr *vh = l3;

		if ((void *)(vh + 1) > data_end)
			return XDP_PASS;
		proto = vh->proto;
		l3 = vh + 1;
	}
	if (proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *ip = l3;

		if ((void *)(ip + 1) > data_end || ip->protocol != IPPROTO_UDP || ip->ihl < 5)
			return XDP_PASS;
		/* a later fragment has no UDP header */
		if (ip->frag_off & bpf_htons(0x1fff))
			return XDP_PASS;
		udp = (void *)ip + ip->ihl * 4;
	} else if (proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6 = l3;

		if ((void *)(ip6 + 1) > data_end || ip6->nexthdr != IPPROTO_UDP)
			return XDP_PASS;
		udp = (void *)(ip6 + 1);
	} else {
		return XDP_PASS;
	}
	if ((void *)(udp + 1) > data_end)
		return XDP_PASS;

	port = bpf_ntohs(udp->dest);
	drop = bpf_map_lookup_elem(&blocked, &port);
	c = bpf_map_lookup_elem(&counts, &port);
	if (c) {
		__sync_fetch_and_add(&c->packets, 1);
		__sync_fetch_and_add(&c->bytes, data_end - data);
		if (drop && *drop)
			__sync_fetch_and_add(&c->dropped, 1);
	} else {
		first.packets = 1;
		first.bytes = data_end - data;
		first.dropped = drop && *drop;
		bpf_map_update_elem(&counts, &port, &first, BPF_NOEXIST);
	}
	return drop && *drop ? XDP_DROP : XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
