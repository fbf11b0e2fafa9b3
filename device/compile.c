// SPDX-License-Identifier: GPL-2.0
/*
 * Compiled mode of the packet engine (device/compile.h): C source from an
 * image, the host compiler, a cache, dlopen(), and the callbacks through
 * which compiled code reaches the engine's units.
 *
 * The generated function, per image:
 *
 *   int hxc_run(struct hxc_ctx *c, uint32_t prog)
 *
 * holds r0..r15 and the frame's data, data_end and data_meta in locals,
 * enters program prog through a switch, and runs the operations in the
 * order the interpreter runs them (engine.c may move a load within its
 * bundle; struct hwxdp_compile_step carries that order), so that a frame
 * with two faults in one bundle reports the same one. A label stands for
 * each word a branch, call or entry names, placed where the interpreter's
 * branch lands: before the loop-budget check of a loop header. `call`
 * pushes a call-site number and r6..r9 on a return stack of locals; `ret`
 * (and `exit` at depth above 0) pops them and switches on the site. A
 * fault stores its word and error and leaves through one exit path, which
 * writes the frame's bounds back as the interpreter does.
 *
 * Inline: ALU operations, moves, loads, stores, atomics, branches, lchk,
 * ctx, cpu, the packet and local-memory checks. The ALU helpers that are
 * more than a C operator (signed division, atomics, unaligned access) are
 * engine_ops.h's HXO_INLINE_OPS, pasted into the source: the interpreter
 * runs the same text. Everything else calls back into this file, which
 * calls what the interpreter calls.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "device/compile.h"
#include "device/engine_ops.h"
#include "hwmap/hash.h"
#include "base/file.h"
#include "base/log.h"

#define STRINGIFY(...)	#__VA_ARGS__
#define XSTRINGIFY(...) STRINGIFY(__VA_ARGS__)

/* Bump when the generated code's contract with this file changes in a way
 * its text does not show. */
#define HXC_ABI "hwxdp-compiled-1"

/*
 * The context the generated code gets: the frame, the engine's state and
 * the units. Its text goes into the generated source as well, so both
 * sides read one declaration (and its text is part of the cache key).
 */
/* clang-format off */
#define HXC_CTX_DECL                                                                               \
struct hxc_ctx {                                                                                   \
	uint8_t *win;                                                                              \
	uint8_t *lm;                                                                               \
	uint64_t data, data_end, data_meta;                                                        \
	uint32_t ingress, rx_queue, cpu, egress;                                                   \
	uint32_t verdict, reason, fault_op, tx;                                                    \
	uint32_t egress_prog, pad;                                                                 \
	uint64_t ops, bundles, cycles;                                                             \
	void *tables;                                                                              \
	uint64_t *rand_state;                                                                      \
	uint64_t (*lookup_array)(void *tab, const uint8_t *key);                                   \
	uint64_t (*lookup_hash)(void *tab, const uint8_t *key);                                    \
	uint64_t (*lookup_port)(void *tab, const uint8_t *key);                                    \
	uint64_t (*lookup_table)(struct hxc_ctx *c, void *tab, const uint8_t *key);                \
	uint64_t (*tindex)(void *tab, uint64_t index);                                             \
	uint64_t (*tupdate)(struct hxc_ctx *c, void *tab, const uint8_t *key,                      \
			    const uint8_t *value, uint64_t flags);                                 \
	uint64_t (*tdelete)(void *tab, const uint8_t *key);                                        \
	void *(*inner)(void *outer, uint64_t handle);                                              \
	uint32_t (*tprog)(void *tab, uint32_t index);                                              \
	uint64_t (*redir)(struct hxc_ctx *c, void *tab, uint64_t key, uint64_t flags);             \
	uint64_t (*hadj)(struct hxc_ctx *c, uint64_t delta);                                       \
	uint64_t (*madj)(struct hxc_ctx *c, uint64_t delta);                                       \
	uint64_t (*tadj)(struct hxc_ctx *c, uint64_t delta);                                       \
	void (*csum16)(uint8_t *p, uint64_t v);                                                    \
	uint64_t (*esp)(struct hxc_ctx *c, uint64_t handle, uint64_t l3);                          \
	uint64_t (*redirif)(struct hxc_ctx *c, uint64_t ifindex, uint64_t flags);                  \
	int (*csumd)(struct hxc_ctx *c, uint32_t spaces, const uint64_t *args, uint64_t *out);     \
	uint64_t (*time)(unsigned int clock);                                                      \
	uint64_t (*rand)(struct hxc_ctx *c);                                                       \
	void *tab[256];                                                                            \
};
/* clang-format on */

HXC_CTX_DECL

_Static_assert(HXU_TABLES == 256, "hxc_ctx.tab has one slot per table id");

typedef int (*hxc_fn)(struct hxc_ctx *c, uint32_t prog, int counting);

int hwxdp_compile__test_break;

extern char **environ;

/* ---- the mode ---- */

static enum hwxdp_engine_mode default_mode = HWXDP_ENGINE_INTERP;

enum hwxdp_engine_mode hwxdp_engine_mode__resolve(enum hwxdp_engine_mode mode)
{
	static bool warned;
	const char *env = getenv("HWXDP_ENGINE");

	if (!env || !*env)
		return mode;
	if (!strcmp(env, "compiled"))
		return HWXDP_ENGINE_COMPILED;
	if (!strcmp(env, "interp"))
		return HWXDP_ENGINE_INTERP;
	/* once: every engine made asks */
	if (!__atomic_exchange_n(&warned, true, __ATOMIC_RELAXED))
		pr_warn("HWXDP_ENGINE=%s is not an engine: compiled or interp; the engines run "
			"%s\n",
			env, mode == HWXDP_ENGINE_COMPILED ? "compiled" : "interpreted");
	return mode;
}

void hwxdp_engine__set_default_mode(enum hwxdp_engine_mode mode)
{
	__atomic_store_n(&default_mode, mode, __ATOMIC_RELAXED);
}

enum hwxdp_engine_mode hwxdp_engine__default_mode(void)
{
	return hwxdp_engine_mode__resolve(__atomic_load_n(&default_mode, __ATOMIC_RELAXED));
}

/* ---- what compiling needs ---- */

struct hwxdp_compile_src {
	uint64_t *words;
	uint32_t word_cnt;
	uint32_t *entries;
	uint32_t prog_cnt;
	struct hwxdp_compile_step *steps;
	uint32_t step_cnt;
	struct hxu_table_desc tables[HXU_TABLES]; /* by id; type 0 when absent */
};

struct hwxdp_compile_src *hwxdp_compile_src__new(const struct hxu_image *img,
						 const struct hwxdp_compile_step *steps,
						 uint32_t step_cnt)
{
	struct hwxdp_compile_src *src = calloc(1, sizeof(*src));

	if (!src)
		return NULL;
	src->words = malloc(sizeof(*src->words) * img->op_cnt);
	src->entries = malloc(sizeof(*src->entries) * img->prog_cnt);
	src->steps = malloc(sizeof(*src->steps) * step_cnt);
	if (!src->words || !src->entries || !src->steps) {
		hwxdp_compile_src__free(src);
		errno = ENOMEM;
		return NULL;
	}
	memcpy(src->words, img->ops, sizeof(*src->words) * img->op_cnt);
	src->word_cnt = img->op_cnt;
	for (uint32_t i = 0; i < img->prog_cnt; i++)
		src->entries[i] = img->progs[i].entry;
	src->prog_cnt = img->prog_cnt;
	memcpy(src->steps, steps, sizeof(*steps) * step_cnt);
	src->step_cnt = step_cnt;
	for (uint32_t i = 0; i < img->table_cnt; i++)
		if (img->tables[i].id < HXU_TABLES)
			src->tables[img->tables[i].id] = img->tables[i];
	return src;
}

void hwxdp_compile_src__free(struct hwxdp_compile_src *src)
{
	if (!src)
		return;
	free(src->words);
	free(src->entries);
	free(src->steps);
	free(src);
}

/* ---- C source ---- */

struct text {
	char *s;
	size_t len, cap;
	bool failed;
};

__attribute__((format(printf, 2, 3))) static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->failed)
		return;
	for (;;) {
		va_start(ap, fmt);
		/* an empty text has no buffer, and NULL + 0 is undefined */
		n = vsnprintf(t->s ? t->s + t->len : NULL, t->cap - t->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			t->failed = true;
			return;
		}
		if (t->len + (size_t)n < t->cap) {
			t->len += (size_t)n;
			return;
		}
		size_t cap = (t->cap ? t->cap * 2 : 65536) + (size_t)n;
		char *s = realloc(t->s, cap);

		if (!s) {
			t->failed = true;
			return;
		}
		t->s = s;
		t->cap = cap;
	}
}

/* Counts of a run of operations. */
struct counts {
	uint64_t ops, bundles, cycles;
};

struct gen {
	const struct hwxdp_compile_src *src;
	struct text body;
	uint8_t *is_target; /* per word: a label is needed */
	uint32_t call_sites;
	struct counts *block;  /* per step: it and the rest of its block */
	struct counts uncount; /* what a fault at the current step takes back */
};

/* A fault at word with error expr (a positive code): the frame ends, and
 * its counts lose what the rest of the block would have run. */
static void put_fault_expr(struct gen *g, uint32_t word, const char *expr)
{
	const struct counts *u = &g->uncount;

	put(&g->body, "{ fop = %uu; err = -(%s);", word, expr);
	if (u->ops)
		put(&g->body,
		    " if (counting) { c->ops -= %lluu; c->bundles -= %lluu; c->cycles -= %lluu; }",
		    (unsigned long long)u->ops, (unsigned long long)u->bundles,
		    (unsigned long long)u->cycles);
	put(&g->body, " goto fault; }");
}

static void put_fault(struct gen *g, uint32_t word, int code)
{
	char expr[16];

	snprintf(expr, sizeof(expr), "%d", code);
	put_fault_expr(g, word, expr);
}

static int space_error(unsigned int space)
{
	return space == HXU_SPACE_LM ? HWXDP_ERR_LM_ACCESS : HWXDP_ERR_PKT_ACCESS;
}

/* "if (a is outside space for n bytes) fault;" and p, the access's pointer,
 * for the address in local a. */
static void put_access(struct gen *g, unsigned int space, uint32_t n, uint32_t word, bool check)
{
	uint32_t limit = space == HXU_SPACE_PKT ? HXU_WINDOW_SIZE - n : HXU_LM_SIZE - n;

	if (space != HXU_SPACE_TM && check) {
		put(&g->body, " if (unlikely(a > %uu)) ", limit);
		put_fault(g, word, space_error(space));
	} else if (space == HXU_SPACE_TM) {
		put(&g->body, " if (unlikely(!HWXDP_TM_OK(a))) ");
		put_fault(g, word, HWXDP_ERR_TM_ACCESS);
	}
	put(&g->body, " uint8_t *p = %s;",
	    space == HXU_SPACE_PKT  ? "win + a"
	    : space == HXU_SPACE_LM ? "lm + a"
				    : "(uint8_t *)(uintptr_t)a");
}

static const char *const alu64[] = {
	"a + b",
	"a - b",
	"a * b",
	"b ? a / b : 0",
	"b ? a % b : a",
	"sdiv64(a, b)",
	"smod64(a, b)",
	"a & b",
	"a | b",
	"a ^ b",
	"a << (b & 63)",
	"a >> (b & 63)",
	"(uint64_t)((int64_t)a >> (b & 63))",
};
static const char *const alu32[] = {
	"a + b",
	"a - b",
	"a * b",
	"b ? a / b : 0",
	"b ? a % b : a",
	"sdiv32(a, b)",
	"smod32(a, b)",
	"a & b",
	"a | b",
	"a ^ b",
	"a << (b & 31)",
	"a >> (b & 31)",
	"(uint32_t)((int32_t)a >> (b & 31))",
};

static void put_alu(struct gen *g, const struct hxu_op *op)
{
	bool w = op->flags & HXU_F_W32, k = op->flags & HXU_F_K;
	unsigned int i = op->opcode - HXU_OP_ADD;
	const char *expr = w ? alu32[i] : alu64[i];
	struct text *t = &g->body;

	_Static_assert(sizeof(alu64) / sizeof(alu64[0]) == HXU_OP_ARSH - HXU_OP_ADD + 1,
		       "one expression per ALU operation");
	if (hwxdp_compile__test_break && op->opcode == HXU_OP_SUB && !w && !k)
		expr = "a - b + 1";
	if (w) {
		put(t, "{ uint32_t a = (uint32_t)r%u, b = ", op->rs);
		if (k)
			put(t, "0x%xu", (uint32_t)op->imm);
		else
			put(t, "(uint32_t)r%u", op->rt);
		put(t, "; r%u = (uint32_t)(%s); }", op->rd, expr);
	} else {
		put(t, "{ uint64_t a = r%u, b = ", op->rs);
		if (k)
			put(t, "0x%llxull", (unsigned long long)(int64_t)op->imm);
		else
			put(t, "r%u", op->rt);
		put(t, "; r%u = (uint64_t)(%s); }", op->rd, expr);
	}
}

static void put_alu_other(struct gen *g, const struct hxu_op *op)
{
	bool w = op->flags & HXU_F_W32, k = op->flags & HXU_F_K;
	unsigned int d = op->rd, s = op->rs;
	struct text *t = &g->body;

	switch (op->opcode) {
	case HXU_OP_NEG:
		if (w)
			put(t, "r%u = (uint32_t)(0 - (uint32_t)r%u);", d, s);
		else
			put(t, "r%u = 0 - r%u;", d, s);
		break;
	case HXU_OP_MOV:
		if (k)
			put(t, "r%u = 0x%llxull;", d,
			    (unsigned long long)(w ? (uint64_t)(uint32_t)op->imm
						   : (uint64_t)(int64_t)op->imm));
		else if (w)
			put(t, "r%u = (uint32_t)r%u;", d, s);
		else
			put(t, "r%u = r%u;", d, s);
		break;
	case HXU_OP_MOVI:
		put(t, "r%u = 0x%llxull;", d, (unsigned long long)hxu_movi_value(op));
		break;
	case HXU_OP_MOVSX8:
		put(t,
		    w ? "r%u = (uint32_t)(int32_t)(int8_t)r%u;"
		      : "r%u = (uint64_t)(int64_t)(int8_t)r%u;",
		    d, s);
		break;
	case HXU_OP_MOVSX16:
		put(t,
		    w ? "r%u = (uint32_t)(int32_t)(int16_t)r%u;"
		      : "r%u = (uint64_t)(int64_t)(int16_t)r%u;",
		    d, s);
		break;
	case HXU_OP_MOVSX32:
		put(t, "r%u = (uint64_t)(int64_t)(int32_t)r%u;", d, s);
		break;
	case HXU_OP_BSWAP16:
		put(t, "r%u = __builtin_bswap16((uint16_t)r%u);", d, s);
		break;
	case HXU_OP_BSWAP32:
		put(t, "r%u = __builtin_bswap32((uint32_t)r%u);", d, s);
		break;
	case HXU_OP_BSWAP64:
		put(t, "r%u = __builtin_bswap64(r%u);", d, s);
		break;
	case HXU_OP_ZEXT16:
		put(t, "r%u = (uint16_t)r%u;", d, s);
		break;
	case HXU_OP_ZEXT32:
		put(t, "r%u = (uint32_t)r%u;", d, s);
		break;
	}
}

/* engine.c's frame_relative: an r10 access inside the frame below it never
 * leaves local memory and is not checked there either. */
static bool frame_relative(const struct hxu_op *op)
{
	int64_t size = hxu_mem_size(op->flags);

	return hxu_mem_space(op->opcode) == HXU_SPACE_LM && op->rs == HXU_REG_FP &&
	       op->imm >= -HXU_LM_FRAME && op->imm <= -size;
}

static void put_mem(struct gen *g, const struct hxu_op *op, uint32_t word)
{
	static const char *const load[4][2] = { { "*p", "*p" },
						{ "ld16(p)", "__builtin_bswap16(ld16(p))" },
						{ "ld32(p)", "__builtin_bswap32(ld32(p))" },
						{ "ld64(p)", "__builtin_bswap64(ld64(p))" } };
	static const char *const sx[4] = { "int8_t", "int16_t", "int32_t", "int64_t" };
	static const char *const store[4] = { "*p = (uint8_t)(%s);", "st16(p, (uint16_t)(%s));",
					      "st32(p, (uint32_t)(%s));",
					      "st64(p, (uint64_t)(%s));" };
	static const char *const swap[4] = { "", "__builtin_bswap16((uint16_t)",
					     "__builtin_bswap32((uint32_t)",
					     "__builtin_bswap64((uint64_t)" };
	unsigned int kind = hxu_mem_kind(op->opcode), space = hxu_mem_space(op->opcode);
	unsigned int lg = (op->flags >> HXU_F_SIZE_SHIFT) & 3, be = op->flags & HXU_F_BE;
	uint32_t n = hxu_mem_size(op->flags);
	struct text *t = &g->body;
	char value[64];

	put(t, "{ uint64_t a = r%u + 0x%llxull;", op->rs, (unsigned long long)(int64_t)op->imm);
	if (kind == HXU_OP_ATOMIC) {
		unsigned int aux =
			op->x | (op->flags & HXU_F_FETCH ? 0x10 : 0) | (n == 8 ? 0x20 : 0);

		put_access(g, space, n, word, true);
		put(t, " do_atomic(p, 0x%xu, r%u, &r%u); }", aux, op->rt, op->rd);
		return;
	}
	put_access(g, space, n, word, !frame_relative(op));
	switch (kind) {
	case HXU_OP_LD:
		put(t, " r%u = %s; }", op->rd, load[lg][be]);
		break;
	case HXU_OP_LDSX:
		put(t, " r%u = (uint64_t)(int64_t)(%s)%s; }", op->rd, sx[lg], load[lg][be]);
		break;
	case HXU_OP_ST:
		if (be)
			snprintf(value, sizeof(value), "%sr%u)", swap[lg], op->rt);
		else
			snprintf(value, sizeof(value), "r%u", op->rt);
		put(t, " ");
		put(t, store[lg], value);
		put(t, " }");
		break;
	default: {
		uint64_t v = (uint64_t)(int64_t)(int32_t)op->ext;

		snprintf(value, sizeof(value), "0x%llxull",
			 (unsigned long long)(be ? swap_for_store(v, n) : v));
		put(t, " ");
		put(t, store[lg], value);
		put(t, " }");
	}
	}
}

static void put_branch(struct gen *g, const struct hxu_op *op)
{
	static const char *const cmp[HXU_CC__MAX] = { "==", "!=", ">", ">=", "<", "<=",
						      ">",  ">=", "<", "<=", "&" };
	bool w = op->flags & HXU_F_W32, sgn = op->x >= HXU_CC_SGT && op->x <= HXU_CC_SLE;
	const char *cast =
		w ? (sgn ? "(int32_t)(uint32_t)" : "(uint32_t)") : (sgn ? "(int64_t)" : "");
	struct text *t = &g->body;
	char rhs[64];

	if (op->opcode == HXU_OP_BR)
		snprintf(rhs, sizeof(rhs), "%sr%u", cast, op->rt);
	else if (w)
		snprintf(rhs, sizeof(rhs), "%s0x%xu", sgn ? "(int32_t)" : "", op->ext);
	else
		snprintf(rhs, sizeof(rhs), "%s0x%llxull", sgn ? "(int64_t)" : "",
			 (unsigned long long)(int64_t)(int32_t)op->ext);
	if (op->x == HXU_CC_SET)
		put(t, "if ((%sr%u & %s) != 0) goto L%u;", cast, op->rs, rhs, (uint32_t)op->imm);
	else
		put(t, "if (%sr%u %s %s) goto L%u;", cast, op->rs, cmp[op->x], rhs,
		    (uint32_t)op->imm);
}

/* Stores the frame's bounds where a unit reads them, and reads them back. */
#define SYNC_OUT "c->data = data; c->data_end = data_end; c->data_meta = data_meta;"
#define SYNC_IN	 "data = c->data; data_end = c->data_end; data_meta = c->data_meta;"

/* A key (or value) pointer kp for n bytes at register reg of space. */
static void put_key(struct gen *g, const char *name, unsigned int space, unsigned int reg,
		    uint32_t n)
{
	put(&g->body, " uint8_t *%s = space_ptr(%u, r%u, %uu, win, lm);", name, space, reg, n);
}

static void put_unit(struct gen *g, const struct hxu_op *op, uint32_t word)
{
	const struct hxu_table_desc *td = &g->src->tables[op->x];
	unsigned int space = op->flags & 3;
	struct text *t = &g->body;
	char expr[64];
	uint32_t n;

	switch (op->opcode) {
	case HXU_OP_TLOOKUP: {
		bool port = td->type == BPF_MAP_TYPE_DEVMAP_HASH || td->type == BPF_MAP_TYPE_DEVMAP;
		const char *fn = td->type == BPF_MAP_TYPE_ARRAY	 ? "lookup_array"
				 : port				 ? "lookup_port"
				 : td->type == BPF_MAP_TYPE_HASH ? "lookup_hash"
								 : "lookup_table";
		bool with_ctx = !strcmp(fn, "lookup_table");

		n = td->type == BPF_MAP_TYPE_ARRAY || port ? 4 : td->key_size;
		put(t, "{ uint64_t a = r%u;", op->rs);
		put_access(g, space, n, word, true);
		put(t, " r%u = c->%s(%sc->tab[%u], p); }", op->rd, fn, with_ctx ? "c, " : "",
		    op->x);
		break;
	}
	case HXU_OP_TINDEX:
		put(t, "r%u = c->tindex(c->tab[%u], (uint32_t)r%u);", op->rd, op->x, op->rs);
		break;
	case HXU_OP_TUPDATE: {
		unsigned int vspace = ((uint32_t)op->imm >> HXU_TUPDATE_VSPACE_SHIFT) & 3;

		put(t, "{");
		put_key(g, "kp", space, op->rs, td->key_size);
		put_key(g, "vp", vspace, op->rt, td->value_size);
		snprintf(expr, sizeof(expr), "tupdate_fault(%u, kp, %u, vp)", space, vspace);
		put(t, " if (unlikely(!kp || !vp)) ");
		put_fault_expr(g, word, expr);
		put(t, " r%u = c->tupdate(c, c->tab[%u], kp, vp, 0x%xu); }", op->rd, op->x,
		    (uint32_t)op->imm & HXU_TUPDATE_FLAGS_MASK);
		break;
	}
	case HXU_OP_TDELETE:
		put(t, "{");
		put_key(g, "kp", space, op->rs, td->key_size);
		put(t, " if (unlikely(!kp)) ");
		put_fault(g, word, space_error(space));
		put(t, " r%u = c->tdelete(c->tab[%u], kp); }", op->rd, op->x);
		break;
	case HXU_OP_TLOOKUPR:
	case HXU_OP_TUPDATER:
	case HXU_OP_TDELETER: {
		unsigned int vspace = ((uint32_t)op->imm >> HXU_TUPDATE_VSPACE_SHIFT) & 3;

		/* the handle first, then the key (and value): the interpreter's order */
		put(t, "{ void *it = c->inner(c->tab[%u], r%u);", op->x, hxu_handle_reg(op));
		put(t, " if (unlikely(!it)) ");
		put_fault(g, word, HWXDP_ERR_TM_ACCESS);
		put_key(g, "kp", space, op->rs, td->inner.key_size);
		if (op->opcode == HXU_OP_TUPDATER) {
			put_key(g, "vp", vspace, op->rt, td->inner.value_size);
			snprintf(expr, sizeof(expr), "tupdate_fault(%u, kp, %u, vp)", space,
				 vspace);
			put(t, " if (unlikely(!kp || !vp)) ");
			put_fault_expr(g, word, expr);
			put(t, " r%u = c->tupdate(c, it, kp, vp, 0x%xu); }", op->rd,
			    (uint32_t)op->imm & HXU_TUPDATE_FLAGS_MASK);
			break;
		}
		put(t, " if (unlikely(!kp)) ");
		put_fault(g, word, space_error(space));
		if (op->opcode == HXU_OP_TLOOKUPR)
			put(t, " r%u = c->lookup_table(c, it, kp); }", op->rd);
		else
			put(t, " r%u = c->tdelete(it, kp); }", op->rd);
		break;
	}
	case HXU_OP_REDIR:
		if (op->imm == HXU_REDIR_FLAGS_RT)
			put(t, "r%u = c->redir(c, c->tab[%u], r%u, r%u);", op->rd, op->x, op->rs,
			    op->rt);
		else
			put(t, "r%u = c->redir(c, c->tab[%u], r%u, 0x%xu);", op->rd, op->x, op->rs,
			    (uint32_t)op->imm);
		break;
	case HXU_OP_HADJ:
	case HXU_OP_MADJ:
	case HXU_OP_TADJ:
		put(t, SYNC_OUT " r%u = c->%s(c, r%u); " SYNC_IN, op->rd,
		    op->opcode == HXU_OP_HADJ	? "hadj"
		    : op->opcode == HXU_OP_MADJ ? "madj"
						: "tadj",
		    op->rs);
		break;
	case HXU_OP_ESP:
		put(t, SYNC_OUT " r%u = c->esp(c, r%u, r%u); " SYNC_IN, op->rd, op->rs, op->rt);
		break;
	case HXU_OP_CSUM16:
		put(t, "{ uint64_t a = r%u + 0x%llxull;", op->rs,
		    (unsigned long long)(int64_t)op->imm);
		put_access(g, HXU_SPACE_PKT, 2, word, true);
		put(t, " c->csum16(p, r%u); }", op->rt);
		break;
	case HXU_OP_PUNT:
		put(t, "c->reason = 0x%xu; c->verdict = %u; goto done;", (uint32_t)op->imm,
		    XDP_PASS);
		break;
	case HXU_OP_TIME:
		put(t, "r%u = c->time(%uu);", op->rd, op->x);
		break;
	case HXU_OP_RAND:
		put(t, "r%u = c->rand(c);", op->rd);
		break;
	case HXU_OP_CPU:
		put(t, "r%u = c->cpu;", op->rd);
		break;
	case HXU_OP_REDIRIF:
		put(t, "r%u = c->redirif(c, r%u, r%u);", op->rd, op->rs, op->rt);
		break;
	case HXU_OP_CSUMD:
		put(t, "{ const uint64_t args[5] = { r1, r2, r3, r4, r5 }; uint64_t out;");
		put(t, " int e = c->csumd(c, 0x%xu, args, &out);", op->x);
		put(t, " if (unlikely(e)) ");
		put_fault_expr(g, word, "-e");
		put(t, " r%u = out; }", op->rd);
		break;
	case HXU_OP_CTX: {
		static const char *const field[HXU_CTX__MAX] = {
			"data", "data_end", "data_meta", "c->ingress", "c->rx_queue", "c->tx",
		};

		put(t, "r%u = %s;", op->rd, field[op->x]);
		break;
	}
	}
}

static void put_control(struct gen *g, const struct hxu_op *op, uint32_t word)
{
	struct text *t = &g->body;

	switch (op->opcode) {
	case HXU_OP_BR:
	case HXU_OP_BRI:
		put_branch(g, op);
		break;
	case HXU_OP_JMP:
		put(t, "goto L%u;", (uint32_t)op->imm);
		break;
	case HXU_OP_LCHK:
		if (op->flags & HXU_F_LCHK_REG)
			put(t, "if (r%u + 0x%llxull > data_end) goto L%u;", op->rs,
			    (unsigned long long)(int64_t)(int32_t)op->ext, (uint32_t)op->imm);
		else
			put(t, "if (data + 0x%llxull > data_end) goto L%u;",
			    (unsigned long long)(int64_t)(int32_t)op->ext, (uint32_t)op->imm);
		break;
	case HXU_OP_CALL:
		put(t, "if (unlikely(depth == %u)) ", HXU_RSTACK_DEPTH - 1);
		put_fault(g, word, HWXDP_ERR_CALL_DEPTH);
		put(t,
		    " site[depth] = %u; s6[depth] = r6; s7[depth] = r7; s8[depth] = r8;"
		    " s9[depth] = r9; depth++; r10 += %u; goto L%u; R%u:;",
		    g->call_sites, HXU_LM_FRAME, (uint32_t)op->imm, g->call_sites);
		g->call_sites++;
		break;
	case HXU_OP_RET:
		put(t, "if (unlikely(!depth)) ");
		put_fault(g, word, HWXDP_ERR_RET_EMPTY);
		put(t, " goto do_ret;");
		break;
	case HXU_OP_EXIT:
		put(t, "if (depth) goto do_ret; c->verdict = (uint32_t)r0; goto done;");
		break;
	case HXU_OP_TCALL: {
		const struct hxu_table_desc *td = &g->src->tables[op->x];

		put(t, "{ uint32_t index = (uint32_t)r%u;", op->rs);
		put(t, " if (index < %uu && tail_calls < %u) { tail_calls++;", td->max_entries,
		    HXU_TAIL_CALL_MAX);
		put(t, " switch (c->tprog(c->tab[%u], index)) {", op->x);
		for (uint32_t i = 0; i < g->src->prog_cnt; i++)
			put(t, " case %u: goto L%u;", i, g->src->entries[i]);
		put(t, " } } }");
		break;
	}
	}
}

static void put_op(struct gen *g, const struct hxu_op *op, uint32_t word)
{
	switch (hxu_opcode_class(op->opcode)) {
	case HXU_CLASS_A:
		if (op->opcode <= HXU_OP_ARSH)
			put_alu(g, op);
		else
			put_alu_other(g, op);
		break;
	case HXU_CLASS_M:
		put_mem(g, op, word);
		break;
	case HXU_CLASS_C:
		put_control(g, op, word);
		break;
	case HXU_CLASS_U:
		put_unit(g, op, word);
		break;
	default:
		break;
	}
}

static const char preamble[] =
	"/* hwxdp: HXU microcode compiled to C (" HXC_ABI "). Generated; do not edit. */\n"
	"#include <stdint.h>\n"
	"#define likely(x) __builtin_expect(!!(x), 1)\n"
	"#define unlikely(x) __builtin_expect(!!(x), 0)\n";

char *hwxdp_compile_src__text(const struct hwxdp_compile_src *src)
{
	struct gen g = { .src = src };
	struct text out = {};
	struct hxu_op op = {};

	g.is_target = calloc(src->word_cnt + 1, 1);
	g.block = calloc(src->step_cnt + 1, sizeof(*g.block));
	if (!g.is_target || !g.block) {
		free(g.is_target);
		free(g.block);
		errno = ENOMEM;
		return NULL;
	}
	/* As the interpreter counts: a block's figures where it starts, the
	 * rest of the block taken back where a frame aborts. */
	for (uint32_t i = src->step_cnt; i--;) {
		const struct hwxdp_compile_step *s = &src->steps[i];

		g.block[i] = (struct counts){ 1, s->bundle_start, s->bundle_start + s->latency };
		if (i + 1 < src->step_cnt && !src->steps[i + 1].leader) {
			g.block[i].ops += g.block[i + 1].ops;
			g.block[i].bundles += g.block[i + 1].bundles;
			g.block[i].cycles += g.block[i + 1].cycles;
		}
	}
	for (uint32_t i = 0; i < src->prog_cnt; i++)
		g.is_target[src->entries[i]] = 1;
	for (uint32_t i = 0; i < src->step_cnt; i++) {
		hxu_decode_at(src->words + src->steps[i].word, src->word_cnt - src->steps[i].word,
			      &op);
		if (op.opcode == HXU_OP_BR || op.opcode == HXU_OP_BRI || op.opcode == HXU_OP_JMP ||
		    op.opcode == HXU_OP_CALL || op.opcode == HXU_OP_LCHK)
			g.is_target[(uint32_t)op.imm] = 1;
	}

	for (uint32_t i = 0; i < src->step_cnt; i++) {
		const struct hwxdp_compile_step *s = &src->steps[i];

		if (s->label != HWXDP_COMPILE_NO_LABEL && g.is_target[s->label])
			put(&g.body, "L%u:\n", s->label);
		if (s->leader)
			put(&g.body,
			    "\tif (counting) { c->ops += %lluu; c->bundles += %lluu; "
			    "c->cycles += %lluu; }\n",
			    (unsigned long long)g.block[i].ops,
			    (unsigned long long)g.block[i].bundles,
			    (unsigned long long)g.block[i].cycles);
		if (s->budget) {
			g.uncount = g.block[i];
			put(&g.body, "\tif (unlikely(!--budget)) ");
			put_fault(&g, s->label, HWXDP_ERR_LOOP_BUDGET);
			put(&g.body, "\n");
		}
		g.uncount = g.block[i];
		g.uncount.ops--;
		g.uncount.bundles -= s->bundle_start;
		g.uncount.cycles -= s->bundle_start + s->latency;
		hxu_decode_at(src->words + s->word, src->word_cnt - s->word, &op);
		put(&g.body, "\t");
		put_op(&g, &op, s->word);
		put(&g.body, " /* @%u */\n", s->word);
	}
	/* The interpreter's last record: past the store's end. */
	g.uncount = (struct counts){};
	put(&g.body, "\t");
	put_fault(&g, src->word_cnt, HWXDP_ERR_FELL_OFF);
	put(&g.body, "\n");
	free(g.is_target);
	free(g.block);

	put(&out, "%s", preamble);
	put(&out, "enum { HXU_SPACE_PKT = %d, HXU_SPACE_LM = %d, HXU_SPACE_TM = %d };\n",
	    HXU_SPACE_PKT, HXU_SPACE_LM, HXU_SPACE_TM);
	put(&out,
	    "enum { HXU_ATOMIC_ADD = %d, HXU_ATOMIC_AND = %d, HXU_ATOMIC_OR = %d, "
	    "HXU_ATOMIC_XOR = %d, HXU_ATOMIC_XCHG = %d, HXU_ATOMIC_CMPXCHG = %d };\n",
	    HXU_ATOMIC_ADD, HXU_ATOMIC_AND, HXU_ATOMIC_OR, HXU_ATOMIC_XOR, HXU_ATOMIC_XCHG,
	    HXU_ATOMIC_CMPXCHG);
	put(&out,
	    "enum { HWXDP_ERR_PKT_ACCESS = %d, HWXDP_ERR_LM_ACCESS = %d, "
	    "HWXDP_ERR_TM_ACCESS = %d };\n",
	    HWXDP_ERR_PKT_ACCESS, HWXDP_ERR_LM_ACCESS, HWXDP_ERR_TM_ACCESS);
	put(&out, "#define HWXDP_TM_LOW %uull\n#define HWXDP_TM_HIGH %lluull\n", HWXDP_TM_LOW,
	    (unsigned long long)HWXDP_TM_HIGH);
	put(&out, "#define HWXDP_TM_OK(a) %s\n", XSTRINGIFY(HWXDP_TM_OK(a)));
	put(&out, "%s\n", XSTRINGIFY(HXO_INLINE_OPS));
	put(&out, "%s\n", XSTRINGIFY(HXC_CTX_DECL));
	put(&out, "__attribute__((visibility(\"default\"))) int hxc_run(struct hxc_ctx *c, "
		  "uint32_t prog, int counting);\n");
	put(&out, "int hxc_run(struct hxc_ctx *c, uint32_t prog, int counting)\n{\n");
	put(&out,
	    "\tuint64_t r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0, r7 = 0;\n"
	    "\tuint64_t r8 = 0, r9 = 0, r10 = %u, r11 = 0, r12 = 0, r13 = 0, r14 = 0, "
	    "r15 = 0;\n",
	    HXU_LM_FRAME);
	put(&out,
	    "\tuint8_t *const win = c->win, *const lm = c->lm;\n"
	    "\tuint64_t data = c->data, data_end = c->data_end, data_meta = c->data_meta;\n"
	    "\tuint32_t budget = %uu, fop = 0, depth = 0, tail_calls = 0;\n"
	    "\tint err = 0;\n",
	    HWXDP_ENGINE_LOOP_BUDGET);
	if (g.call_sites)
		put(&out, "\tuint32_t site[%u];\n\tuint64_t s6[%u], s7[%u], s8[%u], s9[%u];\n",
		    HXU_RSTACK_DEPTH, HXU_RSTACK_DEPTH, HXU_RSTACK_DEPTH, HXU_RSTACK_DEPTH,
		    HXU_RSTACK_DEPTH);
	put(&out, "\t(void)lm; (void)data_meta; (void)tail_calls; (void)r1; (void)r10;\n");
	put(&out, "\tswitch (prog) {\n");
	for (uint32_t i = 0; i < src->prog_cnt; i++)
		put(&out, "\tcase %u: goto L%u;\n", i, src->entries[i]);
	put(&out, "\tdefault: return -%d;\n\t}\n", EINVAL);
	put(&out, "%s", g.body.s ? g.body.s : "");
	if (g.call_sites) {
		put(&out,
		    "do_ret:\n\tdepth--; r6 = s6[depth]; r7 = s7[depth]; r8 = s8[depth]; "
		    "r9 = s9[depth]; r10 -= %u;\n\tswitch (site[depth]) {\n",
		    HXU_LM_FRAME);
		for (uint32_t i = 0; i < g.call_sites; i++)
			put(&out, "\tcase %u: goto R%u;\n", i, i);
		put(&out, "\t}\n\t__builtin_unreachable();\n");
	} else {
		/* no call: depth is always 0 and do_ret is never reached */
		put(&out, "do_ret:\n\t__builtin_unreachable();\n");
	}
	put(&out, "fault:\n\tc->verdict = %u; c->fault_op = fop;\n", XDP_ABORTED);
	put(&out, "done:\n\t" SYNC_OUT "\n\treturn err;\n}\n");
	free(g.body.s);
	if (out.failed || g.body.failed) {
		free(out.s);
		errno = ENOMEM;
		return NULL;
	}
	return out.s;
}

/* ---- the units, for compiled code ---- */

static uint64_t cb_lookup_array(void *tab, const uint8_t *key)
{
	return hwxdp_table__array_addr(tab, ld32(key));
}

static uint64_t cb_lookup_hash(void *tab, const uint8_t *key)
{
	return (uint64_t)(uintptr_t)hwxdp_hash__lookup(((struct hwxdp_table *)tab)->hash, key);
}

static uint64_t cb_lookup_port(void *tab, const uint8_t *key)
{
	return hwxdp_table__port_addr(tab, ld32(key));
}

static uint64_t cb_lookup_table(struct hxc_ctx *c, void *tab, const uint8_t *key)
{
	return hwxdp_table__value_addr_cpu(tab, key, c->cpu);
}

static uint64_t cb_tindex(void *tab, uint64_t index)
{
	return hwxdp_table__array_addr(tab, (uint32_t)index);
}

static uint64_t cb_tupdate(struct hxc_ctx *c, void *tab, const uint8_t *key, const uint8_t *value,
			   uint64_t flags)
{
	return (uint64_t)(int64_t)hwxdp_table__update_elem_cpu(tab, key, value, (uint32_t)flags,
							       c->cpu);
}

static uint64_t cb_tdelete(void *tab, const uint8_t *key)
{
	return (uint64_t)(int64_t)hwxdp_table__delete(tab, key);
}

static void *cb_inner(void *outer, uint64_t handle)
{
	return hwxdp_table__inner(outer, handle);
}

static uint32_t cb_tprog(void *tab, uint32_t index)
{
	return hwxdp_table__prog(tab, index);
}

static uint64_t cb_redir(struct hxc_ctx *c, void *tab, uint64_t key, uint64_t flags)
{
	return redirect(tab, (uint32_t)key, flags, &c->egress, &c->egress_prog);
}

/* The units that move the frame's bounds, which the generated code has
 * stored in c before the call and reads back after it. */
static struct frame_bounds bounds_of(const struct hxc_ctx *c)
{
	return (struct frame_bounds){ c->data, c->data_end, c->data_meta };
}

static void set_bounds(struct hxc_ctx *c, const struct frame_bounds *b)
{
	c->data = b->data;
	c->data_end = b->data_end;
	c->data_meta = b->data_meta;
}

static uint64_t cb_hadj(struct hxc_ctx *c, uint64_t delta)
{
	struct frame_bounds b = bounds_of(c);
	int64_t ret = adjust_head(&b, c->win, (int32_t)delta);

	set_bounds(c, &b);
	return (uint64_t)ret;
}

static uint64_t cb_madj(struct hxc_ctx *c, uint64_t delta)
{
	struct frame_bounds b = bounds_of(c);
	int64_t ret = adjust_meta(&b, (int32_t)delta);

	set_bounds(c, &b);
	return (uint64_t)ret;
}

static uint64_t cb_tadj(struct hxc_ctx *c, uint64_t delta)
{
	struct frame_bounds b = bounds_of(c);
	int64_t ret = adjust_tail(&b, c->win, (int32_t)delta);

	set_bounds(c, &b);
	return (uint64_t)ret;
}

static void cb_csum16(uint8_t *p, uint64_t v)
{
	csum16_apply(p, v);
}

static uint64_t cb_redirif(struct hxc_ctx *c, uint64_t ifindex, uint64_t flags)
{
	return redirect_ifindex(ifindex, flags, &c->egress, &c->egress_prog);
}

static int cb_csumd(struct hxc_ctx *c, uint32_t spaces, const uint64_t *args, uint64_t *out)
{
	int err = run_csumd(spaces, args, c->win, c->lm, out);

	if (!err)
		c->cycles += (args[1] + 15) / 16 + (args[3] + 15) / 16;
	return err;
}

struct module;

struct hwxdp_compiled {
	struct module *mod;
	hxc_fn fn;
	struct hxc_ctx ctx;
	const struct hwxdp_esp_order *esp_order; /* the running frame's */
};

static uint64_t cb_esp(struct hxc_ctx *c, uint64_t handle, uint64_t l3)
{
	const struct hwxdp_compiled *cp =
		(const void *)((const char *)c - offsetof(struct hwxdp_compiled, ctx));
	struct frame_bounds b = bounds_of(c);
	int64_t ret = run_esp_ordered(c->tables, &b, c->win, handle, l3, &c->cycles, cp->esp_order);

	set_bounds(c, &b);
	return (uint64_t)ret;
}

static uint64_t cb_time(unsigned int clock)
{
	return time_ns(clock);
}

static uint64_t cb_rand(struct hxc_ctx *c)
{
	return (uint32_t)(rand_next(c->rand_state) >> 32);
}

/* ---- compiling, caching, loading ---- */

/* A loaded object, shared by every engine of the process that compiled the
 * same text. */
struct module {
	char key[2 * 32 + 1];
	void *handle;
	hxc_fn fn;
	unsigned int refs;
	struct module *next;
};

static pthread_mutex_t modules_lock = PTHREAD_MUTEX_INITIALIZER;
static struct module *modules;

static const char *const cc_flags[] = { "-O2",	   "-fPIC", "-shared", "-fno-strict-aliasing",
					"-fwrapv", "-w" };

static const char *compiler_name(void)
{
	const char *env = getenv("HWXDP_CC");

	return env && *env ? env : "cc";
}

/* The compiler's words: $HWXDP_CC split at spaces, else "cc". */
static int compiler_argv(char *buf, size_t len, char **argv, int max)
{
	int n = 0;

	snprintf(buf, len, "%s", compiler_name());
	for (char *save = NULL, *w = strtok_r(buf, " \t", &save); w && n < max;
	     w = strtok_r(NULL, " \t", &save))
		argv[n++] = w;
	return n;
}

static int sha256_hex(const char *const *parts, int cnt, char *hex)
{
	unsigned char md[32];
	unsigned int mdlen = 0;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int ok;

	ok = ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
	for (int i = 0; ok && i < cnt; i++)
		ok = EVP_DigestUpdate(ctx, parts[i], strlen(parts[i]) + 1);
	ok = ok && EVP_DigestFinal_ex(ctx, md, &mdlen) && mdlen == sizeof(md);
	EVP_MD_CTX_free(ctx);
	if (!ok)
		return -EIO;
	for (int i = 0; i < 32; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	return 0;
}

/* $XDG_CACHE_HOME/hwxdp or ~/.cache/hwxdp, made if missing; -errno when
 * neither can be had. */
static int cache_dir(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char parent[4096];

	if (xdg && *xdg)
		snprintf(parent, sizeof(parent), "%s", xdg);
	else if (home && *home)
		snprintf(parent, sizeof(parent), "%s/.cache", home);
	else
		return -ENOENT;
	if (mkdir(parent, 0700) && errno != EEXIST)
		return -errno;
	if ((size_t)snprintf(buf, len, "%s/hwxdp", parent) >= len)
		return -ENAMETOOLONG;
	if (mkdir(buf, 0700) && errno != EEXIST)
		return -errno;
	return access(buf, W_OK) ? -errno : 0;
}

static int write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	const char *p = data;

	if (fd < 0)
		return -errno;
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			return n < 0 ? -errno : -EIO;
		}
		p += n;
		len -= (size_t)n;
	}
	return close(fd) ? -errno : 0;
}

/* Copies from into out, which it closes. */
static int copy_file(const char *from, int out)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), err = 0;
	ssize_t n;

	if (in < 0) {
		err = -errno;
		close(out);
		return err;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			err = -EIO;
			break;
		}
	if (n < 0)
		err = -errno;
	close(in);
	if (close(out) && !err)
		err = -errno;
	return err;
}

/* The first line the compiler printed, for the message. */
static void first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* Compiles dir/prog.c into dir/prog.so. 0, or -errno with why. */
static int run_compiler(const char *dir, char *why, size_t whylen)
{
	char words[1024], c_path[4096], so_path[4096], log_path[4096];
	char *argv[32];
	int n = compiler_argv(words, sizeof(words), argv, 16), status, err;
	posix_spawn_file_actions_t fa;
	pid_t pid;

	snprintf(c_path, sizeof(c_path), "%.3900s/prog.c", dir);
	snprintf(so_path, sizeof(so_path), "%.3900s/prog.so", dir);
	snprintf(log_path, sizeof(log_path), "%.3900s/cc.log", dir);
	if (!n) {
		snprintf(why, whylen, "HWXDP_CC names no compiler");
		return -EINVAL;
	}
	for (size_t i = 0; i < sizeof(cc_flags) / sizeof(cc_flags[0]); i++)
		argv[n++] = (char *)cc_flags[i];
	argv[n++] = "-o";
	argv[n++] = so_path;
	argv[n++] = c_path;
	argv[n] = NULL;

	if (posix_spawn_file_actions_init(&fa))
		return -ENOMEM;
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, log_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err) {
		snprintf(why, whylen, "cannot run %s: %s", argv[0], strerror(err));
		return -err;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			snprintf(why, whylen, "waiting for %s: %s", argv[0], strerror(errno));
			return -errno;
		}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		char line[200];

		first_line(log_path, line, sizeof(line));
		snprintf(why, whylen, "%s failed%s%s", argv[0], line[0] ? ": " : "", line);
		return -ENOEXEC;
	}
	return 0;
}

static void remove_dir(const char *dir)
{
	static const char *const files[] = { "prog.c", "prog.so", "cc.log" };
	char path[4096];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%.3900s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}

static int open_module(const char *path, struct module *m, char *why, size_t whylen)
{
	m->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!m->handle) {
		snprintf(why, whylen, "dlopen: %s", dlerror());
		return -ENOEXEC;
	}
	*(void **)&m->fn = dlsym(m->handle, "hxc_run");
	if (!m->fn) {
		snprintf(why, whylen, "%s has no hxc_run", path);
		dlclose(m->handle);
		m->handle = NULL;
		return -ENOEXEC;
	}
	return 0;
}

/*
 * The object for text under key: from the cache when it holds one that
 * loads, else compiled in a temporary directory (and put in the cache when
 * there is one).
 */
static int build_module(const char *text, struct module *m, char *why, size_t whylen)
{
	char cache[3900], cached[4096], dir[4096], path[4096];
	const char *tmpdir = getenv("TMPDIR");
	bool have_cache = !cache_dir(cache, sizeof(cache));
	int err;

	if (have_cache) {
		snprintf(cached, sizeof(cached), "%s/%s.so", cache, m->key);
		if (!access(cached, R_OK) && !open_module(cached, m, why, whylen)) {
			pr_debug("engine: compiled code from %s\n", cached);
			return 0;
		}
	}
	snprintf(dir, sizeof(dir), "%.3900s/hwxdp-cc-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(dir)) {
		snprintf(why, whylen, "temporary directory: %s", strerror(errno));
		return -errno;
	}
	snprintf(path, sizeof(path), "%.3900s/prog.c", dir);
	err = write_file(path, text, strlen(text));
	if (err) {
		snprintf(why, whylen, "%.200s: %s", path, strerror(-err));
		goto out;
	}
	err = run_compiler(dir, why, whylen);
	if (err)
		goto out;
	snprintf(path, sizeof(path), "%.3900s/prog.so", dir);
	/* Into the cache whole or not at all: a reader sees a whole object or
	 * none. */
	if (have_cache) {
		struct hwxdp_outputs *set = hwxdp_outputs__new();
		int fd = set ? hwxdp_outputs__add(set, NULL, cached, 0600, NULL, 0) : -ENOMEM;
		bool stored = false;

		/* copy_file() closes what it is given; the set keeps its own */
		if (fd >= 0 && (fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) >= 0)
			stored = !copy_file(path, fd) && !hwxdp_outputs__commit(set, NULL, 0);
		hwxdp_outputs__free(set);
		if (stored && !open_module(cached, m, why, whylen))
			goto out;
	}
	err = open_module(path, m, why, whylen);
out:
	remove_dir(dir);
	return err;
}

static struct module *module_get(const char *text, char *why, size_t whylen)
{
	char words[1024], *argv[32], flags[256] = "";
	const char *parts[4];
	struct module *m;
	int n;

	m = calloc(1, sizeof(*m));
	if (!m) {
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	/* The key: the text, what compiles it and how. */
	n = compiler_argv(words, sizeof(words), argv, 16);
	for (size_t i = 0; i < sizeof(cc_flags) / sizeof(cc_flags[0]); i++)
		snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags), " %s", cc_flags[i]);
	parts[0] = HXC_ABI;
	parts[1] = n ? compiler_name() : "";
	parts[2] = flags;
	parts[3] = text;
	if (sha256_hex(parts, 4, m->key)) {
		snprintf(why, whylen, "no SHA-256");
		free(m);
		return NULL;
	}

	pthread_mutex_lock(&modules_lock);
	for (struct module *o = modules; o; o = o->next) {
		if (!strcmp(o->key, m->key)) {
			o->refs++;
			pthread_mutex_unlock(&modules_lock);
			free(m);
			return o;
		}
	}
	/* Compiling under the lock keeps the engines of one board from
	 * compiling the same image at once. */
	if (build_module(text, m, why, whylen)) {
		pthread_mutex_unlock(&modules_lock);
		free(m);
		return NULL;
	}
	m->refs = 1;
	m->next = modules;
	modules = m;
	pthread_mutex_unlock(&modules_lock);
	return m;
}

static void module_put(struct module *m)
{
	struct module **pp;

	pthread_mutex_lock(&modules_lock);
	if (--m->refs) {
		pthread_mutex_unlock(&modules_lock);
		return;
	}
	for (pp = &modules; *pp != m; pp = &(*pp)->next)
		;
	*pp = m->next;
	pthread_mutex_unlock(&modules_lock);
	dlclose(m->handle);
	free(m);
}

struct hwxdp_compiled *hwxdp_compiled__new(const struct hwxdp_compile_src *src,
					   struct hwxdp_tables *tables, uint8_t *lm,
					   uint64_t *rand_state)
{
	struct hwxdp_compiled *cp = calloc(1, sizeof(*cp));
	char why[512] = "";
	char *text;

	if (!cp)
		return NULL;
	text = hwxdp_compile_src__text(src);
	if (!text) {
		free(cp);
		errno = ENOMEM;
		return NULL;
	}
	cp->mod = module_get(text, why, sizeof(why));
	free(text);
	if (!cp->mod) {
		pr_info("engine: no compiled mode (%s); interpreting\n", why);
		free(cp);
		errno = ENOEXEC;
		return NULL;
	}
	cp->fn = cp->mod->fn;
	cp->ctx = (struct hxc_ctx){
		.lm = lm,
		.tables = tables,
		.rand_state = rand_state,
		.lookup_array = cb_lookup_array,
		.lookup_hash = cb_lookup_hash,
		.lookup_port = cb_lookup_port,
		.lookup_table = cb_lookup_table,
		.tindex = cb_tindex,
		.tupdate = cb_tupdate,
		.tdelete = cb_tdelete,
		.inner = cb_inner,
		.tprog = cb_tprog,
		.redir = cb_redir,
		.hadj = cb_hadj,
		.madj = cb_madj,
		.tadj = cb_tadj,
		.csum16 = cb_csum16,
		.redirif = cb_redirif,
		.csumd = cb_csumd,
		.esp = cb_esp,
		.time = cb_time,
		.rand = cb_rand,
	};
	for (uint32_t id = 0; id < HXU_TABLES; id++)
		cp->ctx.tab[id] = hwxdp_tables__get(tables, id);
	return cp;
}

void hwxdp_compiled__free(struct hwxdp_compiled *cp)
{
	if (!cp)
		return;
	module_put(cp->mod);
	free(cp);
}

int hwxdp_compiled__run(struct hwxdp_compiled *cp, uint32_t prog, struct hwxdp_frame *f,
			uint32_t cpu, uint32_t tx, struct hwxdp_run_stats *stats)
{
	struct hxc_ctx *c = &cp->ctx;
	int err;

	c->win = f->window;
	c->data = f->data;
	c->data_end = f->data_end;
	c->data_meta = f->data_meta;
	c->ingress = f->ingress;
	c->rx_queue = f->rx_queue;
	c->cpu = cpu;
	c->tx = tx;
	c->egress = HWXDP_EGRESS_NONE;
	c->egress_prog = HWXDP_PROG_NONE;
	c->reason = 0;
	c->ops = c->bundles = c->cycles = 0;
	cp->esp_order = f->esp_order;
	err = cp->fn(c, prog, stats != NULL);
	f->verdict = c->verdict;
	f->data = (uint32_t)c->data;
	f->data_end = (uint32_t)c->data_end;
	f->data_meta = (uint32_t)c->data_meta;
	f->egress = c->egress;
	f->egress_prog = c->egress_prog;
	f->reason = c->reason;
	f->error = err;
	f->fault_op = err ? c->fault_op : 0;
	if (stats) {
		stats->ops = c->ops;
		stats->bundles = c->bundles;
		stats->cycles = c->cycles;
	}
	return err;
}
