// SPDX-License-Identifier: GPL-2.0
/*
 * BPF + verifier facts -> HXU microcode. Version one: every BPF instruction
 * becomes at most a few operations, each its own bundle; a register move
 * followed by an ALU operation on the moved register becomes one
 * three-operand operation. An array lookup that cannot miss is the
 * element's address (tindex, key 0 from r15, zero from the entry on), its
 * NULL check goes, and so does register arithmetic nothing reads.
 *
 * Values keep their BPF meaning, with pointers in the representation of
 * docs/isa.md section 2: r10 is local memory's frame top, packet pointers are
 * window offsets (read from ctx), map values are table memory addresses.
 * Arithmetic and comparisons on them are therefore BPF's, and only memory
 * operations need to know the space, which the base register's type in the
 * facts gives.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwmap/combine.h"
#include "hwmap/copyprop.h"
#include "hwmap/live.h"
#include "hwmap/csum.h"
#include "hwmap/memcopy.h"
#include "hwmap/schedule.h"
#include "hwmap/stack.h"
#include "hwmap/mutant.h"
#include "hwmap/translate.h"
#include "hwmap/work.h"
#include "hwxdp/platform.h"
#include "loader/kfuncs.h"

#ifndef BPF_MEMSX
#define BPF_MEMSX 0x80 /* sign-extending load, newer than these headers */
#endif

/* Holds 0 from the program's entry on, for the element address of key 0. */
#define HXU_REG_ZERO 15
/* R11..R14 hold stack slots (hwmap/stack.h). */
#define HXU_REG_SLOT0 11
#define HXU_SLOT_REGS 4

_Thread_local uint64_t hxu_work;

uint64_t hxu_translate_work(void)
{
	return hxu_work;
}

struct pending {
	struct hxu_op op;
	uint32_t insn;
	/* BPF instruction a control operation goes to, or -1; an operation
	 * inside one instruction's translation is INTERNAL(its index) */
	int64_t target;
};

/* A branch target that is an operation, not an instruction's first. */
#define INTERNAL(op)	    (-2 - (int64_t)(op))
#define IS_INTERNAL(target) ((target) <= -2)
#define INTERNAL_OP(target) ((size_t)(-2 - (target)))

/* A comparison of a packet pointer with data_end, as `lchk [base + off]`. */
struct lchk {
	bool valid;
	uint8_t base;
	int32_t off;
};

struct translator {
	const struct hwxdp_object *obj;
	const struct hwxdp_prog *prog;
	const struct hwxdp_insn_fact *facts;
	struct pending *ops;
	size_t op_cnt, op_cap;
	uint32_t words;
	uint32_t *first_op; /* per instruction, insn_cnt + 1 entries: its first operation */
	bool *is_target;
	bool *map_used;
	bool *direct;	  /* per instruction: an array lookup that cannot miss */
	bool *dead_store; /* per instruction: a stack store nothing reads */
	int8_t *fill_src; /* per instruction: a register holding what a stack load reads */
	int8_t slot_reg[HXU_STACK_SLOTS];  /* a stack slot kept in a register, or -1 */
	struct hxu_combined *combined;	   /* per instruction: a load assembled from pieces */
	struct hxu_store_combined *stores; /* per instruction: a byte store made whole */
	bool *dead;			   /* per instruction: computes only what nothing reads */
	struct hxu_csum *csum;		   /* per instruction: a checksum update starting there */
	struct lchk *lchk;		   /* per instruction: a packet-bound check for lchk */
	struct hxu_copy *copy;		   /* per instruction: a piecewise copy starting there */
	bool *in_region;		   /* per instruction: inside either, after its first */
	uint16_t *live;			   /* registers live on entry, insn_cnt + 1 entries */
	enum hxu_site site;		   /* the pass emitting (hwmap/mutant.h) */
	char *err;
	size_t errlen;
};

static int fail(struct translator *t, uint32_t insn, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct translator *t, uint32_t insn, const char *fmt, ...)
{
	const struct hwxdp_line *line = hwxdp_prog__line(t->prog, insn);
	char reason[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	if (t->errlen) {
		if (line)
			snprintf(t->err, t->errlen, "insn %u (%s:%u: %s): %s", insn,
				 line->file ? line->file : "?", line->line,
				 line->text ? line->text : "", reason);
		else
			snprintf(t->err, t->errlen, "insn %u: %s", insn, reason);
	}
	return -HWXDP_ERR_TRANSLATE;
}

static int emit(struct translator *t, uint32_t insn, struct hxu_op op, int64_t target)
{
	if (t->op_cnt == t->op_cap) {
		size_t cap = t->op_cap ? t->op_cap * 2 : 256;
		struct pending *n = realloc(t->ops, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		t->ops = n;
		t->op_cap = cap;
	}
#ifdef HWXDP_MUTANTS
	if (!hxu_mutate(t->site, &op))
		return 0;
#endif
	op.end = true;
	t->ops[t->op_cnt].op = op;
	t->ops[t->op_cnt].insn = insn;
	t->ops[t->op_cnt].target = target;
	t->op_cnt++;
	t->words += hxu_op_words(op.opcode);
	return 0;
}

static struct hxu_op mk(uint8_t opcode, uint8_t rd, uint8_t rs, uint8_t rt, uint8_t flags,
			uint8_t x, int32_t imm)
{
	return hxu_op_make(opcode, rd, rs, rt, flags, x, imm);
}

static const char *type_name(uint8_t type)
{
	switch (type) {
	case HWXDP_REG_NOT_INIT:
		return "uninitialised";
	case HWXDP_REG_SCALAR:
		return "a scalar";
	case HWXDP_REG_PTR_TO_CTX:
		return "ctx";
	case HWXDP_REG_CONST_PTR_TO_MAP:
		return "a map";
	case HWXDP_REG_PTR_TO_MAP_VALUE:
		return "a map value";
	case HWXDP_REG_PTR_TO_MAP_VALUE_OR_NULL:
		return "a map value or NULL";
	case HWXDP_REG_CONST_PTR_TO_MAP_OR_NULL:
		return "a map or NULL";
	case HWXDP_REG_PTR_TO_MEM:
	case HWXDP_REG_PTR_TO_MEM_OR_NULL:
		return "a function's memory argument";
	case HWXDP_REG_PTR_TO_STACK:
		return "the stack";
	case HWXDP_REG_PTR_TO_PACKET_META:
		return "packet metadata";
	case HWXDP_REG_PTR_TO_PACKET:
		return "the packet";
	case HWXDP_REG_PTR_TO_PACKET_END:
		return "the packet end";
	case HWXDP_REG_KFUNC_ADDR:
		return "a kfunc";
	case HWXDP_REG_PTR_TO_FUNC:
		return "a callback";
	case HWXDP_REG_PTR_TO_MAP_KEY:
		return "a map key";
	case HWXDP_REG_PTR_TO_SOCKET:
	case HWXDP_REG_PTR_TO_SOCK_COMMON:
		return "a socket (the host's)";
	case HWXDP_REG_PTR_TO_SOCKET_OR_NULL:
	case HWXDP_REG_PTR_TO_SOCK_COMMON_OR_NULL:
		return "a socket (the host's) or NULL";
	case HWXDP_REG_PTR_TO_BTF_ID:
		return "a kernel struct (the host's)";
	case HWXDP_REG_PTR_TO_BTF_ID_OR_NULL:
		return "a kernel struct (the host's) or NULL";
	case HWXDP_REG_MIXED:
		return "of different types on different paths";
	}
	return "unknown";
}

/* The space a pointer of this type points into, or -1. */
static int space_kind(uint8_t type)
{
	switch (type) {
	case HWXDP_REG_PTR_TO_PACKET:
	case HWXDP_REG_PTR_TO_PACKET_META:
		return HXU_SPACE_PKT;
	case HWXDP_REG_PTR_TO_STACK:
		return HXU_SPACE_LM;
	case HWXDP_REG_PTR_TO_MAP_VALUE:
		return HXU_SPACE_TM;
	}
	return -1;
}

/* The space register reg points into at insn, or -1 (error set). */
static int space_of(struct translator *t, uint32_t insn, unsigned int reg, const char *what)
{
	uint8_t type = t->facts[insn].regs[reg].type;

	if (space_kind(type) >= 0)
		return space_kind(type);
	fail(t, insn, "%s through R%u, which points to %s: no device space for it", what, reg,
	     type_name(type));
	return -1;
}

static const int8_t alu_opcode[16] = {
	[BPF_ADD >> 4] = HXU_OP_ADD, [BPF_SUB >> 4] = HXU_OP_SUB,   [BPF_MUL >> 4] = HXU_OP_MUL,
	[BPF_DIV >> 4] = HXU_OP_DIV, [BPF_OR >> 4] = HXU_OP_OR,	    [BPF_AND >> 4] = HXU_OP_AND,
	[BPF_LSH >> 4] = HXU_OP_LSH, [BPF_RSH >> 4] = HXU_OP_RSH,   [BPF_MOD >> 4] = HXU_OP_MOD,
	[BPF_XOR >> 4] = HXU_OP_XOR, [BPF_ARSH >> 4] = HXU_OP_ARSH,
};

static bool is_binary_alu(const struct bpf_insn *in)
{
	uint8_t cls = BPF_CLASS(in->code);

	return (cls == BPF_ALU || cls == BPF_ALU64) && alu_opcode[BPF_OP(in->code) >> 4];
}

static uint8_t binary_opcode(const struct bpf_insn *in)
{
	uint8_t op = (uint8_t)alu_opcode[BPF_OP(in->code) >> 4];

	if (in->off == 1 && op == HXU_OP_DIV)
		return HXU_OP_SDIV;
	if (in->off == 1 && op == HXU_OP_MOD)
		return HXU_OP_SMOD;
	return op;
}

/* mov rX, rY followed by op rX, src: the pair is op rX, rY, src. */
static bool fusable(const struct translator *t, uint32_t i)
{
	const struct bpf_insn *mov = &t->prog->insns[i], *alu = &t->prog->insns[i + 1];

	if (i + 1 >= t->prog->insn_cnt || !t->facts[i].reachable || !t->facts[i + 1].reachable ||
	    t->is_target[i + 1])
		return false;
	if (BPF_OP(mov->code) != BPF_MOV || BPF_SRC(mov->code) != BPF_X || mov->off)
		return false;
	if (BPF_CLASS(mov->code) != BPF_ALU64 && BPF_CLASS(mov->code) != BPF_ALU)
		return false;
	if (!is_binary_alu(alu) || alu->dst_reg != mov->dst_reg || t->combined[i + 1].size ||
	    t->dead[i] || t->dead[i + 1])
		return false;
	if ((alu->off && alu->off != 1) ||
	    (alu->off && BPF_OP(alu->code) != BPF_DIV && BPF_OP(alu->code) != BPF_MOD))
		return false;
	/* A 32-bit move clears the high half a 64-bit operation would read. */
	return BPF_CLASS(mov->code) == BPF_ALU64 || BPF_CLASS(alu->code) == BPF_ALU;
}

static int translate_alu(struct translator *t, uint32_t i, const struct bpf_insn *in)
{
	bool w = BPF_CLASS(in->code) == BPF_ALU;
	uint8_t flags = w ? HXU_F_W32 : 0;
	uint8_t dst = in->dst_reg, src = in->src_reg;
	bool k = BPF_SRC(in->code) == BPF_K;

	switch (BPF_OP(in->code)) {
	case BPF_MOV:
		if (k)
			return emit(t, i, mk(HXU_OP_MOV, dst, 0, 0, flags | HXU_F_K, 0, in->imm),
				    -1);
		switch (in->off) {
		case 0:
			return emit(t, i, mk(HXU_OP_MOV, dst, src, 0, flags, 0, 0), -1);
		case 8:
			return emit(t, i, mk(HXU_OP_MOVSX8, dst, src, 0, flags, 0, 0), -1);
		case 16:
			return emit(t, i, mk(HXU_OP_MOVSX16, dst, src, 0, flags, 0, 0), -1);
		case 32:
			if (!w)
				return emit(t, i, mk(HXU_OP_MOVSX32, dst, src, 0, 0, 0, 0), -1);
		}
		return fail(t, i, "mov with offset %d", in->off);
	case BPF_NEG:
		return emit(t, i, mk(HXU_OP_NEG, dst, dst, 0, flags, 0, 0), -1);
	case BPF_END:
		if (BPF_CLASS(in->code) == BPF_ALU64 || BPF_SRC(in->code) == BPF_TO_BE) {
			uint8_t op = in->imm == 16   ? HXU_OP_BSWAP16
				     : in->imm == 32 ? HXU_OP_BSWAP32
				     : in->imm == 64 ? HXU_OP_BSWAP64
						     : 0;

			if (!op)
				return fail(t, i, "byte swap of %d bits", in->imm);
			return emit(t, i, mk(op, dst, dst, 0, 0, 0, 0), -1);
		}
		if (in->imm == 16)
			return emit(t, i, mk(HXU_OP_ZEXT16, dst, dst, 0, 0, 0, 0), -1);
		if (in->imm == 32)
			return emit(t, i, mk(HXU_OP_ZEXT32, dst, dst, 0, 0, 0, 0), -1);
		if (in->imm == 64)
			return emit(t, i, mk(HXU_OP_MOV, dst, dst, 0, 0, 0, 0), -1);
		return fail(t, i, "byte order of %d bits", in->imm);
	}
	if (!is_binary_alu(in))
		return fail(t, i, "unknown ALU operation 0x%02x", in->code);
	if (in->off &&
	    !(in->off == 1 && (BPF_OP(in->code) == BPF_DIV || BPF_OP(in->code) == BPF_MOD)))
		return fail(t, i, "ALU operation with offset %d", in->off);
	if (k)
		return emit(t, i, mk(binary_opcode(in), dst, dst, 0, flags | HXU_F_K, 0, in->imm),
			    -1);
	return emit(t, i, mk(binary_opcode(in), dst, dst, src, flags, 0, 0), -1);
}

static int translate_jmp(struct translator *t, uint32_t i, const struct bpf_insn *in);

static bool is_shift32(const struct bpf_insn *in, uint8_t op, uint8_t reg)
{
	return in->code == (BPF_ALU64 | op | BPF_K) && in->imm == 32 && in->dst_reg == reg &&
	       !in->off;
}

/*
 * `rX <<= 32; rX >>= 32` (after `rX = rY`, or on rX itself), which is how
 * clang zero-extends a 32-bit value: the instructions it takes (3 or 2),
 * or 0. Then a 32-bit move does it; and when the only reader is an
 * unsigned comparison with a non-negative constant after which rX is dead,
 * the comparison's 32-bit form does it alone (returned as one more).
 */
static uint32_t zero_extension(const struct translator *t, uint32_t i)
{
	const struct bpf_insn *in = t->prog->insns;
	uint32_t n = t->prog->insn_cnt, at = i, len;
	uint8_t reg = in[i].dst_reg, op;
	int64_t target;

	if (in[i].code == (BPF_ALU64 | BPF_MOV | BPF_X) && !in[i].off && in[i].src_reg != reg)
		at = i + 1;
	if (at + 1 >= n || !is_shift32(&in[at], BPF_LSH, reg) ||
	    !is_shift32(&in[at + 1], BPF_RSH, reg) || t->is_target[at] || t->is_target[at + 1] ||
	    t->dead[at] || t->dead[at + 1] || (at > i && t->dead[i]))
		return 0;
	len = at + 2 - i;
	if (at + 2 >= n || t->is_target[at + 2] || !t->facts[at + 2].reachable || at > i)
		return len;
	/* the comparison: unsigned or equality, a constant 0 .. 2^31 - 1 */
	op = BPF_OP(in[at + 2].code);
	if (BPF_CLASS(in[at + 2].code) != BPF_JMP || BPF_SRC(in[at + 2].code) != BPF_K ||
	    in[at + 2].dst_reg != reg || in[at + 2].imm < 0 ||
	    (op != BPF_JEQ && op != BPF_JNE && op != BPF_JGT && op != BPF_JGE && op != BPF_JLT &&
	     op != BPF_JLE && op != BPF_JSET))
		return len;
	target = (int64_t)at + 3 + in[at + 2].off;
	if (target < 0 || target > (int64_t)n || (t->live[target] & (1u << reg)) ||
	    (t->live[at + 3] & (1u << reg)))
		return len;
	return len + 1;
}

static int translate_zext(struct translator *t, uint32_t i, uint32_t len)
{
	const struct bpf_insn *in = &t->prog->insns[i];
	struct bpf_insn cmp;

	if (in->code == (BPF_ALU64 | BPF_MOV | BPF_X))
		return emit(t, i, mk(HXU_OP_MOV, in->dst_reg, in->src_reg, 0, HXU_F_W32, 0, 0), -1);
	if (len == 2)
		return emit(t, i, mk(HXU_OP_MOV, in->dst_reg, in->dst_reg, 0, HXU_F_W32, 0, 0), -1);
	/* the comparison in its 32-bit form reads the low half alone */
	cmp = in[2];
	cmp.code = (uint8_t)(BPF_JMP32 | BPF_OP(cmp.code) | BPF_K);
	return translate_jmp(t, i + 2, &cmp);
}

static int translate_fused(struct translator *t, uint32_t i)
{
	const struct bpf_insn *mov = &t->prog->insns[i], *alu = &t->prog->insns[i + 1];
	bool w = BPF_CLASS(alu->code) == BPF_ALU;
	uint8_t flags = w ? HXU_F_W32 : 0;

	if (BPF_SRC(alu->code) == BPF_K)
		return emit(t, i,
			    mk(binary_opcode(alu), mov->dst_reg, mov->src_reg, 0, flags | HXU_F_K,
			       0, alu->imm),
			    -1);
	return emit(t, i,
		    mk(binary_opcode(alu), mov->dst_reg, mov->src_reg,
		       alu->src_reg == mov->dst_reg ? mov->src_reg : alu->src_reg, flags, 0, 0),
		    -1);
}

static const int8_t ctx_field[] = { HXU_CTX_DATA,    HXU_CTX_DATA_END, HXU_CTX_DATA_META,
				    HXU_CTX_INGRESS, HXU_CTX_RX_QUEUE, HXU_CTX_EGRESS };

/*
 * A load followed by a byte swap of all the loaded bits in the same register
 * (BPF's bpf_ntohs(*p)): one network-order load.
 */
static bool load_swapped(const struct translator *t, uint32_t i)
{
	const struct bpf_insn *ld = &t->prog->insns[i], *sw = &t->prog->insns[i + 1];
	int size = hxu_bpf_size(ld->code);

	if (i + 1 >= t->prog->insn_cnt || !t->facts[i + 1].reachable || t->is_target[i + 1])
		return false;
	if (BPF_MODE(ld->code) != BPF_MEM || size < 2 ||
	    t->facts[i].regs[ld->src_reg].type == HWXDP_REG_PTR_TO_CTX)
		return false;
	if (BPF_OP(sw->code) != BPF_END || sw->dst_reg != ld->dst_reg || sw->imm != size * 8)
		return false;
	return BPF_CLASS(sw->code) == BPF_ALU64 ||
	       (BPF_CLASS(sw->code) == BPF_ALU && BPF_SRC(sw->code) == BPF_TO_BE);
}

static int translate_ldx(struct translator *t, uint32_t i, const struct bpf_insn *in, bool be)
{
	const struct hwxdp_reg_fact *base = &t->facts[i].regs[in->src_reg];
	int size = hxu_bpf_size(in->code), space;
	bool sx = BPF_MODE(in->code) == BPF_MEMSX;

	if (BPF_MODE(in->code) != BPF_MEM && !sx)
		return fail(t, i, "load mode 0x%02x", BPF_MODE(in->code));
	if (base->type == HWXDP_REG_PTR_TO_CTX) {
		int32_t off = base->off + in->off;

		if (off < 0 || off % 4 ||
		    off / 4 >= (int32_t)(sizeof(ctx_field) / sizeof(ctx_field[0])) || size != 4)
			return fail(t, i, "xdp_md read at offset %d, size %d", off, size);
		return emit(t, i,
			    mk(HXU_OP_CTX, in->dst_reg, 0, 0, 0, (uint8_t)ctx_field[off / 4], 0),
			    -1);
	}
	space = space_of(t, i, in->src_reg, "load");
	if (space < 0)
		return -HWXDP_ERR_TRANSLATE;
	return emit(t, i,
		    mk((uint8_t)((sx ? HXU_OP_LDSX : HXU_OP_LD) + space), in->dst_reg, in->src_reg,
		       0, hxu_mem_flags(size, be), 0, in->off),
		    -1);
}

/* An `or` or shift that completes a load assembled from pieces: the load. */
static int translate_combined(struct translator *t, uint32_t i, const struct bpf_insn *in)
{
	const struct hxu_combined *c = &t->combined[i];
	int space = space_of(t, c->load_insn, c->base, "load");

	if (space < 0)
		return -HWXDP_ERR_TRANSLATE;
	return emit(t, i,
		    mk((uint8_t)(HXU_OP_LD + space), in->dst_reg, c->base, 0,
		       hxu_mem_flags(c->size, c->be), 0, c->off),
		    -1);
}

/* The first byte store of a run that writes one value whole: that store. */
static int translate_store_whole(struct translator *t, uint32_t i, const struct bpf_insn *in)
{
	const struct hxu_store_combined *c = &t->stores[i];
	int space = space_of(t, i, in->dst_reg, "store");

	if (space < 0)
		return -HWXDP_ERR_TRANSLATE;
	return emit(t, i,
		    mk((uint8_t)(HXU_OP_ST + space), 0, in->dst_reg, c->value,
		       hxu_mem_flags(c->size, false), 0, c->off),
		    -1);
}

static int translate_st(struct translator *t, uint32_t i, const struct bpf_insn *in)
{
	int size = hxu_bpf_size(in->code);
	int space = space_of(t, i, in->dst_reg, "store");
	struct hxu_op op;

	if (space < 0)
		return -HWXDP_ERR_TRANSLATE;
	if (BPF_CLASS(in->code) == BPF_ST) {
		if (BPF_MODE(in->code) != BPF_MEM)
			return fail(t, i, "store mode 0x%02x", BPF_MODE(in->code));
		op = mk((uint8_t)(HXU_OP_STI + space), 0, in->dst_reg, 0,
			hxu_mem_flags(size, false), 0, in->off);
		op.ext = (uint32_t)in->imm;
		return emit(t, i, op, -1);
	}
	if (BPF_MODE(in->code) == BPF_MEM)
		return emit(t, i,
			    mk((uint8_t)(HXU_OP_ST + space), 0, in->dst_reg, in->src_reg,
			       hxu_mem_flags(size, false), 0, in->off),
			    -1);
	if (BPF_MODE(in->code) == BPF_ATOMIC) {
		int32_t aop = in->imm & ~BPF_FETCH;
		bool fetch = in->imm & BPF_FETCH;
		uint8_t x, rd = 0;

		if (space == HXU_SPACE_PKT)
			return fail(t, i, "atomic operation on the packet");
		switch (aop) {
		case BPF_ADD:
			x = HXU_ATOMIC_ADD;
			break;
		case BPF_AND:
			x = HXU_ATOMIC_AND;
			break;
		case BPF_OR:
			x = HXU_ATOMIC_OR;
			break;
		case BPF_XOR:
			x = HXU_ATOMIC_XOR;
			break;
		default:
			if (in->imm == BPF_XCHG) {
				x = HXU_ATOMIC_XCHG;
			} else if (in->imm == BPF_CMPXCHG) {
				x = HXU_ATOMIC_CMPXCHG;
			} else {
				return fail(t, i, "atomic operation 0x%x", in->imm);
			}
			fetch = true;
		}
		if (fetch)
			rd = x == HXU_ATOMIC_CMPXCHG ? 0 : in->src_reg;
		return emit(t, i,
			    mk((uint8_t)(HXU_OP_ATOMIC + space), rd, in->dst_reg, in->src_reg,
			       hxu_mem_flags(size, fetch), x, in->off),
			    -1);
	}
	return fail(t, i, "store mode 0x%02x", BPF_MODE(in->code));
}

/* A map whose redirects only the host makes: a CPU's queue, a socket. */
static bool host_redirect_map(const struct hwxdp_map_desc *m)
{
	return m->type == BPF_MAP_TYPE_CPUMAP || m->type == BPF_MAP_TYPE_XSKMAP;
}

static int translate_ld_imm64(struct translator *t, uint32_t i, const struct bpf_insn *in)
{
	uint64_t value = (uint64_t)(uint32_t)in[1].imm << 32 | (uint32_t)in[0].imm;
	struct hxu_op op;
	int err;

	switch (in->src_reg) {
	case 0:
		op = mk(HXU_OP_MOVI, in->dst_reg, 0, 0, 0, 0, (int32_t)(uint32_t)value);
		op.ext = (uint32_t)(value >> 32);
		return emit(t, i, op, -1);
	case BPF_PSEUDO_MAP_FD:
		/* A map in a register only reaches helpers, which name the
		 * table themselves: its id is a fine value. */
		if ((uint32_t)in->imm >= t->obj->map_cnt || in->imm >= HXU_TABLES)
			return fail(t, i, "map %d beyond the device's tables", in->imm);
		/* a cpumap's or xskmap's id is only tested where a redirect
		 * punts for it: no table (a lookup names its own) */
		if (!host_redirect_map(&t->obj->maps[in->imm]))
			t->map_used[in->imm] = true;
		return emit(t, i, mk(HXU_OP_MOV, in->dst_reg, 0, 0, HXU_F_K, 0, in->imm), -1);
	case BPF_PSEUDO_MAP_VALUE:
		/* Table memory addresses exist only once the tables do, so the
		 * value's address is looked up like an array element's. */
		if ((uint32_t)in->imm >= t->obj->map_cnt || in->imm >= HXU_TABLES)
			return fail(t, i, "map %d beyond the device's tables", in->imm);
		if (t->obj->maps[in->imm].type != BPF_MAP_TYPE_ARRAY)
			return fail(t, i, "address of a value in map %s, not an array",
				    t->obj->maps[in->imm].name);
		t->map_used[in->imm] = true;
		err = emit(t, i,
			   mk(HXU_OP_TINDEX, in->dst_reg, HXU_REG_ZERO, 0, 0, (uint8_t)in->imm, 0),
			   -1);
		if (!err && in[1].imm)
			err = emit(
				t, i,
				mk(HXU_OP_ADD, in->dst_reg, in->dst_reg, 0, HXU_F_K, 0, in[1].imm),
				-1);
		return err;
	case BPF_PSEUDO_BTF_ID:
		/* A device kfunc's address: only ever tested against NULL. */
		return emit(t, i, mk(HXU_OP_MOV, in->dst_reg, 0, 0, HXU_F_K, 0, 1), -1);
	case BPF_PSEUDO_FUNC:
		/* A callback: it only reaches a helper that calls back, which
		 * is host-only, so the device punts there and never calls it.
		 * The register holds a number no instruction reads. */
		return emit(t, i, mk(HXU_OP_MOV, in->dst_reg, 0, 0, HXU_F_K, 0, 0), -1);
	}
	return fail(t, i, "ld_imm64 of kind %u", in->src_reg);
}

/* The constant in register reg at insn, or false. */
static bool reg_const(const struct translator *t, uint32_t insn, unsigned int reg, uint64_t *v)
{
	const struct hwxdp_reg_fact *r = &t->facts[insn].regs[reg];

	if (r->type != HWXDP_REG_SCALAR || r->tnum_mask)
		return false;
	*v = r->tnum_value;
	return true;
}

/* Whether redirect_map call insn has flags redir can hold as a constant;
 * else redir reads them from R3 at run time, as when clang merged calls
 * with different flags into one. */
static bool redirect_flags_const(const struct translator *t, uint32_t insn, uint64_t *flags)
{
	return reg_const(t, insn, 3, flags) && *flags <= INT32_MAX;
}

static int known_map(struct translator *t, uint32_t i, const char *helper)
{
	const struct hwxdp_insn_fact *f = &t->facts[i];

	if (!f->map_known && f->map_alt_cnt > HWXDP_MAP_ALTS)
		return fail(t, i, "%s on one of more than %u maps chosen at run time", helper,
			    HWXDP_MAP_ALTS);
	if (!f->map_known)
		return fail(t, i, "%s on a map not known at translation", helper);
	if (f->map_index >= t->obj->map_cnt || f->map_index >= HXU_TABLES)
		return fail(t, i, "%s on map %u beyond the device's tables", helper, f->map_index);
	t->map_used[f->map_index] = true;
	return (int)f->map_index;
}

/* The register a map helper takes its map in, or -1 for other helpers. */
static int map_arg(const struct bpf_insn *in)
{
	if (in->code != (BPF_JMP | BPF_CALL) || in->src_reg)
		return -1;
	switch (in->imm) {
	case BPF_FUNC_map_lookup_elem:
	case BPF_FUNC_map_update_elem:
	case BPF_FUNC_map_delete_elem:
	case BPF_FUNC_redirect_map:
		return BPF_REG_1;
	case BPF_FUNC_tail_call:
		return BPF_REG_2;
	}
	return -1;
}

static int outer_of(const struct hwxdp_object *obj, uint32_t map);

/*
 * The alternative of map helper call i that a map of maps gave, or -1 when
 * none is: the map register then holds a handle, no table id to test (a
 * handle, 2^32 + an id, never equals one). Katran's per-CPU LRU, or its
 * fallback map when the CPU has none, is one such call. -2 when more than
 * one is, or when the call cannot take its table from r1.
 */
static int handle_alt(const struct translator *t, uint32_t i)
{
	const struct bpf_insn *in = &t->prog->insns[i];
	const struct hwxdp_insn_fact *f = &t->facts[i];
	int alt = -1;

	for (uint8_t k = 0; k < f->map_alt_cnt && k < HWXDP_MAP_ALTS; k++) {
		if (outer_of(t->obj, f->map_alt[k]) < 0)
			continue;
		if (alt >= 0 || map_arg(in) != BPF_REG_1 || in->imm == BPF_FUNC_redirect_map)
			return -2;
		alt = k;
	}
	return alt;
}

/* Whether map helper call i is passed one of several maps, as on paths
 * that chose a map each and met again before the call: maps the object
 * names, and at most one that a map of maps gave, tested last. */
static bool map_dispatch(const struct translator *t, uint32_t i)
{
	const struct hwxdp_insn_fact *f = &t->facts[i];

	if (map_arg(&t->prog->insns[i]) < 0 || f->map_known || f->map_alt_cnt <= 1 ||
	    f->map_alt_cnt > HWXDP_MAP_ALTS)
		return false;
	return handle_alt(t, i) != -2;
}

/* Whether map helper call i takes its table from a register: a map a
 * lookup in a map of maps gave. */
static bool map_from_reg(const struct translator *t, uint32_t i)
{
	const struct hwxdp_insn_fact *f = &t->facts[i];

	return map_arg(&t->prog->insns[i]) >= 0 && f->map_known &&
	       outer_of(t->obj, f->map_index) >= 0;
}

/*
 * A lookup in an array with a key the verifier knows, in range: it cannot
 * miss (the verifier has R0 non-null after it), so it is the element's
 * address, from the key as a constant, and the key need not be in memory.
 */
static bool direct_lookup(const struct translator *t, uint32_t i)
{
	const struct bpf_insn *in = &t->prog->insns[i];
	const struct hwxdp_insn_fact *f = &t->facts[i];
	const struct hwxdp_map_desc *m;

	if (in->code != (BPF_JMP | BPF_CALL) || in->src_reg ||
	    in->imm != BPF_FUNC_map_lookup_elem || !f->reachable || f->punt_point ||
	    !f->map_known || !f->map_key_const || f->map_index >= t->obj->map_cnt ||
	    f->map_index >= HXU_TABLES)
		return false;
	m = &t->obj->maps[f->map_index];
	/* a template's array is no table: the handle in r1 names the one */
	return m->type == BPF_MAP_TYPE_ARRAY && m->origin != HWXDP_MAP_INNER && m->key_size == 4 &&
	       f->map_key < m->max_entries && f->map_key <= INT32_MAX;
}

static int translate_direct(struct translator *t, uint32_t i)
{
	const struct hwxdp_insn_fact *f = &t->facts[i];
	int err = 0;
	uint8_t key = HXU_REG_ZERO;

	t->map_used[f->map_index] = true;
	if (f->map_key) {
		key = 0;
		err = emit(t, i, mk(HXU_OP_MOV, 0, 0, 0, HXU_F_K, 0, (int32_t)f->map_key), -1);
	}
	if (!err)
		err = emit(t, i, mk(HXU_OP_TINDEX, 0, key, 0, 0, (uint8_t)f->map_index, 0), -1);
	return err;
}

/* bpf_map_update_elem's flags and value space as tupdate's immediate (and
 * tupdater's low bits), or -HWXDP_ERR_TRANSLATE with the reason. */
static int update_imm(struct translator *t, uint32_t i, int32_t *imm)
{
	int vs = space_of(t, i, 3, "map value");
	uint64_t flags;

	if (vs < 0)
		return -HWXDP_ERR_TRANSLATE;
	if (!reg_const(t, i, 4, &flags) || flags > HXU_TUPDATE_FLAGS_MASK)
		return fail(t, i, "map update flags not a known constant");
	*imm = (int32_t)(flags | (uint32_t)vs << HXU_TUPDATE_VSPACE_SHIFT);
	return 0;
}

/* The space of bpf_csum_diff's buffer in register reg, whose size is in
 * size_reg: a NULL buffer of size 0 is never read, and any space will do. */
static int csum_space(struct translator *t, uint32_t i, unsigned int reg, unsigned int size_reg)
{
	const struct hwxdp_reg_fact *r = &t->facts[i].regs[reg];
	uint64_t v;

	if (r->type == HWXDP_REG_SCALAR && reg_const(t, i, reg, &v) && !v &&
	    reg_const(t, i, size_reg, &v) && !v)
		return HXU_SPACE_PKT;
	return space_of(t, i, reg, "csum_diff buffer");
}

/* The table operation of map helper call i on table map. */
static int table_op(struct translator *t, uint32_t i, const struct bpf_insn *in, int map)
{
	uint64_t flags;
	int32_t imm;
	int ks;

	switch (in->imm) {
	case BPF_FUNC_map_lookup_elem:
		ks = space_of(t, i, 2, "map key");
		if (ks < 0)
			return -HWXDP_ERR_TRANSLATE;
		return emit(t, i, mk(HXU_OP_TLOOKUP, 0, 2, 0, (uint8_t)ks, (uint8_t)map, 0), -1);
	case BPF_FUNC_map_update_elem:
		ks = space_of(t, i, 2, "map key");
		if (ks < 0)
			return -HWXDP_ERR_TRANSLATE;
		if (update_imm(t, i, &imm))
			return -HWXDP_ERR_TRANSLATE;
		return emit(t, i, mk(HXU_OP_TUPDATE, 0, 2, 3, (uint8_t)ks, (uint8_t)map, imm), -1);
	case BPF_FUNC_map_delete_elem:
		ks = space_of(t, i, 2, "map key");
		if (ks < 0)
			return -HWXDP_ERR_TRANSLATE;
		return emit(t, i, mk(HXU_OP_TDELETE, 0, 2, 0, (uint8_t)ks, (uint8_t)map, 0), -1);
	case BPF_FUNC_redirect_map:
		if (!redirect_flags_const(t, i, &flags))
			return emit(t, i,
				    mk(HXU_OP_REDIR, 0, 2, 3, 0, (uint8_t)map, HXU_REDIR_FLAGS_RT),
				    -1);
#ifdef HWXDP_MUTANT_REDIRECT_NO_EXCLUDE
		/* A test build drops BPF_F_EXCLUDE_INGRESS from constant flags,
		 * so that the prover's command can be shown to refute a
		 * broadcast's egress through its replay. */
		flags &= ~(uint64_t)BPF_F_EXCLUDE_INGRESS;
#endif
		return emit(t, i, mk(HXU_OP_REDIR, 0, 2, 0, 0, (uint8_t)map, (int32_t)flags), -1);
	case BPF_FUNC_tail_call:
		return emit(t, i, mk(HXU_OP_TCALL, 0, 3, 0, 0, (uint8_t)map, 0), -1);
	}
	return fail(t, i, "helper %d is no map helper", in->imm);
}

static int table_op_reg(struct translator *t, uint32_t i, const struct bpf_insn *in, int outer);

/*
 * A map helper call passed one of several maps: the map register holds
 * the map's table id (translate_ld_imm64), so the call is a chain of tests
 * of it, each alternative's table operation behind its own, all joining at
 * the next instruction:
 *
 *	bri rM != A, L1;  <op on A>;  jmp next
 *	L1: bri rM != B, L2;  <op on B>;  jmp next
 *	L2: <op on the last>
 *
 * Every path the verifier walked passed one of these maps, so the last
 * needs no test. A map a map of maps gave is last: its handle is tested
 * for no id, and its operation takes the table from the handle.
 */
static int translate_dispatch(struct translator *t, uint32_t i, const struct bpf_insn *in)
{
	const struct hwxdp_insn_fact *f = &t->facts[i];
	uint8_t reg = (uint8_t)map_arg(in), order[HWXDP_MAP_ALTS], n = 0;
	int handle = handle_alt(t, i);
	size_t branch = SIZE_MAX;
	int err = 0;

	/* a handle cannot be tested for: its alternative is the last */
	for (uint8_t k = 0; k < f->map_alt_cnt; k++)
		if (k != handle)
			order[n++] = k;
	if (handle >= 0)
		order[n++] = (uint8_t)handle;
	for (uint8_t k = 0; k < n && !err; k++) {
		uint32_t map = f->map_alt[order[k]];
		struct hxu_op o;

		if (map >= t->obj->map_cnt || map >= HXU_TABLES)
			return fail(t, i, "map %u beyond the device's tables", map);
		if (branch != SIZE_MAX)
			t->ops[branch].target = INTERNAL(t->op_cnt);
		branch = SIZE_MAX;
		if (k + 1 < n) {
			o = mk(HXU_OP_BRI, 0, reg, 0, 0, HXU_CC_NE, 0);
			o.ext = map;
			err = emit(t, i, o, INTERNAL(0));
			if (!err && t->op_cnt && t->ops[t->op_cnt - 1].op.opcode == HXU_OP_BRI)
				branch = t->op_cnt - 1;
		}
		if (!err && order[k] == handle) {
			err = table_op_reg(t, i, in, outer_of(t->obj, map));
		} else if (!err && f->punt_host_maps && in->imm == BPF_FUNC_redirect_map &&
			   host_redirect_map(&t->obj->maps[map])) {
			/* a host CPU's queue or a socket: the host copy redirects */
			err = emit(t, i, mk(HXU_OP_PUNT, 0, 0, 0, 0, 0, HWXDP_PUNT_HOST_ONLY), -1);
		} else if (!err) {
			t->map_used[map] = true;
			err = table_op(t, i, in, (int)map);
		}
		if (!err && k + 1 < n)
			err = emit(t, i, mk(HXU_OP_JMP, 0, 0, 0, 0, 0, 0), (int64_t)i + 1);
	}
	return err;
}

/* The map of maps whose maps' template is map, or -1. */
static int outer_of(const struct hwxdp_object *obj, uint32_t map)
{
	if (map >= obj->map_cnt || obj->maps[map].origin != HWXDP_MAP_INNER)
		return -1;
	for (size_t k = 0; k < obj->map_cnt && k < HXU_TABLES; k++)
		if (hxu_map_of_maps(obj->maps[k].type) && obj->maps[k].inner_map == map)
			return (int)k;
	return -1;
}

/*
 * A map helper call on a map a lookup in map of maps outer gave: the map
 * register (r1) holds the inner table's handle, so the table operation
 * takes its table from it, checked against outer's template.
 */
static int table_op_reg(struct translator *t, uint32_t i, const struct bpf_insn *in, int outer)
{
	int32_t imm;
	int ks;

	t->map_used[outer] = true;
	if (in->imm == BPF_FUNC_redirect_map || in->imm == BPF_FUNC_tail_call)
		return fail(t, i,
			    "%s through a map of maps' map: the device's port tables and "
			    "program arrays are named in the microcode",
			    in->imm == BPF_FUNC_tail_call ? "tail call" : "redirect_map");
	ks = space_of(t, i, 2, "map key");
	if (ks < 0)
		return -HWXDP_ERR_TRANSLATE;
	switch (in->imm) {
	case BPF_FUNC_map_lookup_elem:
		return emit(t, i, mk(HXU_OP_TLOOKUPR, 0, 2, 1, (uint8_t)ks, (uint8_t)outer, 0), -1);
	case BPF_FUNC_map_delete_elem:
		return emit(t, i, mk(HXU_OP_TDELETER, 0, 2, 1, (uint8_t)ks, (uint8_t)outer, 0), -1);
	case BPF_FUNC_map_update_elem:
		if (update_imm(t, i, &imm))
			return -HWXDP_ERR_TRANSLATE;
		/* the handle's register above tupdate's bits */
		imm = (int32_t)((uint32_t)imm | (uint32_t)BPF_REG_1 << HXU_TUPDATER_REG_SHIFT);
		return emit(t, i, mk(HXU_OP_TUPDATER, 0, 2, 3, (uint8_t)ks, (uint8_t)outer, imm),
			    -1);
	}
	return fail(t, i, "helper %d is no map helper", in->imm);
}

#ifdef HWXDP_MUTANT_CLOCK_CPU
/* Whether instruction i is the program's first call of bpf_ktime_get_ns. */
static bool first_clock_read(const struct translator *t, uint32_t i)
{
	for (uint32_t j = 0; j < i; j++) {
		const struct bpf_insn *in = &t->prog->insns[j];

		if (in->code == (BPF_JMP | BPF_CALL) && !in->src_reg &&
		    in->imm == BPF_FUNC_ktime_get_ns)
			return false;
	}
	return true;
}
#endif

static int translate_helper(struct translator *t, uint32_t i, const struct bpf_insn *in)
{
	const struct hwxdp_insn_fact *f = &t->facts[i];
	int map, outer;

	if (t->direct[i])
		return translate_direct(t, i);
	if (map_from_reg(t, i)) {
		outer = outer_of(t->obj, f->map_index);
		return table_op_reg(t, i, in, outer);
	}
	if (map_arg(in) >= 0) {
		if (map_dispatch(t, i))
			return translate_dispatch(t, i, in);
		map = known_map(t, i,
				in->imm == BPF_FUNC_map_lookup_elem   ? "map lookup"
				: in->imm == BPF_FUNC_map_update_elem ? "map update"
				: in->imm == BPF_FUNC_map_delete_elem ? "map delete"
				: in->imm == BPF_FUNC_redirect_map    ? "redirect_map"
								      : "tail call");
		return map < 0 ? map : table_op(t, i, in, map);
	}
	switch (in->imm) {
	case BPF_FUNC_redirect:
		return emit(t, i, mk(HXU_OP_REDIRIF, 0, 1, 2, 0, 0, 0), -1);
	case BPF_FUNC_csum_diff: {
		int from = csum_space(t, i, 1, 2), to = csum_space(t, i, 3, 4);

		if (from < 0 || to < 0)
			return -HWXDP_ERR_TRANSLATE;
		return emit(
			t, i,
			mk(HXU_OP_CSUMD, 0, 0, 0, 0, (uint8_t)(from | to << HXU_CSUMD_TO_SHIFT), 0),
			-1);
	}
	case BPF_FUNC_xdp_adjust_head:
		return emit(t, i, mk(HXU_OP_HADJ, 0, 2, 0, 0, 0, 0), -1);
	case BPF_FUNC_xdp_adjust_meta:
		return emit(t, i, mk(HXU_OP_MADJ, 0, 2, 0, 0, 0, 0), -1);
	case BPF_FUNC_xdp_adjust_tail:
		return emit(t, i, mk(HXU_OP_TADJ, 0, 2, 0, 0, 0, 0), -1);
	case BPF_FUNC_ktime_get_ns:
#ifdef HWXDP_MUTANT_CLOCK_CPU
		/* A test build reads the CPU's number for a program's first
		 * clock reading, so that the prover's command can be shown to
		 * refute a clock counterexample through its replay. */
		if (first_clock_read(t, i))
			return emit(t, i, mk(HXU_OP_CPU, 0, 0, 0, 0, 0, 0), -1);
#endif
		return emit(t, i, mk(HXU_OP_TIME, 0, 0, 0, 0, HXU_CLOCK_MONO, 0), -1);
	case BPF_FUNC_ktime_get_boot_ns:
		return emit(t, i, mk(HXU_OP_TIME, 0, 0, 0, 0, HXU_CLOCK_BOOT, 0), -1);
	case BPF_FUNC_ktime_get_coarse_ns:
		return emit(t, i, mk(HXU_OP_TIME, 0, 0, 0, 0, HXU_CLOCK_COARSE, 0), -1);
	case BPF_FUNC_ktime_get_tai_ns:
		return emit(t, i, mk(HXU_OP_TIME, 0, 0, 0, 0, HXU_CLOCK_TAI, 0), -1);
	case BPF_FUNC_xdp_get_buff_len: {
		/* data_end - data: the device's frames are linear, so this is
		 * the whole frame, as the kernel counts it with its frags */
		int err = emit(t, i, mk(HXU_OP_CTX, 0, 0, 0, 0, HXU_CTX_DATA_END, 0), -1);

		err = err ?: emit(t, i, mk(HXU_OP_CTX, 1, 0, 0, 0, HXU_CTX_DATA, 0), -1);
		return err ?: emit(t, i, mk(HXU_OP_SUB, 0, 0, 1, 0, 0, 0), -1);
	}
	case BPF_FUNC_get_prandom_u32:
		return emit(t, i, mk(HXU_OP_RAND, 0, 0, 0, 0, 0, 0), -1);
	case BPF_FUNC_get_smp_processor_id:
		return emit(t, i, mk(HXU_OP_CPU, 0, 0, 0, 0, 0, 0), -1);
	}
	return fail(t, i, "helper %d has no device unit", in->imm);
}

/* A branch inside instruction i to an operation emitted later: its index,
 * for lower_target, or SIZE_MAX when a test build left it out. */
static size_t emit_forward(struct translator *t, uint32_t i, struct hxu_op op, int *err)
{
	size_t at = t->op_cnt;

	*err = emit(t, i, op, INTERNAL(0));
	return !*err && t->op_cnt > at ? at : SIZE_MAX;
}

static void lower_target(struct translator *t, size_t branch)
{
	if (branch != SIZE_MAX)
		t->ops[branch].target = INTERNAL(t->op_cnt);
}

static struct hxu_op mk_bri(uint8_t rs, uint8_t cc, bool w32, int32_t imm)
{
	struct hxu_op o = mk(HXU_OP_BRI, 0, rs, 0, w32 ? HXU_F_W32 : 0, cc, 0);

	o.ext = (uint32_t)imm;
	return o;
}

/* rd = imm: as a 32-bit move, zero-extended (an int result) */
static struct hxu_op mk_movk(uint8_t rd, int32_t imm, bool w32)
{
	return mk(HXU_OP_MOV, rd, 0, 0, (w32 ? HXU_F_W32 : 0) | HXU_F_K, 0, imm);
}

static struct hxu_op mk_sti64(uint8_t base, int16_t off, int32_t imm)
{
	struct hxu_op o =
		mk(HXU_OP_STI + HXU_SPACE_LM, 0, base, 0, hxu_mem_flags(8, false), 0, off);

	o.ext = (uint32_t)imm;
	return o;
}

/* A load and a store of size bytes of local memory at [base + off]. */
static struct hxu_op mk_ldl(int size, uint8_t rd, uint8_t base, int32_t off)
{
	return mk(HXU_OP_LD + HXU_SPACE_LM, rd, base, 0, hxu_mem_flags(size, false), 0, off);
}

static struct hxu_op mk_stl(int size, uint8_t base, uint8_t value, int32_t off)
{
	return mk(HXU_OP_ST + HXU_SPACE_LM, 0, base, value, hxu_mem_flags(size, false), 0, off);
}

/* the kernel's BPF_MAX_LOOPS: the most iterations bpf_iter_num_new allows */
#define ITER_MAX_LOOPS (8 * 1024 * 1024)

/*
 * The kernel's open-coded number iterator (kernel/bpf/bpf_iter.c), on the
 * 8 bytes R1 points to, struct bpf_iter_num_kern { int cur; int end; }:
 *
 *	new(it, start, end): start > end, or end - start > BPF_MAX_LOOPS
 *		(as s64): cur = end = 0, R0 -EINVAL or -E2BIG; else
 *		cur = start - 1, end = end, R0 0
 *	next(it): (s64)(cur + 1) >= end (the int's sum): cur = end = 0,
 *		R0 NULL; else cur++, R0 &cur
 *	destroy(it): cur = end = 0
 *
 * The ints are R2's and R3's low halves, the results ints as x86-64
 * returns them, zero-extended. R2..R5 are the call's to clobber. A branch
 * inside goes to an operation that reads only the call's arguments, or on
 * to the next instruction.
 */
static int lower_iter(struct translator *t, uint32_t i, const struct bpf_insn *in)
{
	int64_t next = (int64_t)i + 1;
	size_t branch;
	int err = 0;

	switch (in->imm) {
	case HWXDP_KFUNC_ITER_NUM_NEW:
		err = emit(t, i, mk_sti64(1, 0, 0), -1);
		err = err ?: emit(t, i, mk_movk(0, -EINVAL, true), -1);
		err = err ?: emit(t, i, mk(HXU_OP_BR, 0, 2, 3, HXU_F_W32, HXU_CC_SGT, 0), next);
		/* start <= end: end - start is the 32-bit difference, unsigned */
		err = err ?: emit(t, i, mk(HXU_OP_SUB, 0, 3, 2, HXU_F_W32, 0, 0), -1);
		if (err)
			return err;
		branch = emit_forward(t, i, mk_bri(0, HXU_CC_GT, true, ITER_MAX_LOOPS), &err);
		err = err ?: emit(t, i, mk(HXU_OP_SUB, 4, 2, 0, HXU_F_W32 | HXU_F_K, 0, 1), -1);
		err = err ?: emit(t, i, mk_stl(4, 1, 4, 0) /* cur */, -1);
		err = err ?: emit(t, i, mk_stl(4, 1, 3, 4) /* end */, -1);
		err = err ?: emit(t, i, mk_movk(0, 0, false), -1);
		err = err ?: emit(t, i, mk(HXU_OP_JMP, 0, 0, 0, 0, 0, 0), next);
		lower_target(t, branch);
		return err ?: emit(t, i, mk_movk(0, -E2BIG, true), -1);
	case HWXDP_KFUNC_ITER_NUM_NEXT:
		err = emit(t, i, mk_ldl(4, 2, 1, 0), -1);
		err = err ?: emit(t, i, mk(HXU_OP_ADD, 2, 2, 0, HXU_F_W32 | HXU_F_K, 0, 1), -1);
		err = err ?: emit(t, i, mk_ldl(4, 3, 1, 4), -1);
		if (err)
			return err;
		branch = emit_forward(t, i, mk(HXU_OP_BR, 0, 2, 3, HXU_F_W32, HXU_CC_SGE, 0), &err);
		err = err ?: emit(t, i, mk_stl(4, 1, 2, 0), -1);
		err = err ?: emit(t, i, mk(HXU_OP_MOV, 0, 1, 0, 0, 0, 0), -1);
		err = err ?: emit(t, i, mk(HXU_OP_JMP, 0, 0, 0, 0, 0, 0), next);
		lower_target(t, branch);
		err = err ?: emit(t, i, mk_movk(0, 0, false), -1);
		/* fallthrough */
	case HWXDP_KFUNC_ITER_NUM_DESTROY:
		return err ?: emit(t, i, mk_sti64(1, 0, 0), -1);
	}
	return fail(t, i, "kfunc %d has no device unit", in->imm);
}

/*
 * The frame's dynptr. The device's frames are linear and its dynptrs all
 * of the frame, at offset 0, so of the kernel's struct bpf_dynptr_kern it
 * keeps in the first 8 bytes only whether it was made and the length it was
 * made with: 0 for a NULL dynptr, else the length plus one (the program
 * cannot read the bytes; the verifier refuses it). bpf_dynptr_from_xdp
 * with flags is a NULL dynptr and -EINVAL, as in the kernel.
 *
 * bpf_dynptr_slice(ptr, off, buf, len), len a constant: NULL for a NULL
 * dynptr or where off (the u32) + len passes the length; else the frame's
 * bytes at off, data + off, never the buffer. Where len is 0 and off the
 * length, the kernel's bpf_xdp_pointer, past the linear part and finding no
 * fragment, gives data itself: so does the device.
 */
static int lower_dynptr(struct translator *t, uint32_t i, const struct bpf_insn *in)
{
	const struct hwxdp_reg_fact *len = &t->facts[i].regs[BPF_REG_4];
	int32_t beyond = (int32_t)(len->tnum_value + 1); /* made with: the length plus 1 */
	int64_t next = (int64_t)i + 1;
	int err;

	if (in->imm == HWXDP_KFUNC_DYNPTR_FROM_XDP) {
		err = emit(t, i, mk_sti64(3, 0, 0), -1);
		err = err ?: emit(t, i, mk_movk(0, -EINVAL, true), -1);
		err = err ?: emit(t, i, mk_bri(2, HXU_CC_NE, false, 0), next);
		err = err ?: emit(t, i, mk(HXU_OP_CTX, 4, 0, 0, 0, HXU_CTX_DATA_END, 0), -1);
		err = err ?: emit(t, i, mk(HXU_OP_CTX, 5, 0, 0, 0, HXU_CTX_DATA, 0), -1);
		err = err ?: emit(t, i, mk(HXU_OP_SUB, 4, 4, 5, 0, 0, 0), -1);
		err = err ?: emit(t, i, mk(HXU_OP_ADD, 4, 4, 0, HXU_F_K, 0, 1), -1);
		err = err ?: emit(t, i, mk_stl(8, 3, 4, 0), -1);
		return err ?: emit(t, i, mk_movk(0, 0, false), -1);
	}
	if (in->imm != HWXDP_KFUNC_DYNPTR_SLICE)
		return fail(t, i, "kfunc %d has no device unit", in->imm);
	if (len->type != HWXDP_REG_SCALAR || len->tnum_mask || len->tnum_value >= (1u << 29))
		return fail(t, i, "bpf_dynptr_slice of a size not known");
	/* r5 = length - len, signed; off above it (or it negative): NULL */
	err = emit(t, i, mk_ldl(8, 5, 1, 0), -1);
	err = err ?: emit(t, i, mk_movk(0, 0, false), -1);
	err = err ?: emit(t, i, mk_bri(5, HXU_CC_EQ, false, 0), next);
	err = err ?: emit(t, i, mk(HXU_OP_SUB, 5, 5, 0, HXU_F_K, 0, beyond), -1);
	err = err ?: emit(t, i, mk(HXU_OP_MOV, 2, 2, 0, HXU_F_W32, 0, 0), -1);
	err = err ?: emit(t, i, mk(HXU_OP_BR, 0, 2, 5, 0, HXU_CC_SGT, 0), next);
	err = err ?: emit(t, i, mk(HXU_OP_CTX, 0, 0, 0, 0, HXU_CTX_DATA, 0), -1);
	if (!len->tnum_value) {
		/* off is at most the length made with, which is the frame's
		 * (the verifier refuses moving the frame while it lives) */
		err = err ?: emit(t, i, mk(HXU_OP_CTX, 4, 0, 0, 0, HXU_CTX_DATA_END, 0), -1);
		err = err ?: emit(t, i, mk(HXU_OP_SUB, 4, 4, 0, 0, 0, 0), -1);
		err = err ?: emit(t, i, mk(HXU_OP_BR, 0, 2, 4, 0, HXU_CC_EQ, 0), next);
	}
	return err ?: emit(t, i, mk(HXU_OP_ADD, 0, 0, 2, 0, 0, 0), -1);
}

static int translate_jmp(struct translator *t, uint32_t i, const struct bpf_insn *in)
{
	static const int8_t cc[16] = {
		[BPF_JEQ >> 4] = HXU_CC_EQ + 1,	  [BPF_JGT >> 4] = HXU_CC_GT + 1,
		[BPF_JGE >> 4] = HXU_CC_GE + 1,	  [BPF_JSET >> 4] = HXU_CC_SET + 1,
		[BPF_JNE >> 4] = HXU_CC_NE + 1,	  [BPF_JSGT >> 4] = HXU_CC_SGT + 1,
		[BPF_JSGE >> 4] = HXU_CC_SGE + 1, [BPF_JLT >> 4] = HXU_CC_LT + 1,
		[BPF_JLE >> 4] = HXU_CC_LE + 1,	  [BPF_JSLT >> 4] = HXU_CC_SLT + 1,
		[BPF_JSLE >> 4] = HXU_CC_SLE + 1,
	};
	const struct hwxdp_insn_fact *f = &t->facts[i];
	bool w = BPF_CLASS(in->code) == BPF_JMP32;
	uint8_t op = BPF_OP(in->code);
	int64_t target, fall = (int64_t)i + 1;
	struct hxu_op o;

	if (op == BPF_EXIT)
		return emit(t, i, mk(HXU_OP_EXIT, 0, 0, 0, 0, 0, 0), -1);
	if (op == BPF_CALL) {
		if (f->punt_point)
			return emit(t, i, mk(HXU_OP_PUNT, 0, 0, 0, 0, 0, HWXDP_PUNT_HOST_ONLY), -1);
		if (in->src_reg == BPF_PSEUDO_CALL)
			return emit(t, i, mk(HXU_OP_CALL, 0, 0, 0, 0, 0, 0), fall + in->imm);
		if (in->src_reg == BPF_PSEUDO_KFUNC_CALL) {
			if (in->imm == HWXDP_KFUNC_ESP_ENCAP)
				return emit(t, i, mk(HXU_OP_ESP, 0, 2, 3, 0, 0, 0), -1);
			/* no metadata: R0 its answer, nothing written */
			if (hwxdp_kfunc__is_xdp_metadata(in->imm) && !in->off)
				return emit(t, i,
					    mk(HXU_OP_MOVI, 0, 0, 0, 0, 0,
					       (int32_t)(uint32_t)HWXDP_KFUNC_XDP_METADATA_RESULT),
					    -1);
			if (!in->off && in->imm >= HWXDP_KFUNC_ITER_NUM_NEW &&
			    in->imm <= HWXDP_KFUNC_ITER_NUM_DESTROY)
				return lower_iter(t, i, in);
			if (!in->off && hwxdp_kfunc__is_lowered(in->imm))
				return lower_dynptr(t, i, in);
			return fail(t, i, "kfunc %d has no device unit", in->imm);
		}
		return translate_helper(t, i, in);
	}
	if (op == BPF_JA) {
		target = fall + (w ? in->imm : in->off);
		if (target == fall)
			return 0;
		return emit(t, i, mk(HXU_OP_JMP, 0, 0, 0, 0, 0, 0), target);
	}
	if (!cc[op >> 4])
		return fail(t, i, "jump operation 0x%02x", in->code);
	target = fall + in->off;
	if (target < 0 || target > (int64_t)t->prog->insn_cnt)
		return fail(t, i, "jump out of the program");
	/* A map value pointer on every visit is never NULL: a NULL check of it
	 * (an array lookup that cannot miss) is decided. */
	if (!w && BPF_SRC(in->code) == BPF_K && !in->imm && (op == BPF_JEQ || op == BPF_JNE) &&
	    f->regs[in->dst_reg].type == HWXDP_REG_PTR_TO_MAP_VALUE)
		return op == BPF_JEQ ? 0 : emit(t, i, mk(HXU_OP_JMP, 0, 0, 0, 0, 0, 0), target);
	/* A side no visit took is never taken: the branch is decided. */
	if (f->pkt_check_always_false || target == fall ||
	    (target < (int64_t)t->prog->insn_cnt && !t->facts[target].reachable))
		return 0;
	if (f->pkt_check_always_true || fall >= (int64_t)t->prog->insn_cnt ||
	    !t->facts[fall].reachable)
		return emit(t, i, mk(HXU_OP_JMP, 0, 0, 0, 0, 0, 0), target);
	if (t->lchk[i].valid) {
		o = mk(HXU_OP_LCHK, 0, t->lchk[i].base, 0, HXU_F_LCHK_REG, 0, 0);
		o.ext = (uint32_t)t->lchk[i].off;
		return emit(t, i, o, target);
	}
	if (BPF_SRC(in->code) == BPF_K) {
		o = mk(HXU_OP_BRI, 0, in->dst_reg, 0, w ? HXU_F_W32 : 0, (uint8_t)(cc[op >> 4] - 1),
		       0);
		o.ext = (uint32_t)in->imm;
	} else {
		o = mk(HXU_OP_BR, 0, in->dst_reg, in->src_reg, w ? HXU_F_W32 : 0,
		       (uint8_t)(cc[op >> 4] - 1), 0);
	}
	return emit(t, i, o, target);
}

/* The register a whole-slot stack access at in is to, or -1. */
static int slot_register(const struct translator *t, const struct bpf_insn *in)
{
	uint8_t cls = BPF_CLASS(in->code);
	int s;

	if (BPF_MODE(in->code) != BPF_MEM || (cls != BPF_LDX && cls != BPF_ST && cls != BPF_STX))
		return -1;
	if ((cls == BPF_LDX ? in->src_reg : in->dst_reg) != BPF_REG_10)
		return -1;
	s = hxu_stack_slot(in);
	return s < 0 ? -1 : t->slot_reg[s];
}

static int translate_slot(struct translator *t, uint32_t i, const struct bpf_insn *in, int reg)
{
	switch (BPF_CLASS(in->code)) {
	case BPF_LDX:
		return emit(t, i, mk(HXU_OP_MOV, in->dst_reg, (uint8_t)reg, 0, 0, 0, 0), -1);
	case BPF_STX:
		return emit(t, i, mk(HXU_OP_MOV, (uint8_t)reg, in->src_reg, 0, 0, 0, 0), -1);
	}
	return emit(t, i, mk(HXU_OP_MOV, (uint8_t)reg, 0, 0, HXU_F_K, 0, in->imm), -1);
}

static void mark_targets(struct translator *t)
{
	const struct hwxdp_prog *p = t->prog;
	size_t i;

	for (i = 0; i < p->subprog_cnt; i++)
		if (p->subprog_start[i] < p->insn_cnt)
			t->is_target[p->subprog_start[i]] = true;
	for (i = 0; i < p->insn_cnt; i++) {
		const struct bpf_insn *in = &p->insns[i];
		uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
		int64_t target;

		if (cls == BPF_LD && in->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			i++;
			continue;
		}
		if (cls != BPF_JMP && cls != BPF_JMP32)
			continue;
		/* the alternatives of a map dispatch join again after it */
		if (op == BPF_CALL && !in->src_reg && t->facts[i].map_alt_cnt > 1 &&
		    i + 1 < p->insn_cnt)
			t->is_target[i + 1] = true;
		/* so does a kfunc lowered to operations that branch */
		if (op == BPF_CALL && in->src_reg == BPF_PSEUDO_KFUNC_CALL && !in->off &&
		    hwxdp_kfunc__is_lowered(in->imm) && in->imm != HWXDP_KFUNC_ITER_NUM_DESTROY &&
		    i + 1 < p->insn_cnt)
			t->is_target[i + 1] = true;
		if (op == BPF_EXIT || (op == BPF_CALL && in->src_reg != BPF_PSEUDO_CALL))
			continue;
		target = (int64_t)i + 1 +
			 ((op == BPF_CALL || (op == BPF_JA && cls == BPF_JMP32)) ? in->imm
										 : in->off);
		if (target >= 0 && target < (int64_t)p->insn_cnt)
			t->is_target[target] = true;
	}
}

/* Local-memory frames: one for the deepest chain of calls, plus one. The
 * subprogram an instruction is in: the last whose start is not after it. */
static uint32_t subprog_of(const struct hwxdp_prog *p, uint32_t insn, bool sorted)
{
	size_t lo = 0, hi = p->subprog_cnt;
	uint32_t s = 0;

	if (!sorted) {
		for (size_t i = 0; i < p->subprog_cnt; i++)
			if (p->subprog_start[i] <= insn)
				s = (uint32_t)i;
		return s;
	}
	/* the first start after insn, and the one before it */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->subprog_start[mid] <= insn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? (uint32_t)(lo - 1) : 0;
}

/* A subprogram's depth at a level is the same wherever it is called from:
 * memo[sub * HXU_LM_FRAMES + level], 0 until known. */
static uint32_t call_depth(const struct translator *t, uint32_t sub, unsigned int level,
			   uint32_t *memo, bool sorted)
{
	const struct hwxdp_prog *p = t->prog;
	uint32_t start = p->subprog_start[sub], depth = 1, d;
	uint32_t end = sub + 1 < p->subprog_cnt ? p->subprog_start[sub + 1] : (uint32_t)p->insn_cnt;

	if (level >= HXU_LM_FRAMES)
		return HXU_LM_FRAMES + 1;
	if (memo[sub * HXU_LM_FRAMES + level])
		return memo[sub * HXU_LM_FRAMES + level];
	for (uint32_t i = start; i < end; i++) {
		const struct bpf_insn *in = &p->insns[i];

		hxu_work_add(1);
		if (in->code != (BPF_JMP | BPF_CALL) || in->src_reg != BPF_PSEUDO_CALL ||
		    !t->facts[i].reachable)
			continue;
		d = 1 + call_depth(t, subprog_of(p, (uint32_t)((int64_t)i + 1 + in->imm), sorted),
				   level + 1, memo, sorted);
		if (d > depth)
			depth = d;
	}
	memo[sub * HXU_LM_FRAMES + level] = depth;
	return depth;
}

static int frames(const struct translator *t, uint32_t *out)
{
	const struct hwxdp_prog *p = t->prog;
	uint32_t *memo = calloc((size_t)p->subprog_cnt * HXU_LM_FRAMES + 1, sizeof(*memo));
	bool sorted = true;

	if (!memo)
		return -ENOMEM;
	for (size_t i = 1; i < p->subprog_cnt; i++)
		sorted &= p->subprog_start[i - 1] <= p->subprog_start[i];
	*out = call_depth(t, 0, 0, memo, sorted);
	free(memo);
	return 0;
}

/*
 * Registers a helper's device operation reads: the table operations name
 * their table and take their flags as constants, and the context is the
 * engine's own, so R1 and the constant arguments are not read (a redir
 * whose flags are not a constant reads R3 too: insn_effect).
 */
static uint16_t helper_uses(const struct bpf_insn *in, bool direct, bool punt)
{
	if (direct || punt)
		return 0;
	if (in->src_reg == BPF_PSEUDO_CALL)
		return 0x3e;
	if (in->src_reg == BPF_PSEUDO_KFUNC_CALL)
		return in->imm == HWXDP_KFUNC_ESP_ENCAP		? 1u << 2 | 1u << 3
		       : hwxdp_kfunc__is_xdp_metadata(in->imm)	? 0
		       : in->imm == HWXDP_KFUNC_ITER_NUM_NEW	? 0xe
		       : in->imm == HWXDP_KFUNC_DYNPTR_FROM_XDP ? 0xc
		       : in->imm == HWXDP_KFUNC_DYNPTR_SLICE	? 0x6
		       : hwxdp_kfunc__is_lowered(in->imm)	? 0x2
								: 0x3e;
	switch (in->imm) {
	case BPF_FUNC_map_lookup_elem:
	case BPF_FUNC_map_delete_elem:
	case BPF_FUNC_redirect_map:
	case BPF_FUNC_xdp_adjust_head:
	case BPF_FUNC_xdp_adjust_meta:
	case BPF_FUNC_xdp_adjust_tail:
		return 1u << 2;
	case BPF_FUNC_map_update_elem:
		return 1u << 2 | 1u << 3;
	case BPF_FUNC_redirect:
		return 1u << 1 | 1u << 2;
	case BPF_FUNC_tail_call:
		return 1u << 3;
	case BPF_FUNC_ktime_get_ns:
	case BPF_FUNC_ktime_get_boot_ns:
	case BPF_FUNC_ktime_get_coarse_ns:
	case BPF_FUNC_ktime_get_tai_ns:
	case BPF_FUNC_get_prandom_u32:
	case BPF_FUNC_get_smp_processor_id:
	case BPF_FUNC_xdp_get_buff_len:
		return 0;
	}
	return 0x3e;
}

/* Registers read and written by instruction i. An exit reads R0 alone: at
 * a function's exit the caller's R6..R9 come back from the return stack. */
static void uses_defs(const struct bpf_insn *in, bool direct, bool punt, uint16_t *use,
		      uint16_t *def)
{
	uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);

	*use = *def = 0;
	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		*def = 1u << in->dst_reg;
		if (op != BPF_MOV)
			*use |= 1u << in->dst_reg;
		if (BPF_SRC(in->code) == BPF_X && op != BPF_END && op != BPF_NEG)
			*use |= 1u << in->src_reg;
		return;
	case BPF_LDX:
		*use = 1u << in->src_reg;
		*def = 1u << in->dst_reg;
		return;
	case BPF_ST:
		*use = 1u << in->dst_reg;
		return;
	case BPF_STX:
		*use = 1u << in->dst_reg | 1u << in->src_reg;
		if (BPF_MODE(in->code) == BPF_ATOMIC) {
			*use |= 1u;
			*def = 1u << in->src_reg | 1u;
			*use |= 1u << in->src_reg;
		}
		return;
	case BPF_LD:
		*def = 1u << in->dst_reg;
		return;
	case BPF_JMP:
	case BPF_JMP32:
		if (op == BPF_EXIT) {
			*use = 1u;
		} else if (op == BPF_CALL) {
			/* A helper is one device operation, which writes R0
			 * alone; R1..R5 keep their values across it. A kfunc
			 * lowered to operations clobbers R2..R5 as BPF's. */
			*use = helper_uses(in, direct, punt);
			*def = in->src_reg == BPF_PSEUDO_CALL ? 0x3f : 1u;
			if (in->src_reg == BPF_PSEUDO_KFUNC_CALL && !in->off && !punt &&
			    hwxdp_kfunc__is_lowered(in->imm))
				*def = 0x3d;
		} else if (op != BPF_JA) {
			*use = 1u << in->dst_reg;
			if (BPF_SRC(in->code) == BPF_X)
				*use |= 1u << in->src_reg;
		}
		return;
	}
	*use = 0x7ff;
}

/* Whether instruction i is a redirect_map whose redir reads its flags
 * from R3. */
static bool redirect_flags_read(const struct translator *t, uint32_t i)
{
	const struct bpf_insn *in = &t->prog->insns[i];
	uint64_t flags;

	return in->code == (BPF_JMP | BPF_CALL) && !in->src_reg &&
	       in->imm == BPF_FUNC_redirect_map && !t->facts[i].punt_point &&
	       !redirect_flags_const(t, i, &flags);
}

/* The registers instruction k reads and writes as it is translated (not
 * left out as dead). */
static void insn_effect(const struct translator *t, size_t k, uint16_t *use, uint16_t *def)
{
	const struct bpf_insn *in = &t->prog->insns[k];
	uint8_t cls = BPF_CLASS(in->code);
	int slot;

	if (t->lchk[k].valid) {
		*use = (uint16_t)(1u << t->lchk[k].base);
		*def = 0;
	} else if (t->csum[k].end) {
		*use = (uint16_t)(1u << t->csum[k].base);
		*def = (uint16_t)(1u << t->csum[k].tmp);
	} else if (t->copy[k].end) {
		*use = (uint16_t)(1u << t->copy[k].src_base | 1u << t->copy[k].dst_base);
		*def = (uint16_t)(1u << t->copy[k].tmp);
	} else if (t->in_region[k] || t->dead_store[k] || t->fill_src[k] == in->dst_reg) {
		*use = *def = 0;
	} else if (t->fill_src[k] >= 0) {
		*use = (uint16_t)(1u << t->fill_src[k]);
		*def = (uint16_t)(1u << in->dst_reg);
	} else if (t->stores[k].dropped) {
		*use = *def = 0;
	} else if (t->stores[k].size) {
		*use = (uint16_t)(1u << in->dst_reg | 1u << t->stores[k].value);
		*def = 0;
	} else if (t->combined[k].size) {
		*use = (uint16_t)(1u << t->combined[k].base);
		*def = (uint16_t)(1u << in->dst_reg);
	} else if ((slot = slot_register(t, in)) >= 0) {
		if (cls == BPF_LDX) {
			*use = (uint16_t)(1u << slot);
			*def = (uint16_t)(1u << in->dst_reg);
		} else {
			*use = cls == BPF_STX ? (uint16_t)(1u << in->src_reg) : 0;
			*def = (uint16_t)(1u << slot);
		}
	} else {
		uses_defs(in, t->direct[k], t->facts[k].punt_point, use, def);
		if (map_dispatch(t, (uint32_t)k) || map_from_reg(t, (uint32_t)k))
			*use |= (uint16_t)(1u << map_arg(in));
		if (redirect_flags_read(t, (uint32_t)k))
			*use |= 1u << BPF_REG_3;
	}
}

/*
 * Whether instruction i may be left out when nothing reads the register it
 * writes at *next (the key address of a lookup made direct, typically): it
 * only computes that register, and the move it would fuse with goes too.
 */
static bool removable(const struct translator *t, uint32_t i, uint32_t *next)
{
	const struct bpf_insn *in = &t->prog->insns[i];
	uint8_t cls = BPF_CLASS(in->code);

	*next = i + 1;
	if (!t->facts[i].reachable || t->csum[i].end || t->copy[i].end || t->in_region[i])
		return false;
	if (cls == BPF_LD) {
		if (in->code != (BPF_LD | BPF_IMM | BPF_DW) || in->src_reg == BPF_PSEUDO_FUNC)
			return false;
		*next = i + 2;
	} else if (cls == BPF_ALU || cls == BPF_ALU64) {
		/* any ALU operation: division by zero is defined */
	} else if (cls == BPF_LDX &&
		   (BPF_MODE(in->code) == BPF_MEM || BPF_MODE(in->code) == BPF_MEMSX)) {
		/* a load no one reads: the verifier proved it in bounds */
	} else {
		return false;
	}
	return *next <= t->prog->insn_cnt;
}

/*
 * Registers live on entry to each instruction (insn_cnt + 1 entries) into
 * t->live; with eliminate, the instructions that compute only what no path
 * reads are marked dead in t->dead, and then whatever only they read, until
 * none is left (hwmap/live.h). Liveness uses each device operation's real
 * reads and writes.
 */
static int solve_liveness(struct translator *t, bool eliminate)
{
	const struct hwxdp_prog *p = t->prog;
	size_t n = p->insn_cnt;
	struct hxu_live_insn *li = calloc(n + 1, sizeof(*li));
	int err = -ENOMEM;

	free(t->live);
	t->live = calloc(n + 1, sizeof(*t->live));
	if (!li || !t->live)
		goto out;
	for (size_t k = 0; k < n; k++) {
		int64_t to[2];
		int succ;

		li[k].succ[0] = li[k].succ[1] = HXU_LIVE_NONE;
		if (k > 0 && p->insns[k - 1].code == (BPF_LD | BPF_IMM | BPF_DW))
			continue; /* second half of a ld_imm64 */
		insn_effect(t, k, &li[k].use, &li[k].def);
		succ = hxu_insn_succ(p, k, &to[0], &to[1]);
		for (int e = 0; e < 2; e++)
			if (succ & (e ? HXU_SUCC_JUMP : HXU_SUCC_FALL))
				li[k].succ[e] =
					to[e] >= 0 && to[e] <= (int64_t)n ? to[e] : HXU_LIVE_OUT;
		li[k].dst = p->insns[k].dst_reg;
		li[k].removable = eliminate && removable(t, (uint32_t)k, &li[k].next);
	}
	err = hxu_liveness(li, n, t->live, eliminate ? t->dead : NULL);
out:
	free(li);
	return err;
}

/* A map of maps' template, as the image's descriptor holds it. */
static struct hxu_inner_desc inner_of(const struct hwxdp_map_desc *m)
{
	return (struct hxu_inner_desc){ m->type, m->key_size, m->value_size, m->max_entries,
					m->map_flags };
}

/*
 * The tables a used map of maps may hold are the object's maps that fit
 * its template: each is a table of the image, so that the control plane
 * (and the loader, for a definition's `.values`) can store its id.
 */
static void mark_inner_tables(struct translator *t)
{
	const struct hwxdp_object *obj = t->obj;

	for (size_t k = 0; k < obj->map_cnt && k < HXU_TABLES; k++) {
		struct hxu_inner_desc in;

		if (!t->map_used[k] || !hxu_map_of_maps(obj->maps[k].type) ||
		    obj->maps[k].inner_map >= obj->map_cnt)
			continue;
		in = inner_of(&obj->maps[obj->maps[k].inner_map]);
		for (size_t j = 0; j < obj->map_cnt && j < HXU_TABLES; j++) {
			const struct hwxdp_map_desc *m = &obj->maps[j];
			struct hxu_table_desc d = {
				.type = m->type,
				.key_size = m->key_size,
				.value_size = m->value_size,
				.max_entries = m->max_entries,
				.flags = m->map_flags,
			};

			if (m->origin != HWXDP_MAP_INNER && hxu_inner_fits(&in, &d))
				t->map_used[j] = true;
		}
	}
}

static int build_image(struct translator *t, struct hxu_image **out)
{
	struct hxu_image *img = calloc(1, sizeof(*img));
	struct hxu_table_desc *tables = NULL;
	struct hxu_prog_desc *progs = NULL;
	struct hxu_line *lines = NULL;
	uint64_t *words = NULL;
	uint32_t w = 0, n = 0, *order = NULL, *word_of = NULL;
	uint16_t *dead = NULL, *live = t->live;
	bool *leader = NULL;
	size_t i;

	if (!img)
		return -ENOMEM;
	order = calloc(t->op_cnt + 1, sizeof(*order));
	word_of = calloc(t->op_cnt + 1, sizeof(*word_of));
	leader = calloc(t->op_cnt + 1, sizeof(*leader));
	dead = calloc(t->op_cnt + 1, sizeof(*dead));
	if (!order || !word_of || !leader || !dead)
		goto nomem;
	for (i = 0; i < t->op_cnt; i++) {
		const struct pending *p = &t->ops[i];

		if ((p->op.opcode == HXU_OP_BR || p->op.opcode == HXU_OP_BRI ||
		     p->op.opcode == HXU_OP_LCHK) &&
		    p->target >= 0)
			dead[i] = (uint16_t)~live[p->target];
		/* inside an instruction: what is live on its entry, a superset */
		if (IS_INTERNAL(p->target))
			dead[i] = (uint16_t)~live[p->insn];
	}
	/* Blocks start at every branch or call target and the entry. */
	leader[0] = true;
	for (i = 0; i < t->prog->insn_cnt; i++)
		if (t->is_target[i])
			leader[t->first_op[i]] = true;
	for (i = 0; i < t->op_cnt; i++)
		if (IS_INTERNAL(t->ops[i].target) && INTERNAL_OP(t->ops[i].target) < t->op_cnt)
			leader[INTERNAL_OP(t->ops[i].target)] = true;
	for (i = 0; i < t->op_cnt; i++)
		t->ops[i].op.end = false;
	{
		struct hxu_op *plain = calloc(t->op_cnt + 1, sizeof(*plain));

		if (!plain)
			goto nomem;
		for (i = 0; i < t->op_cnt; i++)
			plain[i] = t->ops[i].op;
		if (hxu_schedule(plain, leader, dead, t->op_cnt, order)) {
			free(plain);
			goto nomem;
		}
		for (i = 0; i < t->op_cnt; i++)
			t->ops[i].op.end = plain[i].end;
		free(plain);
	}
	for (i = 0; i < t->op_cnt; i++) {
		word_of[order[i]] = w;
		w += hxu_op_words(t->ops[order[i]].op.opcode);
	}
	word_of[t->op_cnt] = w;
	w = 0;
	words = calloc(t->words ? t->words : 1, sizeof(*words));
	lines = calloc(t->op_cnt ? t->op_cnt : 1, sizeof(*lines));
	tables = calloc(t->obj->map_cnt ? t->obj->map_cnt : 1, sizeof(*tables));
	progs = calloc(1, sizeof(*progs));
	if (!words || !lines || !tables || !progs)
		goto nomem;
	for (i = 0; i < t->op_cnt; i++) {
		struct pending *p = &t->ops[order[i]];

		if (p->target >= 0)
			p->op.imm = (int32_t)word_of[t->first_op[p->target]];
		else if (IS_INTERNAL(p->target))
			p->op.imm = (int32_t)word_of[INTERNAL_OP(p->target)];
		lines[i].op = w;
		lines[i].insn = p->insn;
		w += hxu_encode(&p->op, &words[w]);
	}
	mark_inner_tables(t);
	for (i = 0; i < t->obj->map_cnt && i < HXU_TABLES; i++) {
		const struct hwxdp_map_desc *m = &t->obj->maps[i];

		if (!t->map_used[i])
			continue;
		if (hxu_map_of_maps(m->type) && m->inner_map < t->obj->map_cnt)
			tables[n].inner = inner_of(&t->obj->maps[m->inner_map]);
		tables[n].id = (uint32_t)i;
		tables[n].type = m->type;
		tables[n].key_size = m->key_size;
		tables[n].value_size = m->value_size;
		tables[n].max_entries = m->max_entries;
		tables[n].flags = m->map_flags;
		snprintf(tables[n].name, sizeof(tables[n].name), "%s", m->name);
		n++;
	}
	snprintf(progs->name, sizeof(progs->name), "%s", t->prog->name);
	progs->entry = 0;
	if (frames(t, &progs->frames))
		goto nomem;
	img->version = HXU_VERSION;
	img->ops = words;
	img->op_cnt = w;
	img->tables = tables;
	img->table_cnt = n;
	img->progs = progs;
	img->prog_cnt = 1;
	img->lines = lines;
	img->line_cnt = (uint32_t)t->op_cnt;
	*out = img;
	free(order);
	free(word_of);
	free(leader);
	free(dead);
	return 0;
nomem:
	free(order);
	free(word_of);
	free(leader);
	free(dead);
	free(words);
	free(lines);
	free(tables);
	free(progs);
	free(img);
	return -ENOMEM;
}

/* Copies made redundant by copy propagation leave the operation list. */
static int propagate_copies(struct translator *t)
{
	size_t n = t->op_cnt, k = 0, i;
	struct hxu_op *plain = calloc(n + 1, sizeof(*plain));
	bool *leader = calloc(n + 1, sizeof(*leader)), *removed = calloc(n + 1, sizeof(*removed));
	uint16_t *live_in = calloc(n + 1, sizeof(*live_in));
	uint16_t *live_target = calloc(n + 1, sizeof(*live_target));
	uint32_t *new_index = calloc(n + 1, sizeof(*new_index));
	struct hxu_copyprop_env env = { leader, live_in, live_target };
	int err = -ENOMEM;

	if (!plain || !leader || !removed || !live_in || !live_target || !new_index)
		goto out;
	for (i = 0; i < t->prog->insn_cnt; i++)
		if (t->is_target[i] && t->first_op[i] < n)
			leader[t->first_op[i]] = true;
	for (i = 0; i < n; i++) {
		plain[i] = t->ops[i].op;
		live_in[i] = t->live[t->ops[i].insn];
		if (t->ops[i].target >= 0)
			live_target[i] = t->live[t->ops[i].target];
		if (IS_INTERNAL(t->ops[i].target) && INTERNAL_OP(t->ops[i].target) < n) {
			leader[INTERNAL_OP(t->ops[i].target)] = true;
			live_target[i] = t->live[t->ops[i].insn];
		}
	}
	hxu_propagate_copies(plain, n, removed, &env);
	for (i = 0; i < n; i++) {
		new_index[i] = (uint32_t)k;
		if (removed[i]) {
			t->words -= hxu_op_words(plain[i].opcode);
			continue;
		}
		t->ops[k] = t->ops[i];
		t->ops[k].op = plain[i];
		k++;
	}
	new_index[n] = (uint32_t)k;
	for (i = 0; i < k; i++)
		if (IS_INTERNAL(t->ops[i].target))
			t->ops[i].target = INTERNAL(new_index[INTERNAL_OP(t->ops[i].target)]);
	for (i = 0; i <= t->prog->insn_cnt; i++)
		t->first_op[i] = new_index[t->first_op[i]];
	t->op_cnt = k;
	err = 0;
out:
	free(plain);
	free(leader);
	free(removed);
	free(live_in);
	free(live_target);
	free(new_index);
	return err;
}

/* Whether instruction in may write register reg (a call: R0..R5). */
static bool writes_reg(const struct bpf_insn *in, uint8_t reg)
{
	uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);

	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
	case BPF_LDX:
	case BPF_LD:
		return in->dst_reg == reg;
	case BPF_STX:
		return BPF_MODE(in->code) == BPF_ATOMIC && (in->imm & BPF_FETCH) &&
		       reg == (in->imm == BPF_CMPXCHG ? BPF_REG_0 : in->src_reg);
	case BPF_JMP:
	case BPF_JMP32:
		return op == BPF_CALL && reg <= BPF_REG_5;
	}
	return false;
}

/*
 * Packet-bound checks for lchk: `if p > data_end goto` (or `data_end < p`)
 * where the verifier has p a packet pointer and the other data_end on every
 * visit. The frame's own data_end is what the register holds (the verifier
 * forgets data_end at every adjustment), so the check needs no register for
 * it. When p was just made as base + k in the same block, the check reads
 * base, and the addition is left to whoever else needs it.
 */
static int find_lchk(struct translator *t)
{
	const struct hwxdp_prog *p = t->prog;
	/* per register, the last two instructions of the block so far that
	 * write it (-1: none), for the addition and the move before it */
	int64_t last[11], before[11];

	t->lchk = calloc(p->insn_cnt + 1, sizeof(*t->lchk));
	if (!t->lchk)
		return -ENOMEM;
	for (uint32_t i = 0; i < p->insn_cnt; i++) {
		const struct bpf_insn *in = &p->insns[i], *add, *mov;
		const struct hwxdp_insn_fact *f = &t->facts[i];
		uint8_t ptr;

		hxu_work_add(1);
		if (i == 0 || t->is_target[i])
			for (int r = 0; r < 11; r++)
				last[r] = before[r] = -1;
		if (in->code == (BPF_LD | BPF_IMM | BPF_DW) || writes_reg(in, BPF_REG_0) ||
		    BPF_CLASS(in->code) != BPF_JMP || BPF_SRC(in->code) != BPF_X) {
			for (uint8_t r = 0; r < 11; r++) {
				if (!writes_reg(in, r))
					continue;
				before[r] = last[r];
				last[r] = i;
			}
			if (in->code == (BPF_LD | BPF_IMM | BPF_DW))
				i++;
			continue;
		}
		if (!f->reachable)
			continue;
		if (BPF_OP(in->code) == BPF_JGT &&
		    f->regs[in->dst_reg].type == HWXDP_REG_PTR_TO_PACKET &&
		    f->regs[in->src_reg].type == HWXDP_REG_PTR_TO_PACKET_END)
			ptr = in->dst_reg;
		else if (BPF_OP(in->code) == BPF_JLT &&
			 f->regs[in->src_reg].type == HWXDP_REG_PTR_TO_PACKET &&
			 f->regs[in->dst_reg].type == HWXDP_REG_PTR_TO_PACKET_END)
			ptr = in->src_reg;
		else
			continue;
		t->lchk[i] = (struct lchk){ true, ptr, 0 };
		add = last[ptr] >= 0 ? &p->insns[last[ptr]] : NULL;
		/* the move must be in the block before the addition, which is
		 * not where the block starts */
		mov = add && before[ptr] >= 0 ? &p->insns[before[ptr]] : NULL;
		if (!add || !mov || add->code != (BPF_ALU64 | BPF_ADD | BPF_K) ||
		    mov->code != (BPF_ALU64 | BPF_MOV | BPF_X) || mov->off || mov->src_reg == ptr)
			continue;
		/* the base must still hold the same value at the check */
		if (last[mov->src_reg] > before[ptr])
			continue;
		t->lchk[i] = (struct lchk){ true, mov->src_reg, add->imm };
	}
	return 0;
}

/*
 * Checksum updates and piecewise copies, found with the liveness of the code
 * as it is; copies only between different spaces, which cannot overlap.
 */
static int find_regions(struct translator *t)
{
	size_t n = t->prog->insn_cnt;
	int err;

	t->csum = calloc(n + 1, sizeof(*t->csum));
	t->copy = calloc(n + 1, sizeof(*t->copy));
	t->in_region = calloc(n + 1, sizeof(*t->in_region));
	if (!t->csum || !t->copy || !t->in_region)
		return -ENOMEM;
	err = solve_liveness(t, false);
	if (err)
		return err;
	free(t->csum);
	free(t->copy);
	t->csum = hxu_find_csum(t->prog, t->facts, t->is_target, t->live);
	t->copy = hxu_find_copies(t->prog, t->facts, t->is_target, t->live);
	if (!t->csum || !t->copy)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		struct hxu_copy *c = &t->copy[i];
		uint32_t end = t->csum[i].end;

		if (c->end) {
			int ss = space_kind(t->facts[i].regs[c->src_base].type);
			int ds = space_kind(t->facts[i + 1].regs[c->dst_base].type);
			bool overlap = false;

			for (uint32_t j = i; j <= c->end; j++)
				overlap |= t->in_region[j] || t->csum[j].end;
			if (overlap || ss < 0 || ds < 0 || ss == ds)
				memset(c, 0, sizeof(*c));
			else
				end = c->end;
		}
		for (uint32_t j = i + 1; j <= end; j++)
			t->in_region[j] = true;
	}
	return 0;
}

static int translate_copy(struct translator *t, uint32_t i)
{
	const struct hxu_copy *c = &t->copy[i];
	int ss = space_of(t, i, c->src_base, "load"), ds = space_of(t, i + 1, c->dst_base, "store");
	int err = ss < 0 || ds < 0 ? -HWXDP_ERR_TRANSLATE : 0;

	for (uint8_t k = 0; k < c->chunk_cnt && !err; k++) {
		uint8_t flags = hxu_mem_flags(c->chunk[k].size, false);

		err = emit(t, i,
			   mk((uint8_t)(HXU_OP_LD + ss), c->tmp, c->src_base, 0, flags, 0,
			      c->chunk[k].off),
			   -1);
		if (!err)
			err = emit(t, i,
				   mk((uint8_t)(HXU_OP_ST + ds), 0, c->dst_base, c->tmp, flags, 0,
				      c->chunk[k].off + c->dist),
				   -1);
	}
	for (uint32_t j = i + 1; j <= c->end; j++)
		t->first_op[j] = (uint32_t)t->op_cnt;
	return err;
}

static int translate_csum(struct translator *t, uint32_t i)
{
	const struct hxu_csum *c = &t->csum[i];
	int err;

	err = emit(t, i, mk(HXU_OP_MOV, c->tmp, 0, 0, HXU_F_K, 0, c->k), -1);
	if (!err)
		err = emit(t, i, mk(HXU_OP_CSUM16, 0, c->base, c->tmp, 0, 0, c->off), -1);
	for (uint32_t j = i + 1; j <= c->end; j++)
		t->first_op[j] = (uint32_t)t->op_cnt;
	return err;
}

int hwxdp_translate(const struct hwxdp_object *obj, const struct hwxdp_prog *prog,
		    const struct hwxdp_verify_result *facts, struct hxu_image **out, char *err,
		    size_t errlen)
{
	struct translator t = { .obj = obj, .prog = prog, .err = err, .errlen = errlen };
	size_t n = prog->insn_cnt;
	bool zero = false;
	int rc = 0;
	uint32_t i, k;

	if (errlen)
		err[0] = '\0';
	*out = NULL;
	hxu_work = 0;
	if (!facts || !facts->accepted || facts->fact_cnt != n || !n)
		return fail(&t, 0, "no accepted verification of this program");
	t.facts = facts->facts;
	t.first_op = calloc(n + 1, sizeof(*t.first_op));
	t.is_target = calloc(n + 1, sizeof(*t.is_target));
	t.map_used = calloc(obj->map_cnt + 1, sizeof(*t.map_used));
	t.direct = calloc(n + 1, sizeof(*t.direct));
	if (!t.first_op || !t.is_target || !t.map_used || !t.direct) {
		rc = -ENOMEM;
		goto out;
	}
	mark_targets(&t);
	for (i = 0; i < n; i++) {
		const struct bpf_insn *in = &prog->insns[i];

		t.direct[i] = direct_lookup(&t, i);
		if (t.facts[i].reachable && ((t.direct[i] && !t.facts[i].map_key) ||
					     (in->code == (BPF_LD | BPF_IMM | BPF_DW) &&
					      in->src_reg == BPF_PSEUDO_MAP_VALUE)))
			zero = true;
	}
	hxu_promote_slots(obj, prog, t.facts, t.slot_reg, HXU_REG_SLOT0, HXU_SLOT_REGS);
	t.fill_src = hxu_fill_sources(prog, t.facts);
	t.dead_store = t.fill_src ? hxu_dead_stack_stores(obj, prog, t.facts, t.fill_src) : NULL;
	if (!t.dead_store) {
		rc = -ENOMEM;
		goto out;
	}
	t.combined = hxu_combine_loads(prog, t.facts, t.is_target);
	t.stores = hxu_combine_stores(prog, t.facts, t.is_target);
	if (!t.combined || !t.stores) {
		rc = -ENOMEM;
		goto out;
	}
	t.dead = calloc(n + 1, sizeof(*t.dead));
	rc = t.dead ? find_lchk(&t) : -ENOMEM;
	if (!rc)
		rc = find_regions(&t);
	if (!rc)
		rc = solve_liveness(&t, true);
	if (rc)
		goto out;
	if (zero)
		rc = emit(&t, 0, mk(HXU_OP_MOV, HXU_REG_ZERO, 0, 0, HXU_F_K, 0, 0), -1);
	for (i = 0; i < n && !rc; i++) {
		const struct bpf_insn *in = &prog->insns[i];
		bool wide = in->code == (BPF_LD | BPF_IMM | BPF_DW);

		if (i)
			t.first_op[i] = (uint32_t)t.op_cnt;
		if (wide && i + 1 < n)
			t.first_op[i + 1] = t.first_op[i];
		if (!t.facts[i].reachable) {
			i += wide;
			continue;
		}
		t.site = HXU_SITE_OTHER;
		if (t.csum[i].end) {
			t.site = HXU_SITE_CSUM;
			rc = translate_csum(&t, i);
			i = t.csum[i].end;
			continue;
		}
		if (t.copy[i].end) {
			t.site = HXU_SITE_COPY;
			rc = translate_copy(&t, i);
			i = t.copy[i].end;
			continue;
		}
		if (t.stores[i].dropped)
			continue;
		if (t.stores[i].size) {
			t.site = HXU_SITE_STORE_WHOLE;
			rc = translate_store_whole(&t, i, in);
			continue;
		}
		if (t.dead_store[i] || t.fill_src[i] == in->dst_reg)
			continue;
		if (t.dead[i]) {
			i += wide;
			continue;
		}
		if (t.fill_src[i] >= 0) {
			t.site = HXU_SITE_FILL;
			rc = emit(&t, i,
				  mk(HXU_OP_MOV, in->dst_reg, (uint8_t)t.fill_src[i], 0, 0, 0, 0),
				  -1);
			continue;
		}
		if (t.combined[i].size) {
			t.site = HXU_SITE_COMBINED;
			rc = translate_combined(&t, i, in);
			continue;
		}
		if (slot_register(&t, in) >= 0) {
			t.site = HXU_SITE_SLOT;
			rc = translate_slot(&t, i, in, slot_register(&t, in));
			continue;
		}
		switch (BPF_CLASS(in->code)) {
		case BPF_ALU:
		case BPF_ALU64:
			if ((k = zero_extension(&t, i)) > 0) {
				t.site = HXU_SITE_ZEXT;
				rc = translate_zext(&t, i, k);
				while (k-- > 1)
					t.first_op[++i] = (uint32_t)t.op_cnt;
			} else if (fusable(&t, i)) {
				t.site = HXU_SITE_FUSED;
				rc = translate_fused(&t, i);
				i++;
				t.first_op[i] = (uint32_t)t.op_cnt;
			} else {
				t.site = HXU_SITE_ALU;
				rc = translate_alu(&t, i, in);
			}
			break;
		case BPF_LDX:
			if (load_swapped(&t, i)) {
				t.site = HXU_SITE_LDX_BE;
				rc = translate_ldx(&t, i, in, true);
				i++;
				t.first_op[i] = (uint32_t)t.op_cnt;
			} else {
				t.site = HXU_SITE_LDX;
				rc = translate_ldx(&t, i, in, false);
			}
			break;
		case BPF_ST:
		case BPF_STX:
			t.site = HXU_SITE_ST;
			rc = translate_st(&t, i, in);
			break;
		case BPF_JMP:
		case BPF_JMP32:
			t.site = HXU_SITE_JMP;
			rc = translate_jmp(&t, i, in);
			break;
		case BPF_LD:
			if (!wide || i + 1 >= n) {
				rc = fail(&t, i, "legacy packet access 0x%02x", in->code);
				break;
			}
			t.site = HXU_SITE_LD_IMM64;
			rc = translate_ld_imm64(&t, i, in);
			i++;
			break;
		default:
			rc = fail(&t, i, "instruction class 0x%02x", BPF_CLASS(in->code));
		}
	}
	if (rc)
		goto out;
	t.first_op[n] = (uint32_t)t.op_cnt;
	if (t.words > HXU_STORE_WORDS) {
		rc = fail(&t, 0, "%u operation words, the microcode store holds %u", t.words,
			  HXU_STORE_WORDS);
		goto out;
	}
	rc = propagate_copies(&t);
	if (!rc)
		rc = build_image(&t, out);
out:
	free(t.ops);
	free(t.first_op);
	free(t.is_target);
	free(t.map_used);
	free(t.direct);
	free(t.dead_store);
	free(t.fill_src);
	free(t.combined);
	free(t.stores);
	free(t.dead);
	free(t.csum);
	free(t.copy);
	free(t.lchk);
	free(t.in_region);
	free(t.live);
	return rc;
}

void hxu_image__free(struct hxu_image *img)
{
	if (!img)
		return;
	free((void *)img->ops);
	free((void *)img->tables);
	free((void *)img->progs);
	free((void *)img->lines);
	free(img);
}
