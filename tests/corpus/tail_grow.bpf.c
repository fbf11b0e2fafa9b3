// SPDX-License-Identifier: GPL-2.0
/*
 * A trailer appended with bpf_xdp_adjust_tail, as telemetry and in-band
 * network telemetry examples do: UDP frames shorter than 512 bytes grow by
 * 8 bytes whose content is a magic number and a sequence number read from an
 * array and bumped with an atomic add; the IPv4 total length and header checksum
 * (RFC 1624 incremental update) follow; longer frames are cut by 4 bytes
 * (a stripped FCS, as some NICs leave it). Both cases go back with XDP_TX.
 */
#include "include/corpus.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 1);
} trailer_seq SEC(".maps");

SEC("xdp")
int xdp_tail_grow(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph;
	__u32 len = data_end - data, zero = 0, *seq, s = 0, csum;
	__u16 old_len;
	__u8 *t;

	if ((void *)(eth + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;
	if (iph->protocol != IPPROTO_UDP)
		return XDP_PASS;
	if (len >= 512) {
		if (bpf_xdp_adjust_tail(ctx, -4))
			return XDP_DROP;
		return XDP_TX;
	}
	if (len < ETH_HLEN + 20 || bpf_ntohs(iph->tot_len) != len - ETH_HLEN)
		return XDP_PASS;

	seq = bpf_map_lookup_elem(&trailer_seq, &zero);
	if (seq) {
		/* clang 14 for BPF v1 cannot use an atomic add's old value */
		s = *seq;
		__sync_fetch_and_add(seq, 1);
	}
	old_len = iph->tot_len;
	if (bpf_xdp_adjust_tail(ctx, 8))
		return XDP_PASS;

	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	iph = data + ETH_HLEN;
	if ((void *)(iph + 1) > data_end)
		return XDP_DROP;
	if (len > 511)
		return XDP_DROP;
	t = data + len;
	if ((void *)(t + 8) > data_end)
		return XDP_DROP;
	t[0] = 0xfe;
	t[1] = 0xed;
	t[2] = 0xbe;
	t[3] = 0xef;
	*(__u32 *)(t + 4) = bpf_htonl(s);

	iph->tot_len = bpf_htons(bpf_ntohs(old_len) + 8);
	csum = (__u16)~iph->check;
	csum += (__u16)~old_len;
	csum += iph->tot_len;
	csum = (csum & 0xffff) + (csum >> 16);
	csum = (csum & 0xffff) + (csum >> 16);
	iph->check = (__u16)~csum;
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
