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
		if (op->opcode != HXU_OP_MOVI && !(op->opcode == HXU_OP_MOV && (op->flags & HXU_F_K)))
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
	case HXU_OP_TINDEX:
	case HXU_OP_REDIR:
		fx->reads |= 1u << op->rs;
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
	}
	fx->reads = fx->writes = ~0u;
}

static bool may_overlap(const struct access *a, const struct access *b)
{
	if (a->space != b->space)
		return false;
	if (a->base == BASE_ALL || b->base == BASE_ALL || a->base != b->base)
		return true;
	return a->off < b->off + (int64_t)b->size && b->off < a->off + (int64_t)a->size;
}

enum dep { DEP_NONE, DEP_AFTER, DEP_LATER };

/* How late operation b (after a in program order) must go relative to a. */
static enum dep dependence(const struct effects *a, const struct effects *b)
{
	enum dep d = DEP_NONE;

	if ((b->reads & a->writes) || (b->writes & a->writes))
		return DEP_LATER;
	if (b->writes & a->reads)
		d = DEP_AFTER;
	for (int i = 0; i < a->mem_cnt; i++) {
		for (int j = 0; j < b->mem_cnt; j++) {
			if (!may_overlap(&a->mem[i], &b->mem[j]))
				continue;
			if (a->mem[i].write)
				return DEP_LATER;
			if (b->mem[j].write)
				d = DEP_AFTER;
		}
	}
	return d;
}

/* Whether op may run before a branch it follows: it only writes registers
 * (dead where the branch goes) and cannot fault. */
static bool speculable(const struct hxu_op *op, const struct effects *fx, uint16_t dead)
{
	uint8_t kind = hxu_mem_kind(op->opcode);

	if (fx->mem_cnt && !(hxu_opcode_class(op->opcode) == HXU_CLASS_M && kind == HXU_OP_LD &&
			     hxu_mem_space(op->opcode) == HXU_SPACE_LM && op->rs == HXU_REG_FP))
		return false;
	if (hxu_opcode_class(op->opcode) != HXU_CLASS_A && op->opcode != HXU_OP_CTX &&
	    hxu_opcode_class(op->opcode) != HXU_CLASS_M)
		return false;
	return !(fx->writes & ~(uint32_t)dead);
}

static int schedule_block(struct hxu_op *ops, size_t first, size_t n, uint32_t *order,
			  struct effects *fx, uint32_t *bundle, uint8_t *fill, const uint16_t *dead)
{
	uint32_t last = 0, bundles = 0;
	size_t i, j, k = first;

	for (i = 0; i < n; i++)
		effects_of(&ops[first + i], &fx[i]);
	for (i = 0; i < n; i++) {
		uint32_t b = 0;

		for (j = 0; j < i; j++) {
			enum dep d = fx[i].control ? DEP_AFTER : dependence(&fx[j], &fx[i]);

			if (fx[i].control && dependence(&fx[j], &fx[i]) == DEP_LATER)
				d = DEP_LATER;
			/* A branch this operation follows: before it or in its
			 * bundle (ahead of it) only when that is harmless. */
			if (fx[j].control && (fx[i].control || d != DEP_NONE ||
					      !speculable(&ops[first + i], &fx[i],
							  dead[first + j])))
				d = DEP_LATER;
			if (d == DEP_LATER && bundle[j] + 1 > b)
				b = bundle[j] + 1;
			else if (d == DEP_AFTER && bundle[j] > b)
				b = bundle[j];
		}
		/* The block's first operation is where jumps land: it must open
		 * its bundle, so nothing may join a branch standing there. */
		if (i && fx[0].control && b < 1)
			b = 1;
		while (fill[b] == HXU_BUNDLE_MAX)
			b++;
		bundle[i] = b;
		fill[b]++;
		if (b > last)
			last = b;
		bundles = last + 1;
	}
	/* Emit bundle by bundle, each in program order but for its control
	 * operation, which goes last. */
	for (uint32_t b = 0; b < bundles; b++) {
		size_t at = 0, control = n;

		for (i = 0; i < n; i++) {
			if (bundle[i] != b)
				continue;
			if (fx[i].control) {
				control = i;
				continue;
			}
			ops[first + i].end = ++at == fill[b];
			order[k++] = (uint32_t)(first + i);
		}
		if (control < n) {
			ops[first + control].end = true;
			order[k++] = (uint32_t)(first + control);
		}
	}
	memset(fill, 0, bundles);
	return 0;
}

int hxu_schedule(struct hxu_op *ops, const bool *leader, const uint16_t *dead, size_t n,
		 uint32_t *order)
{
	struct effects *fx = calloc(n ? n : 1, sizeof(*fx));
	uint32_t *bundle = calloc(n ? n : 1, sizeof(*bundle));
	uint8_t *fill = calloc(n + 1, 1);
	size_t start = 0, i;

	if (!fx || !bundle || !fill) {
		free(fx);
		free(bundle);
		free(fill);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		bool cond = ops[i].opcode == HXU_OP_BR || ops[i].opcode == HXU_OP_BRI;
		/* A conditional branch's fall-through continues its block
		 * (a superblock) unless something else jumps there. */
		bool ends = (hxu_op_is_control(ops[i].opcode) && !cond) || i + 1 == n ||
			    leader[i + 1];

		if (!ends)
			continue;
		schedule_block(ops, start, i + 1 - start, order, fx, bundle, fill, dead);
		start = i + 1;
	}
	free(fx);
	free(bundle);
	free(fill);
	return 0;
}
