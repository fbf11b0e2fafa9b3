/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Instruction builders for hand-written BPF test programs: one macro per
 * instruction form, named after the encoding classes of linux/bpf.h.
 */
#ifndef HWXDP_TESTS_VERIFIER_INSN_H
#define HWXDP_TESTS_VERIFIER_INSN_H

#include <linux/bpf.h>

#define INSN(CODE, DST, SRC, OFF, IMM)                                                             \
	((struct bpf_insn){                                                                        \
		.code = (CODE), .dst_reg = (DST), .src_reg = (SRC), .off = (OFF), .imm = (IMM) })

/* ALU, 64 and 32 bit, register or immediate source */
#define ALU64_REG(OP, DST, SRC) INSN(BPF_ALU64 | BPF_OP(OP) | BPF_X, DST, SRC, 0, 0)
#define ALU64_IMM(OP, DST, IMM) INSN(BPF_ALU64 | BPF_OP(OP) | BPF_K, DST, 0, 0, IMM)
#define ALU32_REG(OP, DST, SRC) INSN(BPF_ALU | BPF_OP(OP) | BPF_X, DST, SRC, 0, 0)
#define ALU32_IMM(OP, DST, IMM) INSN(BPF_ALU | BPF_OP(OP) | BPF_K, DST, 0, 0, IMM)
#define MOV64_REG(DST, SRC)	INSN(BPF_ALU64 | BPF_MOV | BPF_X, DST, SRC, 0, 0)
#define MOV64_IMM(DST, IMM)	INSN(BPF_ALU64 | BPF_MOV | BPF_K, DST, 0, 0, IMM)
#define MOV32_REG(DST, SRC)	INSN(BPF_ALU | BPF_MOV | BPF_X, DST, SRC, 0, 0)
#define MOV32_IMM(DST, IMM)	INSN(BPF_ALU | BPF_MOV | BPF_K, DST, 0, 0, IMM)
#define NEG64(DST)		INSN(BPF_ALU64 | BPF_NEG, DST, 0, 0, 0)
#define ENDIAN(TYPE, DST, LEN)	INSN(BPF_ALU | BPF_END | (TYPE), DST, 0, 0, LEN)

/* 64-bit immediate load: two slots; map references carry a pseudo source */
#define LD_IMM64_RAW(DST, SRC, IMM)                                                                \
	INSN(BPF_LD | BPF_DW | BPF_IMM, DST, SRC, 0, (__u32)(IMM)),                                \
		INSN(0, 0, 0, 0, (__u32)((__u64)(IMM) >> 32))
#define LD_IMM64(DST, IMM) LD_IMM64_RAW(DST, 0, IMM)
#define LD_MAP_FD(DST, FD) LD_IMM64_RAW(DST, BPF_PSEUDO_MAP_FD, FD)
#define LD_MAP_VALUE(DST, FD, OFF)                                                                 \
	INSN(BPF_LD | BPF_DW | BPF_IMM, DST, BPF_PSEUDO_MAP_VALUE, 0, FD), INSN(0, 0, 0, 0, OFF)

/* memory */
#define LDX_MEM(SIZE, DST, SRC, OFF) INSN(BPF_LDX | BPF_SIZE(SIZE) | BPF_MEM, DST, SRC, OFF, 0)
#define STX_MEM(SIZE, DST, SRC, OFF) INSN(BPF_STX | BPF_SIZE(SIZE) | BPF_MEM, DST, SRC, OFF, 0)
#define ST_MEM(SIZE, DST, OFF, IMM)  INSN(BPF_ST | BPF_SIZE(SIZE) | BPF_MEM, DST, 0, OFF, IMM)
#define ATOMIC_OP(SIZE, OP, DST, SRC, OFF)                                                         \
	INSN(BPF_STX | BPF_SIZE(SIZE) | BPF_ATOMIC, DST, SRC, OFF, OP)

/* jumps, 64 and 32 bit compares */
#define JMP_REG(OP, DST, SRC, OFF)   INSN(BPF_JMP | BPF_OP(OP) | BPF_X, DST, SRC, OFF, 0)
#define JMP_IMM(OP, DST, IMM, OFF)   INSN(BPF_JMP | BPF_OP(OP) | BPF_K, DST, 0, OFF, IMM)
#define JMP32_REG(OP, DST, SRC, OFF) INSN(BPF_JMP32 | BPF_OP(OP) | BPF_X, DST, SRC, OFF, 0)
#define JMP32_IMM(OP, DST, IMM, OFF) INSN(BPF_JMP32 | BPF_OP(OP) | BPF_K, DST, 0, OFF, IMM)
#define JA(OFF)			     INSN(BPF_JMP | BPF_JA, 0, 0, OFF, 0)
#define CALL_HELPER(ID)		     INSN(BPF_JMP | BPF_CALL, 0, 0, 0, ID)
#define CALL_SUBPROG(REL)	     INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, REL)
#define CALL_KFUNC(ID)		     INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, ID)
#define EXIT_INSN()		     INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

#endif /* HWXDP_TESTS_VERIFIER_INSN_H */
