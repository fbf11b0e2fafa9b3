/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Register liveness over a program's instructions, with dead-code removal
 * in the same solve: the translator describes each instruction by the
 * registers it reads and writes and where control goes after it, and which
 * instructions may be left out when nothing reads what they write.
 */
#ifndef HWXDP_HWMAP_LIVE_H
#define HWXDP_HWMAP_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where control leaves the instructions: every register is live there. */
#define HXU_LIVE_OUT (-2)
/* No successor. */
#define HXU_LIVE_NONE (-1)

struct hxu_live_insn {
	uint16_t use, def;
	/* successors: an instruction index, n (the end of the program: nothing
	 * is live there), HXU_LIVE_OUT or HXU_LIVE_NONE */
	int64_t succ[2];
	/* may go when register dst is not live at instruction next */
	bool removable;
	uint8_t dst;
	uint32_t next;
};

/*
 * Registers live on entry to each of the n instructions (live[0..n], live[n]
 * is 0): the least solution, as a sweep to a fixed point finds it. Where
 * HXU_LIVE_OUT is a successor, registers 0..10 are live after it.
 *
 * Removable instructions whose register is not live at their next
 * instruction are dead (dead[i] set): what they read is not a use, and what
 * only they read is then dead too, to the end, as if liveness were solved
 * again and again until no more instructions became dead. The result is that
 * fixed point exactly, found in time linear in the instructions and their
 * edges (per register, the strongly connected parts of the flow graph
 * without the edges out of its writers, and a count of each part's live
 * uses and successors). 0 or -ENOMEM.
 */
int hxu_liveness(const struct hxu_live_insn *insns, size_t n, uint16_t *live, bool *dead);

#endif /* HWXDP_HWMAP_LIVE_H */
