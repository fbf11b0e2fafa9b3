// SPDX-License-Identifier: GPL-2.0
/*
 * Copies made piece by piece. __builtin_memcpy of a field clang cannot
 * prove aligned (a MAC address from a map value into the packet) is a run
 * of byte loads, each stored at once: a load and a store per byte. The
 * device accesses any alignment, so the run is a few wide loads and
 * stores: the bytes it copies, grouped into intervals, 8, 4, 2 or 1 bytes
 * at a time.
 *
 * A run is consecutive load/store pairs in one block, `t = *(uN *)(a +
 * i); *(uN *)(b + i + d) = t`, with the same temporary t, the same bases a
 * and b (neither written in the run) and the same distance d, no byte
 * copied twice, and t not read after the run. The translator takes it only
 * between different memory spaces, where source and destination cannot
 * overlap.
 */
#include <stdlib.h>
#include <string.h>

#include "hwmap/memcopy.h"
#include "hwmap/stack.h"

#define MAX_BYTES 64

/* Whether insns k, k + 1 are a copy pair; its fields. */
static bool pair_at(const struct bpf_insn *insns, size_t k, uint8_t *t, uint8_t *a, uint8_t *b,
		    int32_t *src, int32_t *dst, int *size)
{
	const struct bpf_insn *ld = &insns[k], *st = &insns[k + 1];

	if (BPF_CLASS(ld->code) != BPF_LDX || BPF_MODE(ld->code) != BPF_MEM ||
	    BPF_CLASS(st->code) != BPF_STX || BPF_MODE(st->code) != BPF_MEM ||
	    BPF_SIZE(ld->code) != BPF_SIZE(st->code) || st->src_reg != ld->dst_reg ||
	    ld->dst_reg == ld->src_reg || ld->dst_reg == st->dst_reg)
		return false;
	*t = ld->dst_reg;
	*a = ld->src_reg;
	*b = st->dst_reg;
	*src = ld->off;
	*dst = st->off;
	*size = hxu_bpf_size(ld->code);
	return true;
}

static void split(struct hxu_copy *c, int32_t lo, int32_t hi)
{
	while (lo < hi && c->chunk_cnt < HXU_COPY_CHUNKS) {
		int n = hi - lo >= 8 ? 8 : hi - lo >= 4 ? 4 : hi - lo >= 2 ? 2 : 1;

		c->chunk[c->chunk_cnt].off = lo;
		c->chunk[c->chunk_cnt].size = (uint8_t)n;
		c->chunk_cnt++;
		lo += n;
	}
	if (lo < hi)
		c->chunk_cnt = HXU_COPY_CHUNKS + 1; /* too many: not taken */
}

static bool run_at(const struct hwxdp_prog *p, const struct hwxdp_insn_fact *facts,
		   const bool *is_target, const uint16_t *live, size_t s, struct hxu_copy *c)
{
	bool copied[MAX_BYTES] = { false };
	uint8_t t, a, b, t2, a2, b2;
	int32_t src, dst, src2, dst2, base_off = 0;
	int size, size2, pairs = 0;
	size_t k = s;

	if (s + 1 >= p->insn_cnt || !pair_at(p->insns, s, &t, &a, &b, &src, &dst, &size))
		return false;
	base_off = src;
	c->dist = dst - src;
	while (k + 1 < p->insn_cnt && facts[k].reachable && facts[k + 1].reachable &&
	       !is_target[k + 1] && (k == s || !is_target[k]) &&
	       pair_at(p->insns, k, &t2, &a2, &b2, &src2, &dst2, &size2) && t2 == t && a2 == a &&
	       b2 == b && dst2 - src2 == c->dist) {
		int64_t rel = (int64_t)src2 - base_off + MAX_BYTES / 2;

		if (rel < 0 || rel + size2 > MAX_BYTES)
			break;
		for (int i = 0; i < size2; i++)
			if (copied[rel + i])
				return false; /* a byte twice: order matters */
		for (int i = 0; i < size2; i++)
			copied[rel + i] = true;
		pairs++;
		k += 2;
	}
	if (pairs < 2 || (live[k] & (1u << t)))
		return false;
	c->end = (uint32_t)(k - 1);
	c->tmp = t;
	c->src_base = a;
	c->dst_base = b;
	c->chunk_cnt = 0;
	for (int i = 0; i < MAX_BYTES;) {
		int j = i;

		if (!copied[i]) {
			i++;
			continue;
		}
		while (j < MAX_BYTES && copied[j])
			j++;
		split(c, base_off - MAX_BYTES / 2 + i, base_off - MAX_BYTES / 2 + j);
		i = j;
	}
	/* worth it only when it takes fewer operations */
	return c->chunk_cnt <= HXU_COPY_CHUNKS && c->chunk_cnt < pairs;
}

struct hxu_copy *hxu_find_copies(const struct hwxdp_prog *p, const struct hwxdp_insn_fact *facts,
				 const bool *is_target, const uint16_t *live)
{
	struct hxu_copy *c = calloc(p->insn_cnt + 1, sizeof(*c));

	if (!c)
		return NULL;
	for (size_t s = 0; s < p->insn_cnt; s++) {
		if (!facts[s].reachable || !run_at(p, facts, is_target, live, s, &c[s])) {
			memset(&c[s], 0, sizeof(c[s]));
			continue;
		}
		s = c[s].end;
	}
	return c;
}
