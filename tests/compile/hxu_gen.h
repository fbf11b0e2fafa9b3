/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Random HXU microcode that the device accepts, for comparing the engine's
 * two ways of running it: straight-line code with forward branches, counted
 * loops, functions (one of them recursive, so that the return stack can
 * overflow), tail calls between three programs, every ALU operation, packet
 * and local-memory accesses that sometimes leave the window or local memory
 * (the frame faults), table lookups with table-memory loads, stores and
 * atomics behind a null check, updates, deletes, redirects, the header,
 * checksum and crypto units, ctx, rand and cpu; bundles of independent
 * operations, including loads that the interpreter fuses with the branch of
 * the next bundle. Nothing reads the clock: the engines would see two
 * times.
 */
#ifndef HWXDP_TESTS_COMPILE_HXU_GEN_H
#define HWXDP_TESTS_COMPILE_HXU_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "hwmap/hxu.h"
#include "tests/compile/twin.h"

/* The tables every generated program may use. */
extern const struct hxu_table_desc hxu_gen_tables[];
extern const size_t hxu_gen_table_cnt;
/* Labels of the programs after main (tail-call targets), NULL-terminated. */
extern const char *const hxu_gen_progs[];

/* Program text for seed; malloc'ed. */
char *hxu_gen_text(uint64_t seed);

/* The tables' first contents, the same on both sides of t. */
void hxu_gen_fill(struct twin *t, uint64_t seed);

/* A frame for a program: a built one, mutated, or random bytes; its length. */
size_t hxu_gen_frame(uint64_t seed, uint8_t *buf, size_t cap);

#endif /* HWXDP_TESTS_COMPILE_HXU_GEN_H */
