// SPDX-License-Identifier: GPL-2.0
/*
 * Stack stores nothing reads. Clang zero-fills whole structs on the stack,
 * spills registers it reloads on one path only, and builds map keys in
 * place; on the device every such store is an operation per frame. A
 * backward walk tracks, per byte of a function's 512-byte frame, whether a
 * later instruction may read it before a store through R10 overwrites it.
 *
 * Reads are whatever may see the bytes: loads through a stack pointer (its
 * whole possible range, from the verifier's bounds), atomics, the key and
 * value a map helper reads, and everything at a call to a function (it may
 * have been given a pointer into this frame). Only stores through R10 kill,
 * since their bytes are exact; a store through any other stack pointer is
 * kept. At a function's exit the frame dies and nothing is live.
 */
#include <stdlib.h>
#include <string.h>

#include "hwmap/stack.h"
#include "hwmap/work.h"
#include "loader/kfuncs.h"

#define FRAME_BYTES 512
#define FRAME_WORDS (FRAME_BYTES / 64)

struct live {
	uint64_t w[FRAME_WORDS];
};

static void set_range(struct live *l, int64_t lo, int64_t hi, bool on)
{
	/* offsets are from the frame top: bytes -512 .. -1 */
	if (lo < -FRAME_BYTES)
		lo = -FRAME_BYTES;
	if (hi > 0)
		hi = 0;
	for (int64_t b = lo; b < hi; b++) {
		uint32_t i = (uint32_t)(b + FRAME_BYTES);

		if (on)
			l->w[i / 64] |= 1ull << (i % 64);
		else
			l->w[i / 64] &= ~(1ull << (i % 64));
	}
}

static void set_all(struct live *l)
{
	memset(l, 0xff, sizeof(*l));
}

static bool any_in(const struct live *l, int64_t lo, int64_t hi)
{
	for (int64_t b = lo < -FRAME_BYTES ? -FRAME_BYTES : lo; b < hi && b < 0; b++) {
		uint32_t i = (uint32_t)(b + FRAME_BYTES);

		if (l->w[i / 64] & (1ull << (i % 64)))
			return true;
	}
	return false;
}

/*
 * The bytes [*lo, *hi) of the frame an access of size bytes at off through
 * register reg may touch: all the range the pointer may hold, from the
 * verifier's bounds, or the whole frame when that is not bounded. False
 * when reg does not point into the stack.
 */
static bool stack_reach(const struct hwxdp_insn_fact *f, unsigned int reg, int64_t off,
			int64_t size, int64_t *lo, int64_t *hi)
{
	const struct hwxdp_reg_fact *r = &f->regs[reg];

	if (r->type != HWXDP_REG_PTR_TO_STACK)
		return false;
	if (r->smin < -FRAME_BYTES || r->smax > 0 || r->smin > r->smax) {
		*lo = -FRAME_BYTES;
		*hi = 0;
	} else {
		*lo = r->smin + off;
		*hi = r->smax + off + size;
	}
	return true;
}

static void read_through(struct live *l, const struct hwxdp_insn_fact *f, unsigned int reg,
			 int64_t off, int64_t size)
{
	int64_t lo, hi;

	if (stack_reach(f, reg, off, size, &lo, &hi))
		set_range(l, lo, hi, true);
}

int hxu_bpf_size(uint8_t code)
{
	switch (BPF_SIZE(code)) {
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

int hxu_insn_succ(const struct hwxdp_prog *p, size_t k, int64_t *fall, int64_t *jump)
{
	const struct bpf_insn *in = &p->insns[k];
	uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	bool jmp = cls == BPF_JMP || cls == BPF_JMP32;
	int succ = 0;

	if (jmp && op != BPF_EXIT && op != BPF_CALL) {
		*jump = (int64_t)k + 1 + (op == BPF_JA && cls == BPF_JMP32 ? in->imm : in->off);
		succ |= HXU_SUCC_JUMP;
	}
	if (!(jmp && (op == BPF_EXIT || op == BPF_JA))) {
		*fall = (int64_t)k + (in->code == (BPF_LD | BPF_IMM | BPF_DW) ? 2 : 1);
		succ |= HXU_SUCC_FALL;
	}
	return succ;
}

/* What a call reads of this frame. */
static void call_reads(struct live *l, const struct hwxdp_object *obj, const struct bpf_insn *in,
		       const struct hwxdp_insn_fact *f)
{
	const struct hwxdp_map_desc *m = NULL;

	if (in->src_reg == BPF_PSEUDO_CALL) {
		set_all(l);
		return;
	}
	if (f->punt_point)
		return;
	if (in->src_reg == BPF_PSEUDO_KFUNC_CALL) {
		/* the metadata kfuncs write nothing on the device */
		if (in->imm != HWXDP_KFUNC_ESP_ENCAP && !hwxdp_kfunc__is_xdp_metadata(in->imm))
			set_all(l);
		return;
	}
	if (f->map_known && f->map_index < obj->map_cnt)
		m = &obj->maps[f->map_index];
	switch (in->imm) {
	case BPF_FUNC_map_lookup_elem:
	case BPF_FUNC_map_delete_elem:
		if (!m)
			break;
		read_through(l, f, 2, 0, m->key_size);
		return;
	case BPF_FUNC_map_update_elem:
		if (!m)
			break;
		read_through(l, f, 2, 0, m->key_size);
		read_through(l, f, 3, 0, m->value_size);
		return;
	case BPF_FUNC_redirect_map:
	case BPF_FUNC_redirect:
	case BPF_FUNC_xdp_adjust_head:
	case BPF_FUNC_xdp_adjust_meta:
	case BPF_FUNC_xdp_adjust_tail:
	case BPF_FUNC_ktime_get_ns:
	case BPF_FUNC_get_prandom_u32:
	case BPF_FUNC_get_smp_processor_id:
		return;
	}
	set_all(l);
}

/* The stack bytes live before insn k, given those live after it. */
static void transfer(struct live *l, const struct hwxdp_object *obj, const struct hwxdp_prog *p,
		     const struct hwxdp_insn_fact *facts, size_t k)
{
	const struct bpf_insn *in = &p->insns[k];
	const struct hwxdp_insn_fact *f = &facts[k];
	uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	int size = hxu_bpf_size(in->code);

	switch (cls) {
	case BPF_LDX:
		read_through(l, f, in->src_reg, in->off, size);
		return;
	case BPF_ST:
	case BPF_STX:
		if (BPF_MODE(in->code) == BPF_ATOMIC) {
			read_through(l, f, in->dst_reg, in->off, size);
			return;
		}
		if (in->dst_reg == BPF_REG_10)
			set_range(l, in->off, (int64_t)in->off + size, false);
		return;
	case BPF_JMP:
	case BPF_JMP32:
		if (op == BPF_EXIT)
			memset(l, 0, sizeof(*l));
		else if (op == BPF_CALL)
			call_reads(l, obj, in, f);
		return;
	}
}

/*
 * The instructions a data flow may revisit, each at most once at a time:
 * where a pass's value changed, the ones whose value depends on it.
 */
struct worklist {
	uint32_t *queue;
	bool *queued;
	size_t head, cnt, cap;
};

static int worklist_init(struct worklist *w, size_t n)
{
	w->queue = malloc((n + 1) * sizeof(*w->queue));
	w->queued = calloc(n + 1, sizeof(*w->queued));
	w->head = w->cnt = 0;
	w->cap = n + 1;
	return w->queue && w->queued ? 0 : -1;
}

static void worklist_push(struct worklist *w, size_t k)
{
	if (w->queued[k])
		return;
	w->queued[k] = true;
	w->queue[(w->head + w->cnt++) % w->cap] = (uint32_t)k;
}

static size_t worklist_pop(struct worklist *w)
{
	size_t k = w->queue[w->head];

	w->head = (w->head + 1) % w->cap;
	w->cnt--;
	w->queued[k] = false;
	hxu_work_add(1);
	return k;
}

static void worklist_free(struct worklist *w)
{
	free(w->queue);
	free(w->queued);
}

static bool second_half(const struct hwxdp_prog *p, size_t k)
{
	return k > 0 && p->insns[k - 1].code == (BPF_LD | BPF_IMM | BPF_DW);
}

/* The instructions that may come right before each one (*start has
 * insn_cnt + 2 entries, k's in pred[start[k] .. start[k + 1])): the edges
 * out of the reachable instructions. */
static int predecessors(const struct hwxdp_prog *p, const struct hwxdp_insn_fact *facts,
			uint32_t **start, uint32_t **pred)
{
	size_t n = p->insn_cnt;
	uint32_t *s = calloc(n + 2, sizeof(*s)), *e = NULL;

	for (int pass = 0; s && pass < 2; pass++) {
		for (size_t k = 0; k < n; k++) {
			int64_t to[2];
			int succ;

			if (second_half(p, k) || !facts[k].reachable)
				continue;
			succ = hxu_insn_succ(p, k, &to[0], &to[1]);
			for (int i = 0; i < 2; i++) {
				if (!(succ & (i ? HXU_SUCC_JUMP : HXU_SUCC_FALL)) || to[i] < 0 ||
				    to[i] >= (int64_t)n)
					continue;
				if (pass)
					e[s[to[i] + 1]++] = (uint32_t)k;
				else
					s[to[i] + 2]++;
			}
		}
		if (pass)
			break;
		for (size_t k = 0; k < n; k++)
			s[k + 2] += s[k + 1];
		e = malloc((s[n + 1] + 1) * sizeof(*e));
		if (!e)
			break;
	}
	if (!s || !e) {
		free(s);
		free(e);
		return -1;
	}
	*start = s;
	*pred = e;
	return 0;
}

/* The stack bytes live after instruction k, from those live before its
 * successors. */
static void live_after(const struct hwxdp_prog *p, const struct live *in_live, size_t k,
		       struct live *l)
{
	size_t n = p->insn_cnt;
	int64_t to[2];
	int succ = hxu_insn_succ(p, k, &to[0], &to[1]);

	memset(l, 0, sizeof(*l));
	for (int e = 0; e < 2; e++) {
		if (!(succ & (e ? HXU_SUCC_JUMP : HXU_SUCC_FALL)))
			continue;
		if (to[e] < 0 || to[e] > (int64_t)n)
			set_all(l);
		else
			for (int w = 0; w < FRAME_WORDS; w++)
				l->w[w] |= in_live[to[e]].w[w];
	}
}

static bool store_through_r10(const struct bpf_insn *in)
{
	uint8_t cls = BPF_CLASS(in->code);

	return (cls == BPF_ST || cls == BPF_STX) && BPF_MODE(in->code) == BPF_MEM &&
	       in->dst_reg == BPF_REG_10;
}

bool *hxu_dead_stack_stores(const struct hwxdp_object *obj, const struct hwxdp_prog *p,
			    const struct hwxdp_insn_fact *facts, const int8_t *fill_source)
{
	size_t n = p->insn_cnt;
	struct live *in_live = calloc(n + 1, sizeof(*in_live));
	bool *dead = calloc(n + 1, sizeof(*dead));
	uint32_t *pred_start = NULL, *pred = NULL;
	struct worklist w = { 0 };
	bool ok = in_live && dead && !worklist_init(&w, n) &&
		  !predecessors(p, facts, &pred_start, &pred);

	if (!ok) {
		free(in_live);
		free(dead);
		dead = NULL;
		goto out;
	}
	/* backwards first, the way the bytes' liveness flows */
	for (size_t k = n; k-- > 0;)
		if (!second_half(p, k) && facts[k].reachable)
			worklist_push(&w, k);
	while (w.cnt) {
		size_t k = worklist_pop(&w);
		struct live l;

		live_after(p, in_live, k, &l);
		/* a fill from a register reads no stack */
		if (!fill_source || fill_source[k] < 0)
			transfer(&l, obj, p, facts, k);
		if (!memcmp(&l, &in_live[k], sizeof(l)))
			continue;
		in_live[k] = l;
		for (uint32_t e = pred_start[k]; e < pred_start[k + 1]; e++)
			worklist_push(&w, pred[e]);
	}
	for (size_t k = 0; k < n; k++) {
		const struct bpf_insn *in = &p->insns[k];
		struct live l;

		if (second_half(p, k) || !facts[k].reachable || !store_through_r10(in))
			continue;
		live_after(p, in_live, k, &l);
		dead[k] = !any_in(&l, in->off, (int64_t)in->off + hxu_bpf_size(in->code));
	}
	free(in_live);
out:
	worklist_free(&w);
	free(pred_start);
	free(pred);
	return dead;
}

/*
 * Fills whose value is already in a register. A helper is one table
 * operation on the device and writes R0 alone, so a register clang spilled
 * around a call because BPF's calls clobber R1..R5 still holds its value
 * after it. A forward walk tracks, per 8-byte slot of the frame, the
 * registers that hold the slot's value on every path; a 64-bit load through
 * R10 of a slot some register holds becomes a move from it, or nothing when
 * it is the load's own destination.
 */
#define SLOTS (FRAME_BYTES / 8)

struct avail {
	bool known; /* some path reached this point */
	uint16_t regs[SLOTS];
};

static void kill_reg(struct avail *a, unsigned int reg)
{
	for (int s = 0; s < SLOTS; s++)
		a->regs[s] &= (uint16_t) ~(1u << reg);
}

static void kill_range(struct avail *a, int64_t lo, int64_t hi)
{
	for (int s = 0; s < SLOTS; s++) {
		int64_t b = (int64_t)s * 8 - FRAME_BYTES;

		if (b < hi && b + 8 > lo)
			a->regs[s] = 0;
	}
}

static void kill_through(struct avail *a, const struct hwxdp_insn_fact *f, unsigned int reg,
			 int64_t off, int64_t size)
{
	int64_t lo, hi;

	if (stack_reach(f, reg, off, size, &lo, &hi))
		kill_range(a, lo, hi);
}

int hxu_stack_slot(const struct bpf_insn *in)
{
	if (BPF_SIZE(in->code) != BPF_DW || in->off % 8 || in->off < -FRAME_BYTES || in->off >= 0)
		return -1;
	return (in->off + FRAME_BYTES) / 8;
}

/* A register holding what 64-bit load in reads through R10, or -1. */
static int fill_source(const struct avail *a, const struct bpf_insn *in)
{
	int s;

	if (in->code != (BPF_LDX | BPF_MEM | BPF_DW) || in->src_reg != BPF_REG_10)
		return -1;
	s = hxu_stack_slot(in);
	if (s < 0 || !a->regs[s])
		return -1;
	if (a->regs[s] & (1u << in->dst_reg))
		return in->dst_reg;
	return __builtin_ctz(a->regs[s]);
}

static void avail_step(struct avail *a, const struct bpf_insn *in, const struct hwxdp_insn_fact *f)
{
	uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	int s;

	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
	case BPF_LD:
		kill_reg(a, in->dst_reg);
		return;
	case BPF_LDX:
		if (fill_source(a, in) == in->dst_reg)
			return;
		kill_reg(a, in->dst_reg);
		if (in->src_reg == BPF_REG_10 && BPF_MODE(in->code) == BPF_MEM &&
		    (s = hxu_stack_slot(in)) >= 0)
			a->regs[s] |= (uint16_t)(1u << in->dst_reg);
		return;
	case BPF_ST:
	case BPF_STX:
		if (BPF_MODE(in->code) == BPF_ATOMIC) {
			kill_through(a, f, in->dst_reg, in->off, hxu_bpf_size(in->code));
			if (in->imm & BPF_FETCH)
				kill_reg(a, in->imm == BPF_CMPXCHG ? BPF_REG_0 : in->src_reg);
			return;
		}
		if (in->dst_reg != BPF_REG_10) {
			kill_through(a, f, in->dst_reg, in->off, hxu_bpf_size(in->code));
			return;
		}
		kill_range(a, in->off, (int64_t)in->off + hxu_bpf_size(in->code));
		if (cls == BPF_STX && (s = hxu_stack_slot(in)) >= 0)
			a->regs[s] = (uint16_t)(1u << in->src_reg);
		return;
	case BPF_JMP:
	case BPF_JMP32:
		if (op != BPF_CALL)
			return;
		/* a kfunc lowered to operations writes the stack and R2..R5 */
		if (in->src_reg == BPF_PSEUDO_CALL || f->punt_point ||
		    (in->src_reg == BPF_PSEUDO_KFUNC_CALL && !in->off &&
		     hwxdp_kfunc__is_lowered(in->imm))) {
			/* the function may write this frame through a pointer */
			memset(a->regs, 0, sizeof(a->regs));
			return;
		}
		kill_reg(a, BPF_REG_0);
		return;
	}
}

static bool avail_join(struct avail *dst, const struct avail *src)
{
	bool changed = false;

	if (!src->known)
		return false;
	if (!dst->known) {
		*dst = *src;
		return true;
	}
	for (int s = 0; s < SLOTS; s++) {
		uint16_t v = dst->regs[s] & src->regs[s];

		changed |= v != dst->regs[s];
		dst->regs[s] = v;
	}
	return changed;
}

int8_t *hxu_fill_sources(const struct hwxdp_prog *p, const struct hwxdp_insn_fact *facts)
{
	size_t n = p->insn_cnt;
	struct avail *in_av = calloc(n + 1, sizeof(*in_av));
	int8_t *source = malloc((n + 1) * sizeof(*source));
	struct worklist w = { 0 };

	if (!in_av || !source || worklist_init(&w, n)) {
		free(in_av);
		free(source);
		worklist_free(&w);
		return NULL;
	}
	for (size_t i = 0; i < p->subprog_cnt; i++)
		if (p->subprog_start[i] < n)
			in_av[p->subprog_start[i]].known = true;
	in_av[0].known = true;
	for (size_t k = 0; k < n; k++)
		worklist_push(&w, k);
	while (w.cnt) {
		size_t k = worklist_pop(&w);
		struct avail out;
		int64_t to[2];
		int succ;

		if (!in_av[k].known || !facts[k].reachable)
			continue;
		out = in_av[k];
		avail_step(&out, &p->insns[k], &facts[k]);
		succ = hxu_insn_succ(p, k, &to[0], &to[1]);
		for (int e = 0; e < 2; e++)
			if ((succ & (e ? HXU_SUCC_JUMP : HXU_SUCC_FALL)) && to[e] >= 0 &&
			    to[e] < (int64_t)n && avail_join(&in_av[to[e]], &out))
				worklist_push(&w, (size_t)to[e]);
	}
	worklist_free(&w);
	for (size_t k = 0; k <= n; k++)
		source[k] = k < n && in_av[k].known && facts[k].reachable
				    ? (int8_t)fill_source(&in_av[k], &p->insns[k])
				    : -1;
	free(in_av);
	return source;
}

/*
 * Slots that live in registers. The device has registers BPF does not
 * (docs/isa.md section 2): a slot that the program only ever stores and
 * loads whole, through R10, and to which no pointer is ever made, can be
 * one of them, so that its stores and loads become register copies (which
 * copy propagation then mostly removes). Functions keep their frames across
 * calls, which these registers are not saved by, so a program with
 * functions keeps its stack.
 */
static void mark_bad(bool *bad, int64_t lo, int64_t hi)
{
	for (int t = 0; t < SLOTS; t++) {
		int64_t b = (int64_t)t * 8 - FRAME_BYTES;

		if (b < hi && b + 8 > lo)
			bad[t] = true;
	}
}

/* Slots an access of size bytes at off through register reg may touch. */
static void mark_through(bool *bad, const struct hwxdp_insn_fact *f, unsigned int reg, int64_t off,
			 int64_t size)
{
	int64_t lo, hi;

	if (stack_reach(f, reg, off, size, &lo, &hi))
		mark_bad(bad, lo, hi);
}

int hxu_promote_slots(const struct hwxdp_object *obj, const struct hwxdp_prog *p,
		      const struct hwxdp_insn_fact *facts, int8_t reg_of[HXU_STACK_SLOTS],
		      uint8_t first_reg, unsigned int regs)
{
	uint32_t fills[SLOTS] = { 0 };
	bool bad[SLOTS] = { false };
	unsigned int used = 0;

	for (int s = 0; s < SLOTS; s++)
		reg_of[s] = -1;
	if (p->subprog_cnt > 1)
		return 0;
	for (size_t k = 0; k < p->insn_cnt; k++)
		if (p->insns[k].code == (BPF_JMP | BPF_CALL) &&
		    p->insns[k].src_reg == BPF_PSEUDO_CALL)
			return 0; /* functions, whatever the object says */
	for (size_t k = 0; k < p->insn_cnt; k++) {
		const struct bpf_insn *in = &p->insns[k];
		const struct hwxdp_insn_fact *f = &facts[k];
		uint8_t cls = BPF_CLASS(in->code);
		unsigned int base;
		int s;

		if (!f->reachable)
			continue;
		if (in->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			k++;
			continue;
		}
		if (in->code == (BPF_JMP | BPF_CALL)) {
			const struct hwxdp_map_desc *m = f->map_known && f->map_index < obj->map_cnt
								 ? &obj->maps[f->map_index]
								 : NULL;

			/* what a helper may read through a pointer argument */
			for (unsigned int r = 1; r <= 5; r++)
				mark_through(bad, f, r, 0,
					     !m	      ? FRAME_BYTES
					     : r == 3 ? m->value_size
						      : m->key_size);
			continue;
		}
		if (cls != BPF_LDX && cls != BPF_ST && cls != BPF_STX)
			continue;
		base = cls == BPF_LDX ? in->src_reg : in->dst_reg;
		if (base != BPF_REG_10) {
			mark_through(bad, f, base, in->off, hxu_bpf_size(in->code));
			continue;
		}
		s = hxu_stack_slot(in);
		if (s >= 0 && BPF_MODE(in->code) == BPF_MEM) {
			if (cls == BPF_LDX)
				fills[s]++;
			continue;
		}
		/* a partial, atomic or sign-extending access */
		mark_bad(bad, in->off, (int64_t)in->off + hxu_bpf_size(in->code));
	}
	while (used < regs) {
		int best = -1;

		for (int s = 0; s < SLOTS; s++)
			if (!bad[s] && reg_of[s] < 0 && fills[s] &&
			    (best < 0 || fills[s] > fills[best]))
				best = s;
		if (best < 0)
			break;
		reg_of[best] = (int8_t)(first_reg + used++);
	}
	return (int)used;
}
