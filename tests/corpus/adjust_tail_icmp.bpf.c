// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of samples/bpf xdp_adjust_tail: an IPv4 frame longer than a
 * limit is cut to it with bpf_xdp_adjust_tail and turned into an ICMP
 * "fragmentation needed" reply: addresses and MACs swapped, a new IP header
 * and its checksum computed by hand in a loop over 16-bit words, the ICMP
 * checksum with bpf_csum_diff, and sent back with XDP_TX. Each reply is
 * counted in a one-entry array.
 */
#include "include/corpus.h"

#define MAX_PCKT_SIZE		 600
#define ICMP_TOOBIG_SIZE	 98
#define ICMP_TOOBIG_PAYLOAD_SIZE 92

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} icmpcnt SEC(".maps");

static __always_inline void count_icmp(void)
{
	__u32 key = 0;
	__u64 *icmp_count = bpf_map_lookup_elem(&icmpcnt, &key);

	if (icmp_count)
		*icmp_count += 1;
}

static __always_inline void swap_mac(void *data, struct ethhdr *orig_eth)
{
	struct ethhdr *eth = data;

	__builtin_memcpy(eth->h_source, orig_eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, orig_eth->h_source, ETH_ALEN);
	eth->h_proto = orig_eth->h_proto;
}

static __always_inline __u16 csum_fold_helper(__u32 csum)
{
	csum = (csum & 0xffff) + (csum >> 16);
	csum = (csum & 0xffff) + (csum >> 16);
	return ~csum;
}

static __always_inline void ipv4_csum(void *data_start, int data_size, __u32 *csum)
{
	*csum = bpf_csum_diff(0, 0, data_start, data_size, *csum);
	*csum = csum_fold_helper(*csum);
}

static __always_inline int send_icmp4_too_big(struct xdp_md *xdp)
{
	int headroom = (int)sizeof(struct iphdr) + (int)sizeof(struct icmphdr);
	void *data, *data_end;
	struct ethhdr *orig_eth;
	struct iphdr *iph, *orig_iph;
	struct icmphdr *icmp_hdr;
	__u16 *next_iph_u16;
	__u32 csum = 0;
	__u64 off = 0;
	int i;

	if (bpf_xdp_adjust_head(xdp, 0 - headroom))
		return XDP_DROP;
	data = (void *)(long)xdp->data;
	data_end = (void *)(long)xdp->data_end;

	if (data + (ICMP_TOOBIG_SIZE + headroom) > data_end)
		return XDP_DROP;

	orig_eth = data + headroom;
	swap_mac(data, orig_eth);
	off += sizeof(struct ethhdr);
	iph = data + off;
	off += sizeof(struct iphdr);
	icmp_hdr = data + off;
	off += sizeof(struct icmphdr);
	orig_iph = data + off;
	icmp_hdr->type = ICMP_DEST_UNREACH;
	icmp_hdr->code = ICMP_FRAG_NEEDED;
	icmp_hdr->un.frag.mtu = bpf_htons(MAX_PCKT_SIZE - sizeof(struct ethhdr));
	icmp_hdr->checksum = 0;
	ipv4_csum(icmp_hdr, ICMP_TOOBIG_PAYLOAD_SIZE, &csum);
	icmp_hdr->checksum = csum;
	iph->ttl = 64;
	iph->daddr = orig_iph->saddr;
	iph->saddr = orig_iph->daddr;
	iph->version = 4;
	iph->ihl = 5;
	iph->protocol = IPPROTO_ICMP;
	iph->tos = 0;
	iph->tot_len = bpf_htons(ICMP_TOOBIG_SIZE + headroom - sizeof(struct ethhdr));
	iph->check = 0;
	iph->id = 0;
	iph->frag_off = 0;
	csum = 0;
	next_iph_u16 = (__u16 *)iph;
	for (i = 0; i < (int)sizeof(struct iphdr) >> 1; i++)
		csum += *next_iph_u16++;
	iph->check = ~((csum & 0xffff) + (csum >> 16));
	count_icmp();
	return XDP_TX;
}

static __always_inline int handle_ipv4(struct xdp_md *xdp)
{
	void *data_end = (void *)(long)xdp->data_end;
	void *data = (void *)(long)xdp->data;
	int pckt_size = data_end - data;
	int offset;

	if (pckt_size > MAX_PCKT_SIZE) {
		offset = pckt_size - ICMP_TOOBIG_SIZE;
		if (bpf_xdp_adjust_tail(xdp, 0 - offset))
			return XDP_PASS;
		return send_icmp4_too_big(xdp);
	}
	return XDP_PASS;
}

SEC("xdp_icmp")
int _xdp_icmp(struct xdp_md *xdp)
{
	void *data_end = (void *)(long)xdp->data_end;
	void *data = (void *)(long)xdp->data;
	struct ethhdr *eth = data;
	__u16 h_proto;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;

	h_proto = eth->h_proto;
	if (h_proto == bpf_htons(ETH_P_IP))
		return handle_ipv4(xdp);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
