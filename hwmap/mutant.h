/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Seeded faults for the mutation run over the translator (make
 * prove-mutants, tests/prove/mutants_main.c). Only a build with
 * HWXDP_MUTANTS has the hook: the translator's operations then pass
 * through hxu_mutate() with the pass that made them, and the one mutant
 * selected there may change or drop them. The normal build has none of it.
 */
#ifndef HWXDP_HWMAP_MUTANT_H
#define HWXDP_HWMAP_MUTANT_H

#include <stdbool.h>
#include <stdint.h>

#include "hwmap/hxu.h"

/* The translator's passes, as the operations they emit name them. */
enum hxu_site {
	HXU_SITE_OTHER,
	HXU_SITE_ALU,	      /* translate_alu: one ALU instruction */
	HXU_SITE_FUSED,	      /* mov + ALU made one three-operand operation */
	HXU_SITE_ZEXT,	      /* shifts that zero-extend, made zext */
	HXU_SITE_LDX,	      /* a load, ctx reads included */
	HXU_SITE_LDX_BE,      /* a load and its byte swap made one */
	HXU_SITE_COMBINED,    /* loads assembled from pieces made one */
	HXU_SITE_ST,	      /* a store or atomic */
	HXU_SITE_STORE_WHOLE, /* byte stores of one value made one */
	HXU_SITE_JMP,	      /* branches, lchk, exits, calls and helpers */
	HXU_SITE_LD_IMM64,
	HXU_SITE_CSUM, /* a checksum fragment made csum16 */
	HXU_SITE_COPY, /* a piecewise copy */
	HXU_SITE_SLOT, /* a stack slot kept in a register */
	HXU_SITE_FILL, /* a stack load of what a register holds */
	HXU_SITE__MAX,
};

#ifdef HWXDP_MUTANTS
/* Applies the selected mutant to op, made by site: false drops it. */
bool hxu_mutate(enum hxu_site site, struct hxu_op *op);
#endif

#endif /* HWXDP_HWMAP_MUTANT_H */
