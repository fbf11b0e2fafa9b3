// SPDX-License-Identifier: GPL-2.0
/*
 * The atomic operations clang emits for -mcpu=v3 and newer, as lock-free
 * counters and flow slots in recent code use them: __sync_fetch_and_add
 * whose old value is used (BPF_FETCH), fetch-and-or, -and and -xor on flag
 * words, __sync_lock_test_and_set (xchg) of a "last seen" slot and
 * __sync_val_compare_and_swap (cmpxchg) claiming an owner slot once, on
 * 64-bit and 32-bit words of array values and of a global. The old values
 * decide the verdict: the first frame of a slot passes, every eighth frame
 * after is dropped.
 */
#include "include/corpus.h"

struct slot {
	__u64 frames;
	__u64 flags;
	__u32 owner;
	__u32 last_len;
	__u32 proto_mask;
	__u32 toggles;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct slot);
	__uint(max_entries, 16);
} slots SEC(".maps");

__u64 total_frames;

SEC("xdp")
int xdp_atomics(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u32 len = data_end - data, key, owner, prev_owner, old_len;
	__u64 n, old_flags;
	struct slot *s;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	__sync_fetch_and_add(&total_frames, 1);
	key = eth->h_source[5] & 15;
	s = bpf_map_lookup_elem(&slots, &key);
	if (!s)
		return XDP_ABORTED;

	n = __sync_fetch_and_add(&s->frames, 1);
	old_flags = __sync_fetch_and_or(&s->flags, 1ull << (eth->h_dest[5] & 63));
	__sync_fetch_and_and(&s->flags, ~(1ull << (len & 63)));
	__sync_fetch_and_xor(&s->toggles, 1u << (len & 31));
	__sync_fetch_and_or(&s->proto_mask, 1u << (eth->h_proto & 31));
	old_len = __sync_lock_test_and_set(&s->last_len, len);

	owner = ((__u32)eth->h_source[4] << 8) | eth->h_source[3];
	prev_owner = __sync_val_compare_and_swap(&s->owner, 0, owner | 0x10000);

	if (n == 0)
		return XDP_PASS;
	if (prev_owner && prev_owner != (owner | 0x10000) && (n & 7) == 7)
		return XDP_DROP;
	if ((n & 7) == 7)
		return XDP_DROP;
	if (old_len > len + 1000 || (old_flags >> 63))
		return XDP_TX;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
