// SPDX-License-Identifier: GPL-2.0
/*
 * The image file round trip: what the translator makes, written and read
 * back, is the same image field for field, the same bytes when written
 * again, and runs on the device exactly as the translator's image does.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/engine.h"
#include "hwmap/image.h"
#include "hwmap/translate.h"
#include "fwdlab/fwd_lab.h"
#include "lab/target.h"
#include "tests/image/image_util.h"

/* Saves img, loads it back and checks it; returns the loaded image. */
static struct hxu_image *round_trip(const struct hxu_image *img, const char *dir)
{
	char path[4200], err[256];
	struct hxu_image *back, *again;
	uint8_t *bytes, *bytes2;
	size_t len, len2;
	int fd;

	snprintf(path, sizeof(path), "%s/a.hxu", dir);
	cr_assert_eq(hxu_image__save(img, path, err, sizeof(err)), 0, "%s", err);
	bytes = image_read_file(path, &len);
	cr_assert_eq(len, hxu_image__file_size(img));
	cr_assert(hxu_image__has_magic(bytes, len));
	cr_assert_eq(hxu_image__load(path, &back, err, sizeof(err)), 0, "%s", err);
	image_assert_equal(img, back);
	/* the device judges the loaded image as it judges the original (some
	 * corpus images use tables it lacks) */
	{
		char err2[256];
		int a = hwxdp_engine__check(img, NULL, err, sizeof(err));
		int b = hwxdp_engine__check(back, NULL, err2, sizeof(err2));

		cr_assert_eq(a, b);
		cr_assert_str_eq(err, err2);
	}

	/* read from memory: the same image */
	cr_assert_eq(hxu_image__read_mem(bytes, len, &again, err, sizeof(err)), 0, "%s", err);
	image_assert_equal(img, again);
	hxu_image__free(again);

	/* the loaded image written through an fd: the same bytes */
	snprintf(path, sizeof(path), "%s/b.hxu", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	cr_assert_geq(fd, 0);
	cr_assert_eq(hxu_image__write(back, fd, err, sizeof(err)), 0, "%s", err);
	close(fd);
	bytes2 = image_read_file(path, &len2);
	cr_assert_eq(len2, len);
	cr_assert_arr_eq(bytes2, bytes, len, "a file has one spelling per image");
	free(bytes);
	free(bytes2);
	return back;
}

/* The header as docs/isa.md section 6 lays it out, read independently. */
static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

Test(image, fwd_round_trip)
{
	struct hwxdp_object *obj;
	struct hxu_image *img, *back;
	char dir[64], path[128];
	uint8_t *bytes;
	size_t len, at;

	cr_assert_eq(image_translate(hx_object_path("fwd"), &obj, &img), 0);
	image_tmpdir(dir, sizeof(dir));
	back = round_trip(img, dir);

	/* the layout itself: header, then tables, programs, lines, words */
	snprintf(path, sizeof(path), "%s/a.hxu", dir);
	bytes = image_read_file(path, &len);
	cr_assert_arr_eq(bytes, "HXU0", 4);
	cr_assert_eq(le32(bytes + 4), HXU_VERSION);
	cr_assert_eq(le32(bytes + 8), img->op_cnt);
	cr_assert_eq(le32(bytes + 12), img->table_cnt);
	cr_assert_eq(le32(bytes + 16), img->prog_cnt);
	cr_assert_eq(le32(bytes + 20), img->line_cnt);
	cr_assert_eq(le32(bytes + 24), 0);
	at = 32;
	cr_assert_eq(le32(bytes + at + 8), img->tables[0].key_size);
	cr_assert_str_eq((const char *)bytes + at + 24, img->tables[0].name);
	at += 112 * img->table_cnt;
	cr_assert_str_eq((const char *)bytes + at, img->progs[0].name);
	cr_assert_eq(le32(bytes + at + 64), img->progs[0].entry);
	cr_assert_eq(le32(bytes + at + 68), img->progs[0].frames);
	at += 72 * img->prog_cnt;
	cr_assert_eq(le32(bytes + at + 8 * (img->line_cnt - 1)), img->lines[img->line_cnt - 1].op);
	cr_assert_eq(le32(bytes + at + 8 * (img->line_cnt - 1) + 4),
		     img->lines[img->line_cnt - 1].insn);
	at += 8 * img->line_cnt;
	cr_assert_eq(le32(bytes + at), (uint32_t)img->ops[0]);
	cr_assert_eq(le32(bytes + at + 4), (uint32_t)(img->ops[0] >> 32));
	cr_assert_eq(at + 8 * img->op_cnt, len);

	free(bytes);
	hxu_image__free(back);
	hxu_image__free(img);
	hwxdp_object__close(obj);
	image_tmpdir_remove(dir);
}

/* Every object of the loader's corpus the device takes. */
Test(image, corpus_round_trip)
{
	char pattern[4200], dir[64];
	unsigned int done = 0;
	glob_t g;

	snprintf(pattern, sizeof(pattern), "%s/tests/loader/corpus/*.bpf.o", hx_build_dir());
	cr_assert_eq(glob(pattern, 0, NULL, &g), 0, "%s: build the corpus first", pattern);
	image_tmpdir(dir, sizeof(dir));
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct hwxdp_object *obj;
		struct hxu_image *img, *back;

		if (image_translate(g.gl_pathv[i], &obj, &img))
			continue;
		back = round_trip(img, dir);
		hxu_image__free(back);
		hxu_image__free(img);
		hwxdp_object__close(obj);
		done++;
	}
	globfree(&g);
	image_tmpdir_remove(dir);
	cr_assert_geq(done, 3, "only %u corpus objects translate", done);
}

/* An image with more than one program, no lines and no tables, as the
 * format allows and the translator does not make. */
Test(image, hand_made_round_trip)
{
	static const struct hxu_prog_desc progs[] = {
		{ .name = "first", .entry = 0, .frames = 1 },
		{ .name = "second", .entry = 1, .frames = 8 },
	};
	struct hxu_op exit_op = hxu_op_make(HXU_OP_EXIT, 0, 0, 0, 0, 0, 0);
	struct hxu_op movi = hxu_op_make(HXU_OP_MOVI, 0, 0, 0, 0, 0, 1);
	uint64_t ops[4], w[2];
	struct hxu_image img = {
		.version = HXU_VERSION, .ops = ops, .op_cnt = 4, .progs = progs, .prog_cnt = 2
	};
	struct hxu_image *back;
	char dir[64];

	exit_op.end = true;
	hxu_encode(&exit_op, ops);
	movi.ext = 0x12345678;
	movi.end = true;
	hxu_encode(&movi, ops + 1);
	hxu_encode(&exit_op, w);
	ops[3] = w[0];
	{
		char err[256];

		cr_assert_eq(hwxdp_engine__check(&img, NULL, err, sizeof(err)), 0, "%s", err);
	}
	image_tmpdir(dir, sizeof(dir));
	back = round_trip(&img, dir);
	cr_assert_null(back->lines);
	cr_assert_eq(back->progs[1].frames, 8);
	hxu_image__free(back);
	image_tmpdir_remove(dir);
}

static void assert_same_run(struct hx_target *a, struct hx_target *b, uint32_t ingress,
			    const uint8_t *frame, size_t len, const char *what)
{
	static struct hx_result ra, rb;
	struct hx_run_stats sa, sb;

	memset(&ra, 0, sizeof(ra));
	memset(&rb, 0, sizeof(rb));
	cr_assert_eq(hx_target_run(a, ingress, frame, len, &ra), 0, "%s", what);
	cr_assert_eq(hx_target_run(b, ingress, frame, len, &rb), 0, "%s", what);
	cr_assert_eq(ra.action, rb.action, "%s: verdict", what);
	cr_assert_eq(ra.len, rb.len, "%s: length", what);
	cr_assert_arr_eq(ra.frame, rb.frame, ra.len, "%s: bytes", what);
	cr_assert_eq(ra.has_meta, rb.has_meta, "%s: metadata", what);
	cr_assert_arr_eq(&ra.meta, &rb.meta, sizeof(ra.meta), "%s: metadata", what);
	cr_assert_eq(hx_target_stats(a, &sa), 0);
	cr_assert_eq(hx_target_stats(b, &sb), 0);
	cr_assert_eq(sa.ops, sb.ops, "%s: operations", what);
	cr_assert_eq(sa.bundles, sb.bundles, "%s: issue slots", what);
	cr_assert_eq(sa.cycles, sb.cycles, "%s: cycles", what);
}

/*
 * fwd's image read from its file runs every lab frame, on every port, as
 * the device target (which translates the object itself) runs it: the same
 * verdicts, bytes, metadata and costs, and the same counters afterwards.
 */
Test(image, loaded_fwd_runs_as_translated)
{
	static const uint32_t ifindex[HX_LAB_PORTS] = { 11, 12, 13 };
	struct hwxdp_object *obj;
	struct hxu_image *img, *back;
	struct hx_target *dev, *loaded;
	char dir[64], path[128], err[256];
	unsigned int forwarded = 0;

	cr_assert_eq(image_translate(hx_object_path("fwd"), &obj, &img), 0);
	image_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/fwd.hxu", dir);
	cr_assert_eq(hxu_image__save(img, path, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(hxu_image__load(path, &back, err, sizeof(err)), 0, "%s", err);

	dev = hx_target_open("device", hx_object_path("fwd"));
	cr_assert_not_null(dev);
	loaded = image_target_open(back, obj);
	cr_assert_eq(hx_lab_setup(dev, ifindex), 0);
	cr_assert_eq(hx_lab_setup(loaded, ifindex), 0);
	for (int k = 0; k < HX_LAB__COUNT; k++) {
		uint8_t frame[HX_PKT_MAX];
		size_t len = hx_lab_build((enum hx_lab_kind)k, frame, sizeof(frame));
		static struct hx_result r;
		char what[96];

		cr_assert_gt(len, 0);
		for (unsigned int port = 0; port <= HX_LAB_PORTS; port++) {
			uint32_t ingress = port ? ifindex[port - 1] : 99;

			snprintf(what, sizeof(what), "%s on port %u", hx_lab_frames[k].name, port);
			assert_same_run(dev, loaded, ingress, frame, len, what);
		}
		/* both run it once more, on its own port, so their counters agree */
		cr_assert_eq(hx_target_run(dev, ifindex[hx_lab_frames[k].port - 1], frame, len, &r),
			     0);
		cr_assert_eq(
			hx_target_run(loaded, ifindex[hx_lab_frames[k].port - 1], frame, len, &r),
			0);
		forwarded += r.action == XDP_TX || r.action == XDP_REDIRECT;
	}
	cr_assert_geq(forwarded, HX_LAB__COUNT - 1, "the lab's flows forward");

	/* what the runs counted is the same on both */
	for (uint32_t reason = 0; reason < 24; reason++) {
		uint8_t va[16], vb[16];
		int ea = hx_target_map_lookup(dev, "punt_stats", &reason, va);
		int eb = hx_target_map_lookup(loaded, "punt_stats", &reason, vb);

		cr_assert_eq(ea, eb);
		if (!ea)
			cr_assert_arr_eq(va, vb, sizeof(va), "punt_stats[%u]", reason);
	}
	hx_target_close(dev);
	hx_target_close(loaded);
	hxu_image__free(back);
	hxu_image__free(img);
	hwxdp_object__close(obj);
	image_tmpdir_remove(dir);
}
