// SPDX-License-Identifier: GPL-2.0
/*
 * The device target: the program verified for the coprocessor, translated to
 * microcode and run on one engine of the model, with its maps in the model's
 * table memory.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "device/engine.h"
#include "device/tables.h"
#include "hwmap/translate.h"
#include "hwxdp/object.h"
#include "lab/target.h"
#include "loader/log.h"
#include "verifier/verifier.h"

struct device_target {
	struct hwxdp_object *obj;
	struct hxu_image *img;
	struct hwxdp_tables *tables;
	struct hwxdp_engine *engine;
	uint8_t *window;
	size_t bpf_insns;
	struct hx_run_stats last;
};

static const struct hwxdp_prog *xdp_prog(const struct hwxdp_object *obj)
{
	for (size_t i = 0; i < obj->prog_cnt; i++)
		if (obj->progs[i].type == BPF_PROG_TYPE_XDP)
			return &obj->progs[i];
	return NULL;
}

/* Global data starts with its initial bytes, as a kernel map of it would. */
static int fill_tables(struct device_target *dt)
{
	for (size_t i = 0; i < dt->obj->map_cnt && i < HXU_TABLES; i++) {
		const struct hwxdp_map_desc *m = &dt->obj->maps[i];
		struct hwxdp_table *tab = hwxdp_tables__get(dt->tables, (uint32_t)i);
		struct hxu_table_desc d = { .id = (uint32_t)i };
		uint32_t zero = 0;
		int err;

		if (!tab) {
			/* A map the program does not use still exists for the
			 * control plane, as it would in the kernel. */
			d.type = m->type;
			d.key_size = m->key_size;
			d.value_size = m->value_size;
			d.max_entries = m->max_entries;
			d.flags = m->map_flags;
			snprintf(d.name, sizeof(d.name), "%s", m->name);
			if (hwxdp_tables__create(dt->tables, &d))
				continue;
			tab = hwxdp_tables__get(dt->tables, (uint32_t)i);
		}
		if (m->origin != HWXDP_MAP_GLOBAL || !m->initial)
			continue;
		if (m->initial_size > m->value_size)
			return -EINVAL;
		err = hwxdp_table__update(tab, &zero, m->initial, BPF_ANY);
		if (err)
			return err;
	}
	return 0;
}

static void device_close(struct hx_target *target)
{
	struct device_target *dt = target->priv;

	if (!dt)
		return;
	hwxdp_engine__free(dt->engine);
	hwxdp_tables__free(dt->tables);
	hxu_image__free(dt->img);
	hwxdp_object__close(dt->obj);
	free(dt->window);
	free(dt);
	target->priv = NULL;
}

static int device_open(struct hx_target *target, const char *object_path)
{
	struct hwxdp_verify_opts vopts = { .sz = sizeof(vopts), .device = true };
	struct hwxdp_verify_result *res = NULL;
	uint32_t device = HWXDP_TARGET_DEVICE;
	const struct hwxdp_prog *prog;
	struct device_target *dt;
	char msg[512];
	int err;

	dt = calloc(1, sizeof(*dt));
	if (!dt)
		return -ENOMEM;
	target->priv = dt;
	dt->window = calloc(1, HXU_WINDOW_SIZE);
	if (!dt->window) {
		err = -ENOMEM;
		goto fail;
	}
	err = hwxdp_object__open(object_path, &dt->obj);
	if (err)
		goto fail;
	err = hwxdp_object__set_global(dt->obj, "hwxdp_target", &device, sizeof(device));
	if (err && err != -ENOENT)
		goto fail;
	prog = xdp_prog(dt->obj);
	if (!prog) {
		err = -ENOENT;
		goto fail;
	}
	dt->bpf_insns = prog->insn_cnt;
	vopts.expected_attach_type = prog->expected_attach_type;
	err = hwxdp_verify(dt->obj, prog, &vopts, &res);
	if (err)
		goto fail;
	if (!res->accepted) {
		pr_warn("device target: %s refused by the verifier:\n%s", prog->name,
			res->log ? res->log : "");
		err = -EACCES;
		goto fail;
	}
	err = hwxdp_translate(dt->obj, prog, res, &dt->img, msg, sizeof(msg));
	if (err) {
		pr_warn("device target: %s: %s\n", prog->name, msg);
		goto fail;
	}
	hwxdp_verify_result__free(res);
	res = NULL;
	dt->tables = hwxdp_tables__new();
	if (!dt->tables) {
		err = -ENOMEM;
		goto fail;
	}
	/* Fixed seeds: two runs of the same test see the same device. */
	hwxdp_tables__set_seed(dt->tables, 0x6877786470ull);
	err = hwxdp_tables__create_all(dt->tables, dt->img);
	if (!err)
		err = fill_tables(dt);
	if (err)
		goto fail;
	dt->engine = hwxdp_engine__new(dt->img, dt->tables);
	if (!dt->engine) {
		err = -errno;
		goto fail;
	}
	hwxdp_engine__set_rand_seed(dt->engine, 1);
	return 0;
fail:
	hwxdp_verify_result__free(res);
	device_close(target);
	return err;
}

static struct hwxdp_table *table_by_name(struct hx_target *target, const char *name)
{
	struct device_target *dt = target->priv;

	for (size_t i = 0; i < dt->obj->map_cnt && i < HXU_TABLES; i++)
		if (!strcmp(dt->obj->maps[i].name, name))
			return hwxdp_tables__get(dt->tables, (uint32_t)i);
	return NULL;
}

static int device_map_update(struct hx_target *target, const char *map, const void *key,
			     const void *value)
{
	struct hwxdp_table *tab = table_by_name(target, map);

	return tab ? hwxdp_table__update(tab, key, value, BPF_ANY) : -ENOENT;
}

static int device_map_lookup(struct hx_target *target, const char *map, const void *key,
			     void *value)
{
	struct hwxdp_table *tab = table_by_name(target, map);

	return tab ? hwxdp_table__lookup(tab, key, value) : -ENOENT;
}

static int device_map_delete(struct hx_target *target, const char *map, const void *key)
{
	struct hwxdp_table *tab = table_by_name(target, map);

	return tab ? hwxdp_table__delete(tab, key) : -ENOENT;
}

static int device_run(struct hx_target *target, uint32_t ingress_ifindex, const uint8_t *frame,
		      size_t len, struct hx_result *result)
{
	struct device_target *dt = target->priv;
	struct hwxdp_run_stats stats;
	struct hwxdp_frame f = {
		.window = dt->window,
		.data = HXU_HEADROOM,
		.data_meta = HXU_HEADROOM,
		.ingress = ingress_ifindex,
	};
	uint32_t meta_len;
	int err;

	/* As BPF_PROG_TEST_RUN: not even an Ethernet header is no frame. */
	if (len < HXU_ETH_HLEN || len > HXU_FRAME_MAX)
		return -EINVAL;
	memset(dt->window, 0, HXU_WINDOW_SIZE);
	memcpy(dt->window + HXU_HEADROOM, frame, len);
	f.data_end = HXU_HEADROOM + (uint32_t)len;
	err = hwxdp_engine__run(dt->engine, 0, &f, &stats);
	if (err) {
		pr_warn("device target: frame aborted at op %u: %d\n", f.fault_op, err);
		return err < 0 ? err : -err;
	}
	dt->last.ops = stats.ops;
	dt->last.bundles = stats.bundles;
	dt->last.cycles = stats.cycles;
	if (f.data_end - f.data > sizeof(result->frame))
		return -EMSGSIZE;
	result->action = f.verdict;
	meta_len = f.data - f.data_meta;
	if (meta_len >= sizeof(result->meta)) {
		memcpy(&result->meta, dt->window + f.data - sizeof(result->meta),
		       sizeof(result->meta));
		result->has_meta = true;
	}
	result->len = f.data_end - f.data;
	memcpy(result->frame, dt->window + f.data, result->len);
	return 0;
}

static int device_stats(struct hx_target *target, struct hx_run_stats *stats)
{
	struct device_target *dt = target->priv;

	*stats = dt->last;
	stats->image_ops = dt->img->line_cnt;
	stats->bpf_insns = dt->bpf_insns;
	return 0;
}

const struct hx_target_ops hx_device_target = {
	.name = "device",
	.open = device_open,
	.map_update = device_map_update,
	.map_lookup = device_map_lookup,
	.map_delete = device_map_delete,
	.run = device_run,
	.stats = device_stats,
	.close = device_close,
};
