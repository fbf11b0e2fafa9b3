// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of samples/bpf xdp_sample_pkts and xdp-tutorial's
 * tracing04-xdp-tcpdump: IP frames are sampled to user space with
 * bpf_perf_event_output on a BPF_MAP_TYPE_PERF_EVENT_ARRAY, the packet's
 * first bytes copied by the kernel behind a small header (the length to copy
 * in the flags' upper 32 bits, BPF_F_CURRENT_CPU in the lower), and IPv6
 * frames also leave a fixed record on a ring buffer with bpf_ringbuf_output.
 * Everything passes; frames too short for an Ethernet header drop.
 */
#include "include/corpus.h"

#define SAMPLE_SIZE 64ul
#define MAX_CPUS    128

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, MAX_CPUS);
} my_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} v6_events SEC(".maps");

struct s_meta {
	__u16 cookie;
	__u16 pkt_len;
};

struct v6_event {
	__u32 len;
	__u8 nexthdr;
	__u8 hop_limit;
	__u16 pad;
	struct in6_addr saddr;
};

SEC("xdp")
int xdp_sample_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;

	if (data + sizeof(*eth) > data_end)
		return XDP_DROP;
	if (eth->h_proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6h = data + sizeof(*eth);
		struct v6_event ev = {};

		if ((void *)(ip6h + 1) > data_end)
			return XDP_PASS;
		ev.len = (__u32)(data_end - data);
		ev.nexthdr = ip6h->nexthdr;
		ev.hop_limit = ip6h->hop_limit;
		__builtin_memcpy(&ev.saddr, &ip6h->saddr, sizeof(ev.saddr));
		bpf_ringbuf_output(&v6_events, &ev, sizeof(ev), 0);
		return XDP_PASS;
	}
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	if (data < data_end) {
		/* the metadata and up to SAMPLE_SIZE bytes of the frame */
		__u64 flags = BPF_F_CURRENT_CPU;
		__u16 sample_size;
		struct s_meta metadata;
		int ret;

		metadata.cookie = 0xdead;
		metadata.pkt_len = (__u16)(data_end - data);
		sample_size = metadata.pkt_len < SAMPLE_SIZE ? metadata.pkt_len : SAMPLE_SIZE;
		flags |= (__u64)sample_size << 32;

		ret = bpf_perf_event_output(ctx, &my_map, flags, &metadata, sizeof(metadata));
		if (ret)
			return XDP_PASS;
	}
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
