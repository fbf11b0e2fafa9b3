// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel as the oracle for ALU semantics: for every operation, in both
 * widths and with a register or an immediate source, about 10,000 operand
 * pairs go through a BPF program in the kernel (BPF_PROG_TEST_RUN) and
 * through the equivalent microcode; the packets that come back, which hold
 * every 64-bit result, must be identical. Needs root.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "tests/device/engine_util.h"

#define PAIRS	     10000
#define REG_BATCH    200 /* 16 bytes each: 3200-byte packets */
#define IMM_BATCH    400 /* 8 bytes each */
#define PACKET_BYTES 3200

struct alu_case {
	const char *hxu; /* HXU mnemonic */
	const char *bpf; /* BPF operator */
	bool shift, div; /* immediates the kernel refuses: >= width, 0 */
};

static const struct alu_case cases[] = {
	{ "add", "+=" },
	{ "sub", "-=" },
	{ "mul", "*=" },
	{ "div", "/=", false, true },
	{ "mod", "%=", false, true },
	{ "sdiv", "s/=", false, true },
	{ "smod", "s%=", false, true },
	{ "and", "&=" },
	{ "or", "|=" },
	{ "xor", "^=" },
	{ "lsh", "<<=", true },
	{ "rsh", ">>=", true },
	{ "arsh", "s>>=", true },
	{ "mov", "=" },
};

static uint64_t operand(uint64_t *rng)
{
	static const uint64_t special[] = {
		0,
		1,
		2,
		3,
		~0ull,
		~1ull,
		0x7fffffff,
		0x80000000,
		0xffffffff,
		0x100000000ull,
		INT64_MAX,
		(uint64_t)INT64_MIN,
		0x8000000000000001ull,
		31,
		32,
		63,
		64,
		0xffffffff80000000ull,
		0xffffffff7fffffffull,
		0x7fffffff80000000ull,
	};
	uint64_t r = hxe_rng(rng);

	switch (r & 7) {
	case 0:
	case 1:
		return special[(r >> 8) % (sizeof(special) / sizeof(special[0]))];
	case 2:
		return (uint64_t)(int64_t)(int8_t)(r >> 8);
	case 3:
		return (uint32_t)(r >> 16);
	case 4:
		return (uint64_t)(int64_t)(int32_t)(r >> 16);
	default:
		return hxe_rng(rng);
	}
}

static int32_t immediate(uint64_t *rng, const struct alu_case *c, bool w32)
{
	int32_t imm;

	if (c->shift)
		return (int32_t)(hxe_rng(rng) % (w32 ? 32 : 64));
	do {
		imm = (int32_t)operand(rng);
	} while (c->div && imm == 0);
	return imm;
}

/* Runs the same packet through the kernel program and the microcode, and
 * compares what comes back. */
static void compare(int fd, const char *hxu_text, uint8_t *pkt, size_t len, const char *what,
		    size_t stride)
{
	static uint8_t out[PACKET_BYTES + 64];
	size_t out_len = sizeof(out);
	uint32_t retval = hxe_kernel_run(fd, pkt, len, out, &out_len);
	struct hxe *x = hxe_new(hxu_text, NULL, 0, NULL);

	cr_assert_eq(retval, XDP_PASS);
	cr_assert_eq(out_len, len);
	cr_assert_eq(hxe_run(x, 0, pkt, len), 0, "%s: engine aborted at op %u", what,
		     x->frame.fault_op);
	cr_assert_eq(x->frame.verdict, XDP_PASS);
	for (size_t i = 0; i < len; i += stride) {
		uint64_t k, h, a, b = 0;

		memcpy(&k, out + i, 8);
		memcpy(&h, hxe_data(x) + i, 8);
		memcpy(&a, pkt + i, 8);
		if (stride == 16)
			memcpy(&b, pkt + i + 8, 8);
		cr_assert_eq(h, k, "%s, pair %zu: a 0x%llx, b 0x%llx: kernel 0x%llx, device 0x%llx",
			     what, i / stride, (unsigned long long)a, (unsigned long long)b,
			     (unsigned long long)k, (unsigned long long)h);
	}
	hxe_free(x);
}

static void reg_form(const struct alu_case *c, bool w32, uint64_t *rng)
{
	struct strbuf bpf = { 0 }, hxu = { 0 };
	static uint8_t pkt[PACKET_BYTES];
	char what[64];
	int fd;

	sb_printf(&bpf,
		  "r6 = *(u32 *)(r1 +0)\nr7 = *(u32 *)(r1 +4)\nr8 = r6\nr8 += %d\n"
		  "if r8 > r7 goto out\n",
		  PACKET_BYTES);
	sb_printf(&hxu, "ctx r6, data ;;\n");
	for (int i = 0; i < REG_BATCH; i++) {
		sb_printf(&bpf, "r2 = *(u64 *)(r6 +%d)\nr3 = *(u64 *)(r6 +%d)\n", i * 16,
			  i * 16 + 8);
		sb_printf(&bpf, "%c2 %s %c3\n*(u64 *)(r6 +%d) = r2\n", w32 ? 'w' : 'r', c->bpf,
			  w32 ? 'w' : 'r', i * 16);
		/* Both loads in one bundle: they are independent. */
		sb_printf(&hxu, "ld64.pkt r2, [r6 + %d]\nld64.pkt r3, [r6 + %d] ;;\n", i * 16,
			  i * 16 + 8);
		if (!strcmp(c->hxu, "mov"))
			sb_printf(&hxu, "mov%s r2, r3 ;;\n", w32 ? ".w" : "");
		else
			sb_printf(&hxu, "%s%s r2, r2, r3 ;;\n", c->hxu, w32 ? ".w" : "");
		sb_printf(&hxu, "st64.pkt [r6 + %d], r2 ;;\n", i * 16);
	}
	sb_printf(&bpf, "out:\nr0 = 2\nexit\n");
	sb_printf(&hxu, "mov r0, 2 ;;\nexit ;;\n");
	fd = hxe_kernel_load(bpf.s);
	snprintf(what, sizeof(what), "%s%s rd, rs, rt", c->hxu, w32 ? ".w" : "");
	for (int done = 0; done < PAIRS; done += REG_BATCH) {
		for (int i = 0; i < REG_BATCH; i++) {
			uint64_t a = operand(rng), b = operand(rng);

			memcpy(pkt + i * 16, &a, 8);
			memcpy(pkt + i * 16 + 8, &b, 8);
		}
		compare(fd, hxu.s, pkt, PACKET_BYTES, what, 16);
	}
	close(fd);
	sb_free(&bpf);
	sb_free(&hxu);
}

static void imm_form(const struct alu_case *c, bool w32, uint64_t *rng)
{
	static uint8_t pkt[PACKET_BYTES];
	char what[64];

	snprintf(what, sizeof(what), "%s%s rd, rs, imm", c->hxu, w32 ? ".w" : "");
	for (int done = 0; done < PAIRS; done += IMM_BATCH) {
		struct strbuf bpf = { 0 }, hxu = { 0 };
		int fd;

		sb_printf(&bpf,
			  "r6 = *(u32 *)(r1 +0)\nr7 = *(u32 *)(r1 +4)\nr8 = r6\nr8 += %d\n"
			  "if r8 > r7 goto out\n",
			  PACKET_BYTES);
		sb_printf(&hxu, "ctx r6, data ;;\n");
		for (int i = 0; i < IMM_BATCH; i++) {
			int32_t imm = immediate(rng, c, w32);
			uint64_t a = operand(rng);

			memcpy(pkt + i * 8, &a, 8);
			sb_printf(&bpf, "r2 = *(u64 *)(r6 +%d)\n%c2 %s %d\n*(u64 *)(r6 +%d) = r2\n",
				  i * 8, w32 ? 'w' : 'r', c->bpf, imm, i * 8);
			sb_printf(&hxu, "ld64.pkt r2, [r6 + %d] ;;\n", i * 8);
			if (!strcmp(c->hxu, "mov"))
				sb_printf(&hxu, "mov%s r2, %d ;;\n", w32 ? ".w" : "", imm);
			else
				sb_printf(&hxu, "%s%s r2, r2, %d ;;\n", c->hxu, w32 ? ".w" : "",
					  imm);
			sb_printf(&hxu, "st64.pkt [r6 + %d], r2 ;;\n", i * 8);
		}
		sb_printf(&bpf, "out:\nr0 = 2\nexit\n");
		sb_printf(&hxu, "mov r0, 2 ;;\nexit ;;\n");
		fd = hxe_kernel_load(bpf.s);
		compare(fd, hxu.s, pkt, PACKET_BYTES, what, 8);
		close(fd);
		sb_free(&bpf);
		sb_free(&hxu);
	}
}

static void differential(const char *name)
{
	uint64_t rng = 0x5eed0000 ^ (uint64_t)strlen(name) << 32 ^ (uint64_t)name[0];

	hxe_have_kernel();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (strcmp(cases[i].hxu, name))
			continue;
		for (int w32 = 0; w32 < 2; w32++) {
			reg_form(&cases[i], w32, &rng);
			imm_form(&cases[i], w32, &rng);
		}
		return;
	}
	cr_assert_fail("no case %s", name);
}

Test(alu_kernel, add, .timeout = 120)
{
	differential("add");
}
Test(alu_kernel, sub, .timeout = 120)
{
	differential("sub");
}
Test(alu_kernel, mul, .timeout = 120)
{
	differential("mul");
}
Test(alu_kernel, div, .timeout = 120)
{
	differential("div");
}
Test(alu_kernel, mod, .timeout = 120)
{
	differential("mod");
}
Test(alu_kernel, sdiv, .timeout = 120)
{
	differential("sdiv");
}
Test(alu_kernel, smod, .timeout = 120)
{
	differential("smod");
}
Test(alu_kernel, and, .timeout = 120)
{
	differential("and");
}
Test(alu_kernel, or, .timeout = 120)
{
	differential("or");
}
Test(alu_kernel, xor, .timeout = 120)
{
	differential("xor");
}
Test(alu_kernel, lsh, .timeout = 120)
{
	differential("lsh");
}
Test(alu_kernel, rsh, .timeout = 120)
{
	differential("rsh");
}
Test(alu_kernel, arsh, .timeout = 120)
{
	differential("arsh");
}
Test(alu_kernel, mov, .timeout = 120)
{
	differential("mov");
}

/* One-operand operations: BPF's form, the microcode's. */
static const struct {
	const char *bpf, *hxu;
} unary[] = {
	{ "r2 = -r2", "neg r2, r2" },
	{ "w2 = -w2", "neg.w r2, r2" },
	{ "r2 = (s8)r2", "movsx8 r2, r2" },
	{ "r2 = (s16)r2", "movsx16 r2, r2" },
	{ "r2 = (s32)r2", "movsx32 r2, r2" },
	{ "w2 = (s8)w2", "movsx8.w r2, r2" },
	{ "w2 = (s16)w2", "movsx16.w r2, r2" },
	{ "r2 = bswap16 r2", "bswap16 r2, r2" },
	{ "r2 = bswap32 r2", "bswap32 r2, r2" },
	{ "r2 = bswap64 r2", "bswap64 r2, r2" },
	{ "r2 = be16 r2", "bswap16 r2, r2" },
	{ "r2 = be32 r2", "bswap32 r2, r2" },
	{ "r2 = be64 r2", "bswap64 r2, r2" },
	{ "r2 = le16 r2", "zext16 r2, r2" },
	{ "r2 = le32 r2", "zext32 r2, r2" },
	{ "r2 = le64 r2", "mov r2, r2" },
	{ "w2 = w2", "mov.w r2, r2" },
};

Test(alu_kernel, unary, .timeout = 120)
{
	static uint8_t pkt[PACKET_BYTES];
	uint64_t rng = 0x0e0e;

	hxe_have_kernel();
	for (size_t u = 0; u < sizeof(unary) / sizeof(unary[0]); u++) {
		struct strbuf bpf = { 0 }, hxu = { 0 };
		int fd;

		sb_printf(&bpf,
			  "r6 = *(u32 *)(r1 +0)\nr7 = *(u32 *)(r1 +4)\nr8 = r6\nr8 += %d\n"
			  "if r8 > r7 goto out\n",
			  PACKET_BYTES);
		sb_printf(&hxu, "ctx r6, data ;;\n");
		for (int i = 0; i < IMM_BATCH; i++) {
			sb_printf(&bpf, "r2 = *(u64 *)(r6 +%d)\n%s\n*(u64 *)(r6 +%d) = r2\n", i * 8,
				  unary[u].bpf, i * 8);
			sb_printf(&hxu,
				  "ld64.pkt r2, [r6 + %d] ;;\n%s ;;\nst64.pkt [r6 + %d], r2 ;;\n",
				  i * 8, unary[u].hxu, i * 8);
		}
		sb_printf(&bpf, "out:\nr0 = 2\nexit\n");
		sb_printf(&hxu, "mov r0, 2 ;;\nexit ;;\n");
		fd = hxe_kernel_load(bpf.s);
		for (int done = 0; done < PAIRS; done += IMM_BATCH) {
			for (int i = 0; i < IMM_BATCH; i++) {
				uint64_t a = operand(&rng);

				memcpy(pkt + i * 8, &a, 8);
			}
			compare(fd, hxu.s, pkt, PACKET_BYTES, unary[u].bpf, 8);
		}
		close(fd);
		sb_free(&bpf);
		sb_free(&hxu);
	}
}
