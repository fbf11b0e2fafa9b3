// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <linux/bpf.h>

#include "lab/pkt.h"
#include "tests/compile/hxu_gen.h"
#include "tests/vdiff/gen.h"

enum {
	T_ARRAY = 0,  /* key 4, value 16 */
	T_HASH = 1,   /* key 8, value 16 */
	T_LRU = 2,    /* key 8, value 8 */
	T_PERCPU = 3, /* key 4, value 8 */
	T_PORTS = 4,
	T_PROGS = 5,
};

#define TABLE(ID, TYPE, K, V, N, FLAGS, NAME)                                                      \
	{                                                                                          \
		.id = ID, .type = TYPE, .key_size = K, .value_size = V, .max_entries = N,          \
		.flags = FLAGS, .name = NAME                                                       \
	}

const struct hxu_table_desc hxu_gen_tables[] = {
	TABLE(T_ARRAY, BPF_MAP_TYPE_ARRAY, 4, 16, 8, 0, "array"),
	TABLE(T_HASH, BPF_MAP_TYPE_HASH, 8, 16, 32, 0, "hash"),
	TABLE(T_LRU, BPF_MAP_TYPE_LRU_HASH, 8, 8, 16, 0, "lru"),
	TABLE(T_PERCPU, BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 4, 0, "percpu"),
	TABLE(T_PORTS, BPF_MAP_TYPE_DEVMAP_HASH, 4, 4, 8, 0, "ports"),
	TABLE(T_PROGS, BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 4, 0, "progs"),
};
const size_t hxu_gen_table_cnt = sizeof(hxu_gen_tables) / sizeof(hxu_gen_tables[0]);
const char *const hxu_gen_progs[] = { "p1", "p2", NULL };

#define FUNCS	    3
#define MAX_PENDING 16

struct gen {
	struct vdiff_rng rng;
	char *s;
	size_t len, cap;
	uint32_t labels;
	struct {
		uint32_t id, countdown;
	} pending[MAX_PENDING];
	int pending_cnt;
};

__attribute__((format(printf, 2, 3))) static void out(struct gen *g, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(g->s + g->len, g->cap - g->len, fmt, ap);
		va_end(ap);
		cr_assert_geq(n, 0);
		if (g->len + (size_t)n < g->cap)
			break;
		g->cap = g->cap * 2 + (size_t)n + 4096;
		g->s = realloc(g->s, g->cap);
		cr_assert(g->s);
	}
	g->len += (size_t)n;
}

static uint32_t below(struct gen *g, uint32_t n)
{
	return vdiff_rng__below(&g->rng, n);
}

static bool chance(struct gen *g, unsigned int percent)
{
	return vdiff_rng__chance(&g->rng, percent);
}

/* A register an operation may write: never r10, r12 (loop counters) or,
 * mostly, the packet pointers r2 and r3. */
static unsigned int dst(struct gen *g)
{
	static const uint8_t regs[] = { 0, 4, 5, 6, 7, 8, 9, 11, 13, 14, 15 };

	if (chance(g, 3))
		return 2 + below(g, 2);
	return regs[below(g, sizeof(regs))];
}

static unsigned int src(struct gen *g)
{
	return below(g, 16);
}

static int32_t imm32(struct gen *g)
{
	static const int32_t special[] = { 0, 1, -1, 2, 31, 32, 63, 64, INT32_MIN, INT32_MAX, 7 };

	switch (below(g, 4)) {
	case 0:
		return special[below(g, sizeof(special) / sizeof(special[0]))];
	case 1:
		return (int32_t)below(g, 100) - 50;
	default:
		return (int32_t)vdiff_rng__next(&g->rng);
	}
}

/* "[rB + off]" or "[rB - off]" */
static const char *addr(unsigned int base, int64_t off)
{
	static char buf[4][40];
	static int n;
	char *b = buf[n++ & 3];

	if (off < 0)
		snprintf(b, sizeof(buf[0]), "[r%u - %lld]", base, -(long long)off);
	else
		snprintf(b, sizeof(buf[0]), "[r%u + %lld]", base, (long long)off);
	return b;
}

static uint32_t new_label(struct gen *g, uint32_t countdown)
{
	uint32_t id = g->labels++;

	if (g->pending_cnt == MAX_PENDING)
		countdown = 0;
	if (!countdown || g->pending_cnt == MAX_PENDING) {
		/* placed by the caller at once */
		return id;
	}
	g->pending[g->pending_cnt].id = id;
	g->pending[g->pending_cnt].countdown = countdown;
	g->pending_cnt++;
	return id;
}

/* Places the labels whose statements have passed (all of them: flush). */
static void place_labels(struct gen *g, bool flush)
{
	for (int i = 0; i < g->pending_cnt;) {
		if (flush || !--g->pending[i].countdown) {
			out(g, "L%u:\n", g->pending[i].id);
			g->pending[i] = g->pending[--g->pending_cnt];
		} else {
			i++;
		}
	}
}

static const char *const alu_ops[] = { "add", "sub", "mul", "div", "mod", "sdiv", "smod",
				       "and", "or",  "xor", "lsh", "rsh", "arsh" };

static void alu_text(struct gen *g, char *buf, size_t len, unsigned int rd, uint32_t avoid)
{
	const char *op = alu_ops[below(g, 13)];
	const char *w = chance(g, 40) ? ".w" : "";
	unsigned int rs = src(g), rt = src(g);

	while (avoid & (1u << rs))
		rs = src(g);
	while (avoid & (1u << rt))
		rt = src(g);
	if (chance(g, 50))
		snprintf(buf, len, "%s%s r%u, r%u, r%u", op, w, rd, rs, rt);
	else
		snprintf(buf, len, "%s%s r%u, r%u, %d", op, w, rd, rs, imm32(g));
}

static void alu(struct gen *g)
{
	char buf[96];

	alu_text(g, buf, sizeof(buf), dst(g), 0);
	out(g, "\t%s ;;\n", buf);
}

static void alu_other(struct gen *g)
{
	unsigned int d = dst(g), s = src(g);

	switch (below(g, 10)) {
	case 0:
		out(g, "\tneg%s r%u, r%u ;;\n", chance(g, 50) ? ".w" : "", d, s);
		break;
	case 1:
		out(g, "\tmov%s r%u, r%u ;;\n", chance(g, 50) ? ".w" : "", d, s);
		break;
	case 2:
		out(g, "\tmov%s r%u, %d ;;\n", chance(g, 50) ? ".w" : "", d, imm32(g));
		break;
	case 3:
		out(g, "\tmovi r%u, 0x%llx ;;\n", d, (unsigned long long)vdiff_rng__next(&g->rng));
		break;
	case 4:
		out(g, "\tmovsx%u%s r%u, r%u ;;\n", chance(g, 50) ? 8 : 16,
		    chance(g, 50) ? ".w" : "", d, s);
		break;
	case 5:
		out(g, "\tmovsx32 r%u, r%u ;;\n", d, s);
		break;
	case 6:
	case 7:
		out(g, "\tbswap%u r%u, r%u ;;\n", 16u << below(g, 3), d, s);
		break;
	default:
		out(g, "\tzext%u r%u, r%u ;;\n", chance(g, 50) ? 16 : 32, d, s);
	}
}

/* A packet offset from data for size bytes: mostly inside a small frame,
 * sometimes near the window's end or before its start, or right at either
 * edge (with data where it starts, a byte more faults). */
static int64_t pkt_off(struct gen *g, unsigned int size)
{
	int64_t end = HXU_WINDOW_SIZE - HXU_HEADROOM - (int64_t)size;

	switch (below(g, 12)) {
	case 0:
		return 9400 + (int64_t)below(g, 100);
	case 1:
		return -(int64_t)(250 + below(g, 20));
	case 2:
		return end - 1 + (int64_t)below(g, 3);
	case 3:
		return -HXU_HEADROOM - 1 + (int64_t)below(g, 3);
	default:
		return below(g, 120);
	}
}

/* An offset from r10 for a computed base: mostly anywhere around local
 * memory, sometimes right at either edge at call depth 0. */
static int lm_base_off(struct gen *g, unsigned int size)
{
	switch (below(g, 6)) {
	case 0:
		return HXU_LM_SIZE - HXU_LM_FRAME - (int)size - 1 + (int)below(g, 3);
	case 1:
		return -HXU_LM_FRAME - 1 + (int)below(g, 3);
	default:
		return (int)below(g, 4600) - 600;
	}
}

static const char *mem_suffix(struct gen *g, unsigned int size, bool load)
{
	static char buf[4][16];
	static int n;
	char *b = buf[n++ & 3];
	bool be = size > 1 && chance(g, 30), sx = load && size < 8 && chance(g, 25);

	snprintf(b, sizeof(buf[0]), "%u%s%s", size * 8, be ? ".be" : "", sx ? ".sx" : "");
	return b;
}

static unsigned int pkt_base(struct gen *g)
{
	return chance(g, 90) ? 2 : src(g);
}

static void pkt_load(struct gen *g)
{
	unsigned int size = 1u << below(g, 4);

	out(g, "\tld%s.pkt r%u, %s ;;\n", mem_suffix(g, size, true), dst(g),
	    addr(pkt_base(g), pkt_off(g, size)));
}

static void pkt_store(struct gen *g)
{
	unsigned int size = 1u << below(g, 4);
	const char *sfx = mem_suffix(g, size, false);

	if (chance(g, 50))
		out(g, "\tst%s.pkt %s, r%u ;;\n", sfx, addr(pkt_base(g), pkt_off(g, size)), src(g));
	else
		out(g, "\tst%s.pkt %s, %d ;;\n", sfx, addr(pkt_base(g), pkt_off(g, size)),
		    imm32(g));
}

/* Local memory: through r10 inside the frame, or through a computed
 * address that may leave local memory. */
static void lm_access(struct gen *g)
{
	unsigned int size = 1u << below(g, 4), base = 10;
	int64_t off = -(int64_t)(size + below(g, 512 - size + 1));
	bool load = chance(g, 50);

	if (chance(g, 30)) {
		base = 5 + below(g, 2);
		off = (int64_t)below(g, 64) - 32;
		out(g, "\tadd r%u, r10, %d ;;\n", base, lm_base_off(g, size) - (int)off);
	}
	if (load)
		out(g, "\tld%s.lm r%u, %s ;;\n", mem_suffix(g, size, true),
		    base == 10 ? dst(g) : (base == 5 ? 6u : 5u), addr(base, off));
	else
		out(g, "\tst%s.lm %s, r%u ;;\n", mem_suffix(g, size, false), addr(base, off),
		    src(g));
}

/* An atomic on an aligned address at base + off of space sp. */
static void atomic(struct gen *g, const char *sp, unsigned int base, int64_t off, unsigned int size)
{
	static const char *const ops[] = { "add", "and", "or", "xor", "xchg", "cmpxchg" };
	unsigned int op = below(g, 6), d = dst(g), t = src(g);

	while (d == base)
		d = dst(g);
	/* a table-memory address is the host's: it must not reach memory */
	while (!strcmp(sp, "tm") && t == base)
		t = src(g);
	if (op >= 4)
		out(g, "\tatomic%s%u.%s r%u, %s, r%u ;;\n", ops[op], size * 8, sp, d,
		    addr(base, off), t);
	else if (chance(g, 50))
		out(g, "\tatomic%s%u.fetch.%s r%u, %s, r%u ;;\n", ops[op], size * 8, sp, d,
		    addr(base, off), t);
	else
		out(g, "\tatomic%s%u.%s %s, r%u ;;\n", ops[op], size * 8, sp, addr(base, off), t);
}

static void lm_atomic(struct gen *g)
{
	unsigned int size = chance(g, 50) ? 4 : 8;

	if (chance(g, 15)) {
		out(g, "\tadd r5, r10, %d ;;\n", lm_base_off(g, size) & ~(int)(size - 1));
		atomic(g, "lm", 5, 0, size);
		return;
	}
	atomic(g, "lm", 10, -(int64_t)(size * (1 + below(g, 512 / size))), size);
}

/* A key of table id in local memory at r10 - 16, its address in r4. */
static void lm_key(struct gen *g, unsigned int id)
{
	uint32_t k = hxu_gen_tables[id].key_size;

	out(g, "\tmov r5, %u ;;\n", below(g, k == 4 ? 10 : 40));
	out(g, "\tst%u.lm [r10 - 16], r5 ;;\n", k * 8);
	out(g, "\tadd r4, r10, -16 ;;\n");
}

static unsigned int not_r6(struct gen *g)
{
	unsigned int r = src(g);

	while (r == 6)
		r = src(g);
	return r;
}

/* Table-memory accesses at r6 (a value of vsize bytes), behind a null check. */
static void value_work(struct gen *g, uint32_t vsize)
{
	uint32_t skip = new_label(g, 0);

	out(g, "\tbeq r6, 0, L%u ;;\n", skip);
	for (unsigned int n = 1 + below(g, 3); n; n--) {
		unsigned int size = 1u << below(g, 4), d = dst(g);

		while (d == 6)
			d = dst(g);
		switch (below(g, 3)) {
		case 0:
			out(g, "\tld%s.tm r%u, %s ;;\n", mem_suffix(g, size, true), d,
			    addr(6, below(g, vsize - size + 1)));
			break;
		case 1:
			out(g, "\tst%s.tm %s, r%u ;;\n", mem_suffix(g, size, false),
			    addr(6, below(g, vsize - size + 1)), not_r6(g));
			break;
		default:
			size = chance(g, 50) ? 4 : 8;
			atomic(g, "tm", 6, size * below(g, vsize / size), size);
		}
	}
	/* the address goes, as the verifier makes sure it does in BPF */
	out(g, "L%u:\n\tmov r6, 0 ;;\n", skip);
}

static void table_op(struct gen *g)
{
	static const uint8_t keyed[] = { T_ARRAY, T_HASH, T_LRU, T_PERCPU };
	unsigned int id = keyed[below(g, 4)];
	uint32_t vsize = hxu_gen_tables[id].value_size;

	switch (below(g, 7)) {
	case 0:
	case 1:
		lm_key(g, id);
		out(g, "\ttlookup.lm r6, %u, r4 ;;\n", id);
		value_work(g, vsize);
		break;
	case 2:
		/* a key in the packet, or wherever a register points */
		out(g, "\ttlookup.pkt r6, %u, r%u ;;\n", id, chance(g, 85) ? 2 : src(g));
		value_work(g, vsize);
		break;
	case 3:
		out(g, "\tmov.w r5, %u ;;\n", below(g, 10));
		out(g, "\ttindex r6, %u, r5 ;;\n", T_ARRAY);
		value_work(g, 16);
		break;
	case 4:
	case 5:
		lm_key(g, id);
		out(g, "\tst64.lm [r10 - 40], r%u ;;\n", src(g));
		out(g, "\tst64.lm [r10 - 32], r%u ;;\n", src(g));
		if (chance(g, 25)) {
			out(g, "\ttupdate.lm.pkt r0, %u, r4, r%u, %u ;;\n", id,
			    chance(g, 85) ? 2 : src(g), below(g, 3));
		} else {
			out(g, "\tadd r7, r10, -40 ;;\n");
			out(g, "\ttupdate.lm.lm r0, %u, r4, r7, %u ;;\n", id, below(g, 3));
		}
		break;
	default:
		lm_key(g, id);
		out(g, "\ttdelete.lm r0, %u, r4 ;;\n", id);
	}
}

static void unit(struct gen *g)
{
	static const char *const fields[] = { "data",	 "data_end", "data_meta",
					      "ingress", "rx_queue", "egress" };
	/* 8: BPF_F_BROADCAST; 25: that, BPF_F_EXCLUDE_INGRESS and XDP_DROP */
	static const uint32_t redir_flags[] = { 0, 1, 2, 3, BPF_F_EXCLUDE_INGRESS, 0x40, 8, 25 };

	switch (below(g, 9)) {
	case 0:
		out(g, "\tmov.w r5, %u ;;\n", below(g, 6));
		if (chance(g, 50)) {
			out(g, "\tredir r0, %u, r5, %u ;;\n", T_PORTS, redir_flags[below(g, 8)]);
			break;
		}
		/* the flags at run time */
		out(g, "\tmov r7, %u ;;\n", redir_flags[below(g, 8)]);
		out(g, "\tredir r0, %u, r5, r7 ;;\n", T_PORTS);
		break;
	case 1:
		out(g, "\tmov r5, %d ;;\n", (int)below(g, 130) - 70);
		out(g, "\thadj r0, r5 ;;\n");
		if (chance(g, 70))
			out(g, "\tctx r2, data ;;\n");
		break;
	case 2:
		out(g, "\tmov r5, %d ;;\n",
		    chance(g, 80) ? -4 * (int)below(g, 12) : (int)below(g, 9) - 4);
		out(g, "\tmadj r0, r5 ;;\n");
		break;
	case 3:
		out(g, "\tmov r5, %d ;;\n", (int)below(g, 120) - 60);
		out(g, "\ttadj r0, r5 ;;\n");
		if (chance(g, 70))
			out(g, "\tctx r3, data_end ;;\n");
		break;
	case 4:
		out(g, "\tcsum16 %s, r%u ;;\n", addr(pkt_base(g), pkt_off(g, 2)), src(g));
		break;
	case 5:
		out(g, "\tmov r5, %u ;;\n\tmov r6, 14 ;;\n\tesp r0, r5, r6 ;;\n", below(g, 4));
		break;
	case 6:
		out(g, "\tctx r%u, %s ;;\n", dst(g), fields[below(g, 6)]);
		break;
	case 7:
		out(g, "\trand r%u ;;\n", dst(g));
		break;
	default:
		out(g, "\tcpu r%u ;;\n", dst(g));
	}
}

static void branch(struct gen *g)
{
	static const char *const cc[] = { "eq",	 "ne",	"gt",  "ge",  "lt", "le",
					  "sgt", "sge", "slt", "sle", "set" };
	uint32_t l = new_label(g, 1 + below(g, 5));
	const char *w = chance(g, 40) ? ".w" : "";

	if (chance(g, 50))
		out(g, "\tb%s%s r%u, r%u, L%u ;;\n", cc[below(g, 11)], w, src(g), src(g), l);
	else
		out(g, "\tb%s%s r%u, %d, L%u ;;\n", cc[below(g, 11)], w, src(g), imm32(g), l);
}

static void lchk(struct gen *g)
{
	uint32_t l = new_label(g, 1 + below(g, 5));

	if (chance(g, 50))
		out(g, "\tlchk %u, L%u ;;\n", below(g, 200), l);
	else
		out(g, "\tlchk %s, L%u ;;\n", addr(src(g), (int64_t)below(g, 200) - 20), l);
}

/*
 * Bundles the interpreter runs in another order, or fuses with the next
 * one: a packet load with an independent operation after it, then a
 * branch on what it loaded.
 */
static void fusable(struct gen *g)
{
	static const unsigned int sizes[] = { 1, 2, 4 };
	unsigned int a = dst(g), b = dst(g), size = sizes[below(g, 3)];
	uint32_t l;

	while (a == 2 || a == 3)
		a = dst(g);
	while (b == a || b == 2 || b == 3)
		b = dst(g);
	out(g, "\tld%u%s.pkt r%u, %s\n", size * 8, size > 1 && chance(g, 50) ? ".be" : "", a,
	    addr(2, pkt_off(g, size)));
	if (chance(g, 50))
		out(g, "\tld%u.pkt r%u, %s ;;\n", size * 8, b, addr(2, pkt_off(g, size)));
	else
		out(g, "\tmov r%u, %d ;;\n", b, imm32(g));
	l = new_label(g, 1 + below(g, 4));
	out(g, "\tb%s r%u, %d, L%u ;;\n", chance(g, 50) ? "eq" : "ne", a,
	    chance(g, 50) ? (int)below(g, 256) : imm32(g), l);
}

/* Two independent ALU operations in one bundle. */
static void pair(struct gen *g)
{
	unsigned int a = dst(g), b = dst(g);
	char x[96], y[96];

	while (b == a)
		b = dst(g);
	alu_text(g, x, sizeof(x), a, 0);
	alu_text(g, y, sizeof(y), b, 1u << a);
	out(g, "\t%s\n\t%s ;;\n", x, y);
}

/* Statements without control flow of their own beyond what they place. */
static void simple(struct gen *g)
{
	unsigned int w = below(g, 100);

	if (w < 30)
		alu(g);
	else if (w < 38)
		alu_other(g);
	else if (w < 50)
		pkt_load(g);
	else if (w < 56)
		pkt_store(g);
	else if (w < 64)
		lm_access(g);
	else if (w < 68)
		lm_atomic(g);
	else if (w < 80)
		table_op(g);
	else if (w < 92)
		unit(g);
	else
		pair(g);
}

static void loop(struct gen *g)
{
	uint32_t l = g->labels++;

	place_labels(g, true);
	out(g, "\tmov r12, %u ;;\nL%u:\n", 1 + below(g, 4), l);
	for (unsigned int n = 1 + below(g, 3); n; n--)
		simple(g);
	out(g, "\tsub r12, r12, 1 ;;\n\tbne r12, 0, L%u ;;\n", l);
}

static void statement(struct gen *g, bool in_func)
{
	unsigned int w = below(g, 100);

	if (w < 70)
		simple(g);
	else if (w < 78)
		branch(g);
	else if (w < 81)
		lchk(g);
	else if (w < 86)
		fusable(g);
	else if (w < 89)
		loop(g);
	else if (w < 92 && !in_func)
		out(g, "\tcall f%u ;;\n", below(g, FUNCS));
	else if (w < 94 && !in_func)
		out(g, "\tcall frec ;;\n");
	else if (w < 96)
		out(g, "\tmov.w r5, %u ;;\n\ttcall %u, r5 ;;\n", below(g, 5), T_PROGS);
	else if (w < 97)
		out(g, "\tpunt %u ;;\n", 1 + below(g, 9));
	else if (w < 98)
		out(g, "\tmov r0, %d ;;\n\texit ;;\n", (int)below(g, 5));
	else if (w < 99 && !in_func)
		out(g, "\tret ;;\n");
	else
		simple(g);
	place_labels(g, false);
}

static void init_regs(struct gen *g)
{
	static const uint8_t regs[] = { 0, 4, 5, 6, 7, 8, 9, 13, 14, 15 };

	out(g, "\tctx r2, data\n\tctx r3, data_end\n\tmov r12, 0 ;;\n");
	for (size_t i = 0; i < sizeof(regs); i++) {
		if (chance(g, 50))
			out(g, "\tmovi r%u, 0x%llx ;;\n", regs[i],
			    (unsigned long long)vdiff_rng__next(&g->rng));
		else
			out(g, "\tmov r%u, %d ;;\n", regs[i], imm32(g));
	}
	out(g, "\tmov r11, %u ;;\n", below(g, 12));
}

static void body(struct gen *g, unsigned int statements, bool in_func)
{
	while (statements--)
		statement(g, in_func);
	place_labels(g, true);
}

static void program(struct gen *g, const char *label, unsigned int statements)
{
	if (label)
		out(g, "%s:\n", label);
	init_regs(g);
	body(g, statements, false);
	if (chance(g, 50))
		out(g, "\tand r0, r0, 3 ;;\n");
	out(g, "\texit ;;\n");
}

char *hxu_gen_text(uint64_t seed)
{
	struct gen g = {};

	vdiff_rng__seed(&g.rng, seed);
	program(&g, NULL, 10 + below(&g, 30));
	program(&g, "p1", 3 + below(&g, 10));
	program(&g, "p2", 3 + below(&g, 10));
	for (unsigned int f = 0; f < FUNCS; f++) {
		out(&g, "f%u:\n", f);
		body(&g, 2 + below(&g, 6), true);
		out(&g, chance(&g, 80) ? "\tret ;;\n" : "\tmov r0, 1 ;;\n\texit ;;\n");
	}
	out(&g, "frec:\n\tadd r11, r11, 1 ;;\n\tbgt r11, 9, frec_out ;;\n\tcall frec ;;\n"
		"frec_out:\n\tret ;;\n");
	return g.s;
}

void hxu_gen_fill(struct twin *t, uint64_t seed)
{
	struct vdiff_rng rng;
	uint8_t value[16];

	vdiff_rng__seed(&rng, seed ^ 0x5eed);
	for (uint32_t i = 0; i < 8; i++) {
		for (size_t b = 0; b < sizeof(value); b++)
			value[b] = (uint8_t)vdiff_rng__next(&rng);
		twin_update(t, T_ARRAY, &i, value);
	}
	for (uint64_t k = 0; k < 40; k += 1 + vdiff_rng__below(&rng, 4)) {
		for (size_t b = 0; b < sizeof(value); b++)
			value[b] = (uint8_t)vdiff_rng__next(&rng);
		twin_update(t, T_HASH, &k, value);
		if (k < 12)
			twin_update(t, T_LRU, &k, value);
	}
	for (uint32_t port = 1; port < 6; port += 2) {
		uint32_t ifindex = 10 + port;

		twin_update(t, T_PORTS, &port, &ifindex);
	}
	for (uint32_t i = 0; i < 3; i++) {
		uint32_t prog = (i + 1) % 3;

		twin_update(t, T_PROGS, &i, &prog);
	}
}

size_t hxu_gen_frame(uint64_t seed, uint8_t *buf, size_t cap)
{
	struct vdiff_rng rng;
	struct hx_frame_spec s;
	size_t len;

	vdiff_rng__seed(&rng, seed);
	if (vdiff_rng__chance(&rng, 10)) {
		/* long enough for accesses near the window's end */
		len = HXU_FRAME_MAX - vdiff_rng__below(&rng, 300);
		len = len < cap ? len : cap;
		for (size_t i = 0; i < len; i++)
			buf[i] = (uint8_t)vdiff_rng__next(&rng);
		return len;
	}
	if (vdiff_rng__chance(&rng, 25)) {
		len = 14 + vdiff_rng__below(&rng, 200);
		for (size_t i = 0; i < len; i++)
			buf[i] = (uint8_t)vdiff_rng__next(&rng);
		return len;
	}
	hx_frame_spec_init(&s, vdiff_rng__chance(&rng, 70) ? 4 : 6);
	s.vlan = vdiff_rng__chance(&rng, 30) ? (int)vdiff_rng__below(&rng, 4096) : -1;
	s.proto = vdiff_rng__chance(&rng, 70) ? 6 : 17;
	s.sport = (uint16_t)vdiff_rng__next(&rng);
	s.ttl = (uint8_t)vdiff_rng__below(&rng, 4) ? 64 : (uint8_t)vdiff_rng__below(&rng, 3);
	s.payload_len = (uint16_t)vdiff_rng__below(&rng, 300);
	len = hx_frame_build(&s, buf, cap);
	for (unsigned int n = vdiff_rng__below(&rng, 4); n && len; n--)
		buf[vdiff_rng__below(&rng, (uint32_t)(len < 64 ? len : 64))] ^=
			(uint8_t)(1u << vdiff_rng__below(&rng, 8));
	return len;
}
