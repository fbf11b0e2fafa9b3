// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's verifier log format (kernel/bpf/disasm.c) reproduced from its
 * observable output: same spellings, same number formats ("%d" for ALU and
 * store immediates, "0x%x" for jump immediates, "%+d" for offsets), same
 * "BUG_..." text for encodings the kernel does not know.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "loader/kfuncs.h"
#include "verifier/disasm.h"

/* The names come from the UAPI header's own list, so they follow it. */
#define HELPER_NAME(name) [BPF_FUNC_##name] = "bpf_" #name
static const char *const helper_names[__BPF_FUNC_MAX_ID] = { __BPF_FUNC_MAPPER(HELPER_NAME) };
#undef HELPER_NAME

const char *hwxdp_helper_name(int func_id)
{
	if (func_id < 0 || func_id >= __BPF_FUNC_MAX_ID)
		return NULL;
	return helper_names[func_id];
}

int hwxdp_helper_id(const char *name)
{
	int id;

	for (id = 1; id < __BPF_FUNC_MAX_ID; id++)
		if (helper_names[id] && !strcmp(helper_names[id], name))
			return id;
	return -ENOENT;
}

static const char *const alu_ops[16] = {
	[BPF_ADD >> 4] = "+=",	  [BPF_SUB >> 4] = "-=",     [BPF_MUL >> 4] = "*=",
	[BPF_DIV >> 4] = "/=",	  [BPF_OR >> 4] = "|=",	     [BPF_AND >> 4] = "&=",
	[BPF_LSH >> 4] = "<<=",	  [BPF_RSH >> 4] = ">>=",    [BPF_NEG >> 4] = "neg",
	[BPF_MOD >> 4] = "%=",	  [BPF_XOR >> 4] = "^=",     [BPF_MOV >> 4] = "=",
	[BPF_ARSH >> 4] = "s>>=", [BPF_END >> 4] = "endian",
};

static const char *const jmp_ops[16] = {
	[BPF_JA >> 4] = "jmp",	  [BPF_JEQ >> 4] = "==",   [BPF_JGT >> 4] = ">",
	[BPF_JGE >> 4] = ">=",	  [BPF_JSET >> 4] = "&",   [BPF_JNE >> 4] = "!=",
	[BPF_JSGT >> 4] = "s>",	  [BPF_JSGE >> 4] = "s>=", [BPF_CALL >> 4] = "call",
	[BPF_EXIT >> 4] = "exit", [BPF_JLT >> 4] = "<",	   [BPF_JLE >> 4] = "<=",
	[BPF_JSLT >> 4] = "s<",	  [BPF_JSLE >> 4] = "s<=",
};

static const char *const mem_sizes[4] = { [BPF_W >> 3] = "u32",
					  [BPF_H >> 3] = "u16",
					  [BPF_B >> 3] = "u8",
					  [BPF_DW >> 3] = "u64" };

static const char *const memsx_sizes[4] = { [BPF_W >> 3] = "s32",
					    [BPF_H >> 3] = "s16",
					    [BPF_B >> 3] = "s8",
					    [BPF_DW >> 3] = "s64" };

static const char *const atomic_names[16] = {
	[BPF_ADD >> 4] = "add",
	[BPF_AND >> 4] = "and",
	[BPF_OR >> 4] = "or",
	[BPF_XOR >> 4] = "xor",
};

/* A NULL string printed as glibc and the kernel's vsnprintf both do. */
static const char *str(const char *s)
{
	return s ? s : "(null)";
}

__attribute__((format(printf, 3, 4))) static int out(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n;
}

static int disasm_alu(const struct bpf_insn *insn, char *buf, size_t len)
{
	uint8_t op = BPF_OP(insn->code);
	char r = BPF_CLASS(insn->code) == BPF_ALU ? 'w' : 'r';
	bool signed_div = (op == BPF_DIV || op == BPF_MOD) && insn->off == 1;
	const char *name = alu_ops[op >> 4];
	const char *cast = "";

	if (op == BPF_END) {
		if (BPF_CLASS(insn->code) == BPF_ALU64)
			return out(buf, len, "(%02x) r%d = bswap%d r%d", insn->code, insn->dst_reg,
				   insn->imm, insn->dst_reg);
		return out(buf, len, "(%02x) r%d = %s%d r%d", insn->code, insn->dst_reg,
			   BPF_SRC(insn->code) == BPF_TO_BE ? "be" : "le", insn->imm,
			   insn->dst_reg);
	}
	if (op == BPF_NEG)
		return out(buf, len, "(%02x) %c%d = -%c%d", insn->code, r, insn->dst_reg, r,
			   insn->dst_reg);
	if (insn->code == (BPF_ALU64 | BPF_MOV | BPF_X) && insn->off == BPF_ADDR_SPACE_CAST)
		return out(buf, len, "(%02x) r%d = addr_space_cast(r%d, %u, %u)", insn->code,
			   insn->dst_reg, insn->src_reg, (uint32_t)insn->imm >> 16,
			   (uint16_t)insn->imm);
	if (insn->code == (BPF_ALU64 | BPF_MOV | BPF_X) && insn->off == HWXDP_BPF_ADDR_PERCPU)
		return out(buf, len, "(%02x) r%d = &(void __percpu *)(r%d)", insn->code,
			   insn->dst_reg, insn->src_reg);
	if (signed_div)
		name = op == BPF_DIV ? "s/=" : "s%=";
	if (BPF_SRC(insn->code) == BPF_X) {
		if (op == BPF_MOV && insn->off == 8)
			cast = "(s8)";
		else if (op == BPF_MOV && insn->off == 16)
			cast = "(s16)";
		else if (op == BPF_MOV && insn->off == 32)
			cast = "(s32)";
		return out(buf, len, "(%02x) %c%d %s %s%c%d", insn->code, r, insn->dst_reg,
			   str(name), cast, r, insn->src_reg);
	}
	return out(buf, len, "(%02x) %c%d %s %d", insn->code, r, insn->dst_reg, str(name),
		   insn->imm);
}

static int disasm_atomic(const struct bpf_insn *insn, char *buf, size_t len)
{
	const char *size = mem_sizes[BPF_SIZE(insn->code) >> 3];
	const char *bits = BPF_SIZE(insn->code) == BPF_DW ? "64" : "";
	int imm = insn->imm;
	int op = imm & ~BPF_FETCH;

	if (imm == BPF_ADD || imm == BPF_AND || imm == BPF_OR || imm == BPF_XOR)
		return out(buf, len, "(%02x) lock *(%s *)(r%d %+d) %s r%d", insn->code, size,
			   insn->dst_reg, insn->off, alu_ops[imm >> 4], insn->src_reg);
	if ((imm & BPF_FETCH) && (op == BPF_ADD || op == BPF_AND || op == BPF_OR || op == BPF_XOR))
		return out(buf, len, "(%02x) r%d = atomic%s_fetch_%s((%s *)(r%d %+d), r%d)",
			   insn->code, insn->src_reg, bits, atomic_names[op >> 4], size,
			   insn->dst_reg, insn->off, insn->src_reg);
	if (imm == BPF_CMPXCHG)
		return out(buf, len, "(%02x) r0 = atomic%s_cmpxchg((%s *)(r%d %+d), r0, r%d)",
			   insn->code, bits, size, insn->dst_reg, insn->off, insn->src_reg);
	if (imm == BPF_XCHG)
		return out(buf, len, "(%02x) r%d = atomic%s_xchg((%s *)(r%d %+d), r%d)", insn->code,
			   insn->src_reg, bits, size, insn->dst_reg, insn->off, insn->src_reg);
	if (imm == BPF_LOAD_ACQ)
		return out(buf, len, "(%02x) r%d = load_acquire((%s *)(r%d %+d))", insn->code,
			   insn->dst_reg, size, insn->src_reg, insn->off);
	if (imm == BPF_STORE_REL)
		return out(buf, len, "(%02x) store_release((%s *)(r%d %+d), r%d)", insn->code, size,
			   insn->dst_reg, insn->off, insn->src_reg);
	return out(buf, len, "BUG_%02x", insn->code);
}

static int disasm_ld_imm64(const struct bpf_insn *insn, size_t remaining, char *buf, size_t len)
{
	uint64_t imm;
	int next;

	if (remaining < 2)
		return out(buf, len, "(%02x) r%d = <truncated ld_imm64>", insn->code,
			   insn->dst_reg);
	next = insn[1].imm;
	imm = (uint64_t)(uint32_t)next << 32 | (uint32_t)insn->imm;
	switch (insn->src_reg) {
	case BPF_PSEUDO_MAP_FD:
		return out(buf, len, "(%02x) r%d = map[idx:%d]", insn->code, insn->dst_reg,
			   insn->imm);
	case BPF_PSEUDO_MAP_VALUE:
		return out(buf, len, "(%02x) r%d = map[idx:%d][0]%+d", insn->code, insn->dst_reg,
			   insn->imm, next);
	case BPF_PSEUDO_MAP_IDX:
		return out(buf, len, "(%02x) r%d = map[fd_array:%d]", insn->code, insn->dst_reg,
			   insn->imm);
	case BPF_PSEUDO_MAP_IDX_VALUE:
		return out(buf, len, "(%02x) r%d = map[fd_array:%d][0]%+d", insn->code,
			   insn->dst_reg, insn->imm, next);
	case BPF_PSEUDO_BTF_ID:
		if (next)
			return out(buf, len, "(%02x) r%d = ksym[btf_id:%d,btf_fd:%d]", insn->code,
				   insn->dst_reg, insn->imm, next);
		return out(buf, len, "(%02x) r%d = ksym[btf_id:%d]", insn->code, insn->dst_reg,
			   insn->imm);
	case BPF_PSEUDO_FUNC:
		return out(buf, len, "(%02x) r%d = func[pc%+d]", insn->code, insn->dst_reg,
			   insn->imm);
	}
	return out(buf, len, "(%02x) r%d = 0x%llx", insn->code, insn->dst_reg,
		   (unsigned long long)imm);
}

static int disasm_jmp(const struct bpf_insn *insn, char *buf, size_t len)
{
	char r = BPF_CLASS(insn->code) == BPF_JMP32 ? 'w' : 'r';
	uint8_t op = BPF_OP(insn->code);
	const char *name;

	if (op == BPF_CALL) {
		if (insn->src_reg == BPF_PSEUDO_CALL)
			return out(buf, len, "(%02x) call pc%+d", insn->code, insn->imm);
		name = !insn->src_reg				? hwxdp_helper_name(insn->imm)
		       : insn->src_reg == BPF_PSEUDO_KFUNC_CALL ? hwxdp_kfunc__name(insn->imm)
								: NULL;
		if (!name)
			name = insn->src_reg == BPF_PSEUDO_KFUNC_CALL ? "kernel-function"
								      : "unknown";
		return out(buf, len, "(%02x) call %s#%d", insn->code, name, insn->imm);
	}
	if (insn->code == (BPF_JMP | BPF_JA))
		return out(buf, len, "(%02x) goto pc%+d", insn->code, insn->off);
	if (insn->code == (BPF_JMP | BPF_JCOND) && insn->src_reg == BPF_MAY_GOTO)
		return out(buf, len, "(%02x) may_goto pc%+d", insn->code, insn->off);
	if (insn->code == (BPF_JMP32 | BPF_JA))
		return out(buf, len, "(%02x) gotol pc%+d", insn->code, insn->imm);
	if (insn->code == (BPF_JMP | BPF_EXIT))
		return out(buf, len, "(%02x) exit", insn->code);
	if (BPF_SRC(insn->code) == BPF_X)
		return out(buf, len, "(%02x) if %c%d %s %c%d goto pc%+d", insn->code, r,
			   insn->dst_reg, str(jmp_ops[op >> 4]), r, insn->src_reg, insn->off);
	return out(buf, len, "(%02x) if %c%d %s 0x%x goto pc%+d", insn->code, r, insn->dst_reg,
		   str(jmp_ops[op >> 4]), (uint32_t)insn->imm, insn->off);
}

int hwxdp_disasm_insn(const struct bpf_insn *insn, size_t remaining, char *buf, size_t len)
{
	uint8_t class = BPF_CLASS(insn->code);
	uint8_t mode = BPF_MODE(insn->code);
	const char *size = mem_sizes[BPF_SIZE(insn->code) >> 3];

	switch (class) {
	case BPF_ALU:
	case BPF_ALU64:
		return disasm_alu(insn, buf, len);
	case BPF_JMP:
	case BPF_JMP32:
		return disasm_jmp(insn, buf, len);
	case BPF_STX:
		if (mode == BPF_MEM)
			return out(buf, len, "(%02x) *(%s *)(r%d %+d) = r%d", insn->code, size,
				   insn->dst_reg, insn->off, insn->src_reg);
		if (mode == BPF_ATOMIC)
			return disasm_atomic(insn, buf, len);
		return out(buf, len, "BUG_%02x", insn->code);
	case BPF_ST:
		if (mode == BPF_MEM)
			return out(buf, len, "(%02x) *(%s *)(r%d %+d) = %d", insn->code, size,
				   insn->dst_reg, insn->off, insn->imm);
		if (mode == HWXDP_BPF_NOSPEC)
			return out(buf, len, "(%02x) nospec", insn->code);
		return out(buf, len, "BUG_st_%02x", insn->code);
	case BPF_LDX:
		if (mode != BPF_MEM && mode != BPF_MEMSX)
			return out(buf, len, "BUG_ldx_%02x", insn->code);
		return out(buf, len, "(%02x) r%d = *(%s *)(r%d %+d)", insn->code, insn->dst_reg,
			   mode == BPF_MEM ? size : memsx_sizes[BPF_SIZE(insn->code) >> 3],
			   insn->src_reg, insn->off);
	case BPF_LD:
		if (mode == BPF_ABS)
			return out(buf, len, "(%02x) r0 = *(%s *)skb[%d]", insn->code, size,
				   insn->imm);
		if (mode == BPF_IND)
			return out(buf, len, "(%02x) r0 = *(%s *)skb[r%d + %d]", insn->code, size,
				   insn->src_reg, insn->imm);
		if (mode == BPF_IMM && BPF_SIZE(insn->code) == BPF_DW)
			return disasm_ld_imm64(insn, remaining, buf, len);
		return out(buf, len, "BUG_ld_%02x", insn->code);
	}
	return out(buf, len, "BUG_%02x", insn->code); /* no class is left: not reached */
}
