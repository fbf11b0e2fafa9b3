// SPDX-License-Identifier: GPL-2.0
/*
 * Type-length-value options kept in a map value and walked through a local
 * dynptr (bpf_dynptr_from_mem), as option parsers do to let the helpers
 * check every offset: up to four options are read with bpf_dynptr_read,
 * the counter of the last one seen is bumped through bpf_dynptr_data, and
 * the frame's source MAC is recorded with bpf_dynptr_write.
 */
#include "include/corpus.h"

struct opt_table {
	__u8 raw[56];
	__u8 last_mac[6];
	__u16 hits;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct opt_table);
	__uint(max_entries, 4);
} opt_tables SEC(".maps");

SEC("xdp")
int xdp_dynptr_mem_tlv(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u32 key = ctx->rx_queue_index & 3, off = 0;
	struct ethhdr *eth = data;
	struct bpf_dynptr opts;
	struct opt_table *t;
	__u8 tl[2], mac[ETH_ALEN], verdict = XDP_PASS;
	__u16 *hits;
	int i;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	t = bpf_map_lookup_elem(&opt_tables, &key);
	if (!t)
		return XDP_PASS;
	if (bpf_dynptr_from_mem(t, sizeof(*t), 0, &opts))
		return XDP_PASS;
	for (i = 0; i < 4; i++) {
		if (bpf_dynptr_read(tl, sizeof(tl), &opts, off, 0))
			break;
		if (tl[0] == 0)
			break;
		/* type 1: drop frames from this port */
		if (tl[0] == 1)
			verdict = XDP_DROP;
		off += 2 + tl[1];
		if (off > sizeof(t->raw))
			break;
	}
	hits = bpf_dynptr_data(&opts, offsetof(struct opt_table, hits), sizeof(*hits));
	if (hits)
		*hits += 1;
	/* the dynptr helpers take no packet memory: through the stack */
	__builtin_memcpy(mac, eth->h_source, ETH_ALEN);
	bpf_dynptr_write(&opts, offsetof(struct opt_table, last_mac), mac, ETH_ALEN, 0);
	return verdict;
}

char _license[] SEC("license") = "GPL";
