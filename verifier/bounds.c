// SPDX-License-Identifier: GPL-2.0
/*
 * Scalar ranges. A scalar is known five ways at once: a tnum and signed and
 * unsigned ranges of its 64-bit value and of its low 32 bits. Each ALU
 * operation is computed in every view that can be computed soundly, then
 * reg_bounds_sync() lets the views narrow each other. Range arithmetic is
 * done in 128 bits so that overflow is seen rather than risked.
 */
#include <string.h>

#include "verifier/verifier_internal.h"

typedef __int128 i128;

/* One width's range: 64-bit, or 32-bit values held in 64-bit fields. */
struct range {
	uint64_t umin, umax;
	int64_t smin, smax;
};

static uint64_t umax_of(int bits)
{
	return bits == 64 ? UINT64_MAX : UINT32_MAX;
}

static int64_t smin_of(int bits)
{
	return bits == 64 ? INT64_MIN : INT32_MIN;
}

static int64_t smax_of(int bits)
{
	return bits == 64 ? INT64_MAX : INT32_MAX;
}

static struct range range_unbounded(int bits)
{
	return (struct range){ 0, umax_of(bits), smin_of(bits), smax_of(bits) };
}

static struct range range64(const struct reg_state *r)
{
	return (struct range){ r->umin, r->umax, r->smin, r->smax };
}

static struct range range32(const struct reg_state *r)
{
	return (struct range){ r->u32_min, r->u32_max, r->s32_min, r->s32_max };
}

static void set_range64(struct reg_state *r, struct range v)
{
	r->umin = v.umin;
	r->umax = v.umax;
	r->smin = v.smin;
	r->smax = v.smax;
}

static void set_range32(struct reg_state *r, struct range v)
{
	r->u32_min = v.umin;
	r->u32_max = v.umax;
	r->s32_min = v.smin;
	r->s32_max = v.smax;
}

/* [lo, hi] of exact results into a width: kept if no result wraps, moved by
 * 2^bits if all of them wrap the same way, else everything. */
static void fit_unsigned(struct range *out, i128 lo, i128 hi, int bits)
{
	i128 span = (i128)1 << bits;

	if (lo >= 0 && hi <= (i128)umax_of(bits)) {
		out->umin = lo;
		out->umax = hi;
	} else if (hi < 0 && lo >= -span) {
		out->umin = lo + span;
		out->umax = hi + span;
	} else if (lo >= span && hi < 2 * span) {
		out->umin = lo - span;
		out->umax = hi - span;
	} else {
		out->umin = 0;
		out->umax = umax_of(bits);
	}
}

static void fit_signed(struct range *out, i128 lo, i128 hi, int bits)
{
	i128 span = (i128)1 << bits;

	if (lo >= smin_of(bits) && hi <= smax_of(bits)) {
		out->smin = lo;
		out->smax = hi;
	} else if (hi < smin_of(bits) && lo >= smin_of(bits) - span) {
		out->smin = lo + span;
		out->smax = hi + span;
	} else if (lo > smax_of(bits) && hi <= smax_of(bits) + span) {
		out->smin = lo - span;
		out->smax = hi - span;
	} else {
		out->smin = smin_of(bits);
		out->smax = smax_of(bits);
	}
}

static struct range range_add(struct range a, struct range b, int bits)
{
	struct range r;

	fit_unsigned(&r, (i128)a.umin + b.umin, (i128)a.umax + b.umax, bits);
	fit_signed(&r, (i128)a.smin + b.smin, (i128)a.smax + b.smax, bits);
	return r;
}

static struct range range_sub(struct range a, struct range b, int bits)
{
	struct range r;

	fit_unsigned(&r, (i128)a.umin - b.umax, (i128)a.umax - b.umin, bits);
	fit_signed(&r, (i128)a.smin - b.smax, (i128)a.smax - b.smin, bits);
	return r;
}

static struct range range_mul(struct range a, struct range b, int bits)
{
	struct range r = range_unbounded(bits);
	i128 p[4], lo, hi;
	int i;

	if ((unsigned __int128)a.umax * b.umax <= umax_of(bits)) {
		r.umin = a.umin * b.umin;
		r.umax = a.umax * b.umax;
	}
	/* 64 x 64 bits fits in 128: every corner product is exact. */
	p[0] = (i128)a.smin * b.smin;
	p[1] = (i128)a.smin * b.smax;
	p[2] = (i128)a.smax * b.smin;
	p[3] = (i128)a.smax * b.smax;
	lo = hi = p[0];
	for (i = 1; i < 4; i++) {
		lo = p[i] < lo ? p[i] : lo;
		hi = p[i] > hi ? p[i] : hi;
	}
	if (lo >= smin_of(bits) && hi <= smax_of(bits)) {
		r.smin = lo;
		r.smax = hi;
	}
	return r;
}

void reg_set_unbounded(struct reg_state *reg)
{
	set_range64(reg, range_unbounded(64));
	set_range32(reg, range_unbounded(32));
}

void reg_mark_known(struct reg_state *reg, uint64_t value)
{
	memset(reg, 0, sizeof(*reg));
	reg->type = SCALAR_VALUE;
	reg->var_off = tnum_const(value);
	reg->umin = reg->umax = value;
	reg->smin = reg->smax = (int64_t)value;
	reg->u32_min = reg->u32_max = (uint32_t)value;
	reg->s32_min = reg->s32_max = (int32_t)value;
}

void reg_mark_unknown(struct reg_state *reg)
{
	memset(reg, 0, sizeof(*reg));
	reg->type = SCALAR_VALUE;
	reg->var_off = tnum_unknown;
	reg_set_unbounded(reg);
}

void reg_mark_not_init(struct reg_state *reg)
{
	reg_mark_unknown(reg);
	reg->type = NOT_INIT;
}

bool reg_is_const(const struct reg_state *reg)
{
	return reg->type == SCALAR_VALUE && tnum_is_const(reg->var_off);
}

bool reg_is_const32(const struct reg_state *reg)
{
	return reg->type == SCALAR_VALUE && tnum_is_const(tnum_subreg(reg->var_off));
}

bool reg_bounds_empty(const struct reg_state *reg)
{
	return reg->umin > reg->umax || reg->smin > reg->smax || reg->u32_min > reg->u32_max ||
	       reg->s32_min > reg->s32_max;
}

#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))

/* The smallest member of t at least x, or false when there is none: x
 * itself, or x's bits above some bit p that x has clear and t may set,
 * p set, and t's least bits below it; the lowest such p is the smallest. */
static bool tnum_member_at_least(struct tnum t, uint64_t x, uint64_t *out)
{
	uint64_t clash = (x ^ t.value) & ~t.mask, may_set = t.value | t.mask;

	if (!clash) {
		*out = x;
		return true;
	}
	for (int p = 0; p < 64; p++) {
		uint64_t bit = 1ULL << p, above = p == 63 ? 0 : ~0ULL << (p + 1);

		if ((x & bit) || !(may_set & bit) || (clash & above))
			continue;
		*out = (x & above) | bit | (t.value & (bit - 1));
		return true;
	}
	return false;
}

/*
 * A tnum and a 64-bit unsigned range that share one value only make the
 * register that value, as the kernel (6.18 here) has it: `r0 &= 0x80000000;
 * if r0 != 0` leaves 0x80000000 where the branch is taken. Its id and
 * the rest of its state stay.
 */
static void known_from_single_member(struct reg_state *reg)
{
	uint64_t first, second;

	if (tnum_is_const(reg->var_off) || reg->umin > reg->umax ||
	    !tnum_member_at_least(reg->var_off, reg->umin, &first) || first > reg->umax)
		return;
	if (first != UINT64_MAX && tnum_member_at_least(reg->var_off, first + 1, &second) &&
	    second <= reg->umax)
		return;
	reg->var_off = tnum_const(first);
	reg->umin = reg->umax = first;
	reg->smin = reg->smax = (int64_t)first;
	reg->u32_min = reg->u32_max = (uint32_t)first;
	reg->s32_min = reg->s32_max = (int32_t)first;
}

static void bounds_from_tnum(struct reg_state *reg)
{
	struct tnum sub;

	known_from_single_member(reg);
	sub = tnum_subreg(reg->var_off);

	reg->umin = MAX(reg->umin, tnum_umin(reg->var_off));
	reg->umax = MIN(reg->umax, tnum_umax(reg->var_off));
	reg->smin = MAX(reg->smin, tnum_smin(reg->var_off));
	reg->smax = MIN(reg->smax, tnum_smax(reg->var_off));
	reg->u32_min = MAX(reg->u32_min, (uint32_t)sub.value);
	reg->u32_max = MIN(reg->u32_max, (uint32_t)(sub.value | sub.mask));
	reg->s32_min = MAX(reg->s32_min, (int32_t)(sub.value | (sub.mask & 0x80000000u)));
	reg->s32_max = MIN(reg->s32_max, (int32_t)(sub.value | (sub.mask & 0x7fffffffu)));
}

/* A range that does not cross the sign boundary reads the same both ways. */
static void deduce_sign32(struct reg_state *reg)
{
	if ((int32_t)reg->u32_min <= (int32_t)reg->u32_max) {
		reg->s32_min = MAX(reg->s32_min, (int32_t)reg->u32_min);
		reg->s32_max = MIN(reg->s32_max, (int32_t)reg->u32_max);
	}
	if ((uint32_t)reg->s32_min <= (uint32_t)reg->s32_max) {
		reg->u32_min = MAX(reg->u32_min, (uint32_t)reg->s32_min);
		reg->u32_max = MIN(reg->u32_max, (uint32_t)reg->s32_max);
	}
}

static void deduce_sign64(struct reg_state *reg)
{
	if ((int64_t)reg->umin <= (int64_t)reg->umax) {
		reg->smin = MAX(reg->smin, (int64_t)reg->umin);
		reg->smax = MIN(reg->smax, (int64_t)reg->umax);
	}
	if ((uint64_t)reg->smin <= (uint64_t)reg->smax) {
		reg->umin = MAX(reg->umin, (uint64_t)reg->smin);
		reg->umax = MIN(reg->umax, (uint64_t)reg->smax);
	}
}

/* Low halves of a 64-bit range form a range when the high halves agree. */
static void deduce_32_from_64(struct reg_state *reg)
{
	if (reg->umin >> 32 == reg->umax >> 32) {
		reg->u32_min = MAX(reg->u32_min, (uint32_t)reg->umin);
		reg->u32_max = MIN(reg->u32_max, (uint32_t)reg->umax);
		if ((int32_t)reg->umin <= (int32_t)reg->umax) {
			reg->s32_min = MAX(reg->s32_min, (int32_t)reg->umin);
			reg->s32_max = MIN(reg->s32_max, (int32_t)reg->umax);
		}
	}
	if (reg->smin >> 32 == reg->smax >> 32) {
		if ((uint32_t)reg->smin <= (uint32_t)reg->smax) {
			reg->u32_min = MAX(reg->u32_min, (uint32_t)reg->smin);
			reg->u32_max = MIN(reg->u32_max, (uint32_t)reg->smax);
		}
		if ((int32_t)reg->smin <= (int32_t)reg->smax) {
			reg->s32_min = MAX(reg->s32_min, (int32_t)reg->smin);
			reg->s32_max = MIN(reg->s32_max, (int32_t)reg->smax);
		}
	}
}

/*
 * A value at least min whose low half is at least lo32 is at least min with
 * its low half replaced by lo32 (same high half, or a larger one); the same
 * holds for upper bounds, and for signed 64-bit bounds since values sharing
 * a high half order as their low halves do.
 */
static void tighten_64_with(struct reg_state *reg, uint32_t lo32, uint32_t hi32)
{
	const uint64_t high = ~0xffffffffULL;

	reg->umin = MAX(reg->umin, (reg->umin & high) | lo32);
	reg->umax = MIN(reg->umax, (reg->umax & high) | hi32);
	reg->smin = MAX(reg->smin, (int64_t)(((uint64_t)reg->smin & high) | lo32));
	reg->smax = MIN(reg->smax, (int64_t)(((uint64_t)reg->smax & high) | hi32));
}

static void deduce_64_from_32(struct reg_state *reg)
{
	tighten_64_with(reg, reg->u32_min, reg->u32_max);
	if ((uint32_t)reg->s32_min <= (uint32_t)reg->s32_max)
		tighten_64_with(reg, reg->s32_min, reg->s32_max);
}

static void tnum_from_bounds(struct reg_state *reg)
{
	struct tnum sub;

	if (reg->umin <= reg->umax)
		reg->var_off = tnum_intersect(reg->var_off, tnum_range(reg->umin, reg->umax));
	if (reg->u32_min <= reg->u32_max) {
		sub = tnum_intersect(tnum_subreg(reg->var_off),
				     tnum_range(reg->u32_min, reg->u32_max));
		reg->var_off = tnum_with_subreg(reg->var_off, sub);
	}
}

void reg_bounds_sync(struct reg_state *reg)
{
	bounds_from_tnum(reg);
	deduce_sign32(reg);
	deduce_32_from_64(reg);
	deduce_sign32(reg);
	deduce_sign64(reg);
	deduce_64_from_32(reg);
	deduce_sign64(reg);
	if (reg_bounds_empty(reg))
		return;
	tnum_from_bounds(reg);
	bounds_from_tnum(reg);
}

void reg_zext32(struct reg_state *reg)
{
	reg->var_off = tnum_subreg(reg->var_off);
	reg->umin = reg->u32_min;
	reg->umax = reg->u32_max;
	reg->smin = reg->u32_min;
	reg->smax = reg->u32_max;
	reg_bounds_sync(reg);
}

void reg_coerce_size(struct reg_state *reg, int size)
{
	uint64_t mask;

	if (size >= 8)
		return;
	mask = (1ULL << (size * 8)) - 1;
	reg->var_off = tnum_cast(reg->var_off, size);
	if ((reg->umin & ~mask) == (reg->umax & ~mask)) {
		reg->umin &= mask;
		reg->umax &= mask;
	} else {
		reg->umin = 0;
		reg->umax = mask;
	}
	reg->smin = reg->umin;
	reg->smax = reg->umax;
	set_range32(reg, range_unbounded(32));
	reg_bounds_sync(reg);
}

/* Sign extension of the low size bytes: exact for a constant, otherwise
 * every value of that signed width. */
void reg_coerce_size_sx(struct reg_state *reg, int size)
{
	int shift = 64 - size * 8;
	int64_t lo, hi;

	if (size >= 8)
		return;
	if (tnum_is_const(reg->var_off)) {
		reg_mark_known(reg, (uint64_t)((int64_t)(reg->var_off.value << shift) >> shift));
		return;
	}
	lo = -(1LL << (size * 8 - 1));
	hi = (1LL << (size * 8 - 1)) - 1;
	reg->var_off = tnum_unknown;
	reg_set_unbounded(reg);
	reg->smin = lo;
	reg->smax = hi;
	if (size < 4) {
		reg->s32_min = lo;
		reg->s32_max = hi;
	}
	reg_bounds_sync(reg);
}

static uint64_t bswap(uint64_t v, int bits)
{
	switch (bits) {
	case 16:
		return __builtin_bswap16(v);
	case 32:
		return __builtin_bswap32(v);
	default:
		return __builtin_bswap64(v);
	}
}

/* Shifts in one width: amount in [smin_amt, smax_amt] below bits. */
static struct range range_shift(struct range a, uint8_t op, uint64_t amin, uint64_t amax, int bits)
{
	struct range r = range_unbounded(bits);

	switch (op) {
	case BPF_LSH:
		if (!amax || !(a.umax >> (bits - amax))) {
			r.umin = a.umin << amin;
			r.umax = a.umax << amax;
		}
		break;
	case BPF_RSH:
		r.umin = a.umin >> amax;
		r.umax = a.umax >> amin;
		break;
	case BPF_ARSH:
		/* for a negative value the smallest shift gives the minimum */
		r.smin = a.smin >= 0 ? a.smin >> amax : a.smin >> amin;
		r.smax = a.smax >= 0 ? a.smax >> amin : a.smax >> amax;
		break;
	}
	return r;
}

static struct tnum tnum_shift(struct tnum t, uint8_t op, uint64_t amt, int bits)
{
	switch (op) {
	case BPF_LSH:
		return tnum_lshift(t, amt);
	case BPF_RSH:
		return tnum_rshift(t, amt);
	default:
		return tnum_arshift(t, amt, bits);
	}
}

/* The width's result of op on a and b: range and tnum. */
static struct range alu_range(struct range a, struct range b, struct tnum *t, struct tnum ta,
			      struct tnum tb, uint8_t op, int bits, bool *ok)
{
	struct range r = range_unbounded(bits);

	*ok = true;
	switch (op) {
	case BPF_ADD:
		*t = tnum_add(ta, tb);
		return range_add(a, b, bits);
	case BPF_SUB:
		*t = tnum_sub(ta, tb);
		return range_sub(a, b, bits);
	case BPF_MUL:
		*t = tnum_mul(ta, tb);
		return range_mul(a, b, bits);
	case BPF_AND:
		*t = tnum_and(ta, tb);
		/* a & b is at most either operand, and not negative if one
		 * of them is not */
		r.umax = MIN(a.umax, b.umax);
		if (a.smin >= 0) {
			r.smin = 0;
			r.smax = a.smax;
		}
		if (b.smin >= 0) {
			r.smin = 0;
			r.smax = MIN(r.smax, b.smax);
		}
		return r;
	case BPF_OR:
		*t = tnum_or(ta, tb);
		r.umin = MAX(a.umin, b.umin);
		return r;
	case BPF_XOR:
		*t = tnum_xor(ta, tb);
		return r;
	case BPF_LSH:
	case BPF_RSH:
	case BPF_ARSH:
		/* Only a constant amount below the width gives a range: the
		 * kernel knows nothing more, and a program must load there. */
		if (b.umin != b.umax || b.umax >= (uint64_t)bits) {
			*t = tnum_unknown;
			return r;
		}
		*t = tnum_shift(ta, op, b.umin, bits);
		return range_shift(a, op, b.umin, b.umax, bits);
	}
	*ok = false;
	*t = tnum_unknown;
	return r;
}

void scalar_alu(struct reg_state *dst, const struct reg_state *src, uint8_t op, bool alu32)
{
	struct reg_state res;
	struct tnum t64, t32;
	bool ok64, ok32;

	if (op == BPF_MOV) {
		*dst = *src;
		if (alu32) {
			dst->id = 0;
			reg_zext32(dst);
		}
		return;
	}
	reg_mark_unknown(&res);
	/* Quotients and remainders are unknown, constants included: the
	 * kernel tracks nothing through them, and a program must load there. */
	if (op == BPF_DIV || op == BPF_MOD) {
		*dst = res;
		return;
	}
	/* A shift by an amount not known, or not below the width (all 64
	 * bits of the amount: the kernel reads its umax), leaves all 64 bits
	 * unknown, a 32-bit shift's upper half included: the kernel does not
	 * zero-extend there, and a program must load there. */
	if ((op == BPF_LSH || op == BPF_RSH || op == BPF_ARSH) &&
	    (!(alu32 ? tnum_is_const(tnum_subreg(src->var_off)) : tnum_is_const(src->var_off)) ||
	     src->umax >= (alu32 ? 32u : 64u))) {
		*dst = res;
		return;
	}
	if (alu32) {
		set_range32(&res,
			    alu_range(range32(dst), range32(src), &t32, tnum_subreg(dst->var_off),
				      tnum_subreg(src->var_off), op, 32, &ok32));
		res.var_off = tnum_subreg(t32);
		reg_bounds_sync(&res);
		reg_zext32(&res);
		*dst = res;
		return;
	}
	set_range64(&res, alu_range(range64(dst), range64(src), &t64, dst->var_off, src->var_off,
				    op, 64, &ok64));
	res.var_off = t64;
	/* The low half of a sum, difference, product or bitwise result
	 * depends on the low halves alone: compute it in 32 bits too. */
	if (op == BPF_ADD || op == BPF_SUB || op == BPF_MUL || op == BPF_AND || op == BPF_OR ||
	    op == BPF_XOR)
		set_range32(&res,
			    alu_range(range32(dst), range32(src), &t32, tnum_subreg(dst->var_off),
				      tnum_subreg(src->var_off), op, 32, &ok32));
	/* x << 32 is the low half, as a signed number, times 2^32 */
	if (op == BPF_LSH && src->umin == 32 && src->umax == 32) {
		res.smin = (int64_t)dst->s32_min * (1LL << 32);
		res.smax = (int64_t)dst->s32_max * (1LL << 32);
	}
	reg_bounds_sync(&res);
	*dst = res;
}

/* Byte order: truncation to the width on this little-endian machine for
 * "to LE", a byte swap for "to BE" and for the 64-bit swap. */
void scalar_endian(struct reg_state *reg, int bits, bool swap)
{
	if (!swap) {
		reg_coerce_size(reg, bits / 8);
		return;
	}
	if (reg_is_const(reg)) {
		reg_mark_known(reg, bswap(reg->var_off.value, bits));
		return;
	}
	reg_mark_unknown(reg);
	if (bits < 64)
		reg_coerce_size(reg, bits / 8);
}

uint8_t jmp_negate(uint8_t op)
{
	switch (op) {
	case BPF_JEQ:
		return BPF_JNE;
	case BPF_JNE:
		return BPF_JEQ;
	case BPF_JGT:
		return BPF_JLE;
	case BPF_JLE:
		return BPF_JGT;
	case BPF_JGE:
		return BPF_JLT;
	case BPF_JLT:
		return BPF_JGE;
	case BPF_JSGT:
		return BPF_JSLE;
	case BPF_JSLE:
		return BPF_JSGT;
	case BPF_JSGE:
		return BPF_JSLT;
	case BPF_JSLT:
		return BPF_JSGE;
	default:
		return op; /* JSET: handled by the caller */
	}
}

/* "a op b" as "b op' a" */
uint8_t jmp_flip(uint8_t op)
{
	switch (op) {
	case BPF_JGT:
		return BPF_JLT;
	case BPF_JLT:
		return BPF_JGT;
	case BPF_JGE:
		return BPF_JLE;
	case BPF_JLE:
		return BPF_JGE;
	case BPF_JSGT:
		return BPF_JSLT;
	case BPF_JSLT:
		return BPF_JSGT;
	case BPF_JSGE:
		return BPF_JSLE;
	case BPF_JSLE:
		return BPF_JSGE;
	default:
		return op;
	}
}

int scalar_branch_taken(const struct reg_state *a, const struct reg_state *b, uint8_t op,
			bool jmp32)
{
	struct range ra = jmp32 ? range32(a) : range64(a), rb = jmp32 ? range32(b) : range64(b);
	struct tnum ta = jmp32 ? tnum_subreg(a->var_off) : a->var_off;
	struct tnum tb = jmp32 ? tnum_subreg(b->var_off) : b->var_off;

	switch (op) {
	case BPF_JEQ:
	case BPF_JNE: {
		bool differ = ra.umin > rb.umax || ra.umax < rb.umin || ra.smin > rb.smax ||
			      ra.smax < rb.smin || tnum_disjoint(ta, tb);
		bool same = tnum_is_const(ta) && tnum_is_const(tb) && ta.value == tb.value;

		if (differ)
			return op == BPF_JNE;
		if (same)
			return op == BPF_JEQ;
		return -1;
	}
	case BPF_JSET:
		if (ta.value & tb.value)
			return 1;
		if (!((ta.value | ta.mask) & (tb.value | tb.mask)))
			return 0;
		return -1;
	case BPF_JGT:
		return ra.umin > rb.umax ? 1 : ra.umax <= rb.umin ? 0 : -1;
	case BPF_JGE:
		return ra.umin >= rb.umax ? 1 : ra.umax < rb.umin ? 0 : -1;
	case BPF_JSGT:
		return ra.smin > rb.smax ? 1 : ra.smax <= rb.smin ? 0 : -1;
	case BPF_JSGE:
		return ra.smin >= rb.smax ? 1 : ra.smax < rb.smin ? 0 : -1;
	case BPF_JLT:
	case BPF_JLE:
	case BPF_JSLT:
	case BPF_JSLE:
		return scalar_branch_taken(b, a, jmp_flip(op), jmp32);
	}
	return -1;
}

/* An empty range marks a branch that cannot be taken. */
static void make_empty(struct reg_state *r)
{
	r->umin = 1;
	r->umax = 0;
}

static void shave(struct range *a, const struct range *b)
{
	if (b->umin == b->umax && a->umin < a->umax) {
		if (a->umin == b->umin)
			a->umin++;
		else if (a->umax == b->umin)
			a->umax--;
	}
	if (b->smin == b->smax && a->smin < a->smax) {
		if (a->smin == b->smin)
			a->smin++;
		else if (a->smax == b->smin)
			a->smax--;
	}
}

static void refine_range(struct range *a, struct range *b, uint8_t op, int bits)
{
	switch (op) {
	case BPF_JEQ:
		a->umin = b->umin = MAX(a->umin, b->umin);
		a->umax = b->umax = MIN(a->umax, b->umax);
		a->smin = b->smin = MAX(a->smin, b->smin);
		a->smax = b->smax = MIN(a->smax, b->smax);
		break;
	case BPF_JNE:
		/* a constant on one side shaves the other's edge; two equal
		 * constants never get here (the branch is known) */
		shave(a, b);
		shave(b, a);
		break;
	case BPF_JLE:
		a->umax = MIN(a->umax, b->umax);
		b->umin = MAX(b->umin, a->umin);
		break;
	case BPF_JLT:
		if (!b->umax || a->umin == umax_of(bits)) {
			a->umin = 1;
			a->umax = 0;
			break;
		}
		a->umax = MIN(a->umax, b->umax - 1);
		b->umin = MAX(b->umin, a->umin + 1);
		break;
	case BPF_JSLE:
		a->smax = MIN(a->smax, b->smax);
		b->smin = MAX(b->smin, a->smin);
		break;
	case BPF_JSLT:
		if (b->smax == smin_of(bits) || a->smin == smax_of(bits)) {
			a->umin = 1;
			a->umax = 0;
			break;
		}
		a->smax = MIN(a->smax, b->smax - 1);
		b->smin = MAX(b->smin, a->smin + 1);
		break;
	case BPF_JGT:
	case BPF_JGE:
	case BPF_JSGT:
	case BPF_JSGE:
		refine_range(b, a, jmp_flip(op), bits);
		break;
	}
}

/* JSET and its negation act on the tnum; op is BPF_JSET for "a & b != 0"
 * and BPF_JSET | 1 for "a & b == 0". */
static void refine_jset(struct reg_state *a, const struct reg_state *b, bool set, bool jmp32)
{
	uint64_t bits;

	if (!(jmp32 ? reg_is_const32(b) : reg_is_const(b)))
		return;
	bits = jmp32 ? (uint32_t)b->var_off.value : b->var_off.value;
	if (!set)
		a->var_off = tnum_and(a->var_off, tnum_const(~bits));
	else if (bits && !(bits & (bits - 1)))
		a->var_off = tnum_or(a->var_off, tnum_const(bits));
}

void scalar_refine(struct reg_state *a, struct reg_state *b, uint8_t op, bool jmp32)
{
	struct range ra, rb;

	if (op == BPF_JSET || op == (BPF_JSET | 1)) {
		refine_jset(a, b, op == BPF_JSET, jmp32);
		refine_jset(b, a, op == BPF_JSET, jmp32);
	} else if (jmp32) {
		ra = range32(a);
		rb = range32(b);
		refine_range(&ra, &rb, op, 32);
		set_range32(a, ra);
		set_range32(b, rb);
		if (op == BPF_JEQ) {
			struct tnum sub =
				tnum_intersect(tnum_subreg(a->var_off), tnum_subreg(b->var_off));

			if (tnum_disjoint(tnum_subreg(a->var_off), tnum_subreg(b->var_off))) {
				make_empty(a);
				return;
			}
			a->var_off = tnum_with_subreg(a->var_off, sub);
			b->var_off = tnum_with_subreg(b->var_off, sub);
		}
	} else {
		ra = range64(a);
		rb = range64(b);
		refine_range(&ra, &rb, op, 64);
		set_range64(a, ra);
		set_range64(b, rb);
		if (op == BPF_JEQ) {
			if (tnum_disjoint(a->var_off, b->var_off)) {
				make_empty(a);
				return;
			}
			a->var_off = b->var_off = tnum_intersect(a->var_off, b->var_off);
		}
	}
	if (!reg_bounds_empty(a))
		reg_bounds_sync(a);
	if (!reg_bounds_empty(b))
		reg_bounds_sync(b);
}
