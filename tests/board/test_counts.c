// SPDX-License-Identifier: GPL-2.0
/*
 * The board's counters against the frames: punts per reason, per port,
 * verdicts, each the sum of what the frames' own results say, and fwd's
 * punt_stats map agrees. And the microcode store refuses what does not fit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <linux/bpf.h>

#include "device/tables.h"
#include "hwmap/hxu.h"
#include "hwxdp/fwd.h"
#include "fwdlab/fwd.h"
#include "tests/board/board.h"

#define FLOWS 50
#define REPS  40
/* A port running a program that punts with the punt operation. */
#define PUNT_PORT      9
#define PUNT_OP_REASON 23
#define PUNT_OP_FRAMES 77

static const struct hwxdp_table_size small_flows[] = { { "flows", 1024 } };

static const struct hwxdp_device_port_stats *port_stats(const struct hwxdp_device_stats *s,
							uint32_t ifindex)
{
	for (uint32_t i = 0; i < s->port_cnt; i++)
		if (s->port[i].ifindex == ifindex)
			return &s->port[i];
	return NULL;
}

Test(board, punts_per_reason)
{
	struct hwxdp_device_stats *stats = calloc(1, sizeof(*stats));
	struct hwxdp_device_port_stats *want = calloc(PUNT_PORT + 1, sizeof(*want));
	uint64_t punts[HWXDP_DEVICE_REASONS] = { 0 }, verdicts[HWXDP_DEVICE_VERDICTS] = { 0 };
	struct board_case *cases;
	size_t case_cnt = board_cases(&cases);
	struct text_image ti;
	uint8_t frame[64] = { 0 };
	uint32_t *kind;
	struct frames fs;
	struct board b;
	char msg[256];
	unsigned int reasons = 0;
	int id;

	cr_assert(stats && want);
	board_open_fwd(&b, 4, small_flows, 1);
	board_add_flows(&b, FLOWS);
	text_image(&ti,
		   "mov r0, 4 ;;\npunt "
		   "23"
		   " ;;\nexit",
		   NULL, 0);
	id = hwxdp_device__load_image(b.dev, &ti.img, NULL, msg, sizeof(msg));
	cr_assert_geq(id, 0, "%s", msg);
	cr_assert_eq(hwxdp_device__attach(b.dev, PUNT_PORT, (uint32_t)id), 0);
	/* A port on the board without a program, and one not on it. */
	cr_assert_eq(hwxdp_device__add_port(b.dev, 10), 0);

	frames_init(&fs, (case_cnt + FLOWS) * REPS + PUNT_OP_FRAMES + 2);
	kind = calloc(fs.cap, sizeof(*kind));
	cr_assert(kind);
	board_traffic(&fs, cases, case_cnt, FLOWS, REPS, 11, kind);
	for (int i = 0; i < PUNT_OP_FRAMES; i++)
		frames_add(&fs, PUNT_PORT, frame, sizeof(frame));
	frames_add(&fs, 10, frame, sizeof(frame));
	frames_add(&fs, 11, frame, sizeof(frame));
	cr_assert_eq(hwxdp_device__run_batch(b.dev, fs.f, fs.cnt), 0);
	hwxdp_device__stats(b.dev, stats);

	for (size_t i = 0; i < fs.cnt; i++) {
		const struct hwxdp_device_frame *f = &fs.f[i];
		struct hwxdp_device_port_stats *w = f->port <= PUNT_PORT ? &want[f->port] : NULL;
		uint32_t v = f->verdict < HWXDP_DEVICE_VERDICTS ? f->verdict : 5;

		/* Each frame's reason is what fwd says for its kind. */
		if (i < fs.cnt - PUNT_OP_FRAMES - 2 && kind[i] < case_cnt)
			cr_assert_eq(f->reason,
				     cases[kind[i]].verdict == XDP_PASS ? cases[kind[i]].reason : 0,
				     "%s: reason %u", cases[kind[i]].name, f->reason);
		if (w) {
			w->frames++;
			w->bytes += f->len;
		}
		if (f->prog == HWXDP_DEVICE_PROG_NONE) {
			if (w)
				w->no_program++;
			continue;
		}
		verdicts[v]++;
		if (w)
			w->verdicts[v]++;
		if (f->verdict != XDP_PASS)
			continue;
		punts[f->reason]++;
		if (w)
			w->punts[f->reason]++;
	}
	cr_assert_eq(stats->frames, fs.cnt);
	cr_assert_eq(stats->no_program, 2);
	cr_assert_eq(memcmp(stats->verdicts, verdicts, sizeof(verdicts)), 0);
	for (unsigned int r = 0; r < HWXDP_DEVICE_REASONS; r++) {
		cr_assert_eq(stats->punts[r], punts[r], "reason %u (%s): %llu, the frames say %llu",
			     r, hwxdp_punt_reason_name(r), (unsigned long long)stats->punts[r],
			     (unsigned long long)punts[r]);
		reasons += punts[r] != 0;
		/* fwd counts its own punts; the punt operation's are not fwd's. */
		if (r && r < HWXDP_PUNT__MAX && r != PUNT_OP_REASON)
			cr_assert_eq(hx_fwd_punts(&b.target, r), punts[r], "reason %s",
				     hwxdp_punt_reason_name(r));
	}
	cr_assert_geq(reasons, 12, "the traffic punts for many reasons");
	cr_assert_eq(punts[PUNT_OP_REASON], PUNT_OP_FRAMES);

	cr_assert_eq(stats->port_cnt, 6, "ports 1..4, the punting one and 10");
	for (uint32_t p = 1; p <= PUNT_PORT; p++) {
		const struct hwxdp_device_port_stats *got = port_stats(stats, p);

		if (!got) {
			cr_assert_eq(want[p].frames, 0);
			continue;
		}
		cr_assert_eq(got->frames, want[p].frames, "port %u", p);
		cr_assert_eq(got->bytes, want[p].bytes, "port %u", p);
		cr_assert_eq(got->no_program, want[p].no_program, "port %u", p);
		cr_assert_eq(memcmp(got->verdicts, want[p].verdicts, sizeof(got->verdicts)), 0,
			     "port %u", p);
		cr_assert_eq(memcmp(got->punts, want[p].punts, sizeof(got->punts)), 0, "port %u",
			     p);
	}
	cr_assert_eq(port_stats(stats, 10)->no_program, 1);
	cr_assert_eq(port_stats(stats, PUNT_PORT)->prog, (uint32_t)id);
	cr_assert_null(port_stats(stats, 11), "a port not on the board is not made by a frame");

	frames_free(&fs);
	free(kind);
	free(want);
	free(stats);
	text_image_free(&ti);
	board_close(&b);
}

static void filler_text(char **text, uint32_t words)
{
	size_t cap = (size_t)words * 16 + 16, n = 0;

	*text = malloc(cap);
	cr_assert(*text);
	/* One word each: a `mov` with a 32-bit immediate, then `exit`. */
	for (uint32_t i = 0; i + 1 < words; i++)
		n += (size_t)snprintf(*text + n, cap - n, "mov r0, %u ;;\n", i % 3);
	snprintf(*text + n, cap - n, "exit\n");
}

Test(board, store_full)
{
	const uint32_t words = 10000;
	struct hwxdp_device_memory mem;
	struct text_image big, rest;
	struct hwxdp_device *dev = hwxdp_device__new(NULL);
	char msg[512], *text;
	int id[4], last;

	cr_assert(dev);
	filler_text(&text, words);
	text_image(&big, text, NULL, 0);
	free(text);
	cr_assert_eq(big.img.op_cnt, words);
	for (int i = 0; i < 3; i++) {
		id[i] = hwxdp_device__load_image(dev, &big.img, NULL, msg, sizeof(msg));
		cr_assert_geq(id[i], 0, "%s", msg);
	}
	msg[0] = '\0';
	last = hwxdp_device__load_image(dev, &big.img, NULL, msg, sizeof(msg));
	cr_assert_eq(last, -ENOSPC);
	cr_assert(strstr(msg, "does not fit"), "%s", msg);
	cr_assert(strstr(msg, "10000 operation words"), "%s", msg);
	cr_assert(strstr(msg, "2768 of its 32768 free"), "%s", msg);
	hwxdp_device__memory(dev, &mem);
	cr_assert_eq(mem.store_words, 3 * words, "a refused program takes nothing");
	cr_assert_eq(mem.store_capacity, HXU_STORE_WORDS);

	/* Exactly what is left fits, and then not one word more. */
	filler_text(&text, HXU_STORE_WORDS - 3 * words);
	text_image(&rest, text, NULL, 0);
	free(text);
	last = hwxdp_device__load_image(dev, &rest.img, NULL, msg, sizeof(msg));
	cr_assert_geq(last, 0, "%s", msg);
	hwxdp_device__memory(dev, &mem);
	cr_assert_eq(mem.store_words, HXU_STORE_WORDS);
	cr_assert_eq(hwxdp_device__load(dev, hx_object_path("fwd"), NULL, msg, sizeof(msg)),
		     -ENOSPC, "fwd does not fit either");
	cr_assert(strstr(msg, "does not fit"), "%s", msg);

	/* Unloading gives the words back. */
	cr_assert_eq(hwxdp_device__unload(dev, (uint32_t)id[1]), 0);
	id[3] = hwxdp_device__load_image(dev, &big.img, NULL, msg, sizeof(msg));
	cr_assert_geq(id[3], 0, "%s", msg);
	hwxdp_device__free(dev);
	text_image_free(&big);
	text_image_free(&rest);
}
