/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An assembler for the text verifier/disasm.c prints, so that tests and
 * fixtures can be written, or pasted from a kernel verifier log, as the
 * kernel shows them.
 *
 * One instruction per line, in any of these shapes:
 *   0: (b7) r0 = 0        index and opcode, as in a verifier log
 *   (b7) r0 = 0           the opcode is checked against the assembled one
 *   r0 = 0                the instruction alone
 * ';' opens a comment anywhere (a log's register state included); '#' does
 * at the start of a line or after a blank ("call bpf_map_lookup_elem#1"
 * keeps its '#'). "name:" before an instruction, or alone on a line, is a
 * label, usable wherever the text has "pc+N": goto, if ... goto, gotol,
 * may_goto, call, func[...].
 *
 * As the kernel prints them, "rX = 0x..." is ld_imm64 and "rX = N" is a mov
 * (ld_imm64 when N does not fit in 32 bits); an "(18)" prefix forces
 * ld_imm64. "call NAME#ID" is a helper call when NAME is that helper's name
 * (or "unknown"), and a kfunc call (BPF_PSEUDO_KFUNC_CALL, imm ID) for
 * "kernel-function" or any other name; "call NAME" alone is a helper by name,
 * or else a BPF-to-BPF call to label NAME.
 */
#ifndef HWXDP_VERIFIER_ASM_H
#define HWXDP_VERIFIER_ASM_H

#include <linux/bpf.h>
#include <stddef.h>

/*
 * Assembles text into *insns (malloc'ed, *cnt instructions). Returns 0, or
 * -EINVAL with "line N: reason" in err (errlen bytes, may be 0), or -ENOMEM.
 * Nothing is returned on failure.
 */
int hwxdp_asm(const char *text, struct bpf_insn **insns, size_t *cnt, char *err, size_t errlen);

#endif /* HWXDP_VERIFIER_ASM_H */
