/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tristate numbers: a 64-bit value where each bit is known 0, known 1 or
 * unknown. value holds the known ones, mask the unknown bits; a bit is never
 * set in both. The arithmetic is sound: every concrete result of an
 * operation on members of the inputs is a member of the output.
 */
#ifndef HWXDP_VERIFIER_TNUM_H
#define HWXDP_VERIFIER_TNUM_H

#include <stdbool.h>
#include <stdint.h>

struct tnum {
	uint64_t value;
	uint64_t mask;
};

#define TNUM(v, m) ((struct tnum){ .value = (v), .mask = (m) })

extern const struct tnum tnum_unknown;

struct tnum tnum_const(uint64_t value);
/* The smallest tnum holding every value of [min, max]. */
struct tnum tnum_range(uint64_t min, uint64_t max);

struct tnum tnum_lshift(struct tnum a, uint8_t shift);
struct tnum tnum_rshift(struct tnum a, uint8_t shift);
/* Arithmetic shift of a value of insn_bitness bits (32 or 64). */
struct tnum tnum_arshift(struct tnum a, uint8_t shift, uint8_t insn_bitness);
struct tnum tnum_add(struct tnum a, struct tnum b);
struct tnum tnum_sub(struct tnum a, struct tnum b);
struct tnum tnum_and(struct tnum a, struct tnum b);
struct tnum tnum_or(struct tnum a, struct tnum b);
struct tnum tnum_xor(struct tnum a, struct tnum b);
struct tnum tnum_mul(struct tnum a, struct tnum b);
struct tnum tnum_neg(struct tnum a);
/* Values in both a and b (a and b must overlap). */
struct tnum tnum_intersect(struct tnum a, struct tnum b);
/* Values in a or in b. */
struct tnum tnum_union(struct tnum a, struct tnum b);
/* Truncation to size bytes. */
struct tnum tnum_cast(struct tnum a, uint8_t size);

static inline bool tnum_is_const(struct tnum a)
{
	return !a.mask;
}

static inline bool tnum_equals_const(struct tnum a, uint64_t b)
{
	return tnum_is_const(a) && a.value == b;
}

static inline bool tnum_is_unknown(struct tnum a)
{
	return !~a.mask;
}

static inline bool tnum_equal(struct tnum a, struct tnum b)
{
	return a.value == b.value && a.mask == b.mask;
}

/* Whether every member of b is a member of a. */
bool tnum_in(struct tnum a, struct tnum b);
/* Whether a and b share no member. */
bool tnum_disjoint(struct tnum a, struct tnum b);

uint64_t tnum_umin(struct tnum a);
uint64_t tnum_umax(struct tnum a);
int64_t tnum_smin(struct tnum a);
int64_t tnum_smax(struct tnum a);

/* The low 32 bits, and a tnum with the low 32 bits replaced. */
struct tnum tnum_subreg(struct tnum a);
struct tnum tnum_clear_subreg(struct tnum a);
struct tnum tnum_with_subreg(struct tnum reg, struct tnum subreg);
struct tnum tnum_const_subreg(struct tnum a, uint32_t value);

/* "(0x..; 0x..)" into buf; returns the length snprintf would. */
int tnum_print(char *buf, unsigned long size, struct tnum a);

#endif /* HWXDP_VERIFIER_TNUM_H */
