/* SPDX-License-Identifier: GPL-2.0 */
/* Copy propagation over the translator's microcode, before scheduling. */
#ifndef HWXDP_HWMAP_COPYPROP_H
#define HWXDP_HWMAP_COPYPROP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwmap/hxu.h"

/* What the translator knows of the n operations, one entry each. */
struct hxu_copyprop_env {
	const bool *leader;		/* a branch or call target: a block starts here */
	const uint16_t *live_in;	/* at a leader: registers live on entry */
	const uint16_t *live_at_target; /* at b<cc> and lchk: registers live where it goes */
};

/*
 * Rewrites reads of each 64-bit register copy's destination to its source
 * where both hold the same value, and marks in removed[] (n entries) the
 * copies nothing needs any more. Returns how many.
 */
size_t hxu_propagate_copies(struct hxu_op *ops, size_t n, bool *removed,
			    const struct hxu_copyprop_env *env);

#endif /* HWXDP_HWMAP_COPYPROP_H */
