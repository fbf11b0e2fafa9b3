/* SPDX-License-Identifier: GPL-2.0 */
/* Loads the program assembles from narrower ones, for the translator to make whole. */
#ifndef HWXDP_HWMAP_COMBINE_H
#define HWXDP_HWMAP_COMBINE_H

#include <stdbool.h>
#include <stdint.h>

#include "loader/object.h"
#include "verifier/verifier.h"

/* At an instruction whose result is a whole load: which one. */
struct hxu_combined {
	uint8_t size; /* 2, 4 or 8 bytes; 0: not a combined load */
	uint8_t base; /* the register the pieces were loaded through */
	bool be;      /* the bytes are in network order */
	int16_t off;
	uint32_t load_insn; /* one of the pieces' loads, where base's type is known */
};

/*
 * Per instruction of p (insn_cnt + 1 entries): an `or` or shift that leaves
 * its destination holding exactly the value of one 2-, 4- or 8-byte load
 * through a register that has not changed since the pieces were loaded,
 * with no store or call in between. is_target marks branch and call
 * targets (blocks start there). NULL when out of memory.
 */
struct hxu_combined *hxu_combine_loads(const struct hwxdp_prog *p,
				       const struct hwxdp_insn_fact *facts, const bool *is_target);

/* At a byte store that starts a run making one whole store, or in one. */
struct hxu_store_combined {
	uint8_t size;  /* 2, 4 or 8 at the run's first store: the whole store */
	uint8_t value; /* the register holding the value there */
	int16_t off;   /* from the store's base, where byte 0 goes */
	bool dropped;  /* a later store of the run: nothing to do */
};

/*
 * Per instruction of p (insn_cnt + 1 entries): runs of byte stores through
 * one unchanged base, nothing else but register arithmetic in between (no
 * load, other store, call or branch), writing bytes 0 .. n - 1 (n = 2, 4,
 * 8) of one value, each byte once, to consecutive places, where the value
 * is whole in a register at the run's first store. Not through stack
 * pointers: the stack passes take each byte store on its own. NULL when
 * out of memory.
 */
struct hxu_store_combined *hxu_combine_stores(const struct hwxdp_prog *p,
					      const struct hwxdp_insn_fact *facts,
					      const bool *is_target);

#endif /* HWXDP_HWMAP_COMBINE_H */
