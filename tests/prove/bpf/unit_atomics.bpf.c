// SPDX-License-Identifier: GPL-2.0
/*
 * A program for the prover's unit tests (tests/prove/test_units.c), which
 * makes the translator emit the atomics that fetch (built with -mcpu=v3):
 * an owner slot claimed once with cmpxchg (64 and 32 bits), a last-seen
 * slot swapped with xchg, flags set, cleared and toggled with the fetch
 * forms of or, and and xor; what each gives back, and the owner slots
 * afterwards, are written into the frame. The kernel's copy is the device's.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct slot {
	__u64 owner;
	__u64 last;
	__u64 flags;
	__u32 owner32;
	__u32 toggles;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct slot);
} slots SEC(".maps");

SEC("xdp")
int unit_atomics(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u64 *p = data, prev, last, flags;
	__u32 *q = data, prev32, toggles;
	struct slot *s;
	__u32 key = 0;

	if ((void *)(p + 8) > end)
		return XDP_DROP;
	s = bpf_map_lookup_elem(&slots, &key);
	if (!s)
		return XDP_ABORTED;
	prev = __sync_val_compare_and_swap(&s->owner, 0, p[0]);
	prev32 = __sync_val_compare_and_swap(&s->owner32, q[2], q[3]);
	last = __sync_lock_test_and_set(&s->last, p[2]);
	flags = __sync_fetch_and_or(&s->flags, p[3]);
	flags ^= __sync_fetch_and_and(&s->flags, ~(__u64)q[8]);
	toggles = __sync_fetch_and_xor(&s->toggles, q[9]);
	p[1] = prev;
	q[10] = prev32;
	q[11] = toggles;
	p[3] = last;
	p[4] = flags;
	/* what the owner slots hold now */
	p[6] = *(volatile __u64 *)&s->owner;
	q[14] = *(volatile __u32 *)&s->owner32;
	return prev ? XDP_DROP : XDP_TX;
}

char _license[] SEC("license") = "GPL";
