// SPDX-License-Identifier: GPL-2.0
/*
 * K engines do what one does: the same frames out, in the same order, with
 * the same bytes, and the same map contents after, for fwd on the lab with
 * many flows and every punt reason, over many rounds.
 */
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <linux/bpf.h>

#include "device/tables.h"
#include "loader/object.h"
#include "fwdlab/fwd.h"
#include "loader/device.h"
#include "tests/board/board.h"

#define FLOWS 200
#define REPS  60
#define BATCH 500

static const struct hwxdp_table_size small_flows[] = { { "flows", 4096 } };

struct run {
	struct board b;
	struct frames fs;
	uint32_t *kind;
	struct hwxdp_device_stats *stats;
};

static void run_on(struct run *r, uint32_t engines)
{
	struct board_case *cases;
	size_t case_cnt = board_cases(&cases);

	board_open_fwd(&r->b, engines, small_flows, 1);
	board_add_flows(&r->b, FLOWS);
	frames_init(&r->fs, (case_cnt + FLOWS) * REPS);
	r->kind = calloc(r->fs.cap, sizeof(*r->kind));
	cr_assert(r->kind);
	board_traffic(&r->fs, cases, case_cnt, FLOWS, REPS, 7, r->kind);
	/* Batches of several sizes, the last one short. */
	for (size_t at = 0; at < r->fs.cnt;) {
		size_t n = BATCH + at % 97;

		if (n > r->fs.cnt - at)
			n = r->fs.cnt - at;
		cr_assert_eq(hwxdp_device__run_batch(r->b.dev, r->fs.f + at, n), 0);
		at += n;
	}
	r->stats = calloc(1, sizeof(*r->stats));
	cr_assert(r->stats);
	hwxdp_device__stats(r->b.dev, r->stats);
}

static void run_free(struct run *r)
{
	board_close(&r->b);
	frames_free(&r->fs);
	free(r->kind);
	free(r->stats);
}

static void assert_same_maps(struct run *a, struct run *b)
{
	const struct hwxdp_object *obj = hwxdp_device__prog(a->b.dev, a->b.prog)->obj;
	size_t compared = 0;

	for (size_t i = 0; i < obj->map_cnt; i++) {
		struct hwxdp_table *ta = board_table(&a->b, obj->maps[i].name);
		struct hwxdp_table *tb = board_table(&b->b, obj->maps[i].name);
		struct dump da, db;

		if (!ta) {
			cr_assert_null(tb);
			continue;
		}
		cr_assert(tb);
		table_dump(ta, &da);
		table_dump(tb, &db);
		cr_assert_eq(da.cnt, db.cnt, "map %s: %zu / %zu entries", obj->maps[i].name, da.cnt,
			     db.cnt);
		cr_assert_eq(memcmp(da.bytes, db.bytes, da.cnt * da.entry_size), 0,
			     "map %s differs", obj->maps[i].name);
		dump_free(&da);
		dump_free(&db);
		compared++;
	}
	cr_assert_geq(compared, 6, "fwd's maps were compared");
}

/* One flow, one engine: per-flow order holds. */
static void assert_flow_engine(const struct run *r, size_t kinds)
{
	uint32_t *engine_of = malloc(kinds * sizeof(*engine_of));

	cr_assert(engine_of);
	memset(engine_of, 0xff, kinds * sizeof(*engine_of));
	for (size_t i = 0; i < r->fs.cnt; i++) {
		uint32_t k = r->kind[i];

		if (engine_of[k] == UINT32_MAX)
			engine_of[k] = r->fs.f[i].engine;
		cr_assert_eq(r->fs.f[i].engine, engine_of[k], "frame %zu of flow %u changed engine",
			     i, k);
	}
	free(engine_of);
}

Test(board, engines_agree)
{
	static struct run one, two, four;
	struct board_case *cases;
	size_t case_cnt = board_cases(&cases);
	struct run *many[] = { &two, &four };
	uint64_t forwarded, punted;

	run_on(&one, 1);
	run_on(&two, 2);
	run_on(&four, 4);

	/* The single engine's results are fwd's: check them once. */
	forwarded = one.stats->verdicts[XDP_REDIRECT] + one.stats->verdicts[XDP_TX];
	punted = one.stats->verdicts[XDP_PASS];
	cr_assert_eq(one.stats->frames, one.fs.cnt);
	cr_assert_eq(forwarded + punted, one.fs.cnt, "nothing dropped or aborted");
	for (size_t i = 0; i < one.fs.cnt; i++) {
		const struct hwxdp_device_frame *f = &one.fs.f[i];
		uint32_t k = one.kind[i];

		if (k < case_cnt) {
			cr_assert_eq(f->verdict, cases[k].verdict, "%s", cases[k].name);
			if (cases[k].verdict == XDP_PASS)
				cr_assert_eq(f->reason, cases[k].reason, "%s: reason %u",
					     cases[k].name, f->reason);
			else if (cases[k].verdict == XDP_REDIRECT)
				cr_assert_eq(f->egress, cases[k].egress, "%s", cases[k].name);
		} else {
			cr_assert_eq(f->verdict, XDP_REDIRECT, "flow %zu", k - case_cnt);
			cr_assert_eq(f->egress, 1);
		}
	}

	for (size_t m = 0; m < 2; m++) {
		struct run *r = many[m];
		uint32_t busy = 0;

		frames_assert_same(&one.fs, &r->fs);
		assert_same_maps(&one, r);
		assert_flow_engine(r, case_cnt + FLOWS);
		cr_assert_eq(r->stats->frames, one.stats->frames);
		cr_assert_eq(memcmp(r->stats->verdicts, one.stats->verdicts,
				    sizeof(one.stats->verdicts)),
			     0);
		cr_assert_eq(memcmp(r->stats->punts, one.stats->punts, sizeof(one.stats->punts)),
			     0);
		cr_assert_eq(r->stats->cycles, one.stats->cycles);
		for (uint32_t e = 0; e < r->stats->engines; e++)
			busy += r->stats->engine_frames[e] > r->fs.cnt / (4 * r->stats->engines);
		cr_assert_eq(busy, r->stats->engines, "the flows are spread over every engine");
	}
	run_free(&one);
	run_free(&two);
	run_free(&four);
}

/* What one engine writes into the flow counters equals the frames' count. */
Test(board, flow_counters_add_up)
{
	static struct run r;
	struct hx_frame_spec spec;
	struct hwxdp_flow flow;

	run_on(&r, 4);
	for (unsigned int k = 0; k < FLOWS; k += 37) {
		board_flow_spec(k, &spec);
		cr_assert_eq(hx_fwd_flow_stats(&r.b.target, HWXDP_LIF(2, 0), &spec, &flow), 0);
		cr_assert_eq(flow.packets, REPS, "flow %u: %llu packets", k,
			     (unsigned long long)flow.packets);
	}
	run_free(&r);
}
