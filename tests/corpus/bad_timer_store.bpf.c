// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. A rate-limit slot is reset by clearing the whole
 * value in place, its struct bpf_timer included, which only the timer
 * helpers may touch.
 */
#include "include/corpus.h"

struct slot {
	__u64 tokens;
	struct bpf_timer refill;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct slot);
	__uint(max_entries, 16);
} slots SEC(".maps");

SEC("xdp")
int xdp_slot_reset(struct xdp_md *ctx)
{
	__u32 key = ctx->rx_queue_index & 15;
	struct slot *s = bpf_map_lookup_elem(&slots, &key);

	if (!s)
		return XDP_PASS;
	if (s->tokens == 0) {
		__builtin_memset(s, 0, sizeof(*s));
		return XDP_DROP;
	}
	s->tokens--;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
