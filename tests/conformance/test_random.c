// SPDX-License-Identifier: GPL-2.0
/*
 * Seeded random programs in the conformance convention, on the device and
 * on the kernel through the same wrapper: r0 must agree for every one.
 *
 * The programs are valid by construction, so both verifiers must accept
 * them: every ALU and ALU32 operation (immediate and register forms,
 * signed division, sign-extending moves, byte swaps), lddw, loads and
 * stores of every size on the memory and the stack, the atomics on the
 * stack, and forward branches of every condition, 64 and 32 bits. r1 (the
 * memory) and r2 (its length) are only read; the result folds every
 * register, a stack slot and the memory's first bytes into r0.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "lab/conformance.h"
#include "verifier/disasm.h"

#define PROGRAMS    400
#define BODY_MAX    48
#define INSNS_MAX   (32 + 2 * BODY_MAX + 32)
#define STACK_SLOTS 8
#define MEM_MIN	    8
#define MEM_MAX	    64

struct rng {
	uint64_t state;
};

/* splitmix64: the same seed, the same programs */
static uint64_t next(struct rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t below(struct rng *r, uint32_t n)
{
	return (uint32_t)(next(r) % n);
}

/* Registers the program computes in: r0 and r3..r9 (r1, r2 are inputs). */
static uint8_t work_reg(struct rng *r)
{
	static const uint8_t regs[] = { 0, 3, 4, 5, 6, 7, 8, 9 };

	return regs[below(r, sizeof(regs))];
}

/* A source register: a working one or the length in r2. */
static uint8_t src_reg(struct rng *r)
{
	return below(r, 10) ? work_reg(r) : 2;
}

/* Immediates with the edges that matter: 0, +-1, the 32-bit extremes. */
static int32_t imm(struct rng *r)
{
	static const int32_t edges[] = { 0, 1, -1, 2, 0x7fffffff, (int32_t)0x80000000, 63, 32 };

	return below(r, 3) ? (int32_t)next(r) : edges[below(r, sizeof(edges) / sizeof(edges[0]))];
}

struct builder {
	struct bpf_insn insns[INSNS_MAX];
	size_t cnt;
	/* forward branches: instruction index and the body item they go to */
	size_t branch_at[BODY_MAX], branch_to[BODY_MAX], branches;
	size_t item_start[BODY_MAX + 1];
};

static void emit(struct builder *b, uint8_t code, uint8_t dst, uint8_t src, int16_t off,
		 int32_t imm)
{
	b->insns[b->cnt++] = (struct bpf_insn){
		.code = code, .dst_reg = dst, .src_reg = src, .off = off, .imm = imm
	};
}

static void emit_lddw(struct builder *b, uint8_t dst, uint64_t value)
{
	emit(b, BPF_LD | BPF_DW | BPF_IMM, dst, 0, 0, (int32_t)(uint32_t)value);
	emit(b, 0, 0, 0, 0, (int32_t)(uint32_t)(value >> 32));
}

static void alu(struct builder *b, struct rng *r)
{
	static const uint8_t ops[] = { BPF_ADD,	 BPF_SUB, BPF_MUL, BPF_DIV, BPF_MOD,
				       BPF_OR,	 BPF_AND, BPF_XOR, BPF_LSH, BPF_RSH,
				       BPF_ARSH, BPF_MOV, BPF_NEG, BPF_END };
	uint8_t op = ops[below(r, sizeof(ops))], dst = work_reg(r);
	bool wide = below(r, 2), reg = below(r, 2);
	uint8_t cls = wide ? BPF_ALU64 : BPF_ALU;
	int32_t k = imm(r);
	int16_t off = 0;

	switch (op) {
	case BPF_NEG:
		emit(b, cls | BPF_NEG, dst, 0, 0, 0);
		return;
	case BPF_END: {
		static const int32_t widths[] = { 16, 32, 64 };
		/* ALU: to little or big endian; ALU64: the unconditional swap */
		uint8_t src = wide ? BPF_TO_LE : (below(r, 2) ? BPF_TO_BE : BPF_TO_LE);

		emit(b, cls | BPF_END | src, dst, 0, 0, widths[below(r, 3)]);
		return;
	}
	case BPF_DIV:
	case BPF_MOD:
		off = (int16_t)below(r, 2); /* signed */
		if (!reg && !k)
			k = 3; /* a constant 0 divisor is refused at load */
		break;
	case BPF_LSH:
	case BPF_RSH:
	case BPF_ARSH:
		/* a constant shift by the width or more is refused; a register's
		 * amount is masked at run time */
		k &= wide ? 63 : 31;
		break;
	case BPF_MOV:
		if (reg && below(r, 3) == 0) {
			static const int16_t sx[] = { 8, 16, 32 };

			off = sx[below(r, wide ? 3 : 2)];
		}
		break;
	}
	if (reg)
		emit(b, cls | op | BPF_X, dst, src_reg(r), off, 0);
	else
		emit(b, cls | op | BPF_K, dst, 0, off, k);
}

static const uint8_t sizes[] = { BPF_B, BPF_H, BPF_W, BPF_DW };
static const int bytes_of[] = { 1, 2, 4, 8 };

static void memory(struct builder *b, struct rng *r, size_t mem_len)
{
	unsigned int kind = below(r, 4);
	/* a sign-extending load has no 64-bit form */
	unsigned int s = below(r, kind == 1 ? 3 : 4);
	int16_t off = (int16_t)below(r, (uint32_t)(mem_len - (size_t)bytes_of[s] + 1));

	switch (kind) {
	case 0:
		emit(b, BPF_LDX | BPF_MEM | sizes[s], work_reg(r), 1, off, 0);
		break;
	case 1:
		emit(b, BPF_LDX | BPF_MEMSX | sizes[s], work_reg(r), 1, off, 0);
		break;
	case 2:
		emit(b, BPF_ST | BPF_MEM | sizes[s], 1, 0, off, imm(r));
		break;
	default:
		emit(b, BPF_STX | BPF_MEM | sizes[s], 1, src_reg(r), off, 0);
		break;
	}
}

/* An aligned place in the stack slots the prologue wrote. */
static int16_t stack_off(struct rng *r, unsigned int size_index)
{
	int bytes = bytes_of[size_index];
	int slot = -8 * (int)(1 + below(r, STACK_SLOTS));

	return (int16_t)(slot + bytes * (int)below(r, (uint32_t)(8 / bytes)));
}

static void stack(struct builder *b, struct rng *r)
{
	static const int32_t atomics[] = {
		BPF_ADD,
		BPF_OR,
		BPF_AND,
		BPF_XOR,
		BPF_ADD | BPF_FETCH,
		BPF_OR | BPF_FETCH,
		BPF_AND | BPF_FETCH,
		BPF_XOR | BPF_FETCH,
		BPF_XCHG,
		BPF_CMPXCHG,
	};
	unsigned int s = below(r, 4);

	switch (below(r, 5)) {
	case 0:
		emit(b, BPF_LDX | BPF_MEM | sizes[s], work_reg(r), 10, stack_off(r, s), 0);
		break;
	case 1:
		s = below(r, 3);
		emit(b, BPF_LDX | BPF_MEMSX | sizes[s], work_reg(r), 10, stack_off(r, s), 0);
		break;
	case 2:
		emit(b, BPF_ST | BPF_MEM | sizes[s], 10, 0, stack_off(r, s), imm(r));
		break;
	case 3:
		emit(b, BPF_STX | BPF_MEM | sizes[s], 10, src_reg(r), stack_off(r, s), 0);
		break;
	default:
		/* fetching forms write their source: a working register only */
		s = 2 + below(r, 2);
		emit(b, BPF_STX | BPF_ATOMIC | sizes[s], 10, work_reg(r), stack_off(r, s),
		     atomics[below(r, sizeof(atomics) / sizeof(atomics[0]))]);
		break;
	}
}

static void branch(struct builder *b, struct rng *r, size_t item, size_t items)
{
	/* clang-format off */
	static const uint8_t conds[] = {
		BPF_JEQ, BPF_JNE, BPF_JGT, BPF_JGE, BPF_JLT, BPF_JLE,
		BPF_JSET, BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE,
	};
	/* clang-format on */
	uint8_t cls = below(r, 2) ? BPF_JMP : BPF_JMP32;
	uint8_t cond = conds[below(r, sizeof(conds))];
	size_t to = item + 2 + below(r, 5);

	if (to > items)
		to = items;
	b->branch_at[b->branches] = b->cnt;
	b->branch_to[b->branches++] = to;
	if (below(r, 2))
		emit(b, cls | cond | BPF_X, work_reg(r), src_reg(r), 0, 0);
	else
		emit(b, cls | cond | BPF_K, work_reg(r), 0, 0, imm(r));
}

/* One program over mem_len bytes; its instruction count. */
static size_t build(struct builder *b, struct rng *r, size_t mem_len)
{
	size_t items = 8 + below(r, BODY_MAX - 8);

	memset(b, 0, sizeof(*b));
	/* every working register and stack slot holds something */
	for (uint8_t reg = 0; reg <= 9; reg++) {
		if (reg == 1 || reg == 2)
			continue;
		if (below(r, 2))
			emit_lddw(b, reg, next(r));
		else
			emit(b, BPF_ALU64 | BPF_MOV | BPF_K, reg, 0, 0, imm(r));
	}
	for (int slot = 1; slot <= STACK_SLOTS; slot++)
		emit(b, BPF_STX | BPF_MEM | BPF_DW, 10, work_reg(r), (int16_t)(-8 * slot), 0);

	for (size_t item = 0; item < items; item++) {
		b->item_start[item] = b->cnt;
		switch (below(r, 10)) {
		case 0:
			emit_lddw(b, work_reg(r), next(r));
			break;
		case 1:
		case 2:
			memory(b, r, mem_len);
			break;
		case 3:
		case 4:
			stack(b, r);
			break;
		case 5:
		case 6:
			branch(b, r, item, items);
			break;
		default:
			alu(b, r);
			break;
		}
	}
	b->item_start[items] = b->cnt;
	for (size_t i = 0; i < b->branches; i++)
		b->insns[b->branch_at[i]].off =
			(int16_t)(b->item_start[b->branch_to[i]] - b->branch_at[i] - 1);

	/* everything the program computed reaches r0 */
	for (uint8_t reg = 3; reg <= 9; reg++)
		emit(b, BPF_ALU64 | (reg % 2 ? BPF_XOR : BPF_ADD) | BPF_X, 0, reg, 0, 0);
	emit(b, BPF_LDX | BPF_MEM | BPF_DW, 3, 10, -8 * (int16_t)(1 + below(r, STACK_SLOTS)), 0);
	emit(b, BPF_ALU64 | BPF_ADD | BPF_X, 0, 3, 0, 0);
	emit(b, BPF_LDX | BPF_MEM | BPF_DW, 3, 1, 0, 0);
	emit(b, BPF_ALU64 | BPF_XOR | BPF_X, 0, 3, 0, 0);
	emit(b, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	return b->cnt;
}

static void show(const struct bpf_insn *insns, size_t cnt)
{
	char text[128];

	for (size_t i = 0; i < cnt; i++) {
		hwxdp_disasm_insn(&insns[i], cnt - i, text, sizeof(text));
		fprintf(stderr, "  %3zu: %s\n", i, text);
	}
}

Test(conformance, random_programs_device_vs_kernel, .timeout = 300)
{
	struct hx_conformance_opts dev = { .sz = sizeof(dev), .target = HX_CONFORMANCE_DEVICE };
	struct hx_conformance_opts ker = { .sz = sizeof(ker), .target = HX_CONFORMANCE_KERNEL };
	static struct builder b;
	unsigned int compared = 0, differ = 0, refused = 0, shown = 0;
	struct rng r = { .state = 1 };

	if (geteuid() != 0)
		cr_skip_test("the kernel side needs root (BPF_PROG_TEST_RUN)");
	for (unsigned int n = 0; n < PROGRAMS; n++) {
		uint8_t mem[MEM_MAX];
		size_t mem_len = MEM_MIN + below(&r, MEM_MAX - MEM_MIN + 1), cnt;
		char err_dev[768] = "", err_ker[768] = "";
		uint64_t r0_dev = 0, r0_ker = 0;
		int ret_dev, ret_ker;

		for (size_t i = 0; i < mem_len; i++)
			mem[i] = (uint8_t)next(&r);
		cnt = build(&b, &r, mem_len);
		ret_dev = hx_conformance_run(b.insns, cnt, mem, mem_len, &dev, &r0_dev, err_dev,
					     sizeof(err_dev));
		ret_ker = hx_conformance_run(b.insns, cnt, mem, mem_len, &ker, &r0_ker, err_ker,
					     sizeof(err_ker));
		if (ret_dev || ret_ker) {
			refused++;
		} else {
			compared++;
			if (r0_dev == r0_ker)
				continue;
			differ++;
		}
		if (shown++ < 3) {
			fprintf(stderr,
				"conformance: program %u (%zu bytes of memory): device %s %#llx, "
				"kernel %s %#llx\n",
				n, mem_len, ret_dev ? err_dev : "r0", (unsigned long long)r0_dev,
				ret_ker ? err_ker : "r0", (unsigned long long)r0_ker);
			show(b.insns, cnt);
		}
	}
	fprintf(stderr, "conformance: %u random programs: %u compared, %u differ, %u refused\n",
		PROGRAMS, compared, differ, refused);
	cr_expect_eq(refused, 0, "%u valid programs refused by one target or both", refused);
	cr_assert_eq(differ, 0, "%u of %u programs give another r0 on the device", differ,
		     compared);
	cr_assert_eq(compared, PROGRAMS);
}
