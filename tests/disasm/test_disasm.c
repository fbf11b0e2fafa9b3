// SPDX-License-Identifier: GPL-2.0
/* The disassembler's text, class by class, against the kernel log's spelling. */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "verifier/disasm.h"

#define INSN(c, d, s, o, i) ((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
						.off = (o), .imm = (i) })

static const struct {
	struct bpf_insn insn[2];
	const char *text;
} cases[] = {
	/* ALU64 and ALU, K and X, every operator */
	{ { INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0) }, "(b7) r0 = 0" },
	{ { INSN(BPF_ALU64 | BPF_MOV | BPF_K, 3, 0, 0, -7) }, "(b7) r3 = -7" },
	{ { INSN(BPF_ALU64 | BPF_MOV | BPF_X, 6, 1, 0, 0) }, "(bf) r6 = r1" },
	{ { INSN(BPF_ALU | BPF_MOV | BPF_X, 0, 1, 0, 0) }, "(bc) w0 = w1" },
	{ { INSN(BPF_ALU | BPF_MOV | BPF_K, 2, 0, 0, 65535) }, "(b4) w2 = 65535" },
	{ { INSN(BPF_ALU64 | BPF_ADD | BPF_K, 1, 0, 0, 14) }, "(07) r1 += 14" },
	{ { INSN(BPF_ALU64 | BPF_SUB | BPF_X, 1, 2, 0, 0) }, "(1f) r1 -= r2" },
	{ { INSN(BPF_ALU64 | BPF_MUL | BPF_K, 1, 0, 0, 3) }, "(27) r1 *= 3" },
	{ { INSN(BPF_ALU64 | BPF_DIV | BPF_X, 1, 2, 0, 0) }, "(3f) r1 /= r2" },
	{ { INSN(BPF_ALU64 | BPF_OR | BPF_K, 1, 0, 0, 1) }, "(47) r1 |= 1" },
	{ { INSN(BPF_ALU64 | BPF_AND | BPF_K, 1, 0, 0, 255) }, "(57) r1 &= 255" },
	{ { INSN(BPF_ALU64 | BPF_LSH | BPF_K, 1, 0, 0, 32) }, "(67) r1 <<= 32" },
	{ { INSN(BPF_ALU64 | BPF_RSH | BPF_K, 1, 0, 0, 32) }, "(77) r1 >>= 32" },
	{ { INSN(BPF_ALU64 | BPF_NEG, 4, 0, 0, 0) }, "(87) r4 = -r4" },
	{ { INSN(BPF_ALU | BPF_NEG, 4, 0, 0, 0) }, "(84) w4 = -w4" },
	{ { INSN(BPF_ALU64 | BPF_MOD | BPF_X, 1, 9, 0, 0) }, "(9f) r1 %= r9" },
	{ { INSN(BPF_ALU | BPF_XOR | BPF_X, 1, 9, 0, 0) }, "(ac) w1 ^= w9" },
	{ { INSN(BPF_ALU64 | BPF_ARSH | BPF_K, 1, 0, 0, 63) }, "(c7) r1 s>>= 63" },
	{ { INSN(BPF_ALU | BPF_ARSH | BPF_X, 1, 2, 0, 0) }, "(cc) w1 s>>= w2" },
	/* ISA v4: signed division, sign-extending moves and loads, bswap */
	{ { INSN(BPF_ALU64 | BPF_DIV | BPF_K, 1, 0, 1, -3) }, "(37) r1 s/= -3" },
	{ { INSN(BPF_ALU | BPF_MOD | BPF_X, 1, 2, 1, 0) }, "(9c) w1 s%= w2" },
	{ { INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 2, 8, 0) }, "(bf) r1 = (s8)r2" },
	{ { INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 2, 32, 0) }, "(bf) r1 = (s32)r2" },
	{ { INSN(BPF_ALU | BPF_MOV | BPF_X, 1, 2, 16, 0) }, "(bc) w1 = (s16)w2" },
	{ { INSN(BPF_LDX | BPF_MEMSX | BPF_H, 0, 1, 2, 0) }, "(89) r0 = *(s16 *)(r1 +2)" },
	{ { INSN(BPF_ALU | BPF_END | BPF_TO_BE, 0, 0, 0, 16) }, "(dc) r0 = be16 r0" },
	{ { INSN(BPF_ALU | BPF_END | BPF_TO_LE, 3, 0, 0, 64) }, "(d4) r3 = le64 r3" },
	{ { INSN(BPF_ALU64 | BPF_END | BPF_TO_LE, 3, 0, 0, 32) }, "(d7) r3 = bswap32 r3" },
	/* memory */
	{ { INSN(BPF_LDX | BPF_MEM | BPF_W, 2, 1, 0, 0) }, "(61) r2 = *(u32 *)(r1 +0)" },
	{ { INSN(BPF_LDX | BPF_MEM | BPF_B, 2, 10, -1, 0) }, "(71) r2 = *(u8 *)(r10 -1)" },
	{ { INSN(BPF_STX | BPF_MEM | BPF_DW, 10, 1, -8, 0) }, "(7b) *(u64 *)(r10 -8) = r1" },
	{ { INSN(BPF_STX | BPF_MEM | BPF_H, 1, 2, 12, 0) }, "(6b) *(u16 *)(r1 +12) = r2" },
	{ { INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, -1) }, "(62) *(u32 *)(r10 -4) = -1" },
	{ { INSN(BPF_ST | BPF_MEM | BPF_B, 10, 0, -5, 7) }, "(72) *(u8 *)(r10 -5) = 7" },
	{ { INSN(BPF_LD | BPF_ABS | BPF_H, 0, 0, 0, 12) }, "(28) r0 = *(u16 *)skb[12]" },
	{ { INSN(BPF_LD | BPF_IND | BPF_W, 0, 7, 0, 14) }, "(40) r0 = *(u32 *)skb[r7 + 14]" },
	/* atomics */
	{ { INSN(BPF_STX | BPF_ATOMIC | BPF_DW, 1, 2, 0, BPF_ADD) },
	  "(db) lock *(u64 *)(r1 +0) += r2" },
	{ { INSN(BPF_STX | BPF_ATOMIC | BPF_W, 1, 2, 4, BPF_XOR) },
	  "(c3) lock *(u32 *)(r1 +4) ^= r2" },
	{ { INSN(BPF_STX | BPF_ATOMIC | BPF_DW, 1, 2, 8, BPF_AND | BPF_FETCH) },
	  "(db) r2 = atomic64_fetch_and((u64 *)(r1 +8), r2)" },
	{ { INSN(BPF_STX | BPF_ATOMIC | BPF_W, 1, 2, 0, BPF_OR | BPF_FETCH) },
	  "(c3) r2 = atomic_fetch_or((u32 *)(r1 +0), r2)" },
	{ { INSN(BPF_STX | BPF_ATOMIC | BPF_DW, 1, 3, -8, BPF_XCHG) },
	  "(db) r3 = atomic64_xchg((u64 *)(r1 -8), r3)" },
	{ { INSN(BPF_STX | BPF_ATOMIC | BPF_W, 10, 3, -8, BPF_CMPXCHG) },
	  "(c3) r0 = atomic_cmpxchg((u32 *)(r10 -8), r0, r3)" },
	{ { INSN(BPF_STX | BPF_ATOMIC | BPF_B, 0, 1, 3, BPF_LOAD_ACQ) },
	  "(d3) r0 = load_acquire((u8 *)(r1 +3))" },
	{ { INSN(BPF_STX | BPF_ATOMIC | BPF_DW, 1, 2, 0, BPF_STORE_REL) },
	  "(db) store_release((u64 *)(r1 +0), r2)" },
	/* 64-bit immediates: plain, and the symbolic map forms */
	{ { INSN(BPF_LD | BPF_IMM | BPF_DW, 1, 0, 0, 0x89abcdef), INSN(0, 0, 0, 0, 0x1234567) },
	  "(18) r1 = 0x123456789abcdef" },
	{ { INSN(BPF_LD | BPF_IMM | BPF_DW, 1, 0, 0, -1), INSN(0, 0, 0, 0, -1) },
	  "(18) r1 = 0xffffffffffffffff" },
	{ { INSN(BPF_LD | BPF_IMM | BPF_DW, 1, BPF_PSEUDO_MAP_FD, 0, 3) }, "(18) r1 = map[idx:3]" },
	{ { INSN(BPF_LD | BPF_IMM | BPF_DW, 2, BPF_PSEUDO_MAP_VALUE, 0, 1),
	    INSN(0, 0, 0, 0, 16) }, "(18) r2 = map[idx:1][0]+16" },
	{ { INSN(BPF_LD | BPF_IMM | BPF_DW, 2, BPF_PSEUDO_FUNC, 0, 9) }, "(18) r2 = func[pc+9]" },
	/* jumps, calls, exit */
	{ { INSN(BPF_JMP | BPF_JA, 0, 0, 3, 0) }, "(05) goto pc+3" },
	{ { INSN(BPF_JMP | BPF_JA, 0, 0, -12, 0) }, "(05) goto pc-12" },
	{ { INSN(BPF_JMP32 | BPF_JA, 0, 0, 0, 70000) }, "(06) gotol pc+70000" },
	{ { INSN(BPF_JMP | BPF_JCOND, 0, 0, 4, 0) }, "(e5) may_goto pc+4" },
	{ { INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 5, 0) }, "(15) if r0 == 0x0 goto pc+5" },
	{ { INSN(BPF_JMP | BPF_JNE | BPF_K, 0, 0, 5, -1) }, "(55) if r0 != 0xffffffff goto pc+5" },
	{ { INSN(BPF_JMP | BPF_JGT | BPF_X, 3, 2, -2, 0) }, "(2d) if r3 > r2 goto pc-2" },
	{ { INSN(BPF_JMP | BPF_JGE | BPF_K, 3, 0, 1, 20) }, "(35) if r3 >= 0x14 goto pc+1" },
	{ { INSN(BPF_JMP | BPF_JLT | BPF_X, 3, 2, 1, 0) }, "(ad) if r3 < r2 goto pc+1" },
	{ { INSN(BPF_JMP | BPF_JLE | BPF_X, 3, 2, 1, 0) }, "(bd) if r3 <= r2 goto pc+1" },
	{ { INSN(BPF_JMP | BPF_JSGT | BPF_K, 3, 0, 1, 0) }, "(65) if r3 s> 0x0 goto pc+1" },
	{ { INSN(BPF_JMP | BPF_JSGE | BPF_X, 3, 2, 1, 0) }, "(7d) if r3 s>= r2 goto pc+1" },
	{ { INSN(BPF_JMP | BPF_JSLT | BPF_K, 3, 0, 1, 0) }, "(c5) if r3 s< 0x0 goto pc+1" },
	{ { INSN(BPF_JMP | BPF_JSLE | BPF_X, 3, 2, 1, 0) }, "(dd) if r3 s<= r2 goto pc+1" },
	{ { INSN(BPF_JMP | BPF_JSET | BPF_K, 3, 0, 1, 8) }, "(45) if r3 & 0x8 goto pc+1" },
	{ { INSN(BPF_JMP32 | BPF_JEQ | BPF_K, 1, 0, 2, 1) }, "(16) if w1 == 0x1 goto pc+2" },
	{ { INSN(BPF_JMP32 | BPF_JSGT | BPF_X, 1, 2, 2, 0) }, "(6e) if w1 s> w2 goto pc+2" },
	{ { INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem) },
	  "(85) call bpf_map_lookup_elem#1" },
	{ { INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_redirect_map) },
	  "(85) call bpf_redirect_map#51" },
	{ { INSN(BPF_JMP | BPF_CALL, 0, 0, 0, 100000) }, "(85) call unknown#100000" },
	{ { INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 10) }, "(85) call pc+10" },
	{ { INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, -4) }, "(85) call pc-4" },
	{ { INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, 1234) },
	  "(85) call kernel-function#1234" },
	{ { INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, 3) },
	  "(85) call bpf_xdp_metadata_rx_hash#3" },
	{ { INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0) }, "(95) exit" },
	/* encodings the kernel calls bugs */
	{ { INSN(BPF_LDX | BPF_ABS | BPF_W, 0, 0, 0, 0) }, "BUG_ldx_21" },
	{ { INSN(BPF_ST | BPF_ABS | BPF_W, 0, 0, 0, 0) }, "BUG_st_22" },
	{ { INSN(BPF_STX | BPF_ATOMIC | BPF_DW, 1, 2, 0, 0x55) }, "BUG_db" },
};

Test(disasm, every_class_as_the_kernel_prints_it)
{
	char buf[128];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = hwxdp_disasm_insn(cases[i].insn, 2, buf, sizeof(buf));

		cr_expect_str_eq(buf, cases[i].text, "case %zu: got \"%s\"", i, buf);
		cr_expect_eq(n, (int)strlen(cases[i].text), "case %zu length %d", i, n);
	}
}

Test(disasm, snprintf_semantics)
{
	struct bpf_insn insn = INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);
	char buf[8];
	int n;

	n = hwxdp_disasm_insn(&insn, 1, buf, sizeof(buf));
	cr_assert_eq(n, (int)strlen("(85) call bpf_map_lookup_elem#1"));
	cr_assert_str_eq(buf, "(85) ca");
	cr_assert_eq(hwxdp_disasm_insn(&insn, 1, NULL, 0), n);
}

Test(disasm, ld_imm64_needs_its_second_half)
{
	struct bpf_insn insn = INSN(BPF_LD | BPF_IMM | BPF_DW, 1, 0, 0, 5);
	char buf[64];

	hwxdp_disasm_insn(&insn, 1, buf, sizeof(buf));
	cr_assert_str_eq(buf, "(18) r1 = <truncated ld_imm64>");
}

Test(disasm, helper_names_from_the_uapi_list)
{
	cr_assert_str_eq(hwxdp_helper_name(BPF_FUNC_map_lookup_elem), "bpf_map_lookup_elem");
	cr_assert_str_eq(hwxdp_helper_name(BPF_FUNC_xdp_adjust_head), "bpf_xdp_adjust_head");
	cr_assert_str_eq(hwxdp_helper_name(BPF_FUNC_fib_lookup), "bpf_fib_lookup");
	cr_assert_str_eq(hwxdp_helper_name(BPF_FUNC_user_ringbuf_drain), "bpf_user_ringbuf_drain");
	cr_assert_null(hwxdp_helper_name(__BPF_FUNC_MAX_ID));
	cr_assert_null(hwxdp_helper_name(-1));
	cr_assert_eq(hwxdp_helper_id("bpf_redirect_map"), BPF_FUNC_redirect_map);
	cr_assert_eq(hwxdp_helper_id("bpf_no_such_helper"), -ENOENT);
	for (int id = 1; id < __BPF_FUNC_MAX_ID; id++) {
		cr_assert_not_null(hwxdp_helper_name(id), "helper %d has no name", id);
		cr_assert_eq(hwxdp_helper_id(hwxdp_helper_name(id)), id);
	}
}
