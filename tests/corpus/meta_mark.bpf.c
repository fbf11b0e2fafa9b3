// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of the kernel's xdp_meta selftest and the xdp-tutorial's
 * metadata example: 16 bytes of metadata are made in front of the frame
 * with bpf_xdp_adjust_meta, checked against data, and filled with a mark
 * that a later stage (a TC program) would read: the L4 protocol, the
 * destination port and a class from a lookup in a small hash by port.
 */
#include "include/corpus.h"

struct meta_info {
	__u32 mark;
	__u32 proto;
	__u32 port;
	__u16 klass;
	__u16 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u16);
	__type(value, __u16);
	__uint(max_entries, 64);
} class_by_port SEC(".maps");

SEC("xdp")
int xdp_mark_meta(struct xdp_md *ctx)
{
	struct meta_info *meta;
	void *data, *data_end;
	struct ethhdr *eth;
	struct iphdr *iph;
	struct udphdr *uh;
	__u16 *klass, port = 0;
	__u8 proto = 0;

	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(*meta)))
		return XDP_ABORTED;
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	meta = (void *)(long)ctx->data_meta;
	if ((void *)(meta + 1) > data)
		return XDP_ABORTED;

	eth = data;
	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (eth->h_proto == bpf_htons(ETH_P_IP)) {
		iph = (void *)(eth + 1);
		if ((void *)(iph + 1) > data_end)
			goto fill;
		proto = iph->protocol;
		if ((proto == IPPROTO_UDP || proto == IPPROTO_TCP) && iph->ihl == 5) {
			uh = (void *)(iph + 1);
			if ((void *)(uh + 1) <= data_end)
				port = uh->dest;
		}
	}
fill:
	meta->mark = 0x42;
	meta->proto = proto;
	meta->port = bpf_ntohs(port);
	klass = bpf_map_lookup_elem(&class_by_port, &port);
	meta->klass = klass ? *klass : 0xffff;
	meta->pad = 0;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
