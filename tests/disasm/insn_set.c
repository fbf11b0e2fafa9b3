// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "insn_set.h"
#include "verifier/disasm.h"

struct gen {
	struct bpf_insn *insns;
	size_t cnt, cap;
	uint64_t state;
};

static uint32_t rnd(struct gen *g)
{
	g->state ^= g->state << 13;
	g->state ^= g->state >> 7;
	g->state ^= g->state << 17;
	return (uint32_t)(g->state >> 16);
}

/* Immediates and offsets lean to the edges, where formats go wrong. */
static int32_t rnd_imm(struct gen *g)
{
	static const int32_t edges[] = { 0, 1, -1, INT32_MIN, INT32_MAX, 0x7f, 0x80, 0xffff };
	uint32_t r = rnd(g);

	return r % 4 ? (int32_t)rnd(g) : edges[r / 4 % 8];
}

static int16_t rnd_off(struct gen *g)
{
	return rnd(g) % 4 ? (int16_t)rnd(g) : (int16_t)(rnd(g) % 3 ? rnd(g) % 64 : INT16_MIN);
}

static uint8_t rnd_reg(struct gen *g)
{
	return rnd(g) % 11;
}

static void put(struct gen *g, uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	if (g->cnt == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 1024;
		g->insns = realloc(g->insns, g->cap * sizeof(*g->insns));
		if (!g->insns)
			abort();
	}
	g->insns[g->cnt++] = (struct bpf_insn){ .code = code, .dst_reg = dst, .src_reg = src,
						.off = off, .imm = imm };
}

static void gen_alu(struct gen *g)
{
	static const uint8_t ops[] = { BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_OR,  BPF_AND,
				       BPF_LSH, BPF_RSH, BPF_MOD, BPF_XOR, BPF_MOV, BPF_ARSH };
	static const int16_t sx[] = { 8, 16, 32 };
	uint8_t cls;
	int i, j;

	for (cls = BPF_ALU; cls <= BPF_ALU64; cls += BPF_ALU64 - BPF_ALU) {
		for (i = 0; i < (int)sizeof(ops); i++) {
			put(g, cls | ops[i] | BPF_K, rnd_reg(g), 0, 0, rnd_imm(g));
			put(g, cls | ops[i] | BPF_X, rnd_reg(g), rnd_reg(g), 0, 0);
		}
		put(g, cls | BPF_DIV | BPF_K, rnd_reg(g), 0, 1, rnd_imm(g));
		put(g, cls | BPF_MOD | BPF_K, rnd_reg(g), 0, 1, rnd_imm(g));
		put(g, cls | BPF_DIV | BPF_X, rnd_reg(g), rnd_reg(g), 1, 0);
		put(g, cls | BPF_MOD | BPF_X, rnd_reg(g), rnd_reg(g), 1, 0);
		put(g, cls | BPF_NEG, rnd_reg(g), 0, 0, 0);
		for (j = 0; j < (cls == BPF_ALU ? 2 : 3); j++)
			put(g, cls | BPF_MOV | BPF_X, rnd_reg(g), rnd_reg(g), sx[j], 0);
		for (j = 16; j <= 64; j *= 2) {
			uint8_t r = rnd_reg(g);

			put(g, cls | BPF_END | BPF_TO_LE, r, 0, 0, j);
			if (cls == BPF_ALU)
				put(g, cls | BPF_END | BPF_TO_BE, r, 0, 0, j);
		}
	}
	put(g, BPF_ALU64 | BPF_MOV | BPF_X, rnd_reg(g), rnd_reg(g), BPF_ADDR_SPACE_CAST,
	    (int32_t)(rnd(g) % 2 << 16 | rnd(g) % 2));
	put(g, BPF_ALU64 | BPF_MOV | BPF_X, rnd_reg(g), rnd_reg(g), HWXDP_BPF_ADDR_PERCPU, 0);
}

static void gen_mem(struct gen *g)
{
	static const int32_t atomics[] = {
		BPF_ADD,	     BPF_AND,		  BPF_OR,	       BPF_XOR,
		BPF_ADD | BPF_FETCH, BPF_AND | BPF_FETCH, BPF_OR | BPF_FETCH, BPF_XOR | BPF_FETCH,
		BPF_XCHG,	     BPF_CMPXCHG,
	};
	static const uint8_t sizes[] = { BPF_B, BPF_H, BPF_W, BPF_DW };
	int i, j;

	for (i = 0; i < 4; i++) {
		uint8_t sz = sizes[i];

		put(g, BPF_LDX | BPF_MEM | sz, rnd_reg(g), rnd_reg(g), rnd_off(g), 0);
		put(g, BPF_STX | BPF_MEM | sz, rnd_reg(g), rnd_reg(g), rnd_off(g), 0);
		put(g, BPF_ST | BPF_MEM | sz, rnd_reg(g), 0, rnd_off(g), rnd_imm(g));
		put(g, BPF_STX | BPF_ATOMIC | sz, rnd_reg(g), rnd_reg(g), rnd_off(g), BPF_LOAD_ACQ);
		put(g, BPF_STX | BPF_ATOMIC | sz, rnd_reg(g), rnd_reg(g), rnd_off(g), BPF_STORE_REL);
		if (sz == BPF_DW)
			continue;
		put(g, BPF_LDX | BPF_MEMSX | sz, rnd_reg(g), rnd_reg(g), rnd_off(g), 0);
		put(g, BPF_LD | BPF_ABS | sz, 0, 0, 0, rnd_imm(g));
		put(g, BPF_LD | BPF_IND | sz, 0, rnd_reg(g), 0, rnd_imm(g));
	}
	for (i = 2; i < 4; i++)
		for (j = 0; j < (int)(sizeof(atomics) / sizeof(atomics[0])); j++)
			put(g, BPF_STX | BPF_ATOMIC | sizes[i], rnd_reg(g), rnd_reg(g), rnd_off(g),
			    atomics[j]);
	put(g, BPF_ST | HWXDP_BPF_NOSPEC, 0, 0, 0, 0);
}

static void gen_ld_imm64(struct gen *g)
{
	static const uint8_t pseudo[] = { 0, BPF_PSEUDO_MAP_FD, BPF_PSEUDO_MAP_VALUE,
					  BPF_PSEUDO_BTF_ID, BPF_PSEUDO_FUNC, BPF_PSEUDO_MAP_IDX,
					  BPF_PSEUDO_MAP_IDX_VALUE };
	int i;

	for (i = 0; i < (int)sizeof(pseudo); i++) {
		uint8_t src = pseudo[i];
		int32_t next = rnd_imm(g);

		/* the second half carries data only where the text shows it */
		if (src == BPF_PSEUDO_MAP_FD || src == BPF_PSEUDO_MAP_IDX || src == BPF_PSEUDO_FUNC ||
		    ((src == BPF_PSEUDO_BTF_ID || src == 0) && rnd(g) % 2))
			next = 0;
		put(g, BPF_LD | BPF_IMM | BPF_DW, rnd_reg(g), src, 0, rnd_imm(g));
		put(g, 0, 0, 0, 0, next);
	}
}

static void gen_jmp(struct gen *g)
{
	static const uint8_t ops[] = { BPF_JEQ, BPF_JGT,  BPF_JGE,  BPF_JSET, BPF_JNE, BPF_JSGT,
				       BPF_JSGE, BPF_JLT, BPF_JLE, BPF_JSLT, BPF_JSLE };
	uint8_t cls;
	int i;

	for (cls = BPF_JMP; cls <= BPF_JMP32; cls += BPF_JMP32 - BPF_JMP) {
		for (i = 0; i < (int)sizeof(ops); i++) {
			put(g, cls | ops[i] | BPF_K, rnd_reg(g), 0, rnd_off(g), rnd_imm(g));
			put(g, cls | ops[i] | BPF_X, rnd_reg(g), rnd_reg(g), rnd_off(g), 0);
		}
	}
	put(g, BPF_JMP | BPF_JA, 0, 0, rnd_off(g), 0);
	put(g, BPF_JMP32 | BPF_JA, 0, 0, 0, rnd_imm(g));
	put(g, BPF_JMP | BPF_JCOND, 0, BPF_MAY_GOTO, rnd_off(g), 0);
	put(g, BPF_JMP | BPF_CALL, 0, 0, 0, 1 + rnd(g) % (__BPF_FUNC_MAX_ID - 1));
	put(g, BPF_JMP | BPF_CALL, 0, 0, 0, __BPF_FUNC_MAX_ID + rnd(g) % 1000);
	put(g, BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, rnd_imm(g));
	put(g, BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, rnd_imm(g));
	put(g, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

struct bpf_insn *insn_set_generate(unsigned int rounds, unsigned int seed, size_t *cnt)
{
	struct gen g = { .state = 0x9e3779b97f4a7c15ull ^ seed };
	unsigned int i;

	for (i = 0; i < rounds; i++) {
		gen_alu(&g);
		gen_mem(&g);
		gen_ld_imm64(&g);
		gen_jmp(&g);
	}
	*cnt = g.cnt;
	return g.insns;
}

const char *insn_set_object_path(const char *name)
{
	static char path[4096];
	const char *dir = getenv("HWXDP_BUILD");

	snprintf(path, sizeof(path), "%s/progs/%s.bpf.o", dir && *dir ? dir : "build", name);
	return path;
}

char *insn_set_disasm(const struct bpf_insn *insns, size_t cnt, int with_index)
{
	size_t i, used = 0, cap = cnt * 64 + 1;
	char *text = malloc(cap);
	char line[256];

	if (!text)
		abort();
	text[0] = 0;
	for (i = 0; i < cnt; i++) {
		int n = 0;

		if (with_index)
			n = snprintf(line, sizeof(line), "%zu: ", i);
		hwxdp_disasm_insn(&insns[i], cnt - i, line + n, sizeof(line) - n - 1);
		strcat(line, "\n");
		n = strlen(line);
		if (used + n + 1 > cap) {
			cap = cap * 2 + n;
			text = realloc(text, cap);
			if (!text)
				abort();
		}
		memcpy(text + used, line, n + 1);
		used += n;
		if (insns[i].code == (BPF_LD | BPF_IMM | BPF_DW))
			i++;
	}
	return text;
}
