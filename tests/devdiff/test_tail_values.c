// SPDX-License-Identifier: GPL-2.0
/*
 * Tail calls through program arrays filled by their definition
 * (tests/devdiff/bpf/tail_values.bpf.c) on both targets: the kernel loads every
 * program and libbpf fills the arrays; the device's image holds the entry
 * and the programs the arrays name, the arrays starting with their image
 * indices. Frames select every slot, an empty one, indices past the end and
 * a stage that goes on through a second array or calls itself to the limit,
 * and each must leave the kernel's BPF_PROG_TEST_RUN and the device with
 * the same verdict and bytes, the verdict and bytes the chosen stage makes.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "device/compile.h"
#include "device/engine.h"
#include "hwmap/hxu.h"
#include "lab/target.h"
#include "loader/device.h"
#include "tests/devdiff/pair.h"

#define FRAME_LEN 64
#define INGRESS	  1 /* lo */

static void frame_for(uint8_t *frame, uint32_t sel, uint8_t more)
{
	for (int i = 0; i < FRAME_LEN; i++)
		frame[i] = (uint8_t)(i * 11 + 5);
	memcpy(frame + 14, &sel, sizeof(sel)); /* little-endian, as the program reads it */
	frame[20] = more;
}

struct way {
	uint32_t sel;
	uint8_t more;
	uint32_t action; /* what the stage chosen returns */
	const char *what;
};

/* The frame the kernel left, against what the way's stage does to it. */
static void check_way(const struct way *w, const uint8_t *in, const struct hx_result *r)
{
	uint8_t want[FRAME_LEN];
	size_t len = FRAME_LEN;

	memcpy(want, in, FRAME_LEN);
	switch (w->sel) {
	case 0:
		for (int i = 0; i < 6; i++) {
			want[i] = in[6 + i];
			want[6 + i] = in[i];
		}
		break;
	case 1:
		memmove(want, in + 14, FRAME_LEN - 14);
		len -= 14;
		want[0] ^= 0x55;
		break;
	case 3:
		want[19] = 0xcc;
		if ((w->more & 3) == 1) {
			len -= 4;
			want[21] = 0xdd;
		}
		break;
	case 4:
		want[22] = (uint8_t)(in[22] + 33); /* the kernel's MAX_TAIL_CALL_CNT */
		break;
	default:
		want[18] = 0xf0;
	}
	cr_expect_eq(r->action, w->action, "%s: the kernel's verdict %u, not %u", w->what,
		     r->action, w->action);
	cr_expect_eq(r->len, len, "%s: the kernel's frame is %zu bytes, not %zu", w->what, r->len,
		     len);
	cr_expect(r->len != len || !memcmp(r->frame, want, len), "%s: the kernel's bytes", w->what);
}

Test(devdiff, tail_calls_through_arrays_filled_by_their_definition)
{
	static const struct way ways[] = {
		{ 0, 0, XDP_TX, "slot 0: MACs swapped" },
		{ 1, 0, XDP_PASS, "slot 1: Ethernet header popped" },
		{ 2, 0, XDP_PASS, "slot 2: empty, falls through" },
		{ 3, 1, XDP_TX, "slot 3, then the second array's slot 1: tail cut" },
		{ 3, 2, XDP_DROP, "slot 3, then the second array's empty slot 2" },
		{ 4, 0, XDP_PASS, "slot 4: itself until the limit" },
		{ 7, 0, XDP_PASS, "slot 7: the last, empty" },
		{ 8, 0, XDP_PASS, "index 8: past the end" },
		{ 1000, 0, XDP_PASS, "index 1000: past the end" },
		{ 0xffffffffu, 0, XDP_PASS, "index 2^32-1: past the end" },
	};
	static struct hx_result rk, rd;
	char path[4096];
	struct dd_side k, d;
	struct hwxdp_frame f;
	struct hwxdp_run_stats st;
	uint8_t frame[FRAME_LEN];
	uint32_t prog, slot, compiled = 0;
	int ek, ed;

	if (geteuid() != 0)
		cr_skip_test("the kernel side needs root");
	snprintf(path, sizeof(path), "%s/tests/devdiff/bpf/tail_values.bpf.o", hx_build_dir());
	memset(&k, 0, sizeof(k));
	memset(&d, 0, sizeof(d));
	cr_assert_eq(dd_side_open_kernel_prog(&k, path, "tv_entry"), 0, "%s: kernel", path);
	cr_assert_eq(dd_side_open_device_prog(&d, path, "tv_entry"), 0, "%s: device", path);
	/* the entry, the four stages of jump and the one of jump_more */
	cr_assert_eq(d.dp->img->prog_cnt, 6, "%u programs in the image", d.dp->img->prog_cnt);
	cr_assert_str_eq(d.dp->img->progs[0].name, "tv_entry");
	slot = 3;
	prog = UINT32_MAX;
	cr_expect_eq(dd_map_lookup(dd_side_map(&d, "jump"), &slot, &prog), 0, "slot 3 is empty");
	cr_expect(prog < d.dp->img->prog_cnt && !strcmp(d.dp->img->progs[prog].name, "tv_mark"),
		  "slot 3 holds program %u, not tv_mark", prog);
	slot = 2;
	cr_expect_eq(dd_map_lookup(dd_side_map(&d, "jump"), &slot, &prog), -ENOENT,
		     "the empty slot 2 holds program %u", prog);
	/* interpreted, then compiled where the host has a C compiler */
	for (size_t n = 0; n < 2 * sizeof(ways) / sizeof(ways[0]); n++) {
		const struct way *w = &ways[n % (sizeof(ways) / sizeof(ways[0]))];

		if (n == sizeof(ways) / sizeof(ways[0])) {
			cr_assert_eq(hwxdp_engine__set_mode(d.engine, HWXDP_ENGINE_COMPILED), 0);
			if (hwxdp_engine__mode(d.engine) != HWXDP_ENGINE_COMPILED) {
				cr_log_warn("no compiled engine here: interpreted only");
				break;
			}
		}

		frame_for(frame, w->sel, w->more);
		memset(&rk, 0, sizeof(rk));
		memset(&rd, 0, sizeof(rd));
		ek = hx_kernel_run_frame(k.prog_fd, INGRESS, frame, FRAME_LEN, &rk);
		ed = hx_device_run_frame(d.engine, d.window, INGRESS, frame, FRAME_LEN, &rd, &f,
					 &st);
		cr_assert_eq(ek, 0, "%s: the kernel's run: %s", w->what, strerror(-ek));
		if (n >= sizeof(ways) / sizeof(ways[0]))
			compiled++;
		check_way(w, frame, &rk);
		cr_expect_eq(ed, 0, "%s: the device's run: %d (op %u)", w->what, ed, d.fault_op);
		cr_expect_eq(rd.action, rk.action, "%s: verdict %u on the device, %u in the kernel",
			     w->what, rd.action, rk.action);
		cr_expect(rd.len == rk.len && !memcmp(rd.frame, rk.frame, rk.len),
			  "%s: the device's %zu bytes differ from the kernel's %zu", w->what,
			  rd.len, rk.len);
	}
	cr_log_info("%zu frames interpreted, %u compiled, the same as the kernel's",
		    sizeof(ways) / sizeof(ways[0]), compiled);
	dd_side_close(&k);
	dd_side_close(&d);
}

/* A tail call after a map write into a program that punts: the host copy
 * would repeat the write, so the device refuses what the kernel runs; the
 * same stage reached with nothing written before is translated. */
Test(devdiff, tail_call_after_a_write_into_a_punt_is_refused)
{
	struct hwxdp_device_prog_opts opts = { .sz = sizeof(opts), .prog = "count_entry" };
	struct hwxdp_device_prog *dp = NULL;
	char path[4096], msg[512] = "";
	struct dd_side k;

	if (geteuid() != 0)
		cr_skip_test("the kernel side needs root");
	snprintf(path, sizeof(path), "%s/tests/devdiff/bpf/tail_punt.bpf.o", hx_build_dir());
	memset(&k, 0, sizeof(k));
	cr_assert_eq(dd_side_open_kernel_prog(&k, path, "count_entry"), 0, "%s: kernel", path);
	dd_side_close(&k);
	cr_assert_eq(hwxdp_device_prog__open_opts(path, &opts, &dp, msg, sizeof(msg)),
		     -HWXDP_ERR_TRANSLATE, "%s", msg);
	cr_expect(strstr(msg, "count_entry tail-calls after a map or packet write") &&
			  strstr(msg, "host_stage, which its tail calls may reach, punts to the "
				      "host"),
		  "%s", msg);
	opts.prog = "clean_entry";
	cr_assert_eq(hwxdp_device_prog__open_opts(path, &opts, &dp, msg, sizeof(msg)), 0, "%s",
		     msg);
	cr_expect_eq(dp->img->prog_cnt, 2);
	hwxdp_device_prog__close(dp);
}
