// SPDX-License-Identifier: GPL-2.0
/*
 * A small L4 load balancer: a TCP or UDP packet to a virtual service
 * (address, port, protocol in `vips`) goes to one of the service's
 * backends, chosen by a hash of its 5-tuple. The destination address is
 * rewritten to the backend's, with the IPv4 and TCP/UDP checksums updated
 * incrementally (RFC 1624), the MACs become ours (the old destination) and
 * the backend's, and the frame is redirected out of the backend's port
 * (`tx_ports`, a devmap by hash: the coprocessor's port table). Other traffic passes; a service without backends
 * drops.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "l4_lb.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, struct vip_key);
	__type(value, struct vip_backends);
} vips SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LB_BACKENDS);
	__type(key, __u32);
	__type(value, struct backend);
} backends SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u32);
} tx_ports SEC(".maps");

/* One's complement update of a 16-bit checksum for a 32-bit word changed
 * from `from` to `to` (RFC 1624, eqn. 3). */
static __always_inline __u16 csum_replace4(__u16 check, __u32 from, __u32 to)
{
	__u32 sum = (__u16)~check;

	sum += (__u16)~from + (__u16)~(from >> 16);
	sum += (to & 0xffff) + (to >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (__u16)~sum;
}

SEC("xdp")
int l4_lb(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct vip_backends *vb;
	struct vip_key key = {};
	struct backend *be;
	struct iphdr *ip;
	__u16 *l4_check;
	__u16 sport, dport;
	__u32 index, old;
	void *l4;

	if ((void *)(eth + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > data_end || ip->ihl != 5)
		return XDP_PASS;
	if (ip->frag_off & bpf_htons(0x3fff)) /* fragments: the host reassembles */
		return XDP_PASS;
	l4 = ip + 1;
	if (ip->protocol == IPPROTO_TCP) {
		struct tcphdr *tcp = l4;

		if ((void *)(tcp + 1) > data_end)
			return XDP_PASS;
		sport = tcp->source;
		dport = tcp->dest;
		l4_check = &tcp->check;
	} else if (ip->protocol == IPPROTO_UDP) {
		struct udphdr *udp = l4;

		if ((void *)(udp + 1) > data_end)
			return XDP_PASS;
		sport = udp->source;
		dport = udp->dest;
		l4_check = &udp->check;
	} else {
		return XDP_PASS;
	}

	key.addr = ip->daddr;
	key.port = dport;
	key.proto = ip->protocol;
	vb = bpf_map_lookup_elem(&vips, &key);
	if (!vb)
		return XDP_PASS;
	if (!vb->count)
		return XDP_DROP;
	index = vb->first + lb_flow_hash(ip->saddr, ip->daddr, sport, dport, ip->protocol) %
				    vb->count;
	be = bpf_map_lookup_elem(&backends, &index);
	if (!be)
		return XDP_DROP;

	old = ip->daddr;
	ip->daddr = be->addr;
	ip->check = csum_replace4(ip->check, old, be->addr);
	/* the pseudo-header holds the address too; UDP's 0 means "none" */
	if (ip->protocol == IPPROTO_TCP || *l4_check) {
		__u16 check = csum_replace4(*l4_check, old, be->addr);

		*l4_check = check || ip->protocol == IPPROTO_TCP ? check : 0xffff;
	}
	__builtin_memcpy(eth->h_source, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, be->mac, ETH_ALEN);
	return bpf_redirect_map(&tx_ports, be->tx_port, 0);
}

char LICENSE[] SEC("license") = "GPL";
