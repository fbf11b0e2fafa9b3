/* SPDX-License-Identifier: GPL-2.0 */
/*
 * HXU microcode as text: an assembler for tests and fixtures, and the
 * disassembler `hwxdp prog dump` prints with.
 *
 * One operation per line:
 *   add rd, rs, rt          add.w rd, rs, -5         (13 ALU operations)
 *   neg[.w] rd, rs          mov[.w] rd, rs|imm       movi rd, imm64
 *   movsx{8,16}[.w] rd, rs  movsx32 rd, rs
 *   bswap{16,32,64} rd, rs  zext{16,32} rd, rs
 *   ld{8,16,32,64}[.be][.sx].S rd, [rs + off]        S: pkt lm tm
 *   st{8,16,32,64}[.be].S [rs + off], rt|imm
 *   atomic{add,and,or,xor}{32,64}.S [rs + off], rt
 *   atomic{add,and,or,xor}{32,64}.fetch.S rd, [rs + off], rt
 *   atomic{xchg,cmpxchg}{32,64}.S rd, [rs + off], rt
 *   b<cc>[.w] rs, rt|imm, target    cc: eq ne gt ge lt le sgt sge slt sle set
 *   jmp target   call target   ret   exit   tcall T, rs
 *   lchk off, target        lchk [rs + off], target
 *   tlookup.S rd, T, rs     tindex rd, T, rs         tdelete.S rd, T, rs
 *   tupdate.S.S rd, T, rs, rt, flags                 (key space, value space)
 *   redir rd, T, rs, flags|rt                        (rt: flags at run time)
 *   hadj rd, rs   madj rd, rs   tadj rd, rs
 *   csum16 [rs + off], rt   esp rd, rs, rt           punt reason
 *   time rd   rand rd   cpu rd
 *   ctx rd, data|data_end|data_meta|ingress|rx_queue|egress
 * A target is a label or @N (operation index); T a table id (0..255).
 * Numbers are decimal or 0x hex; an imm is any 32-bit pattern (-2^31 ..
 * 2^32-1), movi's any 64-bit one.
 *
 * Bundles: an operation ends its bundle when its line ends with ";;", or
 * when the next non-blank line is ";;" alone; the text's last operation
 * ends one anyway. "name:" at the start of a line (alone or before an
 * operation) is a label and must begin a bundle. "N:" (digits) before an
 * operation is the index a listing printed; it must match. Comments start
 * with '#' or "//".
 */
#ifndef HWXDP_HWMAP_HXU_TEXT_H
#define HWXDP_HWMAP_HXU_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "hwmap/hxu.h"

struct hxu_label {
	char name[HXU_NAME_MAX];
	uint32_t op;
};

struct hxu_asm_out {
	uint64_t *words;
	uint32_t word_cnt;
	struct hxu_label *labels; /* in the order they appear */
	uint32_t label_cnt;
};

/* Assembles text. 0, or -EINVAL with "line N: reason" in err (errlen bytes,
 * may be 0), or -ENOMEM; out is filled only on success. */
int hxu_asm(const char *text, struct hxu_asm_out *out, char *err, size_t errlen);
void hxu_asm_out__free(struct hxu_asm_out *out);

/* Operation index of label name in out, or -1. */
int64_t hxu_asm_out__label(const struct hxu_asm_out *out, const char *name);

/* The text of the operation at words[0] (avail words available), targets
 * as @N, without index or ";;". Returns the words it takes (1 or 2), or 0
 * when a two-word operation is cut off; fields it cannot name print as
 * numbers (an unknown opcode as ".word 0x..."). */
unsigned int hxu_disasm_op(const uint64_t *words, uint32_t avail, char *buf, size_t len);

/* A listing: "%5u: text" per operation, " ;;" after the last of each bundle.
 * hxu_asm reads it back to the same words. malloc'ed; NULL with errno
 * ENOMEM. */
char *hxu_disasm(const uint64_t *words, uint32_t cnt);

#endif /* HWXDP_HWMAP_HXU_TEXT_H */
