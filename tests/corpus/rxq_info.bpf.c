// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of samples/bpf xdp_rxq_info: a configuration array says
 * which ifindex the program is meant for, which action to return and
 * options (swap the MAC addresses, read a byte of the frame); per-CPU
 * records count frames globally and per receive queue
 * (ctx->rx_queue_index), and a queue beyond the table is counted in its
 * last slot as an issue. The context is read field by field with 32-bit
 * loads, data_meta included, as the sample's older builds read it.
 */
#include "include/corpus.h"

enum cfg_options_flags {
	NO_TOUCH = 0x0U,
	READ_MEM = 0x1U,
	SWAP_MAC = 0x2U,
};

struct config {
	__u32 action;
	int ifindex;
	__u32 options;
};

struct datarec {
	__u64 processed;
	__u64 issue;
};

#define MAX_RXQs 64

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct config);
	__uint(max_entries, 1);
} config_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct datarec);
	__uint(max_entries, 1);
} stats_global_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct datarec);
	__uint(max_entries, MAX_RXQs + 1);
} rx_queue_index_map SEC(".maps");

static __always_inline void swap_src_dst_mac(void *data)
{
	unsigned short *p = data;
	unsigned short dst[3];

	dst[0] = p[0];
	dst[1] = p[1];
	dst[2] = p[2];
	p[0] = p[3];
	p[1] = p[4];
	p[2] = p[5];
	p[3] = dst[0];
	p[4] = dst[1];
	p[5] = dst[2];
}

SEC("xdp")
int xdp_prognum0(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	void *data_meta = (void *)(long)ctx->data_meta;
	struct datarec *rec, *rxq_rec;
	int ingress_ifindex;
	struct config *config;
	__u32 key = 0;

	/* global stats record */
	rec = bpf_map_lookup_elem(&stats_global_map, &key);
	if (!rec)
		return XDP_ABORTED;
	rec->processed++;

	config = bpf_map_lookup_elem(&config_map, &key);
	if (!config)
		return XDP_ABORTED;

	ingress_ifindex = ctx->ingress_ifindex;
	if (ingress_ifindex != config->ifindex)
		rec->issue++;
	/* no metadata was asked for: data_meta sits at data */
	if (data_meta != data)
		rec->issue++;

	key = ctx->rx_queue_index;
	if (key >= MAX_RXQs)
		key = MAX_RXQs;
	rxq_rec = bpf_map_lookup_elem(&rx_queue_index_map, &key);
	if (!rxq_rec)
		return XDP_ABORTED;
	rxq_rec->processed++;
	if (key == MAX_RXQs)
		rxq_rec->issue++;

	if (config->options & (READ_MEM | SWAP_MAC)) {
		struct ethhdr *eth = data;

		if ((void *)(eth + 1) > data_end)
			return XDP_ABORTED;
		if (config->options & SWAP_MAC)
			swap_src_dst_mac(data);
		else if (eth->h_proto == 0)
			rec->issue++;
	}
	/* an action user space did not mean is the stack's */
	if (config->action > XDP_REDIRECT)
		return XDP_PASS;
	return config->action;
}

char _license[] SEC("license") = "GPL";
