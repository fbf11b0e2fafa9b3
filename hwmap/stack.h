/* SPDX-License-Identifier: GPL-2.0 */
/* Stack stores no later instruction can read, for the translator to leave out. */
#ifndef HWXDP_HWMAP_STACK_H
#define HWXDP_HWMAP_STACK_H

#include <stdbool.h>
#include <stdint.h>

#include "loader/object.h"
#include "verifier/verifier.h"

/*
 * Per instruction of p (insn_cnt + 1 entries): true for a store through R10
 * whose bytes no path reads before they are stored again or the function
 * returns, the loads fill_source (may be NULL) gives a register for not
 * reading it. NULL when out of memory. facts are an accepted verification's.
 */
bool *hxu_dead_stack_stores(const struct hwxdp_object *obj, const struct hwxdp_prog *p,
			    const struct hwxdp_insn_fact *facts, const int8_t *fill_source);

/*
 * Per instruction (insn_cnt + 1 entries): for a 64-bit load through R10, a
 * register that holds the loaded value on every path to it (its own
 * destination when that does), given that a helper call writes R0 alone on
 * the device (it is one table operation); else -1. NULL when out of memory.
 */
int8_t *hxu_fill_sources(const struct hwxdp_prog *p, const struct hwxdp_insn_fact *facts);

/* The bytes a BPF load or store of opcode code moves. */
int hxu_bpf_size(uint8_t code);

/* Where control may go after instruction k of p: HXU_SUCC_FALL with the
 * next instruction in *fall (none after an exit or a jump), HXU_SUCC_JUMP
 * with a branch's target in *jump (which may lie outside the program).
 * A call falls through. */
enum { HXU_SUCC_FALL = 1, HXU_SUCC_JUMP = 2 };
int hxu_insn_succ(const struct hwxdp_prog *p, size_t k, int64_t *fall, int64_t *jump);

/* The 8-byte slots of a function's 512-byte frame. */
#define HXU_STACK_SLOTS 64

/* The slot a 64-bit access through R10 names (0 for -512 .. 63 for -8), or -1. */
int hxu_stack_slot(const struct bpf_insn *in);

/*
 * Chooses up to regs slots of p's frame to keep in registers first_reg ..
 * first_reg + regs - 1 (reg_of[slot], -1 for one kept in memory): slots the
 * program only stores and loads whole through R10, with no pointer ever
 * reaching them, the most loaded first. None in a program with functions.
 * Returns how many.
 */
int hxu_promote_slots(const struct hwxdp_object *obj, const struct hwxdp_prog *p,
		      const struct hwxdp_insn_fact *facts, int8_t reg_of[HXU_STACK_SLOTS],
		      uint8_t first_reg, unsigned int regs);

#endif /* HWXDP_HWMAP_STACK_H */
