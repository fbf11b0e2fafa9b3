// SPDX-License-Identifier: GPL-2.0
/*
 * Per-frame figures: operations executed, issue slots (bundles) and the
 * cycles of docs/isa.md section 5, counted along the path the frame took.
 */
#include <string.h>

#include <criterion/criterion.h>

#include "tests/device/engine_util.h"

static uint8_t pkt[64];

static void expect(const char *text, const struct hxu_table_desc *tables, size_t n, uint64_t ops,
		   uint64_t bundles, uint64_t cycles)
{
	struct hxe *x = hxe_new(text, tables, n, NULL);
	struct hwxdp_frame f;

	cr_assert_eq(hxe_run(x, 0, pkt, sizeof(pkt)), 0, "aborted at op %u", x->frame.fault_op);
	cr_assert_eq(x->stats.ops, ops, "ops %llu, not %llu:\n%s", (unsigned long long)x->stats.ops,
		     (unsigned long long)ops, text);
	cr_assert_eq(x->stats.bundles, bundles, "bundles %llu, not %llu:\n%s",
		     (unsigned long long)x->stats.bundles, (unsigned long long)bundles, text);
	cr_assert_eq(x->stats.cycles, cycles, "cycles %llu, not %llu:\n%s",
		     (unsigned long long)x->stats.cycles, (unsigned long long)cycles, text);
	/* Without stats the frame comes out the same. */
	f = x->frame;
	memset(x->window, 0, HXU_WINDOW_SIZE);
	memcpy(x->window + HXU_HEADROOM, pkt, sizeof(pkt));
	x->frame = (struct hwxdp_frame){ .window = x->window,
					 .data = HXU_HEADROOM,
					 .data_meta = HXU_HEADROOM,
					 .data_end = HXU_HEADROOM + sizeof(pkt),
					 .ingress = 1 };
	cr_assert_eq(hwxdp_engine__run(x->engine, 0, &x->frame, NULL), 0);
	cr_assert_eq(x->frame.verdict, f.verdict);
	cr_assert_eq(x->frame.data_end, f.data_end);
	hxe_free(x);
}

Test(stats, straight_line)
{
	expect("mov r1, 1\nmov r2, 2\nmov r3, 3\nmov r4, 4 ;;\n"
	       "movi r5, 0x123456789\nadd r6, r1, r2 ;;\n"
	       "mov r0, 2 ;;\nexit",
	       NULL, 0, 8, 4, 4);
}

Test(stats, branches_count_the_path_taken)
{
	/* Taken: 3 bundles. */
	expect("mov r1, 1 ;;\nbeq r1, 1, L ;;\nmov r2, 2 ;;\nmov r3, 3 ;;\n"
	       "L: mov r0, 2 ;;\nexit",
	       NULL, 0, 4, 4, 4);
	/* Not taken: falls through two more bundles into L. */
	expect("mov r1, 0 ;;\nbeq r1, 1, L ;;\nmov r2, 2 ;;\nmov r3, 3 ;;\n"
	       "L: mov r0, 2 ;;\nexit",
	       NULL, 0, 6, 6, 6);
	/* lchk on a 64-byte frame. */
	expect("lchk 64, L ;;\nmov r0, 1 ;;\nexit ;;\nL: mov r0, 2 ;;\nexit", NULL, 0, 3, 3, 3);
	expect("lchk 65, L ;;\nmov r0, 1 ;;\nexit ;;\nL: mov r0, 2 ;;\nexit", NULL, 0, 3, 3, 3);
}

Test(stats, loops_and_calls)
{
	/* 10 iterations of a 2-bundle body, 3 ops each. */
	expect("mov r1, 0 ;;\nL: add r1, r1, 1\nmov r2, 5 ;;\nblt r1, 10, L ;;\nmov r0, 2 ;;\nexit",
	       NULL, 0, 1 + 30 + 2, 1 + 20 + 2, 1 + 20 + 2);
	/* call, a 2-bundle function, back. */
	expect("call F ;;\nmov r0, 2 ;;\nexit ;;\nF: mov r1, 1 ;;\nret", NULL, 0, 5, 5, 5);
	/* exit inside a function returns. */
	expect("call F ;;\nmov r0, 2 ;;\nexit ;;\nF: exit", NULL, 0, 4, 4, 4);
}

Test(stats, unit_latencies)
{
	static const struct hxu_table_desc t[] = {
		{ .id = 1,
		  .type = BPF_MAP_TYPE_ARRAY,
		  .key_size = 4,
		  .value_size = 8,
		  .max_entries = 4,
		  .name = "arr" },
		{ .id = 2,
		  .type = BPF_MAP_TYPE_HASH,
		  .key_size = 4,
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

	/* hash lookup +8, array lookup +2, tindex +2, in one bundle: 1 + 12. */
	expect("st32.lm [r10 - 4], 0\nadd r1, r10, -4\nmov r3, 0 ;;\n"
	       "tlookup.lm r2, 2, r1\ntlookup.lm r4, 1, r1\ntindex r5, 1, r3 ;;\n"
	       "mov r0, 2 ;;\nexit",
	       t, 4, 8, 4, 4 + 12);
	/* tupdate and tdelete +20 each. */
	expect("st32.lm [r10 - 4], 0\nst64.lm [r10 - 16], 5\nadd r1, r10, -4\n"
	       "add r2, r10, -16 ;;\ntupdate.lm.lm r0, 2, r1, r2, 0 ;;\n"
	       "tdelete.lm r0, 2, r1 ;;\nmov r0, 2 ;;\nexit",
	       t, 4, 8, 5, 5 + 40);
	/* An atomic on table memory +2; on local memory nothing. */
	expect("mov r1, 0 ;;\ntindex r2, 1, r1\nmov r3, 1 ;;\natomicadd64.tm [r2], r3\n"
	       "atomicadd64.lm [r10 - 8], r3 ;;\nmov r0, 2 ;;\nexit",
	       t, 4, 7, 5, 5 + 2 + 2);
	/* hadj, madj, tadj +2 each; redir +8; tcall +2 (a miss goes on). */
	expect("mov r1, 0 ;;\nhadj r2, r1 ;;\nmadj r2, r1 ;;\ntadj r2, r1 ;;\n"
	       "redir r0, 3, r1, 2 ;;\ntcall 4, r1 ;;\nexit",
	       t, 4, 7, 7, 7 + 6 + 8 + 2);
}

Test(stats, punt_and_exit_end_the_count)
{
	expect("mov r1, 1 ;;\npunt 3 ;;\nmov r2, 2 ;;\nexit", NULL, 0, 2, 2, 2);
}
