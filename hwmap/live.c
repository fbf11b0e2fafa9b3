// SPDX-License-Identifier: GPL-2.0
/*
 * Liveness and dead code in one solve (hwmap/live.h).
 *
 * Per register r, take the flow graph without the edges out of the
 * instructions that write r: r is live at an instruction when, in that
 * graph, it reaches an instruction that reads r (or a way out of the
 * program). Reaching is the same for every instruction of a strongly
 * connected part, so each part gets a count: the reads of r in it that are
 * not dead and its edges to other parts that are still live. A part whose
 * count falls to 0 is not live, which takes one off the count of each part
 * with an edge into it, and makes dead the removable instructions writing r
 * just before it, whose reads then go. Each part dies once and each edge and
 * read is taken off once, so the whole is linear; the order parts die in
 * does not change which do, so the result is what sweeping until nothing
 * changes gives. A dead instruction keeps its write in the graph: nothing
 * reads that register after it, so cutting the paths through it changes no
 * one's liveness.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hwmap/live.h"
#include "hwmap/work.h"

#define REGS 16
/* Registers live where control leaves the instructions: R0..R10. */
#define OUT_LIVE 0x7ff

struct part {
	int32_t *root;	/* per instruction: the first of its part, its name */
	int32_t *count; /* per root: live reads and successors */
	int32_t *next;	/* per instruction: the next of its part, or -1 */
};

struct frame {
	int32_t v;
	int32_t e;
};

/* Tarjan's working arrays, made once for every register's graph. */
struct scratch {
	int32_t *index, *low, *stack;
	struct frame *call;
	bool *on;
};

struct solve {
	const struct hxu_live_insn *insns;
	size_t n;
	struct scratch sc;
	struct part part[REGS];
	int8_t slot[REGS]; /* a register's index in part[], -1 when never live */
	int32_t *pred_start, *pred;
	/* (register slot, root) pairs whose count fell to 0 */
	struct pending {
		int32_t slot, root;
	} * todo;
	size_t todo_cnt;
	bool *dead;
};

static bool edge(const struct hxu_live_insn *in, size_t n, int e, int32_t *to)
{
	if (in->succ[e] < 0 || in->succ[e] >= (int64_t)n)
		return false;
	*to = (int32_t)in->succ[e];
	return true;
}

static bool leaves(const struct hxu_live_insn *in)
{
	return in->succ[0] == HXU_LIVE_OUT || in->succ[1] == HXU_LIVE_OUT;
}

/* Tarjan's strongly connected parts of register r's graph, without recursion. */
static int find_parts(struct solve *s, unsigned int r, struct part *pt)
{
	size_t n = s->n;
	int32_t *index = s->sc.index, *low = s->sc.low, *stack = s->sc.stack;
	struct frame *call = s->sc.call;
	bool *on = s->sc.on;
	int32_t counter = 0, sp = 0, cp = 0;
	uint16_t bit = (uint16_t)(1u << r);

	memset(index, 0xff, n * sizeof(*index));
	for (size_t start = 0; start < n; start++) {
		if (index[start] >= 0)
			continue;
		index[start] = low[start] = counter++;
		stack[sp++] = (int32_t)start;
		on[start] = true;
		call[cp++] = (struct frame){ (int32_t)start, 0 };
		while (cp) {
			struct frame *f = &call[cp - 1];
			int32_t v = f->v, w;

			hxu_work_add(1);
			if (f->e < 2) {
				int e = f->e++;

				if ((s->insns[v].def & bit) || !edge(&s->insns[v], n, e, &w))
					continue;
				if (index[w] < 0) {
					index[w] = low[w] = counter++;
					stack[sp++] = w;
					on[w] = true;
					call[cp++] = (struct frame){ w, 0 };
				} else if (on[w] && index[w] < low[v]) {
					low[v] = index[w];
				}
				continue;
			}
			cp--;
			if (low[v] == index[v]) {
				int32_t x, last = -1;

				do {
					x = stack[--sp];
					on[x] = false;
					pt->root[x] = v;
					pt->next[x] = last;
					last = x;
				} while (x != v);
			}
			if (cp && low[v] < low[call[cp - 1].v])
				low[call[cp - 1].v] = low[v];
		}
	}
	return 0;
}

static void push(struct solve *s, int32_t slot, int32_t root)
{
	s->todo[s->todo_cnt++] = (struct pending){ slot, root };
}

static void take_one(struct solve *s, int32_t slot, int32_t root)
{
	if (--s->part[slot].count[root] == 0)
		push(s, slot, root);
}

/* Instruction j is dead: its reads are no longer uses. */
static void kill(struct solve *s, size_t j)
{
	s->dead[j] = true;
	for (unsigned int q = 0; q < REGS; q++)
		if ((s->insns[j].use & (1u << q)) && s->slot[q] >= 0)
			take_one(s, s->slot[q], s->part[s->slot[q]].root[j]);
}

/* The part root of register slot's graph is no longer live. */
static void part_dies(struct solve *s, int32_t slot, int32_t root, unsigned int r)
{
	const struct part *pt = &s->part[slot];
	uint16_t bit = (uint16_t)(1u << r);

	for (int32_t m = root; m >= 0; m = pt->next[m]) {
		for (int32_t k = s->pred_start[m]; k < s->pred_start[m + 1]; k++) {
			int32_t p = s->pred[k];

			hxu_work_add(1);
			if (!(s->insns[p].def & bit) && pt->root[p] != root)
				take_one(s, slot, pt->root[p]);
		}
		/* a removable write of r whose next instruction this is */
		for (int32_t j = m - 1; s->dead && j >= 0 && j >= m - 2; j--) {
			const struct hxu_live_insn *in = &s->insns[j];

			if (in->removable && !s->dead[j] && in->next == (uint32_t)m && in->dst == r)
				kill(s, (size_t)j);
		}
	}
}

static int predecessors(struct solve *s)
{
	size_t n = s->n;
	int32_t to;

	s->pred_start = calloc(n + 2, sizeof(*s->pred_start));
	if (!s->pred_start)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++)
		for (int e = 0; e < 2; e++)
			if (edge(&s->insns[k], n, e, &to))
				s->pred_start[to + 2]++;
	for (size_t k = 0; k < n; k++)
		s->pred_start[k + 2] += s->pred_start[k + 1];
	s->pred = malloc((s->pred_start[n + 1] + 1) * sizeof(*s->pred));
	if (!s->pred)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++)
		for (int e = 0; e < 2; e++)
			if (edge(&s->insns[k], n, e, &to))
				s->pred[s->pred_start[to + 1]++] = (int32_t)k;
	return 0;
}

int hxu_liveness(const struct hxu_live_insn *insns, size_t n, uint16_t *live, bool *dead)
{
	struct solve s = { .insns = insns, .n = n, .dead = dead };
	uint16_t regs = 0;
	int err = -ENOMEM, slots = 0;

	memset(live, 0, (n + 1) * sizeof(*live));
	for (size_t k = 0; k < n; k++) {
		regs |= insns[k].use;
		if (leaves(&insns[k]))
			regs |= OUT_LIVE;
	}
	for (unsigned int r = 0; r < REGS; r++) {
		s.slot[r] = -1;
		if (!(regs & (1u << r)))
			continue;
		s.slot[r] = (int8_t)slots++;
	}
	s.sc.index = malloc((n + 1) * sizeof(*s.sc.index));
	s.sc.low = malloc((n + 1) * sizeof(*s.sc.low));
	s.sc.stack = malloc((n + 1) * sizeof(*s.sc.stack));
	s.sc.call = malloc((n + 1) * sizeof(*s.sc.call));
	s.sc.on = calloc(n + 1, sizeof(*s.sc.on));
	if (!s.sc.index || !s.sc.low || !s.sc.stack || !s.sc.call || !s.sc.on || predecessors(&s))
		goto out;
	/* each root is pushed once, when its count reaches 0 */
	s.todo = malloc(((size_t)slots * n + 1) * sizeof(*s.todo));
	if (!s.todo)
		goto out;
	for (unsigned int r = 0; r < REGS; r++) {
		struct part *pt = &s.part[s.slot[r] >= 0 ? s.slot[r] : 0];
		uint16_t bit = (uint16_t)(1u << r);
		int32_t to;

		if (s.slot[r] < 0)
			continue;
		pt->root = malloc(n * sizeof(*pt->root));
		pt->count = calloc(n, sizeof(*pt->count));
		pt->next = malloc(n * sizeof(*pt->next));
		if (!pt->root || !pt->count || !pt->next || find_parts(&s, r, pt))
			goto out;
		for (size_t k = 0; k < n; k++) {
			int32_t c = (insns[k].use & bit) ? 1 : 0;

			hxu_work_add(1);
			if (!(insns[k].def & bit)) {
				if (r <= 10 && leaves(&insns[k]))
					c++;
				for (int e = 0; e < 2; e++)
					if (edge(&insns[k], n, e, &to) &&
					    pt->root[to] != pt->root[k])
						c++;
			}
			pt->count[pt->root[k]] += c;
		}
		for (size_t k = 0; k < n; k++)
			if (pt->root[k] == (int32_t)k && !pt->count[k])
				push(&s, s.slot[r], (int32_t)k);
	}
	if (dead) {
		memset(dead, 0, n * sizeof(*dead));
		/* nothing is live at the end of the program, nor is a register no
		 * instruction reads */
		for (size_t j = 0; j < n; j++)
			if (insns[j].removable && (insns[j].next >= n || insns[j].dst >= REGS ||
						   s.slot[insns[j].dst] < 0))
				kill(&s, j);
	}
	while (s.todo_cnt) {
		struct pending p = s.todo[--s.todo_cnt];
		unsigned int r = 0;

		while (s.slot[r] != p.slot)
			r++;
		part_dies(&s, p.slot, p.root, r);
	}
	for (unsigned int r = 0; r < REGS; r++) {
		const struct part *pt = &s.part[s.slot[r] >= 0 ? s.slot[r] : 0];

		if (s.slot[r] < 0)
			continue;
		for (size_t k = 0; k < n; k++)
			if (pt->count[pt->root[k]] > 0)
				live[k] |= (uint16_t)(1u << r);
	}
	err = 0;
out:
	for (int i = 0; i < slots; i++) {
		free(s.part[i].root);
		free(s.part[i].count);
		free(s.part[i].next);
	}
	free(s.pred_start);
	free(s.pred);
	free(s.todo);
	free(s.sc.index);
	free(s.sc.low);
	free(s.sc.stack);
	free(s.sc.call);
	free(s.sc.on);
	return err;
}
