// SPDX-License-Identifier: GPL-2.0
/*
 * Piecewise copies (hwmap/memcopy.h): a run of byte copies, in whatever
 * order clang emits them, is found with the intervals it covers, and is
 * left alone when it copies a byte twice, writes a base, or leaves its
 * temporary live. fwd's MAC copies from the next hop into the frame are
 * checked end to end by tests/fwd and tests/devdiff on both targets.
 */
#include <criterion/criterion.h>
#include <linux/bpf.h>
#include <string.h>

#include "hwmap/memcopy.h"

#define LDXB(d, s, o)                                                                              \
	{                                                                                          \
		.code = BPF_LDX | BPF_MEM | BPF_B, .dst_reg = d, .src_reg = s, .off = o            \
	}
#define STXB(d, s, o)                                                                              \
	{                                                                                          \
		.code = BPF_STX | BPF_MEM | BPF_B, .dst_reg = d, .src_reg = s, .off = o            \
	}
#define MOVK(d, k)                                                                                 \
	{                                                                                          \
		.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = d, .imm = k                        \
	}
#define EXIT                                                                                       \
	{                                                                                          \
		.code = BPF_JMP | BPF_EXIT                                                         \
	}
#define COPY(from, to) LDXB(4, 5, from), STXB(2, 4, to)

struct run {
	struct bpf_insn insns[40];
	size_t cnt;
	uint16_t live_after;
};

/* fwd's: two 6-byte MACs, bytes in clang's order */
static const struct run macs = {
	{ COPY(17, 5), COPY(16, 4), COPY(15, 3), COPY(14, 2), COPY(13, 1), COPY(12, 0),
	  COPY(22, 10), COPY(23, 11), COPY(20, 8), COPY(21, 9), COPY(18, 6), COPY(19, 7),
	  MOVK(0, 2), EXIT },
	26,
	0,
};

static struct hxu_copy find(const struct run *r)
{
	struct hwxdp_prog p = { .insns = (struct bpf_insn *)r->insns, .insn_cnt = r->cnt };
	struct hwxdp_insn_fact facts[40];
	bool target[41] = { false };
	uint16_t live[41];
	struct hxu_copy *c, out;

	memset(facts, 0, sizeof(facts));
	for (size_t i = 0; i < r->cnt; i++)
		facts[i].reachable = true;
	for (size_t i = 0; i <= r->cnt; i++)
		live[i] = (uint16_t)(r->live_after | 1u << 2 | 1u << 5);
	c = hxu_find_copies(&p, facts, target, live);
	cr_assert_not_null(c);
	out = c[0];
	free(c);
	return out;
}

Test(memcopy, finds_the_mac_copies)
{
	struct hxu_copy c = find(&macs);

	cr_assert_eq(c.end, 23);
	cr_assert_eq(c.tmp, 4);
	cr_assert_eq(c.src_base, 5);
	cr_assert_eq(c.dst_base, 2);
	cr_assert_eq(c.dist, -12);
	/* bytes 12..23 of the source: one interval, 8 then 4 */
	cr_assert_eq(c.chunk_cnt, 2);
	cr_assert_eq(c.chunk[0].off, 12);
	cr_assert_eq(c.chunk[0].size, 8);
	cr_assert_eq(c.chunk[1].off, 20);
	cr_assert_eq(c.chunk[1].size, 4);
}

Test(memcopy, splits_at_gaps)
{
	struct run r = macs;

	/* without byte 15: 12..14 and 16..23 */
	memmove(&r.insns[4], &r.insns[6], (r.cnt - 6) * sizeof(r.insns[0]));
	r.cnt -= 2;
	struct hxu_copy c = find(&r);

	cr_assert_eq(c.end, 21);
	cr_assert_eq(c.chunk_cnt, 3);
	cr_assert_eq(c.chunk[0].off, 12);
	cr_assert_eq(c.chunk[0].size, 2);
	cr_assert_eq(c.chunk[1].off, 14);
	cr_assert_eq(c.chunk[1].size, 1);
	cr_assert_eq(c.chunk[2].off, 16);
	cr_assert_eq(c.chunk[2].size, 8);
}

Test(memcopy, refuses_what_it_cannot_widen)
{
	struct run r = macs;

	/* the temporary is read afterwards */
	r.live_after = 1u << 4;
	cr_assert_eq(find(&r).end, 0);
	/* one byte copied twice: the later copy wins, order matters */
	r = macs;
	r.insns[2] = (struct bpf_insn)LDXB(4, 5, 17);
	r.insns[3] = (struct bpf_insn)STXB(2, 4, 5);
	cr_assert_eq(find(&r).end, 0);
	/* a different distance ends the run */
	r = macs;
	r.insns[3] = (struct bpf_insn)STXB(2, 4, 7);
	cr_assert_eq(find(&r).end, 0, "one pair alone is not a run");
}
