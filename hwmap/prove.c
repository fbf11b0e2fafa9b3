// SPDX-License-Identifier: GPL-2.0
/*
 * Translation validation with Z3 (hwmap/prove.h, docs/prove.md).
 *
 * Both programs run on one symbolic machine state: the packet window and
 * local memory as arrays (bv32 offset -> bv8), the frame's data, data_end
 * and data_meta as bv64 window offsets, registers as bv64 terms. The BPF
 * program's pointers are given the device's values (ctx 0, the packet at
 * window offset 256, r10 = 512 in local memory): BPF only compares packet
 * pointers with each other and adds scalars to them, so the offsets behave
 * as the kernel's addresses do, and both programs then read and write the
 * same array cells for the same bytes.
 *
 * Each side is explored path by path; a branch whose both directions are
 * satisfiable under the path condition forks. Every path ends in a leaf:
 * its condition, how it ends, and the memory it ends with. The leaves of a
 * side, mutually exclusive and covering every input, fold into one term per
 * output (nested ite), and the solver is asked for an input on which the
 * two sides' outputs differ: unsat is the proof.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <z3.h>

#include "hwmap/prove.h"
#include "loader/kfuncs.h"
#include "hwxdp/fwd.h"

#ifndef BPF_MEMSX
#define BPF_MEMSX 0x80 /* sign-extending loads; older uapi headers lack it */
#endif

#define STEP_MAX   20000 /* instructions on one path: beyond, a loop */
#define LEAF_MAX   4096	 /* paths of one side */
#define PKT_BASE   HXU_HEADROOM
#define LEN_MIN	   HXU_ETH_HLEN
#define CTX_ADDR   0
#define LM_FP	   HXU_LM_FRAME
#define LOOKUP_MAX 32 /* map lookups on one path */
/* Where map m's values live in the model's table memory: apart from every
 * other map's, so that no two maps share a byte. */
#define MAP_BASE(m) ((uint64_t)((m) + 1) << 48)

/* the exploring solver's limit per query (ms): past it, a fresh solver */
#define PROBE_MS	 200
#define FRESH_MS	 300  /* the fresh solver's first way (check_fresh) */
#define STORE_SORT_DEPTH 64   /* stores a store is put beneath, at most */
#define DISJUNCTS_MAX	 1024 /* ways two paths can differ, asked one by one */
#define DIV_LAWS	 2    /* divisions in one step (div_law) */
#define SPREAD_MAX	 32   /* values of a local memory index taken one by one */

/* the bytes a pair of paths compares at known offsets: a frame's, past the
 * longest frame in, and the metadata's (at most 32 bytes in the kernel) */
#define GROWTH_KNOWN 64
#define META_KNOWN   32

/* A map lookup on a path: the key, little-endian bytes as one bit-vector. */
struct lookup {
	uint32_t map;
	Z3_ast key;
	/* a lookup through a map of maps' map: map is the map of maps, and
	 * this the inner map's identity (bv8); NULL otherwise */
	Z3_ast inner;
};

#define WRITE_MAX 8 /* map updates and deletes on one path */

/* A map update or delete on a path, as the two sides' sequences compare
 * them: what, on which map, with which key, value and flags, and table
 * memory as it was before it. */
struct table_write {
	uint32_t tag; /* kind << 24 | flags << 8 | map */
	Z3_ast table; /* through map of maps map: the table's identity (bv8), or NULL */
	Z3_ast key, value;
	Z3_ast tm;
	uint32_t at; /* the insn or op */
};

enum { WRITE_UPDATE = 1, WRITE_DELETE = 2 };

#define ESP_MAX 4 /* crypto commands on one path */

/* A crypto unit command (bpf_hwxdp_esp_encap, esp) on a path, as the two
 * sides' sequences compare them: the SA handle, the L3 offset, and the
 * frame it works on (its bounds and bytes, the metadata's included). */
struct esp_cmd {
	Z3_ast handle, l3;
	Z3_ast data, data_end, data_meta;
	Z3_ast pkt;
	uint32_t at; /* the insn or op */
};

struct leaf {
	Z3_ast cond;
	uint32_t end; /* enum hwxdp_prove_end */
	Z3_ast value; /* bv32 */
	Z3_ast pkt, data, data_end, data_meta;
	Z3_ast writer; /* bv32 -> bv32: who wrote each packet byte last */
	Z3_ast tm;
	Z3_ast egress;
	uint32_t last;
	uint32_t prog; /* BPF: the image program last is an insn of */
	struct lookup lk[LOOKUP_MAX];
	uint32_t lk_cnt;
	struct table_write wr[WRITE_MAX];
	uint32_t wr_cnt;
	struct esp_cmd esp[ESP_MAX];
	uint32_t esp_cnt;
	uint32_t clock_cnt; /* the clock's reads (ktime, time) */
	uint32_t rand_cnt;  /* the random unit's reads (prandom, rand) */
	/* where the path forked last (struct node, -1 before any fork), and
	 * what holds here beyond the forks (a fault's condition), or NULL */
	int32_t node;
	Z3_ast extra;
};

/*
 * The tree of one exploration's forks: each path's condition, taken at a
 * fork, and the fork above it (-1: none). A leaf's path is its node and
 * the nodes above it; what holds between forks follows from them.
 */
struct node {
	Z3_ast c;
	int32_t parent;
};

/* A call's return: where, and the caller's r6..r9 and frame pointer. */
struct frame {
	uint32_t ret;
	Z3_ast saved[5];
};

struct sym {
	Z3_ast r[HXU_REGS];
	struct frame frames[HXU_RSTACK_DEPTH];
	uint32_t call_depth;
	Z3_ast pkt, lm;
	Z3_ast writer;
	Z3_ast tm;     /* table memory: bv64 -> bv8 */
	Z3_ast egress; /* bv64: map << 32 | key of the last redirect, or ~0 */
	Z3_ast data, data_end, data_meta;
	Z3_ast cond;
	struct lookup lk[LOOKUP_MAX];
	uint32_t lk_cnt;
	struct table_write wr[WRITE_MAX];
	uint32_t wr_cnt;
	struct esp_cmd esp[ESP_MAX];
	uint32_t esp_cnt;
	uint32_t clock_cnt; /* the clock's reads so far */
	uint32_t rand_cnt;  /* the random unit's reads so far */
	/* how many writes each map has had on this path: its contents are
	 * version ver[m] of the free functions */
	uint8_t ver[HXU_TABLES];
	uint32_t prog;	     /* BPF: the image program pc is an insn of */
	uint32_t tail_calls; /* counted so far, at most HXU_TAIL_CALL_MAX */
	uint32_t pc;
	uint32_t steps;
	int32_t back_edge; /* the last backward jump's source, or -1 */
	/* the solver holds cond as levels 1 .. level of its stack, but for
	 * pending, which a path waiting to be explored asserts on resuming */
	uint32_t level;
	Z3_ast pending;
	int32_t node; /* the last fork's, in struct prover's nodes */
	Z3_model model; /* a waiting path's input, or NULL (prover.model) */
};

struct side {
	struct leaf *leaves;
	uint32_t leaf_cnt;
};

struct prover {
	Z3_context z;
	Z3_solver s;
	Z3_sort bv8, bv32, bv64, mem;
	Z3_ast len; /* bv32: the frame's length */
	Z3_ast ingress, rx_queue;
	Z3_ast cpu; /* bv32: the CPU (the engine) the frame runs on */
	Z3_ast pkt0, lm0, writer0, tm0;
	Z3_ast outside; /* the window's bytes around the frame */
	/* what a fresh device and reference start with, where the proof
	 * leaves it free: the registers the programs read before writing
	 * them (of BPF, of the microcode), local memory, global data */
	Z3_ast start_regs[2][HXU_REGS];
	Z3_ast fresh;
	/* table memory addresses as values are the cells' plus this free
	 * amount: an outcome that depends on it depends on where the device
	 * put a value, which no replay reproduces */
	Z3_ast tm_shift;
	Z3_sort tmem;
	const struct hwxdp_map_desc *maps;
	size_t map_cnt;
	Z3_func_decl present[HXU_TABLES][WRITE_MAX + 1], slot[HXU_TABLES][WRITE_MAX + 1];
	uint32_t key_bits, value_bits; /* the widest key and value of the maps */
	/* maps of maps, by the map of maps: its contents (an entry's presence
	 * and its inner map's identity, a table id), whether a table id no
	 * map of the object has names a table that fits its template, and
	 * such a table's contents (an array's entries where the template
	 * leaves them open) */
	Z3_func_decl outer_present[HXU_TABLES], outer_inner[HXU_TABLES], inner_ok[HXU_TABLES];
	Z3_func_decl inner_present[HXU_TABLES][WRITE_MAX + 1];
	Z3_func_decl inner_slot[HXU_TABLES][WRITE_MAX + 1];
	Z3_func_decl inner_entries[HXU_TABLES];
	Z3_ast map_pointer; /* bv56: the high bits of BPF's map pointers */
	bool inner_regions; /* table ids past the maps' may be tables */
	/* the inner maps the lookups found are the object's: what a replay
	 * can fill */
	Z3_ast inner_objects;
	Z3_ast full[WRITE_MAX];	       /* a write finds its map full */
	uint32_t writes;	       /* writes compared */
	uint32_t esps;		       /* crypto commands compared */
	bool by_pairs;		       /* hwxdp_prove_opts.by_pairs */
	/* the explorer's open paths, and the one a split of this step made */
	struct sym *stack;
	uint32_t depth;
	struct sym *alt;
	Z3_ast alt_r;
	bool overflow;
	struct node *nodes;
	uint32_t node_cnt, node_cap;
	uint32_t hxu_node0; /* the microcode's first node: those before are BPF's */
	bool no_memory;
	Z3_ast tm_diff;
	/* the last differ_of's ways of differing that a replay sees (the end,
	 * the verdict, the frame, table memory), without the writes' and the
	 * crypto commands' sequences */
	Z3_ast visible;
	struct hwxdp_prove_result *res;
	uint64_t checks;
	uint32_t level;	  /* the solver's stack above the assumptions */
	/* an input on which everything the solver holds is true (the explored
	 * path so far), or NULL: a way of a fork it takes needs no query */
	Z3_model model;
	uint32_t timeout; /* ms per query */
	uint32_t max_len; /* the longest frame in */
	/* facts on the contents a path's map writes leave (under its
	 * condition), asserted for good once the paths are explored */
	Z3_ast *laws;
	int32_t *law_node; /* the fork each law's path ends below (-1: every path) */
	uint32_t law_cnt, law_cap;
	bool z3_error;
	Z3_tactic tactic[2]; /* the fresh solver's ways (fresh_tactic) */
	/* theorems on the divisions of the step being made (div_law) */
	Z3_ast div_laws[DIV_LAWS];
	uint32_t div_law_cnt;
	/* the BPF side */
	const struct bpf_insn *insns;
	size_t cnt;
	const struct hwxdp_verify_result *facts;
	/* the BPF side of each image program, which tail calls jump into
	 * (an entry without instructions: not known), and each program
	 * array's contents: image program numbers by index */
	const struct hwxdp_prove_prog *bprogs;
	uint32_t bprog_cnt;
	Z3_func_decl prog_slot[HXU_TABLES];
	/* the HXU side */
	const struct hxu_image *img;
	struct side bpf, hxu;
	struct side *cur;
};

enum step { STEP_NEXT, STEP_FORK, STEP_LEAF, STEP_FAIL };

/* A fork: to target when cond holds, else to fall. */
struct fork {
	Z3_ast cond;
	uint32_t target, fall;
};

static __thread struct prover *error_prover;

/* A solver with the time limit per query. */
static Z3_solver new_solver(struct prover *p, uint32_t timeout_ms)
{
	Z3_solver s = Z3_mk_simple_solver(p->z);
	Z3_params params;

	/* counted at once: the next call may free what is not */
	Z3_solver_inc_ref(p->z, s);
	params = Z3_mk_params(p->z);
	Z3_params_inc_ref(p->z, params);
	Z3_params_set_uint(p->z, params, Z3_mk_string_symbol(p->z, "timeout"), timeout_ms);
	Z3_solver_set_params(p->z, s, params);
	Z3_params_dec_ref(p->z, params);
	return s;
}

static void on_z3_error(Z3_context z, Z3_error_code code)
{
	(void)z;
	(void)code;
	if (error_prover)
		error_prover->z3_error = true;
}

__attribute__((format(printf, 2, 3))) static enum step not_proven(struct prover *p, const char *fmt,
								  ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->res->reason, sizeof(p->res->reason), fmt, ap);
	va_end(ap);
	p->res->status = HWXDP_PROVE_NOT_PROVEN;
	return STEP_FAIL;
}

static Z3_ast num(struct prover *p, uint64_t v, Z3_sort s)
{
	return Z3_mk_unsigned_int64(p->z, v, s);
}

static Z3_ast u64(struct prover *p, uint64_t v)
{
	return num(p, v, p->bv64);
}

static Z3_ast lo32(struct prover *p, Z3_ast a)
{
	return Z3_mk_extract(p->z, 31, 0, a);
}

static Z3_ast zext(struct prover *p, Z3_ast a, unsigned int to)
{
	unsigned int from = Z3_get_bv_sort_size(p->z, Z3_get_sort(p->z, a));

	return from == to ? a : Z3_mk_zero_ext(p->z, to - from, a);
}

static Z3_ast sext(struct prover *p, Z3_ast a, unsigned int to)
{
	unsigned int from = Z3_get_bv_sort_size(p->z, Z3_get_sort(p->z, a));

	return from == to ? a : Z3_mk_sign_ext(p->z, to - from, a);
}

static Z3_ast and2(struct prover *p, Z3_ast a, Z3_ast b)
{
	Z3_ast v[2] = { a, b };

	return Z3_mk_and(p->z, 2, v);
}

static Z3_ast or2(struct prover *p, Z3_ast a, Z3_ast b)
{
	Z3_ast v[2] = { a, b };

	return Z3_mk_or(p->z, 2, v);
}

static Z3_ast ne(struct prover *p, Z3_ast a, Z3_ast b)
{
	return Z3_mk_not(p->z, Z3_mk_eq(p->z, a, b));
}

/* The low n bits of a reversed byte by byte, zero-extended to 64. */
static Z3_ast bswap(struct prover *p, Z3_ast a, unsigned int bits)
{
	Z3_ast v = Z3_mk_extract(p->z, 7, 0, a);

	for (unsigned int i = 8; i < bits; i += 8)
		v = Z3_mk_concat(p->z, v, Z3_mk_extract(p->z, i + 7, i, a));
	return zext(p, v, 64);
}

static bool is_true(struct prover *p, Z3_ast a)
{
	return Z3_get_bool_value(p->z, a) == Z3_L_TRUE;
}

static bool is_false(struct prover *p, Z3_ast a)
{
	return Z3_get_bool_value(p->z, a) == Z3_L_FALSE;
}

static uint64_t now_ms(void);

/*
 * The fresh solver's ways, made once. Both solve equalities, put in the
 * values they give and take away the terms only one constraint holds (a
 * hash of free bytes a path only tests for 0, a checksum) as
 * unconstrained; the first then bit-blasts what is left with the
 * uninterpreted functions and arrays ackermannized where it can (QF_AUFBV:
 * fwd's queries in milliseconds, which the SMT core does not answer in
 * 8 s), the second hands it to the SMT core (a hash's or a checksum's
 * queries the first takes seconds on, in 0.2-0.8 s). Without taking the
 * unconstrained terms away, a bit-blasted multiplier of a hash no answer
 * depends on takes seconds (bypass_cpu: 3 s, and timeouts of 10 s).
 */
static Z3_tactic fresh_tactic(struct prover *p, int way)
{
	static const char *const steps[] = { "simplify", "propagate-values", "solve-eqs",
					     "elim-uncnstr", "simplify" };
	static const char *const last[] = { "qfaufbv", "smt" };
	Z3_context z = p->z;
	Z3_tactic t;

	if (p->tactic[way])
		return p->tactic[way];
	t = Z3_mk_tactic(z, steps[0]);
	Z3_tactic_inc_ref(z, t);
	for (size_t i = 1; i <= sizeof(steps) / sizeof(steps[0]); i++) {
		Z3_tactic next = Z3_mk_tactic(z, i < sizeof(steps) / sizeof(steps[0]) ? steps[i]
										      : last[way]);
		Z3_tactic both;

		Z3_tactic_inc_ref(z, next);
		both = Z3_tactic_and_then(z, t, next);
		Z3_tactic_inc_ref(z, both);
		Z3_tactic_dec_ref(z, next);
		Z3_tactic_dec_ref(z, t);
		t = both;
	}
	p->tactic[way] = t;
	return t;
}

/* One of the fresh solver's ways, with a time limit. */
static Z3_lbool check_fresh_way(struct prover *p, int way, uint32_t ms, Z3_ast cond,
				Z3_model *model)
{
	Z3_context z = p->z;
	Z3_solver s = Z3_mk_solver_from_tactic(z, fresh_tactic(p, way));
	Z3_ast_vector held;
	Z3_params params;
	Z3_lbool r;

	Z3_solver_inc_ref(z, s);
	params = Z3_mk_params(z);
	Z3_params_inc_ref(z, params);
	Z3_params_set_uint(z, params, Z3_mk_string_symbol(z, "timeout"), ms);
	Z3_solver_set_params(z, s, params);
	Z3_params_dec_ref(z, params);
	held = Z3_solver_get_assertions(z, p->s);
	Z3_ast_vector_inc_ref(z, held);
	for (unsigned int i = 0; i < Z3_ast_vector_size(z, held); i++)
		Z3_solver_assert(z, s, Z3_ast_vector_get(z, held, i));
	Z3_ast_vector_dec_ref(z, held);
	Z3_solver_assert(z, s, cond);
	r = Z3_solver_check(z, s);
	p->checks++;
	if (r == Z3_L_TRUE && model) {
		*model = Z3_solver_get_model(z, s);
		Z3_model_inc_ref(z, *model);
	}
	Z3_solver_dec_ref(z, s);
	return r;
}

/*
 * The path the solver holds, and cond, checked by a solver of its own: one
 * made for a single query preprocesses the whole condition at once, where
 * the incremental one cannot, and answers in milliseconds the long paths'
 * queries the incremental one gives up on. The first way (fresh_tactic)
 * for FRESH_MS, the second with the full time limit.
 */
static Z3_lbool check_fresh(struct prover *p, Z3_ast cond, Z3_model *model)
{
	Z3_lbool r =
		check_fresh_way(p, 0, p->timeout < FRESH_MS ? p->timeout : FRESH_MS, cond, model);

	return r != Z3_L_UNDEF ? r : check_fresh_way(p, 1, p->timeout, cond, model);
}

/* One query: the solver's state and cond; undecided by the incremental
 * solver, by a fresh one. A model, counted, where it holds and one is
 * asked for. */
static Z3_lbool query(struct prover *p, Z3_ast cond, Z3_model *model)
{
	Z3_context z = p->z;
	Z3_lbool r;

	Z3_solver_push(z, p->s);
	Z3_solver_assert(z, p->s, cond);
	r = Z3_solver_check(z, p->s);
	p->checks++;
	if (r == Z3_L_TRUE && model) {
		*model = Z3_solver_get_model(z, p->s);
		Z3_model_inc_ref(z, *model);
	}
	Z3_solver_pop(z, p->s, 1);
	if (r == Z3_L_UNDEF)
		r = check_fresh(p, cond, model);
	return r;
}

/* Whether model m makes c true (false also without a model). */
static bool model_holds(struct prover *p, Z3_model m, Z3_ast c)
{
	Z3_ast v;

	return m && Z3_model_eval(p->z, m, c, true, &v) && v && is_true(p, v);
}

static void model_set(struct prover *p, Z3_model *to, Z3_model m)
{
	if (*to)
		Z3_model_dec_ref(p->z, *to);
	*to = m;
}

/* c now holds on the explored path too: its input kept where it makes c
 * true, else dropped. */
static void model_check(struct prover *p, Z3_ast c)
{
	if (p->model && !model_holds(p, p->model, c))
		model_set(p, &p->model, NULL);
}

/*
 * Whether cond can hold on the path the solver holds (the explored one's
 * condition, sym.level); a timeout counts as yes, so that no path is
 * dropped on a guess. Where the path's input (prover.model) makes cond
 * true, no query: the solver is asked only where the input goes the other
 * way (one query for most forks, not two); the unsatisfiable ones are the
 * dear ones, and those are asked either way. *m (where asked for) is an
 * input for the path and cond, or NULL where none is known.
 */
static bool can_hold(struct prover *p, Z3_ast cond, Z3_model *m)
{
	Z3_model got = NULL;
	Z3_lbool r;

	if (m)
		*m = NULL;
	cond = Z3_simplify(p->z, cond);
	if (is_false(p, cond))
		return false;
	if (is_true(p, cond) || model_holds(p, p->model, cond)) {
		if (m && p->model) {
			Z3_model_inc_ref(p->z, p->model);
			*m = p->model;
		}
		return true;
	}
	r = query(p, cond, m ? &got : NULL);
	if (m)
		*m = got;
	return r != Z3_L_FALSE;
}

static bool feasible(struct prover *p, Z3_ast cond)
{
	return can_hold(p, cond, NULL);
}

/* A fork's node under parent, where c holds: its index, or parent when
 * out of memory (p->no_memory, which ends the exploration). */
static int32_t fork_node(struct prover *p, Z3_ast c, int32_t parent)
{
	if (p->node_cnt == p->node_cap) {
		uint32_t cap = p->node_cap ? 2 * p->node_cap : 1024;
		struct node *n = realloc(p->nodes, cap * sizeof(*n));

		if (!n) {
			p->no_memory = true;
			return parent;
		}
		p->nodes = n;
		p->node_cap = cap;
	}
	p->nodes[p->node_cnt] = (struct node){ c, parent };
	return (int32_t)p->node_cnt++;
}

/* The path st (the one the solver holds) goes on where c holds: one level
 * more on the solver's stack, incrementally solved from there. */
static void path_add(struct prover *p, struct sym *st, Z3_ast c)
{
	c = Z3_simplify(p->z, c);
	st->cond = and2(p, st->cond, c);
	Z3_solver_push(p->z, p->s);
	Z3_solver_assert(p->z, p->s, c);
	model_check(p, c);
	st->level = ++p->level;
	st->node = fork_node(p, c, st->node);
}

/* The solver made to hold st's path: back to the level st was left at,
 * and its own last condition. */
static void path_resume(struct prover *p, struct sym *st)
{
	if (p->level > st->level) {
		Z3_solver_pop(p->z, p->s, p->level - st->level);
		p->level = st->level;
	}
	model_set(p, &p->model, st->model);
	st->model = NULL;
	if (st->pending) {
		Z3_ast c = Z3_simplify(p->z, st->pending);

		Z3_solver_push(p->z, p->s);
		Z3_solver_assert(p->z, p->s, c);
		model_check(p, c);
		st->level = ++p->level;
		st->pending = NULL;
		st->node = fork_node(p, c, st->node);
	}
}

/* A fact that holds on st's path from now on: on the solver's stack for
 * this path, and kept to hold everywhere once exploring is done. */
static void law_at(struct prover *p, Z3_ast law, int32_t node)
{
	Z3_solver_assert(p->z, p->s, law);
	model_check(p, law);
	if (p->law_cnt == p->law_cap) {
		uint32_t cap = p->law_cap ? 2 * p->law_cap : 64;
		Z3_ast *n = realloc(p->laws, cap * sizeof(*n));
		int32_t *at = realloc(p->law_node, cap * sizeof(*at));

		if (at)
			p->law_node = at;
		if (!n || !at) {
			if (n)
				p->laws = n;
			p->z3_error = true;
			return;
		}
		p->laws = n;
		p->law_cap = cap;
	}
	p->law_node[p->law_cnt] = node;
	p->laws[p->law_cnt++] = law;
}

static void law(struct prover *p, Z3_ast law)
{
	law_at(p, law, -1);
}

/* The law's path is st's: the paths under st's last fork hold it, no other
 * path of that side can meet it (two forks' ways exclude each other). */
static void path_law(struct prover *p, const struct sym *st, Z3_ast fact)
{
	law_at(p, Z3_mk_implies(p->z, st->cond, fact), st->node);
}

/*
 * What an unsigned division or modulo by b gives, where b is not 0: a
 * theorem, kept for the step's path to assert (explore). The solver
 * bit-blasts a divider and then has to find these bounds through it,
 * seconds for one 64-bit modulo (bypass_cpu's CPU index, a hash modulo
 * a count, in range: over 10 s; 0.2 s with the bound stated).
 */
static void div_law(struct prover *p, Z3_ast b, Z3_ast bound)
{
	Z3_ast zero = num(p, 0, Z3_get_sort(p->z, b));

	if (Z3_is_numeral_ast(p->z, b) || p->div_law_cnt == DIV_LAWS)
		return;
	p->div_laws[p->div_law_cnt++] = Z3_mk_implies(p->z, ne(p, b, zero), bound);
}

static bool is_zero(struct prover *p, Z3_ast a)
{
	uint64_t v;

	return Z3_is_numeral_ast(p->z, a) && Z3_get_numeral_uint64(p->z, a, &v) && !v;
}

static bool same_value(struct prover *p, Z3_ast a, Z3_ast b)
{
	return Z3_is_eq_ast(p->z, Z3_simplify(p->z, a), Z3_simplify(p->z, b));
}

/* Whether d is the quotient alu() makes, ite(n == 0, 0, a / n): a and n. */
static bool quotient_of(struct prover *p, Z3_ast d, Z3_ast *a, Z3_ast *n)
{
	Z3_context z = p->z;
	Z3_app app, c, q;

	if (Z3_get_ast_kind(z, d) != Z3_APP_AST)
		return false;
	app = Z3_to_app(z, d);
	if (Z3_get_decl_kind(z, Z3_get_app_decl(z, app)) != Z3_OP_ITE ||
	    Z3_get_ast_kind(z, Z3_get_app_arg(z, app, 0)) != Z3_APP_AST ||
	    Z3_get_ast_kind(z, Z3_get_app_arg(z, app, 2)) != Z3_APP_AST ||
	    !is_zero(p, Z3_get_app_arg(z, app, 1)))
		return false;
	c = Z3_to_app(z, Z3_get_app_arg(z, app, 0));
	q = Z3_to_app(z, Z3_get_app_arg(z, app, 2));
	if (Z3_get_decl_kind(z, Z3_get_app_decl(z, c)) != Z3_OP_EQ ||
	    Z3_get_decl_kind(z, Z3_get_app_decl(z, q)) != Z3_OP_BUDIV ||
	    !is_zero(p, Z3_get_app_arg(z, c, 1)) ||
	    !Z3_is_eq_ast(z, Z3_get_app_arg(z, c, 0), Z3_get_app_arg(z, q, 1)))
		return false;
	*a = Z3_get_app_arg(z, q, 0);
	*n = Z3_get_app_arg(z, q, 1);
	return true;
}

/*
 * a - b, made r, where b is (a / n) * n, as a compiler makes a % n of a
 * division, a multiplication and a subtraction: a % n as alu() makes it
 * (a where n is 0, as a - 0 * n is), the same value as r, which the solver
 * would otherwise have to find through a multiplier and a divider of 64
 * bits (bypass_cpu's CPU index: over 10 s a query). The division may be
 * of the two's low halves (zero-extended): then r's low half is their
 * remainder, as no product q * n there passes a.
 */
static Z3_ast remainder_of(struct prover *p, Z3_ast a, Z3_ast b, Z3_ast r)
{
	Z3_context z = p->z;
	Z3_app app;
	Z3_ast q, qa, qn, n, zero;

	if (Z3_get_ast_kind(z, b) != Z3_APP_AST)
		return r;
	app = Z3_to_app(z, b);
	if (Z3_get_decl_kind(z, Z3_get_app_decl(z, app)) != Z3_OP_BMUL ||
	    Z3_get_app_num_args(z, app) != 2)
		return r;
	for (unsigned int i = 0; i < 2; i++) {
		q = Z3_get_app_arg(z, app, i);
		n = Z3_get_app_arg(z, app, 1 - i);
		if (!quotient_of(p, q, &qa, &qn))
			continue;
		if (same_value(p, qa, a) && same_value(p, qn, n)) {
			zero = u64(p, 0);
			q = Z3_mk_bvurem(z, a, n);
			div_law(p, n, and2(p, Z3_mk_bvult(z, q, n), Z3_mk_bvule(z, q, a)));
			return Z3_mk_ite(z, Z3_mk_eq(z, n, zero), a, q);
		}
		if (same_value(p, qa, zext(p, lo32(p, a), 64)) &&
		    same_value(p, qn, zext(p, lo32(p, n), 64))) {
			Z3_ast x = lo32(p, a), m = lo32(p, n);

			zero = num(p, 0, p->bv32);
			q = Z3_mk_bvurem(z, x, m);
			div_law(p, m, and2(p, Z3_mk_bvult(z, q, m), Z3_mk_bvule(z, q, x)));
			return Z3_mk_concat(z, Z3_mk_extract(z, 63, 32, r),
					    Z3_mk_ite(z, Z3_mk_eq(z, m, zero), x, q));
		}
	}
	return r;
}

/*
 * rd = a op b, BPF's semantics (docs/isa.md 4.1 has the same for HXU):
 * 32-bit operations work on the low halves and zero-extend, shifts are
 * masked, division by zero gives 0 and modulo by zero the dividend, the
 * most negative value divided by -1 itself and its modulo 0.
 */
static Z3_ast alu(struct prover *p, unsigned int op, bool sign, Z3_ast a, Z3_ast b, bool w32)
{
	Z3_context z = p->z;
	unsigned int bits = w32 ? 32 : 64;
	Z3_sort s = w32 ? p->bv32 : p->bv64;
	Z3_ast zero = num(p, 0, s), r;

	if (w32) {
		a = lo32(p, a);
		b = lo32(p, b);
	}
	switch (op) {
	case BPF_ADD:
		r = Z3_mk_bvadd(z, a, b);
		break;
	case BPF_SUB:
		r = Z3_mk_bvsub(z, a, b);
		if (!w32)
			r = remainder_of(p, a, b, r);
		break;
	case BPF_MUL:
		r = Z3_mk_bvmul(z, a, b);
		break;
	case BPF_DIV:
		/* bvsdiv truncates as C does; MIN / -1 wraps to MIN in two's
		 * complement, which is BPF's answer */
		r = sign ? Z3_mk_bvsdiv(z, a, b) : Z3_mk_bvudiv(z, a, b);
		if (!sign)
			div_law(p, b, Z3_mk_bvule(z, r, a));
		r = Z3_mk_ite(z, Z3_mk_eq(z, b, zero), zero, r);
		break;
	case BPF_MOD:
		r = sign ? Z3_mk_bvsrem(z, a, b) : Z3_mk_bvurem(z, a, b);
		if (!sign)
			div_law(p, b, and2(p, Z3_mk_bvult(z, r, b), Z3_mk_bvule(z, r, a)));
		r = Z3_mk_ite(z, Z3_mk_eq(z, b, zero), a, r);
		break;
	case BPF_OR:
		r = Z3_mk_bvor(z, a, b);
		break;
	case BPF_AND:
		r = Z3_mk_bvand(z, a, b);
		break;
	case BPF_XOR:
		r = Z3_mk_bvxor(z, a, b);
		break;
	case BPF_LSH:
		r = Z3_mk_bvshl(z, a, Z3_mk_bvand(z, b, num(p, bits - 1, s)));
		break;
	case BPF_RSH:
		r = Z3_mk_bvlshr(z, a, Z3_mk_bvand(z, b, num(p, bits - 1, s)));
		break;
	case BPF_ARSH:
		r = Z3_mk_bvashr(z, a, Z3_mk_bvand(z, b, num(p, bits - 1, s)));
		break;
	case BPF_NEG:
		r = Z3_mk_bvneg(z, a);
		break;
	case BPF_MOV:
		r = b;
		break;
	default:
		return NULL;
	}
	return zext(p, r, 64);
}

static Z3_ast cmp(struct prover *p, unsigned int op, Z3_ast a, Z3_ast b, bool w32)
{
	Z3_context z = p->z;

	if (w32) {
		a = lo32(p, a);
		b = lo32(p, b);
	}
	switch (op) {
	case BPF_JEQ:
		return Z3_mk_eq(z, a, b);
	case BPF_JNE:
		return ne(p, a, b);
	case BPF_JGT:
		return Z3_mk_bvugt(z, a, b);
	case BPF_JGE:
		return Z3_mk_bvuge(z, a, b);
	case BPF_JLT:
		return Z3_mk_bvult(z, a, b);
	case BPF_JLE:
		return Z3_mk_bvule(z, a, b);
	case BPF_JSGT:
		return Z3_mk_bvsgt(z, a, b);
	case BPF_JSGE:
		return Z3_mk_bvsge(z, a, b);
	case BPF_JSLT:
		return Z3_mk_bvslt(z, a, b);
	case BPF_JSLE:
		return Z3_mk_bvsle(z, a, b);
	case BPF_JSET:
		return ne(p, Z3_mk_bvand(z, a, b), num(p, 0, Z3_get_sort(z, a)));
	}
	return NULL;
}

static bool const_of(struct prover *p, Z3_ast a, uint64_t *v)
{
	a = Z3_simplify(p->z, a);
	return Z3_is_numeral_ast(p->z, a) && Z3_get_numeral_uint64(p->z, a, v);
}

/* The index of byte addr + i of mem: the packet and local memory take 32-bit
 * offsets, table memory 64-bit addresses. */
static Z3_ast cell(struct prover *p, Z3_ast mem, Z3_ast addr, unsigned int i)
{
	Z3_sort dom = Z3_get_array_sort_domain(p->z, Z3_get_sort(p->z, mem));

	/* simplified: a known offset is a numeral, which select and store
	 * chains are folded over */
	if (Z3_get_bv_sort_size(p->z, dom) == 64)
		return Z3_simplify(
			p->z, Z3_mk_bvadd(p->z, Z3_mk_bvsub(p->z, addr, p->tm_shift), u64(p, i)));
	return Z3_simplify(p->z, Z3_mk_bvadd(p->z, lo32(p, addr), num(p, i, p->bv32)));
}

/*
 * An address as a sum: a constant plus atoms times coefficients, each atom
 * an unsigned value of its width (a zero-extended or concatenated part, or
 * a whole term). Only what the prover builds for addresses is taken apart:
 * bvadd, bvmul by a numeral, zero_extend and concat; anything else is one
 * atom. ok is false when the form has too many atoms or could wrap.
 */
#define LIN_ATOMS 8

struct lin {
	unsigned __int128 c, hi; /* the constant, and the largest value */
	uint32_t n;
	struct {
		Z3_ast atom;
		unsigned __int128 coef;
	} t[LIN_ATOMS];
	bool ok;
};

static void lin_atom(struct prover *p, struct lin *l, Z3_ast a, unsigned __int128 mul)
{
	unsigned int bits = Z3_get_bv_sort_size(p->z, Z3_get_sort(p->z, a));
	unsigned __int128 max = bits >= 64 ? UINT64_MAX : ((unsigned __int128)1 << bits) - 1;

	for (uint32_t i = 0; i < l->n; i++)
		if (Z3_is_eq_ast(p->z, l->t[i].atom, a)) {
			l->t[i].coef += mul;
			l->hi += mul * max;
			return;
		}
	if (l->n == LIN_ATOMS) {
		l->ok = false;
		return;
	}
	l->t[l->n].atom = a;
	l->t[l->n++].coef = mul;
	l->hi += mul * max;
}

static void lin_of(struct prover *p, struct lin *l, Z3_ast a, unsigned __int128 mul)
{
	Z3_context z = p->z;
	uint64_t v;

	if (!l->ok || mul >> 64 || l->c >> 64 || l->hi >> 64) {
		l->ok = false;
		return;
	}
	if (Z3_is_numeral_ast(z, a) && Z3_get_numeral_uint64(z, a, &v)) {
		l->c += mul * v;
		l->hi += mul * v;
		return;
	}
	if (Z3_get_ast_kind(z, a) == Z3_APP_AST) {
		Z3_app app = Z3_to_app(z, a);
		Z3_decl_kind k = Z3_get_decl_kind(z, Z3_get_app_decl(z, app));
		unsigned int n = Z3_get_app_num_args(z, app);

		if (k == Z3_OP_BADD) {
			for (unsigned int i = 0; i < n; i++)
				lin_of(p, l, Z3_get_app_arg(z, app, i), mul);
			return;
		}
		if (k == Z3_OP_BMUL && n == 2 && Z3_is_numeral_ast(z, Z3_get_app_arg(z, app, 0)) &&
		    Z3_get_numeral_uint64(z, Z3_get_app_arg(z, app, 0), &v)) {
			lin_of(p, l, Z3_get_app_arg(z, app, 1), mul * v);
			return;
		}
		if (k == Z3_OP_ZERO_EXT) {
			lin_of(p, l, Z3_get_app_arg(z, app, 0), mul);
			return;
		}
		if (k == Z3_OP_CONCAT) {
			unsigned int shift = 0;

			for (unsigned int i = n; i-- > 0;) {
				Z3_ast part = Z3_get_app_arg(z, app, i);

				if (shift >= 64) {
					l->ok = false;
					return;
				}
				lin_of(p, l, part, mul << shift);
				shift += Z3_get_bv_sort_size(z, Z3_get_sort(z, part));
			}
			return;
		}
	}
	lin_atom(p, l, a, mul);
}

static unsigned __int128 gcd128(unsigned __int128 a, unsigned __int128 b)
{
	while (b) {
		unsigned __int128 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * Whether two cell indices of one memory can never be equal: their value
 * ranges part, or, once the atoms both have alike are taken away, what is
 * left cannot be 0 (its range, or the constant not a multiple of what the
 * atoms step by). Sound only without wrapping, which the forms exclude:
 * then a bit-vector equality is the integers'.
 */
static bool never_equal(struct prover *p, Z3_ast a, Z3_ast b)
{
	unsigned int bits = Z3_get_bv_sort_size(p->z, Z3_get_sort(p->z, a));
	unsigned __int128 top =
		bits >= 64 ? (unsigned __int128)UINT64_MAX : ((unsigned __int128)1 << bits) - 1;
	struct lin x = { .ok = true }, y = { .ok = true };
	__int128 lo, hi, g = 0;

	lin_of(p, &x, a, 1);
	lin_of(p, &y, b, 1);
	if (!x.ok || !y.ok || x.hi > top || y.hi > top)
		return false;
	if (x.hi < y.c || y.hi < x.c)
		return true;
	/* a - b over the integers: the atoms left with their coefficients */
	lo = hi = (__int128)x.c - (__int128)y.c;
	for (uint32_t i = 0; i < x.n + y.n; i++) {
		bool from_x = i < x.n;
		Z3_ast atom = from_x ? x.t[i].atom : y.t[i - x.n].atom;
		__int128 coef = from_x ? (__int128)x.t[i].coef : -(__int128)y.t[i - x.n].coef;
		unsigned int w = Z3_get_bv_sort_size(p->z, Z3_get_sort(p->z, atom));
		__int128 max = w >= 64 ? (__int128)UINT64_MAX : ((__int128)1 << w) - 1;
		bool seen = false;

		/* an atom of both counts once, with the difference */
		for (uint32_t j = 0; j < x.n + y.n; j++) {
			Z3_ast other = j < x.n ? x.t[j].atom : y.t[j - x.n].atom;

			if (j == i || !Z3_is_eq_ast(p->z, atom, other))
				continue;
			if (j < i)
				seen = true;
			else
				coef += j < x.n ? (__int128)x.t[j].coef
						: -(__int128)y.t[j - x.n].coef;
		}
		if (seen || !coef)
			continue;
		if (coef > 0)
			hi += coef * max;
		else
			lo += coef * max;
		g = (__int128)gcd128((unsigned __int128)(coef < 0 ? -coef : coef),
				     (unsigned __int128)g);
	}
	if (lo > 0 || hi < 0)
		return true;
	return g ? (x.c > y.c ? (x.c - y.c) % (unsigned __int128)g
			      : (y.c - x.c) % (unsigned __int128)g) != 0
		 : x.c != y.c;
}

/* Byte idx of mem: a store chain is followed past the stores that can
 * never be at idx, to the one that is (its byte) or the first that may be;
 * the memory of two joined paths, ite(c, m1, m2), is read on each (to a
 * depth, beyond which it stays one select). */
static Z3_ast select_in(struct prover *p, Z3_ast mem, Z3_ast idx, unsigned int depth)
{
	Z3_context z = p->z;

	while (Z3_get_ast_kind(z, mem) == Z3_APP_AST) {
		Z3_app app = Z3_to_app(z, mem);
		Z3_decl_kind k = Z3_get_decl_kind(z, Z3_get_app_decl(z, app));

		if (k == Z3_OP_ITE && depth) {
			Z3_ast a = select_in(p, Z3_get_app_arg(z, app, 1), idx, depth - 1);
			Z3_ast b = select_in(p, Z3_get_app_arg(z, app, 2), idx, depth - 1);

			return Z3_is_eq_ast(z, a, b)
				       ? a
				       : Z3_mk_ite(z, Z3_get_app_arg(z, app, 0), a, b);
		}
		if (k != Z3_OP_STORE)
			break;
		Z3_ast at = Z3_get_app_arg(z, app, 1);

		if (Z3_is_eq_ast(z, at, idx))
			return Z3_get_app_arg(z, app, 2);
		if (!never_equal(p, at, idx))
			break;
		mem = Z3_get_app_arg(z, app, 0);
	}
	return Z3_mk_select(z, mem, idx);
}

/*
 * The values a local memory index can take, where they are few: it is a
 * constant plus atoms of few bits times coefficients (a table on the
 * stack indexed by a nibble of the frame), so that it takes at most
 * SPREAD_MAX values c, c + g, ... up to its largest (g the gcd of the
 * coefficients; some of them perhaps never). Their count, 0 where there
 * are more or the index is a constant or may wrap. The values are a
 * superset of the index's: accesses taken one by one over them are the
 * access.
 */
static uint32_t spread(struct prover *p, Z3_ast mem, Z3_ast idx, uint64_t *v)
{
	Z3_context z = p->z;
	struct lin l = { .ok = true };
	unsigned __int128 g = 0;
	uint64_t cnt;

	if (Z3_is_numeral_ast(z, idx))
		return 0;
	lin_of(p, &l, idx, 1);
	if (!l.ok || !l.n || l.hi > UINT32_MAX)
		return 0;
	for (uint32_t i = 0; i < l.n; i++)
		g = gcd128(l.t[i].coef, g);
	if (!g || (l.hi - l.c) / g >= SPREAD_MAX)
		return 0;
	/* local memory's chain of stores, down to its start */
	while (Z3_get_ast_kind(z, mem) == Z3_APP_AST &&
	       Z3_get_decl_kind(z, Z3_get_app_decl(z, Z3_to_app(z, mem))) == Z3_OP_STORE)
		mem = Z3_get_app_arg(z, Z3_to_app(z, mem), 0);
	if (!Z3_is_eq_ast(z, mem, p->lm0))
		return 0;
	cnt = (uint64_t)((l.hi - l.c) / g) + 1;
	for (uint64_t j = 0; j < cnt; j++)
		v[j] = (uint64_t)(l.c + j * g);
	return (uint32_t)cnt;
}

/* Byte idx of mem; at an index of few values (spread), the byte at each
 * value, chosen by an ite: a table on the stack read at a nibble is then
 * bytes the stores before wrote, not a select through them. */
static Z3_ast select_cell(struct prover *p, Z3_ast mem, Z3_ast idx)
{
	uint64_t v[SPREAD_MAX];
	uint32_t k = spread(p, mem, idx, v);
	Z3_sort s = Z3_get_sort(p->z, idx);
	Z3_ast r;

	if (!k)
		return select_in(p, mem, idx, 6);
	r = select_in(p, mem, num(p, v[k - 1], s), 6);
	for (uint32_t j = k - 1; j-- > 0;)
		r = Z3_mk_ite(p->z, Z3_mk_eq(p->z, idx, num(p, v[j], s)),
			      select_in(p, mem, num(p, v[j], s), 6), r);
	return r;
}

/* Whether b is byte `at` of a value of n bytes, the one whole names (any
 * value when whole is NULL): that value, or NULL. */
static Z3_ast byte_of(struct prover *p, Z3_ast b, unsigned int at, unsigned int n, Z3_ast whole)
{
	Z3_context z = p->z;
	Z3_app app;
	Z3_func_decl d;
	Z3_ast v;

	if (Z3_get_ast_kind(z, b) != Z3_APP_AST)
		return NULL;
	app = Z3_to_app(z, b);
	d = Z3_get_app_decl(z, app);
	if (Z3_get_decl_kind(z, d) != Z3_OP_EXTRACT ||
	    (unsigned int)Z3_get_decl_int_parameter(z, d, 0) != 8 * at + 7 ||
	    (unsigned int)Z3_get_decl_int_parameter(z, d, 1) != 8 * at)
		return NULL;
	v = Z3_get_app_arg(z, app, 0);
	if (Z3_get_bv_sort_size(z, Z3_get_sort(z, v)) != 8 * n ||
	    (whole && !Z3_is_eq_ast(z, v, whole)))
		return NULL;
	return v;
}

/* n bytes at addr as one little-endian bit-vector of 8n bits. */
static Z3_ast read_bytes(struct prover *p, Z3_ast mem, Z3_ast addr, unsigned int n, bool be)
{
	Z3_ast v = NULL, whole = NULL;

	for (unsigned int i = 0; i < n; i++) {
		Z3_ast b = select_cell(p, mem, cell(p, mem, addr, i));
		unsigned int at = be ? n - 1 - i : i;

		/* the bytes of one value stored whole are that value: kept as
		 * it was, not as extracts the simplifier would take apart */
		if (i == 0 || whole)
			whole = byte_of(p, b, at, n, i == 0 ? NULL : whole);
		/* little-endian: byte i is above the ones before it */
		v = !v ? b : be ? Z3_mk_concat(p->z, v, b) : Z3_mk_concat(p->z, b, v);
	}
	return whole ? whole : v;
}

/* n bytes at addr of mem, in memory (little-endian) or network order,
 * zero-extended to 64 bits. */
static Z3_ast load(struct prover *p, Z3_ast mem, Z3_ast addr, unsigned int n, bool be)
{
	/* a byte a known store wrote is that byte's term, not a select */
	return Z3_simplify(p->z, zext(p, read_bytes(p, mem, addr, n, be), 64));
}

/*
 * Byte b stored at idx of mem, beneath the stores on top that are never at
 * idx and come after it in one fixed order (their terms' ids), to a depth:
 * two runs that make the same stores, independent ones in other orders
 * (the scheduler's), leave one term, and what later reads of it give is
 * one term too.
 */
static Z3_ast store_byte(struct prover *p, Z3_ast mem, Z3_ast idx, Z3_ast b, unsigned int depth)
{
	Z3_context z = p->z;

	if (depth && Z3_get_ast_kind(z, mem) == Z3_APP_AST) {
		Z3_app app = Z3_to_app(z, mem);
		Z3_ast at = Z3_get_app_num_args(z, app) == 3 ? Z3_get_app_arg(z, app, 1) : NULL;

		if (Z3_get_decl_kind(z, Z3_get_app_decl(z, app)) == Z3_OP_STORE &&
		    Z3_get_ast_id(z, at) > Z3_get_ast_id(z, idx) && never_equal(p, at, idx))
			return Z3_mk_store(
				z, store_byte(p, Z3_get_app_arg(z, app, 0), idx, b, depth - 1), at,
				Z3_get_app_arg(z, app, 2));
	}
	return Z3_mk_store(z, mem, idx, b);
}

static Z3_ast store(struct prover *p, Z3_ast mem, Z3_ast addr, unsigned int n, Z3_ast val, bool be)
{
	for (unsigned int i = 0; i < n; i++) {
		unsigned int at = be ? n - 1 - i : i;
		Z3_ast b = Z3_mk_extract(p->z, 8 * i + 7, 8 * i, val);
		Z3_ast idx = cell(p, mem, addr, at);
		uint64_t v[SPREAD_MAX];
		uint32_t k = spread(p, mem, idx, v);
		Z3_sort s = Z3_get_sort(p->z, idx);

		/* at an index of few values, a store at each of them of b or
		 * of what is there: every store then at a known offset */
		for (uint32_t j = 0; j < k; j++) {
			Z3_ast at_j = num(p, v[j], s);
			Z3_ast old = select_in(p, mem, at_j, 6);

			mem = store_byte(
				p, mem, at_j,
				Z3_simplify(p->z,
					    Z3_mk_ite(p->z, Z3_mk_eq(p->z, idx, at_j), b, old)),
				STORE_SORT_DEPTH);
		}
		if (!k)
			mem = store_byte(p, mem, idx, b, STORE_SORT_DEPTH);
	}
	return mem;
}

/*
 * The value address a lookup of key (little-endian bytes) in map m finds,
 * or 0: an array's element when the index is in range, for the maps whose
 * contents are the control plane's a free choice per key, made by the same
 * functions on both sides (present: the key has an entry; slot: where its
 * value is). NULL for a map type not modelled.
 */
/*
 * Splits st where a helper's result depends on c: st goes on with c, and a
 * copy with !c waits to be explored (p->alt, which the caller finishes as
 * the instruction ends there). Returns whether st is on c's side: when
 * only one side can hold, st takes it and there is no copy. Results stay
 * plain terms on each path instead of ite over every later access.
 */
static bool split(struct prover *p, struct sym *st, Z3_ast c)
{
	Z3_ast yes = and2(p, st->cond, c), no = and2(p, st->cond, Z3_mk_not(p->z, c));
	Z3_model mt, mf;
	bool t = can_hold(p, c, &mt), f = can_hold(p, Z3_mk_not(p->z, c), &mf);

	p->alt = NULL;
	if (t && f && p->depth < LEAF_MAX) {
		p->alt = &p->stack[p->depth++];
		*p->alt = *st;
		p->alt->cond = no;
		p->alt->pending = Z3_mk_not(p->z, c);
		p->alt->model = mf;
		model_set(p, &p->model, mt);
		path_add(p, st, c);
		return true;
	}
	model_set(p, &p->model, t ? mt : mf);
	model_set(p, t ? &mf : &mt, NULL);
	if (t && f) { /* no room to fork: the explorer gives up */
		p->overflow = true;
		return true;
	}
	/* the solver's path implies c or its negation already */
	st->cond = t ? yes : no;
	return t;
}

/*
 * The value address a lookup of key (little-endian bytes) in map m finds,
 * or 0, as one term: an array's element when the index is in range; for
 * the maps whose contents are the control plane's, a free choice per key
 * made by the same functions on both sides (present: the key has an
 * entry; slot: where its value is). NULL for a map type not modelled.
 */
static Z3_ast lookup_term(struct prover *p, uint32_t m, uint32_t ver, Z3_ast key, Z3_ast *hit,
			  Z3_ast *addr)
{
	const struct hwxdp_map_desc *d;
	Z3_context z = p->z;
	Z3_ast base, off;
	char name[HWXDP_NAME_MAX + 32];

	if (m >= p->map_cnt || m >= HXU_TABLES || ver > WRITE_MAX)
		return NULL;
	d = &p->maps[m];
	base = Z3_mk_bvadd(z, u64(p, MAP_BASE(m)), p->tm_shift);
	/* a per-CPU map's copy is the engine's (the CPU's): the frame sees
	 * that one, of contents as free as a shared map's */
	if (d->type == BPF_MAP_TYPE_ARRAY || d->type == BPF_MAP_TYPE_PERCPU_ARRAY) {
		Z3_ast idx = zext(p, Z3_mk_extract(z, 31, 0, key), 64);

		*hit = Z3_mk_bvult(z, idx, u64(p, d->max_entries));
		off = Z3_mk_bvmul(z, idx, u64(p, d->value_size));
	} else if (d->type == BPF_MAP_TYPE_HASH || d->type == BPF_MAP_TYPE_LRU_HASH ||
		   d->type == BPF_MAP_TYPE_PERCPU_HASH || d->type == BPF_MAP_TYPE_LRU_PERCPU_HASH ||
		   d->type == BPF_MAP_TYPE_LPM_TRIE || d->type == BPF_MAP_TYPE_DEVMAP ||
		   d->type == BPF_MAP_TYPE_DEVMAP_HASH) {
		if (!p->present[m][ver]) {
			Z3_sort ks = Z3_get_sort(z, key);

			snprintf(name, sizeof(name), ver ? "present_%s@%u" : "present_%s", d->name,
				 ver);
			p->present[m][ver] = Z3_mk_func_decl(z, Z3_mk_string_symbol(z, name), 1,
							     &ks, Z3_mk_bool_sort(z));
			snprintf(name, sizeof(name), ver ? "slot_%s@%u" : "slot_%s", d->name, ver);
			p->slot[m][ver] =
				Z3_mk_func_decl(z, Z3_mk_string_symbol(z, name), 1, &ks, p->bv32);
		}
		*hit = Z3_mk_app(z, p->present[m][ver], 1, &key);
		/* an LPM key's prefix longer than its data finds nothing */
		if (d->type == BPF_MAP_TYPE_LPM_TRIE && d->key_size > 4)
			*hit = and2(p, *hit,
				    Z3_mk_bvule(z, Z3_mk_extract(z, 31, 0, key),
						num(p, 8 * (d->key_size - 4), p->bv32)));
		off = Z3_mk_bvmul(z, zext(p, Z3_mk_app(z, p->slot[m][ver], 1, &key), 64),
				  u64(p, d->value_size));
	} else {
		return NULL;
	}
	*addr = Z3_mk_bvadd(z, base, off);
	/* a port map's entry of ifindex 0 is none: the kernel stores it as
	 * NULL, the device's redirect finds no port (programs do not write
	 * port maps: their values are the initial table memory's) */
	if (d->type == BPF_MAP_TYPE_DEVMAP || d->type == BPF_MAP_TYPE_DEVMAP_HASH)
		*hit = and2(p, *hit,
			    ne(p, read_bytes(p, p->tm0, *addr, 4, false), num(p, 0, p->bv32)));
	return Z3_mk_ite(z, *hit, *addr, u64(p, 0));
}

/* A lookup on st's path: recorded for the counterexample, split on a hit. */
static Z3_ast lookup(struct prover *p, struct sym *st, uint32_t m, Z3_ast key)
{
	Z3_ast hit, addr, v = lookup_term(p, m, st->ver[m], key, &hit, &addr);

	if (!v)
		return NULL;
	if (st->lk_cnt < LOOKUP_MAX)
		st->lk[st->lk_cnt++] = (struct lookup){ m, key };
	if (!split(p, st, hit))
		return u64(p, 0);
	if (p->alt)
		p->alt_r = u64(p, 0);
	return addr;
}

/*
 * Maps of maps (docs/isa.md, "Maps of maps"; docs/prove.md). The contents
 * of map of maps o are free and the same on both sides: present_o(key),
 * an entry for key, and inner_o(key), its inner map's identity, a table
 * id: one of the object's maps that fit o's template, or a table the
 * control plane made from the template at run time, named by an id past
 * the object's maps where inner_ok_o holds. BPF's value for an entry is a
 * map pointer, the microcode's a handle (2^32 + the id): other numbers,
 * each a function of the identity alone.
 */
static bool inner_fits(const struct prover *p, uint32_t o, uint32_t m)
{
	const struct hwxdp_map_desc *t = &p->maps[p->maps[o].inner_map], *d = &p->maps[m];
	struct hxu_inner_desc in = { t->type, t->key_size, t->value_size, t->max_entries,
				     t->map_flags };
	struct hxu_table_desc td = { .type = d->type,
				     .key_size = d->key_size,
				     .value_size = d->value_size,
				     .max_entries = d->max_entries,
				     .flags = d->map_flags };

	return d->origin != HWXDP_MAP_INNER && !hxu_map_of_maps(d->type) &&
	       hxu_inner_fits(&in, &td);
}

/* Whether identity id (bv8) names a table that fits map of maps o's
 * template; in *object, whether it is one of the object's maps. */
static Z3_ast inner_valid(struct prover *p, uint32_t o, Z3_ast id, Z3_ast *object)
{
	Z3_context z = p->z;
	Z3_ast made = Z3_mk_false(z);
	char name[HWXDP_NAME_MAX + 32];

	*object = Z3_mk_false(z);
	for (uint32_t m = 0; m < p->map_cnt && m < HXU_TABLES; m++)
		if (inner_fits(p, o, m))
			*object = or2(p, *object, Z3_mk_eq(z, id, num(p, m, p->bv8)));
	if (p->map_cnt < HXU_TABLES) {
		if (!p->inner_ok[o]) {
			snprintf(name, sizeof(name), "inner_ok_%s", p->maps[o].name);
			p->inner_ok[o] = Z3_mk_func_decl(z, Z3_mk_string_symbol(z, name), 1,
							 &p->bv8, Z3_mk_bool_sort(z));
		}
		made = and2(p, Z3_mk_bvuge(z, id, num(p, p->map_cnt, p->bv8)),
			    Z3_mk_app(z, p->inner_ok[o], 1, &id));
	}
	return or2(p, *object, made);
}

/* The entry of map of maps o for key (little-endian bytes): whether there
 * is one, in *hit, and its inner map's identity (bv8), in *id. */
static void outer_term(struct prover *p, uint32_t o, Z3_ast key, Z3_ast *hit, Z3_ast *id)
{
	const struct hwxdp_map_desc *d = &p->maps[o];
	Z3_context z = p->z;
	Z3_sort ks = Z3_get_sort(z, key);
	Z3_ast object;
	char name[HWXDP_NAME_MAX + 32];

	if (!p->outer_present[o]) {
		snprintf(name, sizeof(name), "present_%s", d->name);
		p->outer_present[o] = Z3_mk_func_decl(z, Z3_mk_string_symbol(z, name), 1, &ks,
						      Z3_mk_bool_sort(z));
		snprintf(name, sizeof(name), "inner_%s", d->name);
		p->outer_inner[o] =
			Z3_mk_func_decl(z, Z3_mk_string_symbol(z, name), 1, &ks, p->bv8);
	}
	*id = Z3_mk_app(z, p->outer_inner[o], 1, &key);
	*hit = and2(p, Z3_mk_app(z, p->outer_present[o], 1, &key), inner_valid(p, o, *id, &object));
	if (d->type == BPF_MAP_TYPE_ARRAY_OF_MAPS)
		*hit = and2(p,
			    Z3_mk_bvult(z, Z3_mk_extract(z, 31, 0, key),
					num(p, d->max_entries, p->bv32)),
			    *hit);
	/* the entries a counterexample fills name the object's maps */
	object = Z3_mk_implies(z, *hit, object);
	p->inner_objects = p->inner_objects ? and2(p, p->inner_objects, object) : object;
}

/* A lookup in map of maps o on st's path, split on an entry: BPF's map
 * pointer (bpf) or the microcode's handle for one, else 0. */
static Z3_ast outer_lookup(struct prover *p, struct sym *st, uint32_t o, Z3_ast key, bool bpf)
{
	Z3_context z = p->z;
	Z3_ast hit, id, v;

	outer_term(p, o, key, &hit, &id);
	if (!p->map_pointer) {
		Z3_sort s56 = Z3_mk_bv_sort(z, 56);

		/* a kernel address: never 0, never a handle */
		p->map_pointer =
			Z3_mk_bvor(z, Z3_mk_const(z, Z3_mk_string_symbol(z, "map_pointer"), s56),
				   num(p, 1ull << 55, s56));
	}
	v = bpf ? Z3_mk_concat(z, p->map_pointer, id)
		: Z3_mk_concat(z, num(p, HXU_HANDLE_TAG >> 32, p->bv32), zext(p, id, 32));
	if (st->lk_cnt < LOOKUP_MAX)
		st->lk[st->lk_cnt++] = (struct lookup){ o, key, NULL };
	if (!split(p, st, hit))
		return u64(p, 0);
	if (p->alt)
		p->alt_r = u64(p, 0);
	return v;
}

/*
 * A lookup of key in table id (bv8), one the control plane made from map of
 * maps o's template at run time, at version ver of what such tables hold
 * (the writes through them on the path so far: o itself, which no program
 * writes, counts them in the path's ver[o]): free functions of the
 * identity and the key say it (an array's entries are the template's, or
 * free per identity with BPF_F_INNER_MAP), its values at id's place in
 * table memory. NULL for a template of a type not modelled.
 */
static Z3_ast made_term(struct prover *p, uint32_t o, uint32_t ver, Z3_ast id, Z3_ast key,
			Z3_ast *hit, Z3_ast *addr)
{
	const struct hwxdp_map_desc *t = &p->maps[p->maps[o].inner_map];
	Z3_context z = p->z;
	Z3_ast base, off;
	char name[HWXDP_NAME_MAX + 32];

	if (ver > WRITE_MAX)
		return NULL;
	/* MAP_BASE(id) */
	base = Z3_mk_bvadd(z,
			   Z3_mk_bvshl(z, Z3_mk_bvadd(z, zext(p, id, 64), u64(p, 1)), u64(p, 48)),
			   p->tm_shift);
	if (t->type == BPF_MAP_TYPE_ARRAY || t->type == BPF_MAP_TYPE_PERCPU_ARRAY) {
		Z3_ast idx = zext(p, Z3_mk_extract(z, 31, 0, key), 64);
		Z3_ast entries = u64(p, t->max_entries);

		if (t->map_flags & BPF_F_INNER_MAP) {
			if (!p->inner_entries[o]) {
				snprintf(name, sizeof(name), "entries_%s_inner", p->maps[o].name);
				p->inner_entries[o] = Z3_mk_func_decl(
					z, Z3_mk_string_symbol(z, name), 1, &p->bv8, p->bv32);
			}
			entries = zext(p, Z3_mk_app(z, p->inner_entries[o], 1, &id), 64);
		}
		*hit = Z3_mk_bvult(z, idx, entries);
		off = Z3_mk_bvmul(z, idx, u64(p, t->value_size));
	} else if (t->type == BPF_MAP_TYPE_HASH || t->type == BPF_MAP_TYPE_LRU_HASH ||
		   t->type == BPF_MAP_TYPE_PERCPU_HASH || t->type == BPF_MAP_TYPE_LRU_PERCPU_HASH ||
		   t->type == BPF_MAP_TYPE_LPM_TRIE) {
		Z3_sort dom[2] = { p->bv8, Z3_get_sort(z, key) };
		Z3_ast args[2] = { id, key };

		if (!p->inner_present[o][ver]) {
			snprintf(name, sizeof(name),
				 ver ? "present_%s_inner@%u" : "present_%s_inner", p->maps[o].name,
				 ver);
			p->inner_present[o][ver] = Z3_mk_func_decl(z, Z3_mk_string_symbol(z, name),
								   2, dom, Z3_mk_bool_sort(z));
			snprintf(name, sizeof(name), ver ? "slot_%s_inner@%u" : "slot_%s_inner",
				 p->maps[o].name, ver);
			p->inner_slot[o][ver] =
				Z3_mk_func_decl(z, Z3_mk_string_symbol(z, name), 2, dom, p->bv32);
		}
		*hit = Z3_mk_app(z, p->inner_present[o][ver], 2, args);
		if (t->type == BPF_MAP_TYPE_LPM_TRIE && t->key_size > 4)
			*hit = and2(p, *hit,
				    Z3_mk_bvule(z, Z3_mk_extract(z, 31, 0, key),
						num(p, 8 * (t->key_size - 4), p->bv32)));
		off = Z3_mk_bvmul(z, zext(p, Z3_mk_app(z, p->inner_slot[o][ver], 2, args), 64),
				  u64(p, t->value_size));
	} else {
		return NULL;
	}
	*addr = Z3_mk_bvadd(z, base, off);
	return Z3_mk_ite(z, *hit, *addr, u64(p, 0));
}

/*
 * A lookup of key in inner map id (bv8) of map of maps o, the maps' contents
 * at versions ver: where id is the object's map m, what a lookup in m finds;
 * else what the made table id holds (made_term). NULL for a template of a
 * type not modelled.
 */
static Z3_ast inner_term(struct prover *p, const uint8_t *ver, uint32_t o, Z3_ast id, Z3_ast key,
			 Z3_ast *hit, Z3_ast *addr)
{
	const struct hwxdp_map_desc *t = &p->maps[p->maps[o].inner_map];
	bool array = t->type == BPF_MAP_TYPE_ARRAY || t->type == BPF_MAP_TYPE_PERCPU_ARRAY;
	Z3_context z = p->z;

	if (!made_term(p, o, ver[o], id, key, hit, addr))
		return NULL;
	for (uint32_t m = p->map_cnt < HXU_TABLES ? (uint32_t)p->map_cnt : HXU_TABLES; m-- > 0;) {
		Z3_ast h, a, is;

		if (!inner_fits(p, o, m))
			continue;
		if (!lookup_term(p, m, ver[m], key, &h, &a))
			return NULL;
		is = Z3_mk_eq(z, id, num(p, m, p->bv8));
		*hit = Z3_mk_ite(z, is, h, *hit);
		/* an array's element is at the same offset in every map that
		 * fits: the address above is m's where id is m */
		if (!array)
			*addr = Z3_mk_ite(z, is, a, *addr);
	}
	return Z3_mk_ite(z, *hit, *addr, u64(p, 0));
}

/* A lookup in inner map id of map of maps o on st's path, split on a hit. */
static Z3_ast inner_lookup(struct prover *p, struct sym *st, uint32_t o, Z3_ast id, Z3_ast key)
{
	Z3_ast hit, addr;

	if (!inner_term(p, st->ver, o, id, key, &hit, &addr))
		return NULL;
	if (st->lk_cnt < LOOKUP_MAX)
		st->lk[st->lk_cnt++] = (struct lookup){ o, key, id };
	if (!split(p, st, hit))
		return u64(p, 0);
	if (p->alt)
		p->alt_r = u64(p, 0);
	return addr;
}

static Z3_ast pad(struct prover *p, Z3_ast v, unsigned int bits)
{
	return v ? zext(p, v, bits) : num(p, 0, Z3_mk_bv_sort(p->z, bits));
}

/*
 * bpf_map_update_elem and tupdate (value not NULL), bpf_map_delete_elem
 * and tdelete, on an array, hash or LRU hash map: the kernel's result for
 * the contents before (an array's delete -EINVAL, its update -E2BIG out of
 * range, a flag the kernel refuses -EINVAL, BPF_NOEXIST on a present key
 * -EEXIST, BPF_EXIST or a delete on an absent one -ENOENT, a new key in a
 * full hash map -E2BIG, the free choice full[n]). Afterwards the map's
 * contents are free again, a new version of its functions and its table
 * memory, the same on both sides after the same sequence of writes: the
 * sequences and table memory before each write are compared (compare()),
 * so what came before a write is not lost in it. NULL for what is not
 * modelled; *why says it. With id, the write is on the table of that
 * identity that the control plane made from map of maps m's template
 * (made_term), whose versions m's count.
 */
static Z3_ast map_write(struct prover *p, struct sym *st, uint32_t m, Z3_ast id, Z3_ast key,
			Z3_ast value, uint64_t flags, uint32_t at, const char **why)
{
	const struct hwxdp_map_desc *d = m >= p->map_cnt ? NULL
					 : id		 ? &p->maps[p->maps[m].inner_map]
							 : &p->maps[m];
	Z3_context z = p->z;
	Z3_ast hit, addr, rc, zero = u64(p, 0), tm, fresh, a, in_map;
	uint32_t n = st->wr_cnt, ver;
	Z3_symbol name;
	char buf[HWXDP_NAME_MAX + 32];

	*why = "a map of this type";
	if (!d || (d->type != BPF_MAP_TYPE_ARRAY && d->type != BPF_MAP_TYPE_HASH &&
		   d->type != BPF_MAP_TYPE_LRU_HASH))
		return NULL;
	*why = "more than 8 map writes on a path";
	if (n == WRITE_MAX || st->ver[m] == WRITE_MAX)
		return NULL;
	ver = st->ver[m];
	if (!(id ? made_term(p, m, ver, id, key, &hit, &addr)
		 : lookup_term(p, m, ver, key, &hit, &addr)))
		return NULL;
#define ERR(e) u64(p, (uint64_t) - (e))
	if (d->type == BPF_MAP_TYPE_ARRAY) {
		rc = !value		    ? ERR(EINVAL)
		     : flags > BPF_EXIST    ? ERR(EINVAL)
		     : flags == BPF_NOEXIST ? Z3_mk_ite(z, hit, ERR(EEXIST), ERR(E2BIG))
					    : Z3_mk_ite(z, hit, zero, ERR(E2BIG));
	} else if (!value) {
		rc = Z3_mk_ite(z, hit, zero, ERR(ENOENT));
	} else if (flags > BPF_EXIST) {
		rc = ERR(EINVAL);
	} else {
		Z3_ast add = zero;

		if (!p->full[n]) {
			snprintf(buf, sizeof(buf), "full@%u", n);
			p->full[n] =
				Z3_mk_const(z, Z3_mk_string_symbol(z, buf), Z3_mk_bool_sort(z));
		}
		/* an LRU map evicts instead of refusing */
		if (d->type == BPF_MAP_TYPE_HASH)
			add = Z3_mk_ite(z, p->full[n], ERR(E2BIG), zero);
		rc = flags == BPF_NOEXIST ? Z3_mk_ite(z, hit, ERR(EEXIST), add)
		     : flags == BPF_EXIST ? Z3_mk_ite(z, hit, zero, ERR(ENOENT))
					  : Z3_mk_ite(z, hit, zero, add);
	}
#undef ERR
	st->wr[n] = (struct table_write){
		.tag = (uint32_t)(value ? WRITE_UPDATE : WRITE_DELETE) << 24 |
		       (uint32_t)(flags & 0xffff) << 8 | m,
		.table = id,
		.key = pad(p, key, p->key_bits),
		.value = pad(p, value, p->value_bits),
		.tm = st->tm,
		.at = at,
	};
	st->wr_cnt++;
	if (st->lk_cnt < LOOKUP_MAX)
		st->lk[st->lk_cnt++] = (struct lookup){ m, key, id };
	/* the map's table memory afterwards: free, named by the write */
	snprintf(buf, sizeof(buf), id ? "table_memory_%s_inner@%u" : "table_memory_%s@%u",
		 p->maps[m].name, ver + 1);
	fresh = Z3_mk_const(z, Z3_mk_string_symbol(z, buf), p->tmem);
	name = Z3_mk_string_symbol(z, "a");
	a = Z3_mk_bound(z, 0, Z3_mk_bv_sort(z, 64));
	in_map = Z3_mk_eq(z, Z3_mk_extract(z, 63, 48, a),
			  id ? Z3_mk_bvadd(z, zext(p, id, 16), num(p, 1, Z3_mk_bv_sort(z, 16)))
			     : num(p, m + 1, Z3_mk_bv_sort(z, 16)));
	{
		Z3_sort s64 = Z3_mk_bv_sort(z, 64);

		tm = Z3_mk_lambda(z, 1, &s64, &name,
				  Z3_mk_ite(z, in_map, Z3_mk_select(z, fresh, a),
					    Z3_mk_select(z, st->tm, a)));
	}
	st->tm = tm;
	st->ver[m]++;
	/* what the write leaves at its own key, as BPF's path has it: the
	 * next version agrees with the kernel there (the microcode's writes
	 * meet the same version only when they are the same writes) */
	if (p->cur == &p->bpf) {
		Z3_ast ok = Z3_mk_eq(z, rc, zero), hit2, addr2, fact;

		if (id)
			made_term(p, m, ver + 1, id, key, &hit2, &addr2);
		else
			lookup_term(p, m, ver + 1, key, &hit2, &addr2);
		fact = Z3_mk_eq(z, hit2,
				Z3_mk_ite(z, ok, value ? Z3_mk_true(z) : Z3_mk_false(z), hit));
		if (value) {
			Z3_ast stored = read_bytes(p, fresh, addr2, d->value_size, false);

			fact = and2(p, fact, Z3_mk_implies(z, ok, Z3_mk_eq(z, stored, value)));
		}
		if (d->type == BPF_MAP_TYPE_ARRAY && value)
			fact = Z3_mk_implies(
				z, ok,
				Z3_mk_eq(z, read_bytes(p, fresh, addr2, d->value_size, false),
					 value));
		path_law(p, st, fact);
	}
	return rc;
}

static Z3_ast table_write(struct prover *p, struct sym *st, uint32_t m, Z3_ast key, Z3_ast value,
			  uint64_t flags, uint32_t at, const char **why)
{
	return map_write(p, st, m, NULL, key, value, flags, at, why);
}

/*
 * A write (an update with value, else a delete) through inner map id of
 * map of maps o: where id is one of the object's maps that fit the
 * template, that map's write; the path splits on each, and the part where
 * id is another runs the instruction again, to meet the next. Past them,
 * the write on the table made at run time that id names.
 */
static Z3_ast inner_write(struct prover *p, struct sym *st, uint32_t o, Z3_ast id, Z3_ast key,
			  Z3_ast value, uint64_t flags, uint32_t at, const char **why)
{
	for (uint32_t m = 0; m < p->map_cnt && m < HXU_TABLES; m++) {
		if (!inner_fits(p, o, m) || !split(p, st, Z3_mk_eq(p->z, id, num(p, m, p->bv8))))
			continue;
		/* the split-off part runs the instruction again, as it was */
		p->alt = NULL;
		return table_write(p, st, m, key, value, flags, at, why);
	}
	return map_write(p, st, o, id, key, value, flags, at, why);
}

/*
 * bpf_xdp_adjust_head and hadj (docs/isa.md 4.4, the kernel's limits): data
 * moves by the low 32 bits of delta, signed, unless it would fall below
 * the 40 bytes of struct xdp_frame plus the metadata or within 14 bytes of
 * data_end; 0 or -EINVAL. NULL when the metadata's length is not known.
 */
static Z3_ast adjust_head(struct prover *p, struct sym *st, Z3_ast delta)
{
	Z3_context z = p->z;
	Z3_ast d = sext(p, lo32(p, delta), 64);
	Z3_ast to = Z3_mk_bvadd(z, st->data, d);
	Z3_ast meta = Z3_mk_bvsub(z, st->data, st->data_meta);
	Z3_ast low = Z3_mk_bvadd(z, u64(p, HXU_FRAME_RESERVED), meta);
	Z3_ast bad = or2(p, Z3_mk_bvslt(z, to, low),
			 Z3_mk_bvsgt(z, to, Z3_mk_bvsub(z, st->data_end, u64(p, HXU_ETH_HLEN))));
	uint64_t metalen;

	/* the metadata moves with data: bytes of a length known here */
	if (!const_of(p, meta, &metalen) || metalen > HXU_META_MAX)
		return NULL;
	if (!split(p, st, Z3_mk_not(z, bad)))
		return u64(p, (uint64_t)-EINVAL);
	if (p->alt)
		p->alt_r = u64(p, (uint64_t)-EINVAL);
	if (metalen) {
		Z3_ast moved = st->pkt;

		for (uint64_t i = 0; i < metalen; i++) {
			Z3_ast from = Z3_mk_bvadd(z, st->data_meta, u64(p, i));
			Z3_ast b = Z3_mk_select(z, st->pkt, lo32(p, from));

			moved = Z3_mk_store(z, moved, lo32(p, Z3_mk_bvadd(z, from, d)), b);
		}
		st->pkt = moved;
	}
	st->data = to;
	st->data_meta = Z3_mk_bvadd(z, st->data_meta, d);
	return u64(p, 0);
}

/*
 * bpf_xdp_adjust_meta and madj: data_meta moves by delta unless it would
 * fall below the 40 reserved bytes or beyond data (-EINVAL), or leave
 * metadata that is not a multiple of 4 bytes up to 255 (-EACCES).
 */
static Z3_ast adjust_meta(struct prover *p, struct sym *st, Z3_ast delta)
{
	Z3_context z = p->z;
	Z3_ast to = Z3_mk_bvadd(z, st->data_meta, sext(p, lo32(p, delta), 64));
	Z3_ast len = Z3_mk_bvsub(z, st->data, to);
	Z3_ast inval = or2(p, Z3_mk_bvslt(z, to, u64(p, HXU_FRAME_RESERVED)),
			   Z3_mk_bvsgt(z, to, st->data));
	Z3_ast acces = or2(p, ne(p, Z3_mk_bvand(z, len, u64(p, 3)), u64(p, 0)),
			   Z3_mk_bvugt(z, len, u64(p, HXU_META_MAX)));
	Z3_ast ok = and2(p, Z3_mk_not(z, inval), Z3_mk_not(z, acces));
	Z3_ast err = Z3_mk_ite(z, inval, u64(p, (uint64_t)-EINVAL), u64(p, (uint64_t)-EACCES));

	if (!split(p, st, ok))
		return err;
	if (p->alt)
		p->alt_r = err;
	st->data_meta = to;
	return u64(p, 0);
}

/*
 * bpf_xdp_adjust_tail and tadj: data_end moves by the low 32 bits of delta,
 * signed, unless it would pass the window's end or come within 14 bytes of
 * data (-EINVAL); the bytes a growth adds are zero, written at pc.
 */
static Z3_ast adjust_tail(struct prover *p, struct sym *st, Z3_ast delta, uint32_t pc)
{
	Z3_context z = p->z;
	Z3_ast to = Z3_mk_bvadd(z, st->data_end, sext(p, lo32(p, delta), 64));
	Z3_ast bad = or2(p, Z3_mk_bvsgt(z, to, u64(p, HXU_WINDOW_SIZE)),
			 Z3_mk_bvslt(z, to, Z3_mk_bvadd(z, st->data, u64(p, HXU_ETH_HLEN))));
	Z3_ast i, grown, lo, hi;
	Z3_symbol name;

	if (!split(p, st, Z3_mk_not(z, bad)))
		return u64(p, (uint64_t)-EINVAL);
	if (p->alt)
		p->alt_r = u64(p, (uint64_t)-EINVAL);
	/* the cells from the old end to the new one, none when it shrinks */
	name = Z3_mk_string_symbol(z, "i");
	i = Z3_mk_bound(z, 0, p->bv32);
	lo = lo32(p, st->data_end);
	hi = lo32(p, to);
	grown = and2(p, Z3_mk_bvuge(z, i, lo), Z3_mk_bvult(z, i, hi));
	st->pkt = Z3_mk_lambda(z, 1, &p->bv32, &name,
			       Z3_mk_ite(z, grown, num(p, 0, p->bv8), Z3_mk_select(z, st->pkt, i)));
	st->writer = Z3_mk_lambda(
		z, 1, &p->bv32, &name,
		Z3_mk_ite(z, grown, num(p, pc, p->bv32), Z3_mk_select(z, st->writer, i)));
	st->data_end = to;
	return u64(p, 0);
}

static Z3_ast mark(struct prover *p, Z3_ast writer, Z3_ast addr, unsigned int n, uint32_t pc);

/* x folded to 16 bits with end-around carries, as the checksum unit does. */
static Z3_ast csum_fold(struct prover *p, Z3_ast x)
{
	Z3_context z = p->z;

	for (int k = 0; k < 2; k++)
		x = Z3_mk_bvadd(z, Z3_mk_bvand(z, x, u64(p, 0xffffffffu)),
				Z3_mk_bvlshr(z, x, u64(p, 32)));
	for (int k = 0; k < 3; k++)
		x = Z3_mk_bvadd(z, Z3_mk_bvand(z, x, u64(p, 0xffff)),
				Z3_mk_bvlshr(z, x, u64(p, 16)));
	return x;
}

/* csum16 [addr], v (docs/isa.md 4.4): the 16-bit field as ld16 reads it
 * plus v folded, one's-complement, a result of 0xffff stored as 0. */
static void csum16(struct prover *p, struct sym *st, Z3_ast addr, Z3_ast v, uint32_t pc)
{
	Z3_context z = p->z;
	Z3_ast sum = Z3_mk_bvadd(z, load(p, st->pkt, addr, 2, false), csum_fold(p, v));

	sum = Z3_mk_bvadd(z, Z3_mk_bvand(z, sum, u64(p, 0xffff)), Z3_mk_bvlshr(z, sum, u64(p, 16)));
	sum = Z3_mk_ite(z, Z3_mk_eq(z, sum, u64(p, 0xffff)), u64(p, 0), sum);
	st->pkt = store(p, st->pkt, addr, 2, sum, false);
	st->writer = mark(p, st->writer, addr, 2, pc);
}

/*
 * bpf_hwxdp_esp_encap and esp (docs/isa.md 4.4), the crypto unit as an
 * uninterpreted operation: command n on a path is recorded (handle, L3
 * offset, the frame) for compare(), which asks both sides for the same
 * sequence; its result and its effect are free values named by n, the
 * same on both sides, so that equal commands have equal effects whatever
 * the unit does. The result is a 32-bit errno sign-extended, as the
 * device's; on success (0) data and the metadata move back by the ESP
 * headroom, the frame's length is free (at least an Ethernet header, in
 * the window), and its bytes from the new data_meta to the new data_end
 * are free. On an error
 * nothing changes. NULL beyond ESP_MAX commands on a path.
 */
static Z3_ast esp(struct prover *p, struct sym *st, Z3_ast handle, Z3_ast l3, uint32_t pc)
{
	Z3_context z = p->z;
	uint32_t n = st->esp_cnt;
	Z3_ast rc, len, window, lo, hi, i, in;
	Z3_symbol name;
	char buf[32];

	if (n == ESP_MAX)
		return NULL;
	st->esp[n] =
		(struct esp_cmd){ handle, l3, st->data, st->data_end, st->data_meta, st->pkt, pc };
	st->esp_cnt++;
	snprintf(buf, sizeof(buf), "esp_result@%u", n);
	rc = sext(p, Z3_mk_const(z, Z3_mk_string_symbol(z, buf), p->bv32), 64);
	if (!split(p, st, Z3_mk_eq(z, rc, u64(p, 0))))
		return rc;
	if (p->alt)
		p->alt_r = rc;
	snprintf(buf, sizeof(buf), "esp_length@%u", n);
	len = zext(p, Z3_mk_const(z, Z3_mk_string_symbol(z, buf), Z3_mk_bv_sort(z, 16)), 64);
	snprintf(buf, sizeof(buf), "esp_window@%u", n);
	window = Z3_mk_const(z, Z3_mk_string_symbol(z, buf), p->mem);
	st->data = Z3_mk_bvsub(z, st->data, u64(p, HXU_ESP_HEADROOM));
	st->data_meta = Z3_mk_bvsub(z, st->data_meta, u64(p, HXU_ESP_HEADROOM));
	st->data_end = Z3_mk_bvadd(z, st->data, len);
	/* what the unit makes is a frame, in the window */
	path_law(p, st,
		 and2(p, Z3_mk_bvuge(z, len, u64(p, HXU_ETH_HLEN)),
		      Z3_mk_bvule(z, st->data_end, u64(p, HXU_WINDOW_SIZE))));
	name = Z3_mk_string_symbol(z, "i");
	i = Z3_mk_bound(z, 0, p->bv32);
	lo = lo32(p, st->data_meta);
	hi = lo32(p, st->data_end);
	in = and2(p, Z3_mk_bvuge(z, i, lo), Z3_mk_bvult(z, i, hi));
	st->pkt = Z3_mk_lambda(
		z, 1, &p->bv32, &name,
		Z3_mk_ite(z, in, Z3_mk_select(z, window, i), Z3_mk_select(z, st->pkt, i)));
	st->writer =
		Z3_mk_lambda(z, 1, &p->bv32, &name,
			     Z3_mk_ite(z, in, num(p, pc, p->bv32), Z3_mk_select(z, st->writer, i)));
	return u64(p, 0);
}

/*
 * bpf_ktime_get_ns and time: read n of a path is a free value named by n
 * and by its clock (enum hxu_clock: _boot_ns, _coarse_ns and _tai_ns have
 * theirs), the same on both sides, so that a translation that passes the
 * clock on as it is read agrees whatever the clock says, and one that
 * reads another clock does not. The kernel's clocks and the device's are
 * each their own (the host's, neither the other's): nothing more is
 * assumed of them, not even that they never go back.
 */
/*
 * The kernel's open-coded number iterator (kernel/bpf/bpf_iter.c) on the 8
 * stack bytes at it, struct bpf_iter_num_kern { int cur; int end; }; the
 * ints are the registers' low halves, an int result zero-extended as
 * x86-64 returns it. NULL for a kfunc that is none of them.
 */
static Z3_ast iter_num(struct prover *p, struct sym *st, int32_t id)
{
	Z3_context z = p->z;
	Z3_ast it = st->r[1], at_end = Z3_mk_bvadd(z, it, u64(p, 4));
	Z3_ast zero = u64(p, 0), start, end, cur, einval, e2big, bad, err;

	switch (id) {
	case HWXDP_KFUNC_ITER_NUM_NEW:
		start = lo32(p, st->r[2]);
		end = lo32(p, st->r[3]);
		einval = Z3_mk_bvsgt(z, start, end);
		e2big = Z3_mk_bvsgt(z, Z3_mk_bvsub(z, sext(p, end, 64), sext(p, start, 64)),
				    u64(p, 8 * 1024 * 1024));
		bad = or2(p, einval, e2big);
		err = Z3_mk_ite(z, einval, u64(p, (uint32_t)-EINVAL), u64(p, (uint32_t)-E2BIG));
		if (!split(p, st, Z3_mk_not(z, bad))) {
			st->lm = store(p, st->lm, it, 8, zero, false);
			return err;
		}
		if (p->alt) {
			p->alt->lm = store(p, p->alt->lm, it, 8, zero, false);
			p->alt_r = err;
		}
		cur = Z3_mk_bvsub(z, start, num(p, 1, p->bv32));
		st->lm = store(p, st->lm, it, 4, zext(p, cur, 64), false);
		st->lm = store(p, st->lm, at_end, 4, zext(p, end, 64), false);
		return zero;
	case HWXDP_KFUNC_ITER_NUM_NEXT:
		cur = Z3_mk_bvadd(z, lo32(p, load(p, st->lm, it, 4, false)), num(p, 1, p->bv32));
		end = lo32(p, load(p, st->lm, at_end, 4, false));
		/* (s64)(cur + 1) >= end: the int sum, widened */
		bad = Z3_mk_bvsge(z, cur, end);
		if (!split(p, st, Z3_mk_not(z, bad))) {
			st->lm = store(p, st->lm, it, 8, zero, false);
			return zero;
		}
		if (p->alt) {
			p->alt->lm = store(p, p->alt->lm, it, 8, zero, false);
			p->alt_r = zero;
		}
		st->lm = store(p, st->lm, it, 4, zext(p, cur, 64), false);
		return it;
	case HWXDP_KFUNC_ITER_NUM_DESTROY:
		st->lm = store(p, st->lm, it, 8, zero, false);
		/* void: R0 is never read again */
		return Z3_mk_fresh_const(z, "clobbered", p->bv64);
	}
	return NULL;
}

/*
 * bpf_dynptr_from_xdp(ctx, flags, ptr) and bpf_dynptr_slice(ptr, off, buf,
 * len) as the kernel runs them (kernel/bpf/helpers.c, net/core/filter.c) on
 * a frame without fragments, the model's: the dynptr is struct
 * bpf_dynptr_kern { void *data; u32 size; u32 offset; } on the stack (data
 * the xdp_buff, here 1; size the frame's length then, with the type XDP in
 * bits 28..30), all 0 for a NULL one (flags not 0: -EINVAL). A slice is
 * NULL for a NULL dynptr or off + len past its size; else bpf_xdp_pointer:
 * the frame at off, or where len is 0 and off the frame's length, its
 * start (no fragment found); past 0xffff or the frame's length now, the
 * buffer, which the prover does not model. NULL where not modelled
 * (not_proven says why).
 */
static Z3_ast dynptr_xdp(struct prover *p, struct sym *st, int32_t id, uint32_t pc)
{
	Z3_context z = p->z;
	Z3_ast ptr = id == HWXDP_KFUNC_DYNPTR_FROM_XDP ? st->r[3] : st->r[1];
	Z3_ast at_size = Z3_mk_bvadd(z, ptr, u64(p, 8)), zero = u64(p, 0);
	Z3_ast len_now = lo32(p, Z3_mk_bvsub(z, st->data_end, st->data));
	Z3_ast data, size, off, len, bad, copy, o;
	uint64_t n;

	if (id == HWXDP_KFUNC_DYNPTR_FROM_XDP) {
		bad = ne(p, st->r[2], zero);
		if (!split(p, st, Z3_mk_not(z, bad))) {
			st->lm = store(p, st->lm, ptr, 8, zero, false);
			st->lm = store(p, st->lm, at_size, 8, zero, false);
			return u64(p, (uint32_t)-EINVAL);
		}
		if (p->alt) {
			p->alt->lm = store(p, p->alt->lm, ptr, 8, zero, false);
			p->alt->lm = store(p, p->alt->lm, at_size, 8, zero, false);
			p->alt_r = u64(p, (uint32_t)-EINVAL);
		}
		st->lm = store(p, st->lm, ptr, 8, u64(p, 1), false);
		size = Z3_mk_bvor(z, len_now, num(p, 4u << 28, p->bv32));
		st->lm = store(p, st->lm, at_size, 8, zext(p, size, 64), false);
		return zero;
	}
	if (id != HWXDP_KFUNC_DYNPTR_SLICE || !const_of(p, st->r[4], &n)) {
		not_proven(p, "insn %u: kfunc %d of a size not known", pc, id);
		return NULL;
	}
	data = load(p, st->lm, ptr, 8, false);
	size = Z3_mk_bvand(z, lo32(p, load(p, st->lm, at_size, 4, false)),
			   num(p, 0xffffff, p->bv32));
	off = lo32(p, st->r[2]);
	len = num(p, (uint32_t)n, p->bv32);
	bad = or2(
		p, Z3_mk_eq(z, data, zero),
		or2(p, Z3_mk_bvugt(z, len, size), Z3_mk_bvugt(z, off, Z3_mk_bvsub(z, size, len))));
	o = Z3_mk_bvadd(z, lo32(p, load(p, st->lm, Z3_mk_bvadd(z, ptr, u64(p, 12)), 4, false)),
			off);
	copy = and2(p, Z3_mk_not(z, bad),
		    or2(p,
			or2(p, Z3_mk_bvugt(z, o, num(p, 0xffff, p->bv32)),
			    (uint32_t)n > 0xffff ? Z3_mk_true(z) : Z3_mk_false(z)),
			Z3_mk_bvugt(z, Z3_mk_bvadd(z, o, len), len_now)));
	if (feasible(p, copy)) {
		not_proven(p, "insn %u: a slice the kernel copies into its buffer", pc);
		return NULL;
	}
	if (!split(p, st, Z3_mk_not(z, bad)))
		return zero;
	if (p->alt)
		p->alt_r = zero;
	return Z3_mk_ite(z, Z3_mk_bvult(z, o, len_now), Z3_mk_bvadd(z, st->data, zext(p, o, 64)),
			 st->data);
}

static Z3_ast clock_read(struct prover *p, struct sym *st, unsigned int clock)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "clock%u@%u", clock, st->clock_cnt++);
	return Z3_mk_const(p->z, Z3_mk_string_symbol(p->z, buf), p->bv64);
}

/* The clock a clock helper reads, or -1 for another helper. */
static int helper_clock(int32_t helper)
{
	switch (helper) {
	case BPF_FUNC_ktime_get_ns:
		return HXU_CLOCK_MONO;
	case BPF_FUNC_ktime_get_boot_ns:
		return HXU_CLOCK_BOOT;
	case BPF_FUNC_ktime_get_coarse_ns:
		return HXU_CLOCK_COARSE;
	case BPF_FUNC_ktime_get_tai_ns:
		return HXU_CLOCK_TAI;
	default:
		return -1;
	}
}

/*
 * bpf_get_prandom_u32 and rand: read n of a path is a free 32-bit value
 * named by n, the same on both sides, as the clock's (clock_read): the
 * kernel's generator and the device's are each their own, and nothing is
 * assumed of their numbers.
 */
static Z3_ast rand_read(struct prover *p, struct sym *st)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "rand@%u", st->rand_cnt++);
	return zext(p, Z3_mk_const(p->z, Z3_mk_string_symbol(p->z, buf), p->bv32), 64);
}

/*
 * The egress terms that are no port map entry's (map << 32 | key, maps
 * below HXU_TABLES): a broadcast to every port of map m is
 * EGRESS_BCAST << 32 | m, one that leaves out the ingress port
 * EGRESS_BCAST_EXCL << 32 | m (bpf_redirect's ifindex is UINT32_MAX - 1).
 */
#define EGRESS_BCAST	  (UINT32_MAX - 2)
#define EGRESS_BCAST_EXCL (UINT32_MAX - 3)
/* The flags a devmap's redirect takes (the kernel's dev_map_redirect):
 * the action bits of a miss, a broadcast, leaving out the ingress port. */
#define REDIRECT_FLAGS (3ull | BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS)

/*
 * bpf_redirect_map and redir on a port map, as the kernel's
 * __bpf_xdp_redirect_map on a devmap and the device's redirect()
 * (device/engine_ops.h) have it, for flags (all 64 bits): flags beyond
 * REDIRECT_FLAGS give XDP_ABORTED and leave the egress as it was; with
 * BPF_F_BROADCAST the result is XDP_REDIRECT whatever the key and the map
 * hold, and the egress the map, with BPF_F_EXCLUDE_INGRESS or not; else
 * XDP_REDIRECT when the key has an entry (the same free choice as a
 * lookup's: one whose ifindex is not 0), the target the entry, named by
 * map and key, and the low 2 bits of flags otherwise. Flags known on the path
 * split on the entry; flags known only at run time give the outcome as an
 * ite over their bits. NULL for a map not modelled.
 */
static Z3_ast redirect(struct prover *p, struct sym *st, uint32_t m, Z3_ast key, Z3_ast flags)
{
	Z3_context z = p->z;
	Z3_ast hit, addr, target, bad, bcast, bcast_to, action;
	uint64_t k;

	if (m >= p->map_cnt ||
	    (p->maps[m].type != BPF_MAP_TYPE_DEVMAP && p->maps[m].type != BPF_MAP_TYPE_DEVMAP_HASH))
		return NULL;
	if (!lookup_term(p, m, st->ver[m], key, &hit, &addr))
		return NULL;
	target = Z3_mk_concat(z, num(p, m, p->bv32), key);
	if (const_of(p, flags, &k)) {
		if (k & ~REDIRECT_FLAGS)
			return u64(p, XDP_ABORTED);
		if (k & BPF_F_BROADCAST) {
			st->egress = Z3_mk_concat(
				z,
				num(p, k & BPF_F_EXCLUDE_INGRESS ? EGRESS_BCAST_EXCL : EGRESS_BCAST,
				    p->bv32),
				num(p, m, p->bv32));
			return u64(p, XDP_REDIRECT);
		}
		if (st->lk_cnt < LOOKUP_MAX)
			st->lk[st->lk_cnt++] = (struct lookup){ m, key };
		if (!split(p, st, hit))
			return u64(p, k & 3);
		if (p->alt)
			p->alt_r = u64(p, k & 3);
		st->egress = target;
		return u64(p, XDP_REDIRECT);
	}
	if (st->lk_cnt < LOOKUP_MAX)
		st->lk[st->lk_cnt++] = (struct lookup){ m, key };
	bad = ne(p, Z3_mk_bvand(z, flags, u64(p, ~REDIRECT_FLAGS)), u64(p, 0));
	bcast = ne(p, Z3_mk_bvand(z, flags, u64(p, BPF_F_BROADCAST)), u64(p, 0));
	bcast_to = Z3_mk_concat(
		z,
		Z3_mk_ite(z, ne(p, Z3_mk_bvand(z, flags, u64(p, BPF_F_EXCLUDE_INGRESS)), u64(p, 0)),
			  num(p, EGRESS_BCAST_EXCL, p->bv32), num(p, EGRESS_BCAST, p->bv32)),
		num(p, m, p->bv32));
	action = Z3_mk_ite(z, or2(p, bcast, hit), u64(p, XDP_REDIRECT),
			   Z3_mk_bvand(z, flags, u64(p, 3)));
	st->egress =
		Z3_mk_ite(z, bad, st->egress,
			  Z3_mk_ite(z, bcast, bcast_to, Z3_mk_ite(z, hit, target, st->egress)));
	return Z3_mk_ite(z, bad, u64(p, XDP_ABORTED), action);
}

/* bpf_redirect and redirif: with flags (all 64 bits) 0 the egress is the
 * ifindex in the low 32 bits of ifindex, named apart from every map's
 * entries, and the result XDP_REDIRECT; otherwise XDP_ABORTED and the
 * egress as it was. */
static Z3_ast redirect_ifindex(struct prover *p, struct sym *st, Z3_ast ifindex, Z3_ast flags)
{
	Z3_context z = p->z;
	Z3_ast ok = Z3_mk_eq(z, flags, u64(p, 0));

	st->egress =
		Z3_mk_ite(z, ok, Z3_mk_concat(z, num(p, UINT32_MAX - 1, p->bv32), lo32(p, ifindex)),
			  st->egress);
	return Z3_mk_ite(z, ok, u64(p, XDP_REDIRECT), u64(p, XDP_ABORTED));
}

/* sum(b, n, s) of docs/isa.md 4.4: s plus the n bytes at addr of mem as
 * little-endian 32-bit words, the last padded with zeros, 32 bits with
 * end-around carry. */
static Z3_ast csum_sum(struct prover *p, Z3_ast mem, Z3_ast addr, uint32_t n, Z3_ast seed)
{
	Z3_context z = p->z;
	Z3_ast acc = zext(p, seed, 64);

	for (uint32_t i = 0; i < n; i++)
		acc = Z3_mk_bvadd(
			z, acc,
			Z3_mk_bvshl(z, load(p, mem, Z3_mk_bvadd(z, addr, u64(p, i)), 1, false),
				    u64(p, 8 * (i & 3))));
	for (int k = 0; k < 3; k++)
		acc = Z3_mk_bvadd(z, Z3_mk_bvand(z, acc, u64(p, 0xffffffffu)),
				  Z3_mk_bvlshr(z, acc, u64(p, 32)));
	return acc;
}

/* bpf_csum_diff and csumd with constant sizes: the kernel's result
 * (docs/isa.md 4.4). from/to NULL where the size is 0. */
static Z3_ast csum_diff(struct prover *p, Z3_ast from_mem, Z3_ast from, uint32_t fsize,
			Z3_ast to_mem, Z3_ast to, uint32_t tsize, Z3_ast seed)
{
	Z3_context z = p->z;
	Z3_ast s = zext(p, lo32(p, seed), 64), v, m32 = u64(p, 0xffffffffu);

	if (fsize && tsize) {
		v = Z3_mk_bvadd(z, csum_sum(p, to_mem, to, tsize, s),
				Z3_mk_bvxor(z, csum_sum(p, from_mem, from, fsize, u64(p, 0)), m32));
		v = Z3_mk_bvadd(z, Z3_mk_bvand(z, v, m32), Z3_mk_bvlshr(z, v, u64(p, 32)));
	} else if (tsize) {
		v = csum_sum(p, to_mem, to, tsize, s);
	} else if (fsize) {
		v = Z3_mk_bvxor(z, csum_sum(p, from_mem, from, fsize, Z3_mk_bvxor(z, s, m32)), m32);
	} else {
		v = s;
	}
	for (int k = 0; k < 4; k++)
		v = Z3_mk_bvadd(z, Z3_mk_bvand(z, v, u64(p, 0xffff)),
				Z3_mk_bvlshr(z, v, u64(p, 16)));
	return v;
}

/* An atomic read-modify-write of n bytes (one frame runs at a time: no
 * other writer in between), op BPF's (BPF_ADD .. BPF_XOR, BPF_XCHG,
 * BPF_CMPXCHG, which stores src only where the old value is cmp's low n
 * bytes); the old value, zero-extended. */
static Z3_ast atomic_rmw(struct prover *p, Z3_ast *mem, Z3_ast addr, unsigned int n,
			 unsigned int op, Z3_ast src, Z3_ast cmp)
{
	Z3_context z = p->z;
	Z3_ast old = load(p, *mem, addr, n, false), v;

	switch (op) {
	case BPF_CMPXCHG:
		v = Z3_mk_ite(z, Z3_mk_eq(z, old, n == 8 ? cmp : zext(p, lo32(p, cmp), 64)), src,
			      old);
		break;
	case BPF_ADD:
		v = Z3_mk_bvadd(z, old, src);
		break;
	case BPF_AND:
		v = Z3_mk_bvand(z, old, src);
		break;
	case BPF_OR:
		v = Z3_mk_bvor(z, old, src);
		break;
	case BPF_XOR:
		v = Z3_mk_bvxor(z, old, src);
		break;
	default: /* BPF_XCHG */
		v = src;
	}
	*mem = store(p, *mem, addr, n, v, false);
	return old;
}

/* Bytes addr .. addr + n - 1 of the packet were last written at pc. */
static Z3_ast mark(struct prover *p, Z3_ast writer, Z3_ast addr, unsigned int n, uint32_t pc)
{
	Z3_ast idx = lo32(p, addr), who = num(p, pc, p->bv32);

	for (unsigned int i = 0; i < n; i++)
		writer = Z3_mk_store(p->z, writer, Z3_mk_bvadd(p->z, idx, num(p, i, p->bv32)), who);
	return writer;
}

static enum step add_leaf(struct prover *p, const struct sym *st, Z3_ast cond, uint32_t end,
			  Z3_ast value, uint32_t last)
{
	struct side *sd = p->cur;
	struct leaf *l;

	if (sd->leaf_cnt == LEAF_MAX)
		return not_proven(p, "more than %d paths", LEAF_MAX);
	l = &sd->leaves[sd->leaf_cnt++];
	l->cond = cond;
	l->node = st->node;
	l->extra = NULL;
	l->end = end;
	l->value = value;
	l->pkt = st->pkt;
	l->writer = st->writer;
	l->tm = st->tm;
	l->egress = st->egress;
	memcpy(l->lk, st->lk, sizeof(l->lk));
	l->lk_cnt = st->lk_cnt;
	memcpy(l->wr, st->wr, sizeof(l->wr));
	l->wr_cnt = st->wr_cnt;
	memcpy(l->esp, st->esp, sizeof(l->esp));
	l->esp_cnt = st->esp_cnt;
	l->clock_cnt = st->clock_cnt;
	l->rand_cnt = st->rand_cnt;
	l->data = st->data;
	l->data_end = st->data_end;
	l->data_meta = st->data_meta;
	l->last = last;
	l->prog = st->prog;
	return STEP_LEAF;
}

/* The device aborts an access outside its space: a leaf when that can
 * happen on this path; the path goes on where it cannot. Table memory
 * (space HXU_SPACE_TM) is checked as the device checks it, by the start
 * address only: one that is no map's (NULL plus an offset, a scalar
 * taken for a pointer) aborts; in the model's addresses, the maps' values
 * are the ones with bits 48..63 naming a map (MAP_BASE), or, with a map of
 * maps, any table id (one the control plane may make at run time). */
static enum step access_check(struct prover *p, struct sym *st, unsigned int space, Z3_ast addr,
			      unsigned int n)
{
	Z3_ast out, c;

	if (space == HXU_SPACE_TM) {
		Z3_sort s16 = Z3_mk_bv_sort(p->z, 16);
		Z3_ast m = Z3_mk_extract(p->z, 63, 48, Z3_mk_bvsub(p->z, addr, p->tm_shift));

		out = or2(p, Z3_mk_eq(p->z, m, num(p, 0, s16)),
			  Z3_mk_bvugt(p->z, m,
				      num(p, p->inner_regions ? HXU_TABLES : p->map_cnt, s16)));
	} else {
		uint32_t limit = space == HXU_SPACE_PKT ? HXU_WINDOW_SIZE : HXU_LM_SIZE;

		out = Z3_mk_bvugt(p->z, addr, u64(p, limit - n));
	}
	c = and2(p, st->cond, out);

	if (!feasible(p, out))
		return STEP_NEXT;
	if (add_leaf(p, st, c, HWXDP_PROVE_END_FAULT, num(p, st->pc, p->bv32), st->pc) == STEP_FAIL)
		return STEP_FAIL;
	p->cur->leaves[p->cur->leaf_cnt - 1].extra = Z3_simplify(p->z, out);
	path_add(p, st, Z3_mk_not(p->z, out));
	return STEP_NEXT;
}

static const char *const type_names[] = {
	[HWXDP_REG_NOT_INIT] = "an uninitialised register",
	[HWXDP_REG_SCALAR] = "a scalar",
	[HWXDP_REG_PTR_TO_CTX] = "the context",
	[HWXDP_REG_CONST_PTR_TO_MAP] = "a map",
	[HWXDP_REG_PTR_TO_MAP_VALUE] = "a map value",
	[HWXDP_REG_PTR_TO_MAP_VALUE_OR_NULL] = "a map value or NULL",
	[HWXDP_REG_PTR_TO_STACK] = "the stack",
	[HWXDP_REG_PTR_TO_PACKET_META] = "packet metadata",
	[HWXDP_REG_PTR_TO_PACKET] = "the packet",
	[HWXDP_REG_PTR_TO_PACKET_END] = "the packet's end",
	[HWXDP_REG_KFUNC_ADDR] = "a kfunc",
	[HWXDP_REG_CONST_PTR_TO_MAP_OR_NULL] = "a map or NULL",
	[HWXDP_REG_PTR_TO_MEM] = "a function argument",
	[HWXDP_REG_PTR_TO_MEM_OR_NULL] = "a function argument or NULL",
	[HWXDP_REG_PTR_TO_FUNC] = "a callback",
	[HWXDP_REG_PTR_TO_MAP_KEY] = "a map key",
	[HWXDP_REG_PTR_TO_SOCKET] = "a socket",
	[HWXDP_REG_PTR_TO_SOCKET_OR_NULL] = "a socket or NULL",
	[HWXDP_REG_PTR_TO_SOCK_COMMON] = "a socket",
	[HWXDP_REG_PTR_TO_SOCK_COMMON_OR_NULL] = "a socket or NULL",
	[HWXDP_REG_PTR_TO_BTF_ID] = "a kernel struct",
	[HWXDP_REG_PTR_TO_BTF_ID_OR_NULL] = "a kernel struct or NULL",
};

static const char *type_name(uint8_t t)
{
	return t < sizeof(type_names) / sizeof(type_names[0]) && type_names[t]
		       ? type_names[t]
		       : "pointers of several kinds";
}

static Z3_ast ctx_field(struct prover *p, const struct sym *st, uint64_t off)
{
	switch (off) {
	case offsetof(struct xdp_md, data):
		return st->data;
	case offsetof(struct xdp_md, data_end):
		return st->data_end;
	case offsetof(struct xdp_md, data_meta):
		return st->data_meta;
	case offsetof(struct xdp_md, ingress_ifindex):
		return zext(p, p->ingress, 64);
	case offsetof(struct xdp_md, rx_queue_index):
		return zext(p, p->rx_queue, 64);
	case offsetof(struct xdp_md, egress_ifindex):
		return u64(p, 0);
	}
	return NULL;
}

/* The memory a BPF pointer of type t points into, or NULL. */
static Z3_ast bpf_space(const struct sym *st, uint8_t t)
{
	return t == HWXDP_REG_PTR_TO_STACK					   ? st->lm
	       : t == HWXDP_REG_PTR_TO_MAP_VALUE				   ? st->tm
	       : t == HWXDP_REG_PTR_TO_PACKET || t == HWXDP_REG_PTR_TO_PACKET_META ? st->pkt
										   : NULL;
}

/* n bytes at the pointer in register r, in the space its type says; NULL
 * for another type or a size beyond the prover's. */
static Z3_ast bpf_bytes(struct prover *p, const struct sym *st, const struct hwxdp_insn_fact *f,
			int r, uint32_t n)
{
	uint8_t t = f->regs[r].type;
	Z3_ast mem = t == HWXDP_REG_PTR_TO_STACK       ? st->lm
		     : t == HWXDP_REG_PTR_TO_MAP_VALUE ? st->tm
		     : t == HWXDP_REG_PTR_TO_PACKET    ? st->pkt
						       : NULL;

	if (!mem || !n || n > HWXDP_PROVE_VALUE_MAX)
		return NULL;
	return read_bytes(p, mem, st->r[r], n, false);
}

/* A BPF-to-BPF call and the device's call (docs/isa.md 4.3): the callee
 * gets the next 512 bytes of local memory; its return gives the caller
 * back r6..r9 and its frame pointer. */
static void do_call(struct prover *p, struct sym *st, uint32_t ret, uint32_t target)
{
	struct frame *fr = &st->frames[st->call_depth++];

	fr->ret = ret;
	memcpy(fr->saved, &st->r[6], sizeof(fr->saved));
	st->r[HXU_REG_FP] = Z3_mk_bvadd(p->z, st->r[HXU_REG_FP], u64(p, HXU_LM_FRAME));
	st->pc = target;
}

static enum step do_return(struct prover *p, struct sym *st)
{
	struct frame *fr = &st->frames[--st->call_depth];

	(void)p;
	memcpy(&st->r[6], fr->saved, sizeof(fr->saved));
	st->pc = fr->ret;
	return STEP_NEXT;
}

static const unsigned int bpf_sizes[4] = { 4, 2, 1, 8 }; /* BPF_W, H, B, DW >> 3 */

/* One BPF instruction. */
/*
 * The map of map helper call f on this path: the facts' one, or, where
 * paths passed different maps, the one the map register holds here (a map
 * in a register is its index). false when neither is known.
 */
static bool call_map(struct prover *p, const struct sym *st, const struct hwxdp_insn_fact *f,
		     uint32_t *map)
{
	uint64_t v;

	if (f->map_known) {
		*map = f->map_index;
		return f->map_index < p->map_cnt;
	}
	if (f->map_alt_cnt < 2 || f->map_alt_cnt > HWXDP_MAP_ALTS)
		return false;
	/* not a map the program names: a map a lookup in a map of maps gave,
	 * which the verifier knows by its template (bpf_lookup_of_maps reads
	 * which map it is from r1) */
	if (!const_of(p, st->r[1], &v)) {
		for (uint8_t k = 0; k < f->map_alt_cnt; k++)
			if (f->map_alt[k] < p->map_cnt &&
			    p->maps[f->map_alt[k]].origin == HWXDP_MAP_INNER) {
				*map = f->map_alt[k];
				return true;
			}
		return false;
	}
	for (uint8_t k = 0; k < f->map_alt_cnt; k++)
		if (f->map_alt[k] == v && v < p->map_cnt) {
			*map = (uint32_t)v;
			return true;
		}
	return false;
}

/* Where a path goes after a tail call: on after it (k < 0), or into image
 * program k, BPF at its first instruction, the microcode at its entry.
 * Registers, local memory and the frame pointer stay as they are on both
 * sides, as the kernel's and device/engine.c's tail calls leave them (the
 * called program's verification lets it read r1, the context, and r10
 * only); a fall-through leaves BPF's r0..r5 unreadable, as the verifier
 * has them after the helper. */
static void tail_go(struct prover *p, struct sym *st, int32_t k, uint32_t fall, bool bpf)
{
	if (k < 0) {
		st->pc = fall;
		for (int i = 0; bpf && i <= 5; i++)
			st->r[i] = Z3_mk_fresh_const(p->z, "clobbered", p->bv64);
		return;
	}
	if (bpf) {
		st->prog = (uint32_t)k;
		st->pc = 0;
		st->r[1] = u64(p, CTX_ADDR);
	} else {
		st->pc = p->img->progs[k].entry;
	}
}

/* What program array m holds at an index, a bv32 -> bv32 function shared
 * by both sides: the image program of that number, none for any other. */
static Z3_ast prog_slot(struct prover *p, uint32_t m, Z3_ast idx)
{
	Z3_context z = p->z;
	char name[HWXDP_NAME_MAX + 16];

	if (!p->prog_slot[m]) {
		snprintf(name, sizeof(name), "progs_%s", p->maps[m].name);
		p->prog_slot[m] =
			Z3_mk_func_decl(z, Z3_mk_string_symbol(z, name), 1, &p->bv32, p->bv32);
	}
	return Z3_mk_app(z, p->prog_slot[m], 1, &idx);
}

/*
 * A tail call through program array m at index idx (bv32): bpf_tail_call
 * and tcall, as the kernel's and device/engine.c's. An index past the
 * array's end, or a path that has made HXU_TAIL_CALL_MAX already, goes on
 * after the call, uncounted; an index in range counts, and goes into the
 * image program its slot holds (prog_slot), or on after the call when the
 * slot holds no program of the image. The contents are free: the proof
 * holds for any programs of the image in any slots. Each way is a path of
 * its own, split one fork at a time (in range or not; slot k or not, for
 * each program k of the image), the ways split off finished here.
 */
static enum step tail_call(struct prover *p, struct sym *st, uint32_t m, Z3_ast idx, uint32_t fall,
			   bool bpf)
{
	const struct hwxdp_map_desc *d = m < p->map_cnt && m < HXU_TABLES ? &p->maps[m] : NULL;
	const char *unit = bpf ? "insn" : "op";
	uint32_t pc = st->pc;
	bool dup = false;
	Z3_ast slot;

	if (!d || d->type != BPF_MAP_TYPE_PROG_ARRAY)
		return not_proven(p, "%s %u: tail call through a map that is no program array",
				  unit, pc);
	/* the device's verifier refuses a tail call from a function */
	if (st->call_depth)
		return not_proven(p, "%s %u: tail call from a function", unit, pc);
	if (st->tail_calls >= HXU_TAIL_CALL_MAX ||
	    !split(p, st, Z3_mk_bvult(p->z, idx, num(p, d->max_entries, p->bv32)))) {
		tail_go(p, st, -1, fall, bpf);
		p->alt = NULL;
		return STEP_NEXT;
	}
	if (p->alt)
		tail_go(p, p->alt, -1, fall, bpf);
	st->tail_calls++;
	/* the slot a counterexample fills (entries_of) */
	for (uint32_t i = 0; i < st->lk_cnt && !dup; i++)
		dup = st->lk[i].map == m && st->lk[i].key == idx;
	if (!dup && st->lk_cnt < LOOKUP_MAX)
		st->lk[st->lk_cnt++] = (struct lookup){ m, idx };
	slot = prog_slot(p, m, idx);
	for (uint32_t k = 0; k < p->img->prog_cnt; k++) {
		bool other = split(p, st, ne(p, slot, num(p, k, p->bv32)));
		struct sym *to = other ? p->alt : st;

		if (to && bpf && (k >= p->bprog_cnt || !p->bprogs[k].insns))
			return not_proven(p,
					  "insn %u: tail call into image program %u (%s), whose "
					  "BPF is not given",
					  pc, k, p->img->progs[k].name);
		if (to)
			tail_go(p, to, (int32_t)k, fall, bpf);
		if (!other) {
			p->alt = NULL;
			return STEP_NEXT;
		}
	}
	tail_go(p, st, -1, fall, bpf);
	p->alt = NULL;
	return STEP_NEXT;
}

/* The map of maps whose template is map, or UINT32_MAX. */
static uint32_t outer_of(const struct prover *p, uint32_t map)
{
	for (uint32_t o = 0; o < p->map_cnt && o < HXU_TABLES; o++)
		if (hxu_map_of_maps(p->maps[o].type) && p->maps[o].inner_map == map)
			return o;
	return UINT32_MAX;
}

/*
 * BPF's update (value not NULL) or delete on a map a lookup in a map of
 * maps gave: map is the template the verifier names it by, r1 the map
 * pointer. NULL, not proven, for what is not modelled.
 */
static Z3_ast bpf_write_of_maps(struct prover *p, struct sym *st, const struct hwxdp_insn_fact *f,
				uint32_t map, bool upd, uint64_t flags)
{
	const struct hwxdp_map_desc *d = &p->maps[map];
	uint32_t o = outer_of(p, map), pc = st->pc;
	Z3_ast key, value = NULL, v;
	const char *why;

	if (o == UINT32_MAX) {
		not_proven(p, "insn %u: map write on %s: no map of maps with its template", pc,
			   d->name);
		return NULL;
	}
	key = bpf_bytes(p, st, f, 2, d->key_size);
	if (upd)
		value = bpf_bytes(p, st, f, 3, d->value_size);
	if (!key || (upd && !value)) {
		not_proven(p, "insn %u: map key or value in %s", pc,
			   type_name(f->regs[key ? 3 : 2].type));
		return NULL;
	}
	v = inner_write(p, st, o, Z3_mk_extract(p->z, 7, 0, st->r[1]), key, value, flags, pc, &why);
	if (!v)
		not_proven(p, "insn %u: map write through a map of %s: %s not modelled", pc,
			   p->maps[o].name, why);
	return v;
}

/*
 * BPF's lookup in map of maps map, or in a map such a lookup gave: then
 * map is the template the verifier names it by, and r1 holds the map
 * pointer, whose low byte is the inner map's identity (outer_lookup). NULL,
 * not proven, for what is not modelled.
 */
static Z3_ast bpf_lookup_of_maps(struct prover *p, struct sym *st, const struct hwxdp_insn_fact *f,
				 uint32_t map)
{
	const struct hwxdp_map_desc *d = &p->maps[map];
	uint8_t kt = f->regs[2].type;
	Z3_ast mem = kt == HWXDP_REG_PTR_TO_STACK	? st->lm
		     : kt == HWXDP_REG_PTR_TO_MAP_VALUE ? st->tm
		     : kt == HWXDP_REG_PTR_TO_PACKET	? st->pkt
							: NULL;
	uint32_t o = map, pc = st->pc;
	Z3_ast key, v;

	if (d->origin == HWXDP_MAP_INNER)
		o = outer_of(p, map);
	if (o >= p->map_cnt || o >= HXU_TABLES || p->maps[o].inner_map >= p->map_cnt) {
		not_proven(p, "insn %u: lookup in %s: no map of maps with its template", pc,
			   d->name);
		return NULL;
	}
	if (!mem || !d->key_size || d->key_size > HWXDP_PROVE_KEY_MAX) {
		not_proven(p, "insn %u: map key in %s", pc, type_name(kt));
		return NULL;
	}
	key = read_bytes(p, mem, st->r[2], d->key_size, false);
	if (d->origin != HWXDP_MAP_INNER)
		return outer_lookup(p, st, o, key, true);
	v = inner_lookup(p, st, o, Z3_mk_extract(p->z, 7, 0, st->r[1]), key);
	if (!v)
		not_proven(p, "insn %u: lookup in a map of %s of type %u", pc, p->maps[o].name,
			   d->type);
	return v;
}

static enum step bpf_step(struct prover *p, struct sym *st, struct fork *fk)
{
	const struct hwxdp_prove_prog *bp = &p->bprogs[st->prog];
	const struct bpf_insn *in = &bp->insns[st->pc];
	const struct hwxdp_insn_fact *f = &bp->facts->facts[st->pc];
	uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	uint32_t pc = st->pc;
	Z3_ast *dst = &st->r[in->dst_reg], src, addr, v;

	if (!f->reachable)
		return not_proven(p, "insn %u: reached, but the verifier found it unreachable", pc);
	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64: {
		bool w32 = cls == BPF_ALU;

		src = BPF_SRC(in->code) == BPF_X ? st->r[in->src_reg]
		      : w32			 ? u64(p, (uint32_t)in->imm)
						 : u64(p, (uint64_t)(int64_t)in->imm);
		if (op == BPF_END) {
			bool swap = cls == BPF_ALU64 || BPF_SRC(in->code) == BPF_TO_BE;

			if (in->imm != 16 && in->imm != 32 && in->imm != 64)
				return not_proven(p, "insn %u: byte swap of %d bits", pc, in->imm);
			*dst = swap ? bswap(p, *dst, (unsigned int)in->imm)
			       : in->imm == 64
				       ? *dst
				       : zext(p, Z3_mk_extract(p->z, in->imm - 1, 0, *dst), 64);
		} else if (op == BPF_MOV && in->off) {
			Z3_ast x;

			if (in->off != 8 && in->off != 16 && (in->off != 32 || w32))
				return not_proven(p, "insn %u: movsx of %d bits", pc, in->off);
			x = sext(p, Z3_mk_extract(p->z, in->off - 1, 0, src), w32 ? 32 : 64);
			*dst = zext(p, x, 64);
		} else {
			v = alu(p, op, in->off == 1, *dst, src, w32);
			if (!v)
				return not_proven(p, "insn %u: ALU operation 0x%02x", pc, in->code);
			*dst = v;
		}
		st->pc++;
		return STEP_NEXT;
	}
	case BPF_LD:
		if (in->code != (BPF_LD | BPF_IMM | BPF_DW))
			return not_proven(p, "insn %u: legacy packet load (ld_abs/ld_ind)", pc);
		if (in->src_reg == BPF_PSEUDO_MAP_FD || in->src_reg == BPF_PSEUDO_MAP_IDX) {
			/* a map only reaches helpers, which name it by the facts */
			*dst = u64(p, (uint32_t)in->imm);
		} else if (in->src_reg == BPF_PSEUDO_MAP_VALUE ||
			   in->src_reg == BPF_PSEUDO_MAP_IDX_VALUE) {
			if ((uint32_t)in->imm >= p->map_cnt ||
			    p->maps[in->imm].type != BPF_MAP_TYPE_ARRAY)
				return not_proven(p, "insn %u: address in map %d, not an array", pc,
						  in->imm);
			*dst = Z3_mk_bvadd(
				p->z, u64(p, MAP_BASE((uint32_t)in->imm) + (uint32_t)in[1].imm),
				p->tm_shift);
		} else if (in->src_reg == BPF_PSEUDO_BTF_ID) {
			/* a device kfunc's address: it exists in the device's copy */
			*dst = u64(p, 1);
		} else if (in->src_reg == BPF_PSEUDO_FUNC) {
			/* a callback: only a helper that calls back reads it, and
			 * the device punts there; the translator's number */
			*dst = u64(p, 0);
		} else if (in->src_reg) {
			return not_proven(p, "insn %u: ld_imm64 of kind %u not modelled", pc,
					  in->src_reg);
		} else {
			*dst = u64(p, (uint64_t)(uint32_t)in[1].imm << 32 | (uint32_t)in->imm);
		}
		st->pc += 2;
		return STEP_NEXT;
	case BPF_LDX:
	case BPF_ST:
	case BPF_STX: {
		unsigned int n = bpf_sizes[BPF_SIZE(in->code) >> 3];
		uint8_t base = cls == BPF_LDX ? in->src_reg : in->dst_reg;
		uint8_t type = f->regs[base].type;
		uint8_t mode = BPF_MODE(in->code);
		Z3_ast *mem;

		if (mode != BPF_MEM && !(cls == BPF_LDX && mode == BPF_MEMSX) &&
		    !(cls == BPF_STX && mode == BPF_ATOMIC))
			return not_proven(p, "insn %u: memory mode not modelled", pc);
		addr = Z3_mk_bvadd(p->z, st->r[base], u64(p, (uint64_t)(int64_t)in->off));
		if (type == HWXDP_REG_PTR_TO_CTX) {
			uint64_t off;

			if (cls != BPF_LDX || !const_of(p, addr, &off) ||
			    !(v = ctx_field(p, st, off)))
				return not_proven(p, "insn %u: context access not modelled", pc);
			*dst = v;
			st->pc++;
			return STEP_NEXT;
		}
		if (type == HWXDP_REG_PTR_TO_PACKET || type == HWXDP_REG_PTR_TO_PACKET_META)
			mem = &st->pkt;
		else if (type == HWXDP_REG_PTR_TO_STACK)
			mem = &st->lm;
		else if (type == HWXDP_REG_PTR_TO_MAP_VALUE)
			mem = &st->tm;
		else
			return not_proven(p, "insn %u: access to %s not modelled yet", pc,
					  type_name(type));
		if (mode == BPF_ATOMIC) {
			unsigned int aop = (unsigned int)in->imm & ~BPF_FETCH;

			if (n < 4 || mem == &st->pkt ||
			    (aop != BPF_ADD && aop != BPF_AND && aop != BPF_OR && aop != BPF_XOR &&
			     in->imm != BPF_XCHG && in->imm != BPF_CMPXCHG))
				return not_proven(p, "insn %u: atomic operation 0x%x not modelled",
						  pc, in->imm);
			v = atomic_rmw(p, mem, addr, n,
				       in->imm == BPF_XCHG || in->imm == BPF_CMPXCHG
					       ? (unsigned int)in->imm
					       : aop,
				       st->r[in->src_reg], st->r[0]);
			/* cmpxchg's old value goes to r0, the others' to src */
			if (in->imm == BPF_CMPXCHG)
				st->r[0] = v;
			else if (in->imm & BPF_FETCH)
				st->r[in->src_reg] = v;
		} else if (cls == BPF_LDX) {
			v = load(p, *mem, addr, n, false);
			if (mode == BPF_MEMSX)
				v = sext(p, Z3_mk_extract(p->z, 8 * n - 1, 0, v), 64);
			*dst = v;
		} else {
			v = cls == BPF_STX ? st->r[in->src_reg]
					   : u64(p, (uint64_t)(int64_t)in->imm);
			*mem = store(p, *mem, addr, n, v, false);
			if (mem == &st->pkt)
				st->writer = mark(p, st->writer, addr, n, pc);
		}
		st->pc++;
		return STEP_NEXT;
	}
	case BPF_JMP:
	case BPF_JMP32: {
		bool w32 = cls == BPF_JMP32;

		if (op == BPF_JA) {
			int64_t t = (int64_t)pc + 1 + (w32 ? in->imm : in->off);

			if (t <= pc)
				st->back_edge = (int32_t)pc;
			st->pc = (uint32_t)t;
			return STEP_NEXT;
		}
		if (op == BPF_EXIT) {
			if (st->call_depth)
				return do_return(p, st);
			return add_leaf(p, st, st->cond, HWXDP_PROVE_END_EXIT, lo32(p, st->r[0]),
					pc);
		}
		if (op == BPF_CALL) {
			uint32_t map = 0;

			if (f->punt_point)
				return add_leaf(p, st, st->cond, HWXDP_PROVE_END_PUNT,
						num(p, HWXDP_PUNT_HOST_ONLY, p->bv32), pc);
			if (in->src_reg == BPF_PSEUDO_CALL) {
				/* the kernel's limit: 8 frames, the device's return stack */
				if (st->call_depth + 1 >= HXU_RSTACK_DEPTH)
					return not_proven(p, "insn %u: calls nested deeper than %d",
							  pc, HXU_RSTACK_DEPTH - 1);
				do_call(p, st, pc + 1, (uint32_t)((int64_t)pc + 1 + in->imm));
				return STEP_NEXT;
			}
			if (in->src_reg == BPF_PSEUDO_KFUNC_CALL &&
			    in->imm == HWXDP_KFUNC_ESP_ENCAP) {
				/* the kfunc's arguments are u32: the low halves */
				v = esp(p, st, zext(p, lo32(p, st->r[2]), 64),
					zext(p, lo32(p, st->r[3]), 64), pc);
				if (!v)
					return not_proven(p,
							  "insn %u: more than %d ESP commands on a "
							  "path",
							  pc, ESP_MAX);
				goto call_done;
			}
			if (in->src_reg == BPF_PSEUDO_KFUNC_CALL && !in->off &&
			    hwxdp_kfunc__is_xdp_metadata(in->imm)) {
				v = num(p, HWXDP_KFUNC_XDP_METADATA_RESULT, p->bv64);
				goto call_done;
			}
			if (in->src_reg == BPF_PSEUDO_KFUNC_CALL && !in->off &&
			    hwxdp_kfunc__is_lowered(in->imm)) {
				v = iter_num(p, st, in->imm) ?: dynptr_xdp(p, st, in->imm, pc);
				if (!v)
					return STEP_FAIL;
				goto call_done;
			}
			if (!in->src_reg && in->imm == BPF_FUNC_tail_call) {
				if (!call_map(p, st, f, &map))
					return not_proven(
						p, "insn %u: tail call through a map not known",
						pc);
				return tail_call(p, st, map, lo32(p, st->r[3]), pc + 1, true);
			}
			if (in->src_reg ||
			    (in->imm != BPF_FUNC_map_lookup_elem &&
			     in->imm != BPF_FUNC_xdp_adjust_head &&
			     in->imm != BPF_FUNC_xdp_adjust_meta &&
			     in->imm != BPF_FUNC_xdp_adjust_tail &&
			     in->imm != BPF_FUNC_map_update_elem &&
			     in->imm != BPF_FUNC_map_delete_elem &&
			     in->imm != BPF_FUNC_redirect_map && in->imm != BPF_FUNC_redirect &&
			     in->imm != BPF_FUNC_csum_diff && helper_clock(in->imm) < 0 &&
			     in->imm != BPF_FUNC_get_prandom_u32 &&
			     in->imm != BPF_FUNC_get_smp_processor_id &&
			     in->imm != BPF_FUNC_xdp_get_buff_len))
				return not_proven(p, "insn %u: %s %d not modelled yet", pc,
						  in->src_reg == BPF_PSEUDO_KFUNC_CALL ? "kfunc"
										       : "helper",
						  in->imm);
			if (helper_clock(in->imm) >= 0) {
				v = clock_read(p, st, (unsigned int)helper_clock(in->imm));
			} else if (in->imm == BPF_FUNC_get_prandom_u32) {
				v = rand_read(p, st);
			} else if (in->imm == BPF_FUNC_get_smp_processor_id) {
				/* one CPU a run: XDP runs with migration off */
				v = zext(p, p->cpu, 64);
			} else if (in->imm == BPF_FUNC_xdp_get_buff_len) {
				/* the model's frames are linear: no fragments */
				v = Z3_mk_bvsub(p->z, st->data_end, st->data);
			} else if (in->imm == BPF_FUNC_xdp_adjust_head) {
				v = adjust_head(p, st, st->r[2]);
				if (!v)
					return not_proven(p,
							  "insn %u: head adjustment with "
							  "metadata of a length not known",
							  pc);
			} else if (in->imm == BPF_FUNC_xdp_adjust_meta) {
				v = adjust_meta(p, st, st->r[2]);
			} else if (in->imm == BPF_FUNC_xdp_adjust_tail) {
				v = adjust_tail(p, st, st->r[2], pc);
			} else if (in->imm == BPF_FUNC_map_update_elem ||
				   in->imm == BPF_FUNC_map_delete_elem) {
				bool upd = in->imm == BPF_FUNC_map_update_elem;
				const struct hwxdp_map_desc *d;
				Z3_ast key, value = NULL;
				uint64_t flags = 0;
				const char *why;

				if (!call_map(p, st, f, &map) ||
				    (upd && !const_of(p, st->r[4], &flags)))
					return not_proven(p, "insn %u: map write not modelled", pc);
				d = &p->maps[map];
				if (d->origin == HWXDP_MAP_INNER) {
					v = bpf_write_of_maps(p, st, f, map, upd, flags);
					if (!v)
						return STEP_FAIL;
					goto call_done;
				}
				key = bpf_bytes(p, st, f, 2, d->key_size);
				if (upd)
					value = bpf_bytes(p, st, f, 3, d->value_size);
				if (!key || (upd && !value))
					return not_proven(p, "insn %u: map key or value in %s", pc,
							  type_name(f->regs[key ? 3 : 2].type));
				v = table_write(p, st, map, key, value, flags, pc, &why);
				if (!v)
					return not_proven(p, "insn %u: map write: %s not modelled",
							  pc, why);
			} else if (in->imm == BPF_FUNC_redirect) {
				v = redirect_ifindex(p, st, st->r[1], st->r[2]);
			} else if (in->imm == BPF_FUNC_csum_diff) {
				uint64_t fs, ts;
				Z3_ast fm = NULL, tmem = NULL;

				if (!const_of(p, st->r[2], &fs) || !const_of(p, st->r[4], &ts) ||
				    fs > HWXDP_PROVE_VALUE_MAX || ts > HWXDP_PROVE_VALUE_MAX)
					return not_proven(
						p, "insn %u: csum_diff of sizes not known", pc);
				if (fs && !(fm = bpf_space(st, f->regs[1].type)))
					return not_proven(p, "insn %u: csum_diff from %s", pc,
							  type_name(f->regs[1].type));
				if (ts && !(tmem = bpf_space(st, f->regs[3].type)))
					return not_proven(p, "insn %u: csum_diff to %s", pc,
							  type_name(f->regs[3].type));
				v = csum_diff(p, fm, st->r[1], (uint32_t)fs, tmem, st->r[3],
					      (uint32_t)ts, st->r[5]);
			} else if (in->imm == BPF_FUNC_redirect_map) {
				/* a host CPU's queue or a socket on this path: the
				 * device punts, and the host copy redirects */
				if (f->punt_host_maps && call_map(p, st, f, &map) &&
				    (p->maps[map].type == BPF_MAP_TYPE_CPUMAP ||
				     p->maps[map].type == BPF_MAP_TYPE_XSKMAP))
					return add_leaf(p, st, st->cond, HWXDP_PROVE_END_PUNT,
							num(p, HWXDP_PUNT_HOST_ONLY, p->bv32), pc);
				if (!call_map(p, st, f, &map) ||
				    !(v = redirect(p, st, map, lo32(p, st->r[2]), st->r[3])))
					return not_proven(
						p, "insn %u: redirect not modelled (not a devmap)",
						pc);
			} else {
				const struct hwxdp_map_desc *d;
				uint8_t kt = f->regs[2].type;
				Z3_ast mem;

				if (!call_map(p, st, f, &map))
					return not_proven(p, "insn %u: lookup in a map not known",
							  pc);
				d = &p->maps[map];
				if (hxu_map_of_maps(d->type) || d->origin == HWXDP_MAP_INNER) {
					v = bpf_lookup_of_maps(p, st, f, map);
					if (!v)
						return STEP_FAIL;
					goto call_done;
				}
				mem = kt == HWXDP_REG_PTR_TO_STACK	 ? st->lm
				      : kt == HWXDP_REG_PTR_TO_MAP_VALUE ? st->tm
				      : kt == HWXDP_REG_PTR_TO_PACKET	 ? st->pkt
									 : NULL;
				if (!mem || !d->key_size || d->key_size > HWXDP_PROVE_KEY_MAX)
					return not_proven(p, "insn %u: map key in %s", pc,
							  type_name(kt));
				v = lookup(p, st, map,
					   read_bytes(p, mem, st->r[2], d->key_size, false));
				if (!v)
					return not_proven(p, "insn %u: lookup in map %s of type %u",
							  pc, d->name, d->type);
			}
		call_done:
			/* the call clobbers r1..r5: nothing may read them again */
			for (int i = 1; i <= 5; i++)
				st->r[i] = Z3_mk_fresh_const(p->z, "clobbered", p->bv64);
			st->r[0] = v;
			st->pc++;
			if (p->alt) {
				memcpy(&p->alt->r[1], &st->r[1], 5 * sizeof(st->r[1]));
				p->alt->r[0] = p->alt_r;
				p->alt->pc++;
			}
			return STEP_NEXT;
		}
		src = BPF_SRC(in->code) == BPF_X ? st->r[in->src_reg]
		      : w32			 ? u64(p, (uint32_t)in->imm)
						 : u64(p, (uint64_t)(int64_t)in->imm);
		fk->cond = cmp(p, op, st->r[in->dst_reg], src, w32);
		if (!fk->cond)
			return not_proven(p, "insn %u: jump 0x%02x", pc, in->code);
		fk->target = (uint32_t)((int64_t)pc + 1 + in->off);
		fk->fall = pc + 1;
		if (fk->target <= pc)
			st->back_edge = (int32_t)pc;
		return STEP_FORK;
	}
	}
	return not_proven(p, "insn %u: instruction 0x%02x", pc, in->code);
}

static const uint8_t cc_ops[HXU_CC__MAX] = {
	[HXU_CC_EQ] = BPF_JEQ,	 [HXU_CC_NE] = BPF_JNE,	  [HXU_CC_GT] = BPF_JGT,
	[HXU_CC_GE] = BPF_JGE,	 [HXU_CC_LT] = BPF_JLT,	  [HXU_CC_LE] = BPF_JLE,
	[HXU_CC_SGT] = BPF_JSGT, [HXU_CC_SGE] = BPF_JSGE, [HXU_CC_SLT] = BPF_JSLT,
	[HXU_CC_SLE] = BPF_JSLE, [HXU_CC_SET] = BPF_JSET,
};

static Z3_ast hxu_imm(struct prover *p, int32_t imm, bool w32)
{
	return u64(p, w32 ? (uint64_t)(uint32_t)imm : (uint64_t)(int64_t)imm);
}

/* A unit operation ends: on st's path, and on the split-off one's with
 * its own result. */
static enum step hxu_unit_done(struct prover *p, struct sym *st, uint8_t rd, uint32_t words)
{
	st->pc += words;
	if (p->alt) {
		p->alt->r[rd] = p->alt_r;
		p->alt->pc += words;
	}
	return STEP_NEXT;
}

/* n bytes at addr in a unit's space, checked against it as the device
 * does (a leaf that faults where they can be outside). */
static enum step hxu_bytes(struct prover *p, struct sym *st, unsigned int space, Z3_ast addr,
			   uint32_t n, Z3_ast *out)
{
	Z3_ast mem = space == HXU_SPACE_PKT ? st->pkt : space == HXU_SPACE_LM ? st->lm : st->tm;

	if (access_check(p, st, space, addr, n) == STEP_FAIL)
		return STEP_FAIL;
	*out = read_bytes(p, mem, addr, n, false);
	return STEP_NEXT;
}

/*
 * tlookup on a map of maps, and tlookupr, tupdater and tdeleter (docs/isa.md
 * 4.4): their handle is checked first, as the device checks it: the frame
 * aborts unless it is a handle (bits 63..32 are 1) of a table that fits
 * the template; its low byte is the table's identity. Then the key and
 * the value, in their spaces, and the lookup or the write (inner_write).
 */
static enum step hxu_of_maps(struct prover *p, struct sym *st, const struct hxu_op *o,
			     uint32_t words)
{
	const struct hwxdp_map_desc *d = o->x < p->map_cnt ? &p->maps[o->x] : NULL;
	unsigned int space = o->flags & 3;
	unsigned int vs = ((uint32_t)o->imm >> HXU_TUPDATE_VSPACE_SHIFT) & 3;
	uint32_t pc = st->pc, ks;
	Z3_context z = p->z;
	Z3_ast id = NULL, key, value = NULL, v;
	const char *why;

	if (!d || !hxu_map_of_maps(d->type) || d->inner_map >= p->map_cnt)
		return not_proven(p, "op %u: table %u is no map of maps with a template", pc, o->x);
	if (o->opcode != HXU_OP_TLOOKUP) {
		Z3_ast h = st->r[hxu_handle_reg(o)], object, ok, out;

		id = Z3_mk_extract(z, 7, 0, h);
		ok = and2(p, Z3_mk_eq(z, Z3_mk_extract(z, 63, 32, h), num(p, 1, p->bv32)),
			  and2(p,
			       Z3_mk_bvult(z, Z3_mk_extract(z, 31, 0, h),
					   num(p, HXU_TABLES, p->bv32)),
			       inner_valid(p, o->x, id, &object)));
		out = Z3_mk_not(z, ok);
		if (feasible(p, out)) {
			if (add_leaf(p, st, and2(p, st->cond, out), HWXDP_PROVE_END_FAULT,
				     num(p, pc, p->bv32), pc) == STEP_FAIL)
				return STEP_FAIL;
			p->cur->leaves[p->cur->leaf_cnt - 1].extra = Z3_simplify(z, out);
			path_add(p, st, ok);
		}
	}
	ks = (o->opcode == HXU_OP_TLOOKUP ? d : &p->maps[d->inner_map])->key_size;
	if (space >= HXU_SPACE__MAX || !ks || ks > HWXDP_PROVE_KEY_MAX)
		return not_proven(p, "op %u: key space %u", pc, space);
	if (hxu_bytes(p, st, space, st->r[o->rs], ks, &key) == STEP_FAIL)
		return STEP_FAIL;
	if (o->opcode == HXU_OP_TUPDATER || o->opcode == HXU_OP_TDELETER) {
		const struct hwxdp_map_desc *t = &p->maps[d->inner_map];

		if (o->opcode == HXU_OP_TUPDATER &&
		    (vs >= HXU_SPACE__MAX || t->value_size > HWXDP_PROVE_VALUE_MAX))
			return not_proven(p, "op %u: value space %u", pc, vs);
		if (o->opcode == HXU_OP_TUPDATER &&
		    hxu_bytes(p, st, vs, st->r[o->rt], t->value_size, &value) == STEP_FAIL)
			return STEP_FAIL;
		v = inner_write(p, st, o->x, id, key, value,
				o->opcode == HXU_OP_TUPDATER
					? (uint32_t)o->imm & HXU_TUPDATE_FLAGS_MASK
					: 0,
				pc, &why);
		if (!v)
			return not_proven(p,
					  "op %u: map write through a map of %s: %s not modelled",
					  pc, d->name, why);
		st->r[o->rd] = v;
		return hxu_unit_done(p, st, o->rd, words);
	}
	v = id ? inner_lookup(p, st, o->x, id, key) : outer_lookup(p, st, o->x, key, false);
	if (!v)
		return not_proven(p, "op %u: lookup in a map of %s of type %u", pc, d->name,
				  p->maps[d->inner_map].type);
	st->r[o->rd] = v;
	return hxu_unit_done(p, st, o->rd, words);
}

/* One HXU operation, as device/engine.c runs it. */
static enum step hxu_step(struct prover *p, struct sym *st, struct fork *fk)
{
	struct hxu_op o;
	uint32_t pc = st->pc, words;
	bool w32, k;
	Z3_ast *rd, rs, rt, v;

	if (pc >= p->img->op_cnt)
		return not_proven(p, "op %u: outside the microcode", pc);
	words = hxu_decode_at(&p->img->ops[pc], p->img->op_cnt - pc, &o);
	if (!words)
		return not_proven(p, "op %u: cannot be decoded", pc);
	w32 = o.flags & HXU_F_W32;
	k = o.flags & HXU_F_K;
	rd = &st->r[o.rd];
	rs = st->r[o.rs];
	rt = st->r[o.rt];
	switch (hxu_opcode_class(o.opcode)) {
	case HXU_CLASS_A: {
		static const uint8_t alu_ops[] = {
			[HXU_OP_ADD] = BPF_ADD,	  [HXU_OP_SUB] = BPF_SUB, [HXU_OP_MUL] = BPF_MUL,
			[HXU_OP_DIV] = BPF_DIV,	  [HXU_OP_MOD] = BPF_MOD, [HXU_OP_SDIV] = BPF_DIV,
			[HXU_OP_SMOD] = BPF_MOD,  [HXU_OP_AND] = BPF_AND, [HXU_OP_OR] = BPF_OR,
			[HXU_OP_XOR] = BPF_XOR,	  [HXU_OP_LSH] = BPF_LSH, [HXU_OP_RSH] = BPF_RSH,
			[HXU_OP_ARSH] = BPF_ARSH,
		};
		Z3_ast b = k ? hxu_imm(p, o.imm, w32) : rt;

		switch (o.opcode) {
		case HXU_OP_NEG:
			v = alu(p, BPF_NEG, false, rs, rs, w32);
			break;
		case HXU_OP_MOV:
			v = k ? hxu_imm(p, o.imm, w32) : w32 ? zext(p, lo32(p, rs), 64) : rs;
			break;
		case HXU_OP_MOVI:
			v = u64(p, hxu_movi_value(&o));
			break;
		case HXU_OP_MOVSX8:
		case HXU_OP_MOVSX16:
		case HXU_OP_MOVSX32: {
			unsigned int bits = o.opcode == HXU_OP_MOVSX8	 ? 8
					    : o.opcode == HXU_OP_MOVSX16 ? 16
									 : 32;

			v = zext(p, sext(p, Z3_mk_extract(p->z, bits - 1, 0, rs), w32 ? 32 : 64),
				 64);
			break;
		}
		case HXU_OP_BSWAP16:
			v = bswap(p, rs, 16);
			break;
		case HXU_OP_BSWAP32:
			v = bswap(p, rs, 32);
			break;
		case HXU_OP_BSWAP64:
			v = bswap(p, rs, 64);
			break;
		case HXU_OP_ZEXT16:
			v = zext(p, Z3_mk_extract(p->z, 15, 0, rs), 64);
			break;
		case HXU_OP_ZEXT32:
			v = zext(p, lo32(p, rs), 64);
			break;
		default:
			v = alu(p, alu_ops[o.opcode],
				o.opcode == HXU_OP_SDIV || o.opcode == HXU_OP_SMOD, rs, b, w32);
		}
		*rd = v;
		st->pc += words;
		return STEP_NEXT;
	}
	case HXU_CLASS_M: {
		uint8_t kind = hxu_mem_kind(o.opcode);
		enum hxu_space space = hxu_mem_space(o.opcode);
		unsigned int n = hxu_mem_size(o.flags);
		bool be = kind != HXU_OP_ATOMIC && (o.flags & HXU_F_BE);
		Z3_ast addr = Z3_mk_bvadd(p->z, rs, u64(p, (uint64_t)(int64_t)o.imm));
		Z3_ast *mem = space == HXU_SPACE_PKT  ? &st->pkt
			      : space == HXU_SPACE_LM ? &st->lm
						      : &st->tm;
		bool fp = space == HXU_SPACE_LM && o.rs == HXU_REG_FP && o.imm >= -HXU_LM_FRAME &&
			  o.imm <= -(int32_t)n;

		/* frame-relative local memory is not checked: r10 keeps it inside */
		if (!fp && access_check(p, st, space, addr, n) == STEP_FAIL)
			return STEP_FAIL;
		if (kind == HXU_OP_ATOMIC) {
			static const uint8_t aops[] = {
				[HXU_ATOMIC_ADD] = BPF_ADD,   [HXU_ATOMIC_AND] = BPF_AND,
				[HXU_ATOMIC_OR] = BPF_OR,     [HXU_ATOMIC_XOR] = BPF_XOR,
				[HXU_ATOMIC_XCHG] = BPF_XCHG, [HXU_ATOMIC_CMPXCHG] = BPF_CMPXCHG,
			};

			/* the engine refuses xchg and cmpxchg without .fetch */
			if (o.x >= HXU_ATOMIC__MAX || space == HXU_SPACE_PKT ||
			    (o.x >= HXU_ATOMIC_XCHG && !(o.flags & HXU_F_FETCH)))
				return not_proven(p, "op %u: atomic operation %u not modelled", pc,
						  o.x);
			/* cmpxchg compares with rd, before it receives the old value */
			v = atomic_rmw(p, mem, addr, n, aops[o.x], rt, *rd);
			if (o.flags & HXU_F_FETCH)
				*rd = v;
		} else if (kind == HXU_OP_LD || kind == HXU_OP_LDSX) {
			v = load(p, *mem, addr, n, be);
			if (kind == HXU_OP_LDSX)
				v = sext(p, Z3_mk_extract(p->z, 8 * n - 1, 0, v), 64);
			*rd = v;
		} else {
			v = kind == HXU_OP_STI ? u64(p, (uint64_t)(int64_t)(int32_t)o.ext) : rt;
			*mem = store(p, *mem, addr, n, v, be);
			if (mem == &st->pkt)
				st->writer = mark(p, st->writer, addr, n, pc);
		}
		st->pc += words;
		return STEP_NEXT;
	}
	case HXU_CLASS_C:
		switch (o.opcode) {
		case HXU_OP_BR:
		case HXU_OP_BRI:
			if (o.x >= HXU_CC__MAX)
				return not_proven(p, "op %u: condition %u", pc, o.x);
			fk->cond = cmp(
				p, cc_ops[o.x], rs,
				o.opcode == HXU_OP_BRI ? hxu_imm(p, (int32_t)o.ext, w32) : rt, w32);
			fk->target = (uint32_t)o.imm;
			fk->fall = pc + words;
			if (fk->target <= pc)
				st->back_edge = (int32_t)pc;
			return STEP_FORK;
		case HXU_OP_LCHK: {
			Z3_ast base = o.flags & HXU_F_LCHK_REG ? rs : st->data;
			Z3_ast end =
				Z3_mk_bvadd(p->z, base, u64(p, (uint64_t)(int64_t)(int32_t)o.ext));

			fk->cond = Z3_mk_bvugt(p->z, end, st->data_end);
			fk->target = (uint32_t)o.imm;
			fk->fall = pc + words;
			if (fk->target <= pc)
				st->back_edge = (int32_t)pc;
			return STEP_FORK;
		}
		case HXU_OP_JMP:
			if ((uint32_t)o.imm <= pc)
				st->back_edge = (int32_t)pc;
			st->pc = (uint32_t)o.imm;
			return STEP_NEXT;
		case HXU_OP_EXIT:
			/* at call depth above 0 an exit returns, as BPF's does */
			if (st->call_depth)
				return do_return(p, st);
			return add_leaf(p, st, st->cond, HWXDP_PROVE_END_EXIT, lo32(p, st->r[0]),
					pc);
		case HXU_OP_CALL:
			if (st->call_depth == HXU_RSTACK_DEPTH - 1)
				return add_leaf(p, st, st->cond, HWXDP_PROVE_END_FAULT,
						num(p, pc, p->bv32), pc);
			do_call(p, st, pc + words, (uint32_t)o.imm);
			return STEP_NEXT;
		case HXU_OP_RET:
			if (!st->call_depth)
				return add_leaf(p, st, st->cond, HWXDP_PROVE_END_FAULT,
						num(p, pc, p->bv32), pc);
			return do_return(p, st);
		case HXU_OP_TCALL:
			return tail_call(p, st, o.x, lo32(p, rs), pc + words, false);
		}
		return not_proven(p, "op %u: opcode 0x%02x", pc, o.opcode);
	case HXU_CLASS_U:
		if (hxu_op_table_reg(o.opcode) || (o.opcode == HXU_OP_TLOOKUP && o.x < p->map_cnt &&
						   hxu_map_of_maps(p->maps[o.x].type)))
			return hxu_of_maps(p, st, &o, words);
		if (o.opcode == HXU_OP_PUNT)
			return add_leaf(p, st, st->cond, HWXDP_PROVE_END_PUNT,
					num(p, (uint32_t)o.imm, p->bv32), pc);
		if (o.opcode == HXU_OP_CTX) {
			static const uint32_t offs[HXU_CTX__MAX] = {
				[HXU_CTX_DATA] = offsetof(struct xdp_md, data),
				[HXU_CTX_DATA_END] = offsetof(struct xdp_md, data_end),
				[HXU_CTX_DATA_META] = offsetof(struct xdp_md, data_meta),
				[HXU_CTX_INGRESS] = offsetof(struct xdp_md, ingress_ifindex),
				[HXU_CTX_RX_QUEUE] = offsetof(struct xdp_md, rx_queue_index),
				[HXU_CTX_EGRESS] = offsetof(struct xdp_md, egress_ifindex),
			};

			if (o.x >= HXU_CTX__MAX)
				return not_proven(p, "op %u: ctx field %u", pc, o.x);
			*rd = ctx_field(p, st, offs[o.x]);
			st->pc += words;
			return STEP_NEXT;
		}
		if (o.opcode == HXU_OP_HADJ || o.opcode == HXU_OP_MADJ) {
			*rd = o.opcode == HXU_OP_HADJ ? adjust_head(p, st, rs)
						      : adjust_meta(p, st, rs);
			if (!*rd)
				return not_proven(p,
						  "op %u: head adjustment with metadata of a "
						  "length not known",
						  pc);
			return hxu_unit_done(p, st, o.rd, words);
		}
		if (o.opcode == HXU_OP_TUPDATE || o.opcode == HXU_OP_TDELETE) {
			const struct hwxdp_map_desc *d = o.x < p->map_cnt ? &p->maps[o.x] : NULL;
			bool upd = o.opcode == HXU_OP_TUPDATE;
			unsigned int ks = o.flags & 3;
			unsigned int vs = ((uint32_t)o.imm >> HXU_TUPDATE_VSPACE_SHIFT) & 3;
			Z3_ast key, value = NULL;
			const char *why;

			if (!d)
				return not_proven(p, "op %u: table %u has no map", pc, o.x);
			if (ks >= HXU_SPACE__MAX || (upd && vs >= HXU_SPACE__MAX) ||
			    d->key_size > HWXDP_PROVE_KEY_MAX ||
			    d->value_size > HWXDP_PROVE_VALUE_MAX)
				return not_proven(p, "op %u: key or value space", pc);
			if (hxu_bytes(p, st, ks, rs, d->key_size, &key) == STEP_FAIL ||
			    (upd && hxu_bytes(p, st, vs, rt, d->value_size, &value) == STEP_FAIL))
				return STEP_FAIL;
			*rd = table_write(p, st, o.x, key, value,
					  upd ? (uint32_t)o.imm & HXU_TUPDATE_FLAGS_MASK : 0, pc,
					  &why);
			if (!*rd)
				return not_proven(p, "op %u: map write: %s not modelled", pc, why);
			st->pc += words;
			return STEP_NEXT;
		}
		if (o.opcode == HXU_OP_ESP) {
			*rd = esp(p, st, rs, rt, pc);
			if (!*rd)
				return not_proven(p, "op %u: more than %d ESP commands on a path",
						  pc, ESP_MAX);
			return hxu_unit_done(p, st, o.rd, words);
		}
		if (o.opcode == HXU_OP_RAND) {
			*rd = rand_read(p, st);
			st->pc += words;
			return STEP_NEXT;
		}
		if (o.opcode == HXU_OP_TIME || o.opcode == HXU_OP_CPU) {
			/* cpu: the engine number, the frame's CPU on the device */
			*rd = o.opcode == HXU_OP_TIME ? clock_read(p, st, o.x)
						      : zext(p, p->cpu, 64);
			st->pc += words;
			return STEP_NEXT;
		}
		if (o.opcode == HXU_OP_TADJ) {
			*rd = adjust_tail(p, st, rs, pc);
			return hxu_unit_done(p, st, o.rd, words);
		}
		if (o.opcode == HXU_OP_CSUM16) {
			Z3_ast addr = Z3_mk_bvadd(p->z, rs, u64(p, (uint64_t)(int64_t)o.imm));

			if (access_check(p, st, HXU_SPACE_PKT, addr, 2) == STEP_FAIL)
				return STEP_FAIL;
			csum16(p, st, addr, rt, pc);
			st->pc += words;
			return STEP_NEXT;
		}
		if (o.opcode == HXU_OP_REDIR) {
			/* the flags in imm, or all 64 bits of rt */
			*rd = redirect(p, st, o.x, lo32(p, rs),
				       o.imm == HXU_REDIR_FLAGS_RT ? rt : u64(p, (uint32_t)o.imm));
			if (!*rd)
				return not_proven(p, "op %u: redirect not modelled (not a devmap)",
						  pc);
			return hxu_unit_done(p, st, o.rd, words);
		}
		if (o.opcode == HXU_OP_REDIRIF) {
			*rd = redirect_ifindex(p, st, rs, rt);
			st->pc += words;
			return STEP_NEXT;
		}
		if (o.opcode == HXU_OP_CSUMD) {
			unsigned int fsp = o.x & 3, tsp = (o.x >> HXU_CSUMD_TO_SHIFT) & 3;
			uint64_t fs, ts;
			Z3_ast *mems[HXU_SPACE__MAX] = { [HXU_SPACE_PKT] = &st->pkt,
							 [HXU_SPACE_LM] = &st->lm,
							 [HXU_SPACE_TM] = &st->tm };

			if (!const_of(p, st->r[2], &fs) || !const_of(p, st->r[4], &ts) ||
			    fs > HWXDP_PROVE_VALUE_MAX || ts > HWXDP_PROVE_VALUE_MAX ||
			    fsp >= HXU_SPACE__MAX || tsp >= HXU_SPACE__MAX)
				return not_proven(p, "op %u: csumd of sizes not known", pc);
			if ((fs && access_check(p, st, fsp, st->r[1], (uint32_t)fs) == STEP_FAIL) ||
			    (ts && access_check(p, st, tsp, st->r[3], (uint32_t)ts) == STEP_FAIL))
				return STEP_FAIL;
			*rd = csum_diff(p, *mems[fsp], st->r[1], (uint32_t)fs, *mems[tsp], st->r[3],
					(uint32_t)ts, st->r[5]);
			st->pc += words;
			return STEP_NEXT;
		}
		if (o.opcode == HXU_OP_TINDEX || o.opcode == HXU_OP_TLOOKUP) {
			const struct hwxdp_map_desc *d = o.x < p->map_cnt ? &p->maps[o.x] : NULL;
			unsigned int space = o.flags & 3;
			Z3_ast mem, key;

			if (!d)
				return not_proven(p, "op %u: table %u has no map", pc, o.x);
			if (o.opcode == HXU_OP_TINDEX) {
				if (d->type != BPF_MAP_TYPE_ARRAY)
					return not_proven(p,
							  "op %u: tindex on map %s, not an array",
							  pc, d->name);
				key = lo32(p, rs);
			} else {
				uint32_t ks = d->type == BPF_MAP_TYPE_ARRAY ? 4 : d->key_size;

				if (space >= HXU_SPACE__MAX || ks > HWXDP_PROVE_KEY_MAX)
					return not_proven(p, "op %u: key space %u", pc, space);
				mem = space == HXU_SPACE_PKT  ? st->pkt
				      : space == HXU_SPACE_LM ? st->lm
							      : st->tm;
				if (access_check(p, st, space, rs, ks) == STEP_FAIL)
					return STEP_FAIL;
				key = read_bytes(p, mem, rs, ks, false);
			}
			*rd = lookup(p, st, o.x, key);
			if (!*rd)
				return not_proven(p, "op %u: lookup in map %s of type %u", pc,
						  d->name, d->type);
			return hxu_unit_done(p, st, o.rd, words);
		}
		return not_proven(p, "op %u: unit operation 0x%02x not modelled yet", pc, o.opcode);
	default:
		return not_proven(p, "op %u: opcode 0x%02x", pc, o.opcode);
	}
}

static void sym_init(struct prover *p, struct sym *st, const char *side, uint32_t pc)
{
	char name[32];

	/* registers the program reads before writing them are free, and free
	 * apart on the two sides: an output that depends on one shows */
	for (int i = 0; i < HXU_REGS; i++) {
		snprintf(name, sizeof(name), "%s_r%d", side, i);
		st->r[i] = Z3_mk_const(p->z, Z3_mk_string_symbol(p->z, name), p->bv64);
		p->start_regs[side[0] == 'h'][i] = st->r[i];
	}
	st->r[1] = u64(p, CTX_ADDR);
	st->r[HXU_REG_FP] = u64(p, LM_FP);
	st->pkt = p->pkt0;
	st->lm = p->lm0;
	st->writer = p->writer0;
	st->tm = p->tm0;
	st->egress = u64(p, UINT64_MAX);
	st->lk_cnt = 0;
	st->wr_cnt = 0;
	st->esp_cnt = 0;
	st->clock_cnt = 0;
	st->rand_cnt = 0;
	memset(st->ver, 0, sizeof(st->ver));
	st->data = u64(p, PKT_BASE);
	st->data_meta = st->data;
	st->data_end = Z3_mk_bvadd(p->z, st->data, zext(p, p->len, 64));
	st->cond = Z3_mk_true(p->z);
	st->pc = pc;
	st->prog = 0;
	st->tail_calls = 0;
	st->steps = 0;
	st->back_edge = -1;
	st->call_depth = 0;
	st->level = 0;
	st->pending = NULL;
	st->node = -1;
	st->model = NULL;
}

/* Explores every path of one side from init: 0, or STEP_FAIL's reason. */
static int explore(struct prover *p, struct side *sd, const struct sym *init,
		   enum step (*step)(struct prover *, struct sym *, struct fork *),
		   const char *unit)
{
	struct sym *stack = malloc(sizeof(*stack) * LEAF_MAX);
	int err = 0;

	if (!stack)
		return -ENOMEM;
	p->cur = sd;
	p->stack = stack;
	p->depth = 0;
	stack[p->depth++] = *init;
	while (p->depth && !err) {
		struct sym st = stack[--p->depth];

		path_resume(p, &st);

		for (;;) {
			struct fork fk;
			enum step r;

			if (++st.steps > STEP_MAX) {
				not_proven(p, "loop at %s %d: not done after %u steps", unit,
					   st.back_edge, STEP_MAX);
				err = 1;
				break;
			}
			p->alt = NULL;
			r = step(p, &st, &fk);
			/* theorems, true on every path: on this one's */
			for (uint32_t i = 0; i < p->div_law_cnt; i++)
				law_at(p, p->div_laws[i], st.node);
			p->div_law_cnt = 0;
			if (p->overflow) {
				not_proven(p, "more than %d open paths", LEAF_MAX);
				err = 1;
				break;
			}
			if (p->no_memory) {
				not_proven(p, "out of memory");
				err = 1;
				break;
			}
			if (p->z3_error) {
				not_proven(p, "%s %u: the solver refused a term", unit, st.pc);
				err = 1;
				break;
			}
			if (r == STEP_FAIL) {
				err = 1;
				break;
			}
			if (r == STEP_LEAF)
				break;
			if (r == STEP_FORK) {
				Z3_ast c = Z3_simplify(p->z, fk.cond), nc = Z3_mk_not(p->z, c);
				Z3_model mt = NULL, mf = NULL;
				bool t = !is_false(p, c) && can_hold(p, c, &mt);
				bool f = !is_true(p, c) && can_hold(p, nc, &mf);

				if (t && f) {
					struct sym *w = &stack[p->depth];

					if (p->depth == LEAF_MAX) {
						model_set(p, &mt, NULL);
						model_set(p, &mf, NULL);
						not_proven(p, "more than %d open paths", LEAF_MAX);
						err = 1;
						break;
					}
					*w = st;
					w->cond = and2(p, st.cond, nc);
					w->pending = nc;
					w->pc = fk.fall;
					w->model = mf;
					p->depth++;
					model_set(p, &p->model, mt);
					path_add(p, &st, c);
					st.pc = fk.target;
				} else if (t) {
					model_set(p, &p->model, mt);
					model_set(p, &mf, NULL);
					st.pc = fk.target;
				} else if (f) {
					model_set(p, &p->model, mf);
					model_set(p, &mt, NULL);
					st.pc = fk.fall;
				} else {
					break; /* this path cannot happen at all */
				}
			}
		}
	}
	while (p->depth)
		model_set(p, &stack[--p->depth].model, NULL);
	model_set(p, &p->model, NULL);
	free(stack);
	p->stack = NULL;
	/*
	 * Back to the assumptions. The laws of this side's paths stay off the
	 * solver while the other side is explored: they can only drop paths
	 * of it that no path of this side meets, which the compare, holding
	 * each pair's own laws, finds anyway (fwd's microcode: the same
	 * 1,005 paths in 51 s instead of 102 s).
	 */
	if (p->level) {
		Z3_solver_pop(p->z, p->s, p->level);
		p->level = 0;
	}
	return err;
}

/* A side's outputs, one term each: ite over its leaves. */
struct outputs {
	Z3_ast end, value, pkt, data, len, tm, meta, meta_len, egress;
	/* the sequence of map writes, to the longest of either side's */
	Z3_ast wr_cnt, wr_tag[WRITE_MAX], wr_key[WRITE_MAX], wr_value[WRITE_MAX], wr_tm[WRITE_MAX];
	/* the sequence of crypto commands: count, then per command handle,
	 * L3 offset, data, data_end, data_meta and the window */
	Z3_ast esp_cnt, esp[ESP_MAX][6];
};

/* Write j of leaf l as terms, a write of nothing where it has fewer. */
static void write_terms(struct prover *p, const struct leaf *l, uint32_t j, Z3_ast *t)
{
	const struct table_write *w = j < l->wr_cnt ? &l->wr[j] : NULL;

	/* a made table's identity above the tag (0 for a map's: no made
	 * table's id is 0) */
	t[0] = Z3_mk_concat(p->z, w && w->table ? w->table : num(p, 0, p->bv8),
			    num(p, w ? w->tag : 0, p->bv32));
	t[1] = w ? w->key : pad(p, NULL, p->key_bits);
	t[2] = w ? w->value : pad(p, NULL, p->value_bits);
	t[3] = w ? w->tm : p->tm0;
}

/* Leaves folded from the last: the last one's term, else cond ? t : prev. */
static Z3_ast fold_term(struct prover *p, bool last, Z3_ast cond, Z3_ast t, Z3_ast prev)
{
	return last ? t : Z3_mk_ite(p->z, cond, t, prev);
}

static void fold_writes(struct prover *p, const struct side *sd, struct outputs *o, uint32_t n)
{
	for (int32_t i = (int32_t)sd->leaf_cnt - 1; i >= 0; i--) {
		const struct leaf *l = &sd->leaves[i];
		bool last = i == (int32_t)sd->leaf_cnt - 1;
		Z3_ast cnt = num(p, l->wr_cnt, p->bv32), t[4];

		o->wr_cnt = fold_term(p, last, l->cond, cnt, o->wr_cnt);
		for (uint32_t j = 0; j < n; j++) {
			write_terms(p, l, j, t);
			o->wr_tag[j] = fold_term(p, last, l->cond, t[0], o->wr_tag[j]);
			o->wr_key[j] = fold_term(p, last, l->cond, t[1], o->wr_key[j]);
			o->wr_value[j] = fold_term(p, last, l->cond, t[2], o->wr_value[j]);
			o->wr_tm[j] = fold_term(p, last, l->cond, t[3], o->wr_tm[j]);
		}
	}
}

/* Command j of leaf l as terms: a command of nothing where it has fewer. */
static void esp_terms(struct prover *p, const struct leaf *l, uint32_t j, Z3_ast *t)
{
	const struct esp_cmd *c = j < l->esp_cnt ? &l->esp[j] : NULL;
	Z3_ast zero = u64(p, 0);

	t[0] = c ? c->handle : zero;
	t[1] = c ? c->l3 : zero;
	t[2] = c ? c->data : zero;
	t[3] = c ? c->data_end : zero;
	t[4] = c ? c->data_meta : zero;
	t[5] = c ? c->pkt : p->pkt0;
}

static void fold_esp(struct prover *p, const struct side *sd, struct outputs *o, uint32_t n)
{
	for (int32_t i = (int32_t)sd->leaf_cnt - 1; i >= 0; i--) {
		const struct leaf *l = &sd->leaves[i];
		bool last = i == (int32_t)sd->leaf_cnt - 1;
		Z3_ast cnt = num(p, l->esp_cnt, p->bv32), t[6];

		o->esp_cnt = fold_term(p, last, l->cond, cnt, o->esp_cnt);
		for (uint32_t j = 0; j < n; j++) {
			esp_terms(p, l, j, t);
			for (int k = 0; k < 6; k++)
				o->esp[j][k] = fold_term(p, last, l->cond, t[k], o->esp[j][k]);
		}
	}
}

static uint32_t esp_max(const struct side *sd)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < sd->leaf_cnt; i++)
		if (sd->leaves[i].esp_cnt > n)
			n = sd->leaves[i].esp_cnt;
	return n;
}

static uint32_t writes_max(const struct side *sd)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < sd->leaf_cnt; i++)
		if (sd->leaves[i].wr_cnt > n)
			n = sd->leaves[i].wr_cnt;
	return n;
}

static void fold(struct prover *p, const struct side *sd, struct outputs *o)
{
	for (int32_t i = (int32_t)sd->leaf_cnt - 1; i >= 0; i--) {
		const struct leaf *l = &sd->leaves[i];
		Z3_ast end = num(p, l->end, p->bv32);
		Z3_ast len = lo32(p, Z3_mk_bvsub(p->z, l->data_end, l->data));
		Z3_ast mlen = lo32(p, Z3_mk_bvsub(p->z, l->data, l->data_meta));

		if (i == (int32_t)sd->leaf_cnt - 1) {
			*o = (struct outputs){ end,   l->value,	    l->pkt, l->data,  len,
					       l->tm, l->data_meta, mlen,   l->egress };
			continue;
		}
		o->meta = Z3_mk_ite(p->z, l->cond, l->data_meta, o->meta);
		o->egress = Z3_mk_ite(p->z, l->cond, l->egress, o->egress);
		o->meta_len = Z3_mk_ite(p->z, l->cond, mlen, o->meta_len);
		o->end = Z3_mk_ite(p->z, l->cond, end, o->end);
		o->value = Z3_mk_ite(p->z, l->cond, l->value, o->value);
		o->pkt = Z3_mk_ite(p->z, l->cond, l->pkt, o->pkt);
		o->data = Z3_mk_ite(p->z, l->cond, l->data, o->data);
		o->len = Z3_mk_ite(p->z, l->cond, len, o->len);
		o->tm = Z3_mk_ite(p->z, l->cond, l->tm, o->tm);
	}
}

/* Whether a run that ends so hands its frame on: the bytes then count. */
static Z3_ast leaves_frame(struct prover *p, const struct outputs *o)
{
	Z3_context z = p->z;
	Z3_ast exit = Z3_mk_eq(z, o->end, num(p, HWXDP_PROVE_END_EXIT, p->bv32));
	Z3_ast punt = Z3_mk_eq(z, o->end, num(p, HWXDP_PROVE_END_PUNT, p->bv32));
	Z3_ast fwd = and2(p, Z3_mk_bvuge(z, o->value, num(p, XDP_PASS, p->bv32)),
			  Z3_mk_bvule(z, o->value, num(p, XDP_REDIRECT, p->bv32)));

	return or2(p, punt, and2(p, exit, fwd));
}

static uint64_t eval_u64(struct prover *p, Z3_model m, Z3_ast a)
{
	Z3_ast v;
	uint64_t x = 0;

	if (Z3_model_eval(p->z, m, a, true, &v))
		Z3_get_numeral_uint64(p->z, v, &x);
	return x;
}

static const struct leaf *taken(struct prover *p, Z3_model m, const struct side *sd)
{
	for (uint32_t i = 0; i < sd->leaf_cnt; i++) {
		Z3_ast v;

		if (Z3_model_eval(p->z, m, sd->leaves[i].cond, true, &v) && is_true(p, v))
			return &sd->leaves[i];
	}
	return sd->leaf_cnt ? &sd->leaves[sd->leaf_cnt - 1] : NULL;
}

/* Where leaf l's last redirect sends the frame: an entry's port is the
 * ifindex its value begins with (a devmap's value, struct bpf_devmap_val). */
static void egress_of(struct prover *p, Z3_model m, const struct leaf *l,
		      struct hwxdp_prove_outcome *out)
{
	uint64_t e = eval_u64(p, m, l->egress), a;
	uint32_t hi = (uint32_t)(e >> 32), lo = (uint32_t)e;
	Z3_ast hit, addr;

	out->egress_map = out->egress_key = out->egress_ifindex = 0;
	out->egress = HWXDP_PROVE_EGRESS_NONE;
	if (hi == UINT32_MAX - 1) {
		out->egress = HWXDP_PROVE_EGRESS_IFINDEX;
		out->egress_ifindex = lo;
	} else if (hi == EGRESS_BCAST || hi == EGRESS_BCAST_EXCL) {
		out->egress = hi == EGRESS_BCAST ? HWXDP_PROVE_EGRESS_BCAST
						 : HWXDP_PROVE_EGRESS_BCAST_EXCL;
		out->egress_map = lo;
	} else if (hi < p->map_cnt && lookup_term(p, hi, 0, num(p, lo, p->bv32), &hit, &addr)) {
		out->egress = HWXDP_PROVE_EGRESS_ENTRY;
		out->egress_map = hi;
		out->egress_key = lo;
		a = eval_u64(p, m, Z3_mk_bvsub(p->z, addr, p->tm_shift));
		for (unsigned int i = 0; i < 4; i++)
			out->egress_ifindex |=
				(uint32_t)eval_u64(p, m, Z3_mk_select(p->z, p->tm0, u64(p, a + i)))
				<< 8 * i;
	}
}

static void outcome_of(struct prover *p, Z3_model m, const struct leaf *l,
		       struct hwxdp_prove_outcome *out)
{
	uint64_t data = eval_u64(p, m, l->data);

	out->end = l->end;
	out->value = (uint32_t)eval_u64(p, m, l->value);
	out->len = (uint32_t)(eval_u64(p, m, l->data_end) - data);
	out->last = l->last;
	out->prog = l->prog;
	for (uint32_t i = 0; i < out->len && i < HWXDP_PROVE_LEN_MAX; i++)
		out->frame[i] = (uint8_t)eval_u64(
			p, m, Z3_mk_select(p->z, l->pkt, lo32(p, u64(p, data + i))));
	egress_of(p, m, l, out);
}

static int32_t writer_of(struct prover *p, Z3_model m, const struct leaf *l, int32_t byte)
{
	uint64_t data = eval_u64(p, m, l->data), w;

	if (byte < 0)
		return -1;
	w = eval_u64(p, m, Z3_mk_select(p->z, l->writer, lo32(p, u64(p, data + (uint32_t)byte))));
	return w == UINT32_MAX ? -1 : (int32_t)w;
}

/* The map entries the lookups of leaf l need, as the model has them: an
 * array's element, a hash entry's presence and value. */
static void entries_of(struct prover *p, Z3_model m, const struct leaf *l)
{
	struct hwxdp_prove_result *res = p->res;

	for (uint32_t i = 0; i < l->lk_cnt && res->entry_cnt < HWXDP_PROVE_ENTRY_MAX; i++) {
		const struct hwxdp_map_desc *d;
		struct hwxdp_prove_entry e = { .map = l->lk[i].map };
		uint32_t ks = Z3_get_bv_sort_size(p->z, Z3_get_sort(p->z, l->lk[i].key)) / 8;
		uint64_t addr;
		bool dup = false;

		/* through a map of maps: the entry of the inner map found, one
		 * of the object's (report_differ holds the model to them) */
		if (l->lk[i].inner)
			e.map = (uint32_t)eval_u64(p, m, l->lk[i].inner);
		if (e.map >= p->map_cnt)
			continue;
		d = &p->maps[e.map];
		if (d->value_size > HWXDP_PROVE_VALUE_MAX || ks > HWXDP_PROVE_KEY_MAX)
			continue;
		for (uint32_t b = 0; b < ks; b++)
			e.key[b] = (uint8_t)eval_u64(
				p, m, Z3_mk_extract(p->z, 8 * b + 7, 8 * b, l->lk[i].key));
		for (uint32_t j = 0; j < res->entry_cnt && !dup; j++)
			dup = res->entries[j].map == e.map &&
			      !memcmp(res->entries[j].key, e.key, ks);
		if (dup)
			continue;
		if (d->type == BPF_MAP_TYPE_PROG_ARRAY) {
			/* a tail call's slot: the image program it holds, or none */
			uint32_t k = (uint32_t)eval_u64(p, m, prog_slot(p, e.map, l->lk[i].key));

			e.absent = k >= p->img->prog_cnt;
			if (!e.absent)
				memcpy(e.value, &k, sizeof(k));
			res->entries[res->entry_cnt++] = e;
			continue;
		}
		if (hxu_map_of_maps(d->type)) {
			/* the inner map's identity, a map index, as every target
			 * takes a map of maps' value */
			Z3_ast hit, id, yes;
			uint32_t v;

			outer_term(p, e.map, l->lk[i].key, &hit, &id);
			e.absent = !Z3_model_eval(p->z, m, hit, true, &yes) || !is_true(p, yes);
			v = (uint32_t)eval_u64(p, m, id);
			memcpy(e.value, &v, sizeof(v));
			res->entries[res->entry_cnt++] = e;
			continue;
		}
		{
			Z3_ast hit, a, v = lookup_term(p, e.map, 0, l->lk[i].key, &hit, &a);

			Z3_ast yes;

			addr = v ? eval_u64(p, m, Z3_mk_bvsub(p->z, v, p->tm_shift)) : 0;
			e.absent =
				!v || !Z3_model_eval(p->z, m, hit, true, &yes) || !is_true(p, yes);
		}
		for (uint32_t b = 0; !e.absent && b < d->value_size; b++)
			e.value[b] = (uint8_t)eval_u64(
				p, m, Z3_mk_select(p->z, p->tm0, u64(p, addr + b)));
		/* an array's elements always exist: one out of range is no entry */
		if (e.absent &&
		    (d->type == BPF_MAP_TYPE_ARRAY || d->type == BPF_MAP_TYPE_PERCPU_ARRAY))
			continue;
		res->entries[res->entry_cnt++] = e;
	}
}

static uint32_t insn_of_op(const struct hxu_image *img, uint32_t op)
{
	uint32_t insn = 0;

	for (uint32_t i = 0; i < img->line_cnt && img->lines[i].op <= op; i++)
		insn = img->lines[i].insn;
	return insn;
}

static bool model_differ(struct prover *p, Z3_model m, Z3_ast a, Z3_ast b)
{
	Z3_ast v;

	return Z3_model_eval(p->z, m, ne(p, a, b), true, &v) && is_true(p, v);
}

/* The first map write the two sides do not do alike, into the reason. */
static bool write_differs(struct prover *p, Z3_model m, struct hwxdp_prove_result *res)
{
	const struct leaf *b = taken(p, m, &p->bpf), *h = taken(p, m, &p->hxu);
	static const char *const kinds[] = { "nothing", "update", "delete" };

	for (uint32_t j = 0; j < b->wr_cnt || j < h->wr_cnt; j++) {
		Z3_ast tb[4], th[4];
		const char *what;
		uint32_t map;

		write_terms(p, b, j, tb);
		write_terms(p, h, j, th);
		what = !is_true(p, Z3_simplify(p->z, Z3_mk_eq(p->z, tb[0], th[0]))) ? "what"
		       : model_differ(p, m, tb[1], th[1])			    ? "key"
		       : model_differ(p, m, tb[2], th[2])			    ? "value"
										    : NULL;
		if (!what && j < b->wr_cnt) {
			Z3_ast v;

			if (Z3_model_eval(p->z, m, Z3_mk_eq(p->z, tb[3], th[3]), true, &v) &&
			    is_false(p, v))
				what = "table memory before it";
		}
		if (!what)
			continue;
		res->diff_write = (int32_t)j;
		map = (j < b->wr_cnt ? b->wr[j].tag : h->wr[j].tag) & 0xff;
		snprintf(res->reason, sizeof(res->reason),
			 "map write %u: %s differs: BPF %s (insn %d), the microcode %s (op %d) on "
			 "map %s",
			 j, what, kinds[j < b->wr_cnt ? b->wr[j].tag >> 24 : 0],
			 j < b->wr_cnt ? (int32_t)b->wr[j].at : -1,
			 kinds[j < h->wr_cnt ? h->wr[j].tag >> 24 : 0],
			 j < h->wr_cnt ? (int32_t)h->wr[j].at : -1,
			 map < p->map_cnt ? p->maps[map].name : "?");
		return true;
	}
	return false;
}

/* The first crypto command the two sides do not issue alike, into the
 * reason. */
static bool esp_differs(struct prover *p, Z3_model m, struct hwxdp_prove_result *res)
{
	const struct leaf *b = taken(p, m, &p->bpf), *h = taken(p, m, &p->hxu);
	static const char *const parts[] = { "SA handle", "L3 offset", "data",
					     "data_end",  "data_meta", "frame" };

	for (uint32_t j = 0; j < b->esp_cnt || j < h->esp_cnt; j++) {
		Z3_ast tb[6], th[6];
		const char *what = NULL;

		if (j >= b->esp_cnt || j >= h->esp_cnt)
			what = "whether there is one";
		esp_terms(p, b, j, tb);
		esp_terms(p, h, j, th);
		for (int k = 0; k < 5 && !what; k++)
			if (model_differ(p, m, tb[k], th[k]))
				what = parts[k];
		if (!what) {
			uint64_t lo = eval_u64(p, m, tb[4]), hi = eval_u64(p, m, tb[3]);

			for (uint64_t a = lo; a < hi && a < HXU_WINDOW_SIZE && !what; a++) {
				Z3_ast at = num(p, (uint32_t)a, p->bv32);

				if (model_differ(p, m, Z3_mk_select(p->z, tb[5], at),
						 Z3_mk_select(p->z, th[5], at)))
					what = parts[5];
			}
		}
		if (!what)
			continue;
		res->diff_esp = (int32_t)j;
		snprintf(res->reason, sizeof(res->reason),
			 "ESP command %u: %s differs: BPF insn %d (SA %llu, L3 offset %llu), the "
			 "microcode op %d (SA %llu, L3 offset %llu)",
			 j, what, j < b->esp_cnt ? (int32_t)b->esp[j].at : -1,
			 (unsigned long long)eval_u64(p, m, tb[0]),
			 (unsigned long long)eval_u64(p, m, tb[1]),
			 j < h->esp_cnt ? (int32_t)h->esp[j].at : -1,
			 (unsigned long long)eval_u64(p, m, th[0]),
			 (unsigned long long)eval_u64(p, m, th[1]));
		return true;
	}
	return false;
}

/* Whether the microcode's outcome on model m changes where the table
 * memory addresses are other numbers (tm_shift moved by a page): the
 * leaf it takes, its verdict, its frame's length or bytes. */
static bool hxu_on_address(struct prover *p, Z3_model m)
{
	Z3_context z = p->z;
	Z3_ast moved = Z3_mk_bvadd(z, p->tm_shift, u64(p, 0x5a5a5000));
	const struct leaf *l = taken(p, m, &p->hxu), *l2 = NULL;
	Z3_ast v;

#define MOVED(t) Z3_substitute(z, (t), 1, &p->tm_shift, &moved)
	for (uint32_t i = 0; i < p->hxu.leaf_cnt && !l2; i++)
		if (Z3_model_eval(z, m, MOVED(p->hxu.leaves[i].cond), true, &v) && is_true(p, v))
			l2 = &p->hxu.leaves[i];
	if (!l || l2 != l)
		return true;
	if (model_differ(p, m, l->value, MOVED(l->value)) ||
	    model_differ(p, m, l->data, MOVED(l->data)) ||
	    model_differ(p, m, l->data_end, MOVED(l->data_end)))
		return true;
	{
		uint64_t data = eval_u64(p, m, l->data), len = eval_u64(p, m, l->data_end) - data;
		Z3_ast pkt2 = MOVED(l->pkt);

		for (uint64_t i = 0; i < len && i < HWXDP_PROVE_LEN_MAX; i++) {
			Z3_ast at = num(p, (uint32_t)(data + i), p->bv32);

			if (model_differ(p, m, Z3_mk_select(z, l->pkt, at),
					 Z3_mk_select(z, pkt2, at)))
				return true;
		}
	}
#undef MOVED
	return false;
}

/* Whether the first n bits of a and b, most significant first, agree. */
static bool prefix_equal(const uint8_t *a, const uint8_t *b, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (((a[i / 8] ^ b[i / 8]) >> (7 - i % 8)) & 1)
			return false;
	return true;
}

/* Whether the entries a counterexample needs can be one LPM trie: the model
 * takes its keys apart, so a key it has absent may be covered by a shorter
 * prefix it has present, which a real trie finds. */
static bool lpm_entries_ok(const struct prover *p)
{
	const struct hwxdp_prove_result *res = p->res;

	for (uint32_t i = 0; i < res->entry_cnt; i++) {
		const struct hwxdp_prove_entry *a = &res->entries[i];
		const struct hwxdp_map_desc *d = &p->maps[a->map];
		uint32_t la, bits = 8 * (d->key_size - 4);

		if (d->type != BPF_MAP_TYPE_LPM_TRIE || !a->absent || d->key_size <= 4)
			continue;
		memcpy(&la, a->key, 4);
		for (uint32_t j = 0; j < res->entry_cnt; j++) {
			const struct hwxdp_prove_entry *e = &res->entries[j];
			uint32_t le;

			memcpy(&le, e->key, 4);
			if (e->map == a->map && !e->absent && le <= la && la <= bits &&
			    prefix_equal(a->key + 4, e->key + 4, le))
				return false;
		}
	}
	return true;
}

static bool egress_differs(const struct hwxdp_prove_outcome *b, const struct hwxdp_prove_outcome *h)
{
	return b->egress != h->egress || b->egress_map != h->egress_map ||
	       b->egress_key != h->egress_key ||
	       (b->egress == HWXDP_PROVE_EGRESS_IFINDEX && b->egress_ifindex != h->egress_ifindex);
}

static void egress_text(const struct prover *p, const struct hwxdp_prove_outcome *o, char *buf,
			size_t len)
{
	const char *map = o->egress_map < p->map_cnt ? p->maps[o->egress_map].name : "?";

	if (o->egress == HWXDP_PROVE_EGRESS_ENTRY)
		snprintf(buf, len, "to map %.32s, key %u", map, o->egress_key);
	else if (o->egress == HWXDP_PROVE_EGRESS_IFINDEX)
		snprintf(buf, len, "to ifindex %u", o->egress_ifindex);
	else if (o->egress == HWXDP_PROVE_EGRESS_BCAST)
		snprintf(buf, len, "to every port of map %.32s", map);
	else if (o->egress == HWXDP_PROVE_EGRESS_BCAST_EXCL)
		snprintf(buf, len, "to every port of map %.32s but the ingress one", map);
	else
		snprintf(buf, len, "nowhere");
}

static void counterexample(struct prover *p, Z3_model m)
{
	struct hwxdp_prove_result *res = p->res;
	const struct hwxdp_prove_outcome *b = &res->bpf, *h = &res->hxu;
	char of[HXU_NAME_MAX + 8] = "";

	res->status = HWXDP_PROVE_COUNTEREXAMPLE;
	res->len = (uint32_t)eval_u64(p, m, p->len);
	res->ingress = (uint32_t)eval_u64(p, m, p->ingress);
	res->rx_queue = (uint32_t)eval_u64(p, m, p->rx_queue);
	for (uint32_t i = 0; i < res->len && i < HWXDP_PROVE_LEN_MAX; i++)
		res->frame[i] = (uint8_t)eval_u64(
			p, m, Z3_mk_select(p->z, p->pkt0, num(p, PKT_BASE + i, p->bv32)));
	outcome_of(p, m, taken(p, m, &p->bpf), &res->bpf);
	outcome_of(p, m, taken(p, m, &p->hxu), &res->hxu);
	res->diff_hxu_insn = insn_of_op(p->img, h->last);
	res->diff_byte = -1;
	res->diff_write = -1;
	res->diff_esp = -1;
	for (uint32_t i = 0; i < b->len && i < h->len && i < HWXDP_PROVE_LEN_MAX; i++)
		if (b->frame[i] != h->frame[i]) {
			res->diff_byte = (int32_t)i;
			break;
		}
	entries_of(p, m, taken(p, m, &p->bpf));
	entries_of(p, m, taken(p, m, &p->hxu));
	if (!lpm_entries_ok(p)) {
		not_proven(p, "the only counterexample found needs an LPM key absent that a "
			      "shorter prefix it needs present covers (the model takes an LPM "
			      "trie's keys apart)");
		return;
	}
	res->bpf.writer = writer_of(p, m, taken(p, m, &p->bpf), res->diff_byte);
	res->hxu.writer = writer_of(p, m, taken(p, m, &p->hxu), res->diff_byte);
	if (write_differs(p, m, res))
		res->loose |= HWXDP_PROVE_LOOSE_WRITES;
	if (hxu_on_address(p, m))
		res->loose |= HWXDP_PROVE_LOOSE_ADDRESS;
	if (taken(p, m, &p->bpf)->esp_cnt || taken(p, m, &p->hxu)->esp_cnt)
		res->loose |= HWXDP_PROVE_LOOSE_ESP;
	if (taken(p, m, &p->bpf)->clock_cnt || taken(p, m, &p->hxu)->clock_cnt)
		res->loose |= HWXDP_PROVE_LOOSE_CLOCK;
	if (taken(p, m, &p->bpf)->rand_cnt || taken(p, m, &p->hxu)->rand_cnt)
		res->loose |= HWXDP_PROVE_LOOSE_RAND;
	if (taken(p, m, &p->bpf)->esp_cnt)
		res->esp_sa =
			(int64_t)(uint32_t)eval_u64(p, m, taken(p, m, &p->bpf)->esp[0].handle);
	if (esp_differs(p, m, res)) {
		res->bpf.writer = res->hxu.writer = -1;
		return;
	}
	/* a program a tail call reached: named */
	if (b->prog < p->bprog_cnt && p->bprogs[b->prog].insns != p->insns)
		snprintf(of, sizeof(of), " of %s", p->img->progs[b->prog].name);
	if (b->end != h->end || b->value != h->value)
		snprintf(res->reason, sizeof(res->reason),
			 "BPF ends at insn %u%s with %s %u, the microcode at op %u (insn %u) with "
			 "%s %u",
			 b->last, of,
			 b->end == HWXDP_PROVE_END_EXIT	  ? "verdict"
			 : b->end == HWXDP_PROVE_END_PUNT ? "punt"
							  : "fault",
			 b->value, h->last, res->diff_hxu_insn,
			 h->end == HWXDP_PROVE_END_EXIT	  ? "verdict"
			 : h->end == HWXDP_PROVE_END_PUNT ? "punt"
							  : "fault",
			 h->value);
	else if (res->diff_write >= 0)
		;
	else if (b->end == HWXDP_PROVE_END_EXIT && b->value == XDP_REDIRECT &&
		 egress_differs(b, h)) {
		char bt[96], ht[96];

		egress_text(p, b, bt, sizeof(bt));
		egress_text(p, h, ht, sizeof(ht));
		snprintf(res->reason, sizeof(res->reason),
			 "redirect target: BPF %s (exit at insn %u), the microcode %s (op %u)", bt,
			 b->last, ht, h->last);
	} else if (b->len == h->len && res->diff_byte < 0) {
		uint64_t a = eval_u64(p, m, p->tm_diff), map = (a >> 48) - 1;

		snprintf(res->reason, sizeof(res->reason),
			 "map %s, byte %llu of its values: BPF leaves 0x%02x, the microcode 0x%02x "
			 "(exits at insn %u and op %u)",
			 map < p->map_cnt ? p->maps[map].name : "?",
			 (unsigned long long)(a & ((1ull << 48) - 1)),
			 (unsigned int)eval_u64(
				 p, m, Z3_mk_select(p->z, taken(p, m, &p->bpf)->tm, p->tm_diff)),
			 (unsigned int)eval_u64(
				 p, m, Z3_mk_select(p->z, taken(p, m, &p->hxu)->tm, p->tm_diff)),
			 b->last, h->last);
	} else if (b->len != h->len)
		snprintf(res->reason, sizeof(res->reason),
			 "output length: BPF %u bytes (exit at insn %u), microcode %u (op %u)",
			 b->len, b->last, h->len, h->last);
	else
		snprintf(res->reason, sizeof(res->reason),
			 "output byte %d: BPF 0x%02x (written by insn %d), microcode 0x%02x "
			 "(written by op %d, from insn %d)",
			 res->diff_byte, res->diff_byte >= 0 ? b->frame[res->diff_byte] : 0,
			 b->writer, res->diff_byte >= 0 ? h->frame[res->diff_byte] : 0, h->writer,
			 h->writer >= 0 ? (int32_t)insn_of_op(p->img, (uint32_t)h->writer) : -1);
}

/*
 * Whether the outputs of sides b and h can differ, as one condition: the
 * end, the verdict, the frame and its metadata where it is handed on, the
 * redirect's target, table memory, and the sequences of map writes
 * (p->writes long) and crypto commands (p->esps long).
 */
/*
 * Whether byte k < n of a from at differs from byte k of b from bt. Where
 * each side is one path, the bytes below known are compared one by one at
 * a known offset: each read then follows its side's stores to the byte one
 * wrote (select_in), the bytes both sides leave alike drop out, and what is
 * left is one small query per byte, where a free offset is a query over
 * every store of both sides at once. Past known (or everywhere, for folded
 * sides), the offset is free.
 */
static Z3_ast bytes_differ(struct prover *p, const char *name, Z3_ast a, Z3_ast at, Z3_ast n,
			   Z3_ast b, Z3_ast bt, uint32_t known)
{
	Z3_context z = p->z;
	Z3_ast k = Z3_mk_const(z, Z3_mk_string_symbol(z, name), p->bv32);
	Z3_ast any = and2(p, Z3_mk_bvult(z, k, n),
			  ne(p, Z3_mk_select(z, a, Z3_mk_bvadd(z, lo32(p, at), k)),
			     Z3_mk_select(z, b, Z3_mk_bvadd(z, lo32(p, bt), k))));

	if (known)
		any = and2(p, Z3_mk_bvuge(z, k, num(p, known, p->bv32)), any);
	for (uint32_t i = known; i-- > 0;) {
		Z3_ast x = select_cell(p, a, cell(p, a, at, i));
		Z3_ast y = select_cell(p, b, cell(p, b, bt, i));
		Z3_ast d =
			Z3_simplify(z, and2(p, Z3_mk_bvult(z, num(p, i, p->bv32), n), ne(p, x, y)));

		if (!is_false(p, d))
			any = or2(p, d, any);
	}
	return any;
}

static Z3_ast differ_of(struct prover *p, const struct side *sb, const struct side *sh)
{
	Z3_context z = p->z;
	struct outputs b, h;
	bool paths = sb->leaf_cnt == 1 && sh->leaf_cnt == 1;
	Z3_ast bytes, differ;

	fold(p, sb, &b);
	fold(p, sh, &h);
	/* a frame handed on is at most the longest one in, the head grown
	 * by a tunnel's or tags' bytes */
	bytes = bytes_differ(p, "diff_byte", b.pkt, b.data, b.len, h.pkt, h.data,
			     paths ? p->max_len + GROWTH_KNOWN : 0);
	p->tm_diff = Z3_mk_const(z, Z3_mk_string_symbol(z, "diff_table_byte"), p->bv64);
	{
		Z3_ast meta_bytes = bytes_differ(p, "diff_meta_byte", b.pkt, b.meta, b.meta_len,
						 h.pkt, h.meta, paths ? META_KNOWN : 0);

		/* the metadata goes with the frame (struct hwxdp_meta to the host) */
		bytes = or2(p, bytes, or2(p, ne(p, b.meta_len, h.meta_len), meta_bytes));
		/* a redirected frame goes where its entry says */
		bytes = or2(p, bytes,
			    and2(p, Z3_mk_eq(z, b.value, num(p, XDP_REDIRECT, p->bv32)),
				 ne(p, b.egress, h.egress)));
	}
	{
		Z3_ast any[4] = {
			ne(p, b.end, h.end),
			ne(p, b.value, h.value),
			and2(p, leaves_frame(p, &b), or2(p, ne(p, b.len, h.len), bytes)),
			/* what a map holds afterwards, whatever the verdict */
			ne(p, Z3_mk_select(z, b.tm, p->tm_diff), Z3_mk_select(z, h.tm, p->tm_diff)),
		};

		differ = Z3_mk_or(z, 4, any);
		p->visible = differ;
	}
	/* the same map writes in the same order, with the same keys, values
	 * and flags, on the same table memory */
	if (p->writes) {
		fold_writes(p, sb, &b, p->writes);
		fold_writes(p, sh, &h, p->writes);
		differ = or2(p, differ, ne(p, b.wr_cnt, h.wr_cnt));
		for (uint32_t j = 0; j < p->writes; j++) {
			char name[32];
			Z3_ast x, d[4];

			snprintf(name, sizeof(name), "diff_write_byte@%u", j);
			x = Z3_mk_const(z, Z3_mk_string_symbol(z, name), p->bv64);
			d[0] = ne(p, b.wr_tag[j], h.wr_tag[j]);
			d[1] = ne(p, b.wr_key[j], h.wr_key[j]);
			d[2] = ne(p, b.wr_value[j], h.wr_value[j]);
			d[3] = ne(p, Z3_mk_select(z, b.wr_tm[j], x),
				  Z3_mk_select(z, h.wr_tm[j], x));
			differ = or2(p, differ,
				     and2(p, Z3_mk_bvult(z, num(p, j, p->bv32), b.wr_cnt),
					  Z3_mk_or(z, 4, d)));
		}
	}
	/* the same crypto commands in the same order, on the same frames */
	if (p->esps) {
		fold_esp(p, sb, &b, p->esps);
		fold_esp(p, sh, &h, p->esps);
		differ = or2(p, differ, ne(p, b.esp_cnt, h.esp_cnt));
		for (uint32_t j = 0; j < p->esps; j++) {
			char name[32];
			Z3_ast x, d[6], *e = b.esp[j], *f = h.esp[j];

			snprintf(name, sizeof(name), "diff_esp_byte@%u", j);
			x = Z3_mk_const(z, Z3_mk_string_symbol(z, name), p->bv32);
			for (int k = 0; k < 5; k++)
				d[k] = ne(p, e[k], f[k]);
			/* the frame's bytes from data_meta to data_end */
			x = Z3_mk_bvadd(z, lo32(p, e[4]), x);
			d[5] = and2(p,
				    and2(p, Z3_mk_bvuge(z, x, lo32(p, e[4])),
					 Z3_mk_bvult(z, x, lo32(p, e[3]))),
				    ne(p, Z3_mk_select(z, e[5], x), Z3_mk_select(z, f[5], x)));
			differ = or2(p, differ,
				     and2(p, Z3_mk_bvult(z, num(p, j, p->bv32), b.esp_cnt),
					  Z3_mk_or(z, 6, d)));
		}
	}
	return differ;
}

/* The disjuncts of d, flattened, appended to out (*n of max there):
 * false where there are more than max. */
static bool disjuncts(struct prover *p, Z3_ast d, Z3_ast *out, uint32_t *n, uint32_t max)
{
	Z3_context z = p->z;

	if (Z3_get_ast_kind(z, d) == Z3_APP_AST) {
		Z3_app app = Z3_to_app(z, d);

		if (Z3_get_decl_kind(z, Z3_get_app_decl(z, app)) == Z3_OP_OR) {
			for (unsigned int i = 0; i < Z3_get_app_num_args(z, app); i++)
				if (!disjuncts(p, Z3_get_app_arg(z, app, i), out, n, max))
					return false;
			return true;
		}
	}
	if (*n == max)
		return false;
	out[(*n)++] = d;
	return true;
}

/*
 * Whether a pair of paths can differ: the microcode path's condition on
 * the solver (the BPF path's is there), and each way of differing asked
 * on its own. The solver answers one output at a time in milliseconds
 * where all of them in one query can pass the time limit.
 */
static Z3_lbool pair_differs(struct prover *p, Z3_ast cond, Z3_ast differ)
{
	Z3_ast d[DISJUNCTS_MAX];
	uint32_t n = 0;
	Z3_lbool r = Z3_L_FALSE;

	if (!disjuncts(p, differ, d, &n, DISJUNCTS_MAX) || n < 2)
		return query(p, and2(p, cond, differ), NULL);
	Z3_solver_push(p->z, p->s);
	Z3_solver_assert(p->z, p->s, cond);
	for (uint32_t k = 0; k < n && r == Z3_L_FALSE; k++) {
		Z3_ast e = Z3_simplify(p->z, d[k]);

		if (!is_false(p, e))
			r = query(p, e, NULL);
	}
	Z3_solver_pop(p->z, p->s, 1);
	return r;
}

enum pairs { PAIRS_EQUAL, PAIRS_DIFFER, PAIRS_UNKNOWN };

/* The microcode's tree of forks, as lists: the forks and the paths under
 * each node, node n + 1 (0: above the first fork). */
struct tree {
	int32_t *child, *sibling; /* first fork under, and the next beside */
	int32_t *leaf, *next;	  /* first path ending under, and the next */
	int32_t *law, *law_next;  /* first law of a path ending under, and the next */
};

/* A walk of the tree for one BPF path: the pairs compared, and where two
 * differ or the solver gave up. */
struct walk {
	const struct tree *t;
	uint32_t bpf;
	uint32_t met; /* microcode paths the BPF path meets */
	enum pairs ret;
	uint32_t hxu; /* the microcode path of PAIRS_DIFFER */
	/* the ids of the BPF path's conjuncts, and of what its negated
	 * ones negate, sorted: the forks these decide need no query */
	unsigned int *yes, *no;
	uint32_t yes_cnt, no_cnt, cap;
};

static int id_cmp(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

static bool id_in(const unsigned int *ids, uint32_t n, unsigned int id)
{
	return n && bsearch(&id, ids, n, sizeof(*ids), id_cmp);
}

/* c's negated term, or NULL where c is no negation. */
static Z3_ast negated(struct prover *p, Z3_ast c)
{
	Z3_app app;

	if (Z3_get_ast_kind(p->z, c) != Z3_APP_AST)
		return NULL;
	app = Z3_to_app(p->z, c);
	if (Z3_get_decl_kind(p->z, Z3_get_app_decl(p->z, app)) != Z3_OP_NOT)
		return NULL;
	return Z3_get_app_arg(p->z, app, 0);
}

/* The conjuncts of cond into w's sets (unsorted): false out of memory. */
static bool conjuncts(struct prover *p, struct walk *w, Z3_ast cond)
{
	Z3_context z = p->z;
	Z3_ast x;

	if (Z3_get_ast_kind(z, cond) == Z3_APP_AST) {
		Z3_app app = Z3_to_app(z, cond);

		if (Z3_get_decl_kind(z, Z3_get_app_decl(z, app)) == Z3_OP_AND) {
			for (unsigned int i = 0; i < Z3_get_app_num_args(z, app); i++)
				if (!conjuncts(p, w, Z3_get_app_arg(z, app, i)))
					return false;
			return true;
		}
	}
	if (w->yes_cnt == w->cap) {
		uint32_t cap = w->cap ? 2 * w->cap : 256;
		unsigned int *y = realloc(w->yes, cap * sizeof(*y)), *n;

		if (!y)
			return false;
		w->yes = y;
		n = realloc(w->no, cap * sizeof(*n));
		if (!n)
			return false;
		w->no = n;
		w->cap = cap;
	}
	w->yes[w->yes_cnt++] = Z3_get_ast_id(z, cond);
	x = negated(p, cond);
	if (x)
		w->no[w->no_cnt++] = Z3_get_ast_id(z, x);
	return true;
}

/* Whether c (simplified, as the tree's conditions are) can hold where the
 * solver's path does, m a model of that path or NULL: yes where m
 * satisfies c, else the solver's answer (a timeout counts as yes); *out a
 * model of the path and c where the solver gave one. */
static bool meets(struct prover *p, const struct walk *w, Z3_model m, Z3_ast c, Z3_model *out)
{
	Z3_ast v, x;
	unsigned int id;
	Z3_lbool r;

	*out = NULL;
	if (is_false(p, c))
		return false;
	/* the BPF path says c, or its negation, in so many words */
	id = Z3_get_ast_id(p->z, c);
	x = negated(p, c);
	if (id_in(w->no, w->no_cnt, id) || (x && id_in(w->yes, w->yes_cnt, Z3_get_ast_id(p->z, x))))
		return false;
	if (is_true(p, c) || id_in(w->yes, w->yes_cnt, id) ||
	    (x && id_in(w->no, w->no_cnt, Z3_get_ast_id(p->z, x))) ||
	    (m && Z3_model_eval(p->z, m, c, true, &v) && v && is_true(p, v))) {
		if (m)
			Z3_model_inc_ref(p->z, m);
		*out = m;
		return true;
	}
	r = query(p, c, out);
	return r != Z3_L_FALSE;
}

/*
 * The laws of the paths below node n, onto solver s. A pair of paths is
 * asked with the laws of its own two paths only: every other law is of a
 * path one of the two excludes, and true there; the solver, given them
 * all, spends its time finding that out for each (dozens of conditions
 * of thousands of terms on fwd, a query of 0.01 s past 120 s).
 */
static void assert_laws(struct prover *p, const struct tree *t, Z3_solver s, int32_t n)
{
	for (int32_t k = t->law[n + 1]; k >= 0; k = t->law_next[k])
		Z3_solver_assert(p->z, s, p->laws[k]);
}

/* The laws of the path that ends under node n, onto solver s. */
static void assert_path_laws(struct prover *p, const struct tree *t, Z3_solver s, int32_t n)
{
	for (; n >= 0; n = p->nodes[n].parent)
		assert_laws(p, t, s, n);
}

/* The pairs under node n (n + 1 in the tree) on the solver's path, m a
 * model of it or NULL. */
static void walk_node(struct prover *p, struct walk *w, int32_t n, Z3_model m)
{
	const struct side one_b = { &p->bpf.leaves[w->bpf], 1 };
	const struct tree *t = w->t;

	for (int32_t j = t->leaf[n + 1]; j >= 0 && w->ret == PAIRS_EQUAL; j = t->next[j]) {
		const struct leaf *l = &p->hxu.leaves[j];
		const struct side one_h = { &p->hxu.leaves[j], 1 };
		Z3_model lm = NULL;
		Z3_lbool r;

		if (l->extra && !meets(p, w, m, l->extra, &lm))
			continue;
		if (lm)
			Z3_model_dec_ref(p->z, lm);
		w->met++;
		r = pair_differs(p, l->cond, differ_of(p, &one_b, &one_h));
		if (r == Z3_L_TRUE) {
			w->hxu = (uint32_t)j;
			w->ret = PAIRS_DIFFER;
		} else if (r == Z3_L_UNDEF) {
			not_proven(
				p,
				"the solver gave up on BPF path %u against microcode path %d: %s",
				w->bpf, j, Z3_solver_get_reason_unknown(p->z, p->s));
			w->ret = PAIRS_UNKNOWN;
		}
	}
	for (int32_t c = t->child[n + 1]; c >= 0 && w->ret == PAIRS_EQUAL; c = t->sibling[c + 1]) {
		Z3_model cm;

		if ((uint32_t)c < p->hxu_node0) /* a BPF fork: its paths are BPF's */
			continue;
		if (!meets(p, w, m, p->nodes[c].c, &cm))
			continue;
		Z3_solver_push(p->z, p->s);
		Z3_solver_assert(p->z, p->s, p->nodes[c].c);
		assert_laws(p, t, p->s, c);
		walk_node(p, w, c, cm);
		Z3_solver_pop(p->z, p->s, 1);
		if (cm)
			Z3_model_dec_ref(p->z, cm);
	}
}

/* The microcode's tree from each fork's and path's node: 0, or -ENOMEM. */
static int tree_make(struct prover *p, struct tree *t)
{
	size_t n = (size_t)p->node_cnt + 1, k = p->hxu.leaf_cnt ? p->hxu.leaf_cnt : 1;

	t->child = malloc(n * sizeof(int32_t));
	t->sibling = malloc(n * sizeof(int32_t));
	t->leaf = malloc(n * sizeof(int32_t));
	t->next = malloc(k * sizeof(int32_t));
	t->law = malloc(n * sizeof(int32_t));
	t->law_next = malloc((p->law_cnt ? p->law_cnt : 1) * sizeof(int32_t));
	if (!t->child || !t->sibling || !t->leaf || !t->next || !t->law || !t->law_next)
		return -ENOMEM;
	memset(t->child, 0xff, n * sizeof(int32_t));
	memset(t->sibling, 0xff, n * sizeof(int32_t));
	memset(t->leaf, 0xff, n * sizeof(int32_t));
	memset(t->law, 0xff, n * sizeof(int32_t));
	for (int32_t i = (int32_t)p->law_cnt - 1; i >= 0; i--) {
		int32_t at = p->law_node[i] + 1;

		t->law_next[i] = t->law[at];
		t->law[at] = i;
	}
	/* from the last, so that each list is in the order of exploration */
	for (int32_t i = (int32_t)p->node_cnt - 1; i >= 0; i--) {
		int32_t up = p->nodes[i].parent + 1;

		t->sibling[i + 1] = t->child[up];
		t->child[up] = i;
	}
	for (int32_t j = (int32_t)p->hxu.leaf_cnt - 1; j >= 0; j--) {
		int32_t at = p->hxu.leaves[j].node + 1;

		t->next[j] = t->leaf[at];
		t->leaf[at] = j;
	}
	return 0;
}

static void tree_free(struct tree *t)
{
	free(t->child);
	free(t->sibling);
	free(t->leaf);
	free(t->next);
	free(t->law);
	free(t->law_next);
}

/*
 * The outputs compared path against path, where the two sides' folded
 * outputs are one query too many for the solver: for each BPF path, the
 * microcode's tree of forks walked under its condition, each fork taken
 * where it can hold with it (a model of the path so far answers most
 * without the solver), and each microcode path reached compared with it
 * under both conditions. The forks cover every input, so every pair that
 * can meet is compared; each query holds two paths, not all of them.
 * PAIRS_DIFFER with the pair in *bi, *hi and *pair a solver of its own
 * holding the laws of every path and of these two.
 */
static enum pairs compare_pairs(struct prover *p, uint32_t *bi, uint32_t *hi, Z3_solver *pair)
{
	Z3_context z = p->z;
	Z3_solver whole = p->s;
	struct tree t = { 0 };
	struct walk w = { .t = &t, .ret = PAIRS_EQUAL };

	if (tree_make(p, &t)) {
		not_proven(p, "out of memory");
		tree_free(&t);
		return PAIRS_UNKNOWN;
	}
	/* a short limit first, as in the exploration: a fresh solver takes
	 * what the incremental one does not answer soon */
	p->s = new_solver(p, p->timeout < PROBE_MS ? p->timeout : PROBE_MS);
	assert_laws(p, &t, p->s, -1);
	for (uint32_t i = 0; i < p->bpf.leaf_cnt && w.ret == PAIRS_EQUAL; i++) {
		Z3_model m = NULL;
		Z3_lbool r;

		w.bpf = i;
		w.met = 0;
		w.yes_cnt = w.no_cnt = 0;
		if (!conjuncts(p, &w, p->bpf.leaves[i].cond)) {
			not_proven(p, "out of memory");
			w.ret = PAIRS_UNKNOWN;
			break;
		}
		qsort(w.yes, w.yes_cnt, sizeof(*w.yes), id_cmp);
		qsort(w.no, w.no_cnt, sizeof(*w.no), id_cmp);
		Z3_solver_push(z, p->s);
		Z3_solver_assert(z, p->s, p->bpf.leaves[i].cond);
		assert_path_laws(p, &t, p->s, p->bpf.leaves[i].node);
		r = query(p, Z3_mk_true(z), &m);
		if (r == Z3_L_UNDEF) {
			not_proven(p, "the solver gave up on BPF path %u: %s", i,
				   Z3_solver_get_reason_unknown(z, p->s));
			w.ret = PAIRS_UNKNOWN;
		} else if (r == Z3_L_TRUE) {
			walk_node(p, &w, -1, m);
			Z3_model_dec_ref(z, m);
			if (w.ret == PAIRS_EQUAL && !w.met) {
				not_proven(p, "an input of BPF path %u takes no microcode path", i);
				w.ret = PAIRS_UNKNOWN;
			}
		}
		Z3_solver_pop(z, p->s, 1);
	}
	Z3_solver_dec_ref(z, p->s);
	p->s = whole;
	if (w.ret == PAIRS_DIFFER) {
		*bi = w.bpf;
		*hi = w.hxu;
		*pair = new_solver(p, p->timeout);
		assert_laws(p, &t, *pair, -1);
		assert_path_laws(p, &t, *pair, p->bpf.leaves[w.bpf].node);
		assert_path_laws(p, &t, *pair, p->hxu.leaves[w.hxu].node);
	}
	tree_free(&t);
	free(w.yes);
	free(w.no);
	return w.ret;
}

#define SLOT_KEYS 64 /* keys of one map kept apart in a counterexample */

/*
 * That distinct keys the paths look up in a hash-like map have distinct
 * value slots (before any write): the model lets two keys share one (the
 * proof holds for any contents, that too), a map the replay fills does
 * not, so a counterexample with a shared slot does not replay.
 */
static Z3_ast slots_apart(struct prover *p)
{
	Z3_context z = p->z;
	Z3_ast all = Z3_mk_true(z);

	for (uint32_t m = 0; m < p->map_cnt && m < HXU_TABLES; m++) {
		Z3_ast keys[SLOT_KEYS];
		uint32_t n = 0;

		if (!p->slot[m][0])
			continue;
		for (int side = 0; side < 2; side++) {
			const struct side *sd = side ? &p->hxu : &p->bpf;

			for (uint32_t i = 0; i < sd->leaf_cnt && n < SLOT_KEYS; i++) {
				const struct leaf *l = &sd->leaves[i];

				for (uint32_t k = 0; k < l->lk_cnt && n < SLOT_KEYS; k++) {
					bool seen = l->lk[k].map != m;

					for (uint32_t j = 0; j < n && !seen; j++)
						seen = Z3_is_eq_ast(z, keys[j], l->lk[k].key);
					if (!seen)
						keys[n++] = l->lk[k].key;
				}
			}
		}
		for (uint32_t i = 0; i < n; i++)
			for (uint32_t j = i + 1; j < n; j++) {
				Z3_ast si = Z3_mk_app(z, p->slot[m][0], 1, &keys[i]);
				Z3_ast sj = Z3_mk_app(z, p->slot[m][0], 1, &keys[j]);

				all = and2(
					p, all,
					Z3_mk_implies(z, ne(p, keys[i], keys[j]), ne(p, si, sj)));
			}
	}
	return all;
}

/*
 * On the solver's differing outputs: a counterexample from the state a
 * fresh device and reference start in, no map full (one the replay can
 * make), reported; Z3_L_FALSE (reported "not proven") where they differ
 * only from another state; Z3_L_UNDEF, not reported, where the solver
 * gives up.
 */
static Z3_lbool report_differ(struct prover *p)
{
	Z3_context z = p->z;
	Z3_ast objects = NULL, prefer[2];
	bool made = false;
	unsigned int scopes;
	Z3_lbool r;

	Z3_solver_push(z, p->s);
	Z3_solver_assert(z, p->s, p->fresh);
	for (uint32_t k = 0; k < WRITE_MAX; k++)
		if (p->full[k])
			Z3_solver_assert(z, p->s, Z3_mk_not(z, p->full[k]));
	/* the inner maps a replay can store: the object's */
	if (p->inner_objects) {
		objects = Z3_mk_const(z, Z3_mk_string_symbol(z, "inner_maps_of_the_object"),
				      Z3_mk_bool_sort(z));
		Z3_solver_assert(z, p->s, Z3_mk_implies(z, objects, p->inner_objects));
	}
	/* a model whose keys each have a value of their own, where there is
	 * one: the replay's maps have no other */
	/* and, before that, one where the difference shows in what the run
	 * leaves (a write with other flags may leave the same) */
	prefer[1] = slots_apart(p);
	prefer[0] = p->visible ? and2(p, p->visible, prefer[1]) : NULL;
	scopes = Z3_solver_get_num_scopes(z, p->s);
	r = Z3_L_UNDEF;
	for (int k = 0; k < 2 && r != Z3_L_TRUE; k++) {
		if (!prefer[k])
			continue;
		Z3_solver_push(z, p->s);
		Z3_solver_assert(z, p->s, prefer[k]);
		r = objects ? Z3_solver_check_assumptions(z, p->s, 1, &objects)
			    : Z3_solver_check(z, p->s);
		p->checks++;
		if (r != Z3_L_TRUE)
			Z3_solver_pop(z, p->s, 1);
	}
	if (r != Z3_L_TRUE) {
		r = objects ? Z3_solver_check_assumptions(z, p->s, 1, &objects)
			    : Z3_solver_check(z, p->s);
		p->checks++;
	}
	if (r == Z3_L_FALSE && objects) {
		p->checks++;
		made = Z3_solver_check(z, p->s) == Z3_L_TRUE;
	}
	if (r == Z3_L_FALSE && made) {
		not_proven(p, "the two differ only where a map of maps holds an inner map made at "
			      "run time, none of the object's: no counterexample the replay can "
			      "make");
	} else if (r == Z3_L_FALSE) {
		not_proven(p, "the two differ only from a state a fresh device does not start in "
			      "(registers read before they are written, local memory, the window "
			      "around the frame, global data, a full map or a CPU other than 0): "
			      "no counterexample the replay can make");
	} else if (r == Z3_L_TRUE) {
		Z3_model m = Z3_solver_get_model(z, p->s);

		Z3_model_inc_ref(z, m);
		counterexample(p, m);
		Z3_model_dec_ref(z, m);
	}
	Z3_solver_pop(z, p->s, Z3_solver_get_num_scopes(z, p->s) > scopes ? 2 : 1);
	return r;
}

static int compare(struct prover *p)
{
	Z3_context z = p->z;
	Z3_solver whole = p->s, pair = NULL;
	struct side b = { NULL, 1 }, h = { NULL, 1 };
	uint32_t bi = 0, hi = 0;
	Z3_ast differ;
	Z3_lbool r;

	p->writes = writes_max(&p->bpf) > writes_max(&p->hxu) ? writes_max(&p->bpf)
							      : writes_max(&p->hxu);
	p->esps = esp_max(&p->bpf) > esp_max(&p->hxu) ? esp_max(&p->bpf) : esp_max(&p->hxu);
	/* the outputs folded over each side's paths, one query */
	if (!p->by_pairs) {
		differ = differ_of(p, &p->bpf, &p->hxu);
		Z3_solver_push(z, p->s);
		Z3_solver_assert(z, p->s, differ);
		r = Z3_solver_check(z, p->s);
		p->checks++;
		if (r == Z3_L_TRUE && report_differ(p) != Z3_L_UNDEF) {
			Z3_solver_pop(z, p->s, 1);
			return 0;
		}
		Z3_solver_pop(z, p->s, 1);
		/* an unsat answer from a fresh solver is as good a proof */
		if (r == Z3_L_FALSE ||
		    (r == Z3_L_UNDEF && check_fresh(p, differ, NULL) == Z3_L_FALSE)) {
			p->res->status = HWXDP_PROVE_PROVEN;
			return 0;
		}
	}
	/* else path against path; a pair that differs, on a solver with the
	 * two paths' laws, gives the model the counterexample reads */
	switch (compare_pairs(p, &bi, &hi, &pair)) {
	case PAIRS_EQUAL:
		p->res->status = HWXDP_PROVE_PROVEN;
		return 0;
	case PAIRS_UNKNOWN:
		return 0;
	case PAIRS_DIFFER:
		break;
	}
	p->s = pair;
	b.leaves = &p->bpf.leaves[bi];
	h.leaves = &p->hxu.leaves[hi];
	Z3_solver_assert(z, p->s,
			 and2(p, and2(p, b.leaves->cond, h.leaves->cond), differ_of(p, &b, &h)));
	r = Z3_solver_check(z, p->s);
	p->checks++;
	if (r == Z3_L_FALSE)
		not_proven(p,
			   "BPF path %u and microcode path %u differ on one query, not on another",
			   bi, hi);
	else if (r == Z3_L_UNDEF || report_differ(p) == Z3_L_UNDEF)
		not_proven(p, "the solver gave up: %s", Z3_solver_get_reason_unknown(z, p->s));
	Z3_solver_dec_ref(z, p->s);
	p->s = whole;
	return 0;
}

/* The state a fresh device and the reference start a first frame in, as
 * one condition on what the proof leaves free: registers and local memory
 * zero (but r1 and r10), the window's bytes around the frame zero, global
 * data as the object gives it (.bss zero), CPU 0. */
static void fresh_state(struct prover *p)
{
	Z3_context z = p->z;
	Z3_ast zero = u64(p, 0), c[3 + 2 * HXU_REGS];
	unsigned int n = 0;

	/* the reference's CPU, the first engine's number, BPF_PROG_TEST_RUN's
	 * on CPU 0 */
	c[n++] = Z3_mk_eq(z, p->cpu, num(p, 0, p->bv32));

	c[n++] = Z3_mk_eq(z, p->outside, Z3_mk_const_array(z, p->bv32, num(p, 0, p->bv8)));
	c[n++] = Z3_mk_eq(z, p->lm0, Z3_mk_const_array(z, p->bv32, num(p, 0, p->bv8)));
	for (int side = 0; side < 2; side++)
		for (int i = 0; i < HXU_REGS; i++)
			if (i != 1 && i != HXU_REG_FP && p->start_regs[side][i])
				c[n++] = Z3_mk_eq(z, p->start_regs[side][i], zero);
	p->fresh = Z3_mk_and(z, n, c);
	for (size_t m = 0; m < p->map_cnt && m < HXU_TABLES; m++) {
		const struct hwxdp_map_desc *d = &p->maps[m];
		uint8_t bytes[HWXDP_PROVE_VALUE_MAX] = { 0 };
		uint32_t len = d->value_size;

		if (d->origin != HWXDP_MAP_GLOBAL || d->read_only || d->type != BPF_MAP_TYPE_ARRAY)
			continue;
		if (len > HWXDP_PROVE_VALUE_MAX)
			len = HWXDP_PROVE_VALUE_MAX;
		if (d->initial)
			memcpy(bytes, d->initial, d->initial_size < len ? d->initial_size : len);
		for (uint32_t k = 0; k < len; k += 8) {
			uint32_t w = len - k < 8 ? len - k : 8;
			uint64_t v = 0;

			for (uint32_t b = 0; b < w; b++)
				v |= (uint64_t)bytes[k + b] << (8 * b);
			p->fresh = and2(p, p->fresh,
					Z3_mk_eq(z,
						 read_bytes(p, p->tm0,
							    Z3_mk_bvadd(z, u64(p, MAP_BASE(m) + k),
									p->tm_shift),
							    w, false),
						 num(p, v, Z3_mk_bv_sort(z, 8 * w))));
		}
	}
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/*
 * The BPF side of each of img's programs: the options' (hwxdp_prove_opts
 * progs), with the program given at prog_index; without them, that one
 * alone. -EINVAL for options that do not fit the image, or -ENOMEM.
 */
static int prove_progs_of(const struct hwxdp_prove_opts *opts, const struct bpf_insn *insns,
			  size_t cnt, const struct hwxdp_verify_result *facts,
			  const struct hxu_image *img, uint32_t prog_index,
			  struct hwxdp_prove_prog **out)
{
	bool given =
		opts &&
		opts->sz >= offsetof(struct hwxdp_prove_opts, prog_cnt) + sizeof(opts->prog_cnt) &&
		opts->progs;
	struct hwxdp_prove_prog *bp = calloc(img->prog_cnt, sizeof(*bp));

	if (!bp)
		return -ENOMEM;
	for (uint32_t k = 0; given && k < img->prog_cnt; k++) {
		const struct hwxdp_prove_prog *g = &opts->progs[k];

		if (opts->prog_cnt != img->prog_cnt ||
		    (g->insns && (!g->cnt || !g->facts || g->facts->fact_cnt != g->cnt ||
				  !g->facts->accepted))) {
			free(bp);
			return -EINVAL;
		}
		bp[k] = *g;
	}
	bp[prog_index] = (struct hwxdp_prove_prog){ insns, cnt, facts };
	*out = bp;
	return 0;
}

int hwxdp_prove(const struct bpf_insn *insns, size_t cnt, const struct hwxdp_map_desc *maps,
		size_t map_cnt, const struct hwxdp_verify_result *facts,
		const struct hxu_image *img, uint32_t prog_index,
		const struct hwxdp_prove_opts *opts, struct hwxdp_prove_result *res)
{
	uint32_t max_len = opts && opts->max_len ? opts->max_len : 128;
	uint32_t timeout = opts && opts->timeout_ms ? opts->timeout_ms : 10000;
	uint64_t start = now_ms();
	struct prover p = { .res = res,
			    .insns = insns,
			    .cnt = cnt,
			    .facts = facts,
			    .img = img,
			    .maps = maps,
			    .map_cnt = map_cnt };
	struct hwxdp_prove_prog *bprogs = NULL;
	struct sym init;
	Z3_config cfg;
	char tmo[16];
	int err = 0;

	if (!insns || !cnt || !facts || facts->fact_cnt != cnt || !facts->accepted || !img ||
	    prog_index >= img->prog_cnt || !res || max_len < LEN_MIN || (map_cnt && !maps) ||
	    max_len > HWXDP_PROVE_LEN_MAX)
		return -EINVAL;
	err = prove_progs_of(opts, insns, cnt, facts, img, prog_index, &bprogs);
	if (err)
		return err;
	p.bprogs = bprogs;
	p.bprog_cnt = img->prog_cnt;
	memset(res, 0, sizeof(*res));
	res->diff_byte = -1;
	res->diff_write = -1;
	res->diff_esp = -1;
	res->esp_sa = -1;
	p.bpf.leaves = calloc(LEAF_MAX, sizeof(struct leaf));
	p.hxu.leaves = calloc(LEAF_MAX, sizeof(struct leaf));
	if (!p.bpf.leaves || !p.hxu.leaves) {
		err = -ENOMEM;
		goto out_free;
	}

	cfg = Z3_mk_config();
	snprintf(tmo, sizeof(tmo), "%u", timeout);
	Z3_set_param_value(cfg, "timeout", tmo);
	p.z = Z3_mk_context(cfg);
	Z3_del_config(cfg);
	error_prover = &p;
	Z3_set_error_handler(p.z, on_z3_error);
	p.timeout = timeout;
	p.max_len = max_len;
	p.by_pairs = opts &&
		     opts->sz >= offsetof(struct hwxdp_prove_opts, by_pairs) + sizeof(bool) &&
		     opts->by_pairs;
	p.s = new_solver(&p, p.timeout < PROBE_MS ? p.timeout : PROBE_MS);

	p.bv8 = Z3_mk_bv_sort(p.z, 8);
	p.bv32 = Z3_mk_bv_sort(p.z, 32);
	p.bv64 = Z3_mk_bv_sort(p.z, 64);
	p.mem = Z3_mk_array_sort(p.z, p.bv32, p.bv8);
	p.len = Z3_mk_const(p.z, Z3_mk_string_symbol(p.z, "frame_len"), p.bv32);
	p.ingress = Z3_mk_const(p.z, Z3_mk_string_symbol(p.z, "ingress"), p.bv32);
	p.rx_queue = Z3_mk_const(p.z, Z3_mk_string_symbol(p.z, "rx_queue"), p.bv32);
	p.cpu = Z3_mk_const(p.z, Z3_mk_string_symbol(p.z, "cpu"), p.bv32);
	{
		/* the window: the frame's bytes, and free bytes around it, which
		 * a wrong translation may read; a counterexample has them zero
		 * where it can, as a fresh device's window has them */
		Z3_symbol name = Z3_mk_string_symbol(p.z, "i");
		Z3_ast i = Z3_mk_bound(p.z, 0, p.bv32);
		Z3_ast frame = Z3_mk_const(p.z, Z3_mk_string_symbol(p.z, "window"), p.mem);
		Z3_ast in = and2(
			&p, Z3_mk_bvuge(p.z, i, num(&p, PKT_BASE, p.bv32)),
			Z3_mk_bvult(p.z, i, Z3_mk_bvadd(p.z, p.len, num(&p, PKT_BASE, p.bv32))));

		p.outside = Z3_mk_const(p.z, Z3_mk_string_symbol(p.z, "around_the_frame"), p.mem);
		p.pkt0 = Z3_mk_lambda(p.z, 1, &p.bv32, &name,
				      Z3_mk_ite(p.z, in, Z3_mk_select(p.z, frame, i),
						Z3_mk_select(p.z, p.outside, i)));
	}
	p.lm0 = Z3_mk_const(p.z, Z3_mk_string_symbol(p.z, "local_memory"), p.mem);
	p.writer0 = Z3_mk_const_array(p.z, p.bv32, num(&p, UINT32_MAX, p.bv32));
	p.tmem = Z3_mk_array_sort(p.z, p.bv64, p.bv8);
	p.tm0 = Z3_mk_const(p.z, Z3_mk_string_symbol(p.z, "table_memory"), p.tmem);
	p.tm_shift = Z3_mk_const(p.z, Z3_mk_string_symbol(p.z, "table_memory_shift"), p.bv64);
	/* below the maps' own bits: no value's address is 0 */
	law(&p, Z3_mk_bvult(p.z, p.tm_shift, u64(&p, 1ull << 44)));
	p.key_bits = p.value_bits = 8;
	for (size_t m = 0; m < map_cnt && m < HXU_TABLES; m++) {
		if (maps[m].key_size * 8 > p.key_bits && maps[m].key_size <= HWXDP_PROVE_KEY_MAX)
			p.key_bits = maps[m].key_size * 8;
		if (maps[m].value_size * 8 > p.value_bits &&
		    maps[m].value_size <= HWXDP_PROVE_VALUE_MAX)
			p.value_bits = maps[m].value_size * 8;
	}
	/* read-only global data is what the object says; every other map's
	 * contents are free */
	for (size_t m = 0; m < map_cnt && m < HXU_TABLES; m++) {
		const struct hwxdp_map_desc *d = &maps[m];

		if (!d->read_only || !d->initial || d->type != BPF_MAP_TYPE_ARRAY)
			continue;
		for (size_t i = 0; i < d->initial_size; i++)
			law(&p, Z3_mk_eq(p.z, Z3_mk_select(p.z, p.tm0, u64(&p, MAP_BASE(m) + i)),
					 num(&p, d->initial[i], p.bv8)));
	}
	for (size_t m = 0; m < map_cnt && m < HXU_TABLES; m++)
		if (hxu_map_of_maps(maps[m].type))
			p.inner_regions = true;
	law(&p, Z3_mk_bvuge(p.z, p.len, num(&p, LEN_MIN, p.bv32)));
	law(&p, Z3_mk_bvule(p.z, p.len, num(&p, max_len, p.bv32)));
	if (opts && opts->ingress) {
		law(&p, Z3_mk_eq(p.z, p.ingress, num(&p, opts->ingress, p.bv32)));
		law(&p, Z3_mk_eq(p.z, p.rx_queue, num(&p, 0, p.bv32)));
	}

	res->status = HWXDP_PROVE_NOT_PROVEN;
	sym_init(&p, &init, "bpf", 0);
	init.prog = prog_index;
	if (explore(&p, &p.bpf, &init, bpf_step, "insn"))
		goto out;
	res->explore_ms[0] = now_ms() - start;
	p.hxu_node0 = p.node_cnt;
	sym_init(&p, &init, "hxu", img->progs[prog_index].entry);
	if (explore(&p, &p.hxu, &init, hxu_step, "op"))
		goto out;
	res->explore_ms[1] = now_ms() - start - res->explore_ms[0];

	if (!p.bpf.leaf_cnt || !p.hxu.leaf_cnt) {
		not_proven(&p, "%s has no path to an exit",
			   p.bpf.leaf_cnt ? "the microcode" : "BPF");
		goto out;
	}
	/* the outputs compared on a solver of their own: the one that
	 * explored holds what every path made of it */
	Z3_solver_dec_ref(p.z, p.s);
	p.s = new_solver(&p, p.timeout);
	for (uint32_t i = 0; i < p.law_cnt; i++)
		Z3_solver_assert(p.z, p.s, p.laws[i]);
	fresh_state(&p);
	compare(&p);
	if (p.z3_error)
		not_proven(&p, "the solver refused a term");
out:
	res->bpf_paths = p.bpf.leaf_cnt;
	res->hxu_paths = p.hxu.leaf_cnt;
	res->solver_checks = p.checks;
	res->solver_bytes = Z3_get_estimated_alloc_size();
	Z3_solver_dec_ref(p.z, p.s);
	for (int i = 0; i < 2; i++)
		if (p.tactic[i])
			Z3_tactic_dec_ref(p.z, p.tactic[i]);
	Z3_del_context(p.z);
	error_prover = NULL;
out_free:
	free(bprogs);
	free(p.laws);
	free(p.law_node);
	free(p.bpf.leaves);
	free(p.hxu.leaves);
	free(p.nodes);
	res->elapsed_ms = now_ms() - start;
	return err;
}
