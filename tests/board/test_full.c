// SPDX-License-Identifier: GPL-2.0
/*
 * The board's flow table at its default size, 2,000,000 entries, filled to
 * the last entry from the host: the next insert is refused with E2BIG, the
 * frames of flows in the table forward, and a frame of a flow that is not
 * in it is punted to the host (flow-miss), never dropped.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <linux/bpf.h>

#include "device/tables.h"
#include "hwmap/hash.h"
#include "hwxdp/fwd.h"
#include "loader/object.h"
#include "fwdlab/fwd.h"
#include "loader/device.h"
#include "tests/board/board.h"

#define SAMPLES 4000

/* Flow k's key: board_flow_spec(k)'s frame arriving on port 2. */
static void flow_key(const struct hwxdp_flow_key *base, uint32_t k, struct hwxdp_flow_key *key)
{
	*key = *base;
	key->src[2] = (uint8_t)(k >> 8);
	key->src[3] = (uint8_t)k;
	key->sport_be = htons((uint16_t)(1024 + (k >> 16)));
}

Test(board, full_flow_table, .timeout = 60)
{
	const uint32_t size = 2000000; /* fwd's hwxdp_entries_flows */
	struct hwxdp_flow value = { .nexthop = NH_P1 }, got;
	struct hwxdp_device_memory mem;
	struct hwxdp_device_stats *stats = calloc(1, sizeof(*stats));
	struct hwxdp_flow_key base, key, *keys;
	struct hwxdp_flow *values;
	struct hx_frame_spec spec;
	struct hwxdp_table *flows;
	struct board_case *cases;
	size_t case_cnt = board_cases(&cases);
	uint64_t seed = 5, fill_cnt;
	uint32_t present, count, k;
	double t0, fill_s, bytes_per_entry;
	struct frames fs;
	struct board b;
	int err;

	cr_assert(stats);
	board_open_fwd(&b, 4, NULL, 0);
	flows = board_table(&b, "flows");
	cr_assert(flows);
	/* The size fwd asks for on the device, not its kernel map's. */
	cr_assert_eq(flows->desc.max_entries, size);
	for (size_t i = 0; i < hwxdp_device__prog(b.dev, b.prog)->obj->map_cnt; i++) {
		const struct hwxdp_map_desc *m = &hwxdp_device__prog(b.dev, b.prog)->obj->maps[i];

		if (!strcmp(m->name, "flows"))
			cr_assert_eq(m->max_entries, size);
	}

	present = hwxdp_hash__count(flows->hash);
	cr_assert_eq(present, HX_LAB__COUNT - 1, "the lab's flows");
	fill_cnt = size - present;
	board_flow_spec(0, &spec);
	hx_fwd_flow_key(&base, HWXDP_LIF(2, 0), &spec);
	keys = malloc(fill_cnt * sizeof(*keys));
	values = malloc(fill_cnt * sizeof(*values));
	cr_assert(keys && values);
	for (k = 0; k < fill_cnt; k++) {
		flow_key(&base, k, &keys[k]);
		values[k] = value;
	}

	t0 = board_now();
	count = (uint32_t)fill_cnt;
	err = hwxdp_device__table_update_batch(flows, keys, values, &count, BPF_NOEXIST);
	fill_s = board_now() - t0;
	cr_assert_eq(err, 0, "filling: %d after %u", err, count);
	cr_assert_eq(count, fill_cnt);
	cr_assert_eq(hwxdp_hash__count(flows->hash), size);
	bytes_per_entry = (double)hwxdp_device__table_bytes(flows) / size;
	hwxdp_device__memory(b.dev, &mem);
	cr_log_info("flow table: %u entries filled in %.3f s (%.0f ns each), %.1f bytes per entry; "
		    "device tables %.1f MiB, store %u of %u words",
		    size, fill_s, fill_s * 1e9 / fill_cnt, bytes_per_entry,
		    mem.table_bytes / 1048576.0, mem.store_words, mem.store_capacity);
	fprintf(stderr, "board: flow table %u entries: fill %.3f s, %.1f B/entry\n", size, fill_s,
		bytes_per_entry);
	cr_assert_leq(bytes_per_entry, 96.0, "%.1f bytes per entry", bytes_per_entry);
	cr_assert_geq(mem.table_bytes, hwxdp_device__table_bytes(flows));

	/* Full: one more is refused, in every way of adding it. */
	flow_key(&base, (uint32_t)fill_cnt, &key);
	cr_assert_eq(hwxdp_table__update(flows, &key, &value, BPF_ANY), -E2BIG);
	cr_assert_eq(hwxdp_table__update(flows, &key, &value, BPF_NOEXIST), -E2BIG);
	count = 1;
	cr_assert_eq(hwxdp_device__table_update_batch(flows, &key, &value, &count, BPF_ANY),
		     -E2BIG);
	cr_assert_eq(count, 0);
	/* An entry that is there still takes updates. */
	cr_assert_eq(hwxdp_table__update(flows, &keys[3], &value, BPF_EXIST), 0);

	/* Traffic: the lab's frames, a sample of the filled flows, and flows
	 * beyond the table. */
	frames_init(&fs, case_cnt + 2 * SAMPLES);
	for (size_t c = 0; c < case_cnt; c++)
		frames_add(&fs, cases[c].port, cases[c].frame, cases[c].len);
	for (int i = 0; i < SAMPLES; i++) {
		board_flow_spec((uint32_t)(board_rng(&seed) % fill_cnt), &spec);
		frames_add_spec(&fs, 2, &spec);
	}
	for (int i = 0; i < SAMPLES; i++) {
		board_flow_spec((uint32_t)fill_cnt + (uint32_t)i, &spec);
		frames_add_spec(&fs, 2, &spec);
	}
	cr_assert_eq(hwxdp_device__run_batch(b.dev, fs.f, fs.cnt), 0);
	for (size_t i = 0; i < fs.cnt; i++) {
		const struct hwxdp_device_frame *f = &fs.f[i];

		if (i < case_cnt) {
			cr_assert_eq(f->verdict, cases[i].verdict, "%s", cases[i].name);
			cr_assert_eq(f->reason, cases[i].verdict == XDP_PASS ? cases[i].reason : 0);
		} else if (i < case_cnt + SAMPLES) {
			cr_assert_eq(f->verdict, XDP_REDIRECT, "frame %zu: verdict %u reason %u", i,
				     f->verdict, f->reason);
			cr_assert_eq(f->egress, 1);
		} else {
			cr_assert_eq(f->verdict, XDP_PASS, "frame %zu: verdict %u", i, f->verdict);
			cr_assert_eq(f->reason, HWXDP_PUNT_FLOW_MISS);
			cr_assert_eq(f->out_len, f->len);
			cr_assert_eq(memcmp(f->out, f->data, f->len), 0, "punted as it came");
		}
	}
	hwxdp_device__stats(b.dev, stats);
	cr_assert_eq(stats->verdicts[XDP_DROP], 0);
	cr_assert_eq(stats->verdicts[XDP_ABORTED], 0);
	cr_assert_eq(stats->punts[HWXDP_PUNT_FLOW_MISS], SAMPLES + 1);
	cr_assert_eq(hx_fwd_punts(&b.target, HWXDP_PUNT_FLOW_MISS), SAMPLES + 1,
		     "fwd's own punt counter agrees");

	/* A delete makes room for the flow that did not fit, and its frames
	 * then forward. */
	cr_assert_eq(hwxdp_table__delete(flows, &keys[0]), 0);
	cr_assert_eq(hwxdp_table__update(flows, &key, &value, BPF_NOEXIST), 0);
	fs.cnt = 0;
	board_flow_spec((uint32_t)fill_cnt, &spec);
	frames_add_spec(&fs, 2, &spec);
	board_flow_spec(0, &spec);
	frames_add_spec(&fs, 2, &spec);
	cr_assert_eq(hwxdp_device__run_batch(b.dev, fs.f, fs.cnt), 0);
	cr_assert_eq(fs.f[0].verdict, XDP_REDIRECT);
	cr_assert_eq(fs.f[1].verdict, XDP_PASS);
	cr_assert_eq(fs.f[1].reason, HWXDP_PUNT_FLOW_MISS);
	cr_assert_eq(hwxdp_table__lookup(flows, &key, &got), 0);
	cr_assert_eq(got.packets, 1);

	frames_free(&fs);
	free(keys);
	free(values);
	free(stats);
	board_close(&b);
}
