// SPDX-License-Identifier: GPL-2.0
/*
 * What a frame comes out with: the verdict, the egress port, the punt
 * reason, where the frame and its metadata lie, and why the engine aborted
 * one; tail calls, the port table, the units that read the machine.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <criterion/criterion.h>

#include "base/log.h"
#include "tests/device/engine_util.h"

static uint8_t pkt64[64];

static void quiet(void)
{
	hwxdp_set_print(NULL);
}

Test(engine, verdict_is_r0_low_half)
{
	struct hxe *x = hxe_new("movi r0, 0x500000003 ;;\nexit", NULL, 0, NULL);

	cr_assert_eq(hxe_run(x, 0, pkt64, sizeof(pkt64)), 0);
	cr_assert_eq(x->frame.verdict, XDP_TX);
	cr_assert_eq(x->frame.egress, HWXDP_EGRESS_NONE);
	cr_assert_eq(x->frame.reason, 0);
	cr_assert_eq(x->frame.error, 0);
	hxe_free(x);
}

Test(engine, punt_passes_with_its_reason)
{
	struct hxe *x = hxe_new("mov r0, 4 ;;\npunt 23 ;;\nexit", NULL, 0, NULL);

	cr_assert_eq(hxe_run(x, 0, pkt64, sizeof(pkt64)), 0);
	cr_assert_eq(x->frame.verdict, XDP_PASS);
	cr_assert_eq(x->frame.reason, 23);
	hxe_free(x);
}

Test(engine, abort_names_the_operation, .init = quiet)
{
	struct hxe *x =
		hxe_new("ctx r1, data ;;\nmov r0, 2\nld8.pkt r2, [r1 + 9999]\nmov r3, 1 ;;\n"
			"exit",
			NULL, 0, NULL);

	cr_assert_eq(hxe_run(x, 0, pkt64, sizeof(pkt64)), -HWXDP_ERR_PKT_ACCESS);
	cr_assert_eq(x->frame.verdict, XDP_ABORTED);
	cr_assert_eq(x->frame.error, -HWXDP_ERR_PKT_ACCESS);
	cr_assert_eq(x->frame.fault_op, 2);
	/* Counted up to the faulting operation: ctx, mov, ld. */
	cr_assert_eq(x->stats.ops, 3);
	cr_assert_eq(x->stats.bundles, 2);
	cr_assert_eq(x->stats.cycles, 2);
	/* The next frame runs normally. */
	hxe_free(x);
}

Test(engine, bad_arguments_run_nothing)
{
	struct hxe *x = hxe_new("mov r0, 2 ;;\nexit", NULL, 0, NULL);
	struct hwxdp_frame f = {
		.window = x->window, .data = 300, .data_end = 200, .data_meta = 300
	};

	cr_assert_eq(hwxdp_engine__run(x->engine, 0, &f, NULL), -EINVAL);
	f = (struct hwxdp_frame){
		.window = x->window, .data = 256, .data_end = 300, .data_meta = 260
	};
	cr_assert_eq(hwxdp_engine__run(x->engine, 0, &f, NULL), -EINVAL);
	f.data_meta = 256;
	f.data_end = HXU_WINDOW_SIZE + 1;
	cr_assert_eq(hwxdp_engine__run(x->engine, 0, &f, NULL), -EINVAL);
	f.data_end = 300;
	cr_assert_eq(hwxdp_engine__run(x->engine, 1, &f, NULL), -EINVAL);
	f.window = NULL;
	cr_assert_eq(hwxdp_engine__run(x->engine, 0, &f, NULL), -EINVAL);
	hxe_free(x);
}

Test(engine, metadata_and_head_come_back)
{
	/* 8 bytes of metadata, a tag pushed in front, a word written into it. */
	struct hxe *x = hxe_new("mov r1, -8 ;;\nmadj r2, r1 ;;\n"
				"ctx r3, data_meta ;;\nst64.be.pkt [r3], 0x11223344 ;;\n"
				"mov r1, -4 ;;\nhadj r2, r1 ;;\nctx r3, data ;;\n"
				"st32.be.pkt [r3], 0x81000032 ;;\nmov r0, 2 ;;\nexit",
				NULL, 0, NULL);
	static const uint8_t meta[8] = { 0, 0, 0, 0, 0x11, 0x22, 0x33, 0x44 };

	cr_assert_eq(hxe_run(x, 0, pkt64, sizeof(pkt64)), 0);
	cr_assert_eq(x->frame.data, HXU_HEADROOM - 4);
	cr_assert_eq(x->frame.data_meta, HXU_HEADROOM - 12);
	cr_assert_eq(x->frame.data_end, HXU_HEADROOM + 64);
	cr_assert(!memcmp(x->window + x->frame.data_meta, meta, 8));
	cr_assert_eq(hxe_data(x)[0], 0x81);
	cr_assert_eq(hxe_data(x)[3], 0x32);
	hxe_free(x);
}

static const struct hxu_table_desc port_tables[] = {
	{ .id = 2,
	  .type = BPF_MAP_TYPE_DEVMAP_HASH,
	  .key_size = 4,
	  .value_size = 8,
	  .max_entries = 16,
	  .name = "ports" },
};

static struct hxe *redirect(int32_t flags, uint32_t key)
{
	char text[256];
	struct hxe *x;
	struct bpf_devmap_val val = { .ifindex = 7 };
	uint32_t k = 5;

	snprintf(text, sizeof(text),
		 "mov r0, 3 ;;\nmov r1, 5 ;;\nredir r0, 2, r1, 0 ;;\nmov r1, %u ;;\n"
		 "redir r0, 2, r1, %d ;;\nexit",
		 key, flags);
	x = hxe_new(text, port_tables, 1, NULL);
	cr_assert_eq(hwxdp_table__update(hwxdp_tables__get(x->t, 2), &k, &val, BPF_ANY), 0);
	cr_assert_eq(hxe_run(x, 0, pkt64, sizeof(pkt64)), 0);
	return x;
}

Test(engine, redirect_through_the_port_table)
{
	struct hxe *x = redirect(0, 5);

	cr_assert_eq(x->frame.verdict, XDP_REDIRECT);
	cr_assert_eq(x->frame.egress, 7);
	hxe_free(x);

	/* A missing key: the flags' low bits, and no egress any more. */
	x = redirect(XDP_PASS, 6);
	cr_assert_eq(x->frame.verdict, XDP_PASS);
	cr_assert_eq(x->frame.egress, HWXDP_EGRESS_NONE);
	hxe_free(x);
	x = redirect(XDP_DROP | BPF_F_EXCLUDE_INGRESS, 6);
	cr_assert_eq(x->frame.verdict, XDP_DROP);
	hxe_free(x);

	/* Flags the kernel does not know: XDP_ABORTED, as bpf_redirect_map. */
	x = redirect(0x100, 5);
	cr_assert_eq(x->frame.verdict, XDP_ABORTED);
	cr_assert_eq(x->frame.error, 0);
	hxe_free(x);
}

Test(engine, port_table_lookup_gives_the_value)
{
	struct hxe *x = hxe_new("st32.lm [r10 - 4], 5 ;;\nadd r1, r10, -4 ;;\n"
				"tlookup.lm r2, 2, r1 ;;\nld32.tm r0, [r2] ;;\nexit",
				port_tables, 1, NULL);
	struct bpf_devmap_val val = { .ifindex = 3 };
	uint32_t k = 5;

	cr_assert_eq(hwxdp_table__update(hwxdp_tables__get(x->t, 2), &k, &val, BPF_ANY), 0);
	cr_assert_eq(hxe_run(x, 0, pkt64, sizeof(pkt64)), 0);
	cr_assert_eq(x->frame.verdict, 3);
	hxe_free(x);
}

static const struct hxu_table_desc prog_tables[] = {
	{ .id = 4,
	  .type = BPF_MAP_TYPE_PROG_ARRAY,
	  .key_size = 4,
	  .value_size = 4,
	  .max_entries = 8,
	  .name = "progs" },
};

static void set_prog(struct hxe *x, uint32_t index, uint32_t prog)
{
	cr_assert_eq(hwxdp_table__update(hwxdp_tables__get(x->t, 4), &index, &prog, BPF_ANY), 0);
}

/* Each program run adds one to the packet's first word; the first tail
 * calls itself through slot 0 until the engine stops it. */
static const char *const self_call =
	"main:\n"
	"ctx r6, data ;;\nld32.pkt r2, [r6] ;;\nadd r2, r2, 1 ;;\nst32.pkt [r6], r2\nmov r3, 0 ;;\n"
	"tcall 4, r3 ;;\n"
	"mov r0, 2 ;;\nexit ;;\n"
	"other:\n"
	"mov r0, 3 ;;\nexit ;;\n";

Test(engine, at_most_33_tail_calls)
{
	static const char *const progs[] = { "other", NULL };
	struct hxe *x = hxe_new(self_call, prog_tables, 1, progs);
	uint32_t runs;

	set_prog(x, 0, 0);
	cr_assert_eq(hxe_run(x, 0, pkt64, sizeof(pkt64)), 0);
	memcpy(&runs, hxe_data(x), 4);
	cr_assert_eq(runs, 1 + HXU_TAIL_CALL_MAX);
	cr_assert_eq(x->frame.verdict, XDP_PASS);
	hxe_free(x);
}

Test(engine, tail_call_to_another_program_and_misses)
{
	static const char *const progs[] = { "other", NULL };
	struct hxe *x = hxe_new(self_call, prog_tables, 1, progs);
	uint32_t runs;

	/* Empty slot: the caller goes on. */
	cr_assert_eq(hxe_run(x, 0, pkt64, sizeof(pkt64)), 0);
	cr_assert_eq(x->frame.verdict, XDP_PASS);
	memcpy(&runs, hxe_data(x), 4);
	cr_assert_eq(runs, 1);
	/* Slot 0 holds program 1. */
	set_prog(x, 0, 1);
	cr_assert_eq(hxe_run(x, 0, pkt64, sizeof(pkt64)), 0);
	cr_assert_eq(x->frame.verdict, XDP_TX);
	/* A program number the image does not have is a miss. */
	set_prog(x, 0, 9);
	cr_assert_eq(hxe_run(x, 0, pkt64, sizeof(pkt64)), 0);
	cr_assert_eq(x->frame.verdict, XDP_PASS);
	/* After delete, a miss again. */
	set_prog(x, 0, 1);
	cr_assert_eq(hwxdp_table__delete(hwxdp_tables__get(x->t, 4), &(uint32_t){ 0 }), 0);
	cr_assert_eq(hxe_run(x, 0, pkt64, sizeof(pkt64)), 0);
	cr_assert_eq(x->frame.verdict, XDP_PASS);
	hxe_free(x);
}

Test(engine, tail_call_from_a_function_returns_to_its_caller)
{
	static const char *const progs[] = { "other", NULL };
	struct hxe *x = hxe_new("mov r6, 40 ;;\ncall fn ;;\nadd r0, r0, r6 ;;\nexit ;;\n"
				"fn: mov r6, 1\nmov r3, 0 ;;\ntcall 4, r3 ;;\nret ;;\n"
				"other: mov r0, 2 ;;\nexit ;;\n",
				prog_tables, 1, progs);

	set_prog(x, 0, 1);
	cr_assert_eq(hxe_run(x, 0, pkt64, sizeof(pkt64)), 0);
	/* other's exit returned to main, whose r6 the call kept. */
	cr_assert_eq(x->frame.verdict, 42);
	hxe_free(x);
}

Test(engine, machine_units)
{
	struct hxe *x = hxe_new("cpu r0 ;;\nexit ;;\n"
				"t: time r0 ;;\nctx r1, data ;;\nst64.pkt [r1], r0 ;;\nexit ;;\n"
				"r: rand r0 ;;\nrand r2 ;;\nctx r1, data ;;\nst64.pkt [r1], r0\n"
				"st64.pkt [r1 + 8], r2 ;;\nexit ;;\n",
				NULL, 0, (const char *const[]){ "t", "r", NULL });
	struct timespec ts;
	uint64_t t0, t, r1, r2, r3, r4;

	hwxdp_engine__set_cpu(x->engine, 3);
	cr_assert_eq(hxe_run(x, 0, pkt64, sizeof(pkt64)), 0);
	cr_assert_eq(x->frame.verdict, 3);

	clock_gettime(CLOCK_MONOTONIC, &ts);
	t0 = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	cr_assert_eq(hxe_run(x, 1, pkt64, sizeof(pkt64)), 0);
	memcpy(&t, hxe_data(x), 8);
	cr_assert(t >= t0 && t - t0 < 1000000000ull, "time %llu, clock %llu", (unsigned long long)t,
		  (unsigned long long)t0);

	hwxdp_engine__set_rand_seed(x->engine, 7);
	cr_assert_eq(hxe_run(x, 2, pkt64, sizeof(pkt64)), 0);
	memcpy(&r1, hxe_data(x), 8);
	memcpy(&r2, hxe_data(x) + 8, 8);
	hwxdp_engine__set_rand_seed(x->engine, 7);
	cr_assert_eq(hxe_run(x, 2, pkt64, sizeof(pkt64)), 0);
	memcpy(&r3, hxe_data(x), 8);
	memcpy(&r4, hxe_data(x) + 8, 8);
	cr_assert(r1 <= UINT32_MAX && r2 <= UINT32_MAX, "32-bit values");
	cr_assert_neq(r1, r2);
	cr_assert_eq(r1, r3, "the same seed, the same values");
	cr_assert_eq(r2, r4);
	hxe_free(x);
}

/* Each clock `time` reads is the host's clock of that name, read between
 * the two readings the test takes of it. */
Test(engine, the_four_clocks)
{
	static const clockid_t ids[HXU_CLOCK__MAX] = {
		[HXU_CLOCK_MONO] = CLOCK_MONOTONIC,
		[HXU_CLOCK_BOOT] = CLOCK_BOOTTIME,
		[HXU_CLOCK_COARSE] = CLOCK_MONOTONIC_COARSE,
		[HXU_CLOCK_TAI] = CLOCK_TAI,
	};
	struct hxe *x =
		hxe_new("time r0 ;;\nctx r1, data ;;\nst64.pkt [r1], r0 ;;\nexit ;;\n"
			"b: time r0, boot ;;\nctx r1, data ;;\nst64.pkt [r1], r0 ;;\nexit ;;\n"
			"c: time r0, coarse ;;\nctx r1, data ;;\nst64.pkt [r1], r0 ;;\nexit ;;\n"
			"t: time r0, tai ;;\nctx r1, data ;;\nst64.pkt [r1], r0 ;;\nexit ;;\n",
			NULL, 0, (const char *const[]){ "b", "c", "t", NULL });

	for (uint32_t clock = 0; clock < HXU_CLOCK__MAX; clock++) {
		struct timespec ts;
		uint64_t before, after, t;

		clock_gettime(ids[clock], &ts);
		before = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
		cr_assert_eq(hxe_run(x, clock, pkt64, sizeof(pkt64)), 0);
		clock_gettime(ids[clock], &ts);
		after = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
		memcpy(&t, hxe_data(x), 8);
		cr_assert(before <= t && t <= after, "clock %u: %llu, not within %llu..%llu", clock,
			  (unsigned long long)t, (unsigned long long)before,
			  (unsigned long long)after);
	}
	hxe_free(x);
}

Test(engine, engines_share_tables)
{
	static const struct hxu_table_desc arr[] = {
		{ .id = 1,
		  .type = BPF_MAP_TYPE_ARRAY,
		  .key_size = 4,
		  .value_size = 8,
		  .max_entries = 1,
		  .name = "count" },
	};
	struct hxe *x = hxe_new("mov r1, 0 ;;\ntindex r2, 1, r1 ;;\nmov r3, 1 ;;\n"
				"atomicadd64.tm [r2], r3 ;;\nmov r0, 2 ;;\nexit",
				arr, 1, NULL);
	struct hwxdp_engine *other = hwxdp_engine__new(&x->img, x->t);
	struct hwxdp_frame f;
	uint64_t count;

	cr_assert(other);
	for (int i = 0; i < 10; i++) {
		hxe_run(x, 0, pkt64, sizeof(pkt64));
		f = x->frame;
		f.data = f.data_meta = HXU_HEADROOM;
		cr_assert_eq(hwxdp_engine__run(other, 0, &f, NULL), 0);
	}
	cr_assert_eq(hwxdp_table__lookup(hwxdp_tables__get(x->t, 1), &(uint32_t){ 0 }, &count), 0);
	cr_assert_eq(count, 20);
	hwxdp_engine__free(other);
	hxe_free(x);
}

Test(engine, image_may_go_after_load)
{
	struct hxe *x = hxe_new("mov r0, 1 ;;\nexit", NULL, 0, NULL);

	/* The engine keeps its own form: scribbling on the words changes nothing. */
	memset(x->as.words, 0, x->as.word_cnt * sizeof(uint64_t));
	cr_assert_eq(hxe_run(x, 0, pkt64, sizeof(pkt64)), 0);
	cr_assert_eq(x->frame.verdict, XDP_DROP);
	hxe_free(x);
}
