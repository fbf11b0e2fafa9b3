// SPDX-License-Identifier: GPL-2.0
/*
 * Iteration through helpers that take a callback, as code for kernels 5.13
 * and later writes its loops: bpf_loop walks the first words of the L4
 * payload, read with bpf_xdp_load_bytes, and sums them into a context
 * struct on the stack (the callback stops early at a zero word), and bpf_for_each_map_elem scans an
 * array of port rules for the frame's destination port. A rule's action decides the verdict; the
 * payload sum is counted in a per-rule array.
 */
#include "include/corpus.h"

struct rule {
	__u16 port;
	__u16 action;
	__u32 hits;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct rule);
	__uint(max_entries, 8);
} rules SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 8);
} payload_sum SEC(".maps");

struct walk {
	struct xdp_md *ctx;
	__u32 offset;
	__u32 words;
	__u64 sum;
};

struct scan {
	__u16 port;
	__u16 action;
	__u32 index;
};

static long sum_word(__u32 i, void *arg)
{
	struct walk *w = arg;
	__be16 word;

	if (bpf_xdp_load_bytes(w->ctx, w->offset + i * 2, &word, sizeof(word)))
		return 1;
	if (!word)
		return 1;
	w->sum += bpf_ntohs(word);
	w->words++;
	return 0;
}

static long match_rule(void *map, __u32 *key, struct rule *r, struct scan *s)
{
	if (r->port && r->port == s->port) {
		s->action = r->action;
		s->index = *key;
		__sync_fetch_and_add(&r->hits, 1);
		return 1;
	}
	return 0;
}

SEC("xdp")
int xdp_loop_callbacks(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = data + sizeof(*eth);
	struct udphdr *udp = (void *)(iph + 1);
	struct scan s = { .action = XDP_PASS, .index = 8 };
	struct walk w = {};
	__u64 *sum;

	if ((void *)(udp + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_IP) || iph->ihl != 5 || iph->protocol != IPPROTO_UDP)
		return XDP_PASS;
	s.port = bpf_ntohs(udp->dest);
	bpf_for_each_map_elem(&rules, match_rule, &s, 0);
	if (s.index >= 8)
		return XDP_PASS;

	w.ctx = ctx;
	w.offset = (void *)(udp + 1) - data;
	bpf_loop(16, sum_word, &w, 0);
	sum = bpf_map_lookup_elem(&payload_sum, &s.index);
	if (sum)
		__sync_fetch_and_add(sum, w.sum + w.words);
	return s.action <= XDP_TX ? s.action : XDP_ABORTED;
}

char _license[] SEC("license") = "GPL";
