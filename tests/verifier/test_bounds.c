// SPDX-License-Identifier: GPL-2.0
/*
 * Soundness of the scalar domain, checked against concrete arithmetic: for
 * abstract values built around random samples, every concrete result of an
 * operation (or every pair a branch lets through) must be a member of the
 * abstract result, and a branch said to be decided must be decided for
 * every pair.
 */
#include <string.h>

#include <criterion/criterion.h>

#include "verifier/verifier_internal.h"

#define SAMPLES 6
#define ROUNDS	20000

struct sampled {
	struct reg_state reg;
	uint64_t v[SAMPLES];
};

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Values of every magnitude, with the edges represented. */
static uint64_t rnd_value(uint64_t base)
{
	switch (rnd() % 8) {
	case 0:
		return rnd();
	case 1:
		return rnd() & 0xff;
	case 2:
		return (uint64_t)(int64_t)(int8_t)rnd();
	case 3:
		return base + (rnd() & 15);
	case 4:
		return base - (rnd() & 15);
	case 5:
		return (uint32_t)rnd();
	case 6:
		return (uint64_t)(int64_t)(int32_t)rnd();
	default:
		return base ^ (1ull << (rnd() % 64));
	}
}

static bool member(const struct reg_state *r, uint64_t v)
{
	return r->umin <= v && v <= r->umax && r->smin <= (int64_t)v && (int64_t)v <= r->smax &&
	       r->u32_min <= (uint32_t)v && (uint32_t)v <= r->u32_max && r->s32_min <= (int32_t)v &&
	       (int32_t)v <= r->s32_max && tnum_in(r->var_off, tnum_const(v));
}

/* The tightest abstract value of the samples the domain can express,
 * loosened now and then so that ranges and tnums differ in shape. */
static void make(struct sampled *s)
{
	uint64_t base = rnd_value(rnd());
	struct reg_state *r = &s->reg;
	int i;

	for (i = 0; i < SAMPLES; i++)
		s->v[i] = i && rnd() % 4 == 0 ? s->v[0] : rnd_value(base);
	if (rnd() % 5 == 0)
		for (i = 0; i < SAMPLES; i++)
			s->v[i] = s->v[0];
	reg_mark_known(r, s->v[0]);
	for (i = 1; i < SAMPLES; i++) {
		uint64_t v = s->v[i];

		r->umin = v < r->umin ? v : r->umin;
		r->umax = v > r->umax ? v : r->umax;
		r->smin = (int64_t)v < r->smin ? (int64_t)v : r->smin;
		r->smax = (int64_t)v > r->smax ? (int64_t)v : r->smax;
		r->u32_min = (uint32_t)v < r->u32_min ? (uint32_t)v : r->u32_min;
		r->u32_max = (uint32_t)v > r->u32_max ? (uint32_t)v : r->u32_max;
		r->s32_min = (int32_t)v < r->s32_min ? (int32_t)v : r->s32_min;
		r->s32_max = (int32_t)v > r->s32_max ? (int32_t)v : r->s32_max;
		r->var_off = tnum_union(r->var_off, tnum_const(v));
	}
	if (rnd() % 4 == 0) {
		r->umax = UINT64_MAX;
		r->smin = INT64_MIN;
	}
	if (rnd() % 4 == 0)
		r->var_off = tnum_unknown;
	reg_bounds_sync(r);
	for (i = 0; i < SAMPLES; i++)
		cr_assert(member(r, s->v[i]), "sync lost sample %#llx",
			  (unsigned long long)s->v[i]);
}

static uint64_t concrete(uint8_t op, uint64_t a, uint64_t b, bool alu32)
{
	if (alu32) {
		uint32_t x = a, y = b;

		switch (op) {
		case BPF_ADD:
			return (uint32_t)(x + y);
		case BPF_SUB:
			return (uint32_t)(x - y);
		case BPF_MUL:
			return (uint32_t)(x * y);
		case BPF_DIV:
			return y ? x / y : 0;
		case BPF_MOD:
			return y ? x % y : x;
		case BPF_OR:
			return x | y;
		case BPF_AND:
			return x & y;
		case BPF_XOR:
			return x ^ y;
		case BPF_LSH:
			return (uint32_t)(x << (y & 31));
		case BPF_RSH:
			return x >> (y & 31);
		case BPF_ARSH:
			return (uint32_t)((int32_t)x >> (y & 31));
		}
	}
	switch (op) {
	case BPF_ADD:
		return a + b;
	case BPF_SUB:
		return a - b;
	case BPF_MUL:
		return a * b;
	case BPF_DIV:
		return b ? a / b : 0;
	case BPF_MOD:
		return b ? a % b : a;
	case BPF_OR:
		return a | b;
	case BPF_AND:
		return a & b;
	case BPF_XOR:
		return a ^ b;
	case BPF_LSH:
		return a << (b & 63);
	case BPF_RSH:
		return a >> (b & 63);
	case BPF_ARSH:
		return (uint64_t)((int64_t)a >> (b & 63));
	}
	return 0;
}

static bool holds(uint8_t op, uint64_t a, uint64_t b, bool jmp32)
{
	if (jmp32) {
		a = (uint32_t)a;
		b = (uint32_t)b;
	}
	switch (op) {
	case BPF_JEQ:
		return a == b;
	case BPF_JNE:
		return a != b;
	case BPF_JSET:
		return a & b;
	case BPF_JSET | 1:
		return !(a & b);
	case BPF_JGT:
		return a > b;
	case BPF_JGE:
		return a >= b;
	case BPF_JLT:
		return a < b;
	case BPF_JLE:
		return a <= b;
	}
	if (jmp32) {
		int32_t x = a, y = b;

		switch (op) {
		case BPF_JSGT:
			return x > y;
		case BPF_JSGE:
			return x >= y;
		case BPF_JSLT:
			return x < y;
		case BPF_JSLE:
			return x <= y;
		}
	}
	switch (op) {
	case BPF_JSGT:
		return (int64_t)a > (int64_t)b;
	case BPF_JSGE:
		return (int64_t)a >= (int64_t)b;
	case BPF_JSLT:
		return (int64_t)a < (int64_t)b;
	default:
		return (int64_t)a <= (int64_t)b;
	}
}

Test(bounds, alu_results_contain_every_concrete_result)
{
	static const uint8_t ops[] = { BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_MOD, BPF_OR,
				       BPF_AND, BPF_XOR, BPF_LSH, BPF_RSH, BPF_ARSH };
	struct sampled a, b;
	struct reg_state res;
	int round, i, j;

	for (round = 0; round < ROUNDS; round++) {
		uint8_t op = ops[rnd() % sizeof(ops)];
		bool alu32 = rnd() & 1;

		make(&a);
		make(&b);
		if (op == BPF_LSH || op == BPF_RSH || op == BPF_ARSH) {
			/* shifts past the width are rejected or masked: keep in range */
			for (j = 0; j < SAMPLES; j++)
				b.v[j] &= alu32 ? 31 : 63;
			reg_mark_known(&b.reg, b.v[0]);
			for (j = 1; j < SAMPLES; j++)
				if (b.v[j] != b.v[0])
					b.reg.umax = alu32 ? 31 : 63, b.reg.umin = 0,
					b.reg.var_off = tnum_range(0, b.reg.umax);
			if (b.reg.umin != b.reg.umax) {
				b.reg.smin = 0;
				b.reg.smax = b.reg.umax;
				b.reg.u32_min = 0;
				b.reg.u32_max = b.reg.umax;
				b.reg.s32_min = 0;
				b.reg.s32_max = b.reg.umax;
			}
			reg_bounds_sync(&b.reg);
		}
		res = a.reg;
		scalar_alu(&res, &b.reg, op, alu32);
		cr_assert(!reg_bounds_empty(&res), "op %#x alu32 %d: empty result", op, alu32);
		for (i = 0; i < SAMPLES; i++) {
			for (j = 0; j < SAMPLES; j++) {
				uint64_t r = concrete(op, a.v[i], b.v[j], alu32);

				cr_assert(member(&res, r),
					  "op %#x alu32 %d: %#llx op %#llx = %#llx outside "
					  "u[%#llx,%#llx] s[%lld,%lld] u32[%#x,%#x] s32[%d,%d] "
					  "tnum(%#llx;%#llx)",
					  op, alu32, (unsigned long long)a.v[i],
					  (unsigned long long)b.v[j], (unsigned long long)r,
					  (unsigned long long)res.umin,
					  (unsigned long long)res.umax, (long long)res.smin,
					  (long long)res.smax, res.u32_min, res.u32_max,
					  res.s32_min, res.s32_max,
					  (unsigned long long)res.var_off.value,
					  (unsigned long long)res.var_off.mask);
			}
		}
	}
}

Test(bounds, branches_keep_every_pair_they_let_through)
{
	static const uint8_t ops[] = { BPF_JEQ, BPF_JNE,  BPF_JSET, BPF_JGT,  BPF_JGE, BPF_JLT,
				       BPF_JLE, BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE };
	struct sampled a, b;
	int round, i, j, side;

	for (round = 0; round < ROUNDS; round++) {
		uint8_t op = ops[rnd() % sizeof(ops)];
		bool jmp32 = rnd() & 1;
		int taken;

		make(&a);
		make(&b);
		if (rnd() % 3 == 0)
			b.v[0] = b.v[1] = b.v[2] = b.v[3] = b.v[4] = b.v[5] = a.v[rnd() % SAMPLES];
		if (b.v[0] == b.v[1] && b.v[1] == b.v[2] && b.v[2] == b.v[3] && b.v[3] == b.v[4] &&
		    b.v[4] == b.v[5])
			reg_mark_known(&b.reg, b.v[0]);
		taken = scalar_branch_taken(&a.reg, &b.reg, op, jmp32);
		for (side = 0; side < 2; side++) {
			uint8_t cond = side ? op : op == BPF_JSET ? BPF_JSET | 1 : jmp_negate(op);
			struct reg_state ra = a.reg, rb = b.reg;

			scalar_refine(&ra, &rb, cond, jmp32);
			for (i = 0; i < SAMPLES; i++) {
				for (j = 0; j < SAMPLES; j++) {
					if (!holds(cond, a.v[i], b.v[j], jmp32))
						continue;
					cr_assert(taken != !side,
						  "op %#x jmp32 %d: decided %d, but %#llx, %#llx "
						  "goes the other way",
						  op, jmp32, taken, (unsigned long long)a.v[i],
						  (unsigned long long)b.v[j]);
					cr_assert(!reg_bounds_empty(&ra) && !reg_bounds_empty(&rb),
						  "op %#x jmp32 %d side %d: empty, yet %#llx, "
						  "%#llx pass",
						  op, jmp32, side, (unsigned long long)a.v[i],
						  (unsigned long long)b.v[j]);
					cr_assert(member(&ra, a.v[i]) && member(&rb, b.v[j]),
						  "op %#x jmp32 %d side %d: %#llx, %#llx pass but "
						  "were cut",
						  op, jmp32, side, (unsigned long long)a.v[i],
						  (unsigned long long)b.v[j]);
				}
			}
		}
	}
}

Test(bounds, truncation_and_sign_extension)
{
	static const int sizes[] = { 1, 2, 4 };
	struct sampled a;
	int round, i;

	for (round = 0; round < ROUNDS; round++) {
		int size = sizes[rnd() % 3];
		struct reg_state z, s;

		make(&a);
		z = s = a.reg;
		reg_coerce_size(&z, size);
		reg_coerce_size_sx(&s, size);
		for (i = 0; i < SAMPLES; i++) {
			int shift = 64 - size * 8;
			uint64_t zv = a.v[i] & ((1ull << (size * 8)) - 1);
			uint64_t sv = (uint64_t)((int64_t)(a.v[i] << shift) >> shift);

			cr_assert(member(&z, zv), "size %d: %#llx truncated lost", size,
				  (unsigned long long)a.v[i]);
			cr_assert(member(&s, sv), "size %d: %#llx sign-extended lost", size,
				  (unsigned long long)a.v[i]);
		}
	}
}
