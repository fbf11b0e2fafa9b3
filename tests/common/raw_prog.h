/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Raw XDP programs built instruction by instruction for the tests that
 * compare the kernel, the device and the prover on them: a bounds-checked
 * frame, a value assembled from packet loads, the value stored back.
 */
#ifndef HWXDP_TESTS_COMMON_RAW_PROG_H
#define HWXDP_TESTS_COMMON_RAW_PROG_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RAW_PROG_MAX 96
#define RAW_OUT_OFF  40 /* where raw_epilogue stores the value */

struct raw_prog {
	struct bpf_insn insns[RAW_PROG_MAX];
	size_t cnt;
};

void raw_emit(struct raw_prog *p, uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm);
/* r2 = data, r3 = data_end; dropped unless RAW_OUT_OFF + 8 bytes are there. */
void raw_prologue(struct raw_prog *p);
/* Stores r0 (size bytes) at RAW_OUT_OFF and passes; the short frame's drop. */
void raw_epilogue(struct raw_prog *p, uint8_t size);
/* r0 = the pieces at offs[i] (each `size` bytes), the i-th shifted left by
 * shift[i] bits, or'ed together with 32-bit or 64-bit operations. */
void raw_assemble(struct raw_prog *p, uint8_t size, const int16_t *offs, const int *shift, int n,
		  bool alu32);
/* The next permutation of a[0..n) in lexical order. */
void raw_next_permutation(int *a, int n);

#endif /* HWXDP_TESTS_COMMON_RAW_PROG_H */
