// SPDX-License-Identifier: GPL-2.0
/*
 * The HXU text assembler and disassembler: every operation form assembles
 * to the words docs/isa.md section 6 describes, prints back as written, and
 * a listing reads back to the same words; bad text is refused with its line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "hwmap/hxu.h"
#include "hwmap/hxu_text.h"

static void assemble(const char *text, struct hxu_asm_out *out)
{
	char err[256];
	int rc = hxu_asm(text, out, err, sizeof(err));

	cr_assert_eq(rc, 0, "%s: %s", text, err);
}

/* Every form, as the disassembler prints it. */
static const char *const forms[] = {
	"add r1, r2, r3",
	"add.w r1, r2, -5",
	"sub r15, r14, 0x7fffffff",
	"mul.w r0, r0, r9",
	"div r1, r2, 7",
	"mod.w r1, r2, r3",
	"sdiv r1, r2, -1",
	"smod.w r1, r2, r3",
	"and r1, r2, 0xff00ff00",
	"or r1, r2, r3",
	"xor.w r1, r2, 65535",
	"lsh r1, r2, 63",
	"rsh.w r1, r2, r3",
	"arsh r1, r2, 1",
	"neg r1, r2",
	"neg.w r1, r2",
	"mov r1, r2",
	"mov.w r1, r2",
	"mov r1, -1",
	"mov.w r1, 0x80000000",
	"movsx8 r1, r2",
	"movsx16.w r1, r2",
	"movsx32 r1, r2",
	"movi r1, 0x123456789abcdef0",
	"bswap16 r1, r2",
	"bswap32 r1, r2",
	"bswap64 r1, r2",
	"zext16 r1, r2",
	"zext32 r1, r2",
	"ld8.pkt r1, [r2 + 14]",
	"ld16.be.pkt r1, [r2 + 12]",
	"ld32.be.sx.lm r1, [r10 - 8]",
	"ld64.tm r1, [r2]",
	"ld16.sx.pkt r1, [r2 - 2]",
	"st8.pkt [r2 + 1], r3",
	"st16.be.lm [r10 - 2], r3",
	"st32.tm [r2 + 4], -7",
	"st64.be.pkt [r2], 0x12345678",
	"atomicadd64.tm [r2 + 8], r3",
	"atomicadd32.fetch.lm r3, [r10 - 4], r3",
	"atomicxor64.tm [r2], r4",
	"atomicxchg64.tm r3, [r2], r3",
	"atomiccmpxchg32.lm r0, [r10 - 4], r5",
	"beq r1, r2, @0",
	"bne.w r1, 2048, @0",
	"bset r1, 1, @0",
	"bsle.w r1, r2, @0",
	"jmp @0",
	"call @0",
	"tcall 3, r2",
	"lchk 34, @0",
	"lchk [r9 + 20], @0",
	"tlookup.lm r0, 1, r2",
	"tlookup.pkt r0, 2, r3",
	"tindex r0, 1, r2",
	"tupdate.lm.tm r0, 1, r2, r3, 2",
	"tdelete.pkt r0, 1, r2",
	"redir r0, 4, r1, 2",
	"redir r0, 4, r1, 24",
	"redir r0, 4, r1, r3",
	"hadj r0, r2",
	"madj r0, r2",
	"tadj r0, r2",
	"csum16 [r1 + 24], r3",
	"esp r0, r6, r7",
	"punt 23",
	"time r0",
	"time r0, boot",
	"time r0, coarse",
	"time r0, tai",
	"rand r0",
	"cpu r0",
	"ctx r1, data",
	"ctx r1, data_end",
	"ctx r1, data_meta",
	"ctx r1, ingress",
	"ctx r1, rx_queue",
	"ctx r1, egress",
	"ret",
	"exit",
};

Test(text, every_form_prints_back_as_written)
{
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		struct hxu_asm_out out;
		char buf[128];
		unsigned int n;

		assemble(forms[i], &out);
		n = hxu_disasm_op(out.words, out.word_cnt, buf, sizeof(buf));
		cr_assert_eq(n, out.word_cnt, "%s: %u words, disasm took %u", forms[i],
			     out.word_cnt, n);
		cr_assert_str_eq(buf, forms[i]);
		hxu_asm_out__free(&out);
	}
}

Test(text, encoding_follows_section_6)
{
	struct hxu_asm_out out;

	assemble("add r1, r2, r3\nadd.w r4, r5, -2 ;;\nmovi r6, 0x1122334455667788 ;;\n"
		 "ld16.be.lm r7, [r10 - 6]\nbne r1, 0x800, @0 ;;\nexit",
		 &out);
	cr_assert_eq(out.word_cnt, 8);
	/* opcode 63..56, rd 55..52, rs 51..48, rt 47..44, E 43, flags 42..40,
	 * x 39..32, imm 31..0 */
	cr_assert_eq(out.words[0], 0x0112300000000000ull);
	cr_assert_eq(out.words[1], 0x01450b00fffffffeull); /* E, flags .w|K */
	cr_assert_eq(out.words[2], 0x1360080055667788ull); /* movi: low half, E */
	cr_assert_eq(out.words[3], 0x0000000011223344ull); /* high half */
	cr_assert_eq(out.words[4], 0x417a0300fffffffaull); /* ld16.be.lm: size 2^1, be */
	cr_assert_eq(out.words[5], 0x6101080100000000ull); /* bne imm, cc 1, target 0, E */
	cr_assert_eq(out.words[6], 0x0000000000000800ull); /* its immediate */
	cr_assert_eq(out.words[7], 0x6500080000000000ull);
	hxu_asm_out__free(&out);
}

Test(text, decode_inverts_encode)
{
	uint64_t seed = 1, w[2];

	for (int i = 0; i < 100000; i++) {
		struct hxu_op a, b;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		a = hxu_op_make((uint8_t)(seed >> 56), (seed >> 20) & 15, (seed >> 24) & 15,
				(seed >> 28) & 15, (seed >> 32) & 7, (uint8_t)(seed >> 40),
				(int32_t)(seed >> 3));
		a.end = seed & 1;
		a.ext = hxu_op_words(a.opcode) == 2 ? (uint32_t)(seed >> 13) : 0;
		cr_assert_eq(hxu_decode_at(w, hxu_encode(&a, w), &b), hxu_op_words(a.opcode));
		cr_assert(!memcmp(&a, &b, sizeof(a)) ||
				  (a.opcode == b.opcode && a.rd == b.rd && a.rs == b.rs &&
				   a.rt == b.rt && a.flags == b.flags && a.x == b.x &&
				   a.end == b.end && a.imm == b.imm && a.ext == b.ext),
			  "op 0x%016llx", (unsigned long long)w[0]);
	}
}

Test(text, listing_reads_back_to_the_same_words)
{
	const char *text = "start:\n"
			   "	ctx r6, data\n"
			   "	ctx r7, data_end ;;\n"
			   "	lchk 14, out ;;\n"
			   "	ld16.be.pkt r2, [r6 + 12]\n"
			   "	movi r3, -5 ;;\n"
			   "	bne r2, 0x0800, out ;;  # not IPv4\n"
			   "	st64.be.lm [r10 - 8], 99\n"
			   "	;;\n"
			   "	call fn ;;\n"
			   "out:	mov r0, 2 ;;\n"
			   "	exit ;;\n"
			   "fn:	// a function\n"
			   "	ret\n";
	struct hxu_asm_out a, b;
	char *listing;

	assemble(text, &a);
	cr_assert_eq(hxu_asm_out__label(&a, "out"), 12);
	cr_assert_eq(hxu_asm_out__label(&a, "fn"), 14);
	listing = hxu_disasm(a.words, a.word_cnt);
	cr_assert(listing);
	cr_assert(strstr(listing, "    2: lchk 14, @12 ;;\n"), "%s", listing);
	cr_assert(strstr(listing, "    7: bne r2, 2048, @12 ;;\n"), "%s", listing);
	cr_assert(strstr(listing, "    0: ctx r6, data\n"), "%s", listing);
	assemble(listing, &b);
	cr_assert_eq(a.word_cnt, b.word_cnt);
	cr_assert(!memcmp(a.words, b.words, a.word_cnt * sizeof(uint64_t)), "%s", listing);
	free(listing);
	hxu_asm_out__free(&a);
	hxu_asm_out__free(&b);
}

Test(text, bundles_end_where_marked)
{
	struct hxu_asm_out out;

	assemble("mov r1, 1\nmov r2, 2\n;;\nmov r3, 3 ;;\nmov r4, 4\nmov r5, 5", &out);
	cr_assert_eq(out.word_cnt, 5);
	cr_assert(!(out.words[0] & HXU_END_BIT));
	cr_assert(out.words[1] & HXU_END_BIT);
	cr_assert(out.words[2] & HXU_END_BIT);
	cr_assert(!(out.words[3] & HXU_END_BIT));
	cr_assert(out.words[4] & HXU_END_BIT, "the text's last operation ends a bundle");
	hxu_asm_out__free(&out);
}

static void refused(const char *text, const char *want)
{
	struct hxu_asm_out out = { 0 };
	char err[256];
	int rc = hxu_asm(text, &out, err, sizeof(err));

	cr_assert_eq(rc, -EINVAL, "\"%s\" was accepted", text);
	cr_assert(strstr(err, want), "\"%s\": \"%s\" does not say \"%s\"", text, err, want);
	cr_assert_null(out.words);
}

Test(text, bad_text_is_refused_with_its_line)
{
	refused("mov r1, 1\nfrob r1, r2", "line 2: unknown operation \"frob\"");
	refused("add r16, r1, r2", "line 1: no register r16");
	refused("ld32 r1, [r2]", "needs a space suffix");
	refused("ld32.dram r1, [r2]", ".dram is not a space");
	refused("ld32.be.tm.pkt r1, [r2]", "unexpected suffix .tm");
	refused("add r1, r2, 0x100000000", "does not fit in 32 bits");
	refused("add r1, r2, -2147483649", "does not fit in 32 bits");
	refused("jmp nowhere", "line 1: no label \"nowhere\"");
	refused("mov r1, 1\nL: exit", "line 2: label \"L\" inside a bundle");
	refused("L: exit ;;\nL: exit", "defined twice");
	refused("mov r1, 1 ;;\n5: exit", "line 2: index 5, but this operation is 1");
	refused(";;\nexit", "line 1: ;; before any operation");
	refused("ld8.pkt r1, [r2 + ]", "expected a number");
	refused("ld8.pkt r1 [r2]", "expected ','");
	refused("atomicxchg64.fetch.tm r1, [r2], r1", "always fetches");
	refused("movi.w r1, 5", "no .w form");
	refused("ctx r1, data_start", "no ctx field");
	refused("tlookup r0, 1, r2", "needs a space suffix");
	refused("tlookup.lm r0, 256, r2", "a table id must be 0..255");
	refused("tupdate.lm.lm r0, 1, r2, r3, 65536", "flags must be 0..65535");
	refused("redir r0, 1, r2, 0x80000000", "write the register instead");
	refused("exit extra", "unexpected \"extra\"");
	refused("jmp @32768", "beyond the microcode store");
}

Test(text, disasm_names_what_it_cannot_decode)
{
	uint64_t words[2] = { 0xff00000000000000ull, 0 };
	char buf[64];

	cr_assert_eq(hxu_disasm_op(words, 1, buf, sizeof(buf)), 1);
	cr_assert_str_eq(buf, ".word 0xff00000000000000");
	words[0] = (uint64_t)HXU_OP_MOVI << HXU_OPCODE_SHIFT;
	cr_assert_eq(hxu_disasm_op(words, 1, buf, sizeof(buf)), 0, "movi cut off");
}
