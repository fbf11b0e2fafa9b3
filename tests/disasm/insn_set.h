/* SPDX-License-Identifier: GPL-2.0 */
/* Instruction sets shared by the disassembler and assembler tests. */
#ifndef HWXDP_TESTS_DISASM_INSN_SET_H
#define HWXDP_TESTS_DISASM_INSN_SET_H

#include <linux/bpf.h>
#include <stddef.h>

/*
 * Every encoding form the disassembler knows, rounds times over with
 * pseudo-random registers, offsets and immediates (seeded, so a failure
 * repeats). Fields the text does not show are zero. malloc'ed.
 */
struct bpf_insn *insn_set_generate(unsigned int rounds, unsigned int seed, size_t *cnt);

/* Path of a BPF object the build made: $HWXDP_BUILD (default build)/progs/NAME.bpf.o. */
const char *insn_set_object_path(const char *name);

/*
 * The program as text, one "(xx) ..." line per instruction (none for the
 * second half of ld_imm64); with_index prefixes "N: ", as a verifier log
 * does. malloc'ed.
 */
char *insn_set_disasm(const struct bpf_insn *insns, size_t cnt, int with_index);

#endif /* HWXDP_TESTS_DISASM_INSN_SET_H */
