// SPDX-License-Identifier: GPL-2.0
/*
 * Verifier states: copies, the paths still to explore, and pruning.
 *
 * A path is cut when a state stored at the same instruction covers it:
 * every value the current state allows, the stored one allowed too, and the
 * stored state's exploration finished without error, so the current one
 * would as well. Registers that are dead at the instruction, stack slots
 * that no path from the stored state reads before overwriting them (stack
 * liveness, below), and the values of scalars no path from it depended on
 * (precision.c) take no part. Nothing later depends on them, so the facts
 * the stored state's exploration recorded hold for the cut path as well,
 * for every live register's type and pointer, and for every scalar where a
 * check depended on it (elsewhere, facts promise nothing). A stored state whose exploration is
 * still running (branches > 0) cannot cover anything, but when it lies on the current path and
 * equals the current state, the program loops without progress. The one exception is a helper
 * call that calls back: there an earlier visit on the path covers a later one by every scalar
 * and slot, so that the callback's calls converge (state_visit).
 *
 * What keeps it fast: a state is stored where paths meet (jump targets,
 * loop heads among them) and elsewhere once a jump or 8 instructions were
 * walked since the last one was (the kernel waits for 2 jumps and 8
 * instructions, and a path that comes later then walks on past places
 * where it repeats an earlier one); inside a loop only every 5 jumps or 25
 * instructions; and a stored state that keeps failing to cover anything is
 * dropped. A comparison checks first where the last one at the instruction
 * failed. States are recycled, not freed.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "verifier/verifier_internal.h"

/* Stored states per instruction, and in all, beyond which no more are
 * kept: pruning gets weaker there, never wrong. */
#define MAX_STATES_PER_INSN 256
#define MAX_STORED_STATES   32768
/* Walked since the last state was stored, before the next one is. */
#define STORE_AFTER_JMPS  1
#define STORE_AFTER_INSNS 8
/* The same, on a path that came back to one of its own states (a loop). */
#define LOOP_STORE_AFTER_JMPS  5
#define LOOP_STORE_AFTER_INSNS 25
/* Below these, a visit in a loop counts no misses. */
#define LOOP_QUIET_JMPS	 20
#define LOOP_QUIET_INSNS 100
/* Misses per hit (and before the first) after which a state is dropped. */
#define EVICT_MISSES 3

struct vstate *state_new(void)
{
	return calloc(1, sizeof(struct vstate));
}

static void frame_free(struct func_state *frame)
{
	if (!frame)
		return;
	free(frame->stack);
	free(frame);
}

void state_clear(struct vstate *st)
{
	uint32_t i;

	for (i = 0; i < MAX_CALL_FRAMES; i++) {
		frame_free(st->frame[i]);
		st->frame[i] = NULL;
	}
	free(st->hist);
	st->hist = NULL;
	st->hist_cnt = st->hist_cap = 0;
	st->hist_lost = false;
}

void state_free(struct vstate *st)
{
	if (!st)
		return;
	state_clear(st);
	free(st);
}

int frame_grow_stack(struct func_state *frame, uint32_t slots)
{
	struct stack_slot *stack;

	if (slots <= frame->slot_cnt)
		return 0;
	if (slots > frame->slot_cap) {
		stack = realloc(frame->stack, slots * sizeof(*stack));
		if (!stack)
			return -ENOMEM;
		frame->stack = stack;
		frame->slot_cap = slots;
	}
	memset(frame->stack + frame->slot_cnt, 0, (slots - frame->slot_cnt) * sizeof(*stack));
	frame->slot_cnt = slots;
	return 0;
}

struct func_state *frame_new(uint32_t frameno, uint32_t callsite, uint32_t subprog)
{
	struct func_state *frame = calloc(1, sizeof(*frame));
	int i;

	if (!frame)
		return NULL;
	for (i = 0; i < MAX_BPF_REG; i++)
		reg_mark_not_init(&frame->regs[i]);
	reg_mark_known(&frame->regs[BPF_REG_FP], 0);
	frame->regs[BPF_REG_FP].type = PTR_TO_STACK;
	frame->regs[BPF_REG_FP].frameno = frameno;
	frame->frameno = frameno;
	frame->callsite = callsite;
	frame->subprog = subprog;
	return frame;
}

/* Reuses dst's stack when it is large enough: copies are the hot path. */
static int frame_copy(struct func_state **dstp, const struct func_state *src)
{
	struct func_state *dst = *dstp;
	struct stack_slot *stack;
	uint32_t cap;

	if (!dst) {
		dst = calloc(1, sizeof(*dst));
		if (!dst)
			return -ENOMEM;
		*dstp = dst;
	}
	stack = dst->stack;
	cap = dst->slot_cap;
	if (cap < src->slot_cnt) {
		stack = realloc(stack, src->slot_cnt * sizeof(*stack));
		if (!stack)
			return -ENOMEM;
		cap = src->slot_cnt;
	}
	*dst = *src;
	dst->stack = stack;
	dst->slot_cap = cap;
	if (src->slot_cnt)
		memcpy(dst->stack, src->stack, src->slot_cnt * sizeof(*stack));
	return 0;
}

int state_copy(struct vstate *dst, const struct vstate *src)
{
	uint32_t i;
	int err;

	for (i = src->curframe + 1; i < MAX_CALL_FRAMES; i++) {
		frame_free(dst->frame[i]);
		dst->frame[i] = NULL;
	}
	for (i = 0; i <= src->curframe; i++) {
		err = frame_copy(&dst->frame[i], src->frame[i]);
		if (err)
			return err;
	}
	if (dst->hist_cap < src->hist_cnt) {
		struct hist_entry *h = realloc(dst->hist, src->hist_cnt * sizeof(*h));

		if (!h)
			return -ENOMEM;
		dst->hist = h;
		dst->hist_cap = src->hist_cnt;
	}
	if (src->hist_cnt)
		memcpy(dst->hist, src->hist, src->hist_cnt * sizeof(*dst->hist));
	dst->hist_cnt = src->hist_cnt;
	dst->hist_lost = src->hist_lost;
	dst->curframe = src->curframe;
	dst->parent = src->parent;
	dst->branches = src->branches;
	dst->insn_idx = src->insn_idx;
	dst->side_effect = src->side_effect;
	return 0;
}

/*
 * States and stored states of a verification are recycled rather than
 * freed: a path ends and another starts thousands of times, and their
 * frames and stacks are mostly of one size.
 */
static struct vstate *state_take(struct verifier_env *env, const struct vstate *src)
{
	struct vstate *st = env->spare_states;

	if (!st)
		return state_dup(src);
	env->spare_states = st->parent;
	if (state_copy(st, src)) {
		state_free(st);
		return NULL;
	}
	return st;
}

static void state_recycle(struct verifier_env *env, struct vstate *st)
{
	if (!st)
		return;
	st->parent = env->spare_states;
	env->spare_states = st;
}

struct vstate *state_dup(const struct vstate *src)
{
	struct vstate *st = state_new();

	if (!st)
		return NULL;
	if (state_copy(st, src)) {
		state_free(st);
		return NULL;
	}
	return st;
}

/* Ids of the stored state mapped to ids of the current one. */
struct idmap {
	uint32_t cnt;
	struct {
		uint32_t old, cur;
	} map[MAX_CALL_FRAMES * (MAX_BPF_REG + STACK_SLOTS)];
};

/*
 * Registers the stored state knew to be linked must be linked in the
 * current one too. Covering only needs old -> cur to be a function (the
 * current state may link more); equality needs a one-to-one map.
 */
static bool check_ids(struct idmap *idmap, uint32_t old, uint32_t cur, bool exact)
{
	uint32_t i;

	for (i = 0; i < idmap->cnt; i++) {
		if (idmap->map[i].old == old)
			return idmap->map[i].cur == cur;
		if (exact && idmap->map[i].cur == cur)
			return false;
	}
	if (idmap->cnt == sizeof(idmap->map) / sizeof(idmap->map[0]))
		return false;
	idmap->map[idmap->cnt].old = old;
	idmap->map[idmap->cnt].cur = cur;
	idmap->cnt++;
	return true;
}

static bool range_within(const struct reg_state *old, const struct reg_state *cur)
{
	return old->umin <= cur->umin && cur->umax <= old->umax && old->smin <= cur->smin &&
	       cur->smax <= old->smax && old->u32_min <= cur->u32_min &&
	       cur->u32_max <= old->u32_max && old->s32_min <= cur->s32_min &&
	       cur->s32_max <= old->s32_max;
}

/* var_off and the eight bounds: compared in one go when they are equal */
#define VAR_PART_SIZE (offsetof(struct reg_state, u32_max) + sizeof(uint32_t))
_Static_assert(VAR_PART_SIZE == sizeof(struct tnum) + 4 * sizeof(uint64_t) + 4 * sizeof(uint32_t),
	       "the variable part of struct reg_state has no padding");

static bool var_covers(const struct reg_state *old, const struct reg_state *cur, bool exact)
{
	if (!memcmp(old, cur, VAR_PART_SIZE))
		return true;
	return !exact && range_within(old, cur) && tnum_in(old->var_off, cur->var_off);
}

/*
 * How a stored state is compared with the current one: whether it covers
 * it, by the marks of what its paths depended on (precision, stack reads),
 * or by every scalar and slot, for a state whose marks are not complete
 * yet; or whether the two are equal.
 */
enum cmp_mode { CMP_COVER, CMP_COVER_ALL, CMP_EXACT };

static bool regsafe(const struct reg_state *old, const struct reg_state *cur, struct idmap *idmap,
		    enum cmp_mode mode)
{
	bool exact = mode == CMP_EXACT;

	if (old->type == NOT_INIT)
		return !exact || cur->type == NOT_INIT;
	if (old->type != cur->type)
		return false;
	/* no path from old depended on the value: any scalar will do */
	if (old->type == SCALAR_VALUE && !old->precise && mode == CMP_COVER)
		return true;
	if (!var_covers(old, cur, exact))
		return false;
	/* a reference's memory: the same reference, under the map */
	if ((old->ref_obj_id || cur->ref_obj_id) &&
	    (!old->ref_obj_id || !cur->ref_obj_id ||
	     !check_ids(idmap, old->ref_obj_id, cur->ref_obj_id, exact)))
		return false;
	switch (old->type) {
	case SCALAR_VALUE:
		/* an unlinked scalar promises nothing about others */
		if (!old->id)
			return !exact || !cur->id;
		return cur->id && old->off == cur->off && check_ids(idmap, old->id, cur->id, exact);
	case PTR_TO_PACKET:
	case PTR_TO_PACKET_META:
		if (old->off != cur->off)
			return false;
		if (exact || old->range < 0 || cur->range < 0) {
			/* range 0 claims nothing: anything covers it */
			if (old->range != cur->range && (exact || old->range != 0))
				return false;
		} else if (old->range > cur->range) {
			return false;
		}
		return check_ids(idmap, old->id, cur->id, exact);
	case PTR_TO_MEM:
	case PTR_TO_MEM_OR_NULL:
		return old->off == cur->off && old->mem_size == cur->mem_size &&
		       old->mem_flags == cur->mem_flags &&
		       (old->dynptr_id ? cur->dynptr_id && check_ids(idmap, old->dynptr_id,
								     cur->dynptr_id, exact)
				       : !cur->dynptr_id) &&
		       check_ids(idmap, old->id, cur->id, exact);
	case PTR_TO_SOCKET_OR_NULL:
	case PTR_TO_SOCK_COMMON_OR_NULL:
		return check_ids(idmap, old->id, cur->id, exact);
	case PTR_TO_BTF_ID:
	case PTR_TO_BTF_ID_OR_NULL:
		return old->off == cur->off && old->btf_id == cur->btf_id &&
		       old->mem_flags == cur->mem_flags &&
		       (old->type == PTR_TO_BTF_ID || check_ids(idmap, old->id, cur->id, exact));
	case PTR_TO_MAP_VALUE_OR_NULL:
	case CONST_PTR_TO_MAP_OR_NULL:
		return old->off == cur->off && old->map == cur->map &&
		       check_ids(idmap, old->id, cur->id, exact);
	case PTR_TO_MAP_VALUE:
	case PTR_TO_MAP_KEY:
	case CONST_PTR_TO_MAP:
		return old->off == cur->off && old->map == cur->map;
	case PTR_TO_STACK:
		return old->off == cur->off && old->frameno == cur->frameno;
	case PTR_TO_FUNC:
		return old->map == cur->map;
	default:
		return old->off == cur->off;
	}
}

static const struct stack_slot empty_slot;

/*
 * Where root reads bytes never written as unknown ones (check.c), unknown
 * bytes cover them too: uninit_ok.
 */
static bool slot_safe(const struct stack_slot *os, const struct stack_slot *cs, struct idmap *idmap,
		      enum cmp_mode mode, bool uninit_ok)
{
	bool exact = mode == CMP_EXACT;
	uint64_t ob, cb;
	int b;

	memcpy(&ob, os->byte, 8);
	memcpy(&cb, cs->byte, 8);
	/* eight bytes never written (STACK_INVALID is 0) cover anything */
	if (!exact && !ob)
		return true;
	if (ob != cb) {
		if (exact)
			return false;
		for (b = 0; b < 8; b++) {
			uint8_t o = os->byte[b], c = cs->byte[b];

			if (o == c || o == STACK_INVALID)
				continue;
			/* unknown bytes cover zeroes and spilled scalars */
			if (o == STACK_MISC &&
			    (c == STACK_ZERO || (c == STACK_INVALID && uninit_ok) ||
			     (c == STACK_SPILL && cs->spill.type == SCALAR_VALUE)))
				continue;
			return false;
		}
	}
	/* a dynptr: the same kind and slot, made by the same call as far as
	 * the ids tell, holding the same reference */
	if (os->byte[0] == STACK_ITER)
		return cs->byte[0] == STACK_ITER && os->iter == cs->iter &&
		       check_ids(idmap, os->spill.ref_obj_id, cs->spill.ref_obj_id, exact);
	if (os->byte[0] == STACK_DYNPTR)
		return cs->byte[0] == STACK_DYNPTR && os->dynptr == cs->dynptr &&
		       os->dynptr_first == cs->dynptr_first &&
		       check_ids(idmap, os->spill.id, cs->spill.id, exact) &&
		       (os->spill.ref_obj_id
				? cs->spill.ref_obj_id && check_ids(idmap, os->spill.ref_obj_id,
								    cs->spill.ref_obj_id, exact)
				: !cs->spill.ref_obj_id);
	return !os->spill_size || os->byte[0] != STACK_SPILL ||
	       (cs->spill_size == os->spill_size && regsafe(&os->spill, &cs->spill, idmap, mode));
}

static const struct stack_slot *slot_or_empty(const struct func_state *frame, uint32_t i)
{
	return i < frame->slot_cnt ? &frame->stack[i] : &empty_slot;
}

/*
 * Covering compares only the slots a path from the stored state reads
 * before it overwrites them; equality compares them all. On failure, *bad
 * is the first slot that differs.
 */
static bool stacksafe(const struct func_state *old, const struct func_state *cur,
		      struct idmap *idmap, enum cmp_mode mode, bool reads_all, bool uninit_ok,
		      uint32_t *bad)
{
	uint32_t n = old->slot_cnt > cur->slot_cnt ? old->slot_cnt : cur->slot_cnt;
	bool exact = mode == CMP_EXACT;
	uint64_t live = mode == CMP_COVER && !reads_all ? old->stack_read : UINT64_MAX;
	uint32_t i;

	if (n < 64)
		live &= (1ull << n) - 1;
	for (; live; live &= live - 1) {
		const struct stack_slot *os, *cs;
		uint64_t ob, cb;

		i = __builtin_ctzll(live);
		os = slot_or_empty(old, i);
		cs = slot_or_empty(cur, i);

		/* the common case, the same bytes and no spill, without a call */
		memcpy(&ob, os->byte, 8);
		memcpy(&cb, cs->byte, 8);
		if ((ob == cb || (!exact && !ob)) && os->byte[0] != STACK_SPILL &&
		    os->byte[0] != STACK_DYNPTR && os->byte[0] != STACK_ITER)
			continue;
		if (!slot_safe(os, cs, idmap, mode, uninit_ok)) {
			*bad = i;
			return false;
		}
	}
	return true;
}

/*
 * Registers read after the call returns to frame i's caller: r6-r9, r10;
 * for a callback, which returns to its helper call, the call's arguments
 * as well.
 */
static uint16_t frame_live(const struct verifier_env *env, const struct vstate *st, uint32_t i,
			   uint32_t insn)
{
	const struct func_state *callee;

	if (i == st->curframe)
		return env->aux[insn].live_in | 1u << BPF_REG_FP;
	callee = st->frame[i + 1];
	if (callee->in_callback)
		return (env->aux[callee->callsite].live_in & 0x3fe) | 1u << BPF_REG_FP;
	return (env->aux[callee->callsite + 1].live_in & 0x3c0) | 1u << BPF_REG_FP;
}

/*
 * Where the last comparison at an instruction failed: a register of the
 * innermost frame, or PRUNE_HINT_SLOT + a stack slot of it. Stored states
 * at one instruction mostly differ in the same place, so checking it first
 * rejects most of them at the cost of one register.
 */
#define PRUNE_HINT_SLOT 16

static bool component_safe(const struct func_state *of, const struct func_state *cf, uint32_t hint,
			   uint16_t live, struct idmap *idmap, bool reads_all, bool uninit_ok)
{
	if (hint < MAX_BPF_REG)
		return !(live & (1u << hint)) ||
		       regsafe(&of->regs[hint], &cf->regs[hint], idmap, CMP_COVER);
	hint -= PRUNE_HINT_SLOT;
	return (!reads_all && !(of->stack_read & (1ull << hint))) ||
	       slot_safe(slot_or_empty(of, hint), slot_or_empty(cf, hint), idmap, CMP_COVER,
			 uninit_ok);
}

/*
 * The references a path holds, as the kernel compares them: the same
 * number, each of the stored state's mapped to the current one's in the
 * same place, through the map the registers' ids share. The current
 * state's references are distinct, so the map is one-to-one on them, and
 * a register holding reference A in the stored state holds its image in
 * the current one: what the stored state's paths gave back, the current
 * one's give back too.
 */
static bool refsafe(const struct func_state *old, const struct func_state *cur, struct idmap *idmap)
{
	if (old->ref_cnt != cur->ref_cnt)
		return false;
	for (uint32_t i = 0; i < old->ref_cnt; i++)
		if (!check_ids(idmap, old->ref_id[i], cur->ref_id[i], true))
			return false;
	return true;
}

static bool states_equal(struct verifier_env *env, const struct vstate *old,
			 const struct vstate *cur, uint32_t insn, enum cmp_mode mode)
{
	static __thread struct idmap idmap;
	uint8_t *hint = &env->aux[insn].prune_hint;
	bool exact = mode == CMP_EXACT;
	uint32_t i, r, slot;

	if (old->curframe != cur->curframe)
		return false;
	/* on the device, a path with a side effect behind it may do less
	 * than one without (it can no longer punt); nothing else asks */
	if (env->device && (exact ? !old->side_effect != !cur->side_effect
				  : !old->side_effect && cur->side_effect))
		return false;
	/* the same checks as below, one of them first; the map is rebuilt */
	idmap.cnt = 0;
	if (mode == CMP_COVER &&
	    !component_safe(old->frame[old->curframe], cur->frame[cur->curframe], *hint,
			    frame_live(env, cur, cur->curframe, insn), &idmap, old->reads_all,
			    env->allow_ptr_leaks))
		return false;
	idmap.cnt = 0;
	for (i = 0; i <= old->curframe; i++) {
		const struct func_state *of = old->frame[i], *cf = cur->frame[i];
		uint16_t live = frame_live(env, cur, i, insn);

		if (of->callsite != cf->callsite || of->async_callback != cf->async_callback)
			return false;
		/* a caller that has called its callback more often has fewer
		 * calls left to explore */
		if (exact ? of->callback_depth != cf->callback_depth
			  : of->callback_depth > cf->callback_depth)
			return false;
		for (r = 0; r < MAX_BPF_REG; r++) {
			if (!(live & (1u << r)))
				continue;
			if (!regsafe(&of->regs[r], &cf->regs[r], &idmap, mode)) {
				if (i == cur->curframe)
					*hint = r;
				return false;
			}
		}
		if (!stacksafe(of, cf, &idmap, mode, old->reads_all, env->allow_ptr_leaks, &slot)) {
			if (i == cur->curframe)
				*hint = PRUNE_HINT_SLOT + slot;
			return false;
		}
		if (!refsafe(of, cf, &idmap))
			return false;
	}
	return true;
}

_Static_assert(STACK_SLOTS <= 64, "a slot mask is 64 bits");

/*
 * Stack liveness, as the kernel's: a read of a slot that the current path
 * has not overwritten since its last stored state marks that state, and
 * its ancestors up to the one on whose way the slot was overwritten, as
 * reading the slot. When a stored state's exploration is done its marks
 * are complete, and a slot without a mark holds nothing any path from it
 * reads: its contents need not match. A frame an ancestor does not have
 * was called after it; its slots are not the ancestor's.
 */
void stack_mark_read(struct verifier_env *env, const struct func_state *frame, uint32_t slot)
{
	uint64_t bit = 1ull << slot;
	uint32_t f = frame->frameno;
	struct vstate *st;

	if (frame->stack_written & bit)
		return;
	for (st = env->cur->parent; st && st->curframe >= f; st = st->parent) {
		struct func_state *fs = st->frame[f];

		/* marked before: so are the ancestors that needed it */
		if (fs->stack_read & bit)
			return;
		fs->stack_read |= bit;
		if (fs->stack_written & bit)
			return;
	}
}

/* A pruned path would read what the paths from the state covering it read:
 * every slot, for one that reads_all. */
static void propagate_stack_reads(struct verifier_env *env, const struct vstate *old)
{
	for (uint32_t i = 0; i <= old->curframe; i++) {
		uint32_t n = old->frame[i]->slot_cnt > env->cur->frame[i]->slot_cnt
				     ? old->frame[i]->slot_cnt
				     : env->cur->frame[i]->slot_cnt;
		uint64_t read = !old->reads_all ? old->frame[i]->stack_read
				: n >= 64	? UINT64_MAX
						: (1ull << n) - 1;

		for (; read; read &= read - 1)
			stack_mark_read(env, env->cur->frame[i], __builtin_ctzll(read));
	}
}

/*
 * A path cut by the state old it passed before (a callback's helper call,
 * state_visit): the stored states between the two will have paths that go
 * on as old's do, which are not all explored yet, so they read every slot.
 * old itself and the states above it need no more than old's paths will
 * have read by the time it is done: what the cut path would read goes the
 * way of a read by a path from old, through old and up.
 */
static void covering_loop_reads(struct verifier_env *env, const struct vstate *old)
{
	for (struct vstate *st = env->cur->parent; st && st != old; st = st->parent)
		st->reads_all = true;
	propagate_stack_reads(env, old);
}

/*
 * An active iterator of old is at another iteration in cur: the loop has
 * made progress, however equal the states (the kernel's
 * iter_active_depths_differ).
 */
static bool iter_depths_differ(const struct vstate *old, const struct vstate *cur)
{
	for (uint32_t f = 0; f <= old->curframe && f <= cur->curframe; f++) {
		const struct func_state *of = old->frame[f], *cf = cur->frame[f];

		for (uint32_t i = 0; i < of->slot_cnt && i < cf->slot_cnt; i++)
			if (of->stack[i].byte[0] == STACK_ITER &&
			    of->stack[i].iter == ITER_ACTIVE &&
			    cf->stack[i].byte[0] == STACK_ITER &&
			    of->stack[i].iter_depth != cf->stack[i].iter_depth)
				return true;
	}
	return false;
}

static bool is_ancestor(const struct vstate *old, const struct vstate *cur)
{
	const struct vstate *p;

	for (p = cur->parent; p; p = p->parent)
		if (p == old)
			return true;
	return false;
}

static void explored_free(struct verifier_env *env, uint32_t insn, struct explored *e)
{
	e->next = env->spare_explored;
	env->spare_explored = e;
	env->state_cnt[insn]--;
	env->states_live--;
}

#define REG_BYTES (offsetof(struct reg_state, frameno) + sizeof(uint8_t)) /* no tail padding */

/* FNV-1a over the bytes of the current frame's registers and its number:
 * states that may repeat each other hash alike. */
static uint64_t regs_hash(const struct vstate *st)
{
	const struct func_state *f = st->frame[st->curframe];
	uint64_t h = 0xcbf29ce484222325ull ^ st->curframe;

	for (int r = 0; r < MAX_BPF_REG; r++) {
		const uint8_t *b = (const uint8_t *)&f->regs[r];

		for (size_t i = 0; i < REG_BYTES; i++)
			h = (h ^ b[i]) * 0x100000001b3ull;
	}
	return h;
}

/* Whether cur may repeat old (e): the same registers, byte for byte, in
 * the current frame; a quick filter before states_equal. */
static bool maybe_looping(const struct explored *e, uint64_t hash, const struct vstate *cur)
{
	uint32_t f = cur->curframe;

	if (e->regs_hash != hash || e->st.curframe != f)
		return false;
	for (int r = 0; r < MAX_BPF_REG; r++)
		if (memcmp(&e->st.frame[f]->regs[r], &cur->frame[f]->regs[r], REG_BYTES))
			return false;
	return true;
}

/*
 * A callback's helper call, come back to after one more call: the scalars
 * that differ from the previous visit's and that nothing there depended on
 * yet (a running sum, say) become unknown, so that the next visit is
 * covered instead of each call walking anew. Forgetting a value is always
 * sound; a value a later call does depend on is then unknown there, which
 * the checks see.
 */
static void widen_imprecise(const struct vstate *old, struct vstate *cur)
{
	for (uint32_t f = 0; f <= cur->curframe; f++) {
		const struct func_state *of = old->frame[f];
		struct func_state *cf = cur->frame[f];

		for (uint32_t r = 0; r < BPF_REG_FP; r++) {
			const struct reg_state *o = &of->regs[r];
			struct reg_state *c = &cf->regs[r];

			if (o->type == SCALAR_VALUE && c->type == SCALAR_VALUE && !o->precise &&
			    memcmp(o, c, VAR_PART_SIZE))
				reg_mark_unknown(c);
		}
		for (uint32_t i = 0; i < cf->slot_cnt && i < of->slot_cnt; i++) {
			const struct stack_slot *os = &of->stack[i];
			struct stack_slot *cs = &cf->stack[i];

			if (os->spill_size && os->byte[0] == STACK_SPILL &&
			    os->spill.type == SCALAR_VALUE && !os->spill.precise &&
			    cs->spill_size == os->spill_size && cs->byte[0] == STACK_SPILL &&
			    cs->spill.type == SCALAR_VALUE &&
			    memcmp(&os->spill, &cs->spill, VAR_PART_SIZE))
				reg_mark_unknown(&cs->spill);
		}
	}
}

int state_visit(struct verifier_env *env, uint32_t insn)
{
	const struct vstate *loop_old = NULL;
	struct vstate *cur = env->cur;
	struct explored *e, **link;
	uint64_t hash = 0; /* regs_hash(cur), made when first wanted */
	bool hashed = false;
	uint32_t i;
	int err;

	uint32_t jmps = env->jmps_processed - env->prev_jmps_processed;
	uint32_t insns = env->insns_processed - env->prev_insns_processed;
	/*
	 * Whether this visit stores a state (unless it is cut): where paths
	 * meet, and elsewhere once a jump or 8 instructions were walked since
	 * the last one was; inside a loop (a path back at one of its own
	 * states) only after 5 jumps or 25 instructions, since each stored
	 * state is compared at every later iteration. Inside a loop misses
	 * count only after 20 jumps or 100 instructions: each iteration
	 * misses every state stored before, and counting them all would drop
	 * the loop's states before they could cover the paths that repeat
	 * them.
	 */
	bool add = env->aux[insn].callback_call || env->aux[insn].jump_target ||
		   jmps >= STORE_AFTER_JMPS || insns >= STORE_AFTER_INSNS;
	bool in_loop = false, count_miss;

	if (!env->aux[insn].callback_call)
		for (e = env->explored[insn]; e && !in_loop; e = e->next)
			in_loop = e->st.branches;
	if (in_loop && jmps < LOOP_STORE_AFTER_JMPS && insns < LOOP_STORE_AFTER_INSNS)
		add = false;
	count_miss = !in_loop || jmps >= LOOP_QUIET_JMPS || insns >= LOOP_QUIET_INSNS;

	for (link = &env->explored[insn]; (e = *link);) {
		if (e->st.branches) {
			/*
			 * A callback's calls converge: a visit of its helper
			 * call earlier on this path, before more calls, covers
			 * this one, so every number of calls is explored from
			 * it. Its marks are not complete while it is being
			 * explored, so every scalar and slot is compared, and
			 * this path depends on all of them: the stored states
			 * between the two on every slot (covering_loop_reads),
			 * and on every scalar.
			 */
			if (env->aux[insn].callback_call && is_ancestor(&e->st, cur) &&
			    states_equal(env, &e->st, cur, insn, CMP_COVER_ALL)) {
				e->hit_cnt++;
				covering_loop_reads(env, &e->st);
				precise_propagate(env, &e->st, true);
				return 1;
			}
			if (env->aux[insn].callback_call && !loop_old && is_ancestor(&e->st, cur))
				loop_old = &e->st;
			/* the exact comparison only where the registers are the
			 * same bytes: a loop's earlier iterations mostly are not */
			if (!hashed) {
				hash = regs_hash(cur);
				hashed = true;
			}
			if (maybe_looping(e, hash, cur) &&
			    states_equal(env, &e->st, cur, insn, CMP_EXACT) &&
			    is_ancestor(&e->st, cur) && !iter_depths_differ(&e->st, cur)) {
				verbose(env, "infinite loop detected at insn %u\n", insn);
				return REJECT;
			}
			link = &e->next;
			continue;
		}
		if (states_equal(env, &e->st, cur, insn, CMP_COVER)) {
			e->hit_cnt++;
			propagate_stack_reads(env, &e->st);
			precise_propagate(env, &e->st, false);
			return 1;
		}
		/*
		 * A finished state that keeps failing to cover anything is
		 * dropped: pruning loses little, and every later visit here
		 * compares against one state fewer. No live path has it as an
		 * ancestor (its branches are done). Early in a loop's
		 * iterations no miss counts (count_miss, above).
		 */
		if (count_miss)
			e->miss_cnt++;
		if (e->miss_cnt > e->hit_cnt * EVICT_MISSES + EVICT_MISSES) {
			*link = e->next;
			explored_free(env, insn, e);
			continue;
		}
		link = &e->next;
	}
	if (!add || env->state_cnt[insn] >= MAX_STATES_PER_INSN ||
	    env->states_live >= MAX_STORED_STATES)
		return 0;
	/* a callback's helper call, come back to: what differs from the
	 * last visit and mattered to nothing is forgotten, so that its calls
	 * converge */
	if (env->aux[insn].callback_call && loop_old)
		widen_imprecise(loop_old, cur);
	env->prev_jmps_processed = env->jmps_processed;
	env->prev_insns_processed = env->insns_processed;

	e = env->spare_explored;
	if (e) {
		env->spare_explored = e->next;
		e->hit_cnt = e->miss_cnt = 0;
	} else {
		e = calloc(1, sizeof(*e));
		if (!e)
			return -ENOMEM;
	}
	err = state_copy(&e->st, cur);
	if (err) {
		state_clear(&e->st);
		free(e);
		return err;
	}
	e->st.insn_idx = insn;
	e->st.branches = 1;
	e->st.reads_all = false;
	precise_reset(&e->st);
	cur->hist_cnt = 0;
	cur->hist_lost = false;
	e->regs_hash = hashed ? hash : regs_hash(cur);
	cur->parent = &e->st;
	/* a new segment of the path starts here */
	for (i = 0; i <= cur->curframe; i++) {
		e->st.frame[i]->stack_read = 0;
		cur->frame[i]->stack_written = 0;
	}
	e->next = env->explored[insn];
	env->explored[insn] = e;

	env->state_cnt[insn]++;
	env->states_total++;
	env->states_live++;
	if (env->states_live > env->states_peak)
		env->states_peak = env->states_live;
	if (env->state_cnt[insn] > env->max_states_per_insn)
		env->max_states_per_insn = env->state_cnt[insn];
	return 0;
}

void state_path_done(struct verifier_env *env)
{
	struct vstate *st;

	for (st = env->cur->parent; st; st = st->parent)
		if (--st->branches)
			break;
}

int state_push(struct verifier_env *env, uint32_t insn, uint32_t prev_insn, struct vstate **out)
{
	struct pending *p;
	struct vstate *st;

	if (env->pending_cnt >= MAX_PENDING_STATES) {
		verbose(env, "The sequence of %u jumps is too complex.\n", env->pending_cnt + 1);
		return REJECT;
	}
	if (env->pending_cnt == env->pending_cap) {
		uint32_t cap = env->pending_cap ? env->pending_cap * 2 : 64;

		p = realloc(env->pending, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		env->pending = p;
		env->pending_cap = cap;
	}
	st = state_take(env, env->cur);
	if (!st)
		return -ENOMEM;
	if (st->parent)
		st->parent->branches++;
	p = &env->pending[env->pending_cnt++];
	p->st = st;
	p->insn_idx = insn;
	p->prev_insn_idx = prev_insn;
	p->log_pos = env->log_len;
	*out = st;
	return 0;
}

int state_pop(struct verifier_env *env)
{
	struct pending *p;

	if (!env->pending_cnt)
		return 0;
	p = &env->pending[--env->pending_cnt];
	state_recycle(env, env->cur);
	env->cur = p->st;
	env->insn_idx = p->insn_idx;
	env->prev_insn_idx = p->prev_insn_idx;
	if (env->log_level == 1)
		log_truncate(env, p->log_pos);
	return 1;
}

void state_free_all(struct verifier_env *env)
{
	struct explored *e, *next;
	struct vstate *st;
	uint32_t i;

	while (env->pending_cnt)
		state_free(env->pending[--env->pending_cnt].st);
	free(env->pending);
	env->pending = NULL;
	if (env->explored) {
		for (i = 0; i < env->insn_cnt; i++) {
			for (e = env->explored[i]; e; e = next) {
				next = e->next;
				state_clear(&e->st);
				free(e);
			}
		}
	}
	free(env->explored);
	env->explored = NULL;
	state_free(env->cur);
	env->cur = NULL;
	while ((st = env->spare_states)) {
		env->spare_states = st->parent;
		state_free(st);
	}
	while ((e = env->spare_explored)) {
		env->spare_explored = e->next;
		state_clear(&e->st);
		free(e);
	}
}
