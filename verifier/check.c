// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier's core: path-sensitive abstract interpretation of one XDP
 * program, instruction by instruction, as the Linux verifier does it.
 *
 * Why this design. The kernel is the oracle hwxdp must never be less strict
 * than, and its rules are defined by its own algorithm: a packet access is
 * safe because a comparison with data_end on *this path* bounded the
 * pointer; a map value may be dereferenced because *this path* tested it
 * against NULL. An analysis that merges paths (a dataflow fixpoint over the
 * CFG) loses exactly these facts at every join and rejects ordinary
 * programs. So hwxdp walks each path with a precise abstract state
 * (register types, fixed offsets, tnum and ranges of the variable parts,
 * packet ranges, stack bytes and spills), splits the state at each
 * conditional jump the state does not decide, and keeps the walk finite by
 * pruning (state.c). Loops need no special case: each iteration is a new
 * path until its state is covered, repeats exactly (an infinite loop), or
 * the instruction budget runs out.
 *
 * Three choices follow from hwxdp's uses:
 *  - Precision matches the kernel's wherever it decides which paths are
 *    explored (division, variable shifts and helper results are unknown;
 *    packet checks decided by a range still explore both sides), because
 *    one program must load on both targets: hwxdp accepting what the
 *    kernel rejects would break the host copy even where it is not unsafe.
 *  - Pruning compares a scalar by its bounds only where a path depended on
 *    its value (precision.c, as the kernel's precision tracking), and skips
 *    dead registers and stack slots. On fwd that walks fewer instructions
 *    than the kernel. The translator's facts still hold for every execution
 *    where they are used: registers' types, pointers' bounds, decided
 *    bounds checks, constant map keys and call arguments.
 *  - Pointers never become data and uninitialised stack is never read (the
 *    kernel's rules without CAP_PERFMON), since the coprocessor has neither
 *    host addresses nor host stack contents to give.
 *
 * Messages use the kernel 6.18 wording, so that a rejection reads the same
 * from hwxdp and from bpf(2).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "verifier/verifier_internal.h"

#ifndef BPF_MEMSX
#define BPF_MEMSX 0x80
#endif

struct func_state *cur_frame(struct verifier_env *env)
{
	return env->cur->frame[env->cur->curframe];
}

/* On the device, packet pointers are offsets in the packet window: their
 * bits are a number, as any address is to root in the kernel. */
static bool packet_ptr(enum reg_type t)
{
	return t == PTR_TO_PACKET || t == PTR_TO_PACKET_END || t == PTR_TO_PACKET_META;
}

static struct reg_state *cur_regs(struct verifier_env *env)
{
	return cur_frame(env)->regs;
}

uint32_t new_id(struct verifier_env *env)
{
	return ++env->id_gen;
}

static void mark_ptr(struct reg_state *reg, uint8_t type)
{
	reg_mark_known(reg, 0);
	reg->type = type;
}

static const char *alu_op_str(uint8_t op)
{
	static const char *const names[16] = {
		"+=",  "-=", "*=", "/=", "|=",	 "&=",	   "<<=", ">>=",
		"neg", "%=", "^=", "=",	 "s>>=", "endian", "?",	  "?",
	};

	return names[op >> 4];
}

int check_reg_readable(struct verifier_env *env, uint32_t regno)
{
	if (regno >= MAX_BPF_REG) {
		verbose(env, "R%u is invalid\n", regno);
		return -EINVAL;
	}
	if (cur_regs(env)[regno].type == NOT_INIT) {
		verbose(env, "R%u !read_ok\n", regno);
		return REJECT;
	}
	return 0;
}

static int check_reg_writable(struct verifier_env *env, uint32_t regno)
{
	if (regno >= MAX_BPF_REG) {
		verbose(env, "R%u is invalid\n", regno);
		return -EINVAL;
	}
	if (regno == BPF_REG_FP) {
		verbose(env, "frame pointer is read only\n");
		return REJECT;
	}
	return 0;
}

uint32_t acquire_reference(struct verifier_env *env, uint32_t idx)
{
	struct func_state *frame = cur_frame(env);

	if (frame->ref_cnt >= MAX_REFS) {
		verbose(env,
			"more than %u references held at once (sockets, ring buffer "
			"reservations)\n",
			MAX_REFS);
		return 0;
	}
	frame->ref_id[frame->ref_cnt] = new_id(env);
	frame->ref_insn[frame->ref_cnt] = idx;
	return frame->ref_id[frame->ref_cnt++];
}

static void drop_reference(struct func_state *frame, uint32_t ref)
{
	for (uint32_t i = 0; i < frame->ref_cnt; i++) {
		if (frame->ref_id[i] != ref)
			continue;
		frame->ref_cnt--;
		frame->ref_id[i] = frame->ref_id[frame->ref_cnt];
		frame->ref_insn[i] = frame->ref_insn[frame->ref_cnt];
		return;
	}
}

void release_reference(struct verifier_env *env, uint32_t ref)
{
	drop_reference(cur_frame(env), ref);
	/* as the kernel: unknown for root, unreadable otherwise */
	for_each_reg(env->cur, reg, {
		if (reg->ref_obj_id != ref)
			continue;
		if (env->allow_ptr_leaks)
			reg_mark_unknown(reg);
		else
			reg_mark_not_init(reg);
	});
}

void invalidate_packet_pointers(struct vstate *st)
{
	/* Not scalars: an old packet address must not become data. */
	for_each_reg(st, reg, {
		if (type_is_pkt(reg->type) || reg->type == PTR_TO_PACKET_END ||
		    (type_is_mem(reg->type) && (reg->mem_flags & MEM_XDP_SLICE)))
			reg_mark_not_init(reg);
	});
}

void note_side_effect(struct verifier_env *env)
{
	if (!env->cur->side_effect)
		env->cur->side_effect = env->insn_idx;
}

/* ---- memory ---------------------------------------------------------- */

static int mem_size_check(int32_t off, int size, uint32_t mem_size, bool zero_ok)
{
	return off < 0 || size < 0 || (!size && !zero_ok) || (int64_t)off + size > mem_size;
}

/* Variable offsets: the smallest and the largest must both fit. */
static void mem_bounds_error(struct verifier_env *env, const struct reg_state *reg, int64_t off,
			     int size, uint32_t mem_size)
{
	/* the kernel's words for each: a map value, or memory of a size */
	if (reg->type == PTR_TO_MAP_VALUE)
		verbose(env, "invalid access to map value, value_size=%u off=%lld size=%d\n",
			env->maps[reg->map].value_size, (long long)off, size);
	else if (reg->type == PTR_TO_MAP_KEY)
		verbose(env, "invalid access to map key, key_size=%u off=%lld size=%d\n",
			env->maps[reg->map].key_size, (long long)off, size);
	else
		verbose(env, "invalid access to memory, mem_size=%u off=%lld size=%d\n", mem_size,
			(long long)off, size);
}

static int check_mem_bounds(struct verifier_env *env, uint32_t regno, const struct reg_state *reg,
			    int32_t off, int size, uint32_t mem_size, bool zero_ok)
{
	int64_t lo;
	__int128 lowest = (__int128)reg->smin + off;

	if (reg->smin < 0 && (reg->smin == INT64_MIN || lowest != (int32_t)lowest || lowest < 0)) {
		verbose(env,
			"R%u min value is negative, either use unsigned index or do a if (index "
			">=0) check.\n",
			regno);
		return REJECT;
	}
	lo = reg->smin + off;
	if (mem_size_check(lo, size, mem_size, zero_ok)) {
		mem_bounds_error(env, reg, lo, size, mem_size);
		verbose(env, "R%u min value is outside of the allowed memory range\n", regno);
		return REJECT;
	}
	if (reg->umax >= MAX_VAR_OFF) {
		verbose(env,
			"R%u unbounded memory access, make sure to bounds check any such access\n",
			regno);
		return REJECT;
	}
	if (mem_size_check(reg->umax + off, size, mem_size, zero_ok)) {
		mem_bounds_error(env, reg, (int64_t)(reg->umax + off), size, mem_size);
		verbose(env, "R%u max value is outside of the allowed memory range\n", regno);
		return REJECT;
	}
	return 0;
}

static int check_packet_bounds(struct verifier_env *env, uint32_t regno,
			       const struct reg_state *reg, int32_t off, int size, bool zero_ok)
{
	if (reg->smin < 0) {
		verbose(env,
			"R%u min value is negative, either use unsigned index or do a if (index "
			">=0) check.\n",
			regno);
		return REJECT;
	}
	if (reg->range < 0) {
		verbose(env, "R%u offset is outside of the packet\n", regno);
		return REJECT;
	}
	if (mem_size_check(off, size, reg->range, zero_ok)) {
		verbose(env, "invalid access to packet, off=%d size=%d, R%u(id=%u,off=%d,r=%d)\n",
			off, size, regno, reg->id, off, reg->range);
		verbose(env, "R%u offset is outside of the packet\n", regno);
		return REJECT;
	}
	return 0;
}

/*
 * The stack byte at fp+off of a frame, growing the frame as needed. Every
 * access to stack contents comes here, and counts for stack liveness
 * (state.c) as a read of the slot: what it does depends on what the slot
 * held. Only an aligned 8-byte store (overwrite) does not: it replaces the
 * whole slot whatever was there.
 */
static int stack_locate(struct verifier_env *env, struct func_state *frame, int32_t off,
			bool overwrite, struct stack_slot **slot, int *byte)
{
	uint32_t index = (uint32_t)(-off - 1) / 8;
	struct subprog_info *sp = &env->subprogs[frame->subprog];
	int err;

	err = frame_grow_stack(frame, index + 1);
	if (err)
		return err;
	if (overwrite)
		frame->stack_written |= 1ull << index;
	else
		stack_mark_read(env, frame, index);
	if ((uint32_t)-off > sp->stack_depth)
		sp->stack_depth = (-off + 7) & ~7;
	*slot = &frame->stack[index];
	*byte = off + 8 * (index + 1);
	return 0;
}

const struct stack_slot *stack_slot_at(const struct func_state *frame, int32_t off)
{
	uint32_t index = (uint32_t)(-off - 1) / 8;

	return index < frame->slot_cnt ? &frame->stack[index] : NULL;
}

static bool slot_has_spill(const struct stack_slot *s)
{
	return s->spill_size && s->byte[0] == STACK_SPILL;
}

static void slot_scrub_spill(struct stack_slot *s)
{
	int i;

	for (i = 0; i < 8; i++)
		if (s->byte[i] == STACK_SPILL)
			s->byte[i] = STACK_MISC;
	s->spill_size = 0;
	reg_mark_not_init(&s->spill);
}

/*
 * A write into the stack: whole registers (and narrower scalars at the start
 * of a slot) are spilled and come back with their state; anything else
 * leaves bytes of unknown (or zero) content.
 */
static int stack_write(struct verifier_env *env, struct func_state *frame, int32_t off, int size,
		       const struct reg_state *value)
{
	struct stack_slot *s;
	int byte, i, err;

	err = stack_locate(env, frame, off, size == 8 && !(off & 7), &s, &byte);
	if (!err)
		err = dynptr_stack_write(env, frame, off, off + size);
	if (err)
		return err;
	if (value->type == PTR_TO_STACK && value->frameno > frame->frameno) {
		verbose(env, "cannot spill pointers to stack into stack frame of the caller\n");
		return REJECT;
	}
	if (type_is_ptr(value->type) && size != 8) {
		verbose(env, "invalid size of register spill\n");
		return REJECT;
	}
	if (size != 8 && slot_has_spill(s) && s->spill.type != SCALAR_VALUE) {
		/* root may: the slot then holds bytes, no pointer; so may the
		 * device over a packet pointer, a window offset there */
		if (!env->allow_ptr_leaks && !(env->device && packet_ptr(s->spill.type))) {
			verbose(env, "attempt to corrupt spilled pointer on stack (%s at fp%d)\n",
				reg_type_str(s->spill.type), off - byte);
			return REJECT;
		}
		slot_scrub_spill(s);
	}
	if (size == 8 || (byte == 0 && value->type == SCALAR_VALUE)) {
		for (i = size; i < 8; i++)
			if (s->byte[i] == STACK_SPILL)
				s->byte[i] = STACK_MISC;
		s->spill = *value;
		/* a narrowing spill is no longer the same value as its source */
		if (size < 8 && (size == 4 ? value->umax > UINT32_MAX : value->umax >> (size * 8)))
			s->spill.id = 0;
		s->spill_size = size;
		memset(s->byte, STACK_SPILL, size);
		return 0;
	}
	/*
	 * Bytes written into a slot holding a spill end it where they overlap
	 * it. On the host they end it wherever they are in the slot, and the
	 * slot's other bytes become unknown, zeroes too: the kernel keeps no
	 * more of such a slot, and what the walk knows decides, as there,
	 * which paths it takes. The device keeps what it knows.
	 */
	if (slot_has_spill(s) && !env->device) {
		for (i = 0; i < 8; i++)
			if (s->byte[i] != STACK_INVALID)
				s->byte[i] = STACK_MISC;
		s->spill_size = 0;
		reg_mark_not_init(&s->spill);
	} else if (slot_has_spill(s) && byte < s->spill_size) {
		slot_scrub_spill(s);
	}
	memset(s->byte + byte,
	       value->type == SCALAR_VALUE && tnum_equals_const(value->var_off, 0) ? STACK_ZERO
										   : STACK_MISC,
	       size);
	return 0;
}

static int stack_read(struct verifier_env *env, struct func_state *frame, int32_t off, int size,
		      struct reg_state *dst)
{
	struct stack_slot *s;
	int byte, i, err;
	bool zero = true;

	err = stack_locate(env, frame, off, false, &s, &byte);
	if (!err)
		err = dynptr_stack_touch(env, frame, off, off + size, false);
	if (err)
		return err;
	if (slot_has_spill(s)) {
		if (byte == 0 && size == 8 && s->spill_size == 8) {
			*dst = s->spill;
			return 0;
		}
		if (s->spill.type != SCALAR_VALUE) {
			verbose(env, "invalid size of register fill\n");
			return REJECT;
		}
		if (byte == 0 && size <= s->spill_size) {
			*dst = s->spill;
			if (size < s->spill_size)
				dst->id = 0;
			reg_coerce_size(dst, size);
			return 0;
		}
	}
	for (i = byte; i < byte + size; i++) {
		if (s->byte[i] == STACK_INVALID) {
			/* root reads what was never written as unknown bytes
			 * (clang's read-modify-write of a bit field in a key
			 * not cleared), and so does the device */
			if (env->allow_uninit_stack) {
				zero = false;
				continue;
			}
			verbose(env, "invalid read from stack off %d+%d size %d\n", off, i - byte,
				size);
			return REJECT;
		}
		if (s->byte[i] == STACK_SPILL)
			zero &= reg_is_const(&s->spill) && !s->spill.var_off.value;
		else
			zero &= s->byte[i] == STACK_ZERO;
	}
	if (zero) {
		reg_mark_known(dst, 0);
	} else {
		reg_mark_unknown(dst);
		reg_coerce_size(dst, size);
	}
	return 0;
}

/*
 * The bytes [*lo, *hi) of the stack an access of size bytes at insn_off
 * from the pointer in regno may touch: all of them for a variable offset.
 * Direct accesses are aligned to their size.
 */
static int stack_bounds(struct verifier_env *env, uint32_t regno, int32_t insn_off, int size,
			const char *what, bool align, int64_t *lo, int64_t *hi)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	int32_t off = reg->off + insn_off;
	struct tnum at = tnum_add(reg->var_off, tnum_const((uint64_t)(int64_t)off));
	char tn[48];

	if (tnum_is_const(reg->var_off)) {
		*lo = (int64_t)reg->var_off.value + off;
		*hi = *lo + size;
		if (*lo < -MAX_BPF_STACK || *hi > 0) {
			verbose(env, "invalid %s stack R%u off=%lld size=%d\n", what, regno,
				(long long)*lo, size);
			return REJECT;
		}
	} else {
		if (reg->smax >= MAX_VAR_OFF || reg->smin <= -MAX_VAR_OFF) {
			verbose(env, "invalid unbounded variable-offset %s stack R%u\n", what,
				regno);
			return REJECT;
		}
		*lo = reg->smin + off;
		*hi = reg->smax + off + size;
		if (*lo < -MAX_BPF_STACK || *hi > 0) {
			tnum_print(tn, sizeof(tn), reg->var_off);
			verbose(env,
				"invalid variable-offset %s stack R%u var_off=%s off=%d size=%d\n",
				what, regno, tn, off, size);
			return REJECT;
		}
	}
	if (align && size && ((at.value | at.mask) & (size - 1))) {
		if (tnum_is_const(reg->var_off))
			snprintf(tn, sizeof(tn), "%lld", (long long)reg->var_off.value);
		else
			tnum_print(tn, sizeof(tn), reg->var_off);
		verbose(env, "misaligned stack access off %s+%d+%d size %d\n", tn, reg->off,
			insn_off, size);
		return REJECT;
	}
	return 0;
}

/*
 * An access at a variable offset touches one of several places: a read
 * needs all of them initialised, a write initialises none of them for sure
 * (bytes never written stay so) and ends the spills it may overwrite.
 */
static int stack_var_access(struct verifier_env *env, struct func_state *frame, uint32_t regno,
			    int64_t lo, int64_t hi, int size, const struct reg_state *value,
			    struct reg_state *dst)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	bool zero = true, write_zero = value && reg_is_const(value) && !value->var_off.value;
	struct stack_slot *s;
	int64_t at;
	int byte, err;
	char tn[48];

	tnum_print(tn, sizeof(tn), reg->var_off);
	err = value ? dynptr_stack_write(env, frame, lo, hi)
		    : dynptr_stack_touch(env, frame, lo, hi, false);
	if (err)
		return err;
	for (at = lo; at < hi; at++) {
		err = stack_locate(env, frame, at, false, &s, &byte);
		if (err)
			return err;
		if (value) {
			if (slot_has_spill(s) && s->spill.type != SCALAR_VALUE) {
				verbose(env,
					"spilled ptr in range of var-offset stack write; insn %u, "
					"ptr off: %lld\n",
					env->insn_idx - 1, (long long)at);
				return REJECT;
			}
			if (slot_has_spill(s))
				slot_scrub_spill(s);
			if (s->byte[byte] != STACK_INVALID &&
			    !(write_zero && s->byte[byte] == STACK_ZERO))
				s->byte[byte] = STACK_MISC;
			continue;
		}
		if (((s->byte[byte] == STACK_INVALID && !env->allow_uninit_stack) ||
		     (s->byte[byte] == STACK_SPILL && s->spill.type != SCALAR_VALUE &&
		      !env->allow_ptr_leaks))) {
			verbose(env, "invalid read from stack R%u var_off %s+%lld size %d\n", regno,
				tn, (long long)(at - lo), size);
			return REJECT;
		}
		if (s->byte[byte] == STACK_INVALID ||
		    (s->byte[byte] == STACK_SPILL && s->spill.type != SCALAR_VALUE)) {
			zero = false;
			continue;
		}
		if (s->byte[byte] == STACK_SPILL)
			zero &= reg_is_const(&s->spill) && !s->spill.var_off.value;
		else
			zero &= s->byte[byte] == STACK_ZERO;
	}
	if (!dst)
		return 0;
	if (zero) {
		reg_mark_known(dst, 0);
	} else {
		reg_mark_unknown(dst);
		reg_coerce_size(dst, size);
	}
	return 0;
}

/* struct xdp_md: data, data_end, data_meta, ingress_ifindex, rx_queue_index,
 * egress_ifindex; 4-byte reads only, no writes. */
static int check_ctx_access(struct verifier_env *env, uint32_t regno, int32_t off, int size,
			    bool write, struct reg_state *dst)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	char tn[48];

	if (!tnum_is_const(reg->var_off) || reg->var_off.value) {
		tnum_print(tn, sizeof(tn), reg->var_off);
		verbose(env, "variable ctx access var_off=%s disallowed\n", tn);
		return REJECT;
	}
	if (reg->off) {
		verbose(env, "dereference of modified ctx ptr R%u off=%d disallowed\n", regno,
			reg->off);
		return REJECT;
	}
	if (write || off < 0 || off >= 24 || size != 4 || off % size ||
	    (off == 20 && env->attach_type != BPF_XDP_DEVMAP)) {
		verbose(env, "invalid bpf_context access off=%d size=%d\n", off, size);
		return REJECT;
	}
	if (!dst)
		return 0;
	switch (off) {
	case 0:
		mark_ptr(dst, PTR_TO_PACKET);
		break;
	case 4:
		mark_ptr(dst, PTR_TO_PACKET_END);
		break;
	case 8:
		mark_ptr(dst, PTR_TO_PACKET_META);
		break;
	default:
		reg_mark_unknown(dst);
		reg_coerce_size(dst, 4);
	}
	return 0;
}

#define SOCK_FIELD(f)	offsetof(struct bpf_sock, f)
#define SOCK_END(f)	(SOCK_FIELD(f) + sizeof(((struct bpf_sock *)0)->f))
#define SOCK_IN(off, f) ((off) >= (int32_t)SOCK_FIELD(f) && (off) < (int32_t)SOCK_END(f))

/*
 * A load of size bytes at off from a socket, as the kernel allows it: aligned,
 * whole words but for the fields read narrower too (from their start, or
 * anywhere in an address or the port), and of a socket's common part neither
 * its type, protocol, mark nor priority.
 */
static bool sock_field_ok(uint8_t type, int32_t off, int size)
{
	if (off < 0 || off >= (int32_t)sizeof(struct bpf_sock) || off % size)
		return false;
	if (type == PTR_TO_SOCK_COMMON && off >= (int32_t)SOCK_FIELD(type) &&
	    off < (int32_t)SOCK_END(priority))
		return false;
	if (off == (int32_t)SOCK_FIELD(state) || off == (int32_t)SOCK_FIELD(family) ||
	    off == (int32_t)SOCK_FIELD(type) || off == (int32_t)SOCK_FIELD(protocol) ||
	    off == (int32_t)SOCK_FIELD(src_port) || off == (int32_t)SOCK_FIELD(rx_queue_mapping) ||
	    SOCK_IN(off, src_ip4) || SOCK_IN(off, src_ip6) || SOCK_IN(off, dst_ip4) ||
	    SOCK_IN(off, dst_ip6) || SOCK_IN(off, dst_port))
		return size <= 4; /* the 2-byte port read as a word too, as it once was */
	return size == 4;
}

/* A frozen map's bytes are constants. */
static bool map_const_read(const struct hwxdp_map_desc *map, const struct reg_state *reg,
			   int32_t off, int size, uint64_t *value)
{
	int64_t at;
	int i;

	if (!map->read_only || !tnum_is_const(reg->var_off))
		return false;
	at = (int64_t)reg->var_off.value + reg->off + off;
	if (at < 0 || at + size > map->value_size)
		return false;
	*value = 0;
	for (i = size - 1; i >= 0; i--) {
		uint8_t b = map->initial && (size_t)(at + i) < map->initial_size
				    ? map->initial[at + i]
				    : 0;

		*value = *value << 8 | b;
	}
	return true;
}

static bool map_value_read_only(const struct hwxdp_map_desc *map)
{
	return map->read_only || map->type == BPF_MAP_TYPE_DEVMAP ||
	       map->type == BPF_MAP_TYPE_DEVMAP_HASH || map->type == BPF_MAP_TYPE_XSKMAP ||
	       (map->map_flags & BPF_F_RDONLY_PROG);
}

/*
 * Checks a size-byte access at insn_off from the pointer in regno; for a
 * read with dst, also gives the loaded value. value is the register stored
 * by a write (NULL: the write's content is not a register, as a helper's).
 */
static int check_mem_access(struct verifier_env *env, uint32_t regno, int32_t insn_off, int size,
			    bool write, const struct reg_state *value, int value_regno,
			    struct reg_state *dst)
{
	struct reg_state *reg = &cur_regs(env)[regno];
	const struct hwxdp_map_desc *map;
	int32_t off = reg->off + insn_off;
	uint64_t cval;
	int err;

	switch (reg->type) {
	case PTR_TO_STACK: {
		struct func_state *frame = env->cur->frame[reg->frameno];
		int64_t lo, hi;

		err = stack_bounds(env, regno, insn_off, size, write ? "write to" : "read from",
				   true, &lo, &hi);
		if (err)
			return err;
		precise_note_stack(env, reg->frameno, lo, size, hi - lo != size);
		if (hi - lo != size)
			return stack_var_access(env, frame, regno, lo, hi, size,
						write ? value : NULL, dst);
		if (write)
			return stack_write(env, frame, lo, size, value);
		return dst ? stack_read(env, frame, lo, size, dst) : 0;
	}
	case PTR_TO_MAP_VALUE:
		map = &env->maps[reg->map];
		if (write && value && type_is_ptr(value->type) && !env->allow_ptr_leaks) {
			verbose(env, "R%d leaks addr into map\n", value_regno);
			return REJECT;
		}
		if (write && map_value_read_only(map)) {
			verbose(env, "write into map forbidden, value_size=%u off=%d size=%d\n",
				map->value_size, off, size);
			return REJECT;
		}
		err = check_mem_bounds(env, regno, reg, off, size, map->value_size, false);
		if (!err)
			err = check_map_field_access(env, regno, reg, off, size);
		if (!err && write)
			note_side_effect(env);
		if (err || !dst)
			return err;
		if (map_const_read(map, reg, insn_off, size, &cval)) {
			reg_mark_known(dst, cval);
			return 0;
		}
		reg_mark_unknown(dst);
		reg_coerce_size(dst, size);
		return 0;
	case PTR_TO_PACKET:
	case PTR_TO_PACKET_META:
	case PTR_TO_MEM: {
		bool mem = reg->type == PTR_TO_MEM;

		if (write && mem && (reg->mem_flags & MEM_RDONLY)) {
			verbose(env, "R%u cannot write into rdonly_mem\n", regno);
			return REJECT;
		}
		if (write && value && type_is_ptr(value->type) && !env->allow_ptr_leaks) {
			verbose(env, "R%d leaks addr into %s\n", value_regno,
				mem ? "mem" : "packet");
			return REJECT;
		}
		/* untrusted memory is read by probe loads: no bounds */
		if (mem && (reg->mem_flags & MEM_UNTRUSTED))
			err = 0;
		else
			err = mem ? check_mem_bounds(env, regno, reg, off, size, reg->mem_size,
						     false)
				  : check_packet_bounds(env, regno, reg, off, size, false);
		if (!err && write)
			note_side_effect(env);
		if (err || !dst)
			return err;
		reg_mark_unknown(dst);
		reg_coerce_size(dst, size);
		return 0;
	}
	case PTR_TO_MAP_KEY:
		if (write) {
			verbose(env, "write to change key R%u not allowed\n", regno);
			return REJECT;
		}
		err = check_mem_bounds(env, regno, reg, off, size, env->maps[reg->map].key_size,
				       false);
		if (err || !dst)
			return err;
		reg_mark_unknown(dst);
		reg_coerce_size(dst, size);
		return 0;
	case PTR_TO_CTX:
		return check_ctx_access(env, regno, insn_off, size, write, dst);
	case PTR_TO_BTF_ID:
		return check_btf_ptr_access(env, regno, insn_off, size, write, dst);
	case PTR_TO_SOCKET:
	case PTR_TO_SOCK_COMMON:
		if (write) {
			verbose(env, "R%u cannot write into %s\n", regno, reg_type_str(reg->type));
			return REJECT;
		}
		if (!sock_field_ok(reg->type, off, size)) {
			verbose(env, "R%u invalid %s access off=%d size=%d\n", regno,
				reg_type_str(reg->type), off, size);
			return REJECT;
		}
		if (dst) {
			reg_mark_unknown(dst);
			reg_coerce_size(dst, size);
		}
		return 0;
	default:
		verbose(env, "R%u invalid mem access '%s'\n", regno, reg_type_str(reg->type));
		return REJECT;
	}
}

/*
 * A helper's view of memory: size bytes from the pointer in regno (size is
 * the largest the size argument allows), read and/or written.
 */
int check_mem_region(struct verifier_env *env, uint32_t regno, int32_t off, int size, bool write,
		     bool zero_ok)
{
	struct reg_state *reg = &cur_regs(env)[regno], unknown;
	struct func_state *frame;
	struct stack_slot *s;
	int64_t lo, hi;
	int i, byte, err;

	switch (reg->type) {
	case PTR_TO_STACK:
		if (!size && zero_ok)
			return 0;
		err = stack_bounds(env, regno, off, size, write ? "write to" : "read from", false,
				   &lo, &hi);
		if (err)
			return err;
		frame = env->cur->frame[reg->frameno];
		err = dynptr_stack_touch(env, frame, lo, hi, write);
		if (err)
			return err;
		if (hi - lo != size) {
			reg_mark_unknown(&unknown);
			return stack_var_access(env, frame, regno, lo, hi, size,
						write ? &unknown : NULL, NULL);
		}
		for (i = 0; i < size; i++) {
			err = stack_locate(env, frame, lo + i, false, &s, &byte);
			if (err)
				return err;
			/* bytes never written are root's to pass (and the device's:
			 * what its local memory holds), a spilled pointer's only
			 * where pointers may leak, not on the device, where they
			 * are offsets */
			if (!write &&
			    ((s->byte[byte] == STACK_INVALID && !env->allow_uninit_stack) ||
			     (s->byte[byte] == STACK_SPILL && s->spill.type != SCALAR_VALUE &&
			      !env->allow_ptr_leaks))) {
				verbose(env, "invalid read from stack R%u off %lld+%d size %d\n",
					regno, (long long)lo, i, size);
				return REJECT;
			}
		}
		if (!write)
			return 0;
		/* what the helper writes is unknown data */
		for (i = 0; i < size; i++) {
			stack_locate(env, frame, lo + i, false, &s, &byte);
			if (slot_has_spill(s)) {
				if (s->spill.type != SCALAR_VALUE && !env->allow_ptr_leaks) {
					verbose(env,
						"attempt to corrupt spilled pointer on stack (%s "
						"at "
						"fp%lld)\n",
						reg_type_str(s->spill.type),
						(long long)(lo + i - byte));
					return REJECT;
				}
				slot_scrub_spill(s);
			}
			s->byte[byte] = STACK_MISC;
		}
		return 0;
	case PTR_TO_MAP_VALUE:
		if (write && map_value_read_only(&env->maps[reg->map])) {
			verbose(env, "write into map forbidden, value_size=%u off=%d size=%d\n",
				env->maps[reg->map].value_size, reg->off + off, size);
			return REJECT;
		}
		if (write)
			note_side_effect(env);
		err = check_mem_bounds(env, regno, reg, reg->off + off, size,
				       env->maps[reg->map].value_size, zero_ok);
		return err ? err : check_map_field_access(env, regno, reg, reg->off + off, size);
	case PTR_TO_PACKET:
	case PTR_TO_PACKET_META:
		if (write)
			note_side_effect(env);
		return check_packet_bounds(env, regno, reg, reg->off + off, size, zero_ok);
	case PTR_TO_MEM:
		/* the kernel's helpers and kfuncs take no untrusted memory,
		 * not even for 0 bytes */
		if (reg->mem_flags & MEM_UNTRUSTED) {
			verbose(env,
				"R%u type=rdonly_untrusted_mem expected=fp, pkt, pkt_meta, "
				"map_key, map_value, mem\n",
				regno);
			return REJECT;
		}
		if (write && (reg->mem_flags & MEM_RDONLY)) {
			verbose(env, "R%u cannot write into rdonly_mem\n", regno);
			return REJECT;
		}
		if (write)
			note_side_effect(env);
		return check_mem_bounds(env, regno, reg, reg->off + off, size, reg->mem_size,
					zero_ok);
	case PTR_TO_MAP_KEY:
		if (write) {
			verbose(env, "write to change key R%u not allowed\n", regno);
			return REJECT;
		}
		return check_mem_bounds(env, regno, reg, reg->off + off, size,
					env->maps[reg->map].key_size, zero_ok);
	default:
		return -EFAULT;
	}
}

static bool is_atomic_op(int32_t imm)
{
	switch (imm) {
	case BPF_ADD:
	case BPF_ADD | BPF_FETCH:
	case BPF_AND:
	case BPF_AND | BPF_FETCH:
	case BPF_OR:
	case BPF_OR | BPF_FETCH:
	case BPF_XOR:
	case BPF_XOR | BPF_FETCH:
	case BPF_XCHG:
	case BPF_CMPXCHG:
		return true;
	}
	return false;
}

static int check_atomic(struct verifier_env *env, const struct bpf_insn *insn)
{
	struct reg_state *regs = cur_regs(env), loaded;
	uint8_t size = BPF_SIZE(insn->code);
	int bytes = size == BPF_DW ? 8 : 4;
	uint32_t load_reg;
	int err;

	if (!is_atomic_op(insn->imm)) {
		verbose(env, "BPF_ATOMIC uses invalid atomic opcode %02x\n", insn->imm);
		return -EINVAL;
	}
	if (size != BPF_W && size != BPF_DW) {
		verbose(env, "invalid atomic operand size\n");
		return -EINVAL;
	}
	err = check_reg_readable(env, insn->src_reg);
	if (!err)
		err = check_reg_readable(env, insn->dst_reg);
	if (!err && insn->imm == BPF_CMPXCHG)
		err = check_reg_readable(env, BPF_REG_0);
	if (err)
		return err;
	if (type_is_ptr(regs[insn->src_reg].type) && !env->allow_ptr_leaks) {
		verbose(env, "R%d leaks addr into mem\n", insn->src_reg);
		return REJECT;
	}
	if (insn->imm == BPF_CMPXCHG && type_is_ptr(regs[0].type) && !env->allow_ptr_leaks) {
		verbose(env, "R0 leaks addr into mem\n");
		return REJECT;
	}
	switch (regs[insn->dst_reg].type) {
	case PTR_TO_STACK:
	case PTR_TO_MAP_VALUE:
		break;
	default:
		verbose(env, "BPF_ATOMIC stores into R%d %s is not allowed\n", insn->dst_reg,
			reg_type_str(regs[insn->dst_reg].type));
		return REJECT;
	}
	if (regs[insn->dst_reg].type == PTR_TO_MAP_VALUE) {
		const struct reg_state *ptr = &regs[insn->dst_reg];
		struct tnum at = tnum_add(ptr->var_off,
					  tnum_const((uint64_t)(int64_t)(ptr->off + insn->off)));
		char tn[48];

		/* an atomic operation is never split across words */
		if ((at.value | at.mask) & (bytes - 1)) {
			if (tnum_is_const(ptr->var_off))
				snprintf(tn, sizeof(tn), "%llu",
					 (unsigned long long)ptr->var_off.value);
			else
				tnum_print(tn, sizeof(tn), ptr->var_off);
			verbose(env, "misaligned value access off %s+%d+%d size %d\n", tn, ptr->off,
				insn->off, bytes);
			return REJECT;
		}
	}
	err = check_mem_access(env, insn->dst_reg, insn->off, bytes, false, NULL, -1, &loaded);
	if (err)
		return err;
	if (regs[insn->dst_reg].type == PTR_TO_STACK) {
		/* the slot now holds an unknown value */
		reg_mark_unknown(&loaded);
		reg_coerce_size(&loaded, bytes);
		err = check_mem_access(env, insn->dst_reg, insn->off, bytes, true, &loaded, -1,
				       NULL);
	} else {
		err = check_mem_access(env, insn->dst_reg, insn->off, bytes, true,
				       &regs[insn->src_reg], insn->src_reg, NULL);
	}
	if (err)
		return err;
	if (!(insn->imm & BPF_FETCH))
		return 0;
	load_reg = insn->imm == BPF_CMPXCHG ? BPF_REG_0 : insn->src_reg;
	err = check_reg_writable(env, load_reg);
	if (err)
		return err;
	reg_mark_unknown(&regs[load_reg]);
	reg_coerce_size(&regs[load_reg], bytes);
	return 0;
}

static int size_bytes(uint8_t size)
{
	switch (size) {
	case BPF_B:
		return 1;
	case BPF_H:
		return 2;
	case BPF_W:
		return 4;
	default:
		return 8;
	}
}

static int check_load(struct verifier_env *env, const struct bpf_insn *insn)
{
	struct reg_state value;
	int size = size_bytes(BPF_SIZE(insn->code));
	int err;

	err = check_reg_readable(env, insn->src_reg);
	if (!err)
		err = check_reg_writable(env, insn->dst_reg);
	if (!err)
		err = check_mem_access(env, insn->src_reg, insn->off, size, false, NULL, -1,
				       &value);
	if (err)
		return err;
	if (BPF_MODE(insn->code) == BPF_MEMSX) {
		if (value.type != SCALAR_VALUE) {
			verbose(env, "R%d sign-extension part of pointer\n", insn->src_reg);
			return REJECT;
		}
		reg_coerce_size_sx(&value, size);
	}
	cur_regs(env)[insn->dst_reg] = value;
	return 0;
}

static int check_store(struct verifier_env *env, const struct bpf_insn *insn)
{
	struct reg_state imm;
	const struct reg_state *value;
	int size = size_bytes(BPF_SIZE(insn->code));
	int err, value_regno = -1;

	err = check_reg_readable(env, insn->dst_reg);
	if (err)
		return err;
	if (BPF_CLASS(insn->code) == BPF_STX) {
		struct reg_state *src;

		err = check_reg_readable(env, insn->src_reg);
		if (err)
			return err;
		src = &cur_regs(env)[insn->src_reg];
		/* A spilled scalar stays linked to its register, so that a
		 * later test of either narrows both. */
		if (cur_regs(env)[insn->dst_reg].type == PTR_TO_STACK &&
		    src->type == SCALAR_VALUE && !src->id && !tnum_is_const(src->var_off) &&
		    (size == 8 || !(src->umax >> (size * 8)))) {
			src->id = new_id(env);
			src->off = 0; /* the base of the new link */
		}
		value = src;
		value_regno = insn->src_reg;
	} else {
		reg_mark_known(&imm, (uint64_t)(int64_t)insn->imm);
		value = &imm;
	}
	return check_mem_access(env, insn->dst_reg, insn->off, size, true, value, value_regno,
				NULL);
}

/* ---- ALU ------------------------------------------------------------- */

static int check_reg_sane_offset(struct verifier_env *env, const struct reg_state *reg,
				 uint8_t ptr_type)
{
	int64_t val = (int64_t)reg->var_off.value;

	if (tnum_is_const(reg->var_off) && (val >= MAX_VAR_OFF || val <= -MAX_VAR_OFF)) {
		verbose(env, "math between %s pointer and %lld is not allowed\n",
			reg_type_str(ptr_type), (long long)val);
		return REJECT;
	}
	if (reg->off >= MAX_VAR_OFF || reg->off <= -MAX_VAR_OFF) {
		verbose(env, "%s pointer offset %d is not allowed\n", reg_type_str(ptr_type),
			reg->off);
		return REJECT;
	}
	if (reg->smin == INT64_MIN) {
		verbose(env,
			"math between %s pointer and register with unbounded min value is not "
			"allowed\n",
			reg_type_str(ptr_type));
		return REJECT;
	}
	if (reg->smin >= MAX_VAR_OFF || reg->smin <= -MAX_VAR_OFF) {
		verbose(env, "value %lld makes %s pointer be out of bounds\n", (long long)reg->smin,
			reg_type_str(ptr_type));
		return REJECT;
	}
	return 0;
}

/* pointer +/- scalar (or scalar + pointer): the result is the pointer moved. */
static int ptr_alu(struct verifier_env *env, const struct bpf_insn *insn,
		   const struct reg_state *ptr, const struct reg_state *scalar)
{
	uint8_t op = BPF_OP(insn->code);
	struct reg_state res = *ptr, var;
	uint32_t regno = insn->dst_reg;
	int err;

	if (BPF_CLASS(insn->code) == BPF_ALU) {
		verbose(env, "R%u 32-bit pointer arithmetic prohibited\n", regno);
		return REJECT;
	}
	switch (ptr->type) {
	case PTR_TO_MAP_VALUE_OR_NULL:
	case PTR_TO_MEM_OR_NULL:
	case CONST_PTR_TO_MAP_OR_NULL:
	case PTR_TO_SOCKET_OR_NULL:
	case PTR_TO_SOCK_COMMON_OR_NULL:
	case PTR_TO_BTF_ID_OR_NULL:
		verbose(env, "R%u pointer arithmetic on %s prohibited, null-check it first\n",
			regno, reg_type_str(ptr->type));
		return REJECT;
	case CONST_PTR_TO_MAP:
	case PTR_TO_PACKET_END:
	case KFUNC_ADDR:
	case PTR_TO_FUNC:
	case PTR_TO_SOCKET:
	case PTR_TO_SOCK_COMMON:
		verbose(env, "R%u pointer arithmetic on %s prohibited\n", regno,
			reg_type_str(ptr->type));
		return REJECT;
	}
	if (op != BPF_ADD && op != BPF_SUB) {
		if (op == BPF_AND || op == BPF_OR || op == BPF_XOR)
			verbose(env, "R%u bitwise operator %s on pointer prohibited\n", regno,
				alu_op_str(op));
		else
			verbose(env, "R%u pointer arithmetic with %s operator prohibited\n", regno,
				alu_op_str(op));
		return REJECT;
	}
	if (op == BPF_SUB && scalar == &cur_regs(env)[insn->dst_reg]) {
		verbose(env, "R%u tried to subtract pointer from scalar\n", regno);
		return REJECT;
	}
	if (op == BPF_SUB && ptr->type == PTR_TO_STACK) {
		verbose(env, "R%u subtraction from stack pointer prohibited\n", regno);
		return REJECT;
	}
	err = check_reg_sane_offset(env, scalar, ptr->type);
	if (err)
		return err;

	if (tnum_is_const(scalar->var_off)) {
		int64_t moved =
			(int64_t)ptr->off + (op == BPF_ADD ? (int64_t)scalar->var_off.value
							   : -(int64_t)scalar->var_off.value);

		if (moved != (int32_t)moved) {
			verbose(env, "%s pointer offset %lld is not allowed\n",
				reg_type_str(ptr->type), (long long)moved);
			return REJECT;
		}
		res.off = moved;
		/* a pointer known beyond the end stays beyond it only going up */
		if (type_is_pkt(ptr->type) && ptr->range < 0 && moved < ptr->off)
			res.range = 0;
		else if (ptr->range == AT_PKT_END && moved > ptr->off)
			res.range = BEYOND_PKT_END;
	} else {
		var = *ptr;
		var.type = SCALAR_VALUE;
		scalar_alu(&var, scalar, op, false);
		res.var_off = var.var_off;
		res.smin = var.smin;
		res.smax = var.smax;
		res.umin = var.umin;
		res.umax = var.umax;
		res.s32_min = var.s32_min;
		res.s32_max = var.s32_max;
		res.u32_min = var.u32_min;
		res.u32_max = var.u32_max;
		if (type_is_pkt(ptr->type)) {
			/* a new variable part: a new pointer with nothing proven */
			res.id = new_id(env);
			res.range = 0;
		}
	}
	err = check_reg_sane_offset(env, &res, res.type);
	if (err)
		return err;
	cur_regs(env)[regno] = res;
	return 0;
}

static bool same_object(const struct reg_state *a, const struct reg_state *b)
{
	bool pkt_a = type_is_pkt(a->type) || a->type == PTR_TO_PACKET_END;
	bool pkt_b = type_is_pkt(b->type) || b->type == PTR_TO_PACKET_END;

	if (pkt_a || pkt_b)
		return pkt_a && pkt_b;
	return a->type == PTR_TO_STACK && b->type == PTR_TO_STACK && a->frameno == b->frameno;
}

static int check_alu_reserved(struct verifier_env *env, const struct bpf_insn *insn)
{
	uint8_t op = BPF_OP(insn->code);
	bool alu64 = BPF_CLASS(insn->code) == BPF_ALU64;

	switch (op) {
	case BPF_NEG:
		if (BPF_SRC(insn->code) != BPF_K || insn->src_reg || insn->off || insn->imm)
			goto bad;
		return 0;
	case BPF_END:
		if (insn->src_reg || insn->off ||
		    (insn->imm != 16 && insn->imm != 32 && insn->imm != 64) ||
		    (alu64 && BPF_SRC(insn->code) != BPF_TO_LE))
			goto bad;
		return 0;
	case BPF_MOV:
		if (BPF_SRC(insn->code) == BPF_X) {
			if (insn->imm || (insn->off && insn->off != 8 && insn->off != 16 &&
					  (!alu64 || insn->off != 32)))
				goto bad;
		} else if (insn->src_reg || insn->off) {
			goto bad;
		}
		return 0;
	default:
		if (op > BPF_END) {
			verbose(env, "invalid BPF_ALU opcode %x\n", op);
			return -EINVAL;
		}
		if (insn->off && (insn->off != 1 || (op != BPF_DIV && op != BPF_MOD)))
			goto bad;
		if (BPF_SRC(insn->code) == BPF_X ? insn->imm != 0 : insn->src_reg != 0)
			goto bad;
		return 0;
	}
bad:
	verbose(env, "BPF_%s uses reserved fields\n",
		op == BPF_NEG	? "NEG"
		: op == BPF_END ? "END"
		: op == BPF_MOV ? "MOV"
				: "ALU");
	return -EINVAL;
}

static int check_alu(struct verifier_env *env, const struct bpf_insn *insn)
{
	struct reg_state *regs = cur_regs(env), *dst = &regs[insn->dst_reg], imm;
	uint8_t op = BPF_OP(insn->code);
	bool alu32 = BPF_CLASS(insn->code) == BPF_ALU;
	bool x = BPF_SRC(insn->code) == BPF_X;
	const struct reg_state *src;
	int err;

	err = check_alu_reserved(env, insn);
	if (!err && x && op != BPF_NEG && op != BPF_END)
		err = check_reg_readable(env, insn->src_reg);
	if (!err && op != BPF_MOV)
		err = check_reg_readable(env, insn->dst_reg);
	if (err)
		return err;
	err = check_reg_writable(env, insn->dst_reg);
	if (err)
		return err;

	if (op == BPF_NEG || op == BPF_END) {
		if (dst->type != SCALAR_VALUE) {
			if (!env->allow_ptr_leaks) {
				verbose(env, "R%u pointer arithmetic prohibited\n", insn->dst_reg);
				return REJECT;
			}
			/* as the kernel: a whole unknown, even for a 32-bit op */
			reg_mark_unknown(dst);
			return 0;
		}
		if (op == BPF_NEG) {
			reg_mark_known(&imm, 0);
			scalar_alu(&imm, dst, BPF_SUB, alu32);
			*dst = imm;
		} else {
			scalar_endian(dst, insn->imm, !alu32 || BPF_SRC(insn->code) == BPF_TO_BE);
		}
		return 0;
	}

	if (x) {
		src = &regs[insn->src_reg];
	} else {
		reg_mark_known(&imm, alu32 ? (uint32_t)insn->imm : (uint64_t)(int64_t)insn->imm);
		src = &imm;
		if ((op == BPF_DIV || op == BPF_MOD) && !insn->imm) {
			verbose(env, "div by zero\n");
			return -EINVAL;
		}
		if ((op == BPF_LSH || op == BPF_RSH || op == BPF_ARSH) &&
		    (insn->imm < 0 || insn->imm >= (alu32 ? 32 : 64))) {
			verbose(env, "invalid shift %d\n", insn->imm);
			return -EINVAL;
		}
	}

	if (op == BPF_MOV) {
		if (type_is_ptr(src->type) && (alu32 || insn->off)) {
			/* clang's alu32 code copies data and data_end to 32 bits to
			 * subtract them; on the device they are window offsets, so
			 * the low bits are a number as in the kernel (root) */
			if (!env->allow_ptr_leaks &&
			    !(env->device && packet_ptr(src->type) && alu32)) {
				verbose(env, "R%u partial copy of pointer\n", insn->src_reg);
				return REJECT;
			}
			/* root: bytes of an address, a number like any other */
			reg_mark_unknown(dst);
			if (alu32)
				reg_coerce_size(dst, 4);
			return 0;
		}
		if (insn->off) {
			*dst = *src;
			dst->id = 0;
			if (alu32) {
				reg_coerce_size_sx(dst, insn->off / 8);
				reg_zext32(dst);
			} else {
				reg_coerce_size_sx(dst, insn->off / 8);
			}
			return 0;
		}
		/* a copy of r8 + c starts a link of its own, as in the kernel */
		if (!alu32 && x && src->type == SCALAR_VALUE && src->off) {
			regs[insn->src_reg].id = 0;
			regs[insn->src_reg].off = 0;
		}
		if (!alu32 && x && src->type == SCALAR_VALUE && !src->id &&
		    !tnum_is_const(src->var_off)) {
			regs[insn->src_reg].id = new_id(env); /* link the copies */
			regs[insn->src_reg].off = 0;
		}
		scalar_alu(dst, src, BPF_MOV, alu32);
		return 0;
	}

	if (type_is_ptr(dst->type) && type_is_ptr(src->type)) {
		/* a distance inside one object, not an address */
		if (op == BPF_SUB && (same_object(dst, src) || env->allow_ptr_leaks)) {
			reg_mark_unknown(dst);
			/* The kernel (root) leaves all 64 bits unknown, even for a
			 * 32-bit subtraction, whose upper half is zero when it
			 * runs: a 32-bit bound on it then says nothing of the
			 * register as a whole, and pointer + it is refused. */
			if (alu32 && !env->allow_ptr_leaks)
				reg_coerce_size(dst, 4);
			return 0;
		}
		verbose(env, "R%u pointer %s pointer prohibited\n", insn->dst_reg, alu_op_str(op));
		return REJECT;
	}
	/* 32-bit arithmetic on a pointer: the kernel gives root a number for a
	 * subtraction (clang's alu32 `data_end - data`), as the device does for
	 * packet pointers, which are window offsets there */
	if (alu32 && op == BPF_SUB && (type_is_ptr(dst->type) || type_is_ptr(src->type))) {
		enum reg_type t = type_is_ptr(dst->type) ? dst->type : src->type;

		if (env->allow_ptr_leaks || (env->device && packet_ptr(t))) {
			reg_mark_unknown(dst);
			/* all 64 bits unknown for root, as above */
			if (!env->allow_ptr_leaks)
				reg_coerce_size(dst, 4);
			return 0;
		}
	}
	/* the scalar moves a pointer: its value matters */
	if (type_is_ptr(dst->type)) {
		if (x)
			precise_mark_regs(env, (uint16_t)(1u << insn->src_reg));
		return ptr_alu(env, insn, dst, src);
	}
	if (type_is_ptr(src->type)) {
		precise_mark_regs(env, (uint16_t)(1u << insn->dst_reg));
		if (op == BPF_ADD)
			return ptr_alu(env, insn, src, dst);
		if (op == BPF_SUB && !alu32) {
			verbose(env, "R%u tried to subtract pointer from scalar\n", insn->dst_reg);
			return REJECT;
		}
		return ptr_alu(env, insn, src, dst);
	}
	/*
	 * r1 = r8 then r1 += c keeps r1 linked to r8, c apart, as the kernel
	 * does (since 6.10): what a branch learns of one, the other learns
	 * too. Once per link, 64-bit only, c within s32.
	 */
	if (!alu32 && (op == BPF_ADD || op == BPF_SUB) && dst->id && !dst->off &&
	    reg_is_const(src) && (int64_t)src->var_off.value >= INT32_MIN + 1 &&
	    (int64_t)src->var_off.value <= INT32_MAX) {
		int32_t c = (int32_t)(int64_t)src->var_off.value;
		uint32_t id = dst->id;

		scalar_alu(dst, src, op, alu32);
		if (c) {
			dst->id = id;
			dst->off = op == BPF_ADD ? c : -c;
		}
		return 0;
	}
	scalar_alu(dst, src, op, alu32);
	return 0;
}

/* ---- jumps ----------------------------------------------------------- */

/* Pointers a comparison with NULL is decided for, as in the kernel. */
static bool reg_not_null(const struct reg_state *reg)
{
	return reg->type == PTR_TO_MAP_VALUE || reg->type == KFUNC_ADDR ||
	       reg->type == PTR_TO_MEM || reg->type == PTR_TO_SOCKET ||
	       reg->type == PTR_TO_SOCK_COMMON ||
	       /* the kernel's is_trusted_reg: a reference */
	       (reg->type == PTR_TO_BTF_ID && reg->ref_obj_id);
}

/*
 * A packet pointer at or past the start of its region, which is never NULL
 * on either side: an address in the kernel, and on the device a window
 * offset no lower than HXU_FRAME_RESERVED. The kernel does not know it (it
 * explores both outcomes of `p == 0`), so neither does the verifier: this
 * only says that the device's comparison gives the kernel's answer.
 */
static bool pkt_never_null(const struct reg_state *reg)
{
	return (reg->type == PTR_TO_PACKET || reg->type == PTR_TO_PACKET_META ||
		reg->type == PTR_TO_PACKET_END) &&
	       reg->off >= 0 && reg->smin >= 0;
}

static bool is_init_pkt_pointer(const struct reg_state *reg)
{
	return reg->type == PTR_TO_PACKET && !reg->off && tnum_equals_const(reg->var_off, 0);
}

/*
 * A comparison of a packet pointer p with the end of its region: data_end
 * for packet pointers, data itself for meta pointers. Returns the index of
 * p (0: dst, 1: src) and the operation as "p op end", or -1.
 */
static int pkt_compare(const struct reg_state *dst, const struct reg_state *src, uint8_t *op)
{
	if ((dst->type == PTR_TO_PACKET && src->type == PTR_TO_PACKET_END) ||
	    (dst->type == PTR_TO_PACKET_META && is_init_pkt_pointer(src)))
		return 0;
	if ((dst->type == PTR_TO_PACKET_END && src->type == PTR_TO_PACKET) ||
	    (is_init_pkt_pointer(dst) && src->type == PTR_TO_PACKET_META)) {
		*op = jmp_flip(*op);
		return 1;
	}
	return -1;
}

/*
 * Whether "p op end" is decided by what a comparison marked on p itself
 * (at or beyond the end): the kernel explores only one side then, and so
 * does hwxdp.
 */
static int pkt_mark_taken(const struct reg_state *p, uint8_t op)
{
	if (p->range >= 0)
		return -1;
	switch (op) {
	case BPF_JGT:
	case BPF_JLE:
		return p->range == BEYOND_PKT_END ? op == BPF_JGT : -1;
	case BPF_JGE:
	case BPF_JLT:
		return op == BPF_JGE;
	}
	return -1;
}

/*
 * Whether "p op end" is decided at all. A range r >= 0 proves base + r <=
 * end, so p = base + off lies at or before end when off <= r, strictly
 * before when off < r. The kernel explores both sides of such a check, and
 * so must hwxdp (a program loads on both or neither); the translator still
 * learns that the check is redundant.
 */
static int pkt_proven(const struct reg_state *p, uint8_t op)
{
	if (p->range < 0)
		return pkt_mark_taken(p, op);
	switch (op) {
	case BPF_JGT:
		return p->off <= p->range ? 0 : -1;
	case BPF_JLE:
		return p->off <= p->range ? 1 : -1;
	case BPF_JGE:
		return p->off < p->range ? 0 : -1;
	case BPF_JLT:
		return p->off < p->range ? 1 : -1;
	}
	return -1;
}

/* p <= end (or p < end when right_open): every pointer sharing p's
 * variable part gains the range up to p. */
static void find_good_pkt_pointers(struct vstate *st, const struct reg_state *p, bool right_open)
{
	int32_t range = p->off + right_open;
	uint8_t type = p->type;
	uint32_t id = p->id;

	if (p->off < 0 || range <= 0 || p->umax > MAX_PACKET_OFF ||
	    p->umax + p->off > MAX_PACKET_OFF)
		return;
	for_each_reg(st, reg, {
		if (reg->type == type && reg->id == id && reg->range < range)
			reg->range = range;
	});
}

/* What "p op end" teaches the state in which it holds. */
static void learn_pkt_compare(struct vstate *st, uint32_t regno, uint8_t op)
{
	struct reg_state *p = &st->frame[st->curframe]->regs[regno];

	switch (op) {
	case BPF_JLE:
		find_good_pkt_pointers(st, p, false);
		break;
	case BPF_JLT:
		find_good_pkt_pointers(st, p, true);
		break;
	case BPF_JGT:
		if (p->type == PTR_TO_PACKET)
			p->range = BEYOND_PKT_END;
		break;
	case BPF_JGE:
		if (p->type == PTR_TO_PACKET && p->range != BEYOND_PKT_END)
			p->range = AT_PKT_END;
		break;
	}
}

/* After "if r == 0": the maybe-null result of one lookup is null, or not. */
static void mark_ptr_or_null(const struct verifier_env *env, struct vstate *st, uint32_t id,
			     bool is_null)
{
	for_each_reg(st, reg, {
		if (!type_is_or_null(reg->type) || reg->id != id)
			continue;
		if (is_null) {
			/* a reservation or lookup that failed holds nothing;
			 * a slice of a dynptr leaves the dynptr's reference */
			if (reg->ref_obj_id && reg->ref_obj_id == reg->id)
				drop_reference(st->frame[st->curframe], reg->ref_obj_id);
			reg_mark_known(reg, 0);
		} else {
			reg->type = reg->type == CONST_PTR_TO_MAP_OR_NULL     ? CONST_PTR_TO_MAP
				    : reg->type == PTR_TO_MEM_OR_NULL	      ? PTR_TO_MEM
				    : reg->type == PTR_TO_SOCKET_OR_NULL      ? PTR_TO_SOCKET
				    : reg->type == PTR_TO_SOCK_COMMON_OR_NULL ? PTR_TO_SOCK_COMMON
				    : reg->type == PTR_TO_BTF_ID_OR_NULL      ? PTR_TO_BTF_ID
									      : PTR_TO_MAP_VALUE;
			/* a value with a lock keeps its id: the lock's identity,
			 * which the unlock must name again */
			if (reg->type != PTR_TO_MAP_VALUE ||
			    !map_has_lock(env, &env->maps[reg->map]))
				reg->id = 0;
		}
	});
}

/* Scalars linked to known by a copy learn what it learned, shifted by the
 * constant they are apart (reg_state.off of each: base + off). */
static void sync_linked_scalars(struct vstate *st, const struct reg_state *known)
{
	if (known->type != SCALAR_VALUE || !known->id)
		return;
	for_each_reg(st, reg, {
		if (reg->type == SCALAR_VALUE && reg->id == known->id) {
			int32_t off = reg->off;
			struct reg_state delta;

			if (off == known->off) {
				*reg = *known;
				continue;
			}
			reg_mark_known(&delta, (uint64_t)((int64_t)off - known->off));
			*reg = *known;
			scalar_alu(reg, &delta, BPF_ADD, false);
			reg->id = known->id;
			reg->off = off;
		}
	});
}

static int check_jmp_reserved(struct verifier_env *env, const struct bpf_insn *insn)
{
	uint8_t op = BPF_OP(insn->code);

	if (op > BPF_JSLE) {
		verbose(env, "invalid BPF_JMP/JMP32 opcode %x\n", op);
		return -EINVAL;
	}
	if (BPF_SRC(insn->code) == BPF_X ? insn->imm != 0 : insn->src_reg != 0) {
		verbose(env, "BPF_JMP/JMP32 uses reserved fields\n");
		return -EINVAL;
	}
	return 0;
}

static void note_branch(struct verifier_env *env, uint32_t idx, int taken)
{
	struct insn_aux *aux = &env->aux[idx];

	aux->pkt_compare = true;
	if (taken == 1)
		aux->branch_true = true;
	else if (taken == 0)
		aux->branch_false = true;
	else
		aux->branch_unknown = true;
}

static int check_cond_jmp(struct verifier_env *env, const struct bpf_insn *insn, uint32_t idx)
{
	bool jmp32 = BPF_CLASS(insn->code) == BPF_JMP32, x = BPF_SRC(insn->code) == BPF_X;
	uint8_t op = BPF_OP(insn->code), pop = op;
	uint32_t target = idx + insn->off + 1;
	struct reg_state *regs = cur_regs(env), *dst = &regs[insn->dst_reg], imm;
	struct reg_state t_dst, t_src, f_dst, f_src;
	const struct reg_state *src;
	struct vstate *other;
	int taken = -1, pkt = -1, err;
	bool null_check = false, pkt_null = false;

	err = check_jmp_reserved(env, insn);
	if (!err)
		err = check_reg_readable(env, insn->dst_reg);
	if (!err && x)
		err = check_reg_readable(env, insn->src_reg);
	if (err)
		return err;
	if (x) {
		src = &regs[insn->src_reg];
	} else {
		reg_mark_known(&imm, jmp32 ? (uint32_t)insn->imm : (uint64_t)(int64_t)insn->imm);
		src = &imm;
	}

	if (dst->type == SCALAR_VALUE && src->type == SCALAR_VALUE) {
		taken = scalar_branch_taken(dst, src, op, jmp32);
	} else if (!jmp32 && (op == BPF_JEQ || op == BPF_JNE) && reg_is_const(src) &&
		   !src->var_off.value && type_is_ptr(dst->type)) {
		/* a register's 0 makes it a NULL check */
		if (x)
			precise_mark_regs(env, (uint16_t)(1u << insn->src_reg));
		if (reg_not_null(dst))
			taken = op == BPF_JNE;
		else if (type_is_or_null(dst->type))
			null_check = true;
		else if (env->device && (dst->type == PTR_TO_STACK || dst->type == PTR_TO_CTX)) {
			/* never NULL in the kernel, but on the device an offset
			 * that can be 0 (the context's, fp-512 of frame 0): the
			 * device walk takes the kernel's outcome, and the facts
			 * make the translated branch decided, not compared */
			taken = op == BPF_JNE;
			note_branch(env, idx, taken);
		} else
			pkt_null = env->device && pkt_never_null(dst);
	} else if (!jmp32 && x) {
		pkt = pkt_compare(dst, src, &pop);
		if (pkt >= 0) {
			taken = pkt_mark_taken(pkt ? src : dst, pop);
			note_branch(env, idx, pkt_proven(pkt ? src : dst, pop));
		}
	}

	/*
	 * Any other comparison involving a pointer would compare addresses:
	 * the kernel refuses it without CAP_PERFMON, and on the device, where
	 * a pointer is an offset in its own space, it would not even give the
	 * kernel's answer.
	 */
	if (!null_check && !pkt_null && pkt < 0 && !(taken >= 0 && type_is_ptr(dst->type)) &&
	    (dst->type != SCALAR_VALUE || src->type != SCALAR_VALUE) && !env->allow_ptr_leaks) {
		verbose(env, "R%u pointer comparison prohibited\n",
			dst->type != SCALAR_VALUE ? insn->dst_reg : insn->src_reg);
		return -EACCES;
	}

	/* Refine scalars for both outcomes; an empty range is a dead side. */
	if (taken < 0 && dst->type == SCALAR_VALUE && src->type == SCALAR_VALUE) {
		t_dst = f_dst = *dst;
		t_src = f_src = *src;
		scalar_refine(&t_dst, &t_src, op, jmp32);
		scalar_refine(&f_dst, &f_src, op == BPF_JSET ? BPF_JSET | 1 : jmp_negate(op),
			      jmp32);
		if (reg_bounds_empty(&t_dst) || reg_bounds_empty(&t_src))
			taken = 0;
		else if (reg_bounds_empty(&f_dst) || reg_bounds_empty(&f_src))
			taken = 1;
		else
			precise_note_links(env, dst->id, x ? src->id : 0);
	}
	/* the bounds chose one side: the other is never walked */
	if (taken >= 0 && dst->type == SCALAR_VALUE && src->type == SCALAR_VALUE)
		precise_mark_regs(env,
				  (uint16_t)(1u << insn->dst_reg | (x ? 1u << insn->src_reg : 0u)));
	if (taken == 1) {
		env->insn_idx = target;
		return 0;
	}
	if (taken == 0) {
		env->insn_idx = idx + 1;
		return 0;
	}

	err = state_push(env, target, idx, &other);
	if (err)
		return err;
	env->insn_idx = idx + 1;
	if (dst->type == SCALAR_VALUE && src->type == SCALAR_VALUE) {
		struct reg_state *o_regs = other->frame[other->curframe]->regs;

		o_regs[insn->dst_reg] = t_dst;
		sync_linked_scalars(other, &t_dst);
		if (x) {
			o_regs[insn->src_reg] = t_src;
			sync_linked_scalars(other, &t_src);
		}
		regs[insn->dst_reg] = f_dst;
		sync_linked_scalars(env->cur, &f_dst);
		if (x) {
			regs[insn->src_reg] = f_src;
			sync_linked_scalars(env->cur, &f_src);
		}
	} else if (null_check) {
		uint32_t id = dst->id;

		mark_ptr_or_null(env, other, id, op == BPF_JEQ);
		mark_ptr_or_null(env, env->cur, id, op == BPF_JNE);
	} else if (pkt >= 0) {
		uint32_t p = pkt ? insn->src_reg : insn->dst_reg;

		learn_pkt_compare(other, p, pop);
		learn_pkt_compare(env->cur, p, jmp_negate(pop));
	}
	return 0;
}

/* ---- calls and exits ------------------------------------------------- */

/*
 * A call of a global function, as the kernel has it: the arguments are
 * checked against the function's BTF prototype, the function is verified
 * once on its own (global_funcs), and the caller goes on with an unknown
 * scalar in R0, whatever the function returns.
 */
static int check_global_call(struct verifier_env *env, uint32_t subprog)
{
	struct subprog_info *sp = &env->subprogs[subprog];
	struct reg_state *regs = cur_regs(env), saved;
	int err;

	for (uint32_t i = 0; i < sp->arg_cnt; i++) {
		uint32_t regno = BPF_REG_1 + i;
		struct reg_state *reg = &regs[regno];

		err = check_reg_readable(env, regno);
		if (err)
			return err;
		switch (sp->arg[i]) {
		case GARG_SCALAR:
			if (reg->type != SCALAR_VALUE) {
				verbose(env, "R%u is not a scalar\n", regno);
				goto bad;
			}
			break;
		case GARG_CTX:
			if (reg->type != PTR_TO_CTX) {
				verbose(env, "arg#%u expects pointer to ctx\n", i);
				goto bad;
			}
			break;
		case GARG_MEM:
			if (reg_is_const(reg) && !reg->var_off.value)
				break; /* NULL: the function must check for it */
			/* maybe NULL is fine: the memory is checked as if it
			 * were not, the register left as it is (the kernel's) */
			saved = *reg;
			if (reg->type == PTR_TO_MAP_VALUE_OR_NULL)
				reg->type = PTR_TO_MAP_VALUE;
			else if (reg->type == PTR_TO_MEM_OR_NULL)
				reg->type = PTR_TO_MEM;
			if (!type_is_ptr(reg->type) || reg->type == PTR_TO_CTX ||
			    reg->type == CONST_PTR_TO_MAP || reg->type == PTR_TO_PACKET_END ||
			    reg->type == KFUNC_ADDR || reg->type == CONST_PTR_TO_MAP_OR_NULL ||
			    reg->type == PTR_TO_FUNC || type_is_sock(reg->type)) {
				*reg = saved;
				verbose(env,
					"R%u type=%s expected=fp, pkt, pkt_meta, map_value, mem\n",
					regno, reg_type_str(reg->type));
				goto bad;
			}
			err = check_mem_region(env, regno, 0, (int)sp->arg_size[i], false, false);
			if (!err)
				err = check_mem_region(env, regno, 0, (int)sp->arg_size[i], true,
						       false);
			*reg = saved;
			if (err)
				goto bad;
			break;
		}
	}
	sp->called = true;
	precise_mark_regs(env, (uint16_t)(((1u << sp->arg_cnt) - 1) << BPF_REG_1));
	for (uint32_t r = BPF_REG_1; r <= BPF_REG_5; r++)
		reg_mark_not_init(&regs[r]);
	reg_mark_unknown(&regs[BPF_REG_0]);
	return 0;
bad:
	verbose(env, "Caller passes invalid args into func#%u ('%s')\n", subprog,
		sp->name ? sp->name : "?");
	return REJECT;
}

static int check_subprog_call(struct verifier_env *env, const struct bpf_insn *insn, uint32_t idx)
{
	struct vstate *st = env->cur;
	uint32_t target = idx + insn->imm + 1, subprog = env->aux[target].subprog, i;
	struct func_state *caller = cur_frame(env), *callee;

	if (st->curframe + 1 >= MAX_CALL_FRAMES) {
		verbose(env, "the call stack of %u frames is too deep\n", st->curframe + 2);
		return -E2BIG;
	}
	for (i = 0; i <= st->curframe; i++) {
		if (st->frame[i]->subprog == subprog) {
			verbose(env, "recursive call from insn %u to %u\n", idx, target);
			return -EINVAL;
		}
	}
	env->calls[caller->subprog * env->subprog_cnt + subprog] = 1;
	if (env->subprogs[subprog].global) {
		int err;

		if (lock_held(env)) {
			verbose(env, "global function calls are not allowed while holding a lock,\n"
				     "use static function instead\n");
			return -EINVAL;
		}
		/* a global function may move the frame: its walk is its own */
		err = dynptr_frame_moves(env, idx, "a call of a global function");
		if (!err)
			err = check_global_call(env, subprog);

		env->insn_idx = idx + 1;
		return err;
	}
	callee = frame_new(st->curframe + 1, idx, subprog);
	if (!callee)
		return -ENOMEM;
	callee->ref_cnt = caller->ref_cnt;
	memcpy(callee->ref_id, caller->ref_id, sizeof(callee->ref_id));
	memcpy(callee->ref_insn, caller->ref_insn, sizeof(callee->ref_insn));
	for (i = BPF_REG_1; i <= BPF_REG_5; i++) {
		callee->regs[i] = caller->regs[i];
		reg_mark_not_init(&caller->regs[i]);
	}
	reg_mark_not_init(&caller->regs[BPF_REG_0]);
	st->frame[++st->curframe] = callee;
	env->insn_idx = target;
	return 0;
}

/* The kernel's words for a callback's R0 outside [0, max]. */
static void r0_range_error(struct verifier_env *env, const char *what,
			   const struct reg_state *r0, int max)
{
	verbose(env, "At %s return the register R0 has", what);
	if (r0->smin > INT64_MIN)
		verbose(env, " smin=%lld", (long long)r0->smin);
	if (r0->smax < INT64_MAX)
		verbose(env, " smax=%lld", (long long)r0->smax);
	if (r0->smin == INT64_MIN && r0->smax == INT64_MAX)
		verbose(env, " unknown scalar value");
	verbose(env, " should have been in [0, %d]\n", max);
}

/*
 * A callback's exit: R0 must be 0 or 1, and the path goes back to the
 * helper call, which calls the callback again or goes on (helpers.c). The
 * caller's registers are as they were at the call; only memory the
 * callback reached through its arguments has changed.
 */
static int check_callback_exit(struct verifier_env *env)
{
	struct vstate *st = env->cur;
	struct func_state *callee = cur_frame(env), *caller = st->frame[st->curframe - 1];
	struct reg_state *r0 = &callee->regs[BPF_REG_0];
	uint32_t i, j;

	if (r0->type != SCALAR_VALUE) {
		verbose(env, "R0 not a scalar value\n");
		return REJECT;
	}
	precise_mark_regs(env, 1u << BPF_REG_0);
	if (r0->smin < 0 || r0->smax > 1) {
		r0_range_error(env, "callback", r0, 1);
		return REJECT;
	}
	/* what the callback takes it gives back, and what its caller
	 * holds it keeps: a call may happen any number of times */
	for (i = 0; i < callee->ref_cnt; i++) {
		for (j = 0; j < caller->ref_cnt && caller->ref_id[j] != callee->ref_id[i]; j++)
			;
		if (j == caller->ref_cnt) {
			verbose(env, "Unreleased reference id=%u alloc_insn=%u\n",
				callee->ref_id[i], callee->ref_insn[i]);
			return REJECT;
		}
	}
	if (callee->ref_cnt != caller->ref_cnt) {
		verbose(env, "callback released a reference its caller holds\n");
		return REJECT;
	}
	precise_note_callback_exit(env);
	env->insn_idx = callee->callsite;
	st->frame[st->curframe--] = NULL;
	free(callee->stack);
	free(callee);
	return 0;
}

static int check_exit(struct verifier_env *env, const struct bpf_insn *insn, bool *path_end)
{
	struct vstate *st = env->cur;
	struct func_state *callee = cur_frame(env), *caller;
	struct reg_state *r0 = &callee->regs[BPF_REG_0];
	int err;

	/* the kernel leaves off unchecked */
	if (BPF_SRC(insn->code) != BPF_K || insn->imm || insn->src_reg || insn->dst_reg ||
	    BPF_CLASS(insn->code) == BPF_JMP32) {
		verbose(env, "BPF_EXIT uses reserved fields\n");
		return -EINVAL;
	}
	/* a static function's R0 goes back to its caller as it is, set or
	 * not: a caller that reads it unset is refused there, as the kernel
	 * has it (a void function may leave R0 unset on a path) */
	if (!st->curframe || callee->in_callback) {
		err = check_reg_readable(env, BPF_REG_0);
		if (err)
			return err;
	}
	if (!st->curframe && lock_held(env)) {
		verbose(env, "BPF_EXIT instruction in main prog cannot be used inside "
			     "bpf_spin_lock-ed region\n");
		return -EINVAL;
	}
	if (st->curframe && callee->in_callback)
		return check_callback_exit(env);
	if (st->curframe) {
		if (r0->type == PTR_TO_STACK && r0->frameno == st->curframe) {
			verbose(env, "cannot return stack pointer to the caller\n");
			return -EINVAL;
		}
		caller = st->frame[st->curframe - 1];
		caller->regs[BPF_REG_0] = *r0;
		caller->ref_cnt = callee->ref_cnt;
		memcpy(caller->ref_id, callee->ref_id, sizeof(caller->ref_id));
		memcpy(caller->ref_insn, callee->ref_insn, sizeof(caller->ref_insn));
		env->insn_idx = callee->callsite + 1;
		st->frame[st->curframe--] = NULL;
		free(callee->stack);
		free(callee);
		return 0;
	}
	if (callee->ref_cnt) {
		verbose(env, "Unreleased reference id=%u alloc_insn=%u\n", callee->ref_id[0],
			callee->ref_insn[0]);
		return REJECT;
	}
	/* a timer's callback returns 0, as the kernel enforces it */
	if (callee->async_callback) {
		if (r0->type != SCALAR_VALUE) {
			verbose(env,
				"At async callback return the register R0 is not a known value "
				"(%s)\n",
				reg_type_str(r0->type));
			return -EINVAL;
		}
		precise_mark_regs(env, 1u << BPF_REG_0);
		if (r0->smin != 0 || r0->smax != 0) {
			r0_range_error(env, "async callback", r0, 0);
			return -EINVAL;
		}
		*path_end = true;
		return 0;
	}
	if (env->subprogs[callee->subprog].global) {
		if (r0->type != SCALAR_VALUE) {
			verbose(env,
				"At subprogram exit the register R0 is not a scalar value (%s)\n",
				reg_type_str(r0->type));
			return -EINVAL;
		}
		*path_end = true;
		return 0;
	}
	if (type_is_ptr(r0->type) && (env->device || !env->allow_ptr_leaks)) {
		verbose(env, "R0 leaks addr as return value\n");
		return REJECT;
	}
	/* Any number is a verdict: one outside XDP_ABORTED..XDP_REDIRECT is
	 * the program's return value in a test run and aborts the frame on
	 * the board, as the kernel's XDP treats an unknown action. */
	*path_end = true;
	return 0;
}

static int check_call(struct verifier_env *env, const struct bpf_insn *insn, uint32_t idx)
{
	if (BPF_SRC(insn->code) != BPF_K || (insn->src_reg != BPF_PSEUDO_KFUNC_CALL && insn->off) ||
	    (insn->src_reg != 0 && insn->src_reg != BPF_PSEUDO_CALL &&
	     insn->src_reg != BPF_PSEUDO_KFUNC_CALL) ||
	    insn->dst_reg || BPF_CLASS(insn->code) == BPF_JMP32) {
		verbose(env, "BPF_CALL uses reserved fields\n");
		return -EINVAL;
	}
	env->insn_idx = idx + 1;
	if (insn->src_reg == BPF_PSEUDO_CALL)
		return check_subprog_call(env, insn, idx);
	if (insn->src_reg == BPF_PSEUDO_KFUNC_CALL)
		return check_kfunc_call(env, insn, idx);
	return check_helper_call(env, insn, idx);
}

static int check_ld_imm64(struct verifier_env *env, const struct bpf_insn *insn)
{
	struct reg_state *dst = &cur_regs(env)[insn->dst_reg];
	int err;

	if (insn->off) {
		verbose(env, "BPF_LD_IMM64 uses reserved fields\n");
		return -EINVAL;
	}
	err = check_reg_writable(env, insn->dst_reg);
	if (err)
		return err;
	switch (insn->src_reg) {
	case 0:
		reg_mark_known(dst, (uint32_t)insn[0].imm | (uint64_t)(uint32_t)insn[1].imm << 32);
		break;
	case BPF_PSEUDO_BTF_ID:
		mark_ptr(dst, KFUNC_ADDR);
		break;
	case BPF_PSEUDO_FUNC: {
		uint32_t subprog = env->aux[env->insn_idx + insn->imm + 1].subprog;

		/* the kernel calls back only into what it verifies with its
		 * caller's arguments */
		if (env->subprogs[subprog].global) {
			verbose(env, "callback function not static\n");
			return -EINVAL;
		}
		mark_ptr(dst, PTR_TO_FUNC);
		dst->map = (uint16_t)subprog;
		break;
	}
	case BPF_PSEUDO_MAP_FD:
	case BPF_PSEUDO_MAP_IDX:
		mark_ptr(dst, CONST_PTR_TO_MAP);
		dst->map = insn->imm;
		break;
	default: /* BPF_PSEUDO_MAP_VALUE, BPF_PSEUDO_MAP_IDX_VALUE */
		mark_ptr(dst, PTR_TO_MAP_VALUE);
		dst->map = insn->imm;
		dst->off = insn[1].imm;
		break;
	}
	env->insn_idx += 2;
	return 0;
}

/* One instruction; sets env->insn_idx to the next, or *path_end. */
static int do_insn(struct verifier_env *env, uint32_t idx, bool *path_end)
{
	const struct bpf_insn *insn = &env->insns[idx];
	uint8_t class = BPF_CLASS(insn->code);
	int err;

	env->insn_idx = idx + 1;
	switch (class) {
	case BPF_ALU:
	case BPF_ALU64:
		return check_alu(env, insn);
	case BPF_LDX:
		return check_load(env, insn);
	case BPF_STX:
		if (BPF_MODE(insn->code) == BPF_ATOMIC)
			return check_atomic(env, insn);
		if (BPF_MODE(insn->code) != BPF_MEM || insn->imm) {
			verbose(env, "BPF_STX uses reserved fields\n");
			return -EINVAL;
		}
		return check_store(env, insn);
	case BPF_ST:
		if (BPF_MODE(insn->code) != BPF_MEM || insn->src_reg) {
			verbose(env, "BPF_ST uses reserved fields\n");
			return -EINVAL;
		}
		return check_store(env, insn);
	case BPF_LD:
		env->insn_idx = idx;
		return check_ld_imm64(env, insn);
	default: /* BPF_JMP, BPF_JMP32 */
		switch (BPF_OP(insn->code)) {
		case BPF_CALL:
			err = check_call(env, insn, idx);
			/* the device punted the frame to the host: its path ends */
			*path_end = env->punted;
			env->punted = false;
			return err;
		case BPF_EXIT:
			return check_exit(env, insn, path_end);
		case BPF_JA:
			if (BPF_SRC(insn->code) != BPF_K || insn->src_reg || insn->dst_reg ||
			    (class == BPF_JMP && insn->imm) || (class == BPF_JMP32 && insn->off)) {
				verbose(env, "BPF_JA uses reserved fields\n");
				return -EINVAL;
			}
			env->insn_idx = idx + 1 + (class == BPF_JMP ? insn->off : insn->imm);
			return 0;
		default:
			err = check_cond_jmp(env, insn, idx);
			return err;
		}
	}
}

/* ---- facts ----------------------------------------------------------- */

/*
 * A pointer's bounds are of its whole offset: off plus the variable part
 * (for a scalar, off is 0). Sets the bounds and tnum of f, unbounded where
 * the sum overflows.
 */
static void fact_bounds(struct hwxdp_reg_fact *f, const struct reg_state *reg)
{
	int64_t off = reg->off, slo, shi;
	uint64_t ulo, uhi;
	struct tnum t;
	bool wrap;

	if (off >= 0) {
		wrap = __builtin_add_overflow(reg->umax, (uint64_t)off, &uhi);
		ulo = reg->umin + (uint64_t)off;
	} else {
		wrap = reg->umin < (uint64_t)-off;
		ulo = reg->umin - (uint64_t)-off;
		uhi = reg->umax - (uint64_t)-off;
	}
	f->umin = wrap ? 0 : ulo;
	f->umax = wrap ? UINT64_MAX : uhi;
	wrap = __builtin_add_overflow(reg->smin, off, &slo);
	wrap |= __builtin_add_overflow(reg->smax, off, &shi);
	f->smin = wrap ? INT64_MIN : slo;
	f->smax = wrap ? INT64_MAX : shi;
	t = off ? tnum_add(reg->var_off, tnum_const((uint64_t)off)) : reg->var_off;
	f->tnum_value = t.value;
	f->tnum_mask = t.mask;
}

static void fact_from_reg(struct hwxdp_reg_fact *f, const struct reg_state *reg)
{
	memset(f, 0, sizeof(*f));
	f->type = reg->type;
	if (reg->type == NOT_INIT)
		return;
	f->off = reg->off;
	fact_bounds(f, reg);
}

static void fact_set_mixed(struct hwxdp_reg_fact *f)
{
	memset(f, 0, sizeof(*f));
	f->type = HWXDP_REG_MIXED;
	f->umax = UINT64_MAX;
	f->smin = INT64_MIN;
	f->smax = INT64_MAX;
	f->tnum_mask = UINT64_MAX;
}

/* Runs for every register at every instruction of every path. */
static void fact_join(struct hwxdp_reg_fact *f, const struct reg_state *reg)
{
	struct hwxdp_reg_fact n;
	uint64_t unknown;

	if (f->type != reg->type) {
		if (f->type != HWXDP_REG_MIXED)
			fact_set_mixed(f);
		return;
	}
	if (reg->type == NOT_INIT)
		return;
	if (reg->off) {
		fact_bounds(&n, reg);
	} else {
		n.umin = reg->umin;
		n.umax = reg->umax;
		n.smin = reg->smin;
		n.smax = reg->smax;
		n.tnum_value = reg->var_off.value;
		n.tnum_mask = reg->var_off.mask;
	}
	if (f->off != reg->off)
		f->off = 0;
	f->umin = n.umin < f->umin ? n.umin : f->umin;
	f->umax = n.umax > f->umax ? n.umax : f->umax;
	f->smin = n.smin < f->smin ? n.smin : f->smin;
	f->smax = n.smax > f->smax ? n.smax : f->smax;
	/* tnum_union(), without the call */
	unknown = f->tnum_mask | n.tnum_mask | (f->tnum_value ^ n.tnum_value);
	f->tnum_value &= ~unknown;
	f->tnum_mask = unknown;
}

/*
 * What a register points into, as the device sees it: an iterator's value
 * (bpf_iter_num_next's int) is a stack pointer at the iterator's slot, and
 * a slice of the frame's dynptr a packet pointer at an offset not known
 * (the device's frames are linear, so a slice is the frame's bytes).
 */
static const struct reg_state *device_view(const struct reg_state *reg, struct reg_state *tmp)
{
	if (reg->type != PTR_TO_MEM || !(reg->mem_flags & (MEM_ITER_VALUE | MEM_XDP_SLICE)))
		return reg;
	*tmp = *reg;
	if (reg->mem_flags & MEM_ITER_VALUE) {
		tmp->type = PTR_TO_STACK;
		tmp->off = reg->iter_off + reg->off;
		return tmp;
	}
	reg_mark_unknown(tmp);
	tmp->type = PTR_TO_PACKET;
	return tmp;
}

static void record_facts(struct verifier_env *env, uint32_t idx)
{
	struct hwxdp_insn_fact *fact = &env->facts[idx];
	const struct reg_state *regs = cur_regs(env), *reg;
	struct reg_state tmp;
	int i;

	if (!fact->reachable) {
		fact->reachable = true;
		for (i = 0; i < MAX_BPF_REG; i++) {
			reg = env->device ? device_view(&regs[i], &tmp) : &regs[i];
			fact_from_reg(&fact->regs[i], reg);
		}
		return;
	}
	for (i = 0; i < MAX_BPF_REG; i++) {
		reg = env->device ? device_view(&regs[i], &tmp) : &regs[i];
		fact_join(&fact->regs[i], reg);
	}
}

static void finish_facts(struct verifier_env *env)
{
	uint32_t i;

	for (i = 0; i < env->insn_cnt; i++) {
		struct insn_aux *aux = &env->aux[i];
		struct hwxdp_insn_fact *fact = &env->facts[i];

		if (aux->pkt_compare && !aux->branch_unknown) {
			fact->pkt_check_always_true = aux->branch_true && !aux->branch_false;
			fact->pkt_check_always_false = aux->branch_false && !aux->branch_true;
		}
		if (aux->key_varies)
			fact->map_key_const = false;
	}
}

/* ---- the walk -------------------------------------------------------- */

static int init_state(struct verifier_env *env)
{
	struct vstate *st = state_new();

	if (!st)
		return -ENOMEM;
	st->frame[0] = frame_new(0, UINT32_MAX, 0);
	if (!st->frame[0]) {
		state_free(st);
		return -ENOMEM;
	}
	mark_ptr(&st->frame[0]->regs[BPF_REG_1], PTR_TO_CTX);
	env->cur = st;
	return 0;
}

/*
 * The budget ran out: the kernel's words, then where the walk spent it. A
 * loop the walk takes iteration by iteration shows as one instruction
 * visited about as often as the loop runs.
 */
static void budget_hint(struct verifier_env *env)
{
	uint32_t hot = 0;

	for (uint32_t i = 1; i < env->insn_cnt; i++)
		if (env->aux[i].visits > env->aux[hot].visits)
			hot = i;
	if (env->aux[hot].visits > 1)
		verbose(env,
			"insn %u was walked %u times: each iteration of a loop through it is "
			"walked anew while its states differ\n",
			hot, env->aux[hot].visits);
	/* last: the line a reader takes for the reason */
	verbose(env, "BPF program is too large. Processed %u insn\n", env->insns_processed);
}

static int do_check(struct verifier_env *env, uint32_t start)
{
	struct func_state before;
	bool path_end;
	uint32_t idx;
	uint8_t cls;
	int err;

	env->insn_idx = start;
	if (env->log_level == 1) {
		verbose(env, "%u: ", start);
		log_state(env, env->cur, true);
	}
	for (;;) {
		idx = env->insn_idx;
		env->error_insn = idx;
		if (++env->insns_processed > env->insn_budget) {
			budget_hint(env);
			return -E2BIG;
		}
		env->aux[idx].visits++;
		path_end = false;
		/* a path holding a lock is not pruned: stored states know
		 * nothing of locks, and hold none (references are compared) */
		if (env->aux[idx].prune_point && !lock_held(env)) {
			err = state_visit(env, idx);
			if (err < 0)
				return err;
			if (err == 1) {
				if (env->log_level >= 1)
					verbose(env, "%u: safe\n", idx);
				path_end = true;
			}
		}
		if (!path_end) {
			err = precise_note_insn(env, idx);
			if (err)
				return err;
			record_facts(env, idx);
			if (env->log_level >= 1)
				log_source_line(env, idx);
			if (env->log_level >= 2) {
				verbose(env, "%u: ", idx);
				log_state(env, env->cur, true);
			}
			if (env->log_level >= 1) {
				log_insn(env, idx);
				before = *cur_frame(env);
			}
			err = do_insn(env, idx, &path_end);
			if (err)
				return err;
			cls = BPF_CLASS(env->insns[idx].code);
			if (cls == BPF_JMP || cls == BPF_JMP32)
				env->jmps_processed++;
			if (env->log_level >= 1 && !path_end &&
			    before.frameno == env->cur->curframe)
				log_reg_changes(env, &before, cur_frame(env));
		}
		if (!path_end)
			continue;
		state_path_done(env);
		if (!state_pop(env))
			return 0;
		if (env->log_level >= 1) {
			verbose(env, "\nfrom %u to %u: ", env->prev_insn_idx, env->insn_idx);
			log_state(env, env->cur, true);
		}
	}
}

/* The type id behind typedefs and qualifiers. */
static uint32_t btf_skip_mods(const struct btf *btf, uint32_t id, const struct btf_type **t)
{
	for (*t = btf__type_by_id(btf, id); *t && (btf_is_mod(*t) || btf_is_typedef(*t));
	     *t = btf__type_by_id(btf, id))
		id = (*t)->type;
	return id;
}

/*
 * Which functions are global, from the object's BTF, and what their
 * arguments are, as the kernel reads a global function's prototype. Only
 * for the host copy: the device verifies every call in its caller's state.
 */
static int read_global_funcs(struct verifier_env *env)
{
	const struct btf *btf = env->btf;

	if (env->device || !btf || !env->prog || !env->prog->subprog_name)
		return 0;
	for (uint32_t s = 1; s < env->subprog_cnt; s++) {
		struct subprog_info *sp = &env->subprogs[s];
		const struct btf_type *func = NULL, *proto, *t;
		const struct btf_param *params;
		const char *name = NULL;
		int id;

		for (size_t j = 0; j < env->prog->subprog_cnt; j++)
			if (env->prog->subprog_start[j] == sp->start)
				name = env->prog->subprog_name[j];
		id = name ? btf__find_by_name_kind(btf, name, BTF_KIND_FUNC) : -1;
		if (id > 0)
			func = btf__type_by_id(btf, id);
		if (!func || btf_vlen(func) != BTF_FUNC_GLOBAL)
			continue;
		sp->global = true;
		sp->name = name;
		proto = btf__type_by_id(btf, func->type);
		if (!proto || !btf_is_func_proto(proto)) {
			verbose(env, "Global function %s() has no prototype in BTF\n", name);
			return -EINVAL;
		}
		btf_skip_mods(btf, proto->type, &t);
		if (proto->type && (!t || (!btf_is_int(t) && !btf_is_any_enum(t)))) {
			verbose(env,
				"Global function %s() doesn't return scalar. Only those are "
				"supported.\n",
				name);
			return -EINVAL;
		}
		if (btf_vlen(proto) > 5) {
			verbose(env, "Global function %s() with %u > 5 args. Buggy compiler.\n",
				name, btf_vlen(proto));
			return -EINVAL;
		}
		sp->arg_cnt = (uint8_t)btf_vlen(proto);
		params = btf_params(proto);
		for (uint32_t i = 0; i < sp->arg_cnt; i++) {
			uint32_t pointee;
			int64_t size;

			btf_skip_mods(btf, params[i].type, &t);
			if (t && (btf_is_int(t) || btf_is_any_enum(t))) {
				sp->arg[i] = GARG_SCALAR;
				continue;
			}
			if (!t || !btf_is_ptr(t)) {
				verbose(env,
					"Global function %s(): arg#%u is neither a scalar nor a "
					"pointer\n",
					name, i);
				return -EINVAL;
			}
			pointee = btf_skip_mods(btf, t->type, &t);
			if (t && btf_is_struct(t) &&
			    !strcmp(btf__name_by_offset(btf, t->name_off), "xdp_md")) {
				sp->arg[i] = GARG_CTX;
				continue;
			}
			size = t ? btf__resolve_size(btf, pointee) : -1;
			if (size <= 0) {
				verbose(env,
					"arg#%u reference type('%s') size cannot be determined\n",
					i, t ? btf__name_by_offset(btf, t->name_off) : "UNKNOWN");
				return -EINVAL;
			}
			sp->arg[i] = GARG_MEM;
			sp->arg_size[i] = (uint32_t)size;
		}
	}
	return 0;
}

/*
 * Each global function that a verified path called, verified on its own
 * from what its prototype promises: a scalar of any value, the context, or
 * memory of the pointed type's size that may be NULL.
 */
static int check_global_funcs(struct verifier_env *env)
{
	bool again = true;
	int err;

	while (again) {
		again = false;
		for (uint32_t s = 1; s < env->subprog_cnt; s++) {
			struct subprog_info *sp = &env->subprogs[s];
			struct vstate *st;

			if (!sp->global || !sp->called || sp->verified)
				continue;
			sp->verified = again = true;
			st = state_new();
			if (!st)
				return -ENOMEM;
			st->frame[0] = frame_new(0, UINT32_MAX, s);
			if (!st->frame[0]) {
				state_free(st);
				return -ENOMEM;
			}
			for (uint32_t i = 0; i < sp->arg_cnt; i++) {
				struct reg_state *r = &st->frame[0]->regs[BPF_REG_1 + i];

				if (sp->arg[i] == GARG_SCALAR) {
					reg_mark_unknown(r);
				} else if (sp->arg[i] == GARG_CTX) {
					mark_ptr(r, PTR_TO_CTX);
				} else {
					mark_ptr(r, PTR_TO_MEM_OR_NULL);
					r->mem_size = sp->arg_size[i];
					r->id = new_id(env);
				}
			}
			state_free(env->cur);
			env->cur = st;
			if (env->log_level >= 1)
				verbose(env, "\nValidating %s() func#%u...\n", sp->name, s);
			err = do_check(env, sp->start);
			if (err)
				return err;
		}
	}
	return 0;
}

static void free_env(struct verifier_env *env)
{
	state_free_all(env);
	free(env->aux);
	free(env->subprogs);
	free(env->calls);
	free(env->state_cnt);
}

int verifier_run(struct verifier_env *env, struct hwxdp_verify_result *res)
{
	int err;

	env->aux = calloc(env->insn_cnt, sizeof(*env->aux));
	env->explored = calloc(env->insn_cnt, sizeof(*env->explored));
	env->state_cnt = calloc(env->insn_cnt, sizeof(*env->state_cnt));
	env->facts = calloc(env->insn_cnt ? env->insn_cnt : 1, sizeof(*env->facts));
	if (!env->aux || !env->explored || !env->state_cnt || !env->facts) {
		err = -ENOMEM;
		goto out;
	}
	err = check_program_shape(env);
	if (!err)
		err = read_global_funcs(env);
	if (!err)
		err = init_state(env);
	if (!err)
		err = do_check(env, 0);
	if (!err)
		err = check_global_funcs(env);
	if (!err)
		err = check_stack_depths(env);
	finish_facts(env);
	if (err == -EFAULT)
		verbose(env, "verifier internal error at insn %u\n", env->error_insn);
	res->accepted = !err;
	if (env->log_level >= 1)
		verbose(env,
			"processed %u insns (limit %u) max_states_per_insn %u total_states %u "
			"peak_states %u\n",
			env->insns_processed, env->insn_budget, env->max_states_per_insn,
			env->states_total, env->states_peak);
	if (err == -ENOMEM || env->log_failed)
		err = -ENOMEM;
	else
		err = 0;
out:
	res->error_insn = res->accepted ? 0 : env->error_insn;
	res->insns_processed = env->insns_processed;
	res->states_total = env->states_total;
	res->states_peak = env->states_peak;
	res->max_states_per_insn = env->max_states_per_insn;
	res->facts = env->facts;
	res->fact_cnt = env->insn_cnt;
	env->facts = NULL;
	free_env(env);
	return err;
}
