// SPDX-License-Identifier: GPL-2.0
/*
 * Checksum updates for the checksum unit. A program that changes a header
 * word adjusts the header checksum in place (RFC 1624): it loads the 16-bit
 * field, adds a constant with the end-around carry in some spelling of its
 * own, and stores it back. Whatever the spelling, the fragment is a
 * function of the one 16-bit field; the translator runs it on all 65,536
 * values and, when it gives what `csum16` gives for one constant every
 * time, replaces it with the unit: a constant into a register the fragment
 * wrote anyway, and the update. No pattern is trusted, only the result.
 */
#include <stdlib.h>
#include <string.h>

#include "hwmap/csum.h"
#include "hwmap/work.h"

#define MAX_FRAGMENT 24

/* docs/isa.md, csum16: one's-complement addition, and never -0. */
uint16_t hxu_csum16(uint16_t field, uint64_t add)
{
	uint64_t x = add;
	uint32_t sum;

	x = (x & 0xffffffffu) + (x >> 32);
	x = (x & 0xffffffffu) + (x >> 32);
	x = (x & 0xffffu) + (x >> 16);
	x = (x & 0xffffu) + (x >> 16);
	x = (x & 0xffffu) + (x >> 16);
	sum = field + (uint32_t)x;
	sum = (sum & 0xffff) + (sum >> 16);
	return sum == 0xffff ? 0 : (uint16_t)sum;
}

static bool alu_value(uint8_t code, int32_t off, uint64_t a, uint64_t b, uint64_t *out)
{
	bool w = BPF_CLASS(code) == BPF_ALU;

	if (off)
		return false;
	if (w) {
		a = (uint32_t)a;
		b = (uint32_t)b;
	}
	switch (BPF_OP(code)) {
	case BPF_ADD:
		*out = a + b;
		break;
	case BPF_SUB:
		*out = a - b;
		break;
	case BPF_MUL:
		*out = a * b;
		break;
	case BPF_AND:
		*out = a & b;
		break;
	case BPF_OR:
		*out = a | b;
		break;
	case BPF_XOR:
		*out = a ^ b;
		break;
	case BPF_MOV:
		*out = b;
		break;
	case BPF_LSH:
		*out = a << (b & (w ? 31 : 63));
		break;
	case BPF_RSH:
		*out = a >> (b & (w ? 31 : 63));
		break;
	case BPF_NEG:
		*out = 0 - a;
		break;
	default:
		return false;
	}
	if (w)
		*out = (uint32_t)*out;
	return true;
}

static bool cond_value(uint8_t code, uint64_t a, uint64_t b, bool *taken)
{
	if (BPF_CLASS(code) == BPF_JMP32) {
		a = (uint32_t)a;
		b = (uint32_t)b;
	}
	switch (BPF_OP(code)) {
	case BPF_JEQ:
		*taken = a == b;
		break;
	case BPF_JNE:
		*taken = a != b;
		break;
	case BPF_JGT:
		*taken = a > b;
		break;
	case BPF_JGE:
		*taken = a >= b;
		break;
	case BPF_JLT:
		*taken = a < b;
		break;
	case BPF_JLE:
		*taken = a <= b;
		break;
	case BPF_JSET:
		*taken = (a & b) != 0;
		break;
	default:
		return false;
	}
	return true;
}

/*
 * Runs insns s..e (the load at s, the store at e) on field value v: the
 * value stored, or false when the fragment reads anything else, leaves
 * the range, or does what the evaluator does not know. written receives
 * the registers it wrote.
 */
static bool run_fragment(const struct bpf_insn *insns, uint32_t s, uint32_t e, uint16_t v,
			 uint16_t *stored, uint16_t *written)
{
	uint64_t r[11] = { 0 };
	uint16_t known = 0;
	uint32_t pc = s + 1;

	r[insns[s].dst_reg] = v;
	known = (uint16_t)(1u << insns[s].dst_reg);
	*written = known;
	while (pc < e) {
		const struct bpf_insn *in = &insns[pc];
		uint8_t cls = BPF_CLASS(in->code);
		bool k = BPF_SRC(in->code) == BPF_K, taken;
		uint64_t b;

		if (cls == BPF_ALU || cls == BPF_ALU64) {
			bool reads_dst = BPF_OP(in->code) != BPF_MOV;

			if ((reads_dst && !(known & (1u << in->dst_reg))) ||
			    (!k && BPF_OP(in->code) != BPF_NEG && !(known & (1u << in->src_reg))))
				return false;
			b = k ? (cls == BPF_ALU ? (uint32_t)in->imm : (uint64_t)(int64_t)in->imm)
			      : r[in->src_reg];
			if (!alu_value(in->code, in->off, r[in->dst_reg], b, &r[in->dst_reg]))
				return false;
			known |= (uint16_t)(1u << in->dst_reg);
			*written |= (uint16_t)(1u << in->dst_reg);
			pc++;
			continue;
		}
		if ((cls != BPF_JMP && cls != BPF_JMP32) || BPF_OP(in->code) == BPF_CALL ||
		    BPF_OP(in->code) == BPF_EXIT)
			return false;
		if (BPF_OP(in->code) == BPF_JA) {
			taken = true;
		} else {
			if (!(known & (1u << in->dst_reg)) ||
			    (!k && !(known & (1u << in->src_reg))))
				return false;
			b = k ? (uint64_t)(int64_t)in->imm : r[in->src_reg];
			if (!cond_value(in->code, r[in->dst_reg], b, &taken))
				return false;
		}
		if (taken) {
			int64_t t = (int64_t)pc + 1 +
				    (BPF_OP(in->code) == BPF_JA && cls == BPF_JMP32 ? in->imm
										    : in->off);

			if (t <= pc || t > e)
				return false; /* only forward, and not past the store */
			pc = (uint32_t)t;
		} else {
			pc++;
		}
	}
	if (!(known & (1u << insns[e].src_reg)))
		return false;
	*stored = (uint16_t)r[insns[e].src_reg];
	return true;
}

/* The jumps and calls into each instruction: from[start[t] .. start[t + 1]). */
struct jumps {
	uint32_t *start, *from;
};

static int64_t jump_target(const struct bpf_insn *in, uint32_t i)
{
	uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);

	if ((cls != BPF_JMP && cls != BPF_JMP32) || op == BPF_EXIT ||
	    (op == BPF_CALL && in->src_reg != BPF_PSEUDO_CALL))
		return -1;
	return (int64_t)i + 1 +
	       ((op == BPF_CALL || (op == BPF_JA && cls == BPF_JMP32)) ? in->imm : in->off);
}

static int find_jumps(const struct hwxdp_prog *p, struct jumps *j)
{
	size_t n = p->insn_cnt;
	int64_t t;

	j->start = calloc(n + 2, sizeof(*j->start));
	if (!j->start)
		return -1;
	for (uint32_t i = 0; i < n; i++)
		if ((t = jump_target(&p->insns[i], i)) >= 0 && t < (int64_t)n)
			j->start[t + 2]++;
	for (size_t k = 0; k < n; k++)
		j->start[k + 2] += j->start[k + 1];
	j->from = malloc((j->start[n + 1] + 1) * sizeof(*j->from));
	if (!j->from)
		return -1;
	for (uint32_t i = 0; i < n; i++)
		if ((t = jump_target(&p->insns[i], i)) >= 0 && t < (int64_t)n)
			j->from[j->start[t + 1]++] = i;
	return 0;
}

/* The fragment from the load at s, if it is a checksum update: where it ends. */
static bool fragment_at(const struct hwxdp_prog *p, const struct hwxdp_insn_fact *facts,
			const bool *is_target, const uint16_t *live, const struct jumps *jumps,
			uint32_t s, struct hxu_csum *c)
{
	const struct bpf_insn *ld = &p->insns[s];
	uint16_t written = 0, w, stored;
	uint32_t e;
	uint64_t k;

	if (ld->code != (BPF_LDX | BPF_MEM | BPF_H) ||
	    facts[s].regs[ld->src_reg].type != HWXDP_REG_PTR_TO_PACKET ||
	    ld->dst_reg == ld->src_reg)
		return false;
	for (e = s + 1; e < p->insn_cnt && e <= s + MAX_FRAGMENT; e++) {
		const struct bpf_insn *in = &p->insns[e];

		if (!facts[e].reachable)
			return false;
		if (in->code == (BPF_STX | BPF_MEM | BPF_H) && in->dst_reg == ld->src_reg &&
		    in->off == ld->off)
			break;
		if (BPF_CLASS(in->code) != BPF_ALU && BPF_CLASS(in->code) != BPF_ALU64 &&
		    BPF_CLASS(in->code) != BPF_JMP && BPF_CLASS(in->code) != BPF_JMP32)
			return false;
		if ((BPF_CLASS(in->code) == BPF_ALU || BPF_CLASS(in->code) == BPF_ALU64) &&
		    in->dst_reg == ld->src_reg)
			return false; /* the base changes */
	}
	if (e >= p->insn_cnt || e > s + MAX_FRAGMENT)
		return false;
	/* Nothing outside jumps into it. */
	for (uint32_t j = s + 1; j <= e; j++) {
		if (!is_target[j])
			continue;
		for (uint32_t k = jumps->start[j]; k < jumps->start[j + 1]; k++) {
			uint32_t i = jumps->from[k];

			hxu_work_add(1);
			if (i < s || i >= e)
				return false;
		}
	}
	if (!run_fragment(p->insns, s, e, 0, &stored, &written))
		return false;
	k = stored ? stored : 0xffff;
	for (uint32_t v = 0; v <= 0xffff; v++) {
		if (!run_fragment(p->insns, s, e, (uint16_t)v, &stored, &w) ||
		    stored != hxu_csum16((uint16_t)v, k))
			return false;
		written |= w;
	}
	/* What it computed besides the field must be dead after it. */
	if (e + 1 > p->insn_cnt || (live[e + 1] & written))
		return false;
	c->end = e;
	c->base = ld->src_reg;
	c->off = ld->off;
	c->k = (uint16_t)k;
	c->tmp = ld->dst_reg;
	return true;
}

struct hxu_csum *hxu_find_csum(const struct hwxdp_prog *p, const struct hwxdp_insn_fact *facts,
			       const bool *is_target, const uint16_t *live)
{
	struct hxu_csum *c = calloc(p->insn_cnt + 1, sizeof(*c));
	struct jumps jumps = { NULL, NULL };

	if (!c || find_jumps(p, &jumps)) {
		free(c);
		c = NULL;
		goto out;
	}
	for (uint32_t s = 0; s < p->insn_cnt; s++) {
		if (!facts[s].reachable ||
		    !fragment_at(p, facts, is_target, live, &jumps, s, &c[s]))
			continue;
		s = c[s].end;
	}
out:
	free(jumps.start);
	free(jumps.from);
	return c;
}
