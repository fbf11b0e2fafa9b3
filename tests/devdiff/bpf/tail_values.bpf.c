// SPDX-License-Identifier: GPL-2.0
/*
 * Tail calls through program arrays their definitions fill (libbpf's
 * `.values`), for tests/devdiff/test_tail_values.c: the entry jumps by the
 * 32-bit selector at byte 14 of the frame into `jump`, whose stages each
 * leave the frame in their own way; an empty slot, an index past the end
 * and any other fall through to the entry's own ending. One stage goes on
 * through a second array that no other names, one calls itself until the
 * tail-call limit stops it.
 */
#include "../../corpus/include/corpus.h"

#define HDR 24 /* bytes every stage may touch */

struct jump_map {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 8);
	__type(key, __u32);
	__array(values, int(struct xdp_md *));
};

/* defined after the programs they hold, as libbpf needs */
extern struct jump_map jump, jump_more;

static __always_inline __u8 *frame_at(struct xdp_md *ctx, __u8 **end)
{
	__u8 *p = (__u8 *)(long)ctx->data;

	*end = (__u8 *)(long)ctx->data_end;
	return p + HDR > *end ? 0 : p;
}

SEC("xdp")
int tv_entry(struct xdp_md *ctx)
{
	__u8 *end, *p = frame_at(ctx, &end);
	__u32 sel;

	if (!p)
		return XDP_ABORTED;
	sel = p[14] | (__u32)p[15] << 8 | (__u32)p[16] << 16 | (__u32)p[17] << 24;
	bpf_tail_call(ctx, &jump, sel);
	/* fell through: nothing there */
	p = frame_at(ctx, &end);
	if (!p)
		return XDP_ABORTED;
	p[18] = 0xf0;
	return XDP_PASS;
}

/* slot 0: the MAC addresses swapped, sent back */
SEC("xdp")
int tv_swap(struct xdp_md *ctx)
{
	__u8 *end, *p = frame_at(ctx, &end);

	if (!p)
		return XDP_ABORTED;
	for (int i = 0; i < 6; i++) {
		__u8 t = p[i];

		p[i] = p[6 + i];
		p[6 + i] = t;
	}
	return XDP_TX;
}

/* slot 1: the Ethernet header popped */
SEC("xdp")
int tv_pop(struct xdp_md *ctx)
{
	__u8 *end, *p;

	if (bpf_xdp_adjust_head(ctx, ETH_HLEN))
		return XDP_ABORTED;
	p = frame_at(ctx, &end);
	if (!p)
		return XDP_DROP;
	p[0] ^= 0x55;
	return XDP_PASS;
}

/* slot 3: marks the frame, then on through jump_more */
SEC("xdp")
int tv_mark(struct xdp_md *ctx)
{
	__u8 *end, *p = frame_at(ctx, &end);

	if (!p)
		return XDP_ABORTED;
	p[19] = 0xcc;
	bpf_tail_call(ctx, &jump_more, p[20] & 3);
	return XDP_DROP;
}

/* jump_more's slot 1: the tail cut by 4 bytes */
SEC("xdp")
int tv_trim(struct xdp_md *ctx)
{
	__u8 *end, *p;

	if (bpf_xdp_adjust_tail(ctx, -4))
		return XDP_ABORTED;
	p = frame_at(ctx, &end);
	if (!p)
		return XDP_ABORTED;
	p[21] = 0xdd;
	return XDP_TX;
}

/* slot 4: counts its runs in byte 22 and calls itself again, until the
 * kernel's 33 tail calls are spent */
SEC("xdp")
int tv_again(struct xdp_md *ctx)
{
	__u8 *end, *p = frame_at(ctx, &end);

	if (!p)
		return XDP_ABORTED;
	p[22]++;
	bpf_tail_call(ctx, &jump, 4);
	return XDP_PASS;
}

struct jump_map jump SEC(".maps") = {
	.values = {
		[0] = (void *)&tv_swap,
		[1] = (void *)&tv_pop,
		[3] = (void *)&tv_mark,
		[4] = (void *)&tv_again,
	},
};

struct jump_map jump_more SEC(".maps") = {
	.values = {
		[1] = (void *)&tv_trim,
	},
};

char _license[] SEC("license") = "GPL";
