// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. A local dynptr made only on the path where the
 * map value is found, then read on both paths: on the other its stack
 * slots were never a dynptr.
 */
#include "include/corpus.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 8);
} cfg SEC(".maps");

SEC("xdp")
int xdp_cfg_read(struct xdp_md *ctx)
{
	__u32 key = ctx->rx_queue_index & 7;
	struct bpf_dynptr d;
	__u32 action = 0;
	__u64 *v;

	v = bpf_map_lookup_elem(&cfg, &key);
	if (v)
		bpf_dynptr_from_mem(v, sizeof(*v), 0, &d);
	if (bpf_dynptr_read(&action, sizeof(action), &d, 0, 0))
		return XDP_PASS;
	return action == 1 ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
