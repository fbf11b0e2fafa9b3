/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Random XDP programs for the differential test of hwxdp's verifier against
 * the kernel's: programs built from templates that read like compiled XDP C
 * (with bounds checks, map lookups, loops and helper calls that are right or
 * subtly wrong), and real programs with a few random mutations.
 *
 * Every program is a pure function of (seed, mix, index): program N of a run can
 * be rebuilt alone, and two runs with the same seed see the same programs.
 * Map references in the instructions follow include/hwxdp/object.h: an
 * ld_imm64 with src_reg BPF_PSEUDO_MAP_FD carries the index of the map in
 * vdiff_prog.maps, BPF_PSEUDO_MAP_VALUE the index and, in the next imm, the
 * offset.
 */
#ifndef HWXDP_TESTS_VDIFF_GEN_H
#define HWXDP_TESTS_VDIFF_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/bpf.h>

#include "loader/object.h"

enum vdiff_mix {
	VDIFF_MIX_TEMPLATES = 1,
	VDIFF_MIX_MUTATIONS = 2,
	VDIFF_MIX_BOTH = 3,
};

enum vdiff_kind {
	VDIFF_KIND_TEMPLATE,
	VDIFF_KIND_MUTATION,
};

struct vdiff_prog {
	uint64_t index;
	enum vdiff_kind kind;
	struct bpf_insn *insns;
	size_t cnt;
	const struct hwxdp_map_desc *maps; /* owned by the generator */
	size_t map_cnt;
	char what[512]; /* the choices made, for the report */
};

/* A splitmix64 stream: tiny, seedable from any 64-bit value, no global state. */
struct vdiff_rng {
	uint64_t state;
};

void vdiff_rng__seed(struct vdiff_rng *rng, uint64_t seed);
uint64_t vdiff_rng__next(struct vdiff_rng *rng);
/* Uniform in [0, n); n > 0. */
uint32_t vdiff_rng__below(struct vdiff_rng *rng, uint32_t n);
/* True with probability percent / 100. */
bool vdiff_rng__chance(struct vdiff_rng *rng, unsigned int percent);

struct vdiff_gen;

struct vdiff_gen_opts {
	size_t sz;
	uint64_t seed;
	enum vdiff_mix mix;
	/* Object whose XDP program is mutated; NULL for fwd.bpf.o of the build
	 * (lab/target.h hx_object_path).
	 * Only needed when mix includes mutations. */
	const char *base_object;
};

/* 0 or a negative errno; the reason is printed. */
int vdiff_gen__new(const struct vdiff_gen_opts *opts, struct vdiff_gen **out);
void vdiff_gen__free(struct vdiff_gen *gen);

/* Program number index of the run: 0 or a negative errno. */
int vdiff_gen__program(struct vdiff_gen *gen, uint64_t index, struct vdiff_prog *prog);
void vdiff_prog__clear(struct vdiff_prog *prog);

/* The unmutated base program (for checking that it loads); NULL without one. */
int vdiff_gen__base(struct vdiff_gen *gen, struct vdiff_prog *prog);

/* Every map any program of this generator may use (for creating them once). */
const struct hwxdp_map_desc *vdiff_gen__maps(const struct vdiff_gen *gen, size_t *cnt);

#endif /* HWXDP_TESTS_VDIFF_GEN_H */
