// SPDX-License-Identifier: GPL-2.0
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "device/engine.h"
#include "device/tables.h"
#include "hwmap/translate.h"
#include "hwxdp/fwd.h"
#include "loader/device.h"
#include "tests/image/image_util.h"
#include "verifier/verifier.h"

int image_translate(const char *path, struct hwxdp_object **obj, struct hxu_image **img)
{
	struct hwxdp_verify_opts vopts = { .sz = sizeof(vopts), .device = true };
	struct hwxdp_verify_result *res = NULL;
	uint32_t device = HWXDP_TARGET_DEVICE;
	const struct hwxdp_prog *prog;
	int err;

	*img = NULL;
	cr_assert_eq(hwxdp_object__open(path, obj), 0, "%s opens", path);
	err = hwxdp_object__set_global(*obj, "hwxdp_target", &device, sizeof(device));
	cr_assert(!err || err == -ENOENT);
	prog = hwxdp_object__xdp_prog(*obj);
	err = prog ? 0 : -ENOENT;
	if (!err) {
		vopts.expected_attach_type = prog->expected_attach_type;
		err = hwxdp_verify(*obj, prog, &vopts, &res);
	}
	if (!err && !res->accepted)
		err = -EACCES;
	if (!err)
		err = hwxdp_translate(*obj, prog, res, img, NULL, 0);
	hwxdp_verify_result__free(res);
	if (err) {
		hwxdp_object__close(*obj);
		*obj = NULL;
	}
	return err;
}

void image_assert_equal(const struct hxu_image *a, const struct hxu_image *b)
{
	cr_assert_eq(a->version, b->version);
	cr_assert_eq(a->op_cnt, b->op_cnt);
	cr_assert_eq(a->table_cnt, b->table_cnt);
	cr_assert_eq(a->prog_cnt, b->prog_cnt);
	cr_assert_eq(a->line_cnt, b->line_cnt);
	for (uint32_t i = 0; i < a->op_cnt; i++)
		cr_assert_eq(a->ops[i], b->ops[i], "word %u", i);
	for (uint32_t i = 0; i < a->table_cnt; i++) {
		const struct hxu_table_desc *x = &a->tables[i], *y = &b->tables[i];

		cr_assert_eq(x->id, y->id, "table %u", i);
		cr_assert_eq(x->type, y->type, "table %u", i);
		cr_assert_eq(x->key_size, y->key_size, "table %u", i);
		cr_assert_eq(x->value_size, y->value_size, "table %u", i);
		cr_assert_eq(x->max_entries, y->max_entries, "table %u", i);
		cr_assert_eq(x->flags, y->flags, "table %u", i);
		cr_assert_str_eq(x->name, y->name, "table %u", i);
	}
	for (uint32_t i = 0; i < a->prog_cnt; i++) {
		cr_assert_str_eq(a->progs[i].name, b->progs[i].name, "program %u", i);
		cr_assert_eq(a->progs[i].entry, b->progs[i].entry, "program %u", i);
		cr_assert_eq(a->progs[i].frames, b->progs[i].frames, "program %u", i);
	}
	for (uint32_t i = 0; i < a->line_cnt; i++) {
		cr_assert_eq(a->lines[i].op, b->lines[i].op, "line %u", i);
		cr_assert_eq(a->lines[i].insn, b->lines[i].insn, "line %u", i);
	}
}

struct image_target {
	const struct hxu_image *img;
	struct hwxdp_tables *tables;
	struct hwxdp_engine *engine;
	uint8_t window[HXU_WINDOW_SIZE];
	struct hx_run_stats last;
};

static struct hwxdp_table *table_named(struct hx_target *target, const char *name)
{
	struct image_target *it = target->priv;

	for (uint32_t i = 0; i < it->img->table_cnt; i++)
		if (!strcmp(it->img->tables[i].name, name))
			return hwxdp_tables__get(it->tables, it->img->tables[i].id);
	return NULL;
}

static int it_update(struct hx_target *target, const char *map, const void *key, const void *value)
{
	struct hwxdp_table *tab = table_named(target, map);

	return tab ? hwxdp_table__update(tab, key, value, BPF_ANY) : -ENOENT;
}

static int it_lookup(struct hx_target *target, const char *map, const void *key, void *value)
{
	struct hwxdp_table *tab = table_named(target, map);

	return tab ? hwxdp_table__lookup(tab, key, value) : -ENOENT;
}

static int it_delete(struct hx_target *target, const char *map, const void *key)
{
	struct hwxdp_table *tab = table_named(target, map);

	return tab ? hwxdp_table__delete(tab, key) : -ENOENT;
}

static int it_run(struct hx_target *target, uint32_t ingress, const uint8_t *frame, size_t len,
		  struct hx_result *result)
{
	struct image_target *it = target->priv;
	struct hwxdp_run_stats stats = {};
	struct hwxdp_frame f;
	int err;

	err = hx_device_run_frame(it->engine, it->window, ingress, frame, len, result, &f, &stats);
	it->last.ops = stats.ops;
	it->last.bundles = stats.bundles;
	it->last.cycles = stats.cycles;
	return err;
}

static int it_stats(struct hx_target *target, struct hx_run_stats *stats)
{
	struct image_target *it = target->priv;

	*stats = it->last;
	stats->image_ops = it->img->line_cnt;
	return 0;
}

static void it_close(struct hx_target *target)
{
	struct image_target *it = target->priv;

	hwxdp_engine__free(it->engine);
	hwxdp_tables__free(it->tables);
	free(it);
}

static const struct hx_target_ops image_target_ops = {
	.name = "image",
	.map_update = it_update,
	.map_lookup = it_lookup,
	.map_delete = it_delete,
	.run = it_run,
	.stats = it_stats,
	.close = it_close,
};

struct hx_target *image_target_open(const struct hxu_image *img, const struct hwxdp_object *obj)
{
	struct hx_target *target = calloc(1, sizeof(*target));
	struct image_target *it = calloc(1, sizeof(*it));

	cr_assert(target && it);
	it->img = img;
	it->tables = hwxdp_tables__new();
	cr_assert_not_null(it->tables);
	/* the device target's seed, so that hash layouts are the same */
	hwxdp_tables__set_seed(it->tables, 0x6877786470ull);
	cr_assert_eq(hwxdp_tables__create_all(it->tables, img), 0);
	if (obj)
		cr_assert_eq(hwxdp_device_tables__fill(it->tables, obj->maps, obj->map_cnt), 0);
	it->engine = hwxdp_engine__new(img, it->tables);
	cr_assert_not_null(it->engine, "the engine takes the image");
	hwxdp_engine__set_rand_seed(it->engine, 1);
	target->ops = &image_target_ops;
	target->priv = it;
	return target;
}

void image_tmpdir(char *dir, size_t size)
{
	snprintf(dir, size, "/tmp/hwxdp-image-XXXXXX");
	cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
}

void image_tmpdir_remove(const char *dir)
{
	char path[4352];
	struct dirent *de;
	DIR *d = opendir(dir);

	while (d && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

uint8_t *image_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	cr_assert_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	cr_assert_geq(n, 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	cr_assert_not_null(buf);
	cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}
