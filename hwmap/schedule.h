/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bundle scheduler: packs a translated program's operations into
 * bundles of up to HXU_BUNDLE_MAX independent operations (docs/isa.md
 * section 3), within basic blocks, keeping every block's first operation
 * the first of a bundle and its control operation the last.
 */
#ifndef HWXDP_HWMAP_SCHEDULE_H
#define HWXDP_HWMAP_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwmap/hxu.h"

/*
 * ops[0..n) in program order; leader[i] says operation i starts a basic
 * block (a branch or call target, a program entry). For a conditional
 * branch i, dead[i] has a bit for each register not live where it jumps:
 * operations of its fall-through that only write such registers (and
 * cannot fault) may move above it. Writes order, a permutation of 0..n)
 * that is the order to emit them in, and sets each operation's end bit. A
 * block's first operation stays its first. 0 or -ENOMEM.
 */
int hxu_schedule(struct hxu_op *ops, const bool *leader, const uint16_t *dead, size_t n,
		 uint32_t *order);

#endif /* HWXDP_HWMAP_SCHEDULE_H */
