// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of Katran's and xdp-tools' flow handling: a per-connection
 * packet limiter. The connection key is built on the stack member by member
 * from the parsed headers, without clearing it first, and every byte of it
 * is a member (addresses, ports, protocol, the direction bit and the VLAN
 * id: no padding), so lookups see only what the frame gave. ICMP echo takes
 * its identifier as the source port. A new connection is inserted with
 * BPF_NOEXIST; a known one counts packets and bytes with atomics, and once
 * past its budget it drops. Frames of other kinds pass.
 */
#include "include/corpus.h"

#define MAX_CONNS	2048
#define CONN_PKT_BUDGET 8
#define DIR_TO_HIGHER	1

struct conn_key {
	__be32 src;
	__be32 dst;
	__be16 sport;
	__be16 dport;
	__u8 proto;
	__u8 dir;
	__u16 vlan_id;
};

struct conn_val {
	__u64 packets;
	__u64 bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct conn_key);
	__type(value, struct conn_val);
	__uint(max_entries, MAX_CONNS);
} conn_table SEC(".maps");

struct packet_description {
	struct conn_key flow;
	__u16 size;
};

static __always_inline int parse_l4(void *l4, void *data_end, struct packet_description *pckt)
{
	struct icmphdr *icmp;
	struct udphdr *udp;
	struct tcphdr *tcp;

	switch (pckt->flow.proto) {
	case IPPROTO_TCP:
		tcp = l4;
		if ((void *)(tcp + 1) > data_end)
			return 0;
		pckt->flow.sport = tcp->source;
		pckt->flow.dport = tcp->dest;
		return 1;
	case IPPROTO_UDP:
		udp = l4;
		if ((void *)(udp + 1) > data_end)
			return 0;
		pckt->flow.sport = udp->source;
		pckt->flow.dport = udp->dest;
		return 1;
	case IPPROTO_ICMP:
		icmp = l4;
		if ((void *)(icmp + 1) > data_end || icmp->type != ICMP_ECHO)
			return 0;
		pckt->flow.sport = icmp->un.echo.id;
		pckt->flow.dport = 0;
		return 1;
	}
	return 0;
}

SEC("xdp")
int xdp_conn_limit(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct packet_description pckt;
	struct ethhdr *eth = data;
	struct conn_val *cv, fresh;
	__u64 off = sizeof(*eth);
	struct iphdr *iph;
	__u16 h_proto;

	if (data + off > data_end)
		return XDP_PASS;
	h_proto = eth->h_proto;
	pckt.flow.vlan_id = 0;
	if (proto_is_vlan(h_proto)) {
		struct vlan_hdr *vh = data + off;

		off += sizeof(*vh);
		if (data + off > data_end)
			return XDP_PASS;
		pckt.flow.vlan_id = bpf_ntohs(vh->h_vlan_TCI) & 0x0fff;
		h_proto = vh->h_vlan_encapsulated_proto;
	}
	if (h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = data + off;
	if ((void *)(iph + 1) > data_end || iph->ihl != 5)
		return XDP_PASS;
	pckt.flow.src = iph->saddr;
	pckt.flow.dst = iph->daddr;
	pckt.flow.proto = iph->protocol;
	pckt.flow.dir = bpf_ntohl(iph->saddr) < bpf_ntohl(iph->daddr) ? DIR_TO_HIGHER : 0;
	pckt.size = bpf_ntohs(iph->tot_len);
	if (!parse_l4(iph + 1, data_end, &pckt))
		return XDP_PASS;

	cv = bpf_map_lookup_elem(&conn_table, &pckt.flow);
	if (!cv) {
		fresh.packets = 1;
		fresh.bytes = pckt.size;
		bpf_map_update_elem(&conn_table, &pckt.flow, &fresh, BPF_NOEXIST);
		return XDP_PASS;
	}
	__sync_fetch_and_add(&cv->packets, 1);
	__sync_fetch_and_add(&cv->bytes, pckt.size);
	if (cv->packets > CONN_PKT_BUDGET)
		return XDP_DROP;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
