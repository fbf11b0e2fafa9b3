// SPDX-License-Identifier: GPL-2.0
/*
 * Loads assembled from narrower loads. Clang reads a field it cannot prove
 * aligned a byte at a time and puts the bytes together with shifts and ors;
 * a pair of 32-bit loads becomes a 64-bit value the same way. The device
 * loads at any alignment, so the value is one load.
 *
 * A forward walk through each block tracks, per register, which loaded
 * byte sits in which byte of its value (base register, offset). When an
 * `or` or a shift leaves a register holding n = 2, 4 or 8 consecutive bytes
 * in order (little-endian: a plain load) or reversed (network order: a .be
 * load), and nothing else, that instruction becomes the load; the loads and
 * shifts that fed it then have no reader and go as dead code. A store or a
 * call ends every assembly, since memory may have changed; so does a new
 * value in the base register.
 */
#include <stdlib.h>
#include <string.h>

#include "hwmap/combine.h"

#define NO_BYTE INT16_MIN

struct assembly {
	bool valid;
	uint8_t base;
	uint32_t version; /* the base register's, when the bytes were loaded */
	uint32_t load_insn;
	int16_t byte[8]; /* offset from base of the byte at bits 8i.., or NO_BYTE (zero) */
};

struct walk {
	struct assembly a[11];
	uint32_t version[11];
};

static void redefine(struct walk *w, unsigned int reg)
{
	w->a[reg].valid = false;
	w->version[reg]++;
}

static bool is_load(const struct bpf_insn *in)
{
	return BPF_CLASS(in->code) == BPF_LDX && BPF_MODE(in->code) == BPF_MEM &&
	       BPF_SIZE(in->code) != BPF_DW;
}

/* A whole load the assembly in a equals, if any. */
static bool as_load(const struct assembly *a, const struct walk *w, struct hxu_combined *out)
{
	struct hxu_combined c = { 0 };
	int n = 0;

	if (!a->valid || w->version[a->base] != a->version)
		return false;
	while (n < 8 && a->byte[n] != NO_BYTE)
		n++;
	if (n != 2 && n != 4 && n != 8)
		return false;
	for (int i = n; i < 8; i++)
		if (a->byte[i] != NO_BYTE)
			return false;
	c.size = (uint8_t)n;
	c.load_insn = a->load_insn;
	c.base = a->base;
	c.be = a->byte[0] != a->byte[n - 1] - (n - 1);
	c.off = c.be ? a->byte[n - 1] : a->byte[0];
#ifdef HWXDP_MUTANT_COMBINE_ORDER
	/* A test build puts back a fault this pass once had, so that the
	 * differential tests and the prover can be shown to catch it. */
	*out = c;
#endif
	for (int i = 0; i < n; i++)
		if (a->byte[i] != (c.be ? c.off + (n - 1 - i) : c.off + i))
			return false;
	/* Only a whole load is told: the translator emits one wherever the
	 * size is set, so bytes in any other order must leave *out empty. */
	*out = c;
	return true;
}

static void step(struct walk *w, const struct bpf_insn *in, const struct hwxdp_insn_fact *f,
		 uint32_t k, struct hxu_combined *out)
{
	uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	struct assembly *d = &w->a[in->dst_reg], r;
	bool w32 = cls == BPF_ALU;
	int size;

	memset(out, 0, sizeof(*out));
	switch (cls) {
	case BPF_LDX:
		if (!is_load(in) || in->dst_reg == in->src_reg ||
		    f->regs[in->src_reg].type == HWXDP_REG_PTR_TO_CTX || in->off < -4096 ||
		    in->off > 4096) {
			redefine(w, in->dst_reg);
			return;
		}
		size = BPF_SIZE(in->code) == BPF_B ? 1 : BPF_SIZE(in->code) == BPF_H ? 2 : 4;
		redefine(w, in->dst_reg);
		r.valid = true;
		r.base = in->src_reg;
		r.version = w->version[in->src_reg];
		r.load_insn = k;
		for (int i = 0; i < 8; i++)
			r.byte[i] = i < size ? (int16_t)(in->off + i) : NO_BYTE;
		*d = r;
		return;
	case BPF_ALU:
	case BPF_ALU64:
		if (op == BPF_LSH && BPF_SRC(in->code) == BPF_K && d->valid && in->imm % 8 == 0 &&
		    in->imm > 0 && in->imm < (w32 ? 32 : 64)) {
			int by = in->imm / 8, top = w32 ? 4 : 8;

			r = *d;
			for (int i = 0; i < 8; i++)
				r.byte[i] = i >= by ? d->byte[i - by] : NO_BYTE;
			for (int i = top - by; i < 8; i++)
				if (d->byte[i] != NO_BYTE)
					r.valid = false; /* shifted out: not a load */
			redefine(w, in->dst_reg);
			*d = r;
			as_load(d, w, out);
			return;
		}
		if (op == BPF_OR && BPF_SRC(in->code) == BPF_X && in->src_reg != in->dst_reg &&
		    d->valid && w->a[in->src_reg].valid && w->a[in->src_reg].base == d->base &&
		    w->a[in->src_reg].version == d->version) {
			const struct assembly *s = &w->a[in->src_reg];

			r = *d;
			for (int i = 0; i < 8; i++) {
				if (s->byte[i] == NO_BYTE)
					continue;
				if (r.byte[i] != NO_BYTE)
					r.valid = false;
				r.byte[i] = s->byte[i];
			}
			for (int i = 4; w32 && i < 8; i++)
				if (r.byte[i] != NO_BYTE)
					r.valid = false; /* a 32-bit or drops them */
			redefine(w, in->dst_reg);
			*d = r;
			as_load(d, w, out);
			return;
		}
		redefine(w, in->dst_reg);
		return;
	case BPF_LD:
		redefine(w, in->dst_reg);
		return;
	case BPF_ST:
	case BPF_STX:
		for (int i = 0; i < 11; i++)
			w->a[i].valid = false;
		if (BPF_MODE(in->code) == BPF_ATOMIC && (in->imm & BPF_FETCH))
			redefine(w, in->imm == BPF_CMPXCHG ? BPF_REG_0 : in->src_reg);
		return;
	case BPF_JMP:
	case BPF_JMP32:
		if (op == BPF_CALL) {
			for (int i = 0; i < 11; i++)
				redefine(w, (unsigned int)i);
		}
		return;
	}
}

struct hxu_combined *hxu_combine_loads(const struct hwxdp_prog *p,
				       const struct hwxdp_insn_fact *facts, const bool *is_target)
{
	struct hxu_combined *out = calloc(p->insn_cnt + 1, sizeof(*out));
	struct walk w;

	if (!out)
		return NULL;
	memset(&w, 0, sizeof(w));
	for (size_t k = 0; k < p->insn_cnt; k++) {
		const struct bpf_insn *in = &p->insns[k];

		if (is_target[k] || !facts[k].reachable) {
			for (int i = 0; i < 11; i++)
				w.a[i].valid = false;
		}
		if (!facts[k].reachable)
			continue;
		step(&w, in, &facts[k], (uint32_t)k, &out[k]);
		if (in->code == (BPF_LD | BPF_IMM | BPF_DW))
			k++;
	}
	return out;
}

/*
 * Stores split into bytes. The other way round: clang writes a value it
 * cannot prove aligned a byte at a time, each byte shifted down from the
 * value. Per register the walk knows which value it is a right shift of
 * (a value is a register at one version); a run of byte stores, nothing
 * else in between, of the bytes 0 .. n - 1 of one value to consecutive
 * places through one base is one n-byte store, made where the run starts
 * (the value is there, whole, by then).
 */
struct shifted {
	bool valid;
	uint8_t reg;
	uint32_t version;
	uint32_t shift;
};

struct store_group {
	bool open;
	uint8_t base, value;
	uint32_t base_version, value_version;
	int32_t off; /* where byte 0 goes */
	uint8_t bytes;
	uint32_t first, count;
	uint32_t insns[8];
};

static void close_group(struct store_group *g, const uint32_t *version,
			struct hxu_store_combined *out)
{
	int n = 0;

	if (!g->open)
		return;
	g->open = false;
	while (n < 8 && (g->bytes & (1u << n)))
		n++;
	if ((n != 2 && n != 4 && n != 8) || g->bytes != (1u << n) - 1 || g->count != (uint32_t)n)
		return;
	(void)version;
	out[g->first].size = (uint8_t)n;
	out[g->first].value = g->value;
	out[g->first].off = (int16_t)g->off;
	for (uint32_t i = 1; i < g->count; i++)
		out[g->insns[i]].dropped = true;
}

struct hxu_store_combined *hxu_combine_stores(const struct hwxdp_prog *p,
					      const struct hwxdp_insn_fact *facts,
					      const bool *is_target)
{
	struct hxu_store_combined *out = calloc(p->insn_cnt + 1, sizeof(*out));
	struct shifted part[11];
	uint32_t version[11] = { 0 };
	struct store_group g = { 0 };

	if (!out)
		return NULL;
	memset(part, 0, sizeof(part));
	for (size_t k = 0; k < p->insn_cnt; k++) {
		const struct bpf_insn *in = &p->insns[k];
		uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
		struct shifted v;

		if (is_target[k] || !facts[k].reachable) {
			close_group(&g, version, out);
			memset(part, 0, sizeof(part));
		}
		if (!facts[k].reachable)
			continue;
		if (in->code == (BPF_STX | BPF_MEM | BPF_B) && in->dst_reg != BPF_REG_10 &&
		    facts[k].regs[in->dst_reg].type != HWXDP_REG_PTR_TO_STACK &&
		    in->src_reg != in->dst_reg) {
			v = part[in->src_reg].valid ? part[in->src_reg]
						    : (struct shifted){ true, in->src_reg,
									version[in->src_reg], 0 };
			if (v.shift % 8 || v.shift >= 64) {
				close_group(&g, version, out);
				continue;
			}
			if (g.open && g.base == in->dst_reg &&
			    g.base_version == version[in->dst_reg] && g.value == v.reg &&
			    g.value_version == v.version && g.count < 8 &&
			    in->off - (int32_t)(v.shift / 8) == g.off &&
			    !(g.bytes & (1u << (v.shift / 8)))) {
				g.bytes |= (uint8_t)(1u << (v.shift / 8));
				g.insns[g.count++] = (uint32_t)k;
				continue;
			}
			close_group(&g, version, out);
			/* a run starts where the value is whole in its register */
			if (version[v.reg] != v.version)
				continue;
			g = (struct store_group){ true,
						  in->dst_reg,
						  v.reg,
						  version[in->dst_reg],
						  v.version,
						  in->off - (int32_t)(v.shift / 8),
						  (uint8_t)(1u << (v.shift / 8)),
						  (uint32_t)k,
						  1,
						  { (uint32_t)k } };
			continue;
		}
		switch (cls) {
		case BPF_ALU64:
			if (op == BPF_MOV && BPF_SRC(in->code) == BPF_X && !in->off) {
				v = part[in->src_reg].valid
					    ? part[in->src_reg]
					    : (struct shifted){ true, in->src_reg,
								version[in->src_reg], 0 };
				version[in->dst_reg]++;
				part[in->dst_reg] = v;
				continue;
			}
			if (op == BPF_RSH && BPF_SRC(in->code) == BPF_K && in->imm > 0 &&
			    in->imm < 64) {
				v = part[in->dst_reg].valid
					    ? part[in->dst_reg]
					    : (struct shifted){ true, in->dst_reg,
								version[in->dst_reg], 0 };
				v.shift += (uint32_t)in->imm;
				version[in->dst_reg]++;
				part[in->dst_reg] = v;
				continue;
			}
			/* fallthrough */
		case BPF_ALU:
		case BPF_LD:
		case BPF_LDX:
			version[in->dst_reg]++;
			part[in->dst_reg].valid = false;
			if (cls == BPF_LDX)
				close_group(&g, version, out); /* it may read what the run writes */
			if (in->code == (BPF_LD | BPF_IMM | BPF_DW))
				k++;
			continue;
		}
		/* any other store, an atomic, a branch, a call, an exit */
		close_group(&g, version, out);
		if (cls == BPF_STX && BPF_MODE(in->code) == BPF_ATOMIC && (in->imm & BPF_FETCH)) {
			uint8_t r = in->imm == BPF_CMPXCHG ? BPF_REG_0 : in->src_reg;

			version[r]++;
			part[r].valid = false;
		}
		if ((cls == BPF_JMP || cls == BPF_JMP32) && op == BPF_CALL) {
			for (int r = 0; r <= 5; r++) {
				version[r]++;
				part[r].valid = false;
			}
		}
	}
	close_group(&g, version, out);
	return out;
}
