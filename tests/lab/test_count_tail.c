// SPDX-License-Identifier: GPL-2.0
/*
 * The reference interpreter, the device and the kernel on tail calls
 * (tests/devdiff/bpf/tail_values.bpf.c: every slot of an array the object
 * fills, an empty one, indices past the end, a chain through a second
 * array, a program calling itself until the 33 tail calls are spent): the
 * same verdict and bytes for each selector, with the arrays as the object
 * fills them and with slots rewritten by image program number, as a
 * counterexample of `hwxdp prog prove` names them (lab/target.h), which
 * every target must read as the same program.
 */
#include <criterion/criterion.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lab/bpf_count.h"
#include "lab/target.h"

#define TARGETS 3
#define FRAME	64

/* Selector sel (bytes 14..17 of the frame, little-endian) on each target,
 * with byte 20 picking jump_more's slot: the first target's result must be
 * every other's. */
static void run_all(struct hx_target **t, int n, const char *when)
{
	static const uint32_t sels[] = { 0, 1, 2, 3, 4, 5, 7, 8, 0xffffffff };
	static struct hx_result r, want;
	uint8_t frame[FRAME];

	for (size_t s = 0; s < sizeof(sels) / sizeof(sels[0]); s++) {
		for (uint8_t more = 0; more < 4; more++) {
			for (int b = 0; b < FRAME; b++)
				frame[b] = (uint8_t)(b * 7 + 1);
			memcpy(frame + 14, &sels[s], 4);
			frame[20] = more;
			for (int i = 0; i < n; i++) {
				cr_assert_eq(hx_target_run(t[i], 1, frame, sizeof(frame), &r), 0,
					     "%s: %s", when, hx_target_name(t[i]));
				if (i == 0) {
					want = r;
					continue;
				}
				cr_assert(r.action == want.action && r.len == want.len &&
						  !memcmp(r.frame, want.frame, r.len),
					  "%s, selector %u, byte 20 %u: %s says %u (%zu bytes), %s "
					  "%u (%zu bytes)",
					  when, sels[s], more, hx_target_name(t[i]), r.action,
					  r.len, hx_target_name(t[0]), want.action, want.len);
			}
		}
	}
}

Test(lab_count, tail_calls_as_the_kernel_and_the_device)
{
	struct hx_target *t[TARGETS];
	char path[4096];
	uint32_t slot, prog;
	int n = 0;

	snprintf(path, sizeof(path), "%s/tests/devdiff/bpf/tail_values.bpf.o", hx_build_dir());
	if (geteuid() == 0)
		t[n++] = hx_target_open("kernel", path);
	t[n++] = hx_count_target_open(path);
	t[n++] = hx_target_open("device", path);
	for (int i = 0; i < n; i++)
		cr_assert_not_null(t[i], "%s", path);
	run_all(t, n, "the object's arrays");

	/* slot 2, empty in the object, given each program of the image (of
	 * six: the entry, four stages and the one jump_more holds); slot 0
	 * emptied; jump_more's slot 1 given the entry itself */
	for (prog = 0; prog < 6; prog++) {
		char when[64];

		slot = 2;
		for (int i = 0; i < n; i++)
			cr_assert_eq(hx_target_map_update(t[i], "jump", &slot, &prog), 0, "%s",
				     hx_target_name(t[i]));
		snprintf(when, sizeof(when), "slot 2 holding image program %u", prog);
		run_all(t, n, when);
	}
	slot = 0;
	for (int i = 0; i < n; i++)
		cr_assert_eq(hx_target_map_delete(t[i], "jump", &slot), 0, "%s",
			     hx_target_name(t[i]));
	slot = 1;
	prog = 0;
	for (int i = 0; i < n; i++)
		cr_assert_eq(hx_target_map_update(t[i], "jump_more", &slot, &prog), 0, "%s",
			     hx_target_name(t[i]));
	run_all(t, n, "slot 0 empty, jump_more's slot 1 the entry");
	for (int i = 0; i < n; i++)
		hx_target_close(t[i]);
}
