// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of the xdp-tutorial's packet02 and packet03 lessons: the
 * VLANs of a frame are collected while the Ethernet header is parsed; a
 * tagged frame has its outer tag popped (the Ethernet header copied out
 * whole, the head moved by bpf_xdp_adjust_head, the copy written back over
 * the tag), an untagged IPv4 frame gets a tag of VLAN 7 pushed the same way
 * in reverse, and UDP and TCP destination ports are lowered by one with the
 * checksum patched. The frame then leaves by a tx_port devmap chosen by its
 * destination port's low bits, as the redirect lesson does with
 * bpf_redirect_map.
 */
#include "include/tut_parse.h"

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__type(key, int);
	__type(value, int);
	__uint(max_entries, 256);
} tx_port SEC(".maps");

static __always_inline int vlan_tag_pop(struct xdp_md *ctx, struct ethhdr *eth)
{
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr eth_cpy;
	struct vlan_hdr *vlh;
	__be16 h_proto;
	int vlid;

	if (!proto_is_vlan(eth->h_proto))
		return -1;
	vlh = (void *)(eth + 1);
	if ((void *)(vlh + 1) > data_end)
		return -1;
	vlid = bpf_ntohs(vlh->h_vlan_TCI);
	h_proto = vlh->h_vlan_encapsulated_proto;

	__builtin_memcpy(&eth_cpy, eth, sizeof(eth_cpy));
	if (bpf_xdp_adjust_head(ctx, (int)sizeof(*vlh)))
		return -1;

	eth = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	if ((void *)(eth + 1) > data_end)
		return -1;
	__builtin_memcpy(eth, &eth_cpy, sizeof(*eth));
	eth->h_proto = h_proto;
	return vlid;
}

static __always_inline int vlan_tag_push(struct xdp_md *ctx, struct ethhdr *eth, int vlid)
{
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr eth_cpy;
	struct vlan_hdr *vlh;

	__builtin_memcpy(&eth_cpy, eth, sizeof(eth_cpy));
	if (bpf_xdp_adjust_head(ctx, 0 - (int)sizeof(*vlh)))
		return -1;

	eth = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	if ((void *)eth + sizeof(*eth) + sizeof(*vlh) > data_end)
		return -1;
	__builtin_memcpy(eth, &eth_cpy, sizeof(*eth));
	vlh = (void *)(eth + 1);
	vlh->h_vlan_TCI = bpf_htons(vlid);
	vlh->h_vlan_encapsulated_proto = eth->h_proto;
	eth->h_proto = bpf_htons(ETH_P_8021Q);
	return 0;
}

SEC("xdp")
int xdp_vlan_tx_port(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct collect_vlans vlans = {};
	struct hdr_cursor nh = { .pos = data };
	struct udphdr *udphdr;
	struct tcphdr *tcphdr;
	struct iphdr *iphdr;
	struct ethhdr *eth;
	__u32 action = XDP_PASS;
	int eth_type, ip_type, port = 0;

	eth_type = parse_ethhdr_vlan(&nh, data_end, &eth, &vlans);
	if (eth_type < 0) {
		action = XDP_ABORTED;
		goto out;
	}
	if (eth_type != bpf_htons(ETH_P_IP))
		goto out;
	ip_type = parse_iphdr(&nh, data_end, &iphdr);
	if (ip_type == IPPROTO_UDP) {
		if (parse_udphdr(&nh, data_end, &udphdr) < 0) {
			action = XDP_ABORTED;
			goto out;
		}
		port = bpf_ntohs(udphdr->dest);
		if (udphdr->check) {
			udphdr->dest = bpf_htons(port - 1);
			udphdr->check += bpf_htons(1);
			if (!udphdr->check)
				udphdr->check += bpf_htons(1);
		} else {
			udphdr->dest = bpf_htons(port - 1);
		}
	} else if (ip_type == IPPROTO_TCP) {
		if (parse_tcphdr(&nh, data_end, &tcphdr) < 0) {
			action = XDP_ABORTED;
			goto out;
		}
		port = bpf_ntohs(tcphdr->dest);
		tcphdr->dest = bpf_htons(port - 1);
		tcphdr->check += bpf_htons(1);
		if (!tcphdr->check)
			tcphdr->check += bpf_htons(1);
	} else {
		goto out;
	}

	if (vlans.id[0]) {
		if (vlan_tag_pop(ctx, eth) < 0) {
			action = XDP_DROP;
			goto out;
		}
	} else if (vlan_tag_push(ctx, eth, 7) < 0) {
		action = XDP_DROP;
		goto out;
	}
	action = bpf_redirect_map(&tx_port, port & 3, 0);
out:
	return xdp_stats_record_action(ctx, action);
}

char _license[] SEC("license") = "GPL";
