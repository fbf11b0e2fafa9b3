// SPDX-License-Identifier: GPL-2.0
/*
 * The map types newer than hash and array that filters reach for: a bloom
 * filter of blocked IPv4 sources (bpf_map_peek_elem: 0 when possibly
 * present), a FIFO queue the addresses of dropped frames are pushed onto
 * for user space to drain (bpf_map_push_elem with BPF_EXIST, the oldest
 * overwritten when full), and a stack of recent UDP ports of which the top
 * is popped when a port 53 frame comes and pushed back after the compare.
 */
#include "include/corpus.h"

struct {
	__uint(type, BPF_MAP_TYPE_BLOOM_FILTER);
	__type(value, __u32);
	__uint(max_entries, 256);
	__uint(map_extra, 3);
} blocked_src SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__type(value, __u32);
	__uint(max_entries, 64);
} dropped SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK);
	__type(value, __u16);
	__uint(max_entries, 16);
} recent_ports SEC(".maps");

SEC("xdp")
int xdp_queue_bloom(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = data + sizeof(*eth);
	struct udphdr *udp;
	__u32 src;
	__u16 port, last;

	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	src = iph->saddr;
	if (bpf_map_peek_elem(&blocked_src, &src) == 0) {
		bpf_map_push_elem(&dropped, &src, BPF_EXIST);
		return XDP_DROP;
	}
	if (iph->protocol != IPPROTO_UDP || iph->ihl != 5)
		return XDP_PASS;
	udp = (void *)(iph + 1);
	if ((void *)(udp + 1) > data_end)
		return XDP_PASS;
	port = bpf_ntohs(udp->dest);
	if (port == 53 && bpf_map_pop_elem(&recent_ports, &last) == 0) {
		bpf_map_push_elem(&recent_ports, &last, BPF_EXIST);
		if (last == 53)
			return XDP_DROP;
	}
	bpf_map_push_elem(&recent_ports, &port, BPF_EXIST);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
