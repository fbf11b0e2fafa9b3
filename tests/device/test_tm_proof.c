// SPDX-License-Identifier: GPL-2.0
/*
 * The device's proof that table memory accesses stay inside a table's value
 * (device/tm_proof.h): what the translator writes loads, and an access the
 * proof cannot bound is refused, naming the operation and the register.
 */
#include <string.h>

#include <criterion/criterion.h>

#include "base/log.h"
#include "tests/device/engine_util.h"

static void quiet(void)
{
	hwxdp_set_print(NULL);
}

TestSuite(tm_proof, .init = quiet);

/* An array of 64-byte values (id 1), a hash of 8-byte ones (id 2). */
static const struct hxu_table_desc tables[] = {
	{ .id = 1,
	  .type = BPF_MAP_TYPE_ARRAY,
	  .key_size = 4,
	  .value_size = 64,
	  .max_entries = 4,
	  .name = "arr" },
	{ .id = 2,
	  .type = BPF_MAP_TYPE_HASH,
	  .key_size = 8,
	  .value_size = 8,
	  .max_entries = 4,
	  .name = "hash" },
};

static void proven(const char *text)
{
	char err[256];
	struct hxe *x = hxe_try(text, tables, 2, NULL, err, sizeof(err));

	cr_assert(x, "refused: %s\n%s", err, text);
	hxe_free(x);
}

static void refused(const char *text, const char *want)
{
	char err[256];
	struct hxe *x = hxe_try(text, tables, 2, NULL, err, sizeof(err));

	cr_assert_null(x, "accepted:\n%s", text);
	cr_assert(strstr(err, want), "\"%s\" does not say \"%s\" for:\n%s", err, want, text);
}

/* The key of a lookup, on the stack. */
#define KEY "mov r1, 0 ;;\nst64.lm [r10 - 8], r1 ;;\nmov r2, r10 ;;\nsub r2, r2, 8 ;;\n"

Test(tm_proof, lookups_and_offsets_inside_the_value)
{
	proven(KEY "tlookup.lm r0, 2, r2 ;;\nbeq r0, 0, out ;;\nld64.tm r3, [r0] ;;\n"
		   "out: mov r0, 2 ;;\nexit");
	proven(KEY "tlookup.lm r0, 1, r2 ;;\nbeq r0, 0, out ;;\n"
		   "atomicadd64.tm [r0 + 56], r1 ;;\nout: mov r0, 2 ;;\nexit");
	/* a lookup that found nothing is 0: the run-time check aborts it */
	proven(KEY "tlookup.lm r0, 2, r2 ;;\nld64.tm r3, [r0] ;;\nmov r0, 2 ;;\nexit");
	/* a constant moved along the value */
	proven(KEY "tlookup.lm r0, 1, r2 ;;\nadd r0, r0, 32 ;;\nst32.tm [r0 + 28], r1 ;;\n"
		   "mov r0, 2 ;;\nexit");
	/* tindex, and the value kept in a stack slot and a copy */
	proven("mov r1, 3 ;;\ntindex r6, 1, r1 ;;\nst64.lm [r10 - 16], r6 ;;\nmov r6, 0 ;;\n"
	       "ld64.lm r7, [r10 - 16] ;;\nmov r8, r7 ;;\nld8.tm r0, [r8 + 63] ;;\nexit");
}

Test(tm_proof, bounded_indices)
{
	/* a masked index scaled by 8: at most 56 */
	proven(KEY "tlookup.lm r0, 1, r2 ;;\nctx r3, data ;;\nld8.pkt r4, [r3] ;;\n"
		   "and r4, r4, 7 ;;\nlsh r4, r4, 3 ;;\nadd r0, r0, r4 ;;\n"
		   "atomicadd64.tm [r0], r1 ;;\nmov r0, 2 ;;\nexit");
	/* bounded by a branch, 32-bit as clang writes it */
	proven(KEY "tlookup.lm r0, 1, r2 ;;\nctx r3, data ;;\nld8.pkt r4, [r3] ;;\n"
		   "bgt.w r4, 7, out ;;\nlsh r4, r4, 3 ;;\nadd r0, r0, r4 ;;\n"
		   "ld64.tm r5, [r0] ;;\nout: mov r0, 2 ;;\nexit");
	/* one more than fits */
	refused(KEY "tlookup.lm r0, 1, r2 ;;\nctx r3, data ;;\nld8.pkt r4, [r3] ;;\n"
		    "bgt r4, 8, out ;;\nlsh r4, r4, 3 ;;\nadd r0, r0, r4 ;;\n"
		    "ld64.tm r5, [r0] ;;\nout: mov r0, 2 ;;\nexit",
		"of 8 bytes at offset 0..64 from a value of 64 bytes (r0)");
	/* no bound at all */
	refused(KEY "tlookup.lm r0, 1, r2 ;;\nctx r3, data ;;\nld8.pkt r4, [r3] ;;\n"
		    "lsh r4, r4, 3 ;;\nadd r0, r0, r4 ;;\nld64.tm r5, [r0] ;;\nmov r0, 2 ;;\nexit",
		"op 9: table memory access of 8 bytes at offset 0..2040");
	refused(KEY "tlookup.lm r0, 1, r2 ;;\nld64.lm r4, [r10 - 24] ;;\nadd r0, r0, r4 ;;\n"
		    "ld64.tm r5, [r0] ;;\nmov r0, 2 ;;\nexit",
		"r0, a table value's address plus an offset not known");
}

Test(tm_proof, numbers_as_addresses)
{
	/* what the fuzzer once ran: a constant used as a table memory address */
	refused("movi r1, 0x7f0000001000 ;;\natomicadd64.tm [r1], r1 ;;\nmov r0, 2 ;;\nexit",
		"op 2: table memory access through r1, which holds a number");
	refused("ld64.tm r0, [r6 + 8] ;;\nexit", "op 0: table memory access through r6");
	refused("ctx r1, data ;;\nld32.tm r0, [r1] ;;\nexit", "through r1, which holds a number");
	/* a key in table memory must be a value too */
	refused("ctx r1, data ;;\ntlookup.tm r0, 2, r1 ;;\nmov r0, 2 ;;\nexit", "through r1");
	/* a value's address written over in its slot */
	refused(KEY
		"tlookup.lm r0, 2, r2 ;;\nst64.lm [r10 - 16], r0 ;;\nst32.lm [r10 - 12], r1 ;;\n"
		"ld64.lm r3, [r10 - 16] ;;\nld64.tm r4, [r3] ;;\nmov r0, 2 ;;\nexit",
		"through r3");
	/* a pointer joined with a number that is not null on one path */
	refused(KEY "tlookup.lm r0, 2, r2 ;;\nbne r0, 0, use ;;\nmov r0, 0x10000000 ;;\n"
		    "use: ld64.tm r3, [r0] ;;\nmov r0, 2 ;;\nexit",
		"through r0");
}

Test(tm_proof, calls_keep_what_the_callee_cannot_touch)
{
	/* r6 survives a call; a stack slot too, as nothing writes the stack
	 * other than through r10 */
	proven(KEY
	       "tlookup.lm r6, 1, r2 ;;\nst64.lm [r10 - 16], r6 ;;\ncall fn ;;\n"
	       "ld64.lm r7, [r10 - 16] ;;\nld64.tm r0, [r6 + 8] ;;\nld64.tm r0, [r7] ;;\nexit ;;\n"
	       "fn: mov r0, 0 ;;\nret");
	/* r1..r5 do not */
	refused(KEY "tlookup.lm r1, 1, r2 ;;\ncall fn ;;\nld64.tm r0, [r1] ;;\nexit ;;\n"
		    "fn: mov r0, 0 ;;\nret",
		"through r1");
	/* a callee that writes its caller's stack through a pointer */
	refused(KEY
		"tlookup.lm r6, 1, r2 ;;\nst64.lm [r10 - 16], r6 ;;\nmov r1, r10 ;;\n"
		"sub r1, r1, 16 ;;\ncall fn ;;\nld64.lm r7, [r10 - 16] ;;\nld64.tm r0, [r7] ;;\n"
		"exit ;;\nfn: mov r0, 0 ;;\nst64.lm [r1], r0 ;;\nret",
		"through r7");
}

/* Loops end: the state of a loop header is widened. */
Test(tm_proof, loops)
{
	proven(KEY "tlookup.lm r6, 1, r2 ;;\nmov r3, 0 ;;\n"
		   "loop: ld8.tm r4, [r6] ;;\nadd r3, r3, 1 ;;\nblt r3, 100000, loop ;;\n"
		   "mov r0, 2 ;;\nexit");
	refused(KEY "tlookup.lm r6, 1, r2 ;;\nmov r3, 0 ;;\n"
		    "loop: ld8.tm r4, [r6] ;;\nadd r6, r6, 1 ;;\nadd r3, r3, 1 ;;\n"
		    "blt r3, 100000, loop ;;\nmov r0, 2 ;;\nexit",
		"through r6");
}

/*
 * A pointer and a counter stepped together to the counter's bound (as clang
 * -O1 lays out a loop over a global array): the joined states lose the
 * relation, the walk path by path keeps it, and the one step too many is
 * still refused with the joined analysis's reason.
 */
#define STRIDE_LOOP(bound)                                                                         \
	KEY "tlookup.lm r6, 1, r2 ;;\nbeq r6, 0, out ;;\nmov r3, 0 ;;\n"                           \
	    "loop: ld32.tm r4, [r6] ;;\nadd r6, r6, 4 ;;\nadd r3, r3, 1 ;;\n"                      \
	    "bne r3, " bound ", loop ;;\nout: mov r0, 2 ;;\nexit"

Test(tm_proof, a_pointer_stepped_with_a_counter)
{
	proven(STRIDE_LOOP("16"));
	refused(STRIDE_LOOP("17"), "through r6");
}

/*
 * A value's address reaching a block at two offsets, the block visited
 * often (after a loop, as clang -O1 lays out srv6_end): the offsets stay
 * known while they stay inside the value, and an access past it is still
 * refused.
 */
#define TWO_OFFSETS(add)                                                                           \
	KEY "tlookup.lm r6, 1, r2 ;;\nbeq r6, 0, out ;;\nld8.tm r4, [r6] ;;\nmov r3, 0 ;;\n"       \
	    "beq r4, 0, far ;;\nloop: add r3, r3, 1 ;;\nblt r3, 20, loop ;;\n"                     \
	    "use: atomicadd64.tm [r6 + 48], r1 ;;\nout: mov r0, 2 ;;\nexit ;;\n"                   \
	    "far: add r6, r6, " add " ;;\njmp use ;;"

Test(tm_proof, a_join_after_a_loop)
{
	proven(TWO_OFFSETS("8"));
	refused(TWO_OFFSETS("16"), "at offset 48..64 from a value of 64 bytes (r6)");
}
