// SPDX-License-Identifier: GPL-2.0
/*
 * The instruction set, case by case (tests/conformance/cases, one file each; the
 * format in cases.h): each case's r0 is written down from the BPF
 * specification (RFC 9669), and the device and the kernel, through the same
 * wrapper, must both give it; a case marked as an error both must refuse.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "lab/conformance.h"
#include "tests/conformance/cases.h"
#include "verifier/disasm.h"

/* Enough cases that every instruction appears, most of them several times. */
#define CASES_MIN 60

static void run_all(enum hx_conformance_target target)
{
	struct hx_conformance_opts opts = { .sz = sizeof(opts), .target = target };
	const char *name = target == HX_CONFORMANCE_KERNEL ? "kernel" : "device";
	size_t cnt, failed = 0, refused = 0;
	char **paths = conf_case_paths(&cnt);

	cr_assert_not_null(paths, "no case files under %s", conf_path("cases"));
	cr_assert_geq(cnt, CASES_MIN, "only %zu cases", cnt);
	for (size_t i = 0; i < cnt; i++) {
		struct conf_case c;
		char err[768] = "";
		uint64_t r0 = 0;
		int ret;

		ret = conf_case_load(paths[i], &c, err, sizeof(err));
		cr_assert_eq(ret, 0, "%s", err);
		ret = hx_conformance_run(c.insns, c.cnt, c.mem, c.mem_len, &opts, &r0, err,
					 sizeof(err));
		if (c.want_error) {
			refused += ret != 0;
			if (ret != -EACCES) {
				failed++;
				cr_expect(false, "%s: %s: expected a refusal, got %s", c.name, name,
					  ret ? err : "r0");
			}
		} else if (ret) {
			failed++;
			cr_expect(false, "%s: %s: %s", c.name, name, err);
		} else if (r0 != c.result) {
			failed++;
			cr_expect(false, "%s: %s: r0 = %#llx, expected %#llx", c.name, name,
				  (unsigned long long)r0, (unsigned long long)c.result);
		}
		conf_case_free(&c);
	}
	fprintf(stderr, "conformance: %s: %zu cases, %zu failed, %zu refused as expected\n", name,
		cnt, failed, refused);
	conf_case_paths_free(paths);
}

Test(conformance, cases_on_device, .timeout = 120)
{
	run_all(HX_CONFORMANCE_DEVICE);
}

Test(conformance, cases_on_kernel, .timeout = 120)
{
	if (geteuid() != 0)
		cr_skip_test("the kernel target needs root (BPF_PROG_TEST_RUN)");
	run_all(HX_CONFORMANCE_KERNEL);
}

/* Every opcode of the instruction set, by class: the cases must use each. */
static bool required(uint8_t code, char *name, size_t len)
{
	uint8_t cls = BPF_CLASS(code), op = BPF_OP(code);

	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		if (op == BPF_END)
			return cls == BPF_ALU || BPF_SRC(code) == 0
				       ? snprintf(name, len, "end %#x", code) > 0
				       : false;
		if (op == BPF_NEG)
			return BPF_SRC(code) == 0 && snprintf(name, len, "neg %#x", code) > 0;
		return op <= BPF_ARSH && snprintf(name, len, "alu %#x", code) > 0;
	case BPF_JMP:
	case BPF_JMP32:
		if (op == BPF_JA)
			return BPF_SRC(code) == 0 && snprintf(name, len, "ja %#x", code) > 0;
		if (op == BPF_CALL || op == BPF_EXIT)
			return cls == BPF_JMP && BPF_SRC(code) == 0 &&
			       snprintf(name, len, "%#x", code) > 0;
		return op <= BPF_JSLE && op != 0xe0 && snprintf(name, len, "jmp %#x", code) > 0;
	case BPF_LD:
		return code == (BPF_LD | BPF_IMM | BPF_DW) && snprintf(name, len, "lddw") > 0;
	case BPF_LDX:
		return (BPF_MODE(code) == BPF_MEM ||
			(BPF_MODE(code) == BPF_MEMSX && BPF_SIZE(code) != BPF_DW)) &&
		       snprintf(name, len, "ldx %#x", code) > 0;
	case BPF_ST:
	case BPF_STX:
		return (BPF_MODE(code) == BPF_MEM ||
			(cls == BPF_STX && BPF_MODE(code) == BPF_ATOMIC &&
			 (BPF_SIZE(code) == BPF_W || BPF_SIZE(code) == BPF_DW))) &&
		       snprintf(name, len, "st %#x", code) > 0;
	}
	return false;
}

/* The variants an opcode hides in off or imm, each its own behaviour. */
static int variant(const struct bpf_insn *in)
{
	uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);

	if ((cls == BPF_ALU || cls == BPF_ALU64) &&
	    (op == BPF_DIV || op == BPF_MOD || op == BPF_MOV))
		return in->off; /* signed division; movsx 8, 16, 32 */
	if ((cls == BPF_ALU || cls == BPF_ALU64) && op == BPF_END)
		return in->imm; /* 16, 32, 64 */
	if (cls == BPF_STX && BPF_MODE(in->code) == BPF_ATOMIC)
		return in->imm; /* add, or, and, xor, fetch, xchg, cmpxchg */
	return 0;
}

Test(conformance, cases_cover_the_instruction_set)
{
	static uint8_t seen[256][0x100];
	size_t cnt, missing = 0, total = 0;
	char **paths = conf_case_paths(&cnt);

	cr_assert_not_null(paths);
	memset(seen, 0, sizeof(seen));
	for (size_t i = 0; i < cnt; i++) {
		struct conf_case c;
		char err[512];

		cr_assert_eq(conf_case_load(paths[i], &c, err, sizeof(err)), 0, "%s", err);
		for (size_t k = 0; k < c.cnt; k++)
			seen[c.insns[k].code][variant(&c.insns[k]) & 0xff] = 1;
		conf_case_free(&c);
	}
	conf_case_paths_free(paths);

	for (unsigned int code = 0; code < 256; code++) {
		uint8_t cls = BPF_CLASS(code), op = BPF_OP(code);
		static const int32_t atomics[] = {
			BPF_ADD,
			BPF_OR,
			BPF_AND,
			BPF_XOR,
			BPF_ADD | BPF_FETCH,
			BPF_OR | BPF_FETCH,
			BPF_AND | BPF_FETCH,
			BPF_XOR | BPF_FETCH,
			BPF_XCHG,
			BPF_CMPXCHG,
		};
		int variants[16], n = 0;
		char name[32];

		if (!required((uint8_t)code, name, sizeof(name)))
			continue;
		variants[n++] = 0;
		if ((cls == BPF_ALU || cls == BPF_ALU64) && (op == BPF_DIV || op == BPF_MOD))
			variants[n++] = 1;
		if ((cls == BPF_ALU || cls == BPF_ALU64) && op == BPF_MOV && BPF_SRC(code)) {
			variants[n++] = 8;
			variants[n++] = 16;
			if (cls == BPF_ALU64)
				variants[n++] = 32;
		}
		if ((cls == BPF_ALU || cls == BPF_ALU64) && op == BPF_END) {
			variants[0] = 16;
			variants[n++] = 32;
			variants[n++] = 64;
		}
		if (cls == BPF_STX && BPF_MODE(code) == BPF_ATOMIC) {
			n = 0;
			for (size_t a = 0; a < sizeof(atomics) / sizeof(atomics[0]); a++)
				variants[n++] = atomics[a];
		}
		for (int v = 0; v < n; v++) {
			total++;
			if (seen[code][variants[v] & 0xff])
				continue;
			missing++;
			cr_expect(false, "no case uses %s (variant %d)", name, variants[v]);
		}
	}
	fprintf(stderr, "conformance: the cases use %zu of %zu instruction variants\n",
		total - missing, total);
	cr_assert_gt(total, 100);
}
