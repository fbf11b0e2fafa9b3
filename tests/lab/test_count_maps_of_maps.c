// SPDX-License-Identifier: GPL-2.0
/*
 * The reference interpreter, the device and the kernel on maps of maps
 * (tests/devdiff/bpf/maps_of_maps.bpf.c), from one starting state: a map of
 * maps' value is the index of one of the object's maps for every target
 * (the device's table id, the kernel's that map's fd), and reads back so.
 * The frames pick filled and empty slots, present and absent tags, and
 * write through the inner map they pick; each target's verdict, bytes and
 * the inner maps' contents must be the kernel's.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lab/bpf_count.h"
#include "lab/target.h"
#include "loader/object.h"

#define TARGETS 3

static uint32_t index_of(const struct hwxdp_object *obj, const char *name)
{
	for (size_t i = 0; i < obj->map_cnt; i++)
		if (!strcmp(obj->maps[i].name, name))
			return (uint32_t)i;
	cr_assert_fail("no map %s", name);
	return 0;
}

Test(lab_count, maps_of_maps_as_the_kernel_and_the_device)
{
	static const uint8_t ways[][4] = {
		/* slot, tag, key, operation (0 update, 1 delete, 2 add) */
		{ 0, 1, 10, 0 }, { 1, 2, 10, 0 }, { 3, 1, 11, 2 }, { 9, 2, 11, 2 },
		{ 0, 5, 10, 0 }, { 1, 1, 10, 1 }, { 1, 1, 10, 1 }, { 0, 2, 12, 0 },
	};
	static struct hx_result r, want;
	struct hx_target *t[TARGETS];
	struct hwxdp_object *obj;
	uint32_t tag, idx, got, key;
	uint64_t v, kv;
	uint8_t frame[64];
	char path[4096];
	int n = 0;

	snprintf(path, sizeof(path), "%s/tests/devdiff/bpf/maps_of_maps.bpf.o", hx_build_dir());
	cr_assert_eq(hwxdp_object__open(path, &obj), 0, "%s", path);
	if (geteuid() == 0)
		t[n++] = hx_target_open("kernel", path);
	t[n++] = hx_count_target_open(path);
	t[n++] = hx_target_open("device", path);
	for (int i = 0; i < n; i++)
		cr_assert_not_null(t[i], "%s", path);
	for (int i = 0; i < n; i++) {
		tag = 1;
		idx = index_of(obj, "tag_x");
		cr_assert_eq(hx_target_map_update(t[i], "by_tag", &tag, &idx), 0, "%s",
			     hx_target_name(t[i]));
		tag = 2;
		idx = index_of(obj, "tag_y");
		cr_assert_eq(hx_target_map_update(t[i], "by_tag", &tag, &idx), 0);
		cr_assert_eq(hx_target_map_lookup(t[i], "by_tag", &tag, &got), 0);
		cr_expect_eq(got, idx, "%s: by_tag[2] reads %u, not tag_y's %u",
			     hx_target_name(t[i]), got, idx);
		/* the definition's slot 1: count_b */
		tag = 1;
		cr_assert_eq(hx_target_map_lookup(t[i], "by_slot", &tag, &got), 0);
		cr_expect_eq(got, index_of(obj, "count_b"), "%s: by_slot[1] reads %u",
			     hx_target_name(t[i]), got);
		key = 10;
		v = 1000;
		cr_assert_eq(hx_target_map_update(t[i], "tag_x", &key, &v), 0);
	}
	for (size_t w = 0; w < sizeof(ways) / sizeof(ways[0]); w++) {
		for (int b = 0; b < 64; b++)
			frame[b] = (uint8_t)(b * 13 + 7);
		frame[14] = ways[w][0];
		frame[15] = ways[w][1];
		memset(frame + 16, 0, 4);
		frame[16] = ways[w][2];
		frame[20] = ways[w][3];
		for (int i = 0; i < n; i++) {
			cr_assert_eq(hx_target_run(t[i], 1, frame, sizeof(frame), &r), 0,
				     "frame %zu: %s", w, hx_target_name(t[i]));
			if (i == 0) {
				want = r;
				continue;
			}
			cr_expect_eq(r.action, want.action, "frame %zu: %s says %u, %s %u", w,
				     hx_target_name(t[i]), r.action, hx_target_name(t[0]),
				     want.action);
			cr_expect(r.len == want.len && !memcmp(r.frame, want.frame, r.len),
				  "frame %zu: %s's bytes are not %s's", w, hx_target_name(t[i]),
				  hx_target_name(t[0]));
		}
	}
	/* what the frames wrote through the inner maps */
	for (uint32_t k = 10; k <= 12; k++)
		for (int m = 0; m < 2; m++) {
			const char *name = m ? "tag_y" : "tag_x";
			int e0 = hx_target_map_lookup(t[0], name, &k, &kv);

			for (int i = 1; i < n; i++) {
				int e = hx_target_map_lookup(t[i], name, &k, &v);

				cr_expect_eq(e, e0, "%s[%u]: %s %d, %s %d", name, k,
					     hx_target_name(t[i]), e, hx_target_name(t[0]), e0);
				cr_expect(e || v == kv, "%s[%u]: %s %llu, %s %llu", name, k,
					  hx_target_name(t[i]), (unsigned long long)v,
					  hx_target_name(t[0]), (unsigned long long)kv);
			}
		}
	for (int i = 0; i < n; i++)
		hx_target_close(t[i]);
	hwxdp_object__close(obj);
}
