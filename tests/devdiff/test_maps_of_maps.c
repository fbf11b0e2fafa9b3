// SPDX-License-Identifier: GPL-2.0
/*
 * Maps of maps (tests/devdiff/bpf/maps_of_maps.bpf.c) on both targets: the
 * kernel loads the object through libbpf, which fills by_slot's slots with
 * count_a and count_b; the device's loader fills them with their table ids.
 * The test stores tag_x and tag_y in by_tag on each side as a control plane
 * does (the kernel's fds, the device's table ids). Frames pick filled,
 * empty and out-of-range slots and present and absent tags, and look up,
 * update and delete through the inner map they pick; each frame leaves the
 * kernel's BPF_PROG_TEST_RUN and the device with the same verdict and
 * bytes, and after every frame both sides' maps (the maps of maps by the
 * maps they name) hold the same, interpreted and compiled.
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

struct way {
	uint8_t slot, tag;
	uint32_t key;
	uint8_t op; /* 0 update, 1 delete, 2 a new key */
	const char *what;
};

static void frame_for(uint8_t *frame, const struct way *w)
{
	for (int i = 0; i < FRAME_LEN; i++)
		frame[i] = (uint8_t)(i * 13 + 7);
	frame[14] = w->slot;
	frame[15] = w->tag;
	memcpy(frame + 16, &w->key, 4);
	frame[20] = w->op;
}

static void store(struct dd_side *k, struct dd_side *d, const char *map, uint32_t key,
		  uint64_t value)
{
	cr_assert_eq(k->target.ops->map_update(&k->target, map, &key, &value), 0, "%s", map);
	cr_assert_eq(d->target.ops->map_update(&d->target, map, &key, &value), 0, "%s", map);
}

static void name_inner(struct dd_side *k, struct dd_side *d, uint32_t tag, const char *inner)
{
	cr_assert_eq(dd_side_set_inner(k, "by_tag", &tag, inner), 0, "kernel: by_tag[%u]", tag);
	cr_assert_eq(dd_side_set_inner(d, "by_tag", &tag, inner), 0, "device: by_tag[%u]", tag);
}

Test(devdiff, maps_of_maps_as_the_kernel)
{
	static const struct way ways[] = {
		{ 0, 1, 10, 0, "slot 0, tag 1 (tag_x): key 10 found, updated" },
		{ 1, 2, 10, 0, "slot 1, tag 2 (tag_y): key 10 found, updated" },
		{ 1, 1, 11, 0, "slot 1, tag 1: key 11 found in tag_x" },
		{ 0, 2, 11, 2, "slot 0, tag 2: key 11 not in tag_y, added" },
		{ 0, 2, 11, 2, "slot 0, tag 2: key 11 now found in tag_y, updated" },
		{ 2, 1, 10, 0, "slot 2: empty; tag 1" },
		{ 3, 1, 12, 2, "slot 3: empty; tag 1: key 12 added" },
		{ 9, 2, 10, 0, "slot 9: past the end; tag 2" },
		{ 0, 5, 10, 0, "tag 5: no map, dropped" },
		{ 1, 0, 10, 0, "tag 0: no map, dropped" },
		{ 0, 1, 10, 1, "tag 1: key 10 deleted" },
		{ 0, 1, 10, 1, "tag 1: key 10 deleted again: -ENOENT" },
		{ 1, 2, 10, 1, "tag 2: key 10 deleted from tag_y" },
		{ 1, 1, 13, 0, "tag 1: key 13 added by BPF_ANY" },
	};
	static struct hx_result rk, rd;
	size_t nways = sizeof(ways) / sizeof(ways[0]);
	uint64_t entries = 0, differ;
	unsigned int maps = 0, shown = 0;
	char path[4096];
	struct dd_side k, d;
	struct hwxdp_frame f;
	struct hwxdp_run_stats st;
	uint8_t frame[FRAME_LEN];
	const char *name;
	uint32_t slot, compiled = 0;
	int ek, ed;

	if (geteuid() != 0)
		cr_skip_test("the kernel side needs root");
	snprintf(path, sizeof(path), "%s/tests/devdiff/bpf/maps_of_maps.bpf.o", hx_build_dir());
	memset(&k, 0, sizeof(k));
	memset(&d, 0, sizeof(d));
	cr_assert_eq(dd_side_open_kernel_prog(&k, path, "mom_entry"), 0, "%s: kernel", path);
	cr_assert_eq(dd_side_open_device_prog(&d, path, "mom_entry"), 0, "%s: device", path);
	/* the definition's slots, on both sides */
	for (slot = 0; slot < 4; slot++) {
		const char *want = slot == 0 ? "count_a" : slot == 1 ? "count_b" : NULL;

		ek = dd_side_inner(&k, "by_slot", &slot, &name);
		cr_expect_eq(ek, want ? 0 : -ENOENT, "kernel: slot %u: %d", slot, ek);
		cr_expect(!want || (!ek && !strcmp(name, want)), "kernel: slot %u names %s", slot,
			  ek ? "nothing" : name);
		ed = dd_side_inner(&d, "by_slot", &slot, &name);
		cr_expect_eq(ed, want ? 0 : -ENOENT, "device: slot %u: %d", slot, ed);
		cr_expect(!want || (!ed && !strcmp(name, want)), "device: slot %u names %s", slot,
			  ed ? "nothing" : name);
	}
	name_inner(&k, &d, 1, "tag_x");
	name_inner(&k, &d, 2, "tag_y");
	store(&k, &d, "tag_x", 10, 1000);
	store(&k, &d, "tag_x", 11, 1100);
	store(&k, &d, "tag_y", 10, 2000);
	/* interpreted, then compiled where the host has a C compiler */
	for (size_t n = 0; n < 2 * nways; n++) {
		const struct way *w = &ways[n % nways];

		if (n == nways) {
			cr_assert_eq(hwxdp_engine__set_mode(d.engine, HWXDP_ENGINE_COMPILED), 0);
			if (hwxdp_engine__mode(d.engine) != HWXDP_ENGINE_COMPILED) {
				cr_log_warn("no compiled engine here: interpreted only");
				break;
			}
		}
		frame_for(frame, w);
		memset(&rk, 0, sizeof(rk));
		memset(&rd, 0, sizeof(rd));
		ek = hx_kernel_run_frame(k.prog_fd, INGRESS, frame, FRAME_LEN, &rk);
		ed = hx_device_run_frame(d.engine, d.window, INGRESS, frame, FRAME_LEN, &rd, &f,
					 &st);
		cr_assert_eq(ek, 0, "%s: the kernel's run: %s", w->what, strerror(-ek));
		if (n >= nways)
			compiled++;
		cr_expect_eq(ed, 0, "%s: the device's run: %d (op %u)", w->what, ed, d.fault_op);
		cr_expect_eq(rd.action, rk.action, "%s: verdict %u on the device, %u in the kernel",
			     w->what, rd.action, rk.action);
		cr_expect(rd.len == rk.len && !memcmp(rd.frame, rk.frame, rk.len),
			  "%s: the device's %zu bytes differ from the kernel's %zu", w->what,
			  rd.len, rk.len);
		/* a missing tag drops; a found key passes it back (XDP_TX) */
		cr_expect_eq(rk.action,
			     w->tag != 1 && w->tag != 2 ? XDP_DROP
			     : rk.frame[24] == 0xee || rk.frame[24] == (uint8_t)(24 * 13 + 7)
				     ? XDP_PASS
				     : XDP_TX,
			     "%s: the kernel's verdict %u", w->what, rk.action);
		differ = dd_compare_maps(&k, &d, &entries, &maps, 4, &shown);
		cr_expect_eq(differ, 0, "%s: %llu map entries differ", w->what,
			     (unsigned long long)differ);
	}
	cr_log_info("%zu frames interpreted, %u compiled, %llu map entries compared, the same "
		    "as the kernel's",
		    nways, compiled, (unsigned long long)entries);
	dd_side_close(&k);
	dd_side_close(&d);
}

/*
 * One call given a map of maps' map on some paths and a map the object
 * names on others (tests/devdiff/bpf/map_or_fallback.bpf.c, Katran's LRU
 * of this CPU or its fallback): each of lookup, update and delete tests the
 * map register for the named map's id and takes the other's table from the
 * handle. Frames take filled slots and empty ones (the fallback), and leave
 * the kernel and the device with the same verdict, bytes and maps.
 */
Test(devdiff, a_map_of_maps_map_or_a_named_map_at_one_call)
{
	static const struct way ways[] = {
		{ 0, 0, 10, 0, "slot 0 (lru_a): key 10 added" },
		{ 0, 0, 10, 0, "slot 0: key 10 found, updated" },
		{ 2, 0, 10, 0, "slot 2, empty: the fallback, key 10 added" },
		{ 3, 0, 10, 0, "slot 3, empty: the fallback, key 10 found" },
		{ 1, 0, 10, 0, "slot 1 (lru_b): key 10 added" },
		{ 9, 0, 11, 0, "slot 9, past the end: the fallback, key 11 added" },
		{ 2, 0, 10, 1, "the fallback: key 10 deleted" },
		{ 2, 0, 10, 1, "the fallback: key 10 deleted again: -ENOENT" },
		{ 0, 0, 10, 1, "slot 0: key 10 deleted" },
		{ 1, 0, 10, 0, "slot 1: key 10 found" },
	};
	static struct hx_result rk, rd;
	size_t nways = sizeof(ways) / sizeof(ways[0]);
	uint64_t entries = 0, differ, fallback_hits = 0;
	unsigned int maps = 0, shown = 0;
	char path[4096];
	struct dd_side k, d;
	struct hwxdp_frame f;
	struct hwxdp_run_stats st;
	uint8_t frame[FRAME_LEN];
	int ek, ed;

	if (geteuid() != 0)
		cr_skip_test("the kernel side needs root");
	snprintf(path, sizeof(path), "%s/tests/devdiff/bpf/map_or_fallback.bpf.o", hx_build_dir());
	memset(&k, 0, sizeof(k));
	memset(&d, 0, sizeof(d));
	cr_assert_eq(dd_side_open_kernel_prog(&k, path, "map_or_fallback"), 0, "%s: kernel", path);
	cr_assert_eq(dd_side_open_device_prog(&d, path, "map_or_fallback"), 0, "%s: device", path);
	for (size_t n = 0; n < nways; n++) {
		const struct way *w = &ways[n];

		frame_for(frame, w);
		memset(&rk, 0, sizeof(rk));
		memset(&rd, 0, sizeof(rd));
		ek = hx_kernel_run_frame(k.prog_fd, INGRESS, frame, FRAME_LEN, &rk);
		ed = hx_device_run_frame(d.engine, d.window, INGRESS, frame, FRAME_LEN, &rd, &f,
					 &st);
		cr_assert_eq(ek, 0, "%s: the kernel's run: %s", w->what, strerror(-ek));
		cr_expect_eq(ed, 0, "%s: the device's run: %d (op %u)", w->what, ed, d.fault_op);
		cr_expect_eq(rd.action, rk.action, "%s: verdict %u on the device, %u in the kernel",
			     w->what, rd.action, rk.action);
		cr_expect(rd.len == rk.len && !memcmp(rd.frame, rk.frame, rk.len),
			  "%s: the device's %zu bytes differ from the kernel's %zu", w->what,
			  rd.len, rk.len);
		fallback_hits += rk.frame[23] == 0xee;
		differ = dd_compare_maps(&k, &d, &entries, &maps, 4, &shown);
		cr_expect_eq(differ, 0, "%s: %llu map entries differ", w->what,
			     (unsigned long long)differ);
	}
	/* the frames took both ways: the slots' maps and the fallback */
	cr_expect_eq(fallback_hits, 5, "%llu frames through the fallback",
		     (unsigned long long)fallback_hits);
	cr_expect_gt(entries, 0, "no map entry compared");
	dd_side_close(&k);
	dd_side_close(&d);
}
