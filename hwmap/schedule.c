// SPDX-License-Identifier: GPL-2.0
/*
 * List scheduling, one basic block at a time, in program order: each
 * operation goes into the earliest bundle its dependences on the block's
 * earlier operations allow that still has room, after the operations
 * already there. A true or output dependence (a register, the frame's
 * bounds or memory written by one and read or written by the other) needs
 * a later bundle; an anti dependence (a later write of what an earlier
 * operation reads) only a place after it, since a bundle executes in its
 * order. Memory follows the device's conservative rules (device/engine.c):
 * accesses to one space through different bases may overlap, and the units
 * that write a space write all of it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hwmap/schedule.h"
#include "hwmap/work.h"

#define RES_FRAME (1u << 16)
#define BASE_ALL  0xff

struct access {
	uint8_t space, base;
	bool write;
	int64_t off;
	uint32_t size;
};

struct effects {
	uint32_t reads, writes;
	struct access mem[3];
	int mem_cnt;
	bool control;
};

static void add(struct effects *fx, unsigned int space, uint8_t base, int64_t off, uint32_t size,
		bool write)
{
	fx->mem[fx->mem_cnt++] = (struct access){ (uint8_t)space, base, write, off, size };
}

/* What an operation touches: the same as the device's check says, or more. */
static void effects_of(const struct hxu_op *op, struct effects *fx)
{
	uint8_t kind;
	unsigned int space, size;

	memset(fx, 0, sizeof(*fx));
	fx->control = hxu_op_is_control(op->opcode);
	switch (hxu_opcode_class(op->opcode)) {
	case HXU_CLASS_A:
		if (op->opcode != HXU_OP_MOVI &&
		    !(op->opcode == HXU_OP_MOV && (op->flags & HXU_F_K)))
			fx->reads |= 1u << op->rs;
		if (op->opcode < HXU_OP_NEG && !(op->flags & HXU_F_K))
			fx->reads |= 1u << op->rt;
		fx->writes |= 1u << op->rd;
		return;
	case HXU_CLASS_M:
		kind = hxu_mem_kind(op->opcode);
		space = hxu_mem_space(op->opcode);
		size = hxu_mem_size(op->flags);
		fx->reads |= 1u << op->rs;
		if (kind == HXU_OP_LD || kind == HXU_OP_LDSX) {
			fx->writes |= 1u << op->rd;
			add(fx, space, op->rs, op->imm, size, false);
		} else if (kind == HXU_OP_ST || kind == HXU_OP_STI) {
			if (kind == HXU_OP_ST)
				fx->reads |= 1u << op->rt;
			add(fx, space, op->rs, op->imm, size, true);
		} else {
			fx->reads |= 1u << op->rt | 1u << op->rd;
			if (op->flags & HXU_F_FETCH)
				fx->writes |= 1u << op->rd;
			add(fx, space, op->rs, op->imm, size, false);
			add(fx, space, op->rs, op->imm, size, true);
		}
		return;
	case HXU_CLASS_C:
		/* The operations before a control operation in its bundle
		 * complete before it transfers control, so it depends only on
		 * what it reads itself, as the device's check has it. */
		switch (op->opcode) {
		case HXU_OP_BR:
			fx->reads |= 1u << op->rt;
			/* fallthrough */
		case HXU_OP_BRI:
		case HXU_OP_TCALL:
			fx->reads |= 1u << op->rs;
			break;
		case HXU_OP_EXIT:
			fx->reads |= 1u;
			break;
		case HXU_OP_LCHK:
			fx->reads |= RES_FRAME;
			if (op->flags & HXU_F_LCHK_REG)
				fx->reads |= 1u << op->rs;
			break;
		}
		return;
	case HXU_CLASS_U:
		break;
	default:
		fx->reads = fx->writes = ~0u;
		add(fx, HXU_SPACE_PKT, BASE_ALL, 0, 0, true);
		add(fx, HXU_SPACE_LM, BASE_ALL, 0, 0, true);
		add(fx, HXU_SPACE_TM, BASE_ALL, 0, 0, true);
		return;
	}
	switch (op->opcode) {
	case HXU_OP_TLOOKUP:
	case HXU_OP_TDELETE:
	case HXU_OP_TUPDATE:
		fx->reads |= 1u << op->rs;
		fx->writes |= 1u << op->rd;
		add(fx, op->flags & 3, BASE_ALL, 0, 0, false);
		if (op->opcode == HXU_OP_TUPDATE) {
			fx->reads |= 1u << op->rt;
			add(fx, ((uint32_t)op->imm >> HXU_TUPDATE_VSPACE_SHIFT) & 3, BASE_ALL, 0, 0,
			    false);
		}
		if (op->opcode != HXU_OP_TLOOKUP)
			add(fx, HXU_SPACE_TM, BASE_ALL, 0, 0, true);
		return;
	case HXU_OP_TLOOKUPR:
	case HXU_OP_TDELETER:
	case HXU_OP_TUPDATER:
		fx->reads |= 1u << op->rs | 1u << op->rt | 1u << hxu_handle_reg(op);
		fx->writes |= 1u << op->rd;
		add(fx, op->flags & 3, BASE_ALL, 0, 0, false);
		if (op->opcode == HXU_OP_TUPDATER)
			add(fx, ((uint32_t)op->imm >> HXU_TUPDATE_VSPACE_SHIFT) & 3, BASE_ALL, 0, 0,
			    false);
		if (op->opcode != HXU_OP_TLOOKUPR)
			add(fx, HXU_SPACE_TM, BASE_ALL, 0, 0, true);
		return;
	case HXU_OP_TINDEX:
	case HXU_OP_REDIR:
		fx->reads |= 1u << op->rs;
		if (op->opcode == HXU_OP_REDIR && op->imm == HXU_REDIR_FLAGS_RT)
			fx->reads |= 1u << op->rt;
		fx->writes |= 1u << op->rd;
		return;
	case HXU_OP_HADJ:
	case HXU_OP_MADJ:
	case HXU_OP_TADJ:
	case HXU_OP_ESP:
		fx->reads |= 1u << op->rs | 1u << op->rt | RES_FRAME;
		fx->writes |= 1u << op->rd | RES_FRAME;
		add(fx, HXU_SPACE_PKT, BASE_ALL, 0, 0, false);
		add(fx, HXU_SPACE_PKT, BASE_ALL, 0, 0, true);
		return;
	case HXU_OP_CSUM16:
		fx->reads |= 1u << op->rs | 1u << op->rt;
		add(fx, HXU_SPACE_PKT, op->rs, op->imm, 2, false);
		add(fx, HXU_SPACE_PKT, op->rs, op->imm, 2, true);
		return;
	case HXU_OP_PUNT:
		return;
	case HXU_OP_TIME:
	case HXU_OP_RAND:
	case HXU_OP_CPU:
		fx->writes |= 1u << op->rd;
		return;
	case HXU_OP_CTX:
		fx->writes |= 1u << op->rd;
		fx->reads |= RES_FRAME;
		return;
	case HXU_OP_REDIRIF:
		fx->reads |= 1u << op->rs | 1u << op->rt;
		fx->writes |= 1u << op->rd;
		return;
	case HXU_OP_CSUMD:
		fx->reads |= 0x3eu; /* r1..r5 */
		fx->writes |= 1u << op->rd;
		add(fx, op->x & 3, BASE_ALL, 0, 0, false);
		add(fx, op->x >> HXU_CSUMD_TO_SHIFT, BASE_ALL, 0, 0, false);
		return;
	}
	fx->reads = fx->writes = ~0u;
}

/* Whether op could run before a branch it follows, whatever is live where
 * the branch goes: it cannot fault and has no effect beyond registers. */
static bool speculable_kind(const struct hxu_op *op, const struct effects *fx)
{
	uint8_t kind = hxu_mem_kind(op->opcode);

	if (fx->mem_cnt && !(hxu_opcode_class(op->opcode) == HXU_CLASS_M && kind == HXU_OP_LD &&
			     hxu_mem_space(op->opcode) == HXU_SPACE_LM && op->rs == HXU_REG_FP))
		return false;
	return hxu_opcode_class(op->opcode) == HXU_CLASS_A || op->opcode == HXU_OP_CTX ||
	       hxu_opcode_class(op->opcode) == HXU_CLASS_M;
}

/*
 * What the block's operations so far constrain a later one to: per register
 * (and frame bounds bit), the latest bundle that writes it and that reads
 * it, among operations that are not control; per register, the latest
 * branch a write of it may not move above (the branch reads it, or it is
 * live where the branch goes); per space, the latest bundles that write and
 * read it through each base, and per byte through one base. -1: none.
 * Where an operation has to go is then the most of these its reads, writes
 * and accesses name: the same bundle the comparison with every earlier
 * operation gives (dependence() and the rules for branches), found in
 * constant time per operation.
 */
#define BITS  32
#define BASES 256

struct top2 {
	int32_t v1, v2; /* the latest bundle, and the latest through another base */
	int16_t b1;	/* the base of v1, -1 for none */
};

struct by_base {
	uint32_t gen; /* the block it was written in */
	int32_t w, r;
};

struct byte_entry {
	uint32_t gen;
	uint8_t space, base;
	int64_t off;
	int32_t w, r;
};

struct tracker {
	uint32_t gen;
	int32_t last, ctl_any;
	int32_t reg_w[BITS], reg_r[BITS], ctl[BITS];
	struct top2 top_w[HXU_SPACE__MAX + 1], top_r[HXU_SPACE__MAX + 1];
	struct by_base base[HXU_SPACE__MAX + 1][BASES];
	struct byte_entry *bytes;
	size_t bytes_cap;    /* a power of two */
	uint32_t *next_free; /* per bundle: where a search for room goes on */
};

static void top2_add(struct top2 *t, uint8_t base, int32_t v)
{
	if (t->b1 == base) {
		if (v > t->v1)
			t->v1 = v;
	} else if (v > t->v1) {
		t->v2 = t->v1;
		t->v1 = v;
		t->b1 = base;
	} else if (v > t->v2) {
		t->v2 = v;
	}
}

/* The latest through a base other than base (any, for BASE_ALL). */
static int32_t top2_other(const struct top2 *t, uint8_t base)
{
	if (base == BASE_ALL)
		return t->v1;
	return t->b1 == base ? t->v2 : t->v1;
}

static struct byte_entry *byte_slot(struct tracker *tr, uint8_t space, uint8_t base, int64_t off,
				    bool insert)
{
	uint64_t h = ((uint64_t)off * 0x9e3779b97f4a7c15ull) ^
		     ((uint64_t)space << 8 | base) * 0xc2b2ae3d27d4eb4full;
	size_t mask = tr->bytes_cap - 1;

	for (size_t i = (size_t)(h >> 17) & mask;; i = (i + 1) & mask) {
		struct byte_entry *e = &tr->bytes[i];

		hxu_work_add(1);
		if (e->gen != tr->gen) {
			if (!insert)
				return NULL;
			*e = (struct byte_entry){ tr->gen, space, base, off, -1, -1 };
			return e;
		}
		if (e->space == space && e->base == base && e->off == off)
			return e;
	}
}

static int32_t max32(int32_t a, int32_t b)
{
	return a > b ? a : b;
}

/* The earliest bundle access a may go to after the block's accesses so far. */
static int32_t access_bound(struct tracker *tr, const struct access *a)
{
	const struct by_base *bb = &tr->base[a->space][a->base];
	int32_t b = 0, w, r;

	w = top2_other(&tr->top_w[a->space], a->base);
	r = top2_other(&tr->top_r[a->space], a->base);
	if (a->base != BASE_ALL && bb->gen == tr->gen) {
		for (int64_t o = a->off; o < a->off + (int64_t)a->size; o++) {
			const struct byte_entry *e = byte_slot(tr, a->space, a->base, o, false);

			if (e) {
				w = max32(w, e->w);
				r = max32(r, e->r);
			}
		}
	}
	b = max32(b, w + 1);
	if (a->write)
		b = max32(b, r);
	return b;
}

static void access_done(struct tracker *tr, const struct access *a, int32_t bundle)
{
	struct by_base *bb = &tr->base[a->space][a->base];

	if (bb->gen != tr->gen)
		*bb = (struct by_base){ tr->gen, -1, -1 };
	if (a->write) {
		bb->w = max32(bb->w, bundle);
		top2_add(&tr->top_w[a->space], a->base, bundle);
	} else {
		bb->r = max32(bb->r, bundle);
		top2_add(&tr->top_r[a->space], a->base, bundle);
	}
	if (a->base == BASE_ALL)
		return;
	for (int64_t o = a->off; o < a->off + (int64_t)a->size; o++) {
		struct byte_entry *e = byte_slot(tr, a->space, a->base, o, true);

		if (a->write)
			e->w = max32(e->w, bundle);
		else
			e->r = max32(e->r, bundle);
	}
}

/* The latest value of v over the bits of mask. */
static int32_t bits_max(const int32_t *v, uint32_t mask)
{
	int32_t m = -1;

	while (mask) {
		m = max32(m, v[__builtin_ctz(mask)]);
		mask &= mask - 1;
	}
	return m;
}

static void bits_set(int32_t *v, uint32_t mask, int32_t bundle)
{
	while (mask) {
		int i = __builtin_ctz(mask);

		v[i] = max32(v[i], bundle);
		mask &= mask - 1;
	}
}

/* The first bundle from b on with room, the full ones skipped for good. */
static uint32_t room_from(struct tracker *tr, const uint8_t *fill, uint32_t b)
{
	uint32_t r = b, next;

	while (fill[r] == HXU_BUNDLE_MAX) {
		hxu_work_add(1);
		r = tr->next_free[r];
	}
	while (fill[b] == HXU_BUNDLE_MAX) {
		next = tr->next_free[b];
		tr->next_free[b] = r;
		b = next;
	}
	return r;
}

static int tracker_reset(struct tracker *tr, const struct effects *fx, size_t n)
{
	size_t need = 16;

	tr->gen++;
	tr->last = tr->ctl_any = -1;
	for (int i = 0; i < BITS; i++)
		tr->reg_w[i] = tr->reg_r[i] = tr->ctl[i] = -1;
	for (int s = 0; s <= HXU_SPACE__MAX; s++)
		tr->top_w[s] = tr->top_r[s] = (struct top2){ -1, -1, -1 };
	for (size_t i = 0; i < n; i++)
		for (int m = 0; m < fx[i].mem_cnt; m++)
			need += 2 * fx[i].mem[m].size;
	if (need > tr->bytes_cap / 2) {
		size_t cap = 64;

		while (cap < 2 * need)
			cap *= 2;
		free(tr->bytes);
		tr->bytes = calloc(cap, sizeof(*tr->bytes));
		if (!tr->bytes)
			return -ENOMEM;
		tr->bytes_cap = cap;
		/* calloc'ed entries are of generation 0, never a block's */
	}
	for (size_t b = 0; b <= n + 1; b++)
		tr->next_free[b] = (uint32_t)b + 1;
	return 0;
}

static int schedule_block(struct hxu_op *ops, size_t first, size_t n, uint32_t *order,
			  struct effects *fx, uint32_t *bundle, uint8_t *fill, const uint16_t *dead,
			  struct tracker *tr, uint32_t *at)
{
	uint32_t last = 0, bundles = 0;
	size_t i, k = first;

	for (i = 0; i < n; i++)
		effects_of(&ops[first + i], &fx[i]);
	if (tracker_reset(tr, fx, n))
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct effects *f = &fx[i];
		int32_t b = 0;

		hxu_work_add(1);
		/* registers: after what wrote them, not before what read them */
		b = max32(b, bits_max(tr->reg_w, f->reads | f->writes) + 1);
		b = max32(b, bits_max(tr->reg_r, f->writes));
		for (int m = 0; m < f->mem_cnt; m++)
			b = max32(b, access_bound(tr, &f->mem[m]));
		if (f->control) {
			/* after everything before it, and a bundle after a branch */
			b = max32(b, tr->last);
			b = max32(b, tr->ctl_any + 1);
		} else if (!speculable_kind(&ops[first + i], f)) {
			b = max32(b, tr->ctl_any + 1);
		} else {
			b = max32(b, bits_max(tr->ctl, f->writes) + 1);
		}
		/* The block's first operation is where jumps land: it must open
		 * its bundle, so nothing may join a branch standing there. */
		if (i && fx[0].control && b < 1)
			b = 1;
		b = (int32_t)room_from(tr, fill, (uint32_t)b);
		bundle[i] = (uint32_t)b;
		fill[b]++;
		if ((uint32_t)b > last)
			last = (uint32_t)b;
		bundles = last + 1;
		tr->last = max32(tr->last, b);
		if (f->control) {
			tr->ctl_any = max32(tr->ctl_any, b);
			bits_set(tr->ctl, f->reads | ~(uint32_t)dead[first + i], b);
			continue;
		}
		bits_set(tr->reg_w, f->writes, b);
		bits_set(tr->reg_r, f->reads, b);
		for (int m = 0; m < f->mem_cnt; m++)
			access_done(tr, &f->mem[m], b);
	}
	/* Emit bundle by bundle, each in program order but for its control
	 * operation, which goes last: at[b] is where bundle b's next goes,
	 * fill[b] how many of it are still to place, the control among them. */
	at[0] = 0;
	for (uint32_t b = 0; b < bundles; b++)
		at[b + 1] = at[b] + fill[b];
	for (i = 0; i < n; i++) {
		uint32_t b = bundle[i];

		if (fx[i].control) {
			ops[first + i].end = true;
			order[k + at[b] + fill[b] - 1] = (uint32_t)(first + i);
			continue;
		}
		ops[first + i].end = --fill[b] == 0;
		order[k + at[b]++] = (uint32_t)(first + i);
	}
	memset(fill, 0, bundles);
	return 0;
}

int hxu_schedule(struct hxu_op *ops, const bool *leader, const uint16_t *dead, size_t n,
		 uint32_t *order)
{
	struct effects *fx = calloc(n ? n : 1, sizeof(*fx));
	uint32_t *bundle = calloc(n ? n : 1, sizeof(*bundle));
	uint32_t *at = calloc(n + 2, sizeof(*at));
	uint8_t *fill = calloc(n + 2, 1);
	struct tracker *tr = calloc(1, sizeof(*tr));
	size_t start = 0, i;
	int err = -ENOMEM;

	if (!fx || !bundle || !at || !fill || !tr)
		goto out;
	tr->next_free = calloc(n + 2, sizeof(*tr->next_free));
	if (!tr->next_free)
		goto out;
	for (i = 0; i < n; i++) {
		bool cond = ops[i].opcode == HXU_OP_BR || ops[i].opcode == HXU_OP_BRI;
		/* A conditional branch's fall-through continues its block
		 * (a superblock) unless something else jumps there. */
		bool ends =
			(hxu_op_is_control(ops[i].opcode) && !cond) || i + 1 == n || leader[i + 1];

		if (!ends)
			continue;
		if (schedule_block(ops, start, i + 1 - start, order, fx, bundle, fill, dead, tr,
				   at))
			goto out;
		start = i + 1;
	}
	err = 0;
out:
	free(fx);
	free(bundle);
	free(at);
	free(fill);
	if (tr) {
		free(tr->bytes);
		free(tr->next_free);
	}
	free(tr);
	return err;
}
