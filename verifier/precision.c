// SPDX-License-Identifier: GPL-2.0
/*
 * Precision: which scalars of a stored state some path from it depended
 * on. Pruning compares only those by their bounds (state.c); any other
 * scalar of a stored state covers any scalar.
 *
 * A scalar's value is depended on where the walk decided something by it:
 * a branch taken or not taken by the bounds (only one side walked), a
 * pointer moved by it, a helper, kfunc or function argument (sizes, NULL,
 * flags and indices the facts give the translator), a constant map key.
 * There the register is marked, and the mark is carried backwards along the
 * path: through the instructions that made the value (r1 = r2 + r3 needs
 * r2 and r3; r1 = 5 needs nothing; a fill needs its stack slot, a spill the
 * register it stored), to the stored states the path passed, which get the
 * mark, and on through the instructions that led to them, until nothing is
 * needed any more or a state already has the mark (its ancestors then
 * have what it needs). A path cut by a covering state depended on what the
 * paths below that state depended on: the cover's marks are carried up the
 * cut path the same way.
 *
 * Each state keeps the instructions it walked since its last stored state
 * (vstate.hist), with the stack slot a load or store touched and, for a
 * conditional jump, the registers linked to its operands (the jump narrows
 * them too). Where that record is missing or ambiguous (too long a
 * segment, a variable-offset stack read) every scalar of every stored state
 * on the path is marked: pruning is then as strict as without precision.
 */
#include <stdlib.h>
#include <string.h>

#include "verifier/verifier_internal.h"

/* Instructions recorded per segment before the record is given up: a
 * longer segment (where the caps stop storing states) would make each walk
 * back as long. */
#define HIST_MAX 4096

/* Registers and stack slots, per frame, whose value is needed. */
struct needed {
	uint16_t regs[MAX_CALL_FRAMES];
	uint64_t slots[MAX_CALL_FRAMES];
};

static bool needed_none(const struct needed *n)
{
	for (int i = 0; i < MAX_CALL_FRAMES; i++)
		if (n->regs[i] || n->slots[i])
			return false;
	return true;
}

static bool needed_slots(const struct needed *n)
{
	for (int i = 0; i < MAX_CALL_FRAMES; i++)
		if (n->slots[i])
			return true;
	return false;
}

static bool needed_beyond(const struct needed *n, uint32_t frame)
{
	for (int i = 0; i < MAX_CALL_FRAMES; i++)
		if (i != (int)frame && (n->regs[i] || n->slots[i]))
			return true;
	return false;
}

static bool spilled_scalar(const struct stack_slot *s)
{
	return s->spill_size && s->byte[0] == STACK_SPILL && s->spill.type == SCALAR_VALUE;
}

int precise_note_insn(struct verifier_env *env, uint32_t idx)
{
	struct vstate *st = env->cur;
	struct hist_entry *h;

	if (st->hist_lost)
		return 0;
	if (st->hist_cnt == HIST_MAX) {
		st->hist_lost = true;
		return 0;
	}
	if (st->hist_cnt == st->hist_cap) {
		uint32_t cap = st->hist_cap ? st->hist_cap * 2 : 32;

		h = realloc(st->hist, cap * sizeof(*h));
		if (!h)
			return -ENOMEM;
		st->hist = h;
		st->hist_cap = cap;
	}
	h = &st->hist[st->hist_cnt++];
	memset(h, 0, sizeof(*h));
	h->idx = idx;
	h->frame = (uint8_t)st->curframe;
	return 0;
}

static struct hist_entry *last_entry(struct verifier_env *env)
{
	struct vstate *st = env->cur;

	return st->hist_lost || !st->hist_cnt ? NULL : &st->hist[st->hist_cnt - 1];
}

void precise_note_stack(struct verifier_env *env, uint32_t frameno, int64_t lo, int size, bool var)
{
	struct hist_entry *h = last_entry(env);

	if (!h)
		return;
	if (var) {
		h->flags |= HIST_STACK_VAR;
		return;
	}
	h->flags |= HIST_STACK;
	h->stack_frame = (uint8_t)frameno;
	h->slot = (uint8_t)((uint64_t)(-lo - 1) / 8);
	h->byte = (uint8_t)(lo + 8 * (h->slot + 1));
	h->size = (uint8_t)size;
}

void precise_note_callback_exit(struct verifier_env *env)
{
	struct hist_entry *h = last_entry(env);

	if (h)
		h->flags |= HIST_CALLBACK_EXIT;
}

void precise_note_links(struct verifier_env *env, uint32_t id_a, uint32_t id_b)
{
	struct hist_entry *h = last_entry(env);
	const struct vstate *st = env->cur;

	if (!h || (!id_a && !id_b))
		return;
	for (uint32_t f = 0; f <= st->curframe; f++) {
		const struct func_state *fr = st->frame[f];

		for (uint32_t r = 0; r < MAX_BPF_REG; r++) {
			const struct reg_state *reg = &fr->regs[r];

			if (reg->type != SCALAR_VALUE || !reg->id ||
			    (reg->id != id_a && reg->id != id_b))
				continue;
			if (f == st->curframe)
				h->linked |= (uint16_t)(1u << r);
			else
				h->flags |= HIST_LINKED_ELSEWHERE;
		}
		for (uint32_t i = 0; i < fr->slot_cnt; i++) {
			const struct stack_slot *s = &fr->stack[i];

			if (spilled_scalar(s) && s->spill.id &&
			    (s->spill.id == id_a || s->spill.id == id_b))
				h->flags |= HIST_LINKED_ELSEWHERE;
		}
	}
}

void precise_reset(struct vstate *st)
{
	st->all_precise = false;
	for (uint32_t f = 0; f <= st->curframe; f++) {
		struct func_state *fr = st->frame[f];

		for (uint32_t r = 0; r < MAX_BPF_REG; r++)
			fr->regs[r].precise = 0;
		for (uint32_t i = 0; i < fr->slot_cnt; i++)
			fr->stack[i].spill.precise = 0;
	}
}

/* The record is not enough: every scalar of the stored states from st up
 * (up to one marked so before: its ancestors were too). */
static void mark_all(struct vstate *st)
{
	for (; st && !st->all_precise; st = st->parent) {
		st->all_precise = true;
		for (uint32_t f = 0; f <= st->curframe; f++) {
			struct func_state *fr = st->frame[f];

			for (uint32_t r = 0; r < MAX_BPF_REG; r++)
				if (fr->regs[r].type == SCALAR_VALUE)
					fr->regs[r].precise = 1;
			for (uint32_t i = 0; i < fr->slot_cnt; i++)
				if (spilled_scalar(&fr->stack[i]))
					fr->stack[i].spill.precise = 1;
		}
	}
}

/*
 * What was needed before instruction h, given what is needed after it (n).
 * later is the frame the instruction after h ran in. False when the record
 * cannot tell.
 */
static bool backtrack_insn(const struct verifier_env *env, const struct hist_entry *h,
			   uint32_t later, struct needed *n)
{
	const struct bpf_insn *insn = &env->insns[h->idx];
	uint8_t cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);
	uint32_t f = h->frame;
	uint16_t *regs = &n->regs[f];
	uint16_t dst = (uint16_t)(1u << insn->dst_reg), src = (uint16_t)(1u << insn->src_reg);
	uint64_t slot = 1ull << h->slot;
	bool x = BPF_SRC(insn->code) == BPF_X;

	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		if (!(*regs & dst))
			return true;
		if (op == BPF_MOV) {
			*regs &= (uint16_t)~dst;
			if (x)
				*regs |= src;
		} else if (x && op != BPF_NEG && op != BPF_END) {
			*regs |= src;
		}
		return true;
	case BPF_LD: /* ld_imm64: a constant or a pointer */
		*regs &= (uint16_t)~dst;
		return true;
	case BPF_LDX:
		if (!(*regs & dst))
			return true;
		*regs &= (uint16_t)~dst;
		if (h->flags & HIST_STACK_VAR)
			return false;
		if (h->flags & HIST_STACK)
			n->slots[h->stack_frame] |= slot;
		return true;
	case BPF_ST:
	case BPF_STX:
		if (BPF_MODE(insn->code) == BPF_ATOMIC) {
			uint16_t regs_in = src | (insn->imm == BPF_CMPXCHG ? 1u : 0u);

			if ((*regs & regs_in) || needed_slots(n)) {
				*regs |= regs_in;
				if (h->flags & HIST_STACK)
					n->slots[h->stack_frame] |= slot;
			}
			return true;
		}
		if (h->flags & HIST_STACK_VAR) {
			if (cls == BPF_STX && needed_slots(n))
				*regs |= src;
			return true;
		}
		if (!(h->flags & HIST_STACK) || !(n->slots[h->stack_frame] & slot))
			return true;
		/* a store at the start of a slot replaces its spill: the
		 * value stored is what was needed; one beside it, as well */
		if (h->byte == 0 || h->size == 8)
			n->slots[h->stack_frame] &= ~slot;
		if (cls == BPF_STX)
			*regs |= src;
		return true;
	case BPF_JMP:
	case BPF_JMP32:
		break;
	default:
		return false;
	}
	if (op == BPF_CALL) {
		if (insn->src_reg == BPF_PSEUDO_CALL && later == f + 1) {
			/* into the callee: its arguments were the caller's */
			*regs = (uint16_t)((*regs & ~0x3fu) | (n->regs[f + 1] & 0x3eu));
			n->regs[f + 1] = 0;
			n->slots[f + 1] = 0;
			return true;
		}
		if (!insn->src_reg && later == f + 1) {
			/* into a callback: its context was the caller's R3, and
			 * the caller's registers stay for the call made again
			 * at the callback's exit */
			uint32_t ctx = insn->imm == BPF_FUNC_loop ? BPF_REG_2 : BPF_REG_4;

			if (n->regs[f + 1] & (1u << ctx))
				*regs |= 1u << BPF_REG_3;
			n->regs[f + 1] = 0;
			n->slots[f + 1] = 0;
			return true;
		}
		/* a helper, kfunc or global function: R0 its result, R1-R5
		 * clobbered */
		*regs &= (uint16_t)~0x3fu;
		return true;
	}
	if (op == BPF_EXIT && (h->flags & HIST_CALLBACK_EXIT)) {
		/* back to the helper call, whose caller's registers are as
		 * they were: R0 was checked at the exit, on its own */
		n->regs[f] = 0;
		n->slots[f] = 0;
		return true;
	}
	if (op == BPF_EXIT) {
		if (f && later == f - 1) {
			uint16_t r0 = n->regs[f - 1] & 1u;

			n->regs[f - 1] &= (uint16_t)~0x3fu;
			n->regs[f] = r0;
			n->slots[f] = 0;
		}
		return true;
	}
	if (op == BPF_JA)
		return true;
	/* a conditional jump narrows its operands by each other, and the
	 * registers linked to them */
	{
		uint16_t ops = (uint16_t)(dst | (x ? src : 0));

		if ((*regs & (ops | h->linked)) ||
		    ((h->flags & HIST_LINKED_ELSEWHERE) && needed_beyond(n, f)) ||
		    ((h->flags & HIST_LINKED_ELSEWHERE) && n->slots[f]))
			*regs |= ops | h->linked;
	}
	return true;
}

/*
 * Marks in st what n needs, and takes out of n what st already had marked
 * or what is no scalar there (a pointer's state is compared whole). False
 * when n names a frame st does not have.
 */
static bool mark_state(struct vstate *st, struct needed *n)
{
	for (uint32_t f = 0; f < MAX_CALL_FRAMES; f++) {
		struct func_state *fr;
		uint64_t s;

		if (f > st->curframe) {
			if (n->regs[f] || n->slots[f])
				return false;
			continue;
		}
		fr = st->frame[f];
		for (uint32_t r = 0; r < MAX_BPF_REG; r++) {
			struct reg_state *reg = &fr->regs[r];

			if (!(n->regs[f] & (1u << r)))
				continue;
			if (reg->type == SCALAR_VALUE && !reg->precise)
				reg->precise = 1;
			else
				n->regs[f] &= (uint16_t) ~(1u << r);
		}
		for (s = n->slots[f]; s; s &= s - 1) {
			uint32_t i = (uint32_t)__builtin_ctzll(s);

			if (i < fr->slot_cnt && spilled_scalar(&fr->stack[i]) &&
			    !fr->stack[i].spill.precise)
				fr->stack[i].spill.precise = 1;
			else
				n->slots[f] &= ~(1ull << i);
		}
	}
	return true;
}

/* Carries n back from the end of the current path (skipping its last
 * skip instructions, the one being checked) through its stored states. */
static void backtrack(struct verifier_env *env, struct needed *n, uint32_t skip)
{
	struct vstate *st = env->cur;
	uint32_t later = st->curframe, cnt;

	if (needed_none(n))
		return;
	if (st->hist_lost) {
		mark_all(st->parent);
		return;
	}
	cnt = st->hist_cnt >= skip ? st->hist_cnt - skip : 0;
	if (skip && st->hist_cnt)
		later = st->hist[st->hist_cnt - 1].frame;
	for (;;) {
		for (uint32_t i = cnt; i-- > 0;) {
			const struct hist_entry *h = &st->hist[i];

			if (!backtrack_insn(env, h, later, n)) {
				mark_all(st->parent);
				return;
			}
			later = h->frame;
			if (needed_none(n))
				return;
		}
		st = st->parent;
		if (!st)
			return;
		if (!mark_state(st, n)) {
			mark_all(st);
			return;
		}
		if (needed_none(n))
			return;
		if (st->hist_lost) {
			mark_all(st->parent);
			return;
		}
		later = st->curframe;
		cnt = st->hist_cnt;
	}
}

void precise_mark_regs(struct verifier_env *env, uint16_t regs)
{
	const struct func_state *fr = cur_frame(env);
	struct needed n;

	memset(&n, 0, sizeof(n));
	for (uint32_t r = 0; r < BPF_REG_FP; r++)
		if ((regs & (1u << r)) && fr->regs[r].type == SCALAR_VALUE)
			n.regs[env->cur->curframe] |= (uint16_t)(1u << r);
	backtrack(env, &n, 1);
}

void precise_mark_slots(struct verifier_env *env, uint32_t frameno, uint64_t slots)
{
	struct needed n;

	memset(&n, 0, sizeof(n));
	n.slots[frameno] = slots;
	backtrack(env, &n, 1);
}

void precise_propagate(struct verifier_env *env, const struct vstate *old, bool all)
{
	struct needed n;

	memset(&n, 0, sizeof(n));
	for (uint32_t f = 0; f <= old->curframe; f++) {
		const struct func_state *fr = old->frame[f];

		for (uint32_t r = 0; r < BPF_REG_FP; r++)
			if (fr->regs[r].type == SCALAR_VALUE && (all || fr->regs[r].precise))
				n.regs[f] |= (uint16_t)(1u << r);
		for (uint32_t i = 0; i < fr->slot_cnt; i++)
			if (spilled_scalar(&fr->stack[i]) && (all || fr->stack[i].spill.precise))
				n.slots[f] |= 1ull << i;
	}
	backtrack(env, &n, 0);
}
