// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused: an object under a license that is not
 * GPL-compatible calls bpf_trace_printk and bpf_perf_event_output, which
 * the kernel keeps for GPL-compatible programs ("cannot call GPL-restricted
 * function from non-GPL compatible program").
 */
#include "include/corpus.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, 4);
} trace_events SEC(".maps");

SEC("xdp")
int xdp_proprietary_trace(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u16 proto;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	proto = bpf_ntohs(eth->h_proto);
	if (proto == ETH_P_ARP) {
		bpf_printk("arp from %x", eth->h_source[5]);
		return XDP_PASS;
	}
	bpf_perf_event_output(ctx, &trace_events, BPF_F_CURRENT_CPU, &proto, sizeof(proto));
	return XDP_PASS;
}

char _license[] SEC("license") = "Proprietary";
