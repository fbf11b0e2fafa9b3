// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of Cilium's nodeport DSR for IPv4 (dsr_set_opt4): a TCP SYN
 * or a UDP frame to a service gets an 8-byte IP option carrying the
 * service's address and port, so that the backend can answer the client
 * directly. Room is made with bpf_xdp_adjust_head(-8) and the Ethernet and
 * IPv4 headers are moved to the new start with __builtin_memmove (the old
 * and new places overlap), the option written behind them, IHL and the
 * total length raised and the header checksum recomputed in full; the frame
 * leaves by XDP_TX. A service is a hash entry keyed by the destination.
 */
#include "include/corpus.h"

#define DSR_IPV4_OPT_TYPE (0x80 | 0x1a) /* copied, class 0, number 26 */
#define DSR_OPT_LEN	  8
#define IPV4_HLEN	  20

struct svc {
	__be16 port;
	__u16 flags;
	__u32 backend;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __be32);
	__type(value, struct svc);
	__uint(max_entries, 64);
} dsr_services SEC(".maps");

static __always_inline __u16 ipv4_csum(const void *hdr, int words)
{
	const __u16 *w = hdr;
	__u32 sum = 0;

#pragma clang loop unroll(full)
	for (int i = 0; i < 14; i++)
		if (i < words)
			sum += w[i];
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

SEC("xdp")
int cil_dsr_opt4(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = data + sizeof(*eth);
	__u32 *opt;
	struct svc *svc;
	__be32 daddr;
	__be16 dport;
	__u8 *l4;

	if ((void *)(iph + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	if (iph->ihl != 5 || (iph->frag_off & bpf_htons(0x3fff)))
		return XDP_PASS;
	l4 = (void *)(iph + 1);
	if ((void *)(l4 + 14) > data_end)
		return XDP_PASS;
	if (iph->protocol == IPPROTO_TCP) {
		if (!(l4[13] & 0x02)) /* SYN */
			return XDP_PASS;
	} else if (iph->protocol != IPPROTO_UDP) {
		return XDP_PASS;
	}
	daddr = iph->daddr;
	dport = *(__be16 *)(l4 + 2);
	svc = bpf_map_lookup_elem(&dsr_services, &daddr);
	if (!svc || bpf_ntohs(iph->tot_len) > 1400)
		return XDP_PASS;
	if (svc->flags & 1)
		dport = svc->port;

	if (bpf_xdp_adjust_head(ctx, -DSR_OPT_LEN))
		return XDP_DROP;
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	if (data + sizeof(struct ethhdr) + IPV4_HLEN + DSR_OPT_LEN > data_end)
		return XDP_DROP;
	/* headers forward by 8 bytes: the two places overlap */
	__builtin_memmove(data, data + DSR_OPT_LEN, sizeof(struct ethhdr) + IPV4_HLEN);
	iph = data + sizeof(struct ethhdr);
	opt = (void *)(iph + 1);
	opt[0] = bpf_htonl((__u32)DSR_IPV4_OPT_TYPE << 24 | (__u32)DSR_OPT_LEN << 16 |
			   bpf_ntohs(dport));
	opt[1] = daddr;
	iph->ihl = 7;
	iph->tot_len = bpf_htons(bpf_ntohs(iph->tot_len) + DSR_OPT_LEN);
	iph->daddr = svc->backend;
	iph->check = 0;
	iph->check = ipv4_csum(iph, 14);
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
