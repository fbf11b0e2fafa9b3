// SPDX-License-Identifier: GPL-2.0
/*
 * Table memory accesses proven at load (device/tm_proof.h).
 *
 * The domain. A register or an 8-byte stack slot holds either a number
 * whose unsigned range [lo, hi] is known (everything unknown is the number
 * [0, 2^64 - 1]), or a table value's address: the bytes of the value that
 * a lookup guarantees (the least value size of the tables it may be from)
 * and the offset from the value's start, as a signed range or unknown. A value's address joined
 * with the number 0 stays an address: it is what a lookup that found nothing gives, and the engine
 * aborts any access at an address that low.
 *
 * The analysis runs over basic blocks to a fixed point; a block's state is
 * widened after a few visits, so that loops end (a value's address only once
 * its offsets leave the value: inside it they are a bounded lattice). Bundles are analysed in
 * order, which the bundle rules make equal to running them at once. A call
 * enters its target with the caller's registers and an unknown stack, and
 * returns with r6..r9 as they were (the return stack restores them), the
 * other registers unknown, and the caller's stack slots kept unless the
 * image writes local memory other than through r10 into its own frame
 * somewhere (then a callee may have written them). Every program entry
 * starts unknown: registers live across frames and tail calls.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/engine.h"
#include "device/tm_proof.h"

#define SLOTS	    (HXU_LM_FRAME / 8)
#define OFF_LIMIT   (1ll << 32)
#define WIDEN_AFTER 8

enum { V_NUM, V_PTR };

struct aval {
	uint8_t kind;
	bool off_known; /* V_PTR */
	/* V_PTR: the least bytes from the address to its value's end, over
	 * every value and offset it may be (so a join of addresses into
	 * values of different sizes at different offsets keeps what all of
	 * them have) */
	int64_t room;
	int64_t lo, hi; /* V_PTR: offset range; V_NUM: (uint64_t) range */
};

struct astate {
	struct aval r[HXU_REGS];
	struct aval slot[SLOTS]; /* r10 - 512 + 8 * i */
};

struct prover {
	const struct hxu_image *img;
	const struct hxu_op *ops;
	const uint32_t *words;
	uint32_t op_cnt;
	const int32_t *op_at;
	const struct hxu_table_desc *const *table_desc;
	bool *leader;
	struct astate **in; /* per leader op, NULL until reached */
	uint32_t *visits;
	uint32_t *work;
	bool *queued;
	uint32_t work_cnt;
	bool lm_indirect; /* a local-memory write not into its own frame via r10 */
	char *err;
	size_t errlen;
};

static const struct aval TOP = { V_NUM, false, 0, 0, -1 };

static uint64_t ulo(const struct aval *v)
{
	return (uint64_t)v->lo;
}

static uint64_t uhi(const struct aval *v)
{
	return (uint64_t)v->hi;
}

static struct aval num(uint64_t lo, uint64_t hi)
{
	return (struct aval){ V_NUM, false, 0, (int64_t)lo, (int64_t)hi };
}

static bool is_zero(const struct aval *v)
{
	return v->kind == V_NUM && v->lo == 0 && v->hi == 0;
}

static bool aval_eq(const struct aval *a, const struct aval *b)
{
	if (a->kind != b->kind || a->lo != b->lo || a->hi != b->hi)
		return false;
	return a->kind == V_NUM || (a->room == b->room && a->off_known == b->off_known);
}

static struct aval join(const struct aval *a, const struct aval *b)
{
	struct aval v;

	if (a->kind == V_NUM && b->kind == V_NUM)
		return num(ulo(a) < ulo(b) ? ulo(a) : ulo(b), uhi(a) > uhi(b) ? uhi(a) : uhi(b));
	if (a->kind == V_PTR && is_zero(b))
		return *a;
	if (b->kind == V_PTR && is_zero(a))
		return *b;
	if (a->kind != b->kind)
		return TOP;
	v = *a;
	if (b->room < v.room)
		v.room = b->room;
	v.off_known = a->off_known && b->off_known;
	v.lo = a->lo < b->lo ? a->lo : b->lo;
	v.hi = a->hi > b->hi ? a->hi : b->hi;
	return v;
}

/* new joined into old, widened when the block has been visited often. */
static struct aval merge(const struct aval *old, const struct aval *new, bool widen)
{
	struct aval v = join(old, new);

	if (!widen || aval_eq(&v, old))
		return v;
	if (v.kind == V_NUM) {
		if (ulo(&v) < ulo(old))
			v.lo = 0;
		if (uhi(&v) > uhi(old))
			v.hi = -1;
	} else if (old->kind == V_PTR) {
		/* An offset range that stays inside the value is a bounded
		 * lattice (lo only falls to 0, hi only rises while room stays
		 * >= 0): it is kept, so that a value's address reaching a
		 * block by two paths at two offsets stays usable there; one
		 * that leaves the value is given up, so that loops end. */
		if ((v.lo < old->lo || v.hi > old->hi) && (v.lo < 0 || v.room < 0))
			v.off_known = false;
	}
	return v;
}

/* A pointer moved by a number in [lo, hi] (as signed, when the range is
 * all on one side of 2^63). */
static struct aval ptr_add(const struct aval *p, const struct aval *n, bool sub)
{
	struct aval v = *p;
	int64_t lo = n->lo, hi = n->hi;

	if (!v.off_known)
		return v;
	if (lo > hi || (ulo(n) <= INT64_MAX) != (uhi(n) <= INT64_MAX) || lo < -OFF_LIMIT ||
	    hi > OFF_LIMIT) {
		v.off_known = false;
		return v;
	}
	if (sub) {
		int64_t t = -lo;

		lo = -hi;
		hi = t;
	}
	v.lo += lo;
	v.hi += hi;
	v.room -= hi;
	if (v.lo < -OFF_LIMIT || v.hi > OFF_LIMIT)
		v.off_known = false;
	return v;
}

static struct aval num_add(const struct aval *a, const struct aval *b, bool sub)
{
	uint64_t lo, hi;

	if (sub) {
		if (ulo(a) < uhi(b))
			return TOP;
		return num(ulo(a) - uhi(b), uhi(a) - ulo(b));
	}
	if (__builtin_add_overflow(uhi(a), uhi(b), &hi))
		return TOP;
	lo = ulo(a) + ulo(b);
	return num(lo, hi);
}

static uint64_t mask_of(uint64_t x)
{
	return x ? ~0ull >> __builtin_clzll(x) : 0;
}

static struct aval alu_num(uint8_t opcode, const struct aval *a, const struct aval *b)
{
	uint64_t hi;
	bool k = ulo(b) == uhi(b);

	switch (opcode) {
	case HXU_OP_ADD:
		return num_add(a, b, false);
	case HXU_OP_SUB:
		return num_add(a, b, true);
	case HXU_OP_MUL:
		if (__builtin_mul_overflow(uhi(a), uhi(b), &hi))
			return TOP;
		return num(ulo(a) * ulo(b), hi);
	case HXU_OP_DIV:
		return num(0, uhi(a));
	case HXU_OP_MOD:
		return num(0, k && ulo(b) && ulo(b) - 1 < uhi(a) ? ulo(b) - 1 : uhi(a));
	case HXU_OP_AND:
		return num(0, uhi(a) < uhi(b) ? uhi(a) : uhi(b));
	case HXU_OP_OR:
	case HXU_OP_XOR:
		return num(0, mask_of(uhi(a) | uhi(b)));
	case HXU_OP_LSH:
		if (!k || ulo(b) > 63 || (ulo(b) && uhi(a) >> (64 - ulo(b))))
			return TOP;
		return num(ulo(a) << ulo(b), uhi(a) << ulo(b));
	case HXU_OP_RSH:
		if (!k || ulo(b) > 63)
			return num(0, uhi(a));
		return num(ulo(a) >> ulo(b), uhi(a) >> ulo(b));
	case HXU_OP_ARSH:
		if (uhi(a) > INT64_MAX)
			return TOP;
		return num(0, uhi(a));
	}
	return TOP;
}

/* The low 32 bits of a number, as .w operations read them. */
static struct aval low32(const struct aval *v)
{
	if (v->kind == V_NUM && uhi(v) <= UINT32_MAX)
		return *v;
	return num(0, UINT32_MAX);
}

static struct aval fit32(struct aval v)
{
	return uhi(&v) <= UINT32_MAX ? v : num(0, UINT32_MAX);
}

static struct aval alu(const struct hxu_op *op, const struct astate *s)
{
	bool w = op->flags & HXU_F_W32, k = op->flags & HXU_F_K;
	const struct aval *a = &s->r[op->rs];
	struct aval b, a32, b32;

	if (k)
		b = w ? num((uint32_t)op->imm, (uint32_t)op->imm)
		      : num((uint64_t)(int64_t)op->imm, (uint64_t)(int64_t)op->imm);
	else
		b = s->r[op->rt];
	if (w) {
		a32 = low32(a);
		b32 = low32(&b);
		return fit32(alu_num(op->opcode, &a32, &b32));
	}
	if (op->opcode == HXU_OP_ADD || op->opcode == HXU_OP_SUB) {
		if (a->kind == V_PTR && b.kind == V_NUM)
			return ptr_add(a, &b, op->opcode == HXU_OP_SUB);
		if (op->opcode == HXU_OP_ADD && a->kind == V_NUM && b.kind == V_PTR)
			return ptr_add(&b, a, false);
	}
	if (a->kind != V_NUM || b.kind != V_NUM)
		return TOP;
	return alu_num(op->opcode, a, &b);
}

static struct aval value_ptr(const struct prover *p, uint8_t table)
{
	const struct hxu_table_desc *t = p->table_desc[table];

	return (struct aval){ V_PTR, true, t ? (int64_t)t->value_size : 0, 0, 0 };
}

/* The stack slot an access through r10 at off for size bytes is, or -1
 * (-2 when it touches slots without being exactly one). */
static int slot_of(int32_t off, uint32_t size)
{
	if (off < -HXU_LM_FRAME || off > -(int32_t)size)
		return -1;
	if (size == 8 && off % 8 == 0)
		return (off + HXU_LM_FRAME) / 8;
	return -2;
}

static void clobber_slots(struct astate *s, int32_t off, uint32_t size)
{
	for (int32_t b = off; b < off + (int32_t)size; b++)
		if (b >= -HXU_LM_FRAME && b < 0)
			s->slot[(b + HXU_LM_FRAME) / 8] = TOP;
}

static void clobber_all_slots(struct astate *s)
{
	for (int i = 0; i < SLOTS; i++)
		s->slot[i] = TOP;
}

/* A local-memory write at [rs + off], size bytes. */
static void lm_write(struct astate *s, const struct hxu_op *op, uint32_t size,
		     const struct aval *value)
{
	int slot;

	if (op->rs != HXU_REG_FP) {
		clobber_all_slots(s);
		return;
	}
	slot = slot_of(op->imm, size);
	if (slot >= 0)
		s->slot[slot] = value ? *value : TOP;
	else if (slot == -2)
		clobber_slots(s, op->imm, size);
	else
		clobber_all_slots(s);
}

static bool writes_lm_elsewhere(const struct hxu_op *op)
{
	uint8_t kind;

	if (hxu_opcode_class(op->opcode) != HXU_CLASS_M ||
	    hxu_mem_space(op->opcode) != HXU_SPACE_LM)
		return false;
	kind = hxu_mem_kind(op->opcode);
	if (kind == HXU_OP_LD || kind == HXU_OP_LDSX)
		return false;
	return op->rs != HXU_REG_FP || slot_of(op->imm, hxu_mem_size(op->flags)) == -1;
}

__attribute__((format(printf, 3, 4))) static int refuse(struct prover *p, uint32_t i,
							const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(p->err, p->errlen, "op %u: ", p->words[i]);
	if (n < 0 || (size_t)n >= p->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - n, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * Refuses op i unless its operand which, size bytes at base + off in table
 * memory, lies inside a value, or starts below any table memory address
 * (the engine aborts it). Only final, once the fixed point is reached.
 */
static int judge_reg(struct prover *p, uint32_t i, uint8_t reg, const struct aval *base,
		     int64_t off, uint32_t size, bool final)
{
	if (!final)
		return 0;
	if (base->kind == V_NUM) {
		/* Below the lowest table memory address: the engine aborts. */
		if (uhi(base) < HWXDP_TM_LOW && off >= 0 &&
		    uhi(base) + (uint64_t)off < HWXDP_TM_LOW)
			return 0;
		return refuse(p, i,
			      "table memory access through r%u, which holds a number, not a "
			      "table value's address",
			      reg);
	}
	if (base->off_known && base->lo + off >= 0 && off + (int64_t)size <= base->room)
		return 0;
	if (!base->off_known)
		return refuse(p, i,
			      "table memory access through r%u, a table value's address plus "
			      "an offset not known to stay inside the value",
			      reg);
	return refuse(p, i,
		      "table memory access of %u bytes at offset %lld..%lld from a value of "
		      "%lld bytes (r%u)",
		      size, (long long)(base->lo + off), (long long)(base->hi + off),
		      (long long)(base->room + base->hi), reg);
}

static int judge(struct prover *p, uint32_t i, int which, const struct aval *base, int64_t off,
		 uint32_t size, bool final)
{
	return judge_reg(p, i, which ? p->ops[i].rt : p->ops[i].rs, base, off, size, final);
}

static bool space_tm(uint32_t space)
{
	return space == HXU_SPACE_TM;
}

/* csumd's buffer at r[reg] of r[reg + 1] bytes, when it is in table
 * memory: every size the length may have, the largest judged. */
static int judge_csum(struct prover *p, uint32_t i, const struct astate *s, unsigned int space,
		      uint8_t reg, bool final)
{
	const struct aval *n = &s->r[reg + 1];
	uint64_t most = n->kind == V_NUM ? uhi(n) : UINT64_MAX;

	if (!space_tm(space) || !most)
		return 0;
	return judge_reg(p, i, reg, &s->r[reg], 0, most > UINT32_MAX ? UINT32_MAX : (uint32_t)most,
			 final);
}

/* Runs op i on s; judges its table memory operands when final. */
static int step(struct prover *p, uint32_t i, struct astate *s, bool final)
{
	const struct hxu_op *op = &p->ops[i];
	const struct hxu_table_desc *t;
	unsigned int size, space;
	uint8_t kind;
	struct aval v;
	int slot, err;

	switch (hxu_opcode_class(op->opcode)) {
	case HXU_CLASS_A:
		switch (op->opcode) {
		case HXU_OP_MOV:
			if (op->flags & HXU_F_K)
				v = op->flags & HXU_F_W32
					    ? num((uint32_t)op->imm, (uint32_t)op->imm)
					    : num((uint64_t)(int64_t)op->imm,
						  (uint64_t)(int64_t)op->imm);
			else
				v = op->flags & HXU_F_W32 ? low32(&s->r[op->rs]) : s->r[op->rs];
			break;
		case HXU_OP_MOVI:
			v = num(hxu_movi_value(op), hxu_movi_value(op));
			break;
		case HXU_OP_ZEXT16:
			v = s->r[op->rs].kind == V_NUM && uhi(&s->r[op->rs]) <= 0xffff
				    ? s->r[op->rs]
				    : num(0, 0xffff);
			break;
		case HXU_OP_ZEXT32:
			v = low32(&s->r[op->rs]);
			break;
		case HXU_OP_BSWAP16:
			v = num(0, 0xffff);
			break;
		case HXU_OP_BSWAP32:
			v = num(0, UINT32_MAX);
			break;
		case HXU_OP_NEG:
		case HXU_OP_MOVSX8:
		case HXU_OP_MOVSX16:
		case HXU_OP_MOVSX32:
		case HXU_OP_BSWAP64:
			v = op->flags & HXU_F_W32 ? num(0, UINT32_MAX) : TOP;
			break;
		default:
			v = alu(op, s);
		}
		s->r[op->rd] = v;
		return 0;

	case HXU_CLASS_M:
		kind = hxu_mem_kind(op->opcode);
		space = hxu_mem_space(op->opcode);
		size = hxu_mem_size(op->flags);
		if (space_tm(space)) {
			err = judge(p, i, 0, &s->r[op->rs], op->imm, size, final);
			if (err)
				return err;
		}
		switch (kind) {
		case HXU_OP_LD:
			slot = space == HXU_SPACE_LM && op->rs == HXU_REG_FP
				       ? slot_of(op->imm, size)
				       : -1;
			if (slot >= 0)
				s->r[op->rd] = s->slot[slot];
			else
				s->r[op->rd] = size == 8 ? TOP : num(0, ~0ull >> (64 - 8 * size));
			break;
		case HXU_OP_LDSX:
			s->r[op->rd] = TOP;
			break;
		case HXU_OP_ST:
			if (space == HXU_SPACE_LM)
				lm_write(s, op, size, size == 8 ? &s->r[op->rt] : NULL);
			break;
		case HXU_OP_STI:
			v = num((uint64_t)(int64_t)(int32_t)op->ext,
				(uint64_t)(int64_t)(int32_t)op->ext);
			if (space == HXU_SPACE_LM)
				lm_write(s, op, size, size == 8 ? &v : NULL);
			break;
		default:
			if (space == HXU_SPACE_LM)
				lm_write(s, op, size, NULL);
			if (op->flags & HXU_F_FETCH)
				s->r[op->rd] = size == 8 ? TOP : num(0, UINT32_MAX);
		}
		return 0;

	case HXU_CLASS_U:
		t = (op->opcode >= HXU_OP_TLOOKUP && op->opcode <= HXU_OP_REDIR) ||
				    hxu_op_table_reg(op->opcode)
			    ? p->table_desc[op->x]
			    : NULL;
		switch (op->opcode) {
		case HXU_OP_TLOOKUPR:
		case HXU_OP_TDELETER:
		case HXU_OP_TUPDATER:
			/* a table that fits t's template, checked at run time */
			if (space_tm(op->flags & 3)) {
				err = judge(p, i, 0, &s->r[op->rs], 0, t->inner.key_size, final);
				if (err)
					return err;
			}
			if (op->opcode == HXU_OP_TUPDATER &&
			    space_tm(((uint32_t)op->imm >> HXU_TUPDATE_VSPACE_SHIFT) & 3)) {
				err = judge(p, i, 1, &s->r[op->rt], 0, t->inner.value_size, final);
				if (err)
					return err;
			}
			s->r[op->rd] = op->opcode == HXU_OP_TLOOKUPR
					       ? (struct aval){ V_PTR, true,
								(int64_t)t->inner.value_size, 0, 0 }
					       : TOP;
			return 0;
		case HXU_OP_TLOOKUP:
		case HXU_OP_TDELETE:
		case HXU_OP_TUPDATE:
			if (space_tm(op->flags & 3)) {
				err = judge(p, i, 0, &s->r[op->rs], 0, t->key_size, final);
				if (err)
					return err;
			}
			if (op->opcode == HXU_OP_TUPDATE &&
			    space_tm((uint32_t)op->imm >> HXU_TUPDATE_VSPACE_SHIFT)) {
				err = judge(p, i, 1, &s->r[op->rt], 0, t->value_size, final);
				if (err)
					return err;
			}
			/* a map of maps' lookup gives a handle, a number */
			s->r[op->rd] = op->opcode == HXU_OP_TLOOKUP && !hxu_map_of_maps(t->type)
					       ? value_ptr(p, op->x)
					       : TOP;
			return 0;
		case HXU_OP_TINDEX:
			s->r[op->rd] = value_ptr(p, op->x);
			return 0;
		case HXU_OP_CSUM16:
		case HXU_OP_PUNT:
			return 0;
		case HXU_OP_CSUMD:
			err = judge_csum(p, i, s, op->x & 3, 1, final);
			err = err ?: judge_csum(p, i, s, op->x >> HXU_CSUMD_TO_SHIFT, 3, final);
			if (err)
				return err;
			s->r[op->rd] = num(0, 0xffff);
			return 0;
		default:
			s->r[op->rd] = TOP;
			return 0;
		}

	default:
		return 0;
	}
}

/* Narrows s for the way out of branch op where the condition is taken
 * (or not): a number compared with a constant. A signed or 32-bit compare
 * narrows only when it orders the two as the unsigned 64-bit one would. */
/* Narrows the register a branch tests on the way it goes; false when that
 * way cannot be taken from s (its range leaves no number that goes there). */
static bool refine(const struct hxu_op *op, struct astate *s, bool taken)
{
	static const uint8_t unsigned_cc[HXU_CC__MAX] = {
		[HXU_CC_EQ] = HXU_CC_EQ,  [HXU_CC_NE] = HXU_CC_NE,   [HXU_CC_GT] = HXU_CC_GT,
		[HXU_CC_GE] = HXU_CC_GE,  [HXU_CC_LT] = HXU_CC_LT,   [HXU_CC_LE] = HXU_CC_LE,
		[HXU_CC_SGT] = HXU_CC_GT, [HXU_CC_SGE] = HXU_CC_GE,  [HXU_CC_SLT] = HXU_CC_LT,
		[HXU_CC_SLE] = HXU_CC_LE, [HXU_CC_SET] = HXU_CC_SET,
	};
	static const uint8_t inverse[] = {
		[HXU_CC_EQ] = HXU_CC_NE, [HXU_CC_NE] = HXU_CC_EQ, [HXU_CC_GT] = HXU_CC_LE,
		[HXU_CC_GE] = HXU_CC_LT, [HXU_CC_LT] = HXU_CC_GE, [HXU_CC_LE] = HXU_CC_GT
	};
	struct aval *v = &s->r[op->rs];
	uint64_t k, lo = ulo(v), hi = uhi(v), limit;
	bool w = op->flags & HXU_F_W32, sign = op->x >= HXU_CC_SGT && op->x <= HXU_CC_SLE;
	uint8_t cc;

	if (op->x >= HXU_CC__MAX || op->x == HXU_CC_SET || v->kind != V_NUM)
		return true;
	if (op->opcode == HXU_OP_BRI)
		k = (uint64_t)(int64_t)(int32_t)op->ext;
	else if (s->r[op->rt].kind == V_NUM && ulo(&s->r[op->rt]) == uhi(&s->r[op->rt]))
		k = ulo(&s->r[op->rt]);
	else
		return true;
	if (w)
		k = (uint32_t)k;
	limit = w ? (sign ? INT32_MAX : UINT32_MAX) : (sign ? INT64_MAX : UINT64_MAX);
	if (hi > limit || k > limit)
		return true;
	cc = unsigned_cc[op->x];
	if (!taken)
		cc = inverse[cc];
	switch (cc) {
	case HXU_CC_EQ:
		if (k < lo || k > hi)
			return false;
		lo = hi = k;
		break;
	case HXU_CC_NE:
		if (lo == k && hi == k)
			return false;
		if (lo == k)
			lo++;
		else if (hi == k)
			hi--;
		break;
	case HXU_CC_GT:
		if (k >= hi)
			return false;
		if (k + 1 > lo)
			lo = k + 1;
		break;
	case HXU_CC_GE:
		if (k > hi)
			return false;
		if (k > lo)
			lo = k;
		break;
	case HXU_CC_LT:
		if (k <= lo)
			return false;
		if (k - 1 < hi)
			hi = k - 1;
		break;
	case HXU_CC_LE:
		if (k < lo)
			return false;
		if (k < hi)
			hi = k;
		break;
	}
	*v = num(lo, hi);
	return true;
}

static int flow_to(struct prover *p, uint32_t target, const struct astate *s)
{
	struct astate *in = p->in[target];
	bool changed = false, widen;

	if (!in) {
		in = malloc(sizeof(*in));
		if (!in)
			return -ENOMEM;
		*in = *s;
		p->in[target] = in;
		changed = true;
	} else {
		widen = p->visits[target] >= WIDEN_AFTER;
		for (int r = 0; r < HXU_REGS; r++) {
			struct aval v = merge(&in->r[r], &s->r[r], widen);

			if (!aval_eq(&v, &in->r[r])) {
				in->r[r] = v;
				changed = true;
			}
		}
		for (int i = 0; i < SLOTS; i++) {
			struct aval v = merge(&in->slot[i], &s->slot[i], widen);

			if (!aval_eq(&v, &in->slot[i])) {
				in->slot[i] = v;
				changed = true;
			}
		}
	}
	if (changed && !p->queued[target]) {
		p->queued[target] = true;
		p->work[p->work_cnt++] = target;
	}
	return 0;
}

static uint32_t op_index(const struct prover *p, uint32_t word)
{
	return (uint32_t)p->op_at[word];
}

/* Runs the block starting at leader i from its state; with final, judges
 * instead of propagating. */
static int run_block(struct prover *p, uint32_t i, bool final)
{
	struct astate s = *p->in[i], out;
	int err;

	for (;; i++) {
		const struct hxu_op *op = &p->ops[i];

		err = step(p, i, &s, final);
		if (err)
			return err;
		if (final) {
			if (hxu_op_is_control(op->opcode) ||
			    (i + 1 < p->op_cnt && p->leader[i + 1]))
				return 0;
			continue;
		}
		switch (op->opcode) {
		case HXU_OP_BR:
		case HXU_OP_BRI:
			out = s;
			refine(op, &out, true);
			err = flow_to(p, op_index(p, (uint32_t)op->imm), &out);
			if (err)
				return err;
			refine(op, &s, false);
			return flow_to(p, i + 1, &s);
		case HXU_OP_LCHK:
			err = flow_to(p, op_index(p, (uint32_t)op->imm), &s);
			return err ? err : flow_to(p, i + 1, &s);
		case HXU_OP_JMP:
			return flow_to(p, op_index(p, (uint32_t)op->imm), &s);
		case HXU_OP_CALL:
			out = s;
			clobber_all_slots(&out);
			err = flow_to(p, op_index(p, (uint32_t)op->imm), &out);
			if (err)
				return err;
			for (int r = 0; r < HXU_REGS; r++)
				if (r < 6 || r > 9)
					s.r[r] = TOP;
			if (p->lm_indirect)
				clobber_all_slots(&s);
			return flow_to(p, i + 1, &s);
		case HXU_OP_TCALL:
			return flow_to(p, i + 1, &s);
		case HXU_OP_RET:
		case HXU_OP_EXIT:
		case HXU_OP_PUNT:
			return 0;
		}
		if (i + 1 < p->op_cnt && p->leader[i + 1])
			return flow_to(p, i + 1, &s);
	}
}

/*
 * The retry, path by path, for an image the joined states cannot prove: a
 * loop whose offsets move together (a pointer stepped by 4 as a counter
 * steps by 2 to its bound), which a join of every iteration loses. Each
 * path runs from its entry with its own state, as the verifier walks BPF;
 * a branch forks both ways that can be taken, a call forks into its target
 * as the joined analysis enters it. At a block's start, a state no larger
 * than one stored there (every value within that one's) is not walked
 * again. Every operation is judged on every path. -2 past the budget of
 * operations or of open paths, which bound the time and memory an image
 * can make the load spend.
 */
#define PATH_BUDGET 262144 /* operations walked over all paths */
#define PATH_STORED 32	   /* states kept at a block's start */
#define PATH_OPEN   4096   /* paths waiting to be walked */

struct path {
	uint32_t at;
	struct astate s;
};

struct walk {
	struct path *stack;
	uint32_t depth, cap;
	struct astate **stored; /* per leader op: PATH_STORED states */
	uint8_t *stored_cnt;
};

static bool within(const struct astate *a, const struct astate *b)
{
	for (int r = 0; r < HXU_REGS; r++) {
		struct aval j = join(&a->r[r], &b->r[r]);

		if (!aval_eq(&j, &b->r[r]))
			return false;
	}
	for (int i = 0; i < SLOTS; i++) {
		struct aval j = join(&a->slot[i], &b->slot[i]);

		if (!aval_eq(&j, &b->slot[i]))
			return false;
	}
	return true;
}

static int fork_path(struct walk *w, uint32_t at, const struct astate *s)
{
	if (w->depth == PATH_OPEN)
		return -2;
	if (w->depth == w->cap) {
		uint32_t cap = w->cap ? 2 * w->cap : 64;
		struct path *n = realloc(w->stack, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		w->stack = n;
		w->cap = cap;
	}
	w->stack[w->depth].at = at;
	w->stack[w->depth++].s = *s;
	return 0;
}

/* Whether the path reaching leader i with s is covered; else s is kept. */
static int seen(struct walk *w, uint32_t i, const struct astate *s)
{
	struct astate *st = w->stored[i];

	if (!st) {
		st = malloc(PATH_STORED * sizeof(*st));
		if (!st)
			return -ENOMEM;
		w->stored[i] = st;
	}
	for (uint32_t k = 0; k < w->stored_cnt[i]; k++)
		if (within(s, &st[k]))
			return 1;
	st[w->stored_cnt[i] % PATH_STORED] = *s;
	if (w->stored_cnt[i] < PATH_STORED)
		w->stored_cnt[i]++;
	return 0;
}

static int walk_paths(struct prover *p, const struct astate *top)
{
	struct walk w = { 0 };
	uint64_t steps = 0;
	int ret = -ENOMEM;

	w.stored = calloc(p->op_cnt, sizeof(*w.stored));
	w.stored_cnt = calloc(p->op_cnt, sizeof(*w.stored_cnt));
	if (!w.stored || !w.stored_cnt)
		goto out;
	for (uint32_t e = 0; e < p->img->prog_cnt; e++) {
		ret = fork_path(&w, op_index(p, p->img->progs[e].entry), top);
		if (ret)
			goto out;
	}
	ret = 0;
	while (w.depth && !ret) {
		struct path cur = w.stack[--w.depth];
		uint32_t i = cur.at;
		struct astate out, *s = &cur.s;

		for (;;) {
			const struct hxu_op *op = &p->ops[i];
			int r;

			if (p->leader[i]) {
				r = seen(&w, i, s);
				if (r) {
					ret = r < 0 ? r : 0;
					break;
				}
			}
			if (++steps > PATH_BUDGET) {
				ret = -2;
				break;
			}
			ret = step(p, i, s, true);
			if (ret)
				break;
			switch (op->opcode) {
			case HXU_OP_BR:
			case HXU_OP_BRI:
				out = *s;
				if (refine(op, &out, true))
					ret = fork_path(&w, op_index(p, (uint32_t)op->imm), &out);
				if (ret || !refine(op, s, false))
					goto next;
				i++;
				continue;
			case HXU_OP_LCHK:
				ret = fork_path(&w, op_index(p, (uint32_t)op->imm), s);
				if (ret)
					goto next;
				i++;
				continue;
			case HXU_OP_JMP:
				i = op_index(p, (uint32_t)op->imm);
				continue;
			case HXU_OP_CALL:
				out = *s;
				clobber_all_slots(&out);
				ret = fork_path(&w, op_index(p, (uint32_t)op->imm), &out);
				if (ret)
					goto next;
				for (int r = 0; r < HXU_REGS; r++)
					if (r < 6 || r > 9)
						s->r[r] = TOP;
				if (p->lm_indirect)
					clobber_all_slots(s);
				i++;
				continue;
			case HXU_OP_RET:
			case HXU_OP_EXIT:
			case HXU_OP_PUNT:
				goto next;
			}
			if (i + 1 >= p->op_cnt)
				goto next;
			i++;
		}
	next:;
	}
out:
	if (w.stored)
		for (uint32_t i = 0; i < p->op_cnt; i++)
			free(w.stored[i]);
	free(w.stored);
	free(w.stored_cnt);
	free(w.stack);
	return ret;
}

int hwxdp_tm_prove(const struct hxu_image *img, const struct hxu_op *ops, const uint32_t *words,
		   uint32_t op_cnt, const int32_t *op_at,
		   const struct hxu_table_desc *const table_desc[HXU_TABLES], char *err,
		   size_t errlen)
{
	struct prover p = { .img = img,
			    .ops = ops,
			    .words = words,
			    .op_cnt = op_cnt,
			    .op_at = op_at,
			    .table_desc = table_desc,
			    .err = err,
			    .errlen = errlen };
	struct astate top;
	uint32_t i;
	int ret = -ENOMEM;

	p.leader = calloc(op_cnt, sizeof(*p.leader));
	p.in = calloc(op_cnt, sizeof(*p.in));
	p.visits = calloc(op_cnt, sizeof(*p.visits));
	p.work = calloc(op_cnt, sizeof(*p.work));
	p.queued = calloc(op_cnt, sizeof(*p.queued));
	if (!p.leader || !p.in || !p.visits || !p.work || !p.queued)
		goto out;

	for (i = 0; i < op_cnt; i++) {
		const struct hxu_op *op = &ops[i];

		if (writes_lm_elsewhere(op))
			p.lm_indirect = true;
		if (op->opcode == HXU_OP_BR || op->opcode == HXU_OP_BRI ||
		    op->opcode == HXU_OP_JMP || op->opcode == HXU_OP_CALL ||
		    op->opcode == HXU_OP_LCHK)
			p.leader[op_at[(uint32_t)op->imm]] = true;
		if (hxu_op_is_control(op->opcode) && i + 1 < op_cnt)
			p.leader[i + 1] = true;
	}
	for (i = 0; i < HXU_REGS; i++)
		top.r[i] = TOP;
	clobber_all_slots(&top);
	for (i = 0; i < img->prog_cnt; i++) {
		uint32_t at = op_index(&p, img->progs[i].entry);

		p.leader[at] = true;
		ret = flow_to(&p, at, &top);
		if (ret)
			goto out;
	}
	while (p.work_cnt) {
		i = p.work[--p.work_cnt];
		p.queued[i] = false;
		p.visits[i]++;
		ret = run_block(&p, i, false);
		if (ret)
			goto out;
	}
	ret = 0;
	for (i = 0; i < op_cnt && !ret; i++)
		if (p.in[i])
			ret = run_block(&p, i, true);
	if (ret == -1) {
		/* path by path, with the joined analysis's reason kept for a
		 * refusal: the first access it could not bound */
		char why[256];
		int again;

		snprintf(why, sizeof(why), "%s", err ? err : "");
		again = walk_paths(&p, &top);
		if (again == -ENOMEM)
			ret = again;
		else if (!again)
			ret = 0;
		else if (err)
			snprintf(err, errlen, "%s", why);
	}
out:
	if (p.in)
		for (i = 0; i < op_cnt; i++)
			free(p.in[i]);
	free(p.in);
	free(p.leader);
	free(p.visits);
	free(p.work);
	free(p.queued);
	return ret;
}
