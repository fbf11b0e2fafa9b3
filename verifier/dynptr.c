// SPDX-License-Identifier: GPL-2.0
/*
 * struct bpf_dynptr, as the kernel's verifier keeps it: 16 bytes of the
 * stack, two slots marked STACK_DYNPTR, made by a helper or kfunc that
 * takes it uninitialised (bpf_dynptr_from_mem: local memory,
 * bpf_ringbuf_reserve_dynptr: a ring buffer record, bpf_dynptr_from_xdp:
 * the frame) and then passed by pointer to those that read it.
 *
 * - Its slots are the helpers' only: a load from them, or a helper's
 *   memory argument over them, is refused; a store into either slot ends
 *   the dynptr (both slots become never written, and the slices of its
 *   data that bpf_dynptr_data gave become unusable), unless it holds a
 *   reference.
 * - A ring buffer dynptr holds a reference from the reserve on, whether
 *   the reservation succeeded or not (a failed one is a NULL dynptr that
 *   must still be discarded): bpf_ringbuf_submit_dynptr or _discard_dynptr
 *   gives it back, and with it every slice of it; a path that ends
 *   holding it is refused as for any reference.
 * - An argument that reads a dynptr must point at the lower slot of one,
 *   at a constant offset that is a multiple of 8 ("Expected an
 *   initialized dynptr as arg #N" otherwise).
 *
 * Slices. bpf_dynptr_data gives memory of its constant size, or NULL;
 * bpf_dynptr_slice (read only) and _slice_rdwr the same of their buffer's
 * constant size. A slice of an xdp dynptr is packet memory: a helper that
 * moves the packet ends it. As in the kernel, only bpf_dynptr_data's
 * slices end when their dynptr is overwritten.
 *
 * The coprocessor makes xdp dynptrs and slices of them (hwmap/translate.c).
 * Its frames are linear, so a slice in the dynptr's range is the frame's
 * own bytes, never the buffer: the device's facts give it as the packet
 * pointer it is. The kernel keeps the frame's length from
 * bpf_dynptr_from_xdp on, and where the frame has since shrunk it gives the
 * buffer instead, unfilled; the device has no such slice, so it refuses a
 * helper that moves the frame while an xdp dynptr lives (dynptr_frame_moves).
 */
#include <string.h>

#include "verifier/verifier_internal.h"

static const char *kind_name(uint8_t kind)
{
	switch (kind) {
	case DYNPTR_LOCAL:
		return "local";
	case DYNPTR_RINGBUF:
		return "ringbuf";
	case DYNPTR_XDP:
		return "xdp";
	default:
		return "unknown";
	}
}

static struct stack_slot *slot_of(struct func_state *frame, uint32_t index)
{
	return index < frame->slot_cnt ? &frame->stack[index] : NULL;
}

static void slot_clear(struct stack_slot *s)
{
	memset(s->byte, STACK_INVALID, sizeof(s->byte));
	s->spill_size = 0;
	s->dynptr = DYNPTR_NONE;
	s->dynptr_first = false;
	reg_mark_not_init(&s->spill);
}

/* The slices of dynptr id, as the kernel's destroy_if_dynptr_stack_slot. */
static void drop_data_slices(struct verifier_env *env, uint32_t id)
{
	for_each_reg(env->cur, reg, {
		if (!type_is_mem(reg->type) || !(reg->mem_flags & MEM_DYNPTR_DATA) ||
		    reg->dynptr_id != id)
			continue;
		if (env->allow_ptr_leaks)
			reg_mark_unknown(reg);
		else
			reg_mark_not_init(reg);
	});
}

/* Slot index of frame holds part of a dynptr: end it, both slots. */
static int destroy(struct verifier_env *env, struct func_state *frame, uint32_t index)
{
	struct stack_slot *s = slot_of(frame, index), *lo, *hi;

	/* a store into an iterator's slot leaves bytes, its reference held */
	if (s && s->byte[0] == STACK_ITER) {
		memset(s->byte, STACK_MISC, sizeof(s->byte));
		s->iter = 0;
		reg_mark_not_init(&s->spill);
		return 0;
	}
	if (!s || s->byte[0] != STACK_DYNPTR)
		return 0;
	/* the lower slot (larger index) is the first */
	lo = s->dynptr_first ? s : slot_of(frame, index + 1);
	hi = s->dynptr_first ? slot_of(frame, index - 1) : s;
	if (!lo || !hi)
		return -EFAULT;
	if (lo->dynptr == DYNPTR_RINGBUF) {
		verbose(env, "cannot overwrite referenced dynptr\n");
		return REJECT;
	}
	drop_data_slices(env, lo->spill.id);
	slot_clear(lo);
	slot_clear(hi);
	return 0;
}

int dynptr_stack_write(struct verifier_env *env, struct func_state *frame, int64_t lo, int64_t hi)
{
	int err;

	if (hi <= lo)
		return 0;
	for (uint32_t i = (uint32_t)(-hi / 8); i <= (uint32_t)((-lo - 1) / 8); i++) {
		err = destroy(env, frame, i);
		if (err)
			return err;
	}
	return 0;
}

int dynptr_stack_touch(struct verifier_env *env, const struct func_state *frame, int64_t lo,
		       int64_t hi, bool helper_write)
{
	for (int64_t at = lo; at < hi; at++) {
		uint32_t index = (uint32_t)(-at - 1) / 8;
		const struct stack_slot *s = index < frame->slot_cnt ? &frame->stack[index] : NULL;

		if (!s || (s->byte[(at + 8 * (index + 1))] != STACK_DYNPTR &&
			   s->byte[(at + 8 * (index + 1))] != STACK_ITER))
			continue;
		if (helper_write && s->byte[0] == STACK_ITER)
			verbose(env, "potential write to iter at off=%lld disallowed\n",
				(long long)at);
		else if (helper_write)
			verbose(env, "potential write to dynptr at off=%lld disallowed\n",
				(long long)at);
		else
			verbose(env, "invalid read from stack off %lld+%lld size %lld\n",
				(long long)lo, (long long)(at - lo), (long long)(hi - lo));
		return REJECT;
	}
	return 0;
}

/* The lower slot's index of the dynptr regno points at, as the kernel's
 * dynptr_get_spi; -1 after a refusal. */
static int64_t dynptr_slot(struct verifier_env *env, uint32_t regno)
{
	const struct reg_state *reg = &cur_frame(env)->regs[regno];
	int64_t off;

	if (reg->type != PTR_TO_STACK) {
		verbose(env, "arg#%u expected pointer to stack or const struct bpf_dynptr\n",
			regno - 1);
		return -1;
	}
	if (!tnum_is_const(reg->var_off)) {
		verbose(env, "dynptr has to be at a constant offset\n");
		return -1;
	}
	off = reg->off + (int64_t)reg->var_off.value;
	if (off % 8 || off > -16 || off < -MAX_BPF_STACK) {
		verbose(env, "cannot pass in dynptr at an offset=%lld\n", (long long)off);
		return -1;
	}
	return (-off - 1) / 8;
}

int dynptr_arg_init(struct verifier_env *env, uint32_t regno, uint8_t kind, uint32_t idx)
{
	const struct reg_state *reg = &cur_frame(env)->regs[regno];
	int64_t index = dynptr_slot(env, regno);
	struct func_state *frame;
	struct stack_slot *lo, *hi;
	uint32_t id, ref = 0;
	int err;

	if (index < 0)
		return REJECT;
	frame = env->cur->frame[reg->frameno];
	err = frame_grow_stack(frame, (uint32_t)index + 1);
	if (err)
		return err;
	err = dynptr_stack_write(env, frame, -8 * (index + 1), -8 * (index - 1));
	if (err)
		return err;
	precise_note_stack(env, reg->frameno, -8 * (index + 1), 16, false);
	frame->stack_written |= 3ull << (index - 1);
	if ((uint32_t)(8 * (index + 1)) > env->subprogs[frame->subprog].stack_depth)
		env->subprogs[frame->subprog].stack_depth = (uint32_t)(8 * (index + 1));
	if (kind == DYNPTR_RINGBUF) {
		ref = acquire_reference(env, idx);
		if (!ref)
			return -E2BIG;
	}
	id = new_id(env);
	lo = &frame->stack[index];
	hi = &frame->stack[index - 1];
	slot_clear(lo);
	slot_clear(hi);
	memset(lo->byte, STACK_DYNPTR, 8);
	memset(hi->byte, STACK_DYNPTR, 8);
	lo->dynptr = hi->dynptr = kind;
	lo->dynptr_first = true;
	lo->spill.id = hi->spill.id = id;
	lo->spill.ref_obj_id = hi->spill.ref_obj_id = ref;
	return 0;
}

int dynptr_arg_made(struct verifier_env *env, uint32_t regno, uint8_t kind, uint32_t *id,
		    uint8_t *made_kind, uint32_t *ref)
{
	const struct reg_state *reg = &cur_frame(env)->regs[regno];
	int64_t index = dynptr_slot(env, regno);
	struct func_state *frame;
	const struct stack_slot *lo, *hi;

	if (index < 0)
		return REJECT;
	frame = env->cur->frame[reg->frameno];
	lo = slot_of(frame, (uint32_t)index);
	hi = slot_of(frame, (uint32_t)index - 1);
	/* the path depends on both slots as they are */
	if (lo)
		stack_mark_read(env, frame, (uint32_t)index);
	if (hi)
		stack_mark_read(env, frame, (uint32_t)index - 1);
	if (!lo || !hi || lo->byte[0] != STACK_DYNPTR || !lo->dynptr_first ||
	    hi->byte[0] != STACK_DYNPTR || hi->dynptr_first || lo->spill.id != hi->spill.id) {
		verbose(env, "Expected an initialized dynptr as arg #%u\n", regno - 1);
		return REJECT;
	}
	if (kind != DYNPTR_NONE && lo->dynptr != kind) {
		verbose(env, "Expected a dynptr of type %s as arg #%u\n", kind_name(kind),
			regno - 1);
		return REJECT;
	}
	*id = lo->spill.id;
	*made_kind = lo->dynptr;
	*ref = lo->spill.ref_obj_id;
	return 0;
}

void dynptr_release(struct verifier_env *env, uint32_t ref)
{
	release_reference(env, ref);
	for (uint32_t f = 0; f <= env->cur->curframe; f++) {
		struct func_state *frame = env->cur->frame[f];

		for (uint32_t i = 0; i < frame->slot_cnt; i++) {
			struct stack_slot *s = &frame->stack[i];

			if (s->byte[0] == STACK_DYNPTR && s->spill.ref_obj_id == ref) {
				slot_clear(s);
				frame->stack_written |= 1ull << i;
			}
		}
	}
}

/*
 * The device: what (a helper or a function) may change the frame's length
 * at idx; refused while any frame of the path holds an xdp dynptr.
 */
int dynptr_frame_moves(struct verifier_env *env, uint32_t idx, const char *what)
{
	if (!env->device)
		return 0;
	for (uint32_t f = 0; f <= env->cur->curframe; f++) {
		const struct func_state *frame = env->cur->frame[f];

		for (uint32_t i = 0; i < frame->slot_cnt; i++) {
			const struct stack_slot *s = &frame->stack[i];

			if (s->byte[0] != STACK_DYNPTR || s->dynptr != DYNPTR_XDP ||
			    !s->dynptr_first)
				continue;
			verbose(env,
				"%u: %s while the xdp dynptr at fp%d lives: the coprocessor's "
				"dynptr keeps the frame's length from bpf_dynptr_from_xdp, and "
				"where the frame shrank the kernel's slices are the buffer, which "
				"the device's are not (make the dynptr again after it)\n",
				idx, what, -8 * (int)(i + 1));
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

bool kfunc_is_dynptr(const struct bpf_insn *insn)
{
	return insn->src_reg == BPF_PSEUDO_KFUNC_CALL && !insn->off &&
	       (insn->imm == KFUNC_DYNPTR_FROM_XDP || insn->imm == KFUNC_DYNPTR_SLICE ||
		insn->imm == KFUNC_DYNPTR_SLICE_RDWR);
}

/*
 * bpf_dynptr_from_xdp(ctx, flags, dynptr) makes an xdp dynptr;
 * bpf_dynptr_slice(dynptr, offset, buffer__opt, buffer__szk) and _rdwr
 * give buffer__szk bytes of it, or NULL: the frame's own bytes, or the
 * buffer (which may be NULL) filled with them. The buffer is memory the
 * kfunc may read and write, its size a constant.
 */
int check_dynptr_kfunc(struct verifier_env *env, const struct bpf_insn *insn, uint32_t idx)
{
	struct reg_state *regs = cur_frame(env)->regs, *r0;
	uint32_t id = 0, ref = 0, size = 0, regno;
	uint8_t kind = DYNPTR_NONE;
	int err;

	/* this kernel refuses a writable slice to XDP, in these words */
	if (insn->imm == KFUNC_DYNPTR_SLICE_RDWR) {
		verbose(env, "bpf_dynptr_slice_rdwr() is not allowed\n");
		return -EACCES;
	}
	for (regno = BPF_REG_1; regno <= (insn->imm == KFUNC_DYNPTR_FROM_XDP ? 3u : 4u); regno++) {
		err = check_reg_readable(env, regno);
		if (err)
			return err;
	}
	if (insn->imm == KFUNC_DYNPTR_FROM_XDP) {
		if (regs[BPF_REG_1].type != PTR_TO_CTX) {
			verbose(env, "arg#0 expected pointer to ctx, but got %s\n",
				reg_type_str(regs[BPF_REG_1].type));
			return REJECT;
		}
		if (regs[BPF_REG_1].off || !tnum_equals_const(regs[BPF_REG_1].var_off, 0)) {
			verbose(env, "dereference of modified ctx ptr R1 off=%d disallowed\n",
				regs[BPF_REG_1].off);
			return REJECT;
		}
		if (regs[BPF_REG_2].type != SCALAR_VALUE) {
			verbose(env, "R2 is not a scalar\n");
			return REJECT;
		}
		err = dynptr_arg_init(env, BPF_REG_3, DYNPTR_XDP, idx);
		if (err)
			return err;
		for (regno = BPF_REG_1; regno <= BPF_REG_5; regno++)
			reg_mark_not_init(&regs[regno]);
		reg_mark_unknown(&regs[BPF_REG_0]);
		return 0;
	}
	err = dynptr_arg_made(env, BPF_REG_1, DYNPTR_NONE, &id, &kind, &ref);
	if (err)
		return err;
	if (regs[BPF_REG_2].type != SCALAR_VALUE) {
		verbose(env, "R2 is not a scalar\n");
		return REJECT;
	}
	if (regs[BPF_REG_4].type != SCALAR_VALUE) {
		verbose(env, "R4 is not a scalar\n");
		return REJECT;
	}
	if (!tnum_is_const(regs[BPF_REG_4].var_off)) {
		verbose(env, "R4 must be a known constant\n");
		return REJECT;
	}
	/* the size, a constant the result depends on; the kernel leaves
	 * the offset and the flags imprecise, checked when the kfunc runs */
	precise_mark_regs(env, 1u << BPF_REG_4);
	if (regs[BPF_REG_4].var_off.value >= MAX_VAR_OFF) {
		verbose(env, "R4 unbounded memory access\n");
		return REJECT;
	}
	size = (uint32_t)regs[BPF_REG_4].var_off.value;
	/* buffer__opt: NULL, or memory of the size, read then written as the
	 * kernel checks it (root, whose stack may be read unwritten, may leave
	 * it unwritten) */
	if (!reg_is_const(&regs[BPF_REG_3]) || regs[BPF_REG_3].var_off.value) {
		if (!env->allow_uninit_stack)
			err = check_mem_region(env, BPF_REG_3, 0, size, false, true);
		if (!err)
			err = check_mem_region(env, BPF_REG_3, 0, size, true, true);
		if (err) {
			verbose(env,
				"arg#2 arg#3 memory, len pair leads to invalid memory access\n");
			return err;
		}
	}
	for (regno = BPF_REG_1; regno <= BPF_REG_5; regno++)
		reg_mark_not_init(&regs[regno]);
	r0 = &regs[BPF_REG_0];
	reg_mark_known(r0, 0);
	r0->type = PTR_TO_MEM_OR_NULL;
	r0->mem_size = size;
	r0->id = new_id(env);
	/* a slice of a ring buffer record goes with the record */
	r0->ref_obj_id = ref;
	r0->dynptr_id = id;
	r0->mem_flags = (insn->imm == KFUNC_DYNPTR_SLICE ? MEM_RDONLY : 0) |
			(kind == DYNPTR_XDP ? MEM_XDP_SLICE : 0);
	return 0;
}
