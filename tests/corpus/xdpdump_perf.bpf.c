// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of xdp-tools' xdpdump in its XDP-program mode: every frame
 * is offered to user space on a perf event array with
 * bpf_perf_event_output(ctx, &map, BPF_F_CURRENT_CPU | (u64)caplen << 32,
 * &meta, sizeof(meta)), the kernel appending caplen bytes of the frame to
 * the packed metadata record. caplen is the frame's length capped by the
 * snap length, a read-only global the tool sets, and the record holds the
 * ingress ifindex and queue read from the context. A frame is captured
 * only when the capture filter (another read-only global, an ethertype or
 * 0 for all) matches; every frame passes.
 */
#include "include/corpus.h"

#define MAX_CPUS 256

struct pkt_trace_metadata {
	__u32 ifindex;
	__u32 rx_queue;
	__u16 pkt_len;
	__u16 cap_len;
	__u16 flags;
	__u16 prog_index;
	int action;
} __attribute__((packed));

#define MDF_DIRECTION_FEXIT 1

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, MAX_CPUS);
} xdpdump_perf_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 2);
} capture_stats SEC(".maps");

const volatile __u32 snaplen = 96;
const volatile __u16 capture_ethertype = 0;
const volatile __u16 capture_prog_index = 3;

static __always_inline void count(__u32 what)
{
	__u64 *v = bpf_map_lookup_elem(&capture_stats, &what);

	if (v)
		*v += 1;
}

SEC("xdp")
int xdpdump(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct pkt_trace_metadata metadata;
	struct ethhdr *eth = data;
	__u32 caplen;
	long rc;

	if (capture_ethertype) {
		if ((void *)(eth + 1) > data_end)
			return XDP_PASS;
		if (eth->h_proto != bpf_htons(capture_ethertype))
			return XDP_PASS;
	}
	if (data >= data_end)
		return XDP_PASS;
	metadata.prog_index = capture_prog_index;
	metadata.ifindex = ctx->ingress_ifindex;
	metadata.rx_queue = ctx->rx_queue_index;
	metadata.pkt_len = (__u16)(data_end - data);
	caplen = metadata.pkt_len;
	if (caplen > snaplen)
		caplen = snaplen;
	metadata.cap_len = caplen;
	metadata.action = 0;
	metadata.flags = 0;
	rc = bpf_perf_event_output(ctx, &xdpdump_perf_map,
				   ((__u64)caplen << 32) | BPF_F_CURRENT_CPU, &metadata,
				   sizeof(metadata));
	count(rc ? 1 : 0);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
