// SPDX-License-Identifier: GPL-2.0
/*
 * Values assembled from narrower packet loads, in every byte order, against
 * the kernel. The translator makes a whole load only of bytes in memory
 * order or in network order; every other order must stay the loads, shifts
 * and ors it was. Each program writes the value it made into the frame, so
 * the bytes on the way out say what it computed.
 */
#include <criterion/criterion.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tests/common/raw_prog.h"
#include "tests/devdiff/pair.h"

#define OUT_OFF	  RAW_OUT_OFF /* the loads read 0..15 */
#define FRAME_LEN 64

static void frame_of(uint8_t *frame)
{
	/* bytes that say where they came from: 0x10 + offset */
	for (int i = 0; i < FRAME_LEN; i++)
		frame[i] = (uint8_t)(0x10 + i);
}

/* 0 when both targets agree byte for byte; the description otherwise. */
static bool agree(const struct raw_prog *p, const char *what, char *why, size_t why_len)
{
	static struct hx_result res[2];
	struct dd_side k, d;
	uint8_t frame[FRAME_LEN];
	char msg[256];
	int err, rc[2];
	bool same;

	err = dd_side_open_kernel_raw(&k, p->insns, p->cnt, NULL, 0, msg, sizeof(msg));
	cr_assert_eq(err, 0, "%s: kernel: %s", what, msg);
	err = dd_side_open_device_raw(&d, p->insns, p->cnt, NULL, 0, msg, sizeof(msg));
	cr_assert_eq(err, 0, "%s: device: %s", what, msg);
	frame_of(frame);
	rc[0] = hx_target_run(&k.target, 1, frame, sizeof(frame), &res[0]);
	rc[1] = hx_target_run(&d.target, 1, frame, sizeof(frame), &res[1]);
	cr_assert_eq(rc[0], 0, "%s: the kernel's run failed", what);
	cr_assert_eq(rc[1], 0, "%s: the device's run failed", what);
	cr_assert_eq(res[0].action, XDP_PASS, "%s: the program did not reach its store", what);
	same = res[0].action == res[1].action && res[0].len == res[1].len &&
	       !memcmp(res[0].frame, res[1].frame, res[0].len);
	if (!same)
		snprintf(why, why_len,
			 "%s: kernel %02x %02x %02x %02x %02x %02x %02x %02x, "
			 "device %02x %02x %02x %02x %02x %02x %02x %02x",
			 what, res[0].frame[OUT_OFF], res[0].frame[OUT_OFF + 1],
			 res[0].frame[OUT_OFF + 2], res[0].frame[OUT_OFF + 3],
			 res[0].frame[OUT_OFF + 4], res[0].frame[OUT_OFF + 5],
			 res[0].frame[OUT_OFF + 6], res[0].frame[OUT_OFF + 7],
			 res[1].frame[OUT_OFF], res[1].frame[OUT_OFF + 1],
			 res[1].frame[OUT_OFF + 2], res[1].frame[OUT_OFF + 3],
			 res[1].frame[OUT_OFF + 4], res[1].frame[OUT_OFF + 5],
			 res[1].frame[OUT_OFF + 6], res[1].frame[OUT_OFF + 7]);
	dd_side_close(&k);
	dd_side_close(&d);
	return same;
}

/* Four one-byte loads into a u32, the byte at +i going to byte perm[i]:
 * all 24 orders, with 32-bit and with 64-bit operations. */
Test(assembled, four_bytes_in_every_order, .timeout = 120)
{
	static const int16_t offs[4] = { 4, 5, 6, 7 };
	int perm[4] = { 0, 1, 2, 3 }, shift[4], wrong = 0;
	char why[256], what[64];

	if (geteuid() != 0)
		cr_skip_test("the kernel side needs root");
	for (int k = 0; k < 24; k++, raw_next_permutation(perm, 4)) {
		for (int alu32 = 0; alu32 < 2; alu32++) {
			struct raw_prog p = { .cnt = 0 };

			for (int i = 0; i < 4; i++)
				shift[i] = perm[i] * 8;
			raw_prologue(&p);
			raw_assemble(&p, BPF_B, offs, shift, 4, alu32);
			raw_epilogue(&p, BPF_W);
			snprintf(what, sizeof(what), "bytes to %d%d%d%d (%s)", perm[0], perm[1],
				 perm[2], perm[3], alu32 ? "alu32" : "alu64");
			if (!agree(&p, what, why, sizeof(why))) {
				cr_log_error("%s", why);
				wrong++;
			}
		}
	}
	cr_assert_eq(wrong, 0, "%d of 48 assembled values differ from the kernel's", wrong);
}

/* The load balancer's `sport << 16 | dport` and its mirror, from 16-bit
 * loads; then two 32-bit halves into a u64 in both orders. */
Test(assembled, halves_in_both_orders, .timeout = 60)
{
	static const int16_t offs16[2] = { 0, 2 }, offs32[2] = { 0, 4 };
	static const int sh16[2][2] = { { 16, 0 }, { 0, 16 } },
			 sh32[2][2] = { { 32, 0 }, { 0, 32 } };
	char why[256];
	int wrong = 0;

	if (geteuid() != 0)
		cr_skip_test("the kernel side needs root");
	for (int o = 0; o < 2; o++) {
		struct raw_prog p16 = { .cnt = 0 }, p32 = { .cnt = 0 };

		raw_prologue(&p16);
		raw_assemble(&p16, BPF_H, offs16, sh16[o], 2, true);
		raw_epilogue(&p16, BPF_W);
		if (!agree(&p16, o ? "p16[0] | p16[1] << 16" : "p16[0] << 16 | p16[1]", why,
			   sizeof(why))) {
			cr_log_error("%s", why);
			wrong++;
		}
		raw_prologue(&p32);
		raw_assemble(&p32, BPF_W, offs32, sh32[o], 2, false);
		raw_epilogue(&p32, BPF_DW);
		if (!agree(&p32, o ? "w[0] | w[1] << 32" : "w[0] << 32 | w[1]", why, sizeof(why))) {
			cr_log_error("%s", why);
			wrong++;
		}
	}
	cr_assert_eq(wrong, 0, "%d of 4 assembled values differ from the kernel's", wrong);
}

/* Bytes that are not neighbours: b[0] | b[2] << 8 is no 16-bit load. */
Test(assembled, bytes_with_a_gap, .timeout = 60)
{
	static const int16_t gap[2] = { 0, 2 }, same[2] = { 3, 3 };
	static const int sh[2] = { 0, 8 };
	struct raw_prog p = { .cnt = 0 }, q = { .cnt = 0 };
	char why[256];

	if (geteuid() != 0)
		cr_skip_test("the kernel side needs root");
	raw_prologue(&p);
	raw_assemble(&p, BPF_B, gap, sh, 2, true);
	raw_epilogue(&p, BPF_H);
	cr_assert(agree(&p, "b[0] | b[2] << 8", why, sizeof(why)), "%s", why);
	raw_prologue(&q);
	raw_assemble(&q, BPF_B, same, sh, 2, false);
	raw_epilogue(&q, BPF_H);
	cr_assert(agree(&q, "b[3] | b[3] << 8", why, sizeof(why)), "%s", why);
}
