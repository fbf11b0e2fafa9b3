// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of xdp-tools' xdp-bench and the newer samples/bpf
 * programs built on xdp_sample: the options are read-only globals user
 * space sets before loading (read the frame, swap its MACs, count per
 * receive queue), statistics are per-CPU records indexed by
 * bpf_get_smp_processor_id() in an array of MAX_CPUS entries, updated with
 * READ_ONCE/WRITE_ONCE pairs that cannot tear (NO_TEAR_INC). IPv4 and IPv6
 * frames go back out (XDP_TX), the rest drop.
 */
#include "include/corpus.h"

#define MAX_CPUS 64
#define MAX_RXQ	 64

#define READ_ONCE(x)	    (*(volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v)    (*(volatile typeof(x) *)&(x)) = (v)
#define NO_TEAR_ADD(x, val) WRITE_ONCE((x), READ_ONCE(x) + (val))
#define NO_TEAR_INC(x)	    NO_TEAR_ADD((x), 1)

const volatile __u8 read_data = 1;
const volatile __u8 swap_macs = 1;
const volatile __u8 rxq_stats = 1;

struct datarec {
	__u64 processed;
	__u64 dropped;
	__u64 issue;
	__u64 xdp_pass;
	__u64 xdp_drop;
	__u64 xdp_redirect;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, MAX_CPUS);
	__type(key, __u32);
	__type(value, struct datarec);
} rx_cnt SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, MAX_RXQ);
	__type(key, __u32);
	__type(value, struct datarec);
} rxq_cnt SEC(".maps");

static __always_inline void swap_src_dst_mac(void *data)
{
	__u16 *p = data;
	__u16 dst[3];

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
int xdp_basic_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u32 key = bpf_get_smp_processor_id();
	struct datarec *rec, *rxq_rec;
	struct ethhdr *eth = data;
	int action = XDP_DROP;
	__u32 qkey;

	rec = bpf_map_lookup_elem(&rx_cnt, &key);
	if (!rec)
		return XDP_ABORTED;
	NO_TEAR_INC(rec->processed);

	if (rxq_stats) {
		qkey = ctx->rx_queue_index;
		rxq_rec = bpf_map_lookup_elem(&rxq_cnt, &qkey);
		if (!rxq_rec)
			return XDP_ABORTED;
		NO_TEAR_INC(rxq_rec->processed);
	}

	if (read_data) {
		if ((void *)(eth + 1) > data_end) {
			NO_TEAR_INC(rec->issue);
			return XDP_DROP;
		}
		if (eth->h_proto == bpf_htons(ETH_P_IP) || eth->h_proto == bpf_htons(ETH_P_IPV6)) {
			if (swap_macs)
				swap_src_dst_mac(data);
			action = XDP_TX;
		}
	}
	if (action == XDP_DROP)
		NO_TEAR_INC(rec->xdp_drop);
	else
		NO_TEAR_INC(rec->xdp_redirect);
	return action;
}

char _license[] SEC("license") = "GPL";
