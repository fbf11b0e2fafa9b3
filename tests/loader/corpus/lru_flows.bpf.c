// SPDX-License-Identifier: GPL-2.0
/* A small LRU table that happens to be called flows: the device gives it
 * the entries it declares, no more. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, __u64);
} flows SEC(".maps");

SEC("xdp")
int count_queues(struct xdp_md *ctx)
{
	__u32 key = ctx->rx_queue_index;
	__u64 one = 1, *v = bpf_map_lookup_elem(&flows, &key);

	if (v)
		__sync_fetch_and_add(v, 1);
	else
		bpf_map_update_elem(&flows, &key, &one, BPF_ANY);
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
