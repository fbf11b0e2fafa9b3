/* SPDX-License-Identifier: GPL-2.0 */
/* Checksum updates the translator hands to the checksum unit (csum16). */
#ifndef HWXDP_HWMAP_CSUM_H
#define HWXDP_HWMAP_CSUM_H

#include <stdbool.h>
#include <stdint.h>

#include "loader/object.h"
#include "verifier/verifier.h"

/* At the 16-bit packet load that starts a checksum update. */
struct hxu_csum {
	uint32_t end; /* the store that ends it; 0: none starts here */
	uint8_t base; /* the packet pointer both go through */
	int16_t off;
	uint16_t k;  /* what csum16 adds */
	uint8_t tmp; /* a register the fragment writes and nothing reads after */
};

/* csum16's result (docs/isa.md): field plus add folded to 16 bits, in
 * one's-complement arithmetic, with 0xffff (-0) given as 0. */
uint16_t hxu_csum16(uint16_t field, uint64_t add);

/*
 * Per instruction of p (insn_cnt + 1 entries): the fragments that load a
 * 16-bit packet field, compute only from it (forward branches allowed, at
 * most a few dozen instructions), and store the result back to the same
 * place, where the stored value equals hxu_csum16(field, k) for every one
 * of the 65,536 field values and one k, nothing jumps in from outside, and
 * nothing the fragment wrote is live after it (live: registers live on
 * entry to each instruction). NULL when out of memory.
 */
struct hxu_csum *hxu_find_csum(const struct hwxdp_prog *p, const struct hwxdp_insn_fact *facts,
			       const bool *is_target, const uint16_t *live);

#endif /* HWXDP_HWMAP_CSUM_H */
