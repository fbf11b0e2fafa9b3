// SPDX-License-Identifier: GPL-2.0
/*
 * The packet engine: image checks, pre-decoding, and the interpreter.
 *
 * Pre-decoding turns every operation into a 24-byte record naming the code
 * that runs it (a label address: the interpreter dispatches with computed
 * gotos), with everything that can be worked out at load already worked
 * out: sign-extended immediates, byte-swapped store values, resolved branch
 * targets and table pointers, one handler per (operation, width, size, byte
 * order, space) so that no handler tests a flag.
 *
 * A dispatch costs more than most operations, so two operations that parse
 * code always pairs - a packet load or table lookup, and the conditional
 * branch on its result in the next bundle - run as one record when they
 * are adjacent; within a bundle the load is moved next to the branch when
 * nothing else in the bundle writes what it reads.
 *
 * Counting costs nothing per operation: each basic block (a run of bundles
 * entered only at its first) starts with a COUNT record carrying the
 * block's operations, bundles and static cycles. A frame aborted inside a
 * block gets the rest of the block taken back out. Engines built without
 * stats never meet a COUNT record: the same image is pre-decoded twice.
 * Loop headers (targets of backward branches) carry a BUDGET record.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include <linux/bpf.h>

#include "device/compile.h"
#include "device/engine.h"
#include "device/engine_ops.h"
#include "device/esp.h"
#include "device/tables.h"
#include "device/tm_proof.h"
#include "hwmap/hash.h"
#include "base/log.h"

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* ---- handlers ---- */

/* clang-format off */
#define ALU4(X, OP) X(OP##64X) X(OP##64K) X(OP##32X) X(OP##32K)
#define ALU_HANDLERS(X)                                                                          \
	ALU4(X, ADD) ALU4(X, SUB) ALU4(X, MUL) ALU4(X, DIV) ALU4(X, MOD) ALU4(X, SDIV)           \
	ALU4(X, SMOD) ALU4(X, AND) ALU4(X, OR) ALU4(X, XOR) ALU4(X, LSH) ALU4(X, RSH)            \
	ALU4(X, ARSH)
/* Order matters: memory handlers are picked by offset in this list. */
#define MEM_HANDLERS(X, S)                                                                       \
	X(LD8_##S) X(LD16_##S) X(LD32_##S) X(LD64_##S) X(LD16BE_##S) X(LD32BE_##S)               \
	X(LD64BE_##S) X(LDSX8_##S) X(LDSX16_##S) X(LDSX32_##S) X(LDSX16BE_##S) X(LDSX32BE_##S)   \
	X(ST8_##S) X(ST16_##S) X(ST32_##S) X(ST64_##S) X(ST16BE_##S) X(ST32BE_##S)               \
	X(ST64BE_##S) X(STI8_##S) X(STI16_##S) X(STI32_##S) X(STI64_##S)
#define BR4(X, CC) X(BR_##CC##64X) X(BR_##CC##64K) X(BR_##CC##32X) X(BR_##CC##32K)
#define BR_HANDLERS(X)                                                                           \
	BR4(X, EQ) BR4(X, NE) BR4(X, GT) BR4(X, GE) BR4(X, LT) BR4(X, LE) BR4(X, SGT)            \
	BR4(X, SGE) BR4(X, SLT) BR4(X, SLE) BR4(X, SET)
/* A load from the packet, or a table lookup, fused with the conditional
 * branch on its result that follows it: one dispatch for the two. Order
 * matters: picked by offset. */
#define FUSED_CC(X, A)                                                                           \
	X(F_##A##_EQ) X(F_##A##_NE) X(F_##A##_GT) X(F_##A##_GE) X(F_##A##_LT) X(F_##A##_LE)      \
	X(F_##A##_SET)
#define FUSED_HANDLERS(X)                                                                        \
	FUSED_CC(X, LD8) FUSED_CC(X, LD16) FUSED_CC(X, LD32) FUSED_CC(X, LD16BE)                 \
	FUSED_CC(X, LD32BE)                                                                      \
	X(F_TLOOKUP_HASH_EQ) X(F_TLOOKUP_HASH_NE) X(F_TLOOKUP_ARRAY_EQ) X(F_TLOOKUP_ARRAY_NE)    \
	X(F_TLOOKUP_PORT_EQ) X(F_TLOOKUP_PORT_NE) X(F_TINDEX_EQ) X(F_TINDEX_NE)
#define HANDLERS(X)                                                                              \
	ALU_HANDLERS(X)                                                                          \
	X(NEG64) X(NEG32) X(MOV64X) X(MOV32X) X(MOVK) X(MOVSX8) X(MOVSX16) X(MOVSX32)            \
	X(MOVSX8W) X(MOVSX16W) X(BSWAP16) X(BSWAP32) X(BSWAP64) X(ZEXT16) X(ZEXT32)              \
	MEM_HANDLERS(X, PKT) MEM_HANDLERS(X, LM) MEM_HANDLERS(X, TM) MEM_HANDLERS(X, LMFP)       \
	X(ATOMIC_LM) X(ATOMIC_TM) X(ATOMIC_ADD64_TM)                                            \
	BR_HANDLERS(X)                                                                           \
	X(JMP) X(CALL) X(RET) X(EXIT) X(TCALL) X(LCHK) X(LCHKR)                                  \
	X(TLOOKUP_ARRAY_PKT) X(TLOOKUP_ARRAY_LM) X(TLOOKUP_ARRAY_TM)                             \
	X(TLOOKUP_HASH_PKT) X(TLOOKUP_HASH_LM) X(TLOOKUP_HASH_TM)                                \
	X(TLOOKUP_PORT_PKT) X(TLOOKUP_PORT_LM) X(TLOOKUP_PORT_TM)                                \
	X(TLOOKUP_TABLE_PKT) X(TLOOKUP_TABLE_LM) X(TLOOKUP_TABLE_TM)                             \
	X(TLOOKUPR) X(TUPDATER) X(TDELETER)                                                      \
	X(TINDEX) X(TUPDATE) X(TDELETE) X(REDIR) X(REDIR_RT) X(HADJ) X(MADJ) X(TADJ) X(CSUM16)   \
	X(ESP) X(PUNT) X(TIME) X(RAND) X(CPU) X(REDIRIF) X(CSUMD)                                \
	X(CTX_DATA) X(CTX_DATA_END) X(CTX_DATA_META) X(CTX_INGRESS) X(CTX_RX_QUEUE)              \
	X(CTX_EGRESS)                                                                            \
	X(COUNT) X(BUDGET) X(FELL_OFF)                                                           \
	FUSED_HANDLERS(X)

enum handler {
#define X(name) H_##name,
	HANDLERS(X)
#undef X
	H__MAX
};

enum mem_offset {
	M_LD8, M_LD16, M_LD32, M_LD64, M_LD16BE, M_LD32BE, M_LD64BE,
	M_LDSX8, M_LDSX16, M_LDSX32, M_LDSX16BE, M_LDSX32BE,
	M_ST8, M_ST16, M_ST32, M_ST64, M_ST16BE, M_ST32BE, M_ST64BE,
	M_STI8, M_STI16, M_STI32, M_STI64, M__COUNT,
};
/* clang-format on */

/* The pre-decoded operation. */
struct xop {
	const void *handler;
	uint8_t rd, rs, rt, aux;
	int32_t imm;
	union {
		uint64_t u;
		const struct xop *target;
		struct hwxdp_table *tab;
	} x;
};

enum xinfo_kind { X_OP, X_OP_BUNDLE_START, X_PSEUDO };

/* What a record stands for, for messages and for taking a faulting frame's
 * unexecuted operations back out of its counts. */
struct xinfo {
	uint32_t word;
	uint8_t kind;
	uint8_t latency;
};

struct form {
	struct xop *ops;
	struct xinfo *info;
	uint32_t cnt;
	const struct xop **entry; /* per program */
};

struct hwxdp_engine {
	uint8_t lm[HXU_LM_SIZE] __attribute__((aligned(64)));
	/* Registers live across frames: a frame starts with r1 (its context)
	 * and r10 set, and the verifier proves that nothing reads another
	 * register before writing it, so clearing them would only cost time. */
	uint64_t r[HXU_REGS];
	struct form counted, plain;
	uint32_t prog_cnt;
	struct hwxdp_tables *tables;
	uint64_t rand_state;
	uint32_t cpu;
	struct hwxdp_compile_src *compile_src; /* the image, for compiled mode */
	struct hwxdp_compiled *compiled;       /* when set, runs the frames */
};

/* The interpreter's label addresses, published by its first call. */
static const void *const *handler_addr;

/* ---- image checks ---- */

/* Registers and other state an operation reads or writes: r0..r15, and the
 * frame's data/data_end/data_meta. */
#define RES_FRAME (1u << 16)

struct mem_access {
	uint8_t space;
	uint8_t base; /* register, or 0xff for the whole space */
	bool write;
	int64_t off;
	uint32_t size;
};

struct op_effects {
	uint32_t reads, writes;
	struct mem_access mem[4];
	int mem_cnt;
};

struct decoded {
	struct hxu_op op;
	uint32_t word;
	bool bundle_start;
};

struct checker {
	const struct hxu_image *img;
	const struct hwxdp_tables *tables;
	char *err;
	size_t errlen;
	bool record; /* record the reason for hwxdp_error_message too */
	struct decoded *ops;
	uint32_t op_cnt;
	int32_t *op_at; /* word -> index in ops, -1 for a second word */
	const struct hxu_table_desc *table_desc[HXU_TABLES];
	uint32_t tm_value_max; /* the largest value a lookup may point to */
};

__attribute__((format(printf, 3, 4))) static int reject(struct checker *c, int64_t word,
							const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	int n = 0;

	if (word >= 0)
		n = snprintf(msg, sizeof(msg), "op %lld: ", (long long)word);
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
	va_end(ap);
	if (c->errlen)
		snprintf(c->err, c->errlen, "%s", msg);
	if (c->record)
		hwxdp_error(-EINVAL, "hxu: %s", msg);
	return -HWXDP_ERR_IMAGE;
}

static const char *const space_names[] = { "pkt", "lm", "tm" };

enum field {
	F_RD = 1,
	F_RS = 2,
	F_RT = 4,
	F_X = 8,
	F_IMM = 16,
};

static void add_mem(struct op_effects *fx, unsigned int space, uint8_t base, int64_t off,
		    uint32_t size, bool write)
{
	fx->mem[fx->mem_cnt++] = (struct mem_access){ (uint8_t)space, base, write, off, size };
}

static const struct hxu_table_desc *op_table(struct checker *c, const struct decoded *d)
{
	return c->table_desc[d->op.x];
}

static bool type_is(const struct hxu_table_desc *t, uint32_t a, uint32_t b)
{
	return t && (t->type == a || t->type == b);
}

/* Tables that tlookup, tupdate and tdelete take. */
static bool port_table(uint32_t type)
{
	return type == BPF_MAP_TYPE_DEVMAP || type == BPF_MAP_TYPE_DEVMAP_HASH;
}

static bool keyed_table(uint32_t type)
{
	switch (type) {
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
	case BPF_MAP_TYPE_LPM_TRIE:
		return true;
	}
	return false;
}

/* Checks one operation's fields and says what it touches. */
static int check_op(struct checker *c, const struct decoded *d, struct op_effects *fx)
{
	const struct hxu_op *op = &d->op;
	const struct hxu_table_desc *t = NULL;
	unsigned int used = 0, flags_ok = 0, size, space, vspace;
	uint8_t kind;
	bool k = op->flags & HXU_F_K;

	memset(fx, 0, sizeof(*fx));
	switch (hxu_opcode_class(op->opcode)) {
	case HXU_CLASS_A:
		used = F_RD | F_RS;
		switch (op->opcode) {
		case HXU_OP_MOV:
			flags_ok = HXU_F_W32 | HXU_F_K;
			used = k ? F_RD | F_IMM : F_RD | F_RS;
			break;
		case HXU_OP_MOVI:
			used = F_RD | F_IMM;
			break;
		case HXU_OP_NEG:
		case HXU_OP_MOVSX8:
		case HXU_OP_MOVSX16:
			flags_ok = HXU_F_W32;
			break;
		case HXU_OP_MOVSX32:
		case HXU_OP_BSWAP16:
		case HXU_OP_BSWAP32:
		case HXU_OP_BSWAP64:
		case HXU_OP_ZEXT16:
		case HXU_OP_ZEXT32:
			break;
		default:
			flags_ok = HXU_F_W32 | HXU_F_K;
			used |= k ? F_IMM : F_RT;
		}
		if (used & F_RS)
			fx->reads |= 1u << op->rs;
		if (used & F_RT)
			fx->reads |= 1u << op->rt;
		fx->writes |= 1u << op->rd;
		break;

	case HXU_CLASS_M:
		kind = hxu_mem_kind(op->opcode);
		space = hxu_mem_space(op->opcode);
		size = hxu_mem_size(op->flags);
		flags_ok = 7;
		fx->reads |= 1u << op->rs;
		/* A table memory address is a value's, so an offset from it
		 * beyond the largest value can only be a wild access. */
		if (space == HXU_SPACE_TM &&
		    (op->imm < 0 || (uint64_t)op->imm + size > c->tm_value_max))
			return reject(c, d->word,
				      "table memory offset %d for %u bytes is outside every "
				      "value (the largest is %u bytes)",
				      op->imm, size, c->tm_value_max);
		switch (kind) {
		case HXU_OP_LD:
		case HXU_OP_LDSX:
			used = F_RD | F_RS | F_IMM;
			if ((op->flags & HXU_F_BE) && size == 1)
				return reject(c, d->word, "byte order on a 1-byte load");
			if (kind == HXU_OP_LDSX && size == 8)
				return reject(c, d->word, "sign extension of a 64-bit load");
			fx->writes |= 1u << op->rd;
			add_mem(fx, space, op->rs, op->imm, size, false);
			break;
		case HXU_OP_ST:
		case HXU_OP_STI:
			used = F_RS | F_IMM | (kind == HXU_OP_ST ? F_RT : 0);
			if ((op->flags & HXU_F_BE) && size == 1)
				return reject(c, d->word, "byte order on a 1-byte store");
			if (kind == HXU_OP_ST)
				fx->reads |= 1u << op->rt;
			add_mem(fx, space, op->rs, op->imm, size, true);
			break;
		default:
			used = F_RS | F_RT | F_IMM | F_X;
			if (space == HXU_SPACE_PKT)
				return reject(c, d->word, "atomic operation on the packet");
			if (size < 4)
				return reject(c, d->word,
					      "atomic operations are 32 or 64 bits, not %u",
					      size * 8);
			if (op->x >= HXU_ATOMIC__MAX)
				return reject(c, d->word, "unknown atomic operation %u", op->x);
			if (op->x >= HXU_ATOMIC_XCHG && !(op->flags & HXU_F_FETCH))
				return reject(c, d->word, "xchg and cmpxchg always fetch");
			fx->reads |= 1u << op->rt;
			if (op->flags & HXU_F_FETCH) {
				used |= F_RD;
				fx->writes |= 1u << op->rd;
			}
			if (op->x == HXU_ATOMIC_CMPXCHG)
				fx->reads |= 1u << op->rd;
			add_mem(fx, space, op->rs, op->imm, size, false);
			add_mem(fx, space, op->rs, op->imm, size, true);
		}
		break;

	case HXU_CLASS_C:
		switch (op->opcode) {
		case HXU_OP_BR:
		case HXU_OP_BRI:
			used = F_RS | F_X | F_IMM | (op->opcode == HXU_OP_BR ? F_RT : 0);
			flags_ok = HXU_F_W32;
			if (op->x >= HXU_CC__MAX)
				return reject(c, d->word, "unknown condition %u", op->x);
			fx->reads |= 1u << op->rs;
			if (op->opcode == HXU_OP_BR)
				fx->reads |= 1u << op->rt;
			break;
		case HXU_OP_JMP:
		case HXU_OP_CALL:
			used = F_IMM;
			break;
		case HXU_OP_EXIT:
			fx->reads |= 1u << 0;
			break;
		case HXU_OP_TCALL:
			used = F_X | F_RS;
			fx->reads |= 1u << op->rs;
			t = op_table(c, d);
			if (!type_is(t, BPF_MAP_TYPE_PROG_ARRAY, BPF_MAP_TYPE_PROG_ARRAY))
				return reject(c, d->word,
					      "tcall needs a program array, table %u is %s", op->x,
					      t ? "not one" : "missing");
			break;
		case HXU_OP_LCHK:
			used = F_IMM | (op->flags & HXU_F_LCHK_REG ? F_RS : 0);
			flags_ok = HXU_F_LCHK_REG;
			if (op->flags & HXU_F_LCHK_REG)
				fx->reads |= 1u << op->rs;
			fx->reads |= RES_FRAME;
			break;
		}
		break;

	case HXU_CLASS_U:
		switch (op->opcode) {
		case HXU_OP_TLOOKUP:
		case HXU_OP_TDELETE:
		case HXU_OP_TUPDATE:
			used = F_RD | F_RS | F_X |
			       (op->opcode == HXU_OP_TUPDATE ? F_RT | F_IMM : 0);
			flags_ok = 3;
			space = op->flags & 3;
			t = op_table(c, d);
			if (!t)
				return reject(c, d->word, "no table %u", op->x);
			if (space >= HXU_SPACE__MAX)
				return reject(c, d->word, "unknown key space %u", space);
			if (op->opcode == HXU_OP_TLOOKUP
				    ? !keyed_table(t->type) && !port_table(t->type) &&
					      !hxu_map_of_maps(t->type)
				    : !keyed_table(t->type))
				return reject(c, d->word,
					      "table %u (%s) is not a table this operation "
					      "takes",
					      op->x, t->name);
			fx->reads |= 1u << op->rs;
			fx->writes |= 1u << op->rd;
			add_mem(fx, space, op->rs, 0, t->key_size, false);
			if (op->opcode == HXU_OP_TUPDATE) {
				vspace = ((uint32_t)op->imm >> HXU_TUPDATE_VSPACE_SHIFT);
				if (vspace >= HXU_SPACE__MAX)
					return reject(c, d->word,
						      "bad value space in tupdate's imm");
				fx->reads |= 1u << op->rt;
				add_mem(fx, vspace, op->rt, 0, t->value_size, false);
			}
			if (op->opcode != HXU_OP_TLOOKUP)
				add_mem(fx, HXU_SPACE_TM, 0xff, 0, 0, true);
			break;
		case HXU_OP_TLOOKUPR:
		case HXU_OP_TDELETER:
		case HXU_OP_TUPDATER: {
			uint8_t handle = hxu_handle_reg(op);

			used = F_RD | F_RS | F_RT | F_X |
			       (op->opcode == HXU_OP_TUPDATER ? F_IMM : 0);
			flags_ok = 3;
			space = op->flags & 3;
			t = op_table(c, d);
			if (!t || !hxu_map_of_maps(t->type))
				return reject(c, d->word,
					      "a table from a register needs a map of maps, table "
					      "%u is %s",
					      op->x, t ? "not one" : "missing");
			if (space >= HXU_SPACE__MAX)
				return reject(c, d->word, "unknown key space %u", space);
			fx->reads |= 1u << op->rs | 1u << op->rt | 1u << handle;
			fx->writes |= 1u << op->rd;
			add_mem(fx, space, op->rs, 0, t->inner.key_size, false);
			if (op->opcode == HXU_OP_TUPDATER) {
				vspace = ((uint32_t)op->imm >> HXU_TUPDATE_VSPACE_SHIFT) & 3;
				if (vspace >= HXU_SPACE__MAX ||
				    ((uint32_t)op->imm & ~(HXU_TUPDATE_FLAGS_MASK | 3u << 16 |
							   15u << HXU_TUPDATER_REG_SHIFT)))
					return reject(
						c, d->word,
						"bad value space or unused bits in tupdater's "
						"imm");
				add_mem(fx, vspace, op->rt, 0, t->inner.value_size, false);
			}
			if (op->opcode != HXU_OP_TLOOKUPR)
				add_mem(fx, HXU_SPACE_TM, 0xff, 0, 0, true);
			break;
		}
		case HXU_OP_TINDEX:
			used = F_RD | F_RS | F_X;
			t = op_table(c, d);
			if (!type_is(t, BPF_MAP_TYPE_ARRAY, BPF_MAP_TYPE_ARRAY))
				return reject(c, d->word, "tindex needs an array, table %u is %s",
					      op->x, t ? "not one" : "missing");
			fx->reads |= 1u << op->rs;
			fx->writes |= 1u << op->rd;
			break;
		case HXU_OP_REDIR:
			used = F_RD | F_RS | F_X | F_IMM;
			t = op_table(c, d);
			if (!type_is(t, BPF_MAP_TYPE_DEVMAP_HASH, BPF_MAP_TYPE_DEVMAP))
				return reject(c, d->word,
					      "redir needs a port table, table %u is %s", op->x,
					      t ? "not one" : "missing");
			fx->reads |= 1u << op->rs;
			if (op->imm == HXU_REDIR_FLAGS_RT) {
				used |= F_RT;
				fx->reads |= 1u << op->rt;
			}
			fx->writes |= 1u << op->rd;
			break;
		case HXU_OP_HADJ:
		case HXU_OP_MADJ:
		case HXU_OP_TADJ:
		case HXU_OP_ESP:
			used = F_RD | F_RS | (op->opcode == HXU_OP_ESP ? F_RT : 0);
			fx->reads |= 1u << op->rs | RES_FRAME;
			if (op->opcode == HXU_OP_ESP)
				fx->reads |= 1u << op->rt;
			fx->writes |= 1u << op->rd | RES_FRAME;
			add_mem(fx, HXU_SPACE_PKT, 0xff, 0, 0, true);
			break;
		case HXU_OP_CSUM16:
			used = F_RS | F_RT | F_IMM;
			fx->reads |= 1u << op->rs | 1u << op->rt;
			add_mem(fx, HXU_SPACE_PKT, op->rs, op->imm, 2, false);
			add_mem(fx, HXU_SPACE_PKT, op->rs, op->imm, 2, true);
			break;
		case HXU_OP_PUNT:
			used = F_IMM;
			break;
		case HXU_OP_TIME:
			used = F_RD | F_X;
			if (op->x >= HXU_CLOCK__MAX)
				return reject(c, d->word, "unknown clock %u", op->x);
			fx->writes |= 1u << op->rd;
			break;
		case HXU_OP_RAND:
		case HXU_OP_CPU:
			used = F_RD;
			fx->writes |= 1u << op->rd;
			break;
		case HXU_OP_CTX:
			used = F_RD | F_X;
			if (op->x >= HXU_CTX__MAX)
				return reject(c, d->word, "unknown ctx field %u", op->x);
			fx->writes |= 1u << op->rd;
			fx->reads |= RES_FRAME;
			break;
		case HXU_OP_REDIRIF:
			used = F_RD | F_RS | F_RT;
			fx->reads |= 1u << op->rs | 1u << op->rt;
			fx->writes |= 1u << op->rd;
			break;
		case HXU_OP_CSUMD:
			used = F_RD | F_X;
			if ((op->x & 3) >= HXU_SPACE__MAX ||
			    (op->x >> HXU_CSUMD_TO_SHIFT) >= HXU_SPACE__MAX)
				return reject(c, d->word, "unknown buffer space in csumd's x 0x%x",
					      op->x);
			fx->reads |= 0x3eu; /* r1..r5, BPF's arguments */
			fx->writes |= 1u << op->rd;
			add_mem(fx, op->x & 3, 0xff, 0, 0, false);
			add_mem(fx, op->x >> HXU_CSUMD_TO_SHIFT, 0xff, 0, 0, false);
			break;
		}
		break;

	default:
		return reject(c, d->word, "unknown opcode 0x%02x", op->opcode);
	}

	if (op->opcode == HXU_OP_MOVSX32 && (op->flags & HXU_F_W32))
		return reject(c, d->word, "movsx32 has no 32-bit form");
	if (op->flags & ~flags_ok)
		return reject(c, d->word, "flags 0x%x are not valid here", op->flags);
	if ((!(used & F_RD) && op->rd) || (!(used & F_RS) && op->rs) ||
	    (!(used & F_RT) && op->rt) || (!(used & F_X) && op->x) || (!(used & F_IMM) && op->imm))
		return reject(c, d->word, "a field this operation does not use is not zero");
	if (fx->writes & (1u << HXU_REG_FP))
		return reject(c, d->word, "r10 is read-only");
	return 0;
}

static bool ranges_overlap(const struct mem_access *a, const struct mem_access *b)
{
	return a->off < b->off + (int64_t)b->size && b->off < a->off + (int64_t)a->size;
}

/* A later access conflicts with an earlier write when they may touch the
 * same bytes: same space and either covers the whole space, the bases
 * differ (nothing says where they point), or the ranges overlap. */
static bool mem_conflict(const struct mem_access *later, const struct mem_access *write)
{
	if (later->space != write->space)
		return false;
	if (later->base == 0xff || write->base == 0xff || later->base != write->base)
		return true;
	return ranges_overlap(later, write);
}

static int first_reg(uint32_t mask)
{
	return __builtin_ctz(mask);
}

static int check_bundle(struct checker *c, uint32_t first, uint32_t n)
{
	struct op_effects fx[HXU_BUNDLE_MAX];
	uint32_t written = 0, clash;
	int err;

	for (uint32_t i = 0; i < n; i++) {
		const struct decoded *d = &c->ops[first + i];

		err = check_op(c, d, &fx[i]);
		if (err)
			return err;
		if (hxu_op_is_control(d->op.opcode) && i + 1 < n)
			return reject(c, d->word, "a control operation must end its bundle");
		clash = fx[i].reads & written;
		if (clash)
			return clash & RES_FRAME ? reject(c, d->word,
							  "reads the frame's bounds, which an "
							  "earlier operation of its bundle moves")
						 : reject(c, d->word,
							  "reads r%d, which an earlier operation "
							  "of its bundle writes",
							  first_reg(clash));
		clash = fx[i].writes & written;
		if (clash)
			return clash & RES_FRAME ? reject(c, d->word,
							  "moves the frame's bounds, as an earlier "
							  "operation of its bundle does")
						 : reject(c, d->word,
							  "writes r%d, as an earlier operation of "
							  "its bundle does",
							  first_reg(clash));
		for (uint32_t j = 0; j < i; j++) {
			for (int a = 0; a < fx[i].mem_cnt; a++) {
				for (int b = 0; b < fx[j].mem_cnt; b++) {
					if (!fx[j].mem[b].write ||
					    !mem_conflict(&fx[i].mem[a], &fx[j].mem[b]))
						continue;
					return reject(
						c, d->word,
						"%s %s memory that op %u of its bundle may write",
						fx[i].mem[a].write ? "writes" : "reads",
						space_names[fx[i].mem[a].space],
						c->ops[first + j].word);
				}
			}
		}
		written |= fx[i].writes;
	}
	return 0;
}

static int check_target(struct checker *c, const struct decoded *d, uint32_t target,
			const char *what)
{
	int32_t at;

	if (target >= c->img->op_cnt)
		return reject(c, d ? (int64_t)d->word : -1, "%s @%u is beyond the last operation",
			      what, target);
	at = c->op_at[target];
	if (at < 0)
		return reject(c, d ? (int64_t)d->word : -1,
			      "%s @%u is the second word of an operation", what, target);
	if (!c->ops[at].bundle_start)
		return reject(c, d ? (int64_t)d->word : -1, "%s @%u is inside a bundle", what,
			      target);
	return 0;
}

static bool has_target(uint8_t opcode)
{
	return opcode == HXU_OP_BR || opcode == HXU_OP_BRI || opcode == HXU_OP_JMP ||
	       opcode == HXU_OP_CALL || opcode == HXU_OP_LCHK;
}

static bool ends_flow(uint8_t opcode)
{
	return opcode == HXU_OP_JMP || opcode == HXU_OP_RET || opcode == HXU_OP_EXIT ||
	       opcode == HXU_OP_PUNT;
}

static int check_tables(struct checker *c)
{
	const struct hxu_image *img = c->img;

	for (uint32_t i = 0; i < img->table_cnt; i++) {
		const struct hxu_table_desc *d = &img->tables[i];
		const struct hwxdp_table *tab;

		if (d->id >= HXU_TABLES)
			return reject(c, -1, "table %.*s: id %u beyond %u", HXU_NAME_MAX, d->name,
				      d->id, HXU_TABLES - 1);
		if (c->table_desc[d->id])
			return reject(c, -1, "table id %u used twice", d->id);
		c->table_desc[d->id] = d;
		if ((keyed_table(d->type) || port_table(d->type)) &&
		    d->value_size > c->tm_value_max)
			c->tm_value_max = d->value_size;
		if (hxu_map_of_maps(d->type) && keyed_table(d->inner.type) &&
		    d->inner.value_size > c->tm_value_max)
			c->tm_value_max = d->inner.value_size;
		if (!c->tables)
			continue;
		tab = hwxdp_tables__get(c->tables, d->id);
		if (!tab)
			return reject(c, -1, "table %u (%.*s) is not in table memory", d->id,
				      HXU_NAME_MAX, d->name);
		if (tab->desc.type != d->type || tab->desc.key_size != d->key_size ||
		    tab->desc.value_size != d->value_size ||
		    tab->desc.max_entries != d->max_entries ||
		    memcmp(&tab->desc.inner, &d->inner, sizeof(d->inner)))
			return reject(c, -1, "table %u (%.*s) differs from the one in table memory",
				      d->id, HXU_NAME_MAX, d->name);
	}
	return 0;
}

/* Every table memory access proven to stay inside a table's value
 * (device/tm_proof.h). */
static int check_table_memory(struct checker *c)
{
	struct hxu_op *ops = malloc(sizeof(*ops) * c->op_cnt);
	uint32_t *words = malloc(sizeof(*words) * c->op_cnt);
	char msg[200];
	int err = -ENOMEM;

	if (!ops || !words)
		goto out;
	for (uint32_t i = 0; i < c->op_cnt; i++) {
		ops[i] = c->ops[i].op;
		words[i] = c->ops[i].word;
	}
	err = hwxdp_tm_prove(c->img, ops, words, c->op_cnt, c->op_at, c->table_desc, msg,
			     sizeof(msg));
	if (err == -1)
		err = reject(c, -1, "%s", msg);
out:
	free(ops);
	free(words);
	return err;
}

static int check_image(struct checker *c)
{
	const struct hxu_image *img = c->img;
	uint32_t w = 0, n, first, i;
	int err;

	if (img->version != HXU_VERSION)
		return reject(c, -1, "version %u, the device runs %u", img->version, HXU_VERSION);
	if (!img->op_cnt || !img->ops)
		return reject(c, -1, "no operations");
	if (img->op_cnt > HXU_STORE_WORDS)
		return reject(c, -1, "%u operation words, the store holds %u", img->op_cnt,
			      HXU_STORE_WORDS);
	if (!img->prog_cnt || !img->progs)
		return reject(c, -1, "no programs");
	err = check_tables(c);
	if (err)
		return err;

	c->ops = calloc(img->op_cnt, sizeof(*c->ops));
	c->op_at = malloc(sizeof(*c->op_at) * img->op_cnt);
	if (!c->ops || !c->op_at)
		return -ENOMEM;
	memset(c->op_at, 0xff, sizeof(*c->op_at) * img->op_cnt);
	first = 0;
	while (w < img->op_cnt) {
		struct decoded *d = &c->ops[c->op_cnt];

		n = hxu_decode_at(img->ops + w, img->op_cnt - w, &d->op);
		if (!n)
			return reject(c, w, "a two-word operation without its second word");
		d->word = w;
		d->bundle_start = c->op_cnt == first;
		c->op_at[w] = (int32_t)c->op_cnt++;
		w += n;
		if (c->op_cnt - first > HXU_BUNDLE_MAX)
			return reject(c, d->word, "a bundle of more than %u operations",
				      HXU_BUNDLE_MAX);
		if (d->op.end || w == img->op_cnt) {
			if (!d->op.end)
				return reject(c, d->word,
					      "the last operation does not end a bundle");
			err = check_bundle(c, first, c->op_cnt - first);
			if (err)
				return err;
			first = c->op_cnt;
		}
	}
	if (!ends_flow(c->ops[c->op_cnt - 1].op.opcode))
		return reject(c, c->ops[c->op_cnt - 1].word,
			      "the last bundle may run past the end of the store");

	for (i = 0; i < c->op_cnt; i++) {
		if (!has_target(c->ops[i].op.opcode))
			continue;
		err = check_target(c, &c->ops[i], (uint32_t)c->ops[i].op.imm,
				   c->ops[i].op.opcode == HXU_OP_CALL ? "call target"
								      : "branch target");
		if (err)
			return err;
	}
	for (i = 0; i < img->prog_cnt; i++) {
		const struct hxu_prog_desc *p = &img->progs[i];

		err = check_target(c, NULL, p->entry, "program entry");
		if (err)
			return err;
		if (p->frames < 1 || p->frames > HXU_LM_FRAMES)
			return reject(c, -1,
				      "program %u (%.*s): %u stack frames, the device has "
				      "1..%u",
				      i, HXU_NAME_MAX, p->name, p->frames, HXU_LM_FRAMES);
	}
	for (i = 0; i < img->line_cnt; i++)
		if (img->lines[i].op >= img->op_cnt)
			return reject(c, -1, "line table entry %u names op %u, beyond the last", i,
				      img->lines[i].op);
	return check_table_memory(c);
}

static void checker_fini(struct checker *c)
{
	free(c->ops);
	free(c->op_at);
}

int hwxdp_engine__check(const struct hxu_image *img, const struct hwxdp_tables *tables, char *err,
			size_t errlen)
{
	struct checker c = { .img = img, .tables = tables, .err = err, .errlen = errlen };
	int ret;

	if (errlen)
		err[0] = '\0';
	ret = check_image(&c);
	checker_fini(&c);
	return ret;
}

/* The error of a key outside its space. */
static inline int key_fault(unsigned int space)
{
	return space == HXU_SPACE_LM   ? HWXDP_ERR_LM_ACCESS
	       : space == HXU_SPACE_TM ? HWXDP_ERR_TM_ACCESS
				       : HWXDP_ERR_PKT_ACCESS;
}

/* ---- pre-decoding ---- */

/* Cycles an operation stalls the engine for, beyond its bundle's one. */
static uint8_t op_latency(const struct hxu_op *op, const struct hwxdp_tables *tables)
{
	const struct hwxdp_table *t;

	switch (op->opcode) {
	case HXU_OP_TLOOKUP:
		t = hwxdp_tables__get(tables, op->x);
		if (t->desc.type == BPF_MAP_TYPE_LPM_TRIE)
			return 12;
		return t->desc.type == BPF_MAP_TYPE_ARRAY ||
				       t->desc.type == BPF_MAP_TYPE_PERCPU_ARRAY
			       ? 2
			       : 8;
	case HXU_OP_TINDEX:
	case HXU_OP_TCALL:
	case HXU_OP_HADJ:
	case HXU_OP_MADJ:
	case HXU_OP_TADJ:
	case HXU_OP_ATOMIC + HXU_SPACE_TM:
		return 2;
	case HXU_OP_REDIR:
		return 8;
	case HXU_OP_CSUMD:
		return 2;
	case HXU_OP_TUPDATE:
	case HXU_OP_TDELETE:
		return 20;
	case HXU_OP_TLOOKUPR:
		/* the handle's check, then the lookup its template's type takes */
		t = hwxdp_tables__get(tables, op->x);
		if (t->desc.inner.type == BPF_MAP_TYPE_LPM_TRIE)
			return 14;
		return t->desc.inner.type == BPF_MAP_TYPE_ARRAY ||
				       t->desc.inner.type == BPF_MAP_TYPE_PERCPU_ARRAY
			       ? 4
			       : 10;
	case HXU_OP_TUPDATER:
	case HXU_OP_TDELETER:
		return 22;
	case HXU_OP_ESP:
		return 64;
	}
	return 0;
}

static enum handler mem_handler(const struct hxu_op *op)
{
	static const uint8_t ld[4][2] = {
		{ M_LD8, M_LD8 }, { M_LD16, M_LD16BE }, { M_LD32, M_LD32BE }, { M_LD64, M_LD64BE }
	};
	static const uint8_t ldsx[3][2] = { { M_LDSX8, M_LDSX8 },
					    { M_LDSX16, M_LDSX16BE },
					    { M_LDSX32, M_LDSX32BE } };
	static const uint8_t st[4][2] = {
		{ M_ST8, M_ST8 }, { M_ST16, M_ST16BE }, { M_ST32, M_ST32BE }, { M_ST64, M_ST64BE }
	};
	static const uint8_t sti[4] = { M_STI8, M_STI16, M_STI32, M_STI64 };
	static const enum handler base[] = { H_LD8_PKT, H_LD8_LM, H_LD8_TM };
	unsigned int lg = (op->flags >> HXU_F_SIZE_SHIFT) & 3, be = op->flags & HXU_F_BE;
	unsigned int off;

	switch (hxu_mem_kind(op->opcode)) {
	case HXU_OP_LD:
		off = ld[lg][be];
		break;
	case HXU_OP_LDSX:
		off = ldsx[lg][be];
		break;
	case HXU_OP_ST:
		off = st[lg][be];
		break;
	default:
		off = sti[lg];
	}
	return base[hxu_mem_space(op->opcode)] + off;
}

/*
 * A local-memory access through r10 whose offset stays inside one frame
 * below it cannot leave local memory: r10 is HXU_LM_FRAME at the start of a
 * frame, moves by HXU_LM_FRAME per call level (at most HXU_RSTACK_DEPTH - 1
 * of them, so it never passes HXU_LM_SIZE), and no operation may write it.
 * Such accesses - the spills and the keys built on the stack - run without
 * the bounds check.
 */
static bool frame_relative(const struct hxu_op *op)
{
	int64_t size = hxu_mem_size(op->flags);

	_Static_assert(HXU_LM_FRAME * HXU_RSTACK_DEPTH <= HXU_LM_SIZE,
		       "r10 stays inside local memory");
	return hxu_mem_space(op->opcode) == HXU_SPACE_LM && op->rs == HXU_REG_FP &&
	       op->imm >= -HXU_LM_FRAME && op->imm <= -size;
}

static uint32_t space_limit(unsigned int space, uint32_t size)
{
	return space == HXU_SPACE_PKT ? HXU_WINDOW_SIZE - size : HXU_LM_SIZE - size;
}

/* Fills x for op; branch targets are resolved later (x.u holds the word). */
static void predecode_op(struct xop *x, const struct hxu_op *op, struct hwxdp_tables *tables)
{
	bool w = op->flags & HXU_F_W32, k = op->flags & HXU_F_K;
	unsigned int space;
	struct hwxdp_table *t = NULL;
	enum handler h = H_FELL_OFF;

	memset(x, 0, sizeof(*x));
	x->rd = op->rd;
	x->rs = op->rs;
	x->rt = op->rt;
	x->imm = op->imm;
	if ((op->opcode >= HXU_OP_TLOOKUP && op->opcode <= HXU_OP_REDIR) ||
	    hxu_op_table_reg(op->opcode))
		t = hwxdp_tables__get(tables, op->x);

	switch (hxu_opcode_class(op->opcode)) {
	case HXU_CLASS_A:
		if (op->opcode <= HXU_OP_ARSH) {
			h = H_ADD64X + (op->opcode - HXU_OP_ADD) * 4 + (w ? 2 : 0) + (k ? 1 : 0);
			x->x.u = w ? (uint64_t)(uint32_t)op->imm : (uint64_t)(int64_t)op->imm;
			break;
		}
		switch (op->opcode) {
		case HXU_OP_NEG:
			h = w ? H_NEG32 : H_NEG64;
			break;
		case HXU_OP_MOV:
			h = k ? H_MOVK : w ? H_MOV32X : H_MOV64X;
			x->x.u = w ? (uint64_t)(uint32_t)op->imm : (uint64_t)(int64_t)op->imm;
			break;
		case HXU_OP_MOVI:
			h = H_MOVK;
			x->x.u = hxu_movi_value(op);
			break;
		case HXU_OP_MOVSX8:
			h = w ? H_MOVSX8W : H_MOVSX8;
			break;
		case HXU_OP_MOVSX16:
			h = w ? H_MOVSX16W : H_MOVSX16;
			break;
		case HXU_OP_MOVSX32:
			h = H_MOVSX32;
			break;
		case HXU_OP_BSWAP16:
			h = H_BSWAP16;
			break;
		case HXU_OP_BSWAP32:
			h = H_BSWAP32;
			break;
		case HXU_OP_BSWAP64:
			h = H_BSWAP64;
			break;
		case HXU_OP_ZEXT16:
			h = H_ZEXT16;
			break;
		case HXU_OP_ZEXT32:
			h = H_ZEXT32;
			break;
		}
		break;
	case HXU_CLASS_M:
		if (hxu_mem_kind(op->opcode) == HXU_OP_ATOMIC) {
			h = hxu_mem_space(op->opcode) == HXU_SPACE_LM ? H_ATOMIC_LM : H_ATOMIC_TM;
			x->aux = (uint8_t)(op->x | (op->flags & HXU_F_FETCH ? 0x10 : 0) |
					   (hxu_mem_size(op->flags) == 8 ? 0x20 : 0));
			/* Counters: the one atomic every forwarding program has. */
			if (h == H_ATOMIC_TM && x->aux == (HXU_ATOMIC_ADD | 0x20))
				h = H_ATOMIC_ADD64_TM;
			break;
		}
		h = mem_handler(op);
		if (frame_relative(op))
			h = h - H_LD8_LM + H_LD8_LMFP;
		if (hxu_mem_kind(op->opcode) == HXU_OP_STI) {
			uint32_t size = hxu_mem_size(op->flags);
			uint64_t v = (uint64_t)(int64_t)(int32_t)op->ext;

			x->x.u = op->flags & HXU_F_BE ? swap_for_store(v, size) : v;
		}
		break;
	case HXU_CLASS_C:
		switch (op->opcode) {
		case HXU_OP_BR:
		case HXU_OP_BRI:
			h = H_BR_EQ64X + op->x * 4 + (w ? 2 : 0) +
			    (op->opcode == HXU_OP_BRI ? 1 : 0);
			x->imm = (int32_t)op->ext;
			x->x.u = (uint32_t)op->imm;
			break;
		case HXU_OP_JMP:
		case HXU_OP_CALL:
			h = op->opcode == HXU_OP_JMP ? H_JMP : H_CALL;
			x->x.u = (uint32_t)op->imm;
			break;
		case HXU_OP_RET:
			h = H_RET;
			break;
		case HXU_OP_EXIT:
			h = H_EXIT;
			break;
		case HXU_OP_TCALL:
			h = H_TCALL;
			x->x.tab = hwxdp_tables__get(tables, op->x);
			break;
		case HXU_OP_LCHK:
			h = op->flags & HXU_F_LCHK_REG ? H_LCHKR : H_LCHK;
			x->imm = (int32_t)op->ext;
			x->x.u = (uint32_t)op->imm;
			break;
		}
		break;
	case HXU_CLASS_U:
		switch (op->opcode) {
		case HXU_OP_TLOOKUP:
			space = op->flags & 3;
			h = (t->desc.type == BPF_MAP_TYPE_ARRAY	 ? H_TLOOKUP_ARRAY_PKT
			     : port_table(t->desc.type)		 ? H_TLOOKUP_PORT_PKT
			     : t->desc.type == BPF_MAP_TYPE_HASH ? H_TLOOKUP_HASH_PKT
								 : H_TLOOKUP_TABLE_PKT) +
			    space;
			x->imm = (int32_t)(space == HXU_SPACE_TM
						   ? 0
						   : space_limit(space, t->desc.key_size));
			x->x.tab = t;
			break;
		case HXU_OP_TINDEX:
			h = H_TINDEX;
			x->x.tab = t;
			break;
		case HXU_OP_TUPDATE:
			h = H_TUPDATE;
			x->aux = (uint8_t)((op->flags & 3) |
					   (((uint32_t)op->imm >> HXU_TUPDATE_VSPACE_SHIFT) & 3)
						   << 2);
			x->imm = (int32_t)((uint32_t)op->imm & HXU_TUPDATE_FLAGS_MASK);
			x->x.tab = t;
			break;
		case HXU_OP_TDELETE:
			h = H_TDELETE;
			x->aux = op->flags & 3;
			x->x.tab = t;
			break;
		case HXU_OP_TLOOKUPR:
		case HXU_OP_TDELETER:
			h = op->opcode == HXU_OP_TLOOKUPR ? H_TLOOKUPR : H_TDELETER;
			x->aux = op->flags & 3;
			x->x.tab = t;
			break;
		case HXU_OP_TUPDATER:
			h = H_TUPDATER;
			x->aux = (uint8_t)((op->flags & 3) |
					   (((uint32_t)op->imm >> HXU_TUPDATE_VSPACE_SHIFT) & 3)
						   << 2 |
					   hxu_handle_reg(op) << 4);
			x->imm = (int32_t)((uint32_t)op->imm & HXU_TUPDATE_FLAGS_MASK);
			x->x.tab = t;
			break;
		case HXU_OP_REDIR:
			h = op->imm == HXU_REDIR_FLAGS_RT ? H_REDIR_RT : H_REDIR;
			x->x.tab = t;
			break;
		case HXU_OP_HADJ:
			h = H_HADJ;
			break;
		case HXU_OP_MADJ:
			h = H_MADJ;
			break;
		case HXU_OP_TADJ:
			h = H_TADJ;
			break;
		case HXU_OP_CSUM16:
			h = H_CSUM16;
			break;
		case HXU_OP_ESP:
			h = H_ESP;
			break;
		case HXU_OP_PUNT:
			h = H_PUNT;
			break;
		case HXU_OP_TIME:
			h = H_TIME;
			x->aux = op->x;
			break;
		case HXU_OP_RAND:
			h = H_RAND;
			break;
		case HXU_OP_CPU:
			h = H_CPU;
			break;
		case HXU_OP_CTX:
			h = H_CTX_DATA + op->x;
			break;
		case HXU_OP_REDIRIF:
			h = H_REDIRIF;
			break;
		case HXU_OP_CSUMD:
			h = H_CSUMD;
			x->aux = op->x;
			break;
		}
		break;
	default:
		break;
	}
	x->handler = handler_addr[h];
}

static bool op_branches(uint8_t opcode)
{
	return opcode == HXU_OP_BR || opcode == HXU_OP_BRI || opcode == HXU_OP_JMP ||
	       opcode == HXU_OP_LCHK;
}

static const struct hxu_op *record_op(const struct checker *c, const struct form *f, uint32_t i)
{
	return &c->ops[c->op_at[f->info[i].word]].op;
}

/* The fused handler for record i and the branch after it, or H__MAX. */
static enum handler fuse(const struct checker *c, const struct form *f, uint32_t i,
			 const struct hwxdp_tables *tables)
{
	static const int8_t cc_slot[HXU_CC__MAX] = { 0, 1, 2, 3, 4, 5, -1, -1, -1, -1, 6 };
	const struct hxu_op *a, *b;
	const struct hwxdp_table *t;
	unsigned int lg;

	if (f->info[i].kind == X_PSEUDO || f->info[i + 1].kind == X_PSEUDO)
		return H__MAX;
	a = record_op(c, f, i);
	b = record_op(c, f, i + 1);
	if (b->opcode != HXU_OP_BRI || (b->flags & HXU_F_W32) || b->rs != a->rd ||
	    cc_slot[b->x] < 0)
		return H__MAX;
	if (a->opcode == HXU_OP_LD + HXU_SPACE_PKT) {
		static const enum handler base[4][2] = { { H_F_LD8_EQ, H__MAX },
							 { H_F_LD16_EQ, H_F_LD16BE_EQ },
							 { H_F_LD32_EQ, H_F_LD32BE_EQ },
							 { H__MAX, H__MAX } };
		enum handler h;

		lg = (a->flags >> HXU_F_SIZE_SHIFT) & 3;
		h = base[lg][a->flags & HXU_F_BE];
		return h == H__MAX ? H__MAX : h + cc_slot[b->x];
	}
	if (b->x != HXU_CC_EQ && b->x != HXU_CC_NE)
		return H__MAX;
	if (a->opcode == HXU_OP_TINDEX)
		return H_F_TINDEX_EQ + b->x;
	if (a->opcode != HXU_OP_TLOOKUP || (a->flags & 3) != HXU_SPACE_LM)
		return H__MAX;
	t = hwxdp_tables__get(tables, a->x);
	switch (t->desc.type) {
	case BPF_MAP_TYPE_ARRAY:
		return H_F_TLOOKUP_ARRAY_EQ + b->x;
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
		return H_F_TLOOKUP_PORT_EQ + b->x;
	case BPF_MAP_TYPE_HASH:
		return H_F_TLOOKUP_HASH_EQ + b->x;
	default:
		return H__MAX;
	}
}

/* Operations fuse() can take first. */
static bool fusable_first(const struct hxu_op *a)
{
	unsigned int lg = (a->flags >> HXU_F_SIZE_SHIFT) & 3;

	if (a->opcode == HXU_OP_LD + HXU_SPACE_PKT)
		return lg < 3 && !(lg == 0 && (a->flags & HXU_F_BE));
	return a->opcode == HXU_OP_TINDEX ||
	       (a->opcode == HXU_OP_TLOOKUP && (a->flags & 3) == HXU_SPACE_LM);
}

/* Operations that write no memory and move nothing: an operation of their
 * bundle that reads memory may run after them. */
static bool writes_register_only(const struct hxu_op *y)
{
	uint8_t kind = hxu_mem_kind(y->opcode);

	return hxu_opcode_class(y->opcode) == HXU_CLASS_A ||
	       (hxu_opcode_class(y->opcode) == HXU_CLASS_M &&
		(kind == HXU_OP_LD || kind == HXU_OP_LDSX)) ||
	       y->opcode == HXU_OP_CTX || y->opcode == HXU_OP_TINDEX;
}

/*
 * The order in which a bundle's operations run. Any order of independent
 * operations gives the bundle's result, except that one that reads a
 * register or memory must not run after one that writes it; within those
 * limits, the load whose result the next bundle's first operation tests
 * goes last, next to that branch, so that fuse() can take the pair.
 */
static void bundle_order(const struct checker *c, uint32_t *order)
{
	uint32_t first = 0, last, l;

	for (uint32_t i = 0; i < c->op_cnt; i++)
		order[i] = i;
	while (first < c->op_cnt) {
		const struct hxu_op *br;
		uint32_t reads;

		for (last = first; !c->ops[last].op.end; last++)
			;
		if (last + 1 >= c->op_cnt || last == first)
			goto next;
		br = &c->ops[last + 1].op;
		if (br->opcode != HXU_OP_BRI)
			goto next;
		for (l = first; l < last; l++)
			if (c->ops[l].op.rd == br->rs && fusable_first(&c->ops[l].op))
				break;
		if (l == last)
			goto next;
		reads = 1u << c->ops[l].op.rs;
		for (uint32_t y = l + 1; y <= last; y++) {
			const struct hxu_op *op = &c->ops[y].op;

			if (!writes_register_only(op) || (reads & (1u << op->rd)))
				goto next;
		}
		memmove(&order[l], &order[l + 1], (last - l) * sizeof(*order));
		order[last] = l;
	next:
		first = last + 1;
	}
}

static int build_form(struct form *f, const struct checker *c, const uint8_t *leader,
		      const uint8_t *loop_header, bool counted, struct hwxdp_tables *tables)
{
	const struct hxu_image *img = c->img;
	uint32_t *map, *order, n = 0, i, j;
	struct xop *x;

	/* At most a COUNT and a BUDGET before each operation, and the end. */
	f->ops = calloc((size_t)c->op_cnt * 3 + 1, sizeof(*f->ops));
	f->info = calloc((size_t)c->op_cnt * 3 + 1, sizeof(*f->info));
	f->entry = calloc(img->prog_cnt, sizeof(*f->entry));
	map = calloc(img->op_cnt, sizeof(*map));
	order = calloc(c->op_cnt, sizeof(*order));
	if (!f->ops || !f->info || !f->entry || !map || !order) {
		free(map);
		free(order);
		return -ENOMEM;
	}
	bundle_order(c, order);

	/* Position i holds operation order[i]; counting points and targets go
	 * by position (bundle starts), what runs by operation. */
	for (i = 0; i < c->op_cnt; i++) {
		const struct decoded *d = &c->ops[i], *run = &c->ops[order[i]];

		if (d->bundle_start)
			map[d->word] = n;
		if (counted && leader[d->word]) {
			uint64_t ops = 0, bundles = 0, cycles = 0;

			/* The block: bundles up to the next leader. */
			for (j = i; j < c->op_cnt; j++) {
				if (j > i && c->ops[j].bundle_start && leader[c->ops[j].word])
					break;
				ops++;
				if (c->ops[j].bundle_start) {
					bundles++;
					cycles++;
				}
				cycles += op_latency(&c->ops[j].op, tables);
			}
			x = &f->ops[n];
			x->handler = handler_addr[H_COUNT];
			x->imm = (int32_t)bundles;
			x->x.u = ops << 32 | cycles;
			f->info[n++] = (struct xinfo){ d->word, X_PSEUDO, 0 };
		}
		if (loop_header[d->word]) {
			f->ops[n].handler = handler_addr[H_BUDGET];
			f->info[n++] = (struct xinfo){ d->word, X_PSEUDO, 0 };
		}
		predecode_op(&f->ops[n], &run->op, tables);
		f->info[n++] =
			(struct xinfo){ run->word, d->bundle_start ? X_OP_BUNDLE_START : X_OP,
					op_latency(&run->op, tables) };
	}
	free(order);
	f->ops[n].handler = handler_addr[H_FELL_OFF];
	f->info[n++] = (struct xinfo){ img->op_cnt, X_PSEUDO, 0 };
	f->cnt = n;

	for (i = 0; i < n; i++) {
		if (f->info[i].kind == X_PSEUDO)
			continue;
		if (op_branches(c->ops[c->op_at[f->info[i].word]].op.opcode) ||
		    c->ops[c->op_at[f->info[i].word]].op.opcode == HXU_OP_CALL)
			f->ops[i].x.target = &f->ops[map[f->ops[i].x.u]];
	}
	for (i = 0; i < img->prog_cnt; i++)
		f->entry[i] = &f->ops[map[img->progs[i].entry]];
	/* The branch keeps its own record: whoever jumps to it runs it alone,
	 * and the fused handler reads its condition and target there. */
	for (i = 0; i + 1 < n; i++) {
		enum handler h = fuse(c, f, i, tables);

		if (h != H__MAX)
			f->ops[i].handler = handler_addr[h];
	}
	free(map);
	return 0;
}

static void form_free(struct form *f)
{
	free(f->ops);
	free(f->info);
	free(f->entry);
}

/* ---- the interpreter ---- */

struct return_frame {
	const struct xop *ret;
	uint64_t saved[4]; /* r6..r9 */
};

/* Takes out of the counts the operations of op's block that did not run
 * because op aborted the frame. */
static void uncount_rest(const struct form *f, const struct xop *op, uint64_t *ops,
			 uint64_t *bundles, uint64_t *cycles)
{
	for (uint32_t i = (uint32_t)(op - f->ops) + 1; i < f->cnt; i++) {
		const struct xinfo *info = &f->info[i];

		if (info->kind == X_PSEUDO)
			break;
		(*ops)--;
		*cycles -= info->latency;
		if (info->kind == X_OP_BUNDLE_START) {
			(*bundles)--;
			(*cycles)--;
		}
	}
}

#define RD	 (r[op->rd])
#define RS	 (r[op->rs])
#define RT	 (r[op->rt])
#define OFF	 ((uint64_t)(int64_t)op->imm)
#define DISPATCH goto * op->handler
#define NEXT                                                                                       \
	do {                                                                                       \
		op++;                                                                              \
		DISPATCH;                                                                          \
	} while (0)
#define JUMP(t)                                                                                    \
	do {                                                                                       \
		op = (t);                                                                          \
		DISPATCH;                                                                          \
	} while (0)
#define FAULT(code)                                                                                \
	do {                                                                                       \
		err = -(code);                                                                     \
		goto fault;                                                                        \
	} while (0)

#define CHECK_PKT(a, n)                                                                            \
	if (unlikely((a) > (uint64_t)HXU_WINDOW_SIZE - (n)))                                       \
	FAULT(HWXDP_ERR_PKT_ACCESS)
#define CHECK_LM(a, n)                                                                             \
	if (unlikely((a) > (uint64_t)HXU_LM_SIZE - (n)))                                           \
	FAULT(HWXDP_ERR_LM_ACCESS)
#define CHECK_TM(a, n)                                                                             \
	if (unlikely(!HWXDP_TM_OK(a)))                                                             \
	FAULT(HWXDP_ERR_TM_ACCESS)
#define CHECK_LMFP(a, n) (void)0
#define ADDR_PKT(a)	 (win + (a))
#define ADDR_LM(a)	 (lm + (a))
#define ADDR_LMFP(a)	 (lm + (a))
#define ADDR_TM(a)	 ((uint8_t *)(uintptr_t)(a))

#define LOAD(S, NAME, N, EXPR)                                                                     \
	L_##NAME##_##S:                                                                            \
	{                                                                                          \
		uint64_t a = RS + OFF;                                                             \
		const uint8_t *p;                                                                  \
		CHECK_##S(a, N);                                                                   \
		p = ADDR_##S(a);                                                                   \
		RD = (EXPR);                                                                       \
		NEXT;                                                                              \
	}
#define STORE(S, NAME, N, SRC, STMT)                                                               \
	L_##NAME##_##S:                                                                            \
	{                                                                                          \
		uint64_t a = RS + OFF, v = (SRC);                                                  \
		uint8_t *p;                                                                        \
		CHECK_##S(a, N);                                                                   \
		p = ADDR_##S(a);                                                                   \
		STMT;                                                                              \
		NEXT;                                                                              \
	}
#define MEM_SPACE(S)                                                                               \
	LOAD(S, LD8, 1, *p)                                                                        \
	LOAD(S, LD16, 2, ld16(p))                                                                  \
	LOAD(S, LD32, 4, ld32(p))                                                                  \
	LOAD(S, LD64, 8, ld64(p))                                                                  \
	LOAD(S, LD16BE, 2, __builtin_bswap16(ld16(p)))                                             \
	LOAD(S, LD32BE, 4, __builtin_bswap32(ld32(p)))                                             \
	LOAD(S, LD64BE, 8, __builtin_bswap64(ld64(p)))                                             \
	LOAD(S, LDSX8, 1, (uint64_t)(int64_t)(int8_t)*p)                                           \
	LOAD(S, LDSX16, 2, (uint64_t)(int64_t)(int16_t)ld16(p))                                    \
	LOAD(S, LDSX32, 4, (uint64_t)(int64_t)(int32_t)ld32(p))                                    \
	LOAD(S, LDSX16BE, 2, (uint64_t)(int64_t)(int16_t)__builtin_bswap16(ld16(p)))               \
	LOAD(S, LDSX32BE, 4, (uint64_t)(int64_t)(int32_t)__builtin_bswap32(ld32(p)))               \
	STORE(S, ST8, 1, RT, *p = (uint8_t)v)                                                      \
	STORE(S, ST16, 2, RT, st16(p, (uint16_t)v))                                                \
	STORE(S, ST32, 4, RT, st32(p, (uint32_t)v))                                                \
	STORE(S, ST64, 8, RT, st64(p, v))                                                          \
	STORE(S, ST16BE, 2, RT, st16(p, __builtin_bswap16((uint16_t)v)))                           \
	STORE(S, ST32BE, 4, RT, st32(p, __builtin_bswap32((uint32_t)v)))                           \
	STORE(S, ST64BE, 8, RT, st64(p, __builtin_bswap64(v)))                                     \
	STORE(S, STI8, 1, op->x.u, *p = (uint8_t)v)                                                \
	STORE(S, STI16, 2, op->x.u, st16(p, (uint16_t)v))                                          \
	STORE(S, STI32, 4, op->x.u, st32(p, (uint32_t)v))                                          \
	STORE(S, STI64, 8, op->x.u, st64(p, v))

#define ALU(NAME, E64, E32)                                                                        \
	L_##NAME##64X:                                                                             \
	{                                                                                          \
		uint64_t a = RS, b = RT;                                                           \
		RD = (E64);                                                                        \
		NEXT;                                                                              \
	}                                                                                          \
	L_##NAME##64K:                                                                             \
	{                                                                                          \
		uint64_t a = RS, b = op->x.u;                                                      \
		RD = (E64);                                                                        \
		NEXT;                                                                              \
	}                                                                                          \
	L_##NAME##32X:                                                                             \
	{                                                                                          \
		uint32_t a = (uint32_t)RS, b = (uint32_t)RT;                                       \
		RD = (uint32_t)(E32);                                                              \
		NEXT;                                                                              \
	}                                                                                          \
	L_##NAME##32K:                                                                             \
	{                                                                                          \
		uint32_t a = (uint32_t)RS, b = (uint32_t)op->x.u;                                  \
		RD = (uint32_t)(E32);                                                              \
		NEXT;                                                                              \
	}

#define BRANCH(CC, EXPR)                                                                           \
	L_BR_##CC##64X:                                                                            \
	{                                                                                          \
		typedef int64_t S __attribute__((unused));                                         \
		uint64_t a = RS, b = RT;                                                           \
		JUMP((EXPR) ? op->x.target : op + 1);                                              \
	}                                                                                          \
	L_BR_##CC##64K:                                                                            \
	{                                                                                          \
		typedef int64_t S __attribute__((unused));                                         \
		uint64_t a = RS, b = (uint64_t)(int64_t)op->imm;                                   \
		JUMP((EXPR) ? op->x.target : op + 1);                                              \
	}                                                                                          \
	L_BR_##CC##32X:                                                                            \
	{                                                                                          \
		typedef int32_t S __attribute__((unused));                                         \
		uint32_t a = (uint32_t)RS, b = (uint32_t)RT;                                       \
		JUMP((EXPR) ? op->x.target : op + 1);                                              \
	}                                                                                          \
	L_BR_##CC##32K:                                                                            \
	{                                                                                          \
		typedef int32_t S __attribute__((unused));                                         \
		uint32_t a = (uint32_t)RS, b = (uint32_t)op->imm;                                  \
		JUMP((EXPR) ? op->x.target : op + 1);                                              \
	}

#define TLOOKUP(S)                                                                                 \
	L_TLOOKUP_ARRAY_##S:                                                                       \
	{                                                                                          \
		uint64_t a = RS;                                                                   \
		CHECK_##S(a, 4);                                                                   \
		RD = hwxdp_table__array_addr(op->x.tab, ld32(ADDR_##S(a)));                        \
		NEXT;                                                                              \
	}                                                                                          \
	L_TLOOKUP_HASH_##S:                                                                        \
	{                                                                                          \
		uint64_t a = RS;                                                                   \
		if (HXU_SPACE_##S != HXU_SPACE_TM && unlikely(a > (uint32_t)op->imm))              \
			FAULT(HXU_SPACE_##S == HXU_SPACE_PKT ? HWXDP_ERR_PKT_ACCESS                \
							     : HWXDP_ERR_LM_ACCESS);               \
		if (HXU_SPACE_##S == HXU_SPACE_TM && unlikely(!HWXDP_TM_OK(a)))                    \
			FAULT(HWXDP_ERR_TM_ACCESS);                                                \
		RD = (uint64_t)(uintptr_t)hwxdp_hash__lookup(op->x.tab->hash, ADDR_##S(a));        \
		NEXT;                                                                              \
	}                                                                                          \
	L_TLOOKUP_TABLE_##S:                                                                       \
	{                                                                                          \
		uint64_t a = RS;                                                                   \
		if (HXU_SPACE_##S != HXU_SPACE_TM && unlikely(a > (uint32_t)op->imm))              \
			FAULT(HXU_SPACE_##S == HXU_SPACE_PKT ? HWXDP_ERR_PKT_ACCESS                \
							     : HWXDP_ERR_LM_ACCESS);               \
		if (HXU_SPACE_##S == HXU_SPACE_TM && unlikely(!HWXDP_TM_OK(a)))                    \
			FAULT(HWXDP_ERR_TM_ACCESS);                                                \
		RD = hwxdp_table__value_addr_cpu(op->x.tab, ADDR_##S(a), e->cpu);                  \
		NEXT;                                                                              \
	}                                                                                          \
	L_TLOOKUP_PORT_##S:                                                                        \
	{                                                                                          \
		uint64_t a = RS;                                                                   \
		CHECK_##S(a, 4);                                                                   \
		RD = hwxdp_table__port_addr(op->x.tab, ld32(ADDR_##S(a)));                         \
		NEXT;                                                                              \
	}

/* Fused handlers: the branch's condition and target come from the record
 * after op's. */
#define FUSED_LOAD(A, N, EXPR)                                                                     \
	FUSED_LOAD_CC(A, N, EXPR, EQ, v == b)                                                      \
	FUSED_LOAD_CC(A, N, EXPR, NE, v != b)                                                      \
	FUSED_LOAD_CC(A, N, EXPR, GT, v > b)                                                       \
	FUSED_LOAD_CC(A, N, EXPR, GE, v >= b)                                                      \
	FUSED_LOAD_CC(A, N, EXPR, LT, v < b)                                                       \
	FUSED_LOAD_CC(A, N, EXPR, LE, v <= b)                                                      \
	FUSED_LOAD_CC(A, N, EXPR, SET, (v & b) != 0)
#define FUSED_LOAD_CC(A, N, EXPR, CC, COND)                                                        \
	L_F_##A##_##CC:                                                                            \
	{                                                                                          \
		uint64_t a = RS + OFF, v, b;                                                       \
		const uint8_t *p;                                                                  \
		CHECK_PKT(a, N);                                                                   \
		p = win + a;                                                                       \
		v = (EXPR);                                                                        \
		RD = v;                                                                            \
		b = (uint64_t)(int64_t)op[1].imm;                                                  \
		JUMP((COND) ? op[1].x.target : op + 2);                                            \
	}
#define FUSED_LOOKUP(A, FIRST)                                                                     \
	L_F_##A##_EQ:                                                                              \
	{                                                                                          \
		uint64_t v;                                                                        \
		FIRST;                                                                             \
		RD = v;                                                                            \
		JUMP(v == (uint64_t)(int64_t)op[1].imm ? op[1].x.target : op + 2);                 \
	}                                                                                          \
	L_F_##A##_NE:                                                                              \
	{                                                                                          \
		uint64_t v;                                                                        \
		FIRST;                                                                             \
		RD = v;                                                                            \
		JUMP(v != (uint64_t)(int64_t)op[1].imm ? op[1].x.target : op + 2);                 \
	}

/*
 * Runs from op until the frame ends. Called once with e == NULL to publish
 * the handlers' addresses, which only this function can take.
 */
/* Each handler keeps its own dispatch jump, which the branch predictor
 * learns separately: no merging of identical handler tails (gcc's words;
 * clang keeps them apart anyway). */
#if defined(__GNUC__) && !defined(__clang__)
#define EXEC_ATTRS __attribute__((optimize("no-crossjumping", "no-gcse")))
#else
#define EXEC_ATTRS
#endif
EXEC_ATTRS static int exec(struct hwxdp_engine *e, const struct form *form, const struct xop *op,
			   struct hwxdp_frame *f, uint32_t tx, struct hwxdp_run_stats *stats)
{
	static const void *const labels[H__MAX] = {
#define X(name) [H_##name] = &&L_##name,
		HANDLERS(X)
#undef X
	};
	uint64_t *r;
	struct return_frame rstack[HXU_RSTACK_DEPTH];
	struct frame_bounds b;
	uint8_t *win, *lm;
	uint64_t ops = 0, bundles = 0, cycles = 0;
	uint32_t budget = HWXDP_ENGINE_LOOP_BUDGET, depth = 0, tail_calls = 0;
	uint32_t egress = HWXDP_EGRESS_NONE, egress_prog = HWXDP_PROG_NONE, reason = 0;
	int err = 0;

	if (!e) {
		__atomic_store_n(&handler_addr, labels, __ATOMIC_RELEASE);
		return 0;
	}
	win = f->window;
	lm = e->lm;
	r = e->r;
	r[1] = 0;
	b.data = f->data;
	b.data_end = f->data_end;
	b.data_meta = f->data_meta;
	r[HXU_REG_FP] = HXU_LM_FRAME;
	DISPATCH;

	ALU(ADD, a + b, a + b)
	ALU(SUB, a - b, a - b)
	ALU(MUL, a * b, a * b)
	ALU(DIV, b ? a / b : 0, b ? a / b : 0)
	ALU(MOD, b ? a % b : a, b ? a % b : a)
	ALU(SDIV, sdiv64(a, b), sdiv32(a, b))
	ALU(SMOD, smod64(a, b), smod32(a, b))
	ALU(AND, a & b, a & b)
	ALU(OR, a | b, a | b)
	ALU(XOR, a ^ b, a ^ b)
	ALU(LSH, a << (b & 63), a << (b & 31))
	ALU(RSH, a >> (b & 63), a >> (b & 31))
	ALU(ARSH, (uint64_t)((int64_t)a >> (b & 63)), (uint32_t)((int32_t)a >> (b & 31)))

L_NEG64:
	RD = 0 - RS;
	NEXT;
L_NEG32:
	RD = (uint32_t)(0 - (uint32_t)RS);
	NEXT;
L_MOV64X:
	RD = RS;
	NEXT;
L_MOV32X:
	RD = (uint32_t)RS;
	NEXT;
L_MOVK:
	RD = op->x.u;
	NEXT;
L_MOVSX8:
	RD = (uint64_t)(int64_t)(int8_t)RS;
	NEXT;
L_MOVSX16:
	RD = (uint64_t)(int64_t)(int16_t)RS;
	NEXT;
L_MOVSX32:
	RD = (uint64_t)(int64_t)(int32_t)RS;
	NEXT;
L_MOVSX8W:
	RD = (uint32_t)(int32_t)(int8_t)RS;
	NEXT;
L_MOVSX16W:
	RD = (uint32_t)(int32_t)(int16_t)RS;
	NEXT;
L_BSWAP16:
	RD = __builtin_bswap16((uint16_t)RS);
	NEXT;
L_BSWAP32:
	RD = __builtin_bswap32((uint32_t)RS);
	NEXT;
L_BSWAP64:
	RD = __builtin_bswap64(RS);
	NEXT;
L_ZEXT16:
	RD = (uint16_t)RS;
	NEXT;
L_ZEXT32:
	RD = (uint32_t)RS;
	NEXT;

	MEM_SPACE(PKT)
	MEM_SPACE(LM)
	MEM_SPACE(TM)
	MEM_SPACE(LMFP)

L_ATOMIC_LM : {
	uint64_t a = RS + OFF;

	CHECK_LM(a, op->aux & 0x20 ? 8 : 4);
	do_atomic(lm + a, op->aux, RT, &RD);
	NEXT;
}
L_ATOMIC_TM:
	CHECK_TM(RS + OFF, 0);
	do_atomic(ADDR_TM(RS + OFF), op->aux, RT, &RD);
	NEXT;
L_ATOMIC_ADD64_TM:
	CHECK_TM(RS + OFF, 0);
	__atomic_fetch_add((uint64_t *)ADDR_TM(RS + OFF), RT, __ATOMIC_SEQ_CST);
	NEXT;

	BRANCH(EQ, a == b)
	BRANCH(NE, a != b)
	BRANCH(GT, a > b)
	BRANCH(GE, a >= b)
	BRANCH(LT, a < b)
	BRANCH(LE, a <= b)
	BRANCH(SGT, (S)a > (S)b)
	BRANCH(SGE, (S)a >= (S)b)
	BRANCH(SLT, (S)a < (S)b)
	BRANCH(SLE, (S)a <= (S)b)
	BRANCH(SET, (a & b) != 0)

L_JMP:
	JUMP(op->x.target);
L_LCHK:
	JUMP(b.data + OFF > b.data_end ? op->x.target : op + 1);
L_LCHKR:
	JUMP(RS + OFF > b.data_end ? op->x.target : op + 1);
L_CALL:
	if (unlikely(depth == HXU_RSTACK_DEPTH - 1))
		FAULT(HWXDP_ERR_CALL_DEPTH);
	rstack[depth].ret = op + 1;
	memcpy(rstack[depth].saved, &r[6], sizeof(rstack[depth].saved));
	depth++;
	r[HXU_REG_FP] += HXU_LM_FRAME;
	JUMP(op->x.target);
L_RET:
	if (unlikely(!depth))
		FAULT(HWXDP_ERR_RET_EMPTY);
do_ret:
	depth--;
	memcpy(&r[6], rstack[depth].saved, sizeof(rstack[depth].saved));
	r[HXU_REG_FP] -= HXU_LM_FRAME;
	JUMP(rstack[depth].ret);
L_EXIT:
	/* A program reached by a tail call from a function returns to that
	 * function's caller, as BPF's exit does. */
	if (depth)
		goto do_ret;
	f->verdict = (uint32_t)r[0];
	goto done;
L_TCALL : {
	uint32_t index = (uint32_t)RS, prog;

	if (index < op->x.tab->desc.max_entries && tail_calls < HXU_TAIL_CALL_MAX) {
		tail_calls++;
		prog = hwxdp_table__prog(op->x.tab, index);
		if (prog < e->prog_cnt)
			JUMP(form->entry[prog]);
	}
	NEXT;
}

	TLOOKUP(PKT)
	TLOOKUP(LM)
	TLOOKUP(TM)
L_TINDEX:
	RD = hwxdp_table__array_addr(op->x.tab, (uint32_t)RS);
	NEXT;
L_TUPDATE : {
	const struct hwxdp_table *t = op->x.tab;
	uint8_t *key = space_ptr(op->aux & 3, RS, t->desc.key_size, win, lm);
	uint8_t *value = space_ptr(op->aux >> 2, RT, t->desc.value_size, win, lm);

	if (unlikely(!key || !value))
		FAULT(tupdate_fault(op->aux & 3, key, op->aux >> 2, value));
	RD = (uint64_t)(int64_t)hwxdp_table__update_elem_cpu(op->x.tab, key, value,
							     (uint32_t)op->imm, e->cpu);
	NEXT;
}
L_TDELETE : {
	uint8_t *key = space_ptr(op->aux, RS, op->x.tab->desc.key_size, win, lm);

	if (unlikely(!key))
		FAULT(op->aux == HXU_SPACE_LM	? HWXDP_ERR_LM_ACCESS
		      : op->aux == HXU_SPACE_TM ? HWXDP_ERR_TM_ACCESS
						: HWXDP_ERR_PKT_ACCESS);
	RD = (uint64_t)(int64_t)hwxdp_table__delete(op->x.tab, key);
	NEXT;
}
L_TLOOKUPR : {
	struct hwxdp_table *t = hwxdp_table__inner(op->x.tab, RT);
	uint8_t *key;

	if (unlikely(!t))
		FAULT(HWXDP_ERR_TM_ACCESS);
	key = space_ptr(op->aux, RS, t->desc.key_size, win, lm);
	if (unlikely(!key))
		FAULT(key_fault(op->aux));
	RD = hwxdp_table__value_addr_cpu(t, key, e->cpu);
	NEXT;
}
L_TUPDATER : {
	struct hwxdp_table *t = hwxdp_table__inner(op->x.tab, r[op->aux >> 4]);
	uint8_t *key, *value;

	if (unlikely(!t))
		FAULT(HWXDP_ERR_TM_ACCESS);
	key = space_ptr(op->aux & 3, RS, t->desc.key_size, win, lm);
	value = space_ptr((op->aux >> 2) & 3, RT, t->desc.value_size, win, lm);
	if (unlikely(!key || !value))
		FAULT(tupdate_fault(op->aux & 3, key, (op->aux >> 2) & 3, value));
	RD = (uint64_t)(int64_t)hwxdp_table__update_elem_cpu(t, key, value, (uint32_t)op->imm,
							     e->cpu);
	NEXT;
}
L_TDELETER : {
	struct hwxdp_table *t = hwxdp_table__inner(op->x.tab, RT);
	uint8_t *key;

	if (unlikely(!t))
		FAULT(HWXDP_ERR_TM_ACCESS);
	key = space_ptr(op->aux, RS, t->desc.key_size, win, lm);
	if (unlikely(!key))
		FAULT(key_fault(op->aux));
	RD = (uint64_t)(int64_t)hwxdp_table__delete(t, key);
	NEXT;
}
L_REDIR:
	RD = redirect(op->x.tab, (uint32_t)RS, (uint32_t)op->imm, &egress, &egress_prog);
	NEXT;
L_REDIR_RT:
	RD = redirect(op->x.tab, (uint32_t)RS, RT, &egress, &egress_prog);
	NEXT;
L_REDIRIF:
	RD = redirect_ifindex(RS, RT, &egress, &egress_prog);
	NEXT;
L_CSUMD : {
	int e = run_csumd(op->aux, &r[1], win, lm, &RD);

	if (unlikely(e)) {
		err = e;
		goto fault;
	}
	cycles += (r[2] + 15) / 16 + (r[4] + 15) / 16;
	NEXT;
}
L_HADJ:
	RD = (uint64_t)adjust_head(&b, win, (int32_t)RS);
	NEXT;
L_MADJ:
	RD = (uint64_t)adjust_meta(&b, (int32_t)RS);
	NEXT;
L_TADJ:
	RD = (uint64_t)adjust_tail(&b, win, (int32_t)RS);
	NEXT;
L_CSUM16 : {
	uint64_t a = RS + OFF;

	CHECK_PKT(a, 2);
	csum16_apply(win + a, RT);
	NEXT;
}
L_ESP:
	RD = (uint64_t)run_esp_ordered(e->tables, &b, win, RS, RT, &cycles, f->esp_order);
	NEXT;
L_PUNT:
	reason = (uint32_t)op->imm;
	f->verdict = XDP_PASS;
	goto done;
L_TIME:
	RD = time_ns(op->aux);
	NEXT;
L_RAND:
	RD = (uint32_t)(rand_next(&e->rand_state) >> 32);
	NEXT;
L_CPU:
	RD = e->cpu;
	NEXT;
L_CTX_DATA:
	RD = b.data;
	NEXT;
L_CTX_DATA_END:
	RD = b.data_end;
	NEXT;
L_CTX_DATA_META:
	RD = b.data_meta;
	NEXT;
L_CTX_INGRESS:
	RD = f->ingress;
	NEXT;
L_CTX_RX_QUEUE:
	RD = f->rx_queue;
	NEXT;
L_CTX_EGRESS:
	RD = tx;
	NEXT;

	FUSED_LOAD(LD8, 1, *p)
	FUSED_LOAD(LD16, 2, ld16(p))
	FUSED_LOAD(LD32, 4, ld32(p))
	FUSED_LOAD(LD16BE, 2, __builtin_bswap16(ld16(p)))
	FUSED_LOAD(LD32BE, 4, __builtin_bswap32(ld32(p)))
	FUSED_LOOKUP(TLOOKUP_HASH, {
		if (unlikely(RS > (uint32_t)op->imm))
			FAULT(HWXDP_ERR_LM_ACCESS);
		v = (uint64_t)(uintptr_t)hwxdp_hash__lookup(op->x.tab->hash, lm + RS);
	})
	FUSED_LOOKUP(TLOOKUP_ARRAY, {
		CHECK_LM(RS, 4);
		v = hwxdp_table__array_addr(op->x.tab, ld32(lm + RS));
	})
	FUSED_LOOKUP(TLOOKUP_PORT, {
		CHECK_LM(RS, 4);
		v = hwxdp_table__port_addr(op->x.tab, ld32(lm + RS));
	})
	FUSED_LOOKUP(TINDEX, v = hwxdp_table__array_addr(op->x.tab, (uint32_t)RS);)

L_COUNT:
	bundles += (uint32_t)op->imm;
	ops += op->x.u >> 32;
	cycles += (uint32_t)op->x.u;
	NEXT;
L_BUDGET:
	if (unlikely(!--budget))
		FAULT(HWXDP_ERR_LOOP_BUDGET);
	NEXT;
L_FELL_OFF:
	FAULT(HWXDP_ERR_FELL_OFF);

fault:
	f->verdict = XDP_ABORTED;
	f->fault_op = form->info[op - form->ops].word;
	if (stats)
		uncount_rest(form, op, &ops, &bundles, &cycles);
done:
	f->data = (uint32_t)b.data;
	f->data_end = (uint32_t)b.data_end;
	f->data_meta = (uint32_t)b.data_meta;
	f->egress = egress;
	f->egress_prog = egress_prog;
	f->reason = reason;
	f->error = err;
	if (!err)
		f->fault_op = 0;
	if (stats) {
		stats->ops = ops;
		stats->bundles = bundles;
		stats->cycles = cycles;
	}
	return err;
}

/* ---- the engine ---- */

/* What compiled mode needs: the image and the order in which the
 * interpreter runs its operations. */
static int keep_compile_src(struct hwxdp_engine *e, const struct checker *c, const uint8_t *leader,
			    const uint8_t *loop_header)
{
	struct hwxdp_compile_step *steps = calloc(c->op_cnt, sizeof(*steps));
	uint32_t *order = calloc(c->op_cnt, sizeof(*order));

	if (steps && order) {
		bundle_order(c, order);
		for (uint32_t i = 0; i < c->op_cnt; i++) {
			const struct decoded *d = &c->ops[i];

			steps[i].label = d->bundle_start ? d->word : HWXDP_COMPILE_NO_LABEL;
			steps[i].word = c->ops[order[i]].word;
			steps[i].budget = d->bundle_start && loop_header[d->word];
			steps[i].bundle_start = d->bundle_start;
			steps[i].leader = leader[d->word];
			steps[i].latency = op_latency(&c->ops[order[i]].op, e->tables);
		}
		e->compile_src = hwxdp_compile_src__new(c->img, steps, c->op_cnt);
	}
	free(steps);
	free(order);
	return e->compile_src ? 0 : -ENOMEM;
}

int hwxdp_engine__set_mode(struct hwxdp_engine *e, enum hwxdp_engine_mode mode)
{
	if (hwxdp_engine_mode__resolve(mode) == HWXDP_ENGINE_INTERP) {
		hwxdp_compiled__free(e->compiled);
		e->compiled = NULL;
		return 0;
	}
	if (!e->compiled) {
		e->compiled = hwxdp_compiled__new(e->compile_src, e->tables, e->lm, &e->rand_state);
		if (!e->compiled && errno == ENOMEM)
			return -ENOMEM;
	}
	return 0;
}

enum hwxdp_engine_mode hwxdp_engine__mode(const struct hwxdp_engine *e)
{
	return e->compiled ? HWXDP_ENGINE_COMPILED : HWXDP_ENGINE_INTERP;
}

struct hwxdp_engine *hwxdp_engine__new(const struct hxu_image *img, struct hwxdp_tables *tables)
{
	struct checker c = { .img = img, .tables = tables, .record = true };
	struct hwxdp_engine *e = NULL;
	uint8_t *leader = NULL, *loop_header = NULL;
	int err;

	if (!img || !tables) {
		errno = EINVAL;
		return NULL;
	}
	exec(NULL, NULL, NULL, NULL, 0, NULL);
	err = check_image(&c);
	if (err)
		goto out;

	err = -ENOMEM;
	leader = calloc(img->op_cnt + 1, 1);
	loop_header = calloc(img->op_cnt + 1, 1);
	e = aligned_alloc(64, (sizeof(*e) + 63) & ~(size_t)63);
	if (!leader || !loop_header || !e)
		goto out;
	memset(e, 0, sizeof(*e));
	e->tables = tables;
	e->prog_cnt = img->prog_cnt;
	if (getrandom(&e->rand_state, sizeof(e->rand_state), 0) != sizeof(e->rand_state))
		e->rand_state = (uint64_t)(uintptr_t)e;

	for (uint32_t i = 0; i < img->prog_cnt; i++)
		leader[img->progs[i].entry] = 1;
	for (uint32_t i = 0; i < c.op_cnt; i++) {
		const struct decoded *d = &c.ops[i];
		uint32_t next = d->word + hxu_op_words(d->op.opcode);

		if (has_target(d->op.opcode)) {
			leader[(uint32_t)d->op.imm] = 1;
			if (d->op.opcode != HXU_OP_CALL && (uint32_t)d->op.imm <= d->word)
				loop_header[(uint32_t)d->op.imm] = 1;
		}
		if (hxu_op_is_control(d->op.opcode) && next < img->op_cnt)
			leader[next] = 1;
	}
	err = build_form(&e->counted, &c, leader, loop_header, true, tables);
	if (!err)
		err = build_form(&e->plain, &c, leader, loop_header, false, tables);
	if (!err)
		err = keep_compile_src(e, &c, leader, loop_header);
	if (!err)
		err = hwxdp_engine__set_mode(e, hwxdp_engine__default_mode());
out:
	free(leader);
	free(loop_header);
	checker_fini(&c);
	if (err) {
		hwxdp_engine__free(e);
		errno = err == -ENOMEM ? ENOMEM : EINVAL;
		return NULL;
	}
	return e;
}

void hwxdp_engine__free(struct hwxdp_engine *e)
{
	if (!e)
		return;
	form_free(&e->counted);
	form_free(&e->plain);
	hwxdp_compiled__free(e->compiled);
	hwxdp_compile_src__free(e->compile_src);
	free(e);
}

void hwxdp_engine__set_cpu(struct hwxdp_engine *e, uint32_t cpu)
{
	e->cpu = cpu;
}

void hwxdp_engine__set_rand_seed(struct hwxdp_engine *e, uint64_t seed)
{
	e->rand_state = seed;
}

void hwxdp_frame__place(struct hwxdp_frame *frame, const uint8_t *bytes, uint32_t len)
{
	memset(frame->window, 0, HXU_HEADROOM);
	memcpy(frame->window + HXU_HEADROOM, bytes, len);
	frame->data = frame->data_meta = HXU_HEADROOM;
	frame->data_end = HXU_HEADROOM + len;
}

/* One program on frame, reading tx as its egress ifindex. */
static int run_one(struct hwxdp_engine *e, uint32_t prog, struct hwxdp_frame *frame, uint32_t tx,
		   struct hwxdp_run_stats *stats)
{
	const struct form *form = stats ? &e->counted : &e->plain;

	if (e->compiled)
		return hwxdp_compiled__run(e->compiled, prog, frame, e->cpu, tx, stats);
	return exec(e, form, form->entry[prog], frame, tx, stats);
}

/*
 * A devmap entry's program on a frame bound for ifindex tx, as the kernel's
 * dev_map_bpf_prog_run: the context's egress_ifindex is tx, its ingress
 * ifindex the receiving port's and its rx queue 0 (the kernel's rxq there
 * holds the receiving device alone). XDP_PASS sends the frame as the
 * program left it; any other verdict drops it (the kernel warns of one
 * that is no action and counts it as aborted). The verdict stays the
 * port's, XDP_REDIRECT; the egress is tx, or HWXDP_EGRESS_NONE for a drop.
 */
static int run_entry(struct hwxdp_engine *e, uint32_t prog, struct hwxdp_frame *frame, uint32_t tx,
		     struct hwxdp_run_stats *stats)
{
	struct hwxdp_run_stats more = { 0 };
	uint32_t rx_queue = frame->rx_queue;
	int err;

	frame->rx_queue = 0;
	err = run_one(e, prog, frame, tx, stats ? &more : NULL);
	frame->rx_queue = rx_queue;
	if (stats) {
		stats->ops += more.ops;
		stats->bundles += more.bundles;
		stats->cycles += more.cycles;
	}
	frame->egress_verdict = frame->verdict;
	frame->egress_prog = prog;
	frame->reason = 0;
	if (err)
		return err;
	frame->egress = frame->egress_verdict == XDP_PASS ? tx : HWXDP_EGRESS_NONE;
	frame->verdict = XDP_REDIRECT;
	return 0;
}

int hwxdp_engine__run(struct hwxdp_engine *e, uint32_t prog, struct hwxdp_frame *frame,
		      struct hwxdp_run_stats *stats)
{
	uint32_t entry;
	int err;

	if (unlikely(prog >= e->prog_cnt || !frame->window || frame->data_meta > frame->data ||
		     frame->data > frame->data_end || frame->data_end > HXU_WINDOW_SIZE))
		return -EINVAL;
	err = run_one(e, prog, frame, 0, stats);
	frame->egress_verdict = XDP_PASS;
	entry = frame->egress_prog;
	if (err || frame->verdict != XDP_REDIRECT || entry == HWXDP_PROG_NONE ||
	    hwxdp_egress_is_bcast(frame->egress) || frame->egress == HWXDP_EGRESS_NONE)
		return err;
	/* an entry naming no program of this image: the frame goes nowhere */
	if (entry >= e->prog_cnt || entry == prog) {
		frame->egress_verdict = XDP_ABORTED;
		frame->egress = HWXDP_EGRESS_NONE;
		return 0;
	}
	return run_entry(e, entry, frame, frame->egress, stats);
}

int hwxdp_engine__run_egress(struct hwxdp_engine *e, uint32_t prog, struct hwxdp_frame *frame,
			     uint32_t egress, struct hwxdp_run_stats *stats)
{
	if (unlikely(prog >= e->prog_cnt || !egress || !frame->window ||
		     frame->data_meta > frame->data || frame->data > frame->data_end ||
		     frame->data_end > HXU_WINDOW_SIZE))
		return -EINVAL;
	return run_entry(e, prog, frame, egress, stats);
}
