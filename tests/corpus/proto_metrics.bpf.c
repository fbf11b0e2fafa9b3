// SPDX-License-Identifier: GPL-2.0
/*
 * Metrics in the manner of Cilium's and of hand-written monitoring hooks:
 * one counter array per L4 protocol family (TCP, UDP, everything else),
 * the array chosen once by a conditional expression and then used for
 * every count the frame makes (by destination port bucket, and by length
 * class), so that one lookup call site serves three maps. A fourth array
 * of byte totals per direction is a plain lookup. Nothing is dropped.
 */
#include "include/corpus.h"

#define BUCKETS 64

struct counters {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, BUCKETS + 4);
};

struct counters tcp_metrics SEC(".maps");
struct counters udp_metrics SEC(".maps");
struct counters other_metrics SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 2);
} byte_totals SEC(".maps");

static __always_inline void bump(void *map, __u32 key, __u64 by)
{
	__u64 *v = bpf_map_lookup_elem(map, &key);

	if (v)
		__sync_fetch_and_add(v, by);
}

SEC("xdp")
int xdp_proto_metrics(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u32 len = data_end - data, port = 0, cls;
	struct iphdr *iph;
	__u8 proto = 0;
	void *metrics;

	if ((void *)(eth + 1) > data_end)
		return XDP_PASS;
	iph = (void *)(eth + 1);
	if (eth->h_proto == bpf_htons(ETH_P_IP) && (void *)(iph + 1) <= data_end) {
		proto = iph->protocol;
		if (proto == IPPROTO_TCP || proto == IPPROTO_UDP) {
			__be16 *ports = (void *)iph + iph->ihl * 4;

			if ((void *)(ports + 2) <= data_end)
				port = bpf_ntohs(ports[1]);
		}
	}
	metrics = proto == IPPROTO_TCP	 ? (void *)&tcp_metrics
		  : proto == IPPROTO_UDP ? (void *)&udp_metrics
					 : (void *)&other_metrics;
	bump(metrics, port % BUCKETS, 1);
	cls = len < 128 ? 0 : len < 512 ? 1 : len < 1024 ? 2 : 3;
	bump(metrics, BUCKETS + cls, 1);
	bump(&byte_totals, ctx->ingress_ifindex & 1, len);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
