/* SPDX-License-Identifier: GPL-2.0 */
/* Copies the program makes piece by piece, for the translator to make wide. */
#ifndef HWXDP_HWMAP_MEMCOPY_H
#define HWXDP_HWMAP_MEMCOPY_H

#include <stdbool.h>
#include <stdint.h>

#include "loader/object.h"
#include "verifier/verifier.h"

#define HXU_COPY_CHUNKS 8

/* At the first load of a run of load/store pairs: the copy it makes. */
struct hxu_copy {
	uint32_t end;	  /* the run's last store; 0: no run starts here */
	uint8_t tmp;	  /* the register the bytes pass through, dead after */
	uint8_t src_base; /* loads go through it, */
	uint8_t dst_base; /* stores through it, */
	int32_t dist;	  /* at the load's offset plus this */
	uint8_t chunk_cnt;
	struct {
		int32_t off;  /* from src_base */
		uint8_t size; /* 8, 4, 2 or 1 */
	} chunk[HXU_COPY_CHUNKS];
};

/*
 * Per instruction of p (insn_cnt + 1 entries): runs of at least two
 * consecutive pairs `t = *(a + i); *(b + i + dist) = t` in one block, same
 * t, a, b and dist, no byte copied twice, t dead after (live: registers
 * live on entry to each instruction), that fewer wide chunks can copy.
 * Whether source and destination may overlap is the caller's to decide.
 * NULL when out of memory.
 */
struct hxu_copy *hxu_find_copies(const struct hwxdp_prog *p, const struct hwxdp_insn_fact *facts,
				 const bool *is_target, const uint16_t *live);

#endif /* HWXDP_HWMAP_MEMCOPY_H */
