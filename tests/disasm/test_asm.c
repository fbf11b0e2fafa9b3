// SPDX-License-Identifier: GPL-2.0
/* The assembler: round trips through the disassembler, labels, comments, errors. */
#include <bpf/libbpf.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "insn_set.h"
#include "verifier/asm.h"
#include "verifier/disasm.h"

/* Names the first instruction where a and b differ, by its text. */
static void assert_same_insns(const struct bpf_insn *a, size_t a_cnt, const struct bpf_insn *b,
			      size_t b_cnt, const char *what)
{
	char ta[128], tb[128];
	size_t i;

	for (i = 0; i < a_cnt && i < b_cnt; i++) {
		if (!memcmp(&a[i], &b[i], sizeof(a[i])))
			continue;
		hwxdp_disasm_insn(&a[i], a_cnt - i, ta, sizeof(ta));
		hwxdp_disasm_insn(&b[i], b_cnt - i, tb, sizeof(tb));
		cr_assert_fail("%s: insn %zu differs: \"%s\" (%02x %x/%x %d %d) became \"%s\" "
			       "(%02x %x/%x %d %d)", what, i, ta, a[i].code, a[i].dst_reg,
			       a[i].src_reg, a[i].off, a[i].imm, tb, b[i].code, b[i].dst_reg,
			       b[i].src_reg, b[i].off, b[i].imm);
	}
	cr_assert_eq(a_cnt, b_cnt, "%s: %zu instructions became %zu", what, a_cnt, b_cnt);
}

/* disasm -> asm -> the same bytes, with and without indexes. */
static void assert_round_trip(const struct bpf_insn *insns, size_t cnt, const char *what)
{
	struct bpf_insn *back;
	char err[256];
	size_t back_cnt;
	int index;

	for (index = 0; index < 2; index++) {
		char *text = insn_set_disasm(insns, cnt, index);
		int ret = hwxdp_asm(text, &back, &back_cnt, err, sizeof(err));

		cr_assert_eq(ret, 0, "%s: %s", what, err);
		assert_same_insns(insns, cnt, back, back_cnt, what);
		free(back);
		free(text);
	}
}

Test(asm, round_trip_every_encoding_form)
{
	size_t cnt;
	struct bpf_insn *insns = insn_set_generate(40, 1, &cnt);

	cr_assert_gt(cnt, 5000);
	assert_round_trip(insns, cnt, "generated");
	free(insns);
}

Test(asm, round_trip_without_opcode_prefix)
{
	struct bpf_insn *insns, *back;
	size_t cnt, back_cnt;
	char err[256], *text, *p, *q;

	insns = insn_set_generate(10, 2, &cnt);
	text = insn_set_disasm(insns, cnt, 0);
	/* "(xx) " dropped from every line */
	for (p = q = text; *p;) {
		if ((p == text || p[-1] == '\n') && *p == '(')
			p += 5;
		else
			*q++ = *p++;
	}
	*q = 0;
	cr_assert_eq(hwxdp_asm(text, &back, &back_cnt, err, sizeof(err)), 0, "%s", err);
	assert_same_insns(insns, cnt, back, back_cnt, "unprefixed");
	free(back);
	free(text);
	free(insns);
}

Test(asm, round_trip_fwd_object)
{
	const char *path = insn_set_object_path("fwd");
	struct bpf_program *prog;
	struct bpf_object *obj;
	size_t total = 0;

	obj = bpf_object__open_file(path, NULL);
	cr_assert_not_null(obj, "cannot open %s (built by make): %s", path, strerror(errno));
	bpf_object__for_each_program(prog, obj) {
		assert_round_trip(bpf_program__insns(prog), bpf_program__insn_cnt(prog),
				  bpf_program__name(prog));
		total += bpf_program__insn_cnt(prog);
	}
	cr_assert_gt(total, 100, "only %zu instructions in %s", total, path);
	bpf_object__close(obj);
}

static struct bpf_insn *assemble(const char *text, size_t *cnt)
{
	struct bpf_insn *insns = NULL;
	char err[256];

	cr_assert_eq(hwxdp_asm(text, &insns, cnt, err, sizeof(err)), 0, "%s", err);
	return insns;
}

Test(asm, labels_comments_and_log_lines)
{
	static const char text[] =
		"# a test program\n"
		"start:\n"
		"\tr0 = 0 ; zero\n"
		"\tif r0 > r1 goto out\n"
		"loop:\tw0 += 1\n"
		"\tif w0 < 10 goto loop\n"
		"\tcall sub   # BPF-to-BPF\n"
		"\tr1 = func[sub]\n"
		"\tgotol start\n"
		"\n"
		"12: (85) call bpf_map_lookup_elem#1        ; R0_w=map_value_or_null(id=1)\n"
		"\tcall bpf_ktime_get_ns\n"
		"\tcall bpf_xdp_adj_foo#77777\n"
		"\tmay_goto out\n"
		"out: exit\n"
		"sub:\n"
		"\tr0 = 0x1\n"
		"\tr0 = 1\n"
		"\texit\n";
	size_t cnt;
	struct bpf_insn *i = assemble(text, &cnt);

	cr_assert_eq(cnt, 17);
	cr_assert_eq(i[0].code, BPF_ALU64 | BPF_MOV | BPF_K);
	cr_assert_eq(i[1].code, BPF_JMP | BPF_JGT | BPF_X);
	cr_assert_eq(i[1].off, 10, "forward label: off %d", i[1].off); /* out is insn 12 */
	cr_assert_eq(i[3].code, BPF_JMP32 | BPF_JLT | BPF_K);
	cr_assert_eq(i[3].off, -2);
	cr_assert_eq(i[4].src_reg, BPF_PSEUDO_CALL);
	cr_assert_eq(i[4].imm, 8);
	cr_assert_eq(i[5].code, BPF_LD | BPF_IMM | BPF_DW);
	cr_assert_eq(i[5].src_reg, BPF_PSEUDO_FUNC);
	cr_assert_eq(i[5].imm, 7);
	cr_assert_eq(i[7].code, BPF_JMP32 | BPF_JA);
	cr_assert_eq(i[7].imm, -8);
	cr_assert_eq(i[8].imm, BPF_FUNC_map_lookup_elem);
	cr_assert_eq(i[9].imm, BPF_FUNC_ktime_get_ns);
	cr_assert_eq(i[10].src_reg, BPF_PSEUDO_KFUNC_CALL, "unknown name is a kfunc");
	cr_assert_eq(i[10].imm, 77777);
	cr_assert_eq(i[11].code, BPF_JMP | BPF_JCOND);
	cr_assert_eq(i[11].off, 0);
	cr_assert_eq(i[13].code, BPF_LD | BPF_IMM | BPF_DW, "hex is ld_imm64");
	cr_assert_eq(i[15].code, BPF_ALU64 | BPF_MOV | BPF_K, "decimal is mov");
	free(i);
}

Test(asm, opcode_prefix_forces_ld_imm64_and_is_checked)
{
	char err[256];
	struct bpf_insn *insns;
	size_t cnt;

	insns = assemble("(18) r1 = 5\n(b7) r1 = 0x5\nr2 = 0x7fffffff0\nr3 = -1\n", &cnt);
	cr_assert_eq(cnt, 6);
	cr_assert_eq(insns[0].code, BPF_LD | BPF_IMM | BPF_DW);
	cr_assert_eq(insns[2].code, BPF_ALU64 | BPF_MOV | BPF_K);
	cr_assert_eq(insns[3].code, BPF_LD | BPF_IMM | BPF_DW);
	cr_assert_eq(insns[4].imm, 7);
	cr_assert_eq(insns[5].code, BPF_ALU64 | BPF_MOV | BPF_K);
	cr_assert_eq(insns[5].imm, -1);
	free(insns);
	cr_assert_eq(hwxdp_asm("r0 = 0\n(07) r1 = r2\n", &insns, &cnt, err, sizeof(err)), -EINVAL);
	cr_assert_str_eq(err, "line 2: opcode (07) does not match the instruction, which is (bf)");
}

static void assert_error(const char *text, const char *message)
{
	struct bpf_insn *insns = (struct bpf_insn *)0x1;
	size_t cnt = 12345;
	char err[256];

	cr_assert_eq(hwxdp_asm(text, &insns, &cnt, err, sizeof(err)), -EINVAL, "accepted: %s",
		     text);
	cr_assert_str_eq(err, message, "for: %s", text);
	cr_assert_eq(insns, (struct bpf_insn *)0x1, "output touched on failure");
	cr_assert_eq(cnt, 12345);
}

Test(asm, errors_name_the_line)
{
	assert_error("r0 = 0\nr11 = 1\n", "line 2: bad register 'r11'");
	assert_error("r0 = r11\n", "line 1: bad register 'r11'");
	assert_error("r0 = 0\n\n  frob r1\n", "line 3: unknown instruction 'frob'");
	assert_error("r0 = *(u24 *)(r1 +0)\n", "line 1: bad size 'u24'");
	assert_error("*(s8 *)(r1 +0) = r2\n", "line 1: bad size 's8'");
	assert_error("exit\ngoto nowhere\nexit\n", "line 2: unknown label 'nowhere'");
	assert_error("if r1 == 0x0 goto nowhere\n", "line 1: unknown label 'nowhere'");
	assert_error("r0 += 0x100000000\n", "line 1: immediate 0x100000000 out of range");
	assert_error("w0 = -2147483649\n", "line 1: immediate -0x80000001 out of range");
	assert_error("r0 = *(u8 *)(r1 +32768)\n", "line 1: offset 0x8000 out of range");
	assert_error("goto pc+40000\n", "line 1: jump offset 0x9c40 out of range");
	assert_error("r0 = 0xfffffffffffffffff\n",
		     "line 1: number '0xfffffffffffffffff' out of range");
	assert_error("w0 += r1\n", "line 1: r and w registers mixed");
	assert_error("w0 = be16 w0\n", "line 1: this instruction takes r registers, not w");
	assert_error("r0 = 12abc\n", "line 1: bad number '12abc'");
	assert_error("goto\n", "line 1: incomplete instruction 'goto'");
	assert_error("x: exit\nx: exit\n", "line 2: label 'x' defined twice");
	assert_error("lock *(u8 *)(r1 +0) += r2\n", "line 1: atomic operations are u32 or u64");
	assert_error("r0 = be24 r0\n", "line 1: byte swap size must be 16, 32 or 64");
	assert_error("r0 = 1 2\n", "line 1: unexpected '2'");
	assert_error("call bpf_map_lookup_elem#2\n",
		     "line 1: bpf_map_lookup_elem is helper #1, not #2");
	assert_error("if r1 =< r2 goto pc+1\n", "line 1: unexpected '=< r2 goto pc+1'");
	assert_error("r1 = atomic64_xchg((u64 *)(r2 +0), r3)\n", "line 1: unexpected 'r3)'");
	assert_error("r1 = be16 r2\n", "line 1: unexpected 'r2'");
}

Test(asm, error_buffer_may_be_small_or_absent)
{
	struct bpf_insn *insns;
	size_t cnt;
	char err[8];

	cr_assert_eq(hwxdp_asm("r12 = 0", &insns, &cnt, err, sizeof(err)), -EINVAL);
	cr_assert_str_eq(err, "line 1:");
	cr_assert_eq(hwxdp_asm("r12 = 0", &insns, &cnt, NULL, 0), -EINVAL);
}

Test(asm, empty_text_is_no_instruction)
{
	struct bpf_insn *insns = NULL;
	size_t cnt = 1;
	char err[64];

	cr_assert_eq(hwxdp_asm("; nothing\n\n# at all\n", &insns, &cnt, err, sizeof(err)), 0);
	cr_assert_eq(cnt, 0);
	free(insns);
}
