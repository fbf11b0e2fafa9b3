// SPDX-License-Identifier: GPL-2.0
#include <criterion/criterion.h>

#include "tests/common/raw_prog.h"

void raw_emit(struct raw_prog *p, uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	cr_assert_lt(p->cnt, RAW_PROG_MAX);
	p->insns[p->cnt++] = (struct bpf_insn){
		.code = code, .dst_reg = dst, .src_reg = src, .off = off, .imm = imm
	};
}

void raw_prologue(struct raw_prog *p)
{
	raw_emit(p, BPF_LDX | BPF_MEM | BPF_W, 2, 1, offsetof(struct xdp_md, data), 0);
	raw_emit(p, BPF_LDX | BPF_MEM | BPF_W, 3, 1, offsetof(struct xdp_md, data_end), 0);
	raw_emit(p, BPF_ALU64 | BPF_MOV | BPF_X, 4, 2, 0, 0);
	raw_emit(p, BPF_ALU64 | BPF_ADD | BPF_K, 4, 0, 0, RAW_OUT_OFF + 8);
	raw_emit(p, BPF_JMP | BPF_JGT | BPF_X, 4, 3, 0, 0); /* to the drop: patched */
}

void raw_epilogue(struct raw_prog *p, uint8_t size)
{
	raw_emit(p, BPF_STX | BPF_MEM | size, 2, 0, RAW_OUT_OFF, 0);
	raw_emit(p, BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, XDP_PASS);
	raw_emit(p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	p->insns[4].off = (int16_t)(p->cnt - 5);
	raw_emit(p, BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, XDP_DROP);
	raw_emit(p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

void raw_assemble(struct raw_prog *p, uint8_t size, const int16_t *offs, const int *shift, int n,
		  bool alu32)
{
	uint8_t cls = alu32 ? BPF_ALU : BPF_ALU64;

	for (int i = 0; i < n; i++) {
		uint8_t dst = i ? 5 : 0;

		raw_emit(p, BPF_LDX | BPF_MEM | size, dst, 2, offs[i], 0);
		if (shift[i])
			raw_emit(p, cls | BPF_LSH | BPF_K, dst, 0, 0, shift[i]);
		if (i)
			raw_emit(p, cls | BPF_OR | BPF_X, 0, 5, 0, 0);
	}
}

void raw_next_permutation(int *a, int n)
{
	int i = n - 2, j = n - 1, t;

	while (i >= 0 && a[i] >= a[i + 1])
		i--;
	if (i < 0)
		return;
	while (a[j] <= a[i])
		j--;
	t = a[i], a[i] = a[j], a[j] = t;
	for (i++, j = n - 1; i < j; i++, j--)
		t = a[i], a[i] = a[j], a[j] = t;
}
