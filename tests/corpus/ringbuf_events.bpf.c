// SPDX-License-Identifier: GPL-2.0
/*
 * Frame events on a BPF ring buffer, as newer libbpf-based tools emit them:
 * a record is reserved with bpf_ringbuf_reserve, filled in place (the
 * context's ifindex and queue, the length, the ethertype, the first bytes
 * of the frame copied by a bounded loop), and submitted; a frame that turns
 * out not to be IP has its record discarded instead. When user space lags
 * (bpf_ringbuf_query says more than half the ring waits) nothing is
 * reserved. Every frame passes; the events are counted per CPU.
 */
#include "include/corpus.h"

#define SNAP_LEN 32

struct frame_event {
	__u32 ifindex;
	__u32 rx_queue;
	__u16 len;
	__be16 proto;
	__u8 snap_len;
	__u8 pad[3];
	__u8 snap[SNAP_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 3);
} event_counts SEC(".maps");

enum { EV_SUBMITTED, EV_DISCARDED, EV_SKIPPED };

static __always_inline void count_event(__u32 what)
{
	__u64 *c = bpf_map_lookup_elem(&event_counts, &what);

	if (c)
		*c += 1;
}

SEC("xdp")
int xdp_ringbuf_events(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct frame_event *e;
	__u8 *p = data;
	int i;

	if ((void *)(eth + 1) > data_end)
		return XDP_PASS;
	if (bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) > 32 * 1024) {
		count_event(EV_SKIPPED);
		return XDP_PASS;
	}
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e)
		return XDP_PASS;
	e->ifindex = ctx->ingress_ifindex;
	e->rx_queue = ctx->rx_queue_index;
	e->len = (__u16)(data_end - data);
	e->proto = eth->h_proto;
	if (e->proto != bpf_htons(ETH_P_IP) && e->proto != bpf_htons(ETH_P_IPV6)) {
		bpf_ringbuf_discard(e, 0);
		count_event(EV_DISCARDED);
		return XDP_PASS;
	}
	e->snap_len = 0;
	for (i = 0; i < SNAP_LEN; i++) {
		if ((void *)(p + i + 1) > data_end)
			break;
		e->snap[i] = p[i];
		e->snap_len++;
	}
	bpf_ringbuf_submit(e, 0);
	count_event(EV_SUBMITTED);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
