// SPDX-License-Identifier: GPL-2.0
/*
 * The translator's work grows with the program's length, not its square.
 * Each shape is a program of the length the verifier takes at most in one
 * path (8192 pending branches, the kernel's limit too) and that a
 * quadratic pass would make tens of thousands of times longer to
 * translate; the count of instructions, operations and edges the passes
 * visit (hxu_translate_work) is held to a constant per instruction, so that
 * no test is timed. The shapes, each what some pass used to repeat over:
 * results dead one after another (dead-code removal swept until nothing
 * changed), one long block of live code (the scheduler compared each
 * operation with all before it), blocks laid out in reverse order (every
 * sweep of a data flow learnt one block), packet-bound checks on one pointer
 * (each looked back through the whole block for the pointer's making).
 */
#include <criterion/criterion.h>
#include <linux/bpf.h>
#include <stddef.h>
#include <stdlib.h>

#include "hwmap/translate.h"
#include "verifier/verifier.h"

#define LENGTH 16000
/*
 * Visits per BPF instruction: the passes make about 70 on these shapes
 * (liveness alone visits each instruction and edge once per register); a
 * pass quadratic in the length makes thousands at this length.
 */
#define WORK_PER_INSN 256

struct builder {
	struct bpf_insn *p;
	size_t n;
};

static void put(struct builder *b, uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	b->p[b->n++] = (struct bpf_insn){
		.code = code, .dst_reg = dst, .src_reg = src, .off = off, .imm = imm
	};
}

/* r6 = ctx; r1, r2 values the verifier does not know; r3..r5 constants. */
static void prologue(struct builder *b)
{
	put(b, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_1, 0, 0);
	put(b, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_1, BPF_REG_6,
	    offsetof(struct xdp_md, ingress_ifindex), 0);
	put(b, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_2, BPF_REG_6,
	    offsetof(struct xdp_md, rx_queue_index), 0);
	for (uint8_t r = 3; r <= 5; r++)
		put(b, BPF_ALU64 | BPF_MOV | BPF_K, r, 0, 0, r);
}

static void ret_r0(struct builder *b, uint8_t reg)
{
	put(b, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_0, reg, 0, 0);
	put(b, BPF_ALU64 | BPF_AND | BPF_K, BPF_REG_0, 0, 0, 3);
	put(b, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

/* Additions each register's next one reads, none of them read at the end. */
static void dead_chain(struct builder *b)
{
	uint8_t r = 1;

	prologue(b);
	while (b->n + 3 < LENGTH) {
		uint8_t next = r % 5 + 1;

		put(b, BPF_ALU64 | BPF_ADD | BPF_X, next, r, 0, 0);
		r = next;
	}
	put(b, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, XDP_PASS);
	put(b, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

/* One block of arithmetic, independent pairs of it, all returned: r1..r4
 * each fold in r5 in turn, and the exit returns what they make. */
static void live_block(struct builder *b)
{
	uint8_t r = 1;

	prologue(b);
	put(b, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_5, BPF_REG_1, 0, 0);
	while (b->n + 8 < LENGTH) {
		put(b, BPF_ALU64 | BPF_XOR | BPF_X, r, BPF_REG_5, 0, 0);
		put(b, BPF_ALU64 | BPF_ADD | BPF_K, r, 0, 0, (int32_t)b->n);
		r = r % 4 + 1;
	}
	put(b, BPF_ALU64 | BPF_XOR | BPF_X, BPF_REG_1, BPF_REG_2, 0, 0);
	put(b, BPF_ALU64 | BPF_XOR | BPF_X, BPF_REG_1, BPF_REG_3, 0, 0);
	put(b, BPF_ALU64 | BPF_XOR | BPF_X, BPF_REG_1, BPF_REG_4, 0, 0);
	ret_r0(b, BPF_REG_1);
}

/*
 * Blocks of five instructions in reverse order: the entry stores r1 to the
 * stack and jumps to the last block, each block reloads it, adds to r2 and
 * jumps to the one before, and the first block returns r2.
 */
static void reversed(struct builder *b)
{
	size_t blocks, first, entry_jump, last = 0;

	prologue(b);
	put(b, BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, BPF_REG_1, -8, 0);
	blocks = (LENGTH - b->n - 4) / 5;
	entry_jump = b->n;
	put(b, BPF_JMP | BPF_JA, 0, 0, 0, 0);
	first = b->n;
	ret_r0(b, BPF_REG_2);
	for (size_t k = 0; k < blocks; k++) {
		size_t here = last = b->n;

		put(b, BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_3, BPF_REG_10, -8, 0);
		put(b, BPF_ALU64 | BPF_ADD | BPF_X, BPF_REG_2, BPF_REG_3, 0, 0);
		put(b, BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, BPF_REG_2, -16, 0);
		put(b, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, 1);
		/* to the block before, or to the exit from the first */
		put(b, BPF_JMP | BPF_JA, 0, 0,
		    (int16_t)((k ? (int64_t)here - 5 : (int64_t)first) - (int64_t)b->n - 1), 0);
	}
	b->p[entry_jump].off = (int16_t)(last - entry_jump - 1);
}

/* A packet pointer checked against data_end again and again, never made
 * anew: every check jumps to one exit. */
static void bound_checks(struct builder *b)
{
	size_t checks;

	put(b, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_5, 0, 0, 0);
	put(b, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_2, BPF_REG_1, offsetof(struct xdp_md, data), 0);
	put(b, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_3, BPF_REG_1, offsetof(struct xdp_md, data_end),
	    0);
	put(b, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_4, BPF_REG_2, 0, 0);
	put(b, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_4, 0, 0, 14);
	/* fewer than the verifier's 8192 pending branches */
	checks = (LENGTH - 12) / 2 < 8000 ? (LENGTH - 12) / 2 : 8000;
	for (size_t k = 0; k < checks; k++) {
		put(b, BPF_JMP | BPF_JGT | BPF_X, BPF_REG_4, BPF_REG_3,
		    (int16_t)(2 * (checks - k) + 2), 0);
		put(b, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_5, 0, 0, 1);
	}
	ret_r0(b, BPF_REG_5);
	put(b, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, XDP_DROP);
	put(b, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

/* Translates the program shape builds; the image's operations, and the
 * work per instruction in *per_insn. */
static uint32_t translate(void (*shape)(struct builder *), double *per_insn)
{
	struct builder b = { calloc(LENGTH + 16, sizeof(struct bpf_insn)), 0 };
	struct hwxdp_verify_opts vopts = { .sz = sizeof(vopts), .device = true };
	struct hwxdp_verify_result *res = NULL;
	uint32_t subprog_start = 0, ops;
	struct hxu_image *img = NULL;
	char why[512];
	int err;

	cr_assert_not_null(b.p);
	shape(&b);
	cr_assert_leq(b.n, LENGTH);
	cr_assert_eq(hwxdp_verify_insns(b.p, b.n, NULL, 0, &vopts, &res), 0);
	cr_assert(res->accepted, "the verifier refuses the program:\n%s", res->log);
	{
		struct hwxdp_prog prog = { .name = "linear",
					   .type = BPF_PROG_TYPE_XDP,
					   .insns = b.p,
					   .insn_cnt = b.n,
					   .subprog_start = &subprog_start,
					   .subprog_cnt = 1 };
		struct hwxdp_object obj = { .progs = &prog, .prog_cnt = 1 };

		err = hwxdp_translate(&obj, &prog, res, &img, why, sizeof(why));
		cr_assert_eq(err, 0, "translation: %s", why);
	}
	*per_insn = (double)hxu_translate_work() / (double)b.n;
	cr_log_info("%zu insns: %u ops, work %.1f per insn", b.n, img->line_cnt, *per_insn);
	ops = img->line_cnt;
	hxu_image__free(img);
	hwxdp_verify_result__free(res);
	free(b.p);
	return ops;
}

Test(linear, dead_results_one_after_another)
{
	double work;

	/* r0 = XDP_PASS and the exit are all that is left */
	cr_assert_eq(translate(dead_chain, &work), 2);
	cr_assert_leq(work, WORK_PER_INSN, "%.1f visits per instruction", work);
}

Test(linear, one_long_block)
{
	double work;

	cr_assert_gt(translate(live_block, &work), LENGTH / 2);
	cr_assert_leq(work, WORK_PER_INSN, "%.1f visits per instruction", work);
}

Test(linear, blocks_in_reverse_order)
{
	double work;

	cr_assert_gt(translate(reversed, &work), LENGTH / 2);
	cr_assert_leq(work, WORK_PER_INSN, "%.1f visits per instruction", work);
}

Test(linear, bound_checks_on_one_pointer)
{
	double work;

	cr_assert_gt(translate(bound_checks, &work), LENGTH / 4);
	cr_assert_leq(work, WORK_PER_INSN, "%.1f visits per instruction", work);
}
