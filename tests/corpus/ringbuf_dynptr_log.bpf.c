// SPDX-License-Identifier: GPL-2.0
/*
 * An event logger through ring buffer dynptrs: a record of variable length
 * per frame that is not plain IPv4 (its ingress port, length and up to 64
 * leading bytes, copied with bpf_xdp_load_bytes into a scratch value and
 * written into the record with bpf_dynptr_write), the fixed header filled
 * through bpf_dynptr_data. A reservation that fails is discarded, as a
 * ring buffer dynptr must be; one whose header slice fails too.
 */
#include "include/corpus.h"

struct event_hdr {
	__u32 ifindex;
	__u32 len;
	__u16 captured;
	__u16 proto;
	__u32 pad;
};

struct scratch {
	__u8 bytes[64];
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 16);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct scratch);
	__uint(max_entries, 1);
} scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 2);
} log_stats SEC(".maps");

SEC("xdp")
int xdp_ringbuf_dynptr_log(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u32 len = data_end - data, zero = 0, cap, lost = 1;
	struct ethhdr *eth = data;
	struct bpf_dynptr rec;
	struct event_hdr *hdr;
	struct scratch *buf;
	__u64 *stat;
	__u16 proto;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	proto = eth->h_proto;
	if (proto == bpf_htons(ETH_P_IP))
		return XDP_PASS;
	buf = bpf_map_lookup_elem(&scratch, &zero);
	if (!buf)
		return XDP_PASS;
	cap = len < sizeof(buf->bytes) ? len : sizeof(buf->bytes);
	if (bpf_ringbuf_reserve_dynptr(&events, sizeof(*hdr) + sizeof(buf->bytes), 0, &rec)) {
		stat = bpf_map_lookup_elem(&log_stats, &lost);
		if (stat)
			__sync_fetch_and_add(stat, 1);
		bpf_ringbuf_discard_dynptr(&rec, 0);
		return XDP_PASS;
	}
	hdr = bpf_dynptr_data(&rec, 0, sizeof(*hdr));
	if (!hdr) {
		bpf_ringbuf_discard_dynptr(&rec, 0);
		return XDP_PASS;
	}
	hdr->ifindex = ctx->ingress_ifindex;
	hdr->len = len;
	hdr->captured = cap;
	hdr->proto = bpf_ntohs(proto);
	hdr->pad = 0;
	/* 1..64 as the verifier sees it too, the same number for len >= 1 */
	cap = ((cap - 1) & (sizeof(buf->bytes) - 1)) + 1;
	if (!bpf_xdp_load_bytes(ctx, 0, buf->bytes, cap))
		bpf_dynptr_write(&rec, sizeof(*hdr), buf->bytes, cap, 0);
	bpf_ringbuf_submit_dynptr(&rec, 0);
	stat = bpf_map_lookup_elem(&log_stats, &zero);
	if (stat)
		__sync_fetch_and_add(stat, 1);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
