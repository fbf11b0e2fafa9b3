// SPDX-License-Identifier: GPL-2.0
/*
 * The device's checks when it loads an image: each broken rule is refused
 * with a message naming the operation and the rule, and nothing runs.
 */
#include <errno.h>
#include <string.h>

#include <criterion/criterion.h>

#include "base/log.h"
#include "tests/device/engine_util.h"

static void quiet(void)
{
	hwxdp_set_print(NULL);
}

static const struct hxu_table_desc tables[] = {
	{ .id = 1,
	  .type = BPF_MAP_TYPE_ARRAY,
	  .key_size = 4,
	  .value_size = 8,
	  .max_entries = 4,
	  .name = "arr" },
	{ .id = 2,
	  .type = BPF_MAP_TYPE_HASH,
	  .key_size = 8,
	  .value_size = 8,
	  .max_entries = 4,
	  .name = "hash" },
	{ .id = 3,
	  .type = BPF_MAP_TYPE_DEVMAP_HASH,
	  .key_size = 4,
	  .value_size = 4,
	  .max_entries = 4,
	  .name = "ports" },
	{ .id = 4,
	  .type = BPF_MAP_TYPE_PROG_ARRAY,
	  .key_size = 4,
	  .value_size = 4,
	  .max_entries = 4,
	  .name = "progs" },
};

static void refused(const char *text, const char *want)
{
	char err[256];
	struct hxe *x = hxe_try(text, tables, 4, NULL, err, sizeof(err));

	cr_assert_null(x, "accepted:\n%s", text);
	cr_assert(strstr(err, want), "\"%s\" does not say \"%s\" for:\n%s", err, want, text);
}

static void accepted(const char *text)
{
	char err[256];
	struct hxe *x = hxe_try(text, tables, 4, NULL, err, sizeof(err));

	cr_assert(x, "refused: %s\n%s", err, text);
	hxe_free(x);
}

Test(validate, bundle_rules, .init = quiet)
{
	refused("mov r1, 1\nmov r2, 2\nmov r3, 3\nmov r4, 4\nmov r5, 5 ;;\nexit",
		"op 4: a bundle of more than 4 operations");
	accepted("mov r1, 1\nmov r2, 2\nmov r3, 3\nmov r0, 4 ;;\nexit");
	refused("L: jmp L\nmov r1, 1 ;;\nexit", "op 0: a control operation must end its bundle");
	refused("mov r1, 1\nadd r2, r1, 1 ;;\nexit",
		"op 1: reads r1, which an earlier operation of its bundle writes");
	refused("mov r1, 1\nmov r1, 2 ;;\nexit",
		"op 1: writes r1, as an earlier operation of its bundle does");
	refused("mov r0, 2\nexit", "op 1: reads r0");
	refused("mov r1, 0\nbeq r1, 0, L ;;\nL: exit", "op 1: reads r1");
	/* Reading a register before a later operation writes it is fine. */
	accepted("add r2, r1, 1\nmov r1, 5 ;;\nexit");
	refused("mov r10, 1 ;;\nexit", "op 0: r10 is read-only");
	refused("ld64.lm r10, [r10 - 8] ;;\nexit", "r10 is read-only");
}

Test(validate, memory_inside_a_bundle, .init = quiet)
{
	refused("st64.lm [r10 - 8], r1\nld64.lm r2, [r10 - 8] ;;\nexit",
		"reads lm memory that op 0 of its bundle may write");
	refused("st64.lm [r10 - 8], r1\nld32.lm r2, [r10 - 4] ;;\nexit", "reads lm memory");
	accepted("st64.lm [r10 - 8], r1\nld64.lm r2, [r10 - 16] ;;\nexit");
	refused("st64.pkt [r1], r3\nld8.pkt r2, [r4 + 100] ;;\nexit",
		"reads pkt memory that op 0 of its bundle may write");
	accepted("st64.pkt [r1], r3\nld8.lm r2, [r10 - 1] ;;\nexit");
	refused("st32.tm [r1], r3\nst32.tm [r1 + 2], r4 ;;\nexit", "writes tm memory");
	accepted("ld64.pkt r2, [r1]\nst64.pkt [r1], r3 ;;\nexit");
	refused("hadj r0, r1\nld8.pkt r2, [r3] ;;\nexit", "reads pkt memory");
	refused("hadj r0, r1\nctx r2, data ;;\nexit", "reads the frame's bounds");
	refused("tadj r0, r1\nmadj r2, r1 ;;\nexit", "op 1: reads the frame's bounds");
	refused("tupdate.lm.lm r0, 2, r1, r2, 0\nld64.tm r3, [r4] ;;\nexit", "reads tm memory");
	refused("st64.lm [r10 - 8], r1\ntlookup.lm r0, 2, r2 ;;\nexit", "reads lm memory");
}

Test(validate, targets, .init = quiet)
{
	refused("jmp @100 ;;\nexit", "op 0: branch target @100 is beyond the last operation");
	refused("movi r1, 5 ;;\njmp @1 ;;\nexit",
		"op 2: branch target @1 is the second word of an operation");
	refused("mov r1, 1\nmov r2, 2 ;;\njmp @1 ;;\nexit", "branch target @1 is inside a bundle");
	refused("call @2 ;;\nmov r1, 1\nexit", "call target @2 is inside a bundle");
	refused("lchk 14, @50 ;;\nexit", "op 0: branch target @50 is beyond the last operation");
	refused("mov r1, 1 ;;\nbeq r1, 1, @0", "may run past the end of the store");
	refused("mov r0, 1", "op 0: the last bundle may run past the end");
	accepted("mov r0, 1 ;;\nL: exit ;;\nbeq r0, 1, L ;;\njmp L");
}

Test(validate, fields_and_sizes, .init = quiet)
{
	refused("ld8.be.pkt r1, [r2] ;;\nexit", "byte order on a 1-byte load");
	refused("st8.be.pkt [r2], r1 ;;\nexit", "byte order on a 1-byte store");
	refused("ld64.sx.pkt r1, [r2] ;;\nexit", "sign extension of a 64-bit load");
	refused("atomicadd64.pkt [r2], r1 ;;\nexit", "atomic operation on the packet");
	refused("atomicadd16.lm [r2], r1 ;;\nexit", "atomic operations are 32 or 64 bits, not 16");
	refused("movsx32.w r1, r2 ;;\nexit", "movsx32 has no 32-bit form");
	refused("tlookup.lm r0, 9, r1 ;;\nexit", "no table 9");
	refused("tlookup.lm r0, 4, r1 ;;\nexit", "is not a table this operation takes");
	refused("tupdate.lm.lm r0, 3, r1, r2, 0 ;;\nexit", "is not a table this operation takes");
	refused("tindex r0, 2, r1 ;;\nexit", "tindex needs an array");
	refused("tcall 1, r1 ;;\nexit", "tcall needs a program array");
	refused("redir r0, 1, r1, 0 ;;\nexit", "redir needs a port table");
	accepted("redir r0, 3, r1, 18 ;;\nexit");
	/* BPF_F_BROADCAST, with BPF_F_EXCLUDE_INGRESS, and flags at run time */
	accepted("redir r0, 3, r1, 8 ;;\nexit");
	accepted("redir r0, 3, r1, 24 ;;\nexit");
	accepted("redir r0, 3, r1, r3 ;;\nexit");
}

/* Images built word by word, for what text cannot say. */
static int check_words(const uint64_t *words, uint32_t n, char *err, size_t len)
{
	struct hxu_prog_desc prog = { .name = "p", .entry = 0, .frames = 1 };
	struct hxu_image img = {
		.version = HXU_VERSION, .ops = words, .op_cnt = n, .progs = &prog, .prog_cnt = 1
	};

	return hwxdp_engine__check(&img, NULL, err, len);
}

#define EXIT_E ((uint64_t)HXU_OP_EXIT << HXU_OPCODE_SHIFT | HXU_END_BIT)

Test(validate, words, .init = quiet)
{
	uint64_t w[4];
	char err[256];

	w[0] = 0x7700000000000000ull | HXU_END_BIT;
	w[1] = EXIT_E;
	cr_assert_eq(check_words(w, 2, err, sizeof(err)), -HWXDP_ERR_IMAGE);
	cr_assert(strstr(err, "op 0: unknown opcode 0x77"), "%s", err);

	w[0] = 0;
	cr_assert_eq(check_words(w, 2, err, sizeof(err)), -HWXDP_ERR_IMAGE);
	cr_assert(strstr(err, "op 0: unknown opcode 0x00"), "%s", err);

	/* add r1, r2, r3 with an imm: a field it does not use. */
	w[0] = 0x0112300000000005ull | HXU_END_BIT;
	cr_assert_eq(check_words(w, 2, err, sizeof(err)), -HWXDP_ERR_IMAGE);
	cr_assert(strstr(err, "op 0: a field this operation does not use is not zero"), "%s", err);

	/* movi's second word with its high half set. */
	w[0] = (uint64_t)HXU_OP_MOVI << HXU_OPCODE_SHIFT | HXU_END_BIT;
	w[1] = 1ull << 40;
	w[2] = EXIT_E;
	cr_assert_eq(check_words(w, 3, err, sizeof(err)), -HWXDP_ERR_IMAGE);
	cr_assert(strstr(err, "op 0: a two-word operation without its second word"), "%s", err);

	/* movi cut off by the end of the image. */
	cr_assert_eq(check_words(w, 1, err, sizeof(err)), -HWXDP_ERR_IMAGE);
	cr_assert(strstr(err, "without its second word"), "%s", err);

	/* The last operation without E. */
	w[0] = EXIT_E & ~HXU_END_BIT;
	cr_assert_eq(check_words(w, 1, err, sizeof(err)), -HWXDP_ERR_IMAGE);
	cr_assert(strstr(err, "op 0: the last operation does not end a bundle"), "%s", err);

	/* flags a class does not define: lchk with bit 41. */
	w[0] = (uint64_t)HXU_OP_LCHK << HXU_OPCODE_SHIFT | HXU_END_BIT | 2ull << HXU_FLAGS_SHIFT;
	w[1] = 14;
	w[2] = EXIT_E;
	cr_assert_eq(check_words(w, 3, err, sizeof(err)), -HWXDP_ERR_IMAGE);
	cr_assert(strstr(err, "op 0: flags 0x2 are not valid here"), "%s", err);

	/* A condition beyond set. */
	w[0] = (uint64_t)HXU_OP_BR << HXU_OPCODE_SHIFT | HXU_END_BIT | 11ull << HXU_X_SHIFT;
	w[1] = EXIT_E;
	cr_assert_eq(check_words(w, 2, err, sizeof(err)), -HWXDP_ERR_IMAGE);
	cr_assert(strstr(err, "op 0: unknown condition 11"), "%s", err);
}

Test(validate, image_header_programs_tables, .init = quiet)
{
	uint64_t w[1] = { EXIT_E };
	struct hxu_prog_desc prog = { .name = "p", .entry = 0, .frames = 1 };
	struct hxu_table_desc desc = tables[1];
	struct hxu_image img = {
		.version = HXU_VERSION, .ops = w, .op_cnt = 1, .progs = &prog, .prog_cnt = 1
	};
	struct hwxdp_tables *t = hwxdp_tables__new();
	char err[256];

	img.version = 0;
	cr_assert_eq(hwxdp_engine__check(&img, NULL, err, sizeof(err)), -HWXDP_ERR_IMAGE);
	cr_assert(strstr(err, "version 0, the device runs 2"), "%s", err);
	img.version = HXU_VERSION;

	img.op_cnt = HXU_STORE_WORDS + 1;
	cr_assert_eq(hwxdp_engine__check(&img, NULL, err, sizeof(err)), -HWXDP_ERR_IMAGE);
	cr_assert(strstr(err, "32769 operation words, the store holds 32768"), "%s", err);
	img.op_cnt = 1;

	prog.entry = 1;
	cr_assert_eq(hwxdp_engine__check(&img, NULL, err, sizeof(err)), -HWXDP_ERR_IMAGE);
	cr_assert(strstr(err, "program entry @1 is beyond the last operation"), "%s", err);
	prog.entry = 0;
	prog.frames = 9;
	cr_assert_eq(hwxdp_engine__check(&img, NULL, err, sizeof(err)), -HWXDP_ERR_IMAGE);
	cr_assert(strstr(err, "program 0 (p): 9 stack frames, the device has 1..8"), "%s", err);
	prog.frames = 1;
	img.prog_cnt = 0;
	cr_assert_eq(hwxdp_engine__check(&img, NULL, err, sizeof(err)), -HWXDP_ERR_IMAGE);
	cr_assert(strstr(err, "no programs"), "%s", err);
	img.prog_cnt = 1;

	/* A table the image names must be in table memory, as described. */
	img.tables = &desc;
	img.table_cnt = 1;
	cr_assert_eq(hwxdp_engine__check(&img, t, err, sizeof(err)), -HWXDP_ERR_IMAGE);
	cr_assert(strstr(err, "table 2 (hash) is not in table memory"), "%s", err);
	desc.max_entries = 8;
	cr_assert_eq(hwxdp_tables__create(t, &desc), 0);
	desc.max_entries = 4;
	cr_assert_eq(hwxdp_engine__check(&img, t, err, sizeof(err)), -HWXDP_ERR_IMAGE);
	cr_assert(strstr(err, "table 2 (hash) differs from the one in table memory"), "%s", err);
	errno = 0;
	cr_assert_null(hwxdp_engine__new(&img, t));
	cr_assert_eq(errno, EINVAL);
	desc.max_entries = 8;
	cr_assert_eq(hwxdp_engine__check(&img, t, err, sizeof(err)), 0, "%s", err);
	hwxdp_tables__free(t);
}
