// SPDX-License-Identifier: GPL-2.0
/*
 * The program generator of the differential verifier test.
 *
 * Template programs are built block by block, the way clang lays out XDP C:
 * ctx in r6, data in r7, data_end in r8, a live scalar in r9, scratch in
 * r0-r5, and one shared "out" exit that failed checks jump to. Each block
 * is usually right and sometimes wrong in one of the ways real programs are
 * wrong (a bounds check off by one, a lookup without its null check, a
 * packet pointer used after bpf_xdp_adjust_head), so that about half of the
 * programs load, and the rejected ones sit close to the accepted ones.
 *
 * Mutated programs start from a real object's XDP program, relocated as
 * include/hwxdp/object.h describes, and change one to three instructions.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "lab/target.h"
#include "base/log.h"
#include "tests/vdiff/gen.h"
#include "verifier/verifier_internal.h"

#define MAX_LABELS 128
#define MAX_FIXUPS 256
#define MAX_DEPTH  2

/* Registers of the template layout. */
#define R_CTX  6
#define R_DATA 7
#define R_END  8
#define R_VAR  9

/* Template maps, by index in the program's map array. */
#define MAP_ARRAY	 0
#define MAP_HASH	 1
#define ARRAY_VALUE_SIZE 48
#define ARRAY_ENTRIES	 16
#define HASH_KEY_SIZE	 8
#define HASH_VALUE_SIZE	 16

struct vdiff_gen {
	uint64_t seed;
	enum vdiff_mix mix;
	struct hwxdp_map_desc tmpl_maps[2];
	/* the base program of mutations, relocated */
	struct bpf_insn *base;
	size_t base_cnt;
	struct hwxdp_map_desc *base_maps;
	size_t base_map_cnt;
	uint8_t **base_initial; /* global data images, owned */
	/* every map of both kinds, for vdiff_gen__maps */
	struct hwxdp_map_desc *all_maps;
	size_t all_map_cnt;
};

/* ---------------------------------------------------------------- PRNG */

void vdiff_rng__seed(struct vdiff_rng *rng, uint64_t seed)
{
	rng->state = seed;
}

uint64_t vdiff_rng__next(struct vdiff_rng *rng)
{
	uint64_t z = (rng->state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint32_t vdiff_rng__below(struct vdiff_rng *rng, uint32_t n)
{
	/* 64-bit multiply-shift: the bias is far below anything a test sees. */
	return (uint32_t)(((vdiff_rng__next(rng) >> 32) * (uint64_t)n) >> 32);
}

bool vdiff_rng__chance(struct vdiff_rng *rng, unsigned int percent)
{
	return vdiff_rng__below(rng, 100) < percent;
}

static uint32_t pick(struct vdiff_rng *rng, const uint32_t *items, size_t n)
{
	return items[vdiff_rng__below(rng, (uint32_t)n)];
}

#define PICK(rng, ...)                                                                             \
	pick(rng, (const uint32_t[]){ __VA_ARGS__ },                                               \
	     sizeof((const uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t))

/* ------------------------------------------------------------- emitter */

struct asmb {
	struct bpf_insn *insns;
	size_t cnt, cap;
	int32_t label_at[MAX_LABELS];
	uint32_t label_uses[MAX_LABELS];
	int labels;
	struct {
		uint32_t at;
		int label;
	} fix[MAX_FIXUPS];
	int fixes;
	int err;
};

static void emit(struct asmb *a, struct bpf_insn insn)
{
	if (a->err)
		return;
	if (a->cnt == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 256;
		struct bpf_insn *n = realloc(a->insns, cap * sizeof(*n));

		if (!n) {
			a->err = -ENOMEM;
			return;
		}
		a->insns = n;
		a->cap = cap;
	}
	a->insns[a->cnt++] = insn;
}

static struct bpf_insn insn_of(uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	return (struct bpf_insn){
		.code = code, .dst_reg = dst, .src_reg = src, .off = off, .imm = imm
	};
}

#define E(a, code, dst, src, off, imm) emit(a, insn_of(code, dst, src, off, imm))

static void alu64_imm(struct asmb *a, uint8_t op, uint8_t dst, int32_t imm)
{
	E(a, BPF_ALU64 | op | BPF_K, dst, 0, 0, imm);
}

static void alu64_reg(struct asmb *a, uint8_t op, uint8_t dst, uint8_t src)
{
	E(a, BPF_ALU64 | op | BPF_X, dst, src, 0, 0);
}

static void mov64_imm(struct asmb *a, uint8_t dst, int32_t imm)
{
	alu64_imm(a, BPF_MOV, dst, imm);
}

static void mov64_reg(struct asmb *a, uint8_t dst, uint8_t src)
{
	alu64_reg(a, BPF_MOV, dst, src);
}

static void ldx(struct asmb *a, uint8_t size, uint8_t dst, uint8_t src, int16_t off)
{
	E(a, BPF_LDX | size | BPF_MEM, dst, src, off, 0);
}

static void stx(struct asmb *a, uint8_t size, uint8_t dst, uint8_t src, int16_t off)
{
	E(a, BPF_STX | size | BPF_MEM, dst, src, off, 0);
}

static void st(struct asmb *a, uint8_t size, uint8_t dst, int16_t off, int32_t imm)
{
	E(a, BPF_ST | size | BPF_MEM, dst, 0, off, imm);
}

static void ld_map(struct asmb *a, uint8_t dst, int32_t map_idx)
{
	E(a, BPF_LD | BPF_DW | BPF_IMM, dst, BPF_PSEUDO_MAP_FD, 0, map_idx);
	E(a, 0, 0, 0, 0, 0);
}

static void call(struct asmb *a, int32_t id)
{
	E(a, BPF_JMP | BPF_CALL, 0, 0, 0, id);
}

static void exit_insn(struct asmb *a)
{
	E(a, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

static int new_label(struct asmb *a)
{
	if (a->labels == MAX_LABELS) {
		a->err = -E2BIG;
		return 0;
	}
	a->label_at[a->labels] = -1;
	a->label_uses[a->labels] = 0;
	return a->labels++;
}

static void bind(struct asmb *a, int label)
{
	a->label_at[label] = (int32_t)a->cnt;
}

/* A jump (conditional or not) whose offset is filled in by resolve(). */
static void jmp_to(struct asmb *a, uint8_t code, uint8_t dst, uint8_t src, int32_t imm, int label)
{
	if (a->err)
		return;
	if (a->fixes == MAX_FIXUPS) {
		a->err = -E2BIG;
		return;
	}
	a->fix[a->fixes].at = (uint32_t)a->cnt;
	a->fix[a->fixes].label = label;
	a->fixes++;
	a->label_uses[label]++;
	E(a, code, dst, src, 0, imm);
}

static void goto_label(struct asmb *a, int label)
{
	jmp_to(a, BPF_JMP | BPF_JA, 0, 0, 0, label);
}

static int resolve(struct asmb *a)
{
	int i;

	if (a->err)
		return a->err;
	for (i = 0; i < a->fixes; i++) {
		int32_t to = a->label_at[a->fix[i].label];

		if (to < 0)
			return -EINVAL;
		a->insns[a->fix[i].at].off = (int16_t)(to - (int32_t)a->fix[i].at - 1);
	}
	return 0;
}

/* ------------------------------------------------------------ templates */

static const uint8_t sizes[4] = { BPF_B, BPF_H, BPF_W, BPF_DW };
static const uint8_t size_bytes[4] = { 1, 2, 4, 8 };
static const uint8_t cond_ops[11] = { BPF_JEQ,	BPF_JNE,  BPF_JGT,  BPF_JGE,  BPF_JLT, BPF_JLE,
				      BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE, BPF_JSET };

struct tmpl {
	struct vdiff_rng *rng;
	struct asmb a;
	char *what;
	size_t what_len, what_cap;
	int out;	    /* label of the shared early exit */
	uint32_t pkt_range; /* bytes after data proven readable on every path */
	bool pkt_valid;	    /* r7/r8 hold data/data_end */
	int depth;	    /* nesting inside skippable blocks */
	int blocks;
};

static void note(struct tmpl *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct tmpl *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->what_len >= t->what_cap - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->what + t->what_len, t->what_cap - t->what_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->what_len += (size_t)n;
	if (t->what_len >= t->what_cap)
		t->what_len = t->what_cap - 1;
}

static bool chance(struct tmpl *t, unsigned int percent)
{
	return vdiff_rng__chance(t->rng, percent);
}

static uint32_t below(struct tmpl *t, uint32_t n)
{
	return vdiff_rng__below(t->rng, n);
}

static uint8_t jmp_class(struct tmpl *t, unsigned int percent32)
{
	return chance(t, percent32) ? BPF_JMP32 : BPF_JMP;
}

/* How a bounds check is made: right, or wrong in a way real programs are. */
enum check_kind {
	CHECK_OK,
	CHECK_OFF_BY_ONE,
	CHECK_MISSING,
	CHECK_REVERSED,
	CHECK_SIGNED,
	CHECK_JMP32,
	CHECK_WRONG_REG
};

static enum check_kind pick_check(struct tmpl *t)
{
	uint32_t r = below(t, 100);

	if (r < 86)
		return CHECK_OK;
	if (r < 90)
		return CHECK_OFF_BY_ONE;
	if (r < 93)
		return CHECK_MISSING;
	if (r < 95)
		return CHECK_REVERSED;
	if (r < 97)
		return CHECK_SIGNED;
	if (r < 99)
		return CHECK_JMP32;
	return CHECK_WRONG_REG;
}

static const char *check_name(enum check_kind k)
{
	static const char *const names[] = { "ok",     "off-by-one", "missing",	 "reversed",
					     "signed", "jmp32",	     "wrong-reg" };
	return names[k];
}

/*
 * Proves data + len <= data_end in r4 (which then points at data + len),
 * in one of the shapes clang emits, or gets it wrong on purpose.
 */
static void pkt_check(struct tmpl *t, uint32_t len, enum check_kind kind)
{
	struct asmb *a = &t->a;
	uint32_t shape = below(t, 4);
	int ok;

	if (kind == CHECK_MISSING) {
		mov64_reg(a, 4, R_DATA);
		alu64_imm(a, BPF_ADD, 4, (int32_t)len);
		return;
	}
	if (kind == CHECK_OFF_BY_ONE)
		len--;
	mov64_reg(a, 4, R_DATA);
	alu64_imm(a, BPF_ADD, 4, (int32_t)len);
	switch (kind) {
	case CHECK_REVERSED:
		jmp_to(a, BPF_JMP | BPF_JLT | BPF_X, 4, R_END, 0, t->out);
		return;
	case CHECK_SIGNED:
		jmp_to(a, BPF_JMP | BPF_JSGT | BPF_X, 4, R_END, 0, t->out);
		return;
	case CHECK_JMP32:
		jmp_to(a, BPF_JMP32 | BPF_JGT | BPF_X, 4, R_END, 0, t->out);
		return;
	case CHECK_WRONG_REG:
		jmp_to(a, BPF_JMP | BPF_JGT | BPF_X, 4, R_DATA, 0, t->out);
		return;
	default:
		break;
	}
	switch (shape) {
	case 0:
		jmp_to(a, BPF_JMP | BPF_JGT | BPF_X, 4, R_END, 0, t->out);
		break;
	case 1:
		jmp_to(a, BPF_JMP | BPF_JLT | BPF_X, R_END, 4, 0, t->out);
		break;
	case 2:
		ok = new_label(a);
		jmp_to(a, BPF_JMP | BPF_JLE | BPF_X, 4, R_END, 0, ok);
		goto_label(a, t->out);
		bind(a, ok);
		break;
	default:
		ok = new_label(a);
		jmp_to(a, BPF_JMP | BPF_JGE | BPF_X, R_END, 4, 0, ok);
		goto_label(a, t->out);
		bind(a, ok);
		break;
	}
}

/* The range a correct check leaves, for the blocks after it. */
static void grant_range(struct tmpl *t, uint32_t len, enum check_kind kind)
{
	if (kind == CHECK_OK && t->depth == 0 && t->pkt_valid && len > t->pkt_range)
		t->pkt_range = len;
}

/* Makes sure r7/r8 are data/data_end again (after adjust_head and friends). */
static void reload_pkt(struct tmpl *t)
{
	ldx(&t->a, BPF_W, R_DATA, R_CTX, offsetof(struct xdp_md, data));
	ldx(&t->a, BPF_W, R_END, R_CTX, offsetof(struct xdp_md, data_end));
	if (t->depth == 0) {
		t->pkt_valid = true;
		t->pkt_range = 0;
	}
}

static void block_pkt(struct tmpl *t)
{
	struct asmb *a = &t->a;
	uint32_t si = below(t, 4), size = size_bytes[si];
	uint32_t off = chance(t, 70) ? PICK(t->rng, 0, 6, 12, 14, 16, 20, 22, 23, 24, 26, 30, 34,
					    36, 38, 54)
				     : below(t, 80);
	bool store = chance(t, 30), via_end = chance(t, 30);
	bool reuse = t->pkt_range >= off + size && chance(t, 40);
	enum check_kind kind = reuse ? CHECK_OK : pick_check(t);
	uint32_t len = off + size + (chance(t, 20) ? below(t, 16) : 0);
	uint8_t dst = (uint8_t)below(t, 4); /* r0..r3 */
	uint8_t base = R_DATA;
	int16_t aoff = (int16_t)off;

	note(t, " pkt(%s off=%u sz=%u %s)", store ? "st" : "ld", off, size,
	     reuse ? "in-range" : check_name(kind));
	if (!reuse) {
		pkt_check(t, len, kind);
		grant_range(t, len, kind);
		if (via_end) {
			base = 4;
			aoff = (int16_t)((int32_t)off - (int32_t)len);
		}
	}
	if (!store) {
		ldx(a, sizes[si], dst, base, aoff);
		if (chance(t, 50))
			mov64_reg(a, R_VAR, dst);
	} else if (chance(t, 50)) {
		st(a, sizes[si], base, aoff, (int32_t)below(t, 256));
	} else {
		stx(a, sizes[si], base, R_VAR, aoff);
	}
}

/*
 * A value put together from narrower packet loads and one taken apart into
 * byte stores, the shapes the translator's combining passes look for: every
 * width and piece size, the pieces in any order (now and then one twice or
 * one left out), 32- or 64-bit operations, masks and byte swaps on the
 * pieces or the whole. The value always reaches the frame, so a wrong
 * combination shows in the bytes.
 */
static void block_assemble(struct tmpl *t)
{
	static const uint8_t widths[] = { 2, 4, 4, 8, 8 };
	struct asmb *a = &t->a;
	uint32_t width = widths[below(t, sizeof(widths))], piece, n, place[8];
	uint32_t off = below(t, 40), out = below(t, 40), len;
	bool w32 = width <= 4 && chance(t, 50);
	uint8_t cls = w32 ? BPF_ALU : BPF_ALU64;
	uint8_t size_code;
	int i;

	do
		piece = 1u << below(t, 3);
	while (piece >= width);
	size_code = piece == 1 ? BPF_B : piece == 2 ? BPF_H : BPF_W;
	n = width / piece;
	for (i = 0; i < (int)n; i++)
		place[i] = (uint32_t)i;
	for (i = (int)n - 1; i > 0; i--) {
		uint32_t j = below(t, (uint32_t)i + 1), tmp = place[i];

		place[i] = place[j];
		place[j] = tmp;
	}
	if (chance(t, 12))
		place[below(t, n)] = place[below(t, n)]; /* a place twice, one empty */
	len = (off > out ? off : out) + width;
	note(t, " assemble(w=%u piece=%u off=%u%s ->%u", width, piece, off, w32 ? " alu32" : "",
	     out);
	if (t->pkt_range < len) {
		pkt_check(t, len, CHECK_OK);
		grant_range(t, len, CHECK_OK);
	}
	for (i = 0; i < (int)n; i++) {
		uint8_t dst = i ? 1 : 0;

		note(t, " %u", place[i]);
		ldx(a, size_code, dst, R_DATA, (int16_t)(off + (uint32_t)i * piece));
		if (piece > 1 && chance(t, 8))
			E(a, BPF_ALU | BPF_END | BPF_TO_BE, dst, 0, 0, (int32_t)piece * 8);
		if (chance(t, 6))
			alu64_imm(a, BPF_AND, dst, piece == 1 ? 0x7f : 0xff);
		if (place[i])
			E(a, cls | BPF_LSH | BPF_K, dst, 0, 0, (int32_t)(place[i] * piece * 8));
		if (i)
			E(a, cls | BPF_OR | BPF_X, 0, 1, 0, 0);
	}
	if (chance(t, 10))
		E(a, BPF_ALU | BPF_END | BPF_TO_BE, 0, 0, 0, (int32_t)width * 8);
	if (chance(t, 40)) {
		stx(a, width == 2 ? BPF_H : width == 4 ? BPF_W : BPF_DW, R_DATA, 0, (int16_t)out);
	} else {
		/* bytes out one by one, low first or in another order */
		bool shuffled = chance(t, 25);

		note(t, shuffled ? " split-shuffled" : " split");
		for (i = 0; i < (int)width; i++) {
			uint32_t k = shuffled ? (uint32_t)((i * 3 + 1) % (int)width) : (uint32_t)i;

			mov64_reg(a, 2, 0);
			if (k)
				alu64_imm(a, BPF_RSH, 2, (int32_t)(k * 8));
			stx(a, BPF_B, R_DATA, 2, (int16_t)(out + k));
		}
	}
	note(t, ")");
	if (chance(t, 30))
		mov64_reg(a, R_VAR, 0);
}

/* A byte of the packet as an offset: the variable-offset access of parsers. */
static void block_pkt_varoff(struct tmpl *t)
{
	struct asmb *a = &t->a;
	uint32_t mask = PICK(t->rng, 0x3, 0xf, 0x3c, 0x7f, 0xff);
	bool masked = chance(t, 85), wide = chance(t, 10);
	uint32_t si = below(t, 3), size = size_bytes[si];
	enum check_kind kind = pick_check(t);

	note(t, " varoff(%s%s%#x %s sz=%u)", wide ? "u32 " : "", masked ? "mask=" : "unmasked ",
	     mask, check_name(kind), size);
	if (t->pkt_range < 15 || !chance(t, 60)) {
		pkt_check(t, 15, CHECK_OK);
		grant_range(t, 15, CHECK_OK);
	}
	ldx(a, wide ? BPF_W : BPF_B, 1, R_DATA, wide ? 10 : 14);
	if (masked)
		alu64_imm(a, BPF_AND, 1, (int32_t)mask);
	if (chance(t, 30))
		alu64_imm(a, BPF_LSH, 1, 2);
	mov64_reg(a, 2, R_DATA);
	alu64_reg(a, BPF_ADD, 2, 1);
	mov64_reg(a, 3, 2);
	alu64_imm(a, BPF_ADD, 3, (int32_t)(size + (kind == CHECK_OFF_BY_ONE ? -1 : 0)));
	if (kind != CHECK_MISSING)
		jmp_to(a, BPF_JMP | (kind == CHECK_REVERSED ? BPF_JLT : BPF_JGT) | BPF_X, 3, R_END,
		       0, t->out);
	ldx(a, sizes[si], 0, 2, 0);
	mov64_reg(a, R_VAR, 0);
}

static void init_scalar(struct tmpl *t, uint8_t reg)
{
	struct asmb *a = &t->a;

	switch (below(t, 4)) {
	case 0:
		mov64_imm(a, reg, (int32_t)below(t, 1000) - 100);
		break;
	case 1:
		mov64_reg(a, reg, R_VAR);
		break;
	case 2:
		ldx(a, BPF_W, reg, R_CTX, (int16_t)PICK(t->rng, 12, 16));
		break;
	default:
		E(a, BPF_ALU | BPF_MOV | BPF_K, reg, 0, 0, (int32_t)vdiff_rng__next(t->rng));
		break;
	}
}

static const char *op_name(uint8_t op)
{
	static const char *const names[16] = { "add",  "sub", "mul", "div", "or",  "and",
					       "lsh",  "rsh", "neg", "mod", "xor", "mov",
					       "arsh", "end", "?e",  "?f" };
	return names[op >> 4];
}

static void block_alu(struct tmpl *t)
{
	static const uint8_t ops[] = { BPF_ADD, BPF_SUB, BPF_MUL,  BPF_DIV, BPF_OR,
				       BPF_AND, BPF_LSH, BPF_RSH,  BPF_NEG, BPF_MOD,
				       BPF_XOR, BPF_MOV, BPF_ARSH, BPF_END };
	struct asmb *a = &t->a;
	uint8_t r1 = (uint8_t)below(t, 6), r2 = (uint8_t)below(t, 6);
	int n = 2 + (int)below(t, 5), i;

	if (!chance(t, 3))
		init_scalar(t, r1);
	else
		note(t, " alu-uninit(r%u)", r1);
	if (r2 != r1)
		init_scalar(t, r2);
	note(t, " alu(");
	for (i = 0; i < n; i++) {
		uint8_t op = ops[below(t, sizeof(ops))];
		uint8_t cls = chance(t, 35) ? BPF_ALU : BPF_ALU64;
		bool reg = chance(t, 35);
		uint8_t dst = chance(t, 50) ? r1 : r2, src = dst == r1 ? r2 : r1;
		int32_t imm;

		if (op == BPF_END) {
			/* to-be/to-le of 16, 32, 64 bits; now and then a width that is not one */
			int32_t width = chance(t, 5) ? (int32_t)PICK(t->rng, 0, 8, 24, 128)
						     : (int32_t)PICK(t->rng, 16, 32, 64);
			uint8_t dir = chance(t, 50) ? BPF_TO_BE : BPF_TO_LE;

			/* ALU64 END is the v4 unconditional byte swap */
			if (chance(t, 10))
				E(&t->a, BPF_ALU64 | BPF_END | BPF_TO_LE, dst, 0, 0, width);
			else
				E(&t->a, BPF_ALU | BPF_END | dir, dst, 0, 0, width);
			note(t, "end%d ", width);
			continue;
		}
		if (op == BPF_NEG) {
			E(a, cls | BPF_NEG, dst, 0, 0, 0);
			note(t, "neg ");
			continue;
		}
		if (reg) {
			int16_t off = 0;

			/* v4 signed division and sign-extending moves */
			if ((op == BPF_DIV || op == BPF_MOD) && chance(t, 15))
				off = 1;
			if (op == BPF_MOV && chance(t, 15))
				off = (int16_t)PICK(t->rng, 8, 16, 32);
			E(a, cls | op | BPF_X, dst, src, off, 0);
			note(t, "%s%s%s.x ", cls == BPF_ALU ? "w" : "", off ? "s" : "",
			     op_name(op));
			continue;
		}
		switch (op) {
		case BPF_DIV:
		case BPF_MOD:
			imm = chance(t, 6) ? 0 : (int32_t)(1 + below(t, 64));
			break;
		case BPF_LSH:
		case BPF_RSH:
		case BPF_ARSH:
			imm = chance(t, 5) ? (int32_t)PICK(t->rng, 32, 63, 64, 100, -1)
					   : (int32_t)below(t, cls == BPF_ALU ? 32 : 64);
			if (cls == BPF_ALU && imm >= 32 && imm < 64 && chance(t, 50))
				imm = (int32_t)below(t, 32);
			break;
		default:
			imm = chance(t, 50) ? (int32_t)below(t, 256)
					    : (int32_t)vdiff_rng__next(t->rng);
			break;
		}
		E(a, cls | op | BPF_K, dst, 0, 0, imm);
		note(t, "%s%s#%d ", cls == BPF_ALU ? "w" : "", op_name(op), imm);
	}
	note(t, ")");
	if (chance(t, 40))
		mov64_reg(a, R_VAR, r1);
}

/* Arithmetic on pointers: what the kernel allows and what it does not. */
static void block_ptr(struct tmpl *t)
{
	struct asmb *a = &t->a;
	uint32_t r = below(t, 100);

	mov64_reg(a, 4, chance(t, 80) ? R_DATA : 10);
	if (r < 30) {
		alu64_imm(a, chance(t, 50) ? BPF_ADD : BPF_SUB, 4, (int32_t)below(t, 64));
		note(t, " ptr(+-imm)");
	} else if (r < 50) {
		/* data_end - data: the packet length as a scalar */
		mov64_reg(a, 5, R_END);
		alu64_reg(a, BPF_SUB, 5, R_DATA);
		mov64_reg(a, R_VAR, 5);
		note(t, " ptr(len)");
	} else if (r < 58) {
		mov64_reg(a, 1, R_VAR);
		if (chance(t, 75))
			alu64_imm(a, BPF_AND, 1, 0xff);
		alu64_reg(a, BPF_ADD, 4, 1);
		note(t, " ptr(+scalar)");
	} else if (r < 68) {
		static const uint8_t bad[] = {
			BPF_AND, BPF_OR, BPF_MUL, BPF_LSH, BPF_DIV, BPF_XOR
		};
		uint8_t op = bad[below(t, sizeof(bad))];

		alu64_imm(a, op, 4, (int32_t)(1 + below(t, 7)));
		note(t, " ptr(%s)", op_name(op));
	} else if (r < 76) {
		E(a, BPF_ALU | BPF_ADD | BPF_K, 4, 0, 0, 4);
		note(t, " ptr(alu32)");
	} else if (r < 80) {
		E(a, BPF_ALU64 | BPF_NEG, 4, 0, 0, 0);
		note(t, " ptr(neg)");
	} else if (r < 84) {
		alu64_reg(a, BPF_ADD, 4, R_END);
		note(t, " ptr(ptr+ptr)");
	} else if (r < 90) {
		/* a 32-bit copy of a pointer is a scalar for privileged loads */
		E(a, BPF_ALU | BPF_MOV | BPF_X, 5, R_DATA, 0, 0);
		mov64_reg(a, R_VAR, 5);
		note(t, " ptr(mov32)");
	} else {
		/* pointer compared with a constant: legal, proves nothing */
		int skip = new_label(a);

		jmp_to(a, BPF_JMP | BPF_JEQ | BPF_K, 4, 0, 0, skip);
		mov64_imm(a, 5, 1);
		bind(a, skip);
		note(t, " ptr(cmp0)");
	}
}

static void block_stack(struct tmpl *t)
{
	struct asmb *a = &t->a;
	uint32_t si = below(t, 4), size = size_bytes[si];
	int32_t off = -(int32_t)(size * (1 + below(t, 12)));
	uint32_t r = below(t, 100);

	if (chance(t, 6))
		off = (int32_t)PICK(t->rng, -513, -520, 0, 8, -3, -6, -7);
	if (r < 40) {
		if (chance(t, 50))
			st(a, sizes[si], 10, (int16_t)off, (int32_t)below(t, 1000));
		else
			stx(a, sizes[si], 10, R_VAR, (int16_t)off);
		ldx(a, sizes[si], R_VAR, 10, (int16_t)off);
		note(t, " stack(st+ld off=%d sz=%u)", off, size);
	} else if (r < 45) {
		/* slots 64 bytes down are never written by the other blocks */
		off = -64 - (int32_t)(size * (1 + below(t, 8)));
		ldx(a, sizes[si], R_VAR, 10, (int16_t)off);
		note(t, " stack(uninit-ld off=%d sz=%u)", off, size);
	} else if (r < 75) {
		/* spill and fill of a packet pointer */
		int16_t soff = (int16_t)(-8 * (int32_t)(5 + below(t, 4)));
		uint8_t fsize = chance(t, 90) ? BPF_DW : BPF_W;

		if (chance(t, 5))
			soff += 4;
		stx(a, BPF_DW, 10, R_DATA, soff);
		if (chance(t, 10))
			st(a, BPF_W, 10, soff, 0); /* clobbers half of the spill */
		ldx(a, fsize, R_DATA, 10, soff);
		note(t, " stack(spill-fill off=%d %s)", soff, fsize == BPF_DW ? "dw" : "w");
		if (fsize != BPF_DW || soff % 8)
			t->pkt_valid = t->depth ? t->pkt_valid : false;
	} else if (r < 90) {
		/* a stack pointer handed around in a register */
		mov64_reg(a, 3, 10);
		alu64_imm(a, BPF_ADD, 3, off);
		st(a, sizes[si], 3, 0, 7);
		ldx(a, sizes[si], R_VAR, 3, 0);
		note(t, " stack(via-reg off=%d sz=%u)", off, size);
	} else {
		/* variable offset into the stack */
		mov64_reg(a, 1, R_VAR);
		alu64_imm(a, BPF_AND, 1, chance(t, 80) ? 0x18 : 0x1ff);
		mov64_reg(a, 3, 10);
		alu64_imm(a, BPF_ADD, 3, -64);
		alu64_reg(a, BPF_ADD, 3, 1);
		st(a, BPF_DW, 3, 0, 1);
		note(t, " stack(varoff)");
	}
}

static void block_map(struct tmpl *t)
{
	struct asmb *a = &t->a;
	bool hash = chance(t, 45);
	uint32_t value_size = hash ? HASH_VALUE_SIZE : ARRAY_VALUE_SIZE;
	uint32_t r = below(t, 100);
	int32_t key_off = -8;
	int skip = new_label(a);
	uint32_t nc = below(t, 100);
	uint32_t si, vsize, voff;

	note(t, " map(%s", hash ? "hash" : "array");
	/* the key */
	if (r < 4) {
		note(t, " key=uninit");
	} else if (hash) {
		if (chance(t, 50))
			stx(a, BPF_DW, 10, R_VAR, (int16_t)key_off);
		else
			st(a, BPF_DW, 10, (int16_t)key_off, (int32_t)below(t, 100));
	} else if (chance(t, 80)) {
		int32_t key = chance(t, 85) ? (int32_t)below(t, ARRAY_ENTRIES)
					    : (int32_t)(ARRAY_ENTRIES + below(t, 100));

		st(a, BPF_W, 10, (int16_t)key_off, key);
		note(t, " key=%d", key);
	} else {
		stx(a, BPF_W, 10, R_VAR, (int16_t)key_off);
		note(t, " key=var");
	}
	/* the arguments */
	r = below(t, 100);
	if (r < 3) {
		mov64_reg(a, 2, 10);
		alu64_imm(a, BPF_ADD, 2, -2);
		note(t, " key-ptr=fp-2");
	} else if (r < 6) {
		mov64_imm(a, 2, 0);
		note(t, " key-ptr=0");
	} else if (r < 10) {
		/* packet bytes as the key: legal once the key's bytes are in range */
		bool checked = chance(t, 70);

		if (checked)
			pkt_check(t, 8, CHECK_OK);
		mov64_reg(a, 2, R_DATA);
		note(t, " key-ptr=pkt%s", checked ? "" : "(unchecked)");
	} else {
		mov64_reg(a, 2, 10);
		alu64_imm(a, BPF_ADD, 2, key_off);
	}
	if (chance(t, 2)) {
		mov64_reg(a, 1, R_CTX);
		note(t, " map-arg=ctx");
	} else {
		ld_map(a, 1, hash ? MAP_HASH : MAP_ARRAY);
	}
	call(a, BPF_FUNC_map_lookup_elem);
	/* the null check */
	if (nc < 80) {
		jmp_to(a, BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 0, skip);
	} else if (nc < 82) {
		/* only == and != may compare a pointer without CAP_PERFMON */
		uint8_t cls = jmp_class(t, 50);

		jmp_to(a, cls | (cls == BPF_JMP ? BPF_JLE : BPF_JEQ) | BPF_K, 0, 0, 0, skip);
		note(t, " null=%s", cls == BPF_JMP ? "<=" : "w==");
	} else if (nc < 88) {
		int hit = new_label(a);

		jmp_to(a, BPF_JMP | BPF_JNE | BPF_K, 0, 0, 0, hit);
		goto_label(a, skip);
		bind(a, hit);
	} else if (nc < 97) {
		note(t, " null=missing");
	} else {
		jmp_to(a, BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 0, skip);
		note(t, " null=wrong-reg");
	}
	/* the access */
	si = below(t, 4);
	vsize = size_bytes[si];
	voff = vsize * below(t, value_size / vsize);
	if (chance(t, 8)) {
		voff = value_size - vsize + 1 + below(t, 8);
		note(t, " oob");
	}
	r = below(t, 100);
	if (r < 40) {
		ldx(a, sizes[si], R_VAR, 0, (int16_t)voff);
		note(t, " ld off=%u sz=%u)", voff, vsize);
	} else if (r < 65) {
		st(a, sizes[si], 0, (int16_t)voff, (int32_t)below(t, 100));
		note(t, " st off=%u sz=%u)", voff, vsize);
	} else if (r < 85) {
		/* a counter bump, as the per-reason counters of real programs */
		uint8_t asz = chance(t, 80) ? BPF_DW : BPF_W;
		int32_t op = (int32_t)PICK(t->rng, BPF_ADD, BPF_ADD, BPF_ADD | BPF_FETCH, BPF_OR,
					   BPF_XCHG, BPF_CMPXCHG);

		voff &= ~(asz == BPF_DW ? 7u : 3u);
		mov64_imm(a, 1, 1);
		if (op == BPF_CMPXCHG) {
			/* compares with r0, so the value pointer moves to r2 first */
			mov64_reg(a, 2, 0);
			mov64_imm(a, 0, 0);
		}
		E(a, BPF_STX | asz | BPF_ATOMIC, op == BPF_CMPXCHG ? 2 : 0, 1, (int16_t)voff, op);
		note(t, " atomic %x off=%u)", op, voff);
	} else {
		/* variable offset into the value */
		mov64_reg(a, 1, R_VAR);
		alu64_imm(a, BPF_AND, 1, chance(t, 80) ? (int32_t)(value_size / 2 - 1) & ~7 : 0xff);
		alu64_reg(a, BPF_ADD, 0, 1);
		ldx(a, BPF_DW, R_VAR, 0, 0);
		note(t, " varoff)");
	}
	bind(a, skip);
}

static void block_map_update(struct tmpl *t)
{
	struct asmb *a = &t->a;
	bool del = chance(t, 30), array = chance(t, 25);
	uint32_t r = below(t, 100);

	note(t, " map-%s(%s", del ? "delete" : "update", array ? "array" : "hash");
	if (array)
		st(a, BPF_W, 10, -8, (int32_t)below(t, ARRAY_ENTRIES + 4));
	else
		stx(a, BPF_DW, 10, R_VAR, -8);
	if (!del) {
		int i;

		for (i = 0; i < (int)(array ? ARRAY_VALUE_SIZE : HASH_VALUE_SIZE) / 8; i++)
			st(a, BPF_DW, 10, (int16_t)(-64 + 8 * i), i);
		mov64_reg(a, 3, 10);
		alu64_imm(a, BPF_ADD, 3, r < 5 ? -8 : -64);
		if (r < 5)
			note(t, " value=fp-8");
		mov64_imm(a, 4, r >= 5 && r < 8 ? (int32_t)R_CTX : (int32_t)below(t, 3));
	}
	mov64_reg(a, 2, 10);
	alu64_imm(a, BPF_ADD, 2, -8);
	ld_map(a, 1, array ? MAP_ARRAY : MAP_HASH);
	call(a, del ? BPF_FUNC_map_delete_elem : BPF_FUNC_map_update_elem);
	if (chance(t, 40))
		mov64_reg(a, R_VAR, 0);
	note(t, ")");
}

static void block_loop(struct tmpl *t)
{
	struct asmb *a = &t->a;
	uint32_t r = below(t, 100);
	uint32_t limit = chance(t, 95) ? 1 + below(t, 32) : 1 + below(t, 1000);
	uint8_t cls = jmp_class(t, 25);
	/* a 32-bit compare goes with a 32-bit counter, as clang makes it */
	uint8_t alu = cls == BPF_JMP32 && chance(t, 97) ? BPF_ALU : BPF_ALU64;
	int top = new_label(a);

	E(a, alu | BPF_MOV | BPF_K, 5, 0, 0, 0);
	bind(a, top);
	if (t->pkt_range >= 8 && chance(t, 40)) {
		ldx(a, BPF_B, 1, R_DATA, (int16_t)below(t, t->pkt_range));
		alu64_reg(a, BPF_ADD, R_VAR, 1);
	} else {
		alu64_reg(a, BPF_XOR, R_VAR, 5);
		alu64_imm(a, BPF_ADD, R_VAR, 3);
	}
	if (r < 92) {
		E(a, alu | BPF_ADD | BPF_K, 5, 0, 0, 1);
		jmp_to(a, cls | (chance(t, 50) ? BPF_JLT : BPF_JNE) | BPF_K, 5, 0, (int32_t)limit,
		       top);
		note(t, " loop(limit=%u%s%s)", limit, cls == BPF_JMP32 ? " jmp32" : "",
		     cls == BPF_JMP32 && alu == BPF_ALU64 ? " counter64" : "");
	} else if (r < 97) {
		/* the counter never moves: the same state comes back */
		jmp_to(a, cls | BPF_JLT | BPF_K, 5, 0, (int32_t)limit, top);
		note(t, " loop(no-increment)");
	} else if (r < 98) {
		/* the bound is a scalar the verifier knows nothing about */
		alu64_imm(a, BPF_ADD, 5, 1);
		jmp_to(a, BPF_JMP | BPF_JLT | BPF_X, 5, R_VAR, 0, top);
		note(t, " loop(unknown-bound)");
	} else {
		/* counts up to a masked packet byte */
		alu64_imm(a, BPF_ADD, 5, 1);
		mov64_reg(a, 1, R_VAR);
		alu64_imm(a, BPF_AND, 1, 0xf);
		jmp_to(a, BPF_JMP | BPF_JLT | BPF_X, 5, 1, 0, top);
		note(t, " loop(masked-bound)");
	}
}

static void block_helper(struct tmpl *t)
{
	struct asmb *a = &t->a;
	uint32_t r = below(t, 100);

	if (r < 15) {
		call(a, PICK(t->rng, BPF_FUNC_ktime_get_ns, BPF_FUNC_get_prandom_u32,
			     BPF_FUNC_get_smp_processor_id));
		mov64_reg(a, R_VAR, 0);
		note(t, " helper(scalar)");
	} else if (r < 45) {
		/* moves the packet: every packet pointer dies with the call */
		int32_t delta = (int32_t)PICK(t->rng, -4, 4, 14, -14, 8, -8);
		bool reload = chance(t, 88), bad_arg = chance(t, 4);
		int ok = new_label(a);

		mov64_reg(a, 1, bad_arg ? R_DATA : R_CTX);
		mov64_imm(a, 2, delta);
		call(a, PICK(t->rng, BPF_FUNC_xdp_adjust_head, BPF_FUNC_xdp_adjust_head,
			     BPF_FUNC_xdp_adjust_meta, BPF_FUNC_xdp_adjust_tail));
		jmp_to(a, BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 0, ok);
		goto_label(a, t->out);
		bind(a, ok);
		note(t, " helper(adjust %d%s%s)", delta, reload ? "" : " no-reload",
		     bad_arg ? " arg1=pkt" : "");
		if (t->depth == 0) {
			t->pkt_valid = false;
			t->pkt_range = 0;
		}
		if (reload)
			reload_pkt(t);
	} else if (r < 60) {
		mov64_reg(a, 1, R_VAR);
		mov64_imm(a, 2, 0);
		call(a, BPF_FUNC_redirect);
		mov64_reg(a, R_VAR, 0);
		note(t, " helper(redirect)");
	} else if (r < 75) {
		/* copy packet bytes into the stack */
		uint32_t len = PICK(t->rng, 4, 8, 16);
		bool bad = chance(t, 10);

		mov64_reg(a, 1, R_CTX);
		mov64_imm(a, 2, (int32_t)below(t, 40));
		mov64_reg(a, 3, 10);
		alu64_imm(a, BPF_ADD, 3, -96);
		mov64_imm(a, 4, (int32_t)(bad ? 128 : len));
		call(a, BPF_FUNC_xdp_load_bytes);
		ldx(a, BPF_DW, R_VAR, 10, -96);
		note(t, " helper(load_bytes %u%s)", len, bad ? " too-long" : "");
	} else if (r < 85) {
		/* checksum over stack bytes */
		bool bad = chance(t, 10);

		st(a, BPF_DW, 10, -80, 1);
		st(a, BPF_DW, 10, -72, 2);
		mov64_reg(a, 1, 10);
		alu64_imm(a, BPF_ADD, 1, -80);
		mov64_imm(a, 2, bad ? 96 : 16);
		mov64_imm(a, 3, 0);
		mov64_imm(a, 4, 0);
		mov64_reg(a, 5, R_VAR);
		call(a, BPF_FUNC_csum_diff);
		mov64_reg(a, R_VAR, 0);
		note(t, " helper(csum_diff%s)", bad ? " too-long" : "");
	} else if (r < 93) {
		/* the caller-saved registers are gone after a call */
		call(a, BPF_FUNC_get_prandom_u32);
		if (chance(t, 50)) {
			mov64_reg(a, R_VAR, (uint8_t)(1 + below(t, 5)));
			note(t, " helper(read-clobbered)");
		} else {
			mov64_reg(a, R_VAR, 0);
			note(t, " helper(prandom)");
		}
	} else {
		/* a helper XDP programs may not call, or one that does not exist */
		int32_t id = (int32_t)PICK(t->rng, BPF_FUNC_skb_load_bytes,
					   BPF_FUNC_get_current_pid_tgid, BPF_FUNC_perf_event_read,
					   300, 0, BPF_FUNC_get_socket_cookie);

		mov64_reg(a, 1, R_CTX);
		call(a, id);
		note(t, " helper(forbidden #%d)", id);
	}
}

/* One instruction of noise: an encoding the generator does not otherwise make. */
static void block_raw(struct tmpl *t)
{
	struct bpf_insn insn = {
		.code = (uint8_t)vdiff_rng__next(t->rng),
		.dst_reg = (uint8_t)below(t, chance(t, 80) ? 10 : 16),
		.src_reg = (uint8_t)below(t, chance(t, 80) ? 10 : 16),
		.off = (int16_t)(chance(t, 50) ? 0 : (int32_t)below(t, 64) - 32),
		.imm = chance(t, 50) ? (int32_t)below(t, 64) : (int32_t)vdiff_rng__next(t->rng),
	};

	/* keep clear of jumps and calls: their targets are checked elsewhere */
	if (BPF_CLASS(insn.code) == BPF_JMP || BPF_CLASS(insn.code) == BPF_JMP32)
		insn.code = (uint8_t)((insn.code & ~0x07) | BPF_ALU64);
	if (insn.code == (BPF_LD | BPF_DW | BPF_IMM))
		insn.code = BPF_LD | BPF_W | BPF_IMM;
	emit(&t->a, insn);
	note(t, " raw(%02x %u %u %d %d)", insn.code, insn.dst_reg, insn.src_reg, insn.off,
	     insn.imm);
}

static void block(struct tmpl *t);

static const char *cond_name(uint8_t op)
{
	static const char *const names[16] = { "ja",   "==",   ">", ">=", "&",	"!=",  "s>", "s>=",
					       "call", "exit", "<", "<=", "s<", "s<=", "?e", "?f" };
	return names[op >> 4];
}

static void block_branch(struct tmpl *t)
{
	struct asmb *a = &t->a;
	int skip = new_label(a);
	uint8_t op = cond_ops[below(t, sizeof(cond_ops))];
	uint8_t cls = jmp_class(t, 30);
	uint8_t dst = R_VAR;
	uint32_t r = below(t, 100);

	if (r < 25) {
		/* a fresh scalar: a masked copy of r9 or a constant */
		dst = 5;
		if (chance(t, 50)) {
			mov64_reg(a, 5, R_VAR);
			alu64_imm(a, BPF_AND, 5, (int32_t)PICK(t->rng, 0xff, 0xffff, 0x7));
		} else {
			mov64_imm(a, 5, (int32_t)below(t, 300));
		}
	} else if (r < 27) {
		/* pointers: compared with a scalar they need CAP_PERFMON */
		dst = (uint8_t)PICK(t->rng, R_DATA, R_CTX, 10, 0);
	}
	if (chance(t, 55)) {
		jmp_to(a, cls | op | BPF_K, dst, 0, (int32_t)below(t, 300), skip);
	} else {
		uint8_t src = chance(t, 96) ? R_VAR : (uint8_t)PICK(t->rng, R_CTX, 10, R_DATA);

		if (src == R_VAR && dst == R_VAR) {
			src = 4;
			mov64_imm(a, 4, (int32_t)below(t, 300));
		}
		jmp_to(a, cls | op | BPF_X, dst, src, 0, skip);
	}
	note(t, " if(%sr%u %s){", cls == BPF_JMP32 ? "w" : "", dst, cond_name(op));
	t->depth++;
	block(t);
	if (chance(t, 30))
		block(t);
	t->depth--;
	bind(a, skip);
	note(t, " }");
}

static void block(struct tmpl *t)
{
	/* weights in percent; a branch nests blocks, so it stops at MAX_DEPTH */
	static const struct {
		void (*fn)(struct tmpl *t);
		unsigned int weight;
	} kinds[] = {
		{ block_pkt, 29 },   { block_assemble, 4 },   { block_pkt_varoff, 2 },
		{ block_alu, 14 },   { block_ptr, 3 },	      { block_stack, 8 },
		{ block_map, 12 },   { block_map_update, 5 }, { block_loop, 2 },
		{ block_helper, 8 }, { block_raw, 1 },	      { block_branch, 12 },
	};
	uint32_t r = below(t, 100);
	size_t i;

	t->blocks++;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (r < kinds[i].weight)
			break;
		r -= kinds[i].weight;
	}
	if (i == sizeof(kinds) / sizeof(kinds[0]) ||
	    (kinds[i].fn == block_branch && (t->depth >= MAX_DEPTH || t->blocks >= 16)))
		block_pkt(t);
	else
		kinds[i].fn(t);
}

static void set_verdict(struct tmpl *t, const char *where)
{
	uint32_t r = below(t, 100);

	if (r < 88) {
		mov64_imm(&t->a, 0, (int32_t)below(t, 5));
	} else if (r < 93) {
		int32_t v = (int32_t)PICK(t->rng, 5, 7, 255, -1, 0x10000);

		mov64_imm(&t->a, 0, v);
		note(t, " %s-r0=%d", where, v);
	} else if (r < 96) {
		mov64_reg(&t->a, 0, R_VAR);
		note(t, " %s-r0=var", where);
	} else if (r < 97) {
		mov64_reg(&t->a, 0, R_DATA);
		note(t, " %s-r0=pkt", where);
	} else {
		note(t, " %s-r0=unset", where);
	}
}

static int gen_template(struct vdiff_gen *gen, struct vdiff_rng *rng, struct vdiff_prog *prog)
{
	struct tmpl t = { .rng = rng, .what = prog->what, .what_cap = sizeof(prog->what) };
	struct asmb *a = &t.a;
	int n, i, err;

	t.out = new_label(a);
	note(&t, "template:");
	/* the prologue */
	mov64_reg(a, R_CTX, 1);
	if (chance(&t, 97)) {
		ldx(a, BPF_W, R_DATA, R_CTX, offsetof(struct xdp_md, data));
		ldx(a, BPF_W, R_END, R_CTX, offsetof(struct xdp_md, data_end));
		t.pkt_valid = true;
	} else {
		switch (below(&t, 3)) {
		case 0:
			ldx(a, BPF_DW, R_DATA, R_CTX, offsetof(struct xdp_md, data));
			ldx(a, BPF_W, R_END, R_CTX, offsetof(struct xdp_md, data_end));
			note(&t, " ctx-ld=dw");
			break;
		case 1:
			ldx(a, BPF_W, R_DATA, R_CTX, offsetof(struct xdp_md, data));
			ldx(a, BPF_W, R_END, R_CTX, offsetof(struct xdp_md, data_meta));
			note(&t, " end=meta");
			break;
		default:
			ldx(a, BPF_W, R_DATA, R_CTX, offsetof(struct xdp_md, data));
			ldx(a, BPF_W, R_END, R_CTX, offsetof(struct xdp_md, data_end));
			st(a, BPF_W, R_CTX, offsetof(struct xdp_md, ingress_ifindex), 1);
			note(&t, " ctx-store");
			break;
		}
	}
	if (chance(&t, 98))
		ldx(a, BPF_W, R_VAR, R_CTX, offsetof(struct xdp_md, ingress_ifindex));
	else
		note(&t, " r9=uninit");
	n = 2 + (int)below(&t, 6);
	for (i = 0; i < n; i++)
		block(&t);
	set_verdict(&t, "exit");
	exit_insn(a);
	/* the shared early exit, only where something jumps to it */
	if (a->label_uses[t.out]) {
		bind(a, t.out);
		set_verdict(&t, "out");
		exit_insn(a);
	}
	err = resolve(a);
	if (err) {
		free(a->insns);
		return err;
	}
	prog->kind = VDIFF_KIND_TEMPLATE;
	prog->insns = a->insns;
	prog->cnt = a->cnt;
	prog->maps = gen->tmpl_maps;
	prog->map_cnt = 2;
	return 0;
}

/* ------------------------------------------------------------ mutations */

static bool is_jump(const struct bpf_insn *insn)
{
	uint8_t cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);

	if (cls != BPF_JMP && cls != BPF_JMP32)
		return false;
	if (op == BPF_EXIT)
		return false;
	if (op == BPF_CALL)
		return insn->src_reg == BPF_PSEUDO_CALL;
	return true;
}

static int32_t jump_off(const struct bpf_insn *insn)
{
	if (BPF_OP(insn->code) == BPF_CALL ||
	    (BPF_CLASS(insn->code) == BPF_JMP32 && BPF_OP(insn->code) == BPF_JA))
		return insn->imm;
	return insn->off;
}

static void set_jump_off(struct bpf_insn *insn, int32_t off)
{
	if (BPF_OP(insn->code) == BPF_CALL ||
	    (BPF_CLASS(insn->code) == BPF_JMP32 && BPF_OP(insn->code) == BPF_JA))
		insn->imm = off;
	else
		insn->off = (int16_t)off;
}

/*
 * Moves instructions: old position i goes to map[i] (map has cnt + 1
 * entries, the last one for "the end"), and every jump is re-aimed at the
 * new place of its old target.
 */
static void fix_jumps(struct bpf_insn *out, const struct bpf_insn *in, size_t cnt,
		      const int32_t *map, const int32_t *origin, size_t out_cnt)
{
	size_t j;

	for (j = 0; j < out_cnt; j++) {
		int32_t from = origin[j], to;

		if (from < 0 || !is_jump(&out[j]))
			continue;
		to = from + 1 + jump_off(&in[from]);
		if (to < 0 || (size_t)to > cnt)
			continue;
		set_jump_off(&out[j], map[to] - (int32_t)j - 1);
	}
}

static const uint8_t alu_ops_all[] = { BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_OR,
				       BPF_AND, BPF_LSH, BPF_RSH, BPF_NEG, BPF_MOD,
				       BPF_XOR, BPF_MOV, BPF_ARSH };

static bool is_cond_jump(const struct bpf_insn *insn)
{
	uint8_t op = BPF_OP(insn->code);

	return (BPF_CLASS(insn->code) == BPF_JMP || BPF_CLASS(insn->code) == BPF_JMP32) &&
	       op != BPF_JA && op != BPF_CALL && op != BPF_EXIT;
}

static int32_t mutate_value(struct vdiff_rng *rng, int32_t v)
{
	switch (vdiff_rng__below(rng, 8)) {
	case 0:
		return v + 1;
	case 1:
		return v - 1;
	case 2:
		return 0;
	case 3:
		return -v;
	case 4:
		return v ^ (int32_t)(1u << vdiff_rng__below(rng, 32));
	case 5:
		return (int32_t)vdiff_rng__below(rng, 64);
	case 6:
		return v + (int32_t)PICK(rng, 2, 4, 8, -2, -4, -8);
	default:
		return (int32_t)vdiff_rng__next(rng);
	}
}

/* Changes one instruction in place. */
static void mutate_field(struct vdiff_gen *gen, struct vdiff_rng *rng, struct bpf_insn *insns,
			 size_t cnt, size_t i, char *what, size_t len)
{
	struct bpf_insn *insn = &insns[i];
	uint8_t cls = BPF_CLASS(insn->code);
	bool ld64 = insn->code == (BPF_LD | BPF_DW | BPF_IMM);
	uint32_t r = vdiff_rng__below(rng, 100);

	if (is_cond_jump(insn) && r < 20) {
		uint8_t op = jmp_negate(BPF_OP(insn->code));

		insn->code = (uint8_t)((insn->code & ~0xf0) | op);
		snprintf(what, len, " flip@%zu", i);
		return;
	}
	if (ld64 && insn->src_reg == BPF_PSEUDO_MAP_FD && r < 50) {
		/* another map of the object, now and then one that does not exist */
		insn->imm = vdiff_rng__chance(rng, 90)
				    ? (int32_t)vdiff_rng__below(rng, (uint32_t)gen->base_map_cnt)
				    : (int32_t)(gen->base_map_cnt + vdiff_rng__below(rng, 4));
		snprintf(what, len, " map@%zu=%d", i, insn->imm);
		return;
	}
	if (ld64 && insn->src_reg == BPF_PSEUDO_MAP_VALUE && r < 50 && i + 1 < cnt) {
		insns[i + 1].imm = mutate_value(rng, insns[i + 1].imm);
		snprintf(what, len, " value-off@%zu=%d", i, insns[i + 1].imm);
		return;
	}
	r = vdiff_rng__below(rng, 100);
	if (r < 30) {
		insn->imm = mutate_value(rng, insn->imm);
		snprintf(what, len, " imm@%zu=%d", i, insn->imm);
	} else if (r < 50) {
		insn->off = (int16_t)mutate_value(rng, insn->off);
		snprintf(what, len, " off@%zu=%d", i, insn->off);
	} else if (r < 62) {
		insn->dst_reg =
			(uint8_t)vdiff_rng__below(rng, vdiff_rng__chance(rng, 95) ? 11 : 16);
		snprintf(what, len, " dst@%zu=r%u", i, insn->dst_reg);
	} else if (r < 74) {
		insn->src_reg =
			(uint8_t)vdiff_rng__below(rng, vdiff_rng__chance(rng, 95) ? 11 : 16);
		snprintf(what, len, " src@%zu=r%u", i, insn->src_reg);
	} else if (r < 97) {
		/* another operation of the same class */
		uint8_t code = insn->code;

		switch (cls) {
		case BPF_ALU:
		case BPF_ALU64:
			if (vdiff_rng__chance(rng, 25))
				code ^= BPF_ALU ^ BPF_ALU64;
			else if (vdiff_rng__chance(rng, 20))
				code ^= BPF_X;
			else
				code = (uint8_t)((code & ~0xf0) |
						 alu_ops_all[vdiff_rng__below(
							 rng, sizeof(alu_ops_all))]);
			break;
		case BPF_JMP:
		case BPF_JMP32:
			if (is_cond_jump(insn) && vdiff_rng__chance(rng, 30))
				code ^= BPF_JMP ^ BPF_JMP32;
			else if (is_cond_jump(insn) && vdiff_rng__chance(rng, 20))
				code ^= BPF_X;
			else if (is_cond_jump(insn))
				code = (uint8_t)((code & ~0xf0) |
						 cond_ops[vdiff_rng__below(rng, 11)]);
			break;
		case BPF_LDX:
		case BPF_STX:
		case BPF_ST:
			code = (uint8_t)((code & ~0x18) | sizes[vdiff_rng__below(rng, 4)]);
			break;
		default:
			break;
		}
		if (code == insn->code)
			code = (uint8_t)vdiff_rng__next(rng);
		insn->code = code;
		snprintf(what, len, " code@%zu=%02x", i, code);
	} else {
		insn->code = (uint8_t)vdiff_rng__next(rng);
		snprintf(what, len, " code@%zu=%02x(random)", i, insn->code);
	}
}

/* Deletes, duplicates or swaps instructions; jumps follow or not. */
static int mutate_shape(struct vdiff_rng *rng, struct bpf_insn **insnsp, size_t *cntp, char *what,
			size_t len)
{
	struct bpf_insn *in = *insnsp, *out;
	size_t cnt = *cntp, out_cnt, i, j, at = vdiff_rng__below(rng, (uint32_t)cnt);
	uint32_t kind = vdiff_rng__below(rng, 3);
	bool fix = vdiff_rng__chance(rng, 80);
	int32_t *map, *origin;

	if (kind == 2 && at + 1 >= cnt)
		kind = 0;
	if (kind == 0 && cnt < 2)
		kind = 1;
	out_cnt = kind == 0 ? cnt - 1 : kind == 1 ? cnt + 1 : cnt;
	out = calloc(out_cnt, sizeof(*out));
	map = calloc(cnt + 1, sizeof(*map));
	origin = calloc(out_cnt, sizeof(*origin));
	if (!out || !map || !origin) {
		free(out);
		free(map);
		free(origin);
		return -ENOMEM;
	}
	for (i = 0, j = 0; i < cnt; i++) {
		if (kind == 0 && i == at) {
			map[i] = (int32_t)j; /* jumps to the deleted one land on its successor */
			continue;
		}
		if (kind == 2 && (i == at || i == at + 1)) {
			size_t other = i == at ? at + 1 : at;

			/* a jump to either place still lands on that place */
			out[j] = in[other];
			origin[j] = (int32_t)other;
			map[i] = (int32_t)j;
			j++;
			continue;
		}
		map[i] = (int32_t)j;
		out[j] = in[i];
		origin[j] = (int32_t)i;
		j++;
		if (kind == 1 && i == at) {
			out[j] = in[i];
			origin[j] = (int32_t)i;
			j++;
		}
	}
	map[cnt] = (int32_t)out_cnt;
	if (fix)
		fix_jumps(out, in, cnt, map, origin, out_cnt);
	snprintf(what, len, " %s@%zu%s",
		 kind == 0   ? "delete"
		 : kind == 1 ? "dup"
			     : "swap",
		 at, fix ? "" : "(jumps unfixed)");
	free(map);
	free(origin);
	free(in);
	*insnsp = out;
	*cntp = out_cnt;
	return 0;
}

static int gen_mutation(struct vdiff_gen *gen, struct vdiff_rng *rng, struct vdiff_prog *prog)
{
	struct bpf_insn *insns;
	size_t cnt = gen->base_cnt, used;
	int n = 1 + (int)vdiff_rng__below(rng, 3), i, err;
	char step[96];

	insns = malloc(cnt * sizeof(*insns));
	if (!insns)
		return -ENOMEM;
	memcpy(insns, gen->base, cnt * sizeof(*insns));
	used = (size_t)snprintf(prog->what, sizeof(prog->what), "mutation:");
	for (i = 0; i < n; i++) {
		if (vdiff_rng__chance(rng, 70)) {
			size_t at = vdiff_rng__below(rng, (uint32_t)cnt);

			/* the second half of an ld_imm64 holds nothing to change */
			if (at > 0 && insns[at - 1].code == (BPF_LD | BPF_DW | BPF_IMM))
				at--;
			mutate_field(gen, rng, insns, cnt, at, step, sizeof(step));
		} else {
			err = mutate_shape(rng, &insns, &cnt, step, sizeof(step));
			if (err) {
				free(insns);
				return err;
			}
		}
		if (used < sizeof(prog->what))
			used += (size_t)snprintf(prog->what + used, sizeof(prog->what) - used, "%s",
						 step);
	}
	prog->kind = VDIFF_KIND_MUTATION;
	prog->insns = insns;
	prog->cnt = cnt;
	prog->maps = gen->base_maps;
	prog->map_cnt = gen->base_map_cnt;
	return 0;
}

/* ----------------------------------------------------- the base program */

static int map_index(const struct vdiff_gen *gen, const char *name)
{
	size_t i;

	for (i = 0; i < gen->base_map_cnt; i++)
		if (!strcmp(gen->base_maps[i].name, name))
			return (int)i;
	return -1;
}

/* libbpf names a section's map after the object: "fwd_bpf.rodata" for .rodata. */
static int global_map_index(const struct vdiff_gen *gen, const char *sec)
{
	size_t i, n = strlen(sec);

	for (i = 0; i < gen->base_map_cnt; i++) {
		const char *name = gen->base_maps[i].name;
		size_t len = strlen(name);

		if (gen->base_maps[i].origin == HWXDP_MAP_GLOBAL && len >= n &&
		    !strcmp(name + len - n, sec))
			return (int)i;
	}
	return -1;
}

/*
 * Applies the object's relocations to the program's instructions the way
 * include/hwxdp/object.h lays them out: libbpf has no public view of them
 * before load, so they are read from the ELF file directly.
 */
static int relocate(struct vdiff_gen *gen, const char *path, const char *sec_name,
		    const char *prog_name)
{
	GElf_Shdr shdr, rel_shdr, sym_shdr;
	Elf_Scn *scn, *prog_scn = NULL, *rel_scn = NULL, *sym_scn = NULL;
	Elf_Data *rel_data, *sym_data;
	size_t shstrndx, prog_idx = 0, i;
	GElf_Sym sym;
	uint64_t prog_off = 0;
	bool found = false;
	int fd, err = 0;
	Elf *elf;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx)) {
		err = -EINVAL;
		goto out;
	}
	for (scn = NULL; (scn = elf_nextscn(elf, scn));) {
		const char *name;

		if (!gelf_getshdr(scn, &shdr))
			continue;
		name = elf_strptr(elf, shstrndx, shdr.sh_name);
		if (name && !strcmp(name, sec_name) && shdr.sh_type == SHT_PROGBITS) {
			prog_scn = scn;
			prog_idx = elf_ndxscn(scn);
		}
		if (shdr.sh_type == SHT_SYMTAB)
			sym_scn = scn;
	}
	if (!prog_scn || !sym_scn) {
		err = -ENOENT;
		goto out;
	}
	for (scn = NULL; (scn = elf_nextscn(elf, scn));)
		if (gelf_getshdr(scn, &shdr) && shdr.sh_type == SHT_REL && shdr.sh_info == prog_idx)
			rel_scn = scn;
	gelf_getshdr(sym_scn, &sym_shdr);
	sym_data = elf_getdata(sym_scn, NULL);
	if (!sym_data) {
		err = -EINVAL;
		goto out;
	}
	/* where the program starts inside its section */
	for (i = 0; i < sym_shdr.sh_size / sym_shdr.sh_entsize; i++) {
		const char *name;

		if (!gelf_getsym(sym_data, (int)i, &sym) || sym.st_shndx != prog_idx ||
		    GELF_ST_TYPE(sym.st_info) != STT_FUNC)
			continue;
		name = elf_strptr(elf, sym_shdr.sh_link, sym.st_name);
		if (name && !strcmp(name, prog_name)) {
			prog_off = sym.st_value;
			found = true;
		}
	}
	if (!found) {
		err = -ENOENT;
		goto out;
	}
	if (!rel_scn)
		goto out;
	gelf_getshdr(rel_scn, &rel_shdr);
	rel_data = elf_getdata(rel_scn, NULL);
	if (!rel_data) {
		err = -EINVAL;
		goto out;
	}
	for (i = 0; i < rel_shdr.sh_size / rel_shdr.sh_entsize; i++) {
		const char *sym_name, *sec;
		GElf_Shdr sym_sec;
		struct bpf_insn *insn;
		GElf_Rel rel;
		size_t at;
		int idx;

		if (!gelf_getrel(rel_data, (int)i, &rel) ||
		    !gelf_getsym(sym_data, (int)GELF_R_SYM(rel.r_info), &sym)) {
			err = -EINVAL;
			goto out;
		}
		if (rel.r_offset < prog_off || (rel.r_offset - prog_off) / 8 >= gen->base_cnt)
			continue;
		at = (rel.r_offset - prog_off) / 8;
		insn = &gen->base[at];
		sym_name = elf_strptr(elf, sym_shdr.sh_link, sym.st_name);
		if (sym.st_shndx == SHN_UNDEF) {
			/* an extern: the kernel has no hwxdp kfunc, so it stays unresolved */
			if (insn->code == (BPF_JMP | BPF_CALL)) {
				insn->src_reg = BPF_PSEUDO_KFUNC_CALL;
				insn->imm = 0;
				insn->off = 0;
			} else if (insn->code == (BPF_LD | BPF_DW | BPF_IMM) &&
				   at + 1 < gen->base_cnt) {
				insn->src_reg = 0;
				insn->imm = 0;
				insn[1].imm = 0;
			}
			continue;
		}
		if (insn->code != (BPF_LD | BPF_DW | BPF_IMM) || at + 1 >= gen->base_cnt) {
			pr_warn("%s: relocation at insn %zu is not a map reference\n", path, at);
			err = -ENOTSUP;
			goto out;
		}
		scn = elf_getscn(elf, sym.st_shndx);
		if (!scn || !gelf_getshdr(scn, &sym_sec)) {
			err = -EINVAL;
			goto out;
		}
		sec = elf_strptr(elf, shstrndx, sym_sec.sh_name);
		if (sec && !strcmp(sec, ".maps")) {
			idx = sym_name ? map_index(gen, sym_name) : -1;
			if (idx < 0) {
				err = -ENOENT;
				goto out;
			}
			insn->src_reg = BPF_PSEUDO_MAP_FD;
			insn->imm = idx;
			continue;
		}
		idx = sec ? global_map_index(gen, sec) : -1;
		if (idx < 0) {
			pr_warn("%s: insn %zu refers to section %s\n", path, at, sec ? sec : "?");
			err = -ENOTSUP;
			goto out;
		}
		insn[1].imm = insn->imm + (int32_t)sym.st_value;
		insn->src_reg = BPF_PSEUDO_MAP_VALUE;
		insn->imm = idx;
	}
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return err;
}

static int load_base(struct vdiff_gen *gen, const char *path)
{
	struct bpf_program *prog, *xdp = NULL;
	struct bpf_object *obj;
	struct bpf_map *map;
	size_t n = 0;
	int err;

	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		err = -errno;
		pr_warn("%s: cannot open: %s\n", path, strerror(-err));
		return err;
	}
	bpf_object__for_each_program(prog, obj) if (!xdp && bpf_program__type(prog) ==
								    BPF_PROG_TYPE_XDP) xdp = prog;
	if (!xdp) {
		pr_warn("%s: no XDP program\n", path);
		err = -ENOENT;
		goto out;
	}
	bpf_object__for_each_map(map, obj) n++;
	gen->base_maps = calloc(n ? n : 1, sizeof(*gen->base_maps));
	gen->base_initial = calloc(n ? n : 1, sizeof(*gen->base_initial));
	gen->base_cnt = bpf_program__insn_cnt(xdp);
	gen->base = malloc(gen->base_cnt * sizeof(*gen->base));
	if (!gen->base_maps || !gen->base_initial || !gen->base) {
		err = -ENOMEM;
		goto out;
	}
	memcpy(gen->base, bpf_program__insns(xdp), gen->base_cnt * sizeof(*gen->base));
	bpf_object__for_each_map(map, obj)
	{
		struct hwxdp_map_desc *d = &gen->base_maps[gen->base_map_cnt];
		const char *name = bpf_map__name(map);
		const void *initial;
		size_t size = 0;

		snprintf(d->name, sizeof(d->name), "%s", name);
		d->type = bpf_map__type(map);
		d->key_size = bpf_map__key_size(map);
		d->value_size = bpf_map__value_size(map);
		d->max_entries = bpf_map__max_entries(map);
		d->map_flags = bpf_map__map_flags(map);
		d->origin = bpf_map__is_internal(map) ? HWXDP_MAP_GLOBAL : HWXDP_MAP_BTF;
		d->read_only = d->origin == HWXDP_MAP_GLOBAL && strstr(name, ".rodata");
		initial = bpf_map__initial_value(map, &size);
		if (d->origin == HWXDP_MAP_GLOBAL && initial && !strstr(name, ".bss")) {
			uint8_t *copy = malloc(size);

			if (!copy) {
				err = -ENOMEM;
				goto out;
			}
			memcpy(copy, initial, size);
			gen->base_initial[gen->base_map_cnt] = copy;
			d->initial = copy;
			d->initial_size = size;
		}
		gen->base_map_cnt++;
	}
	err = relocate(gen, path, bpf_program__section_name(xdp), bpf_program__name(xdp));
	if (err)
		pr_warn("%s: cannot relocate %s: %s\n", path, bpf_program__name(xdp),
			strerror(err > 0 ? err : -err));
out:
	bpf_object__close(obj);
	return err;
}

/* ---------------------------------------------------------------- API */

static void set_map(struct hwxdp_map_desc *d, const char *name, uint32_t type, uint32_t key,
		    uint32_t value, uint32_t entries)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->origin = HWXDP_MAP_BTF;
	d->type = type;
	d->key_size = key;
	d->value_size = value;
	d->max_entries = entries;
}

int vdiff_gen__new(const struct vdiff_gen_opts *opts, struct vdiff_gen **out)
{
	struct vdiff_gen *gen;
	int err;

	*out = NULL;
	gen = calloc(1, sizeof(*gen));
	if (!gen)
		return -ENOMEM;
	gen->seed = opts->seed;
	gen->mix = opts->mix ? opts->mix : VDIFF_MIX_BOTH;
	set_map(&gen->tmpl_maps[MAP_ARRAY], "vd_array", BPF_MAP_TYPE_ARRAY, 4, ARRAY_VALUE_SIZE,
		ARRAY_ENTRIES);
	set_map(&gen->tmpl_maps[MAP_HASH], "vd_hash", BPF_MAP_TYPE_HASH, HASH_KEY_SIZE,
		HASH_VALUE_SIZE, 1024);
	if (gen->mix & VDIFF_MIX_MUTATIONS) {
		err = load_base(gen, opts->base_object ? opts->base_object : hx_object_path("fwd"));
		if (err) {
			vdiff_gen__free(gen);
			return err;
		}
	}
	gen->all_map_cnt = 2 + gen->base_map_cnt;
	gen->all_maps = calloc(gen->all_map_cnt, sizeof(*gen->all_maps));
	if (!gen->all_maps) {
		vdiff_gen__free(gen);
		return -ENOMEM;
	}
	memcpy(gen->all_maps, gen->tmpl_maps, sizeof(gen->tmpl_maps));
	if (gen->base_map_cnt)
		memcpy(gen->all_maps + 2, gen->base_maps,
		       gen->base_map_cnt * sizeof(*gen->base_maps));
	*out = gen;
	return 0;
}

void vdiff_gen__free(struct vdiff_gen *gen)
{
	size_t i;

	if (!gen)
		return;
	for (i = 0; gen->base_initial && i < gen->base_map_cnt; i++)
		free(gen->base_initial[i]);
	free(gen->base_initial);
	free(gen->base_maps);
	free(gen->base);
	free(gen->all_maps);
	free(gen);
}

int vdiff_gen__program(struct vdiff_gen *gen, uint64_t index, struct vdiff_prog *prog)
{
	struct vdiff_rng rng;
	bool mutation;

	memset(prog, 0, sizeof(*prog));
	prog->index = index;
	/* each program has a stream of its own, so any one can be rebuilt alone */
	vdiff_rng__seed(&rng, gen->seed);
	vdiff_rng__seed(&rng, vdiff_rng__next(&rng) ^ (index * 0xd1b54a32d192ed03ull));
	vdiff_rng__next(&rng);
	switch (gen->mix) {
	case VDIFF_MIX_TEMPLATES:
		mutation = false;
		break;
	case VDIFF_MIX_MUTATIONS:
		mutation = true;
		break;
	default:
		mutation = vdiff_rng__chance(&rng, 30);
		break;
	}
	if (mutation)
		return gen_mutation(gen, &rng, prog);
	return gen_template(gen, &rng, prog);
}

int vdiff_gen__base(struct vdiff_gen *gen, struct vdiff_prog *prog)
{
	memset(prog, 0, sizeof(*prog));
	if (!gen->base)
		return -ENOENT;
	prog->insns = malloc(gen->base_cnt * sizeof(*prog->insns));
	if (!prog->insns)
		return -ENOMEM;
	memcpy(prog->insns, gen->base, gen->base_cnt * sizeof(*prog->insns));
	prog->cnt = gen->base_cnt;
	prog->kind = VDIFF_KIND_MUTATION;
	prog->maps = gen->base_maps;
	prog->map_cnt = gen->base_map_cnt;
	snprintf(prog->what, sizeof(prog->what), "base program");
	return 0;
}

const struct hwxdp_map_desc *vdiff_gen__maps(const struct vdiff_gen *gen, size_t *cnt)
{
	*cnt = gen->all_map_cnt;
	return gen->all_maps;
}

void vdiff_prog__clear(struct vdiff_prog *prog)
{
	free(prog->insns);
	prog->insns = NULL;
	prog->cnt = 0;
}
