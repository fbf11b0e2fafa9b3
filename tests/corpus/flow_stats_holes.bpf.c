// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of the kernel's samples/bpf accounting programs (a datarec
 * per key, one parse function per header, the record of a new key built on
 * the stack and inserted with BPF_NOEXIST): per-conversation statistics of
 * IPv4, keyed by the address pair. The record's members are assigned one by
 * one and never cleared first, so the holes the compiler leaves between a
 * byte and the next 64-bit counter, after the 16-bit length, and at the
 * record's end are whatever the stack held. A known conversation adds to
 * its counters with atomics and remembers the last length and TCP flags;
 * a conversation past 64 packets with SYN seen drops.
 */
#include "include/corpus.h"

#define MAX_CONVERSATIONS 1024
#define SYN_FLOOD_PKTS	  64

struct conv_key {
	__be32 saddr;
	__be32 daddr;
};

struct conv_rec {
	__u8 protocol;
	__u64 rx_packets;
	__u64 rx_bytes;
	__u16 last_len;
	__u32 ifindex;
	__u8 tcp_flags;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct conv_key);
	__type(value, struct conv_rec);
	__uint(max_entries, MAX_CONVERSATIONS);
} conv_stats SEC(".maps");

static __always_inline int parse_eth(void *data, void *data_end, __u64 *nh_off, __u16 *proto)
{
	struct ethhdr *eth = data;

	*nh_off = sizeof(*eth);
	if (data + *nh_off > data_end)
		return -1;
	*proto = eth->h_proto;
	if (proto_is_vlan(*proto)) {
		struct vlan_hdr *vhdr = data + *nh_off;

		*nh_off += sizeof(*vhdr);
		if (data + *nh_off > data_end)
			return -1;
		*proto = vhdr->h_vlan_encapsulated_proto;
	}
	return 0;
}

static __always_inline __u8 tcp_flags_of(struct iphdr *iph, void *data_end)
{
	struct tcphdr *th = (void *)iph + iph->ihl * 4;
	__u8 *flags = (__u8 *)th + 13;

	if (iph->protocol != IPPROTO_TCP || (void *)(th + 1) > data_end)
		return 0;
	return *flags;
}

SEC("xdp")
int xdp_conv_stats(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct conv_rec *rec, new_rec;
	struct conv_key key;
	struct iphdr *iph;
	__u64 nh_off;
	__u16 proto, len;
	__u8 flags;

	if (parse_eth(data, data_end, &nh_off, &proto) < 0)
		return XDP_PASS;
	if (proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = data + nh_off;
	if ((void *)(iph + 1) > data_end || iph->ihl < 5)
		return XDP_PASS;
	len = (__u16)(data_end - data);
	flags = tcp_flags_of(iph, data_end);

	key.saddr = iph->saddr;
	key.daddr = iph->daddr;
	rec = bpf_map_lookup_elem(&conv_stats, &key);
	if (rec) {
		__sync_fetch_and_add(&rec->rx_packets, 1);
		__sync_fetch_and_add(&rec->rx_bytes, len);
		rec->last_len = len;
		rec->tcp_flags |= flags;
		if (rec->rx_packets > SYN_FLOOD_PKTS && (rec->tcp_flags & 0x02))
			return XDP_DROP;
		return XDP_PASS;
	}

	new_rec.protocol = iph->protocol;
	new_rec.rx_packets = 1;
	new_rec.rx_bytes = len;
	new_rec.last_len = len;
	new_rec.ifindex = ctx->ingress_ifindex;
	new_rec.tcp_flags = flags;
	bpf_map_update_elem(&conv_stats, &key, &new_rec, BPF_NOEXIST);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
