// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's numeric open-coded iterator, what libbpf's bpf_for() and
 * bpf_repeat() expand to: bpf_iter_num_new(it, start, end) makes a struct
 * bpf_iter_num, one stack slot marked STACK_ITER and a reference;
 * bpf_iter_num_next(it) gives a pointer to the next int, or NULL;
 * bpf_iter_num_destroy(it) ends it and gives the reference back. A path
 * that ends holding one is refused as for any reference.
 *
 * As the kernel verifies it (process_iter_next_call): at a next of an
 * active iterator the path goes on with the iterator drained and R0 NULL,
 * and a path of its own goes on with it active and R0 four read-only
 * bytes, the loop's body, which comes back to the next. The next is where
 * the states of the iterations converge, as a callback's calls do at its
 * helper call (state.c): a state stored there earlier on the path, still
 * being explored, covers a later one whose every scalar and slot it
 * contains, and what differs and nothing depended on is widened. The
 * iterator's number of iterations is never compared, as in the kernel.
 * Its value is any int: the program bounds it.
 *
 * The coprocessor runs them as the kernel does, on the same 8 bytes
 * (hwmap/translate.c): the device's facts give the value's pointer as the
 * stack pointer it is, at the iterator's slot.
 */
#include <string.h>

#include "verifier/verifier_internal.h"

bool kfunc_is_iter(const struct bpf_insn *insn)
{
	return insn->src_reg == BPF_PSEUDO_KFUNC_CALL && !insn->off &&
	       insn->imm >= KFUNC_ITER_NUM_NEW && insn->imm <= KFUNC_ITER_NUM_DESTROY;
}

bool kfunc_is_iter_next(const struct bpf_insn *insn)
{
	return insn->code == (BPF_JMP | BPF_CALL) && insn->src_reg == BPF_PSEUDO_KFUNC_CALL &&
	       !insn->off && insn->imm == KFUNC_ITER_NUM_NEXT;
}

/* The slot R1 points at, as the kernel's stack_slot_obj_get_spi; NULL
 * after a refusal. */
static struct stack_slot *iter_slot(struct verifier_env *env, struct func_state **frame,
				    uint32_t *index, bool make)
{
	const struct reg_state *reg = &cur_frame(env)->regs[BPF_REG_1];
	int64_t off;

	if (reg->type != PTR_TO_STACK) {
		verbose(env, "arg#0 expected pointer to an iterator on stack\n");
		return NULL;
	}
	if (!tnum_is_const(reg->var_off)) {
		verbose(env, "iter has to be at a constant offset\n");
		return NULL;
	}
	off = reg->off + (int64_t)reg->var_off.value;
	if (off % 8 || off > -8 || off < -MAX_BPF_STACK) {
		verbose(env, "cannot pass in iter at an offset=%lld\n", (long long)off);
		return NULL;
	}
	*frame = env->cur->frame[reg->frameno];
	*index = (uint32_t)((-off - 1) / 8);
	if (make && frame_grow_stack(*frame, *index + 1))
		return NULL;
	return *index < (*frame)->slot_cnt ? &(*frame)->stack[*index] : NULL;
}

static void clobber(struct reg_state *regs)
{
	for (uint32_t r = BPF_REG_1; r <= BPF_REG_5; r++)
		reg_mark_not_init(&regs[r]);
}

int check_iter_kfunc(struct verifier_env *env, const struct bpf_insn *insn, uint32_t idx)
{
	struct reg_state *regs = cur_frame(env)->regs;
	struct func_state *frame = NULL;
	struct stack_slot *s;
	uint32_t index, ref;
	struct vstate *body;
	int err;

	err = check_reg_readable(env, BPF_REG_1);
	if (err)
		return err;
	if (insn->imm == KFUNC_ITER_NUM_NEW) {
		for (uint32_t r = BPF_REG_2; r <= BPF_REG_3; r++) {
			err = check_reg_readable(env, r);
			if (err)
				return err;
			if (regs[r].type != SCALAR_VALUE) {
				verbose(env, "R%u is not a scalar\n", r);
				return REJECT;
			}
		}
		s = iter_slot(env, &frame, &index, true);
		if (!frame || !s)
			return REJECT;
		if (s->byte[0] == STACK_ITER) {
			verbose(env, "expected uninitialized iter_num as arg #0\n");
			return -EINVAL;
		}
		err = dynptr_stack_write(env, frame, -8 * (int64_t)(index + 1),
					 -8 * (int64_t)index);
		if (err)
			return err;
		precise_note_stack(env, frame->frameno, -8 * (int64_t)(index + 1), 8, false);
		frame->stack_written |= 1ull << index;
		if (8 * (index + 1) > env->subprogs[frame->subprog].stack_depth)
			env->subprogs[frame->subprog].stack_depth = 8 * (index + 1);
		ref = acquire_reference(env, idx);
		if (!ref)
			return -E2BIG;
		memset(s->byte, STACK_ITER, sizeof(s->byte));
		s->spill_size = 0;
		reg_mark_not_init(&s->spill);
		s->spill.ref_obj_id = ref;
		s->iter = ITER_ACTIVE;
		s->iter_depth = 0;
		clobber(regs);
		reg_mark_unknown(&regs[BPF_REG_0]);
		return 0;
	}
	s = iter_slot(env, &frame, &index, false);
	if (frame && s)
		stack_mark_read(env, frame, index);
	if (!s || s->byte[0] != STACK_ITER) {
		if (frame)
			verbose(env, "expected an initialized iter_num as arg #0\n");
		return -EINVAL;
	}
	clobber(regs);
	if (insn->imm == KFUNC_ITER_NUM_DESTROY) {
		ref = s->spill.ref_obj_id;
		memset(s->byte, STACK_INVALID, sizeof(s->byte));
		s->iter = 0;
		reg_mark_not_init(&s->spill);
		frame->stack_written |= 1ull << index;
		release_reference(env, ref);
		reg_mark_not_init(&regs[BPF_REG_0]);
		return 0;
	}
	if (s->iter == ITER_ACTIVE) {
		/* the body: active, R0 the next int, one iteration deeper */
		s->iter_depth++;
		reg_mark_known(&regs[BPF_REG_0], 0);
		regs[BPF_REG_0].type = PTR_TO_MEM;
		regs[BPF_REG_0].mem_size = 4;
		regs[BPF_REG_0].mem_flags = MEM_RDONLY | MEM_ITER_VALUE;
		regs[BPF_REG_0].frameno = (uint8_t)frame->frameno;
		regs[BPF_REG_0].iter_off = (int16_t)(-8 * (int64_t)(index + 1));
		err = state_push(env, idx + 1, idx, &body);
		if (err)
			return err;
	}
	/* this path: drained, R0 NULL */
	s->iter = ITER_DRAINED;
	reg_mark_known(&regs[BPF_REG_0], 0);
	return 0;
}
