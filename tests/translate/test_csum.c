// SPDX-License-Identifier: GPL-2.0
/*
 * Checksum updates for the checksum unit (hwmap/csum.h): a fragment is
 * handed to csum16 only when it gives csum16's result for all 65,536 field
 * values, writes nothing live after it, and is entered only at its load.
 * The fragment here is what clang makes of fwd's RFC 1624 TTL update.
 */
#include <criterion/criterion.h>
#include <linux/bpf.h>
#include <string.h>

#include "hwmap/csum.h"

#define LDXH(d, s, o)                                                                              \
	{                                                                                          \
		.code = BPF_LDX | BPF_MEM | BPF_H, .dst_reg = d, .src_reg = s, .off = o            \
	}
#define STXH(d, s, o)                                                                              \
	{                                                                                          \
		.code = BPF_STX | BPF_MEM | BPF_H, .dst_reg = d, .src_reg = s, .off = o            \
	}
#define MOVK(d, k)                                                                                 \
	{                                                                                          \
		.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = d, .imm = k                        \
	}
#define ADDK(d, k)                                                                                 \
	{                                                                                          \
		.code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = d, .imm = k                        \
	}
#define ADDX(d, s)                                                                                 \
	{                                                                                          \
		.code = BPF_ALU64 | BPF_ADD | BPF_X, .dst_reg = d, .src_reg = s                    \
	}
#define JGTK(d, k, o)                                                                              \
	{                                                                                          \
		.code = BPF_JMP | BPF_JGT | BPF_K, .dst_reg = d, .imm = k, .off = o                \
	}
#define JA(o)                                                                                      \
	{                                                                                          \
		.code = BPF_JMP | BPF_JA, .off = o                                                 \
	}
#define EXIT                                                                                       \
	{                                                                                          \
		.code = BPF_JMP | BPF_EXIT                                                         \
	}

struct fragment {
	struct bpf_insn insns[16];
	size_t cnt;
	uint16_t live_after; /* registers live after the store */
};

/* check + 1 + (check + 1 >= 0xffff), as clang compiles it. */
static const struct fragment ttl = {
	{ LDXH(2, 1, 10), MOVK(4, 1), JGTK(2, 65533, 1), MOVK(4, 0), ADDX(2, 4), ADDK(2, 1),
	  STXH(1, 2, 10), MOVK(0, 2), EXIT },
	9,
	0,
};

static struct hxu_csum find(const struct fragment *f, int jump_in_at)
{
	struct hwxdp_prog p = { .insns = (struct bpf_insn *)f->insns, .insn_cnt = f->cnt };
	struct hwxdp_insn_fact facts[16];
	bool target[17] = { false };
	uint16_t live[17] = { 0 };
	struct hxu_csum *c, out;

	memset(facts, 0, sizeof(facts));
	for (size_t i = 0; i < f->cnt; i++) {
		facts[i].reachable = true;
		facts[i].regs[1].type = HWXDP_REG_PTR_TO_PACKET;
		facts[i].regs[10].type = HWXDP_REG_PTR_TO_STACK;
	}
	/* targets of the fragment's own jumps */
	for (size_t i = 0; i < f->cnt; i++)
		if (BPF_CLASS(f->insns[i].code) == BPF_JMP && BPF_OP(f->insns[i].code) != BPF_EXIT)
			target[i + 1 + f->insns[i].off] = true;
	if (jump_in_at >= 0)
		target[jump_in_at] = true; /* a marker alone: no jump there */
	for (size_t i = 0; i <= f->cnt; i++)
		live[i] = (uint16_t)(f->live_after | 1u << 1);
	c = hxu_find_csum(&p, facts, target, live);
	cr_assert_not_null(c);
	out = c[0];
	free(c);
	return out;
}

Test(csum, the_unit_is_rfc1624)
{
	/* against a full recomputation of a 20-byte header's checksum */
	uint16_t words[10] = { 0x4500, 0x0054, 0x1c46, 0x4000, 0x4011,
			       0,      0xc0a8, 0x0001, 0xc0a8, 0x00c7 };

	for (uint32_t id = 0; id <= 0xffff; id++) {
		uint32_t sum = 0;
		uint16_t check, after;

		words[2] = (uint16_t)id;
		words[4] = 0x4011;
		words[5] = 0;
		for (int i = 0; i < 10; i++)
			sum += words[i];
		while (sum >> 16)
			sum = (sum & 0xffff) + (sum >> 16);
		check = (uint16_t)~sum;
		/* TTL 0x40 -> 0x3f: the checksum goes up by 0x0100 */
		after = hxu_csum16(check, 0x0100);
		words[4] = 0x3f11;
		words[5] = 0;
		sum = 0;
		for (int i = 0; i < 10; i++)
			sum += words[i];
		while (sum >> 16)
			sum = (sum & 0xffff) + (sum >> 16);
		cr_assert_eq(after, (uint16_t)~sum, "ip id %u", id);
	}
}

Test(csum, finds_the_ttl_update)
{
	struct hxu_csum c = find(&ttl, -1);

	cr_assert_eq(c.end, 6);
	cr_assert_eq(c.base, 1);
	cr_assert_eq(c.off, 10);
	cr_assert_eq(c.k, 1);
	cr_assert_eq(c.tmp, 2);
}

Test(csum, refuses_what_differs_for_one_value)
{
	struct fragment f = ttl;

	/* check + 1 without the carry differs at 0xffff only */
	f.insns[2] = (struct bpf_insn)JA(1);
	cr_assert_eq(find(&f, -1).end, 0);
	/* + 2 differs where the sum reaches -0 */
	f = ttl;
	f.insns[5] = (struct bpf_insn)ADDK(2, 2);
	cr_assert_eq(find(&f, -1).end, 0);
}

Test(csum, refuses_live_results_and_jumps_in)
{
	struct fragment f = ttl;

	f.live_after = 1u << 4;
	cr_assert_eq(find(&f, -1).end, 0);
	/* a jump from after the store back into the middle */
	f = ttl;
	f.insns[7] = (struct bpf_insn)JGTK(0, 5, -3);
	cr_assert_eq(find(&f, -1).end, 0);
	/* the same place marked a target, with no jump there from outside */
	cr_assert_eq(find(&ttl, 5).end, 6);
}

Test(csum, refuses_other_places)
{
	struct fragment f = ttl;

	f.insns[6].off = 12; /* stored somewhere else */
	cr_assert_eq(find(&f, -1).end, 0);
}
