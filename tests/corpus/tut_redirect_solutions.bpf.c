// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of the xdp-tutorial's packet-solutions object, several
 * lessons' programs in one file sharing its maps (include/tut_parse.h):
 * xdp_redirect_map_func looks the source MAC up in redirect_params (a hash
 * of ETH_ALEN keys to new destination MACs) and redirects into tx_port; the
 * vlan_swap program pops the outer tag with bpf_xdp_adjust_head after
 * copying the Ethernet header aside, or pushes one where there is none;
 * the port_rewrite program decrements UDP and TCP destination ports and
 * patches their checksums by the 16-bit difference. All record their
 * verdicts in the lesson's per-CPU stats map.
 */
#include "include/tut_parse.h"

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__type(key, int);
	__type(value, int);
	__uint(max_entries, 256);
} tx_port SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, unsigned char[ETH_ALEN]);
	__type(value, unsigned char[ETH_ALEN]);
	__uint(max_entries, 1);
} redirect_params SEC(".maps");

SEC("xdp")
int xdp_redirect_map_func(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct hdr_cursor nh = { .pos = data };
	struct ethhdr *eth;
	int eth_type, action = XDP_PASS;
	unsigned char *dst;

	eth_type = parse_ethhdr(&nh, data_end, &eth);
	if (eth_type == -1)
		goto out;
	dst = bpf_map_lookup_elem(&redirect_params, eth->h_source);
	if (!dst)
		goto out;
	__builtin_memcpy(eth->h_dest, dst, ETH_ALEN);
	action = bpf_redirect_map(&tx_port, 0, 0);
out:
	return xdp_stats_record_action(ctx, action);
}

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
	if ((void *)(eth + 1) > data_end)
		return -1;
	__builtin_memcpy(eth, &eth_cpy, sizeof(*eth));
	vlh = (void *)(eth + 1);
	if ((void *)(vlh + 1) > data_end)
		return -1;
	vlh->h_vlan_TCI = bpf_htons(vlid);
	vlh->h_vlan_encapsulated_proto = eth->h_proto;
	eth->h_proto = bpf_htons(ETH_P_8021Q);
	return 0;
}

SEC("xdp")
int xdp_vlan_swap_func(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct hdr_cursor nh = { .pos = data };
	struct ethhdr *eth;
	int nh_type;

	nh_type = parse_ethhdr(&nh, data_end, &eth);
	if (nh_type < 0)
		return xdp_stats_record_action(ctx, XDP_PASS);
	if (proto_is_vlan(eth->h_proto)) {
		if (vlan_tag_pop(ctx, eth) < 0)
			return xdp_stats_record_action(ctx, XDP_DROP);
	} else if (vlan_tag_push(ctx, eth, 1) < 0) {
		return xdp_stats_record_action(ctx, XDP_ABORTED);
	}
	return xdp_stats_record_action(ctx, XDP_TX);
}

SEC("xdp")
int xdp_port_rewrite_func(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct hdr_cursor nh = { .pos = data };
	struct ethhdr *eth;
	struct iphdr *iph;
	struct ipv6hdr *ip6h;
	struct udphdr *udph;
	struct tcphdr *tcph;
	int eth_type, ip_type;
	__u16 old;

	eth_type = parse_ethhdr(&nh, data_end, &eth);
	if (eth_type == bpf_htons(ETH_P_IP))
		ip_type = parse_iphdr(&nh, data_end, &iph);
	else if (eth_type == bpf_htons(ETH_P_IPV6))
		ip_type = parse_ip6hdr(&nh, data_end, &ip6h);
	else
		return xdp_stats_record_action(ctx, XDP_PASS);

	if (ip_type == IPPROTO_UDP) {
		if (parse_udphdr(&nh, data_end, &udph) < 0)
			return xdp_stats_record_action(ctx, XDP_ABORTED);
		old = udph->dest;
		udph->dest = bpf_htons(bpf_ntohs(udph->dest) - 1);
		if (udph->check)
			udph->check =
				csum_fold_helper((__u16)~udph->check + (__u16)~old + udph->dest);
	} else if (ip_type == IPPROTO_TCP) {
		if (parse_tcphdr(&nh, data_end, &tcph) < 0)
			return xdp_stats_record_action(ctx, XDP_ABORTED);
		old = tcph->dest;
		tcph->dest = bpf_htons(bpf_ntohs(tcph->dest) - 1);
		tcph->check = csum_fold_helper((__u16)~tcph->check + (__u16)~old + tcph->dest);
	}
	return xdp_stats_record_action(ctx, XDP_PASS);
}

char _license[] SEC("license") = "GPL";
