// SPDX-License-Identifier: GPL-2.0
/*
 * Tristate number arithmetic. The add, sub and mul rules follow the
 * published analysis of the Linux verifier's tnums (Vishwanathan et al.,
 * "Sound, Precise, and Fast Abstract Interpretation with Tristate Numbers",
 * CGO 2022): carries out of unknown bits make every bit above them unknown.
 */
#include <stdio.h>

#include "verifier/tnum.h"

const struct tnum tnum_unknown = { .value = 0, .mask = UINT64_MAX };

struct tnum tnum_const(uint64_t value)
{
	return TNUM(value, 0);
}

struct tnum tnum_range(uint64_t min, uint64_t max)
{
	uint64_t differ = min ^ max, low;
	int bits = differ ? 64 - __builtin_clzll(differ) : 0;

	if (bits > 63)
		return tnum_unknown;
	low = (1ULL << bits) - 1;
	return TNUM(min & ~low, low);
}

struct tnum tnum_lshift(struct tnum a, uint8_t shift)
{
	return TNUM(a.value << shift, a.mask << shift);
}

struct tnum tnum_rshift(struct tnum a, uint8_t shift)
{
	return TNUM(a.value >> shift, a.mask >> shift);
}

struct tnum tnum_arshift(struct tnum a, uint8_t shift, uint8_t insn_bitness)
{
	/* An unknown sign bit replicates as unknown bits, a known one as ones. */
	if (insn_bitness == 32)
		return TNUM((uint32_t)((int32_t)a.value >> shift),
			    (uint32_t)((int32_t)a.mask >> shift));
	return TNUM((uint64_t)((int64_t)a.value >> shift), (uint64_t)((int64_t)a.mask >> shift));
}

struct tnum tnum_add(struct tnum a, struct tnum b)
{
	uint64_t sum_mask = a.mask + b.mask, sum_value = a.value + b.value;
	uint64_t carries = (sum_mask + sum_value) ^ sum_value;
	uint64_t unknown = carries | a.mask | b.mask;

	return TNUM(sum_value & ~unknown, unknown);
}

struct tnum tnum_sub(struct tnum a, struct tnum b)
{
	uint64_t diff = a.value - b.value;
	uint64_t borrows = (diff + a.mask) ^ (diff - b.mask);
	uint64_t unknown = borrows | a.mask | b.mask;

	return TNUM(diff & ~unknown, unknown);
}

struct tnum tnum_neg(struct tnum a)
{
	return tnum_sub(tnum_const(0), a);
}

struct tnum tnum_and(struct tnum a, struct tnum b)
{
	uint64_t maybe_a = a.value | a.mask, maybe_b = b.value | b.mask;
	uint64_t ones = a.value & b.value;

	return TNUM(ones, maybe_a & maybe_b & ~ones);
}

struct tnum tnum_or(struct tnum a, struct tnum b)
{
	uint64_t ones = a.value | b.value;

	return TNUM(ones, (a.mask | b.mask) & ~ones);
}

struct tnum tnum_xor(struct tnum a, struct tnum b)
{
	uint64_t unknown = a.mask | b.mask;

	return TNUM((a.value ^ b.value) & ~unknown, unknown);
}

/*
 * Long multiplication: the known product of the known parts, plus, for each
 * bit of a that is not a known zero, the partial products b could add.
 */
struct tnum tnum_mul(struct tnum a, struct tnum b)
{
	uint64_t known = a.value * b.value;
	struct tnum partial = TNUM(0, 0);

	while (a.value || a.mask) {
		if (a.value & 1)
			partial = tnum_add(partial, TNUM(0, b.mask));
		else if (a.mask & 1)
			partial = tnum_add(partial, TNUM(0, b.value | b.mask));
		a = tnum_rshift(a, 1);
		b = tnum_lshift(b, 1);
	}
	return tnum_add(TNUM(known, 0), partial);
}

struct tnum tnum_intersect(struct tnum a, struct tnum b)
{
	uint64_t unknown = a.mask & b.mask;

	return TNUM((a.value | b.value) & ~unknown, unknown);
}

struct tnum tnum_union(struct tnum a, struct tnum b)
{
	uint64_t unknown = a.mask | b.mask | (a.value ^ b.value);

	return TNUM(a.value & ~unknown, unknown);
}

struct tnum tnum_cast(struct tnum a, uint8_t size)
{
	uint64_t keep = size >= 8 ? UINT64_MAX : (1ULL << (size * 8)) - 1;

	return TNUM(a.value & keep, a.mask & keep);
}

bool tnum_in(struct tnum a, struct tnum b)
{
	if (b.mask & ~a.mask)
		return false;
	return a.value == (b.value & ~a.mask);
}

bool tnum_disjoint(struct tnum a, struct tnum b)
{
	return (a.value ^ b.value) & ~(a.mask | b.mask);
}

uint64_t tnum_umin(struct tnum a)
{
	return a.value;
}

uint64_t tnum_umax(struct tnum a)
{
	return a.value | a.mask;
}

int64_t tnum_smin(struct tnum a)
{
	return (int64_t)(a.value | (a.mask & (1ULL << 63)));
}

int64_t tnum_smax(struct tnum a)
{
	return (int64_t)(a.value | (a.mask & ~(1ULL << 63)));
}

struct tnum tnum_subreg(struct tnum a)
{
	return tnum_cast(a, 4);
}

struct tnum tnum_clear_subreg(struct tnum a)
{
	return tnum_lshift(tnum_rshift(a, 32), 32);
}

struct tnum tnum_with_subreg(struct tnum reg, struct tnum subreg)
{
	return tnum_or(tnum_clear_subreg(reg), tnum_subreg(subreg));
}

struct tnum tnum_const_subreg(struct tnum a, uint32_t value)
{
	return tnum_with_subreg(a, tnum_const(value));
}

int tnum_print(char *buf, unsigned long size, struct tnum a)
{
	return snprintf(buf, size, "(0x%llx; 0x%llx)", (unsigned long long)a.value,
			(unsigned long long)a.mask);
}
