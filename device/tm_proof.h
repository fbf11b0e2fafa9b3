/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device's proof that an image's table memory accesses stay inside the
 * tables (docs/isa.md section 6): an abstract interpretation over the
 * microcode, run when an engine loads an image, that follows which
 * registers and stack slots hold the address of a table's value (from
 * tlookup or tindex, plus an offset range it tracks) and what range a
 * number in a register has.
 *
 * Every operand that reads or writes table memory (ld, st and atomics on
 * tm, and the keys and values of tlookup, tupdate and tdelete in tm) must
 * then be proven: its base is a table's value (or the null pointer of a
 * lookup that found nothing, or another number below any table memory
 * address, which the engine's run-time address check aborts on) and every
 * byte it touches lies inside that value. The translator emits nothing
 * else (fwd, tests/corpus and every program of the tests load proven), so
 * an access the proof cannot bound is refused rather than checked at run
 * time, and proven accesses cost nothing per frame.
 */
#ifndef HWXDP_DEVICE_TM_PROOF_H
#define HWXDP_DEVICE_TM_PROOF_H

#include <stddef.h>
#include <stdint.h>

#include "hwmap/hxu.h"

/*
 * ops: the image's operations in order (op_cnt of them, already checked
 * against the device's rules), words[i] the word index of ops[i], op_at[w]
 * the index in ops of the operation at word w or -1 (img->op_cnt words);
 * table_desc by table id (NULL: no such table). Returns 0, -ENOMEM, or -1
 * with the reason in err ("op N: ...") for an access it cannot prove.
 */
int hwxdp_tm_prove(const struct hxu_image *img, const struct hxu_op *ops, const uint32_t *words,
		   uint32_t op_cnt, const int32_t *op_at,
		   const struct hxu_table_desc *const table_desc[HXU_TABLES], char *err,
		   size_t errlen);

#endif /* HWXDP_DEVICE_TM_PROOF_H */
