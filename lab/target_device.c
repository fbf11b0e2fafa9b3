// SPDX-License-Identifier: GPL-2.0
/*
 * The device target: the program verified for the coprocessor, translated to
 * microcode and run on one engine of the model, with its maps in the model's
 * table memory.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "device/compile.h"
#include "device/engine.h"
#include "device/esp.h"
#include "device/tables.h"
#include "hwmap/hxu.h"
#include "loader/object.h"
#include "lab/target.h"
#include "loader/device.h"
#include "base/log.h"

#define TARGET_SA_MAX 4

struct device_target {
	struct hwxdp_device_prog *dp;
	struct hx_run_stats last;
	/* the crypto unit's SAs (hx_target_esp_sa) */
	struct hwxdp_esp_sa sa[TARGET_SA_MAX];
	uint32_t sa_handle[TARGET_SA_MAX];
	uint32_t sa_cnt;
};

static int device_esp_sa(struct hx_target *target, uint32_t handle)
{
	struct device_target *dt = target->priv;
	int err;

	if (dt->sa_cnt == TARGET_SA_MAX)
		return -ENOSPC;
	err = hx_esp_test_sa(&dt->sa[dt->sa_cnt], handle);
	if (!err)
		err = hwxdp_tables__set_sa(dt->dp->tables, handle, &dt->sa[dt->sa_cnt]);
	if (err) {
		hwxdp_esp_sa__fini(&dt->sa[dt->sa_cnt]);
		return err;
	}
	dt->sa_handle[dt->sa_cnt++] = handle;
	return 0;
}

static void device_close(struct hx_target *target)
{
	struct device_target *dt = target->priv;

	if (!dt)
		return;
	for (uint32_t i = 0; i < dt->sa_cnt; i++) {
		hwxdp_tables__set_sa(dt->dp->tables, dt->sa_handle[i], NULL);
		hwxdp_esp_sa__fini(&dt->sa[i]);
	}
	hwxdp_device_prog__close(dt->dp);
	free(dt);
	target->priv = NULL;
}

static int device_open(struct hx_target *target, const char *object_path)
{
	struct device_target *dt;
	char msg[PATH_MAX + 512]; /* the path, and the reason after it whole */
	int err;

	dt = calloc(1, sizeof(*dt));
	if (!dt)
		return -ENOMEM;
	err = hwxdp_device_prog__open(object_path, &dt->dp, msg, sizeof(msg));
	if (err) {
		hwxdp_error(err, "%s", msg);
		free(dt);
		return err;
	}
	target->priv = dt;
	return 0;
}

static struct hwxdp_table *table_by_name(struct hx_target *target, const char *name)
{
	struct device_target *dt = target->priv;

	return hwxdp_device_prog__table(dt->dp, name);
}

static int device_map_update(struct hx_target *target, const char *map, const void *key,
			     const void *value)
{
	struct hwxdp_table *tab = table_by_name(target, map);

	return tab ? hwxdp_table__update(tab, key, value, BPF_ANY)
		   : hwxdp_error(-ENOENT, "the program has no map \"%s\"", map);
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

int hx_device_run_frame(struct hwxdp_engine *engine, uint8_t *window, uint32_t ingress,
			const uint8_t *frame, size_t len, struct hx_result *result,
			struct hwxdp_frame *f, struct hwxdp_run_stats *stats)
{
	uint32_t meta_len;
	int err;

	*f = (struct hwxdp_frame){
		.window = window,
		.data = HXU_HEADROOM,
		.data_meta = HXU_HEADROOM,
		.data_end = HXU_HEADROOM,
		.ingress = ingress,
	};
	/* As BPF_PROG_TEST_RUN: not even an Ethernet header is no frame. */
	if (len < HXU_ETH_HLEN || len > HXU_FRAME_MAX)
		return -EINVAL;
	hwxdp_frame__place(f, frame, (uint32_t)len);
	err = hwxdp_engine__run(engine, 0, f, stats);
	if (err)
		return err < 0 ? err : -err;
	if (f->data_end - f->data > sizeof(result->frame))
		return -EMSGSIZE;
	result->action = f->verdict;
	/* a result buffer is reused frame after frame: no metadata is no metadata */
	result->has_meta = false;
	memset(&result->meta, 0, sizeof(result->meta));
	meta_len = f->data - f->data_meta;
	if (meta_len >= sizeof(result->meta)) {
		memcpy(&result->meta, window + f->data - sizeof(result->meta),
		       sizeof(result->meta));
		result->has_meta = true;
	}
	result->meta_len = meta_len < sizeof(result->meta_bytes) ? meta_len
								  : sizeof(result->meta_bytes);
	memcpy(result->meta_bytes, window + f->data - result->meta_len, result->meta_len);
	result->len = f->data_end - f->data;
	memcpy(result->frame, window + f->data, result->len);
	result->egress_known = true;
	result->egress = f->egress;
	return 0;
}

static int device_run(struct hx_target *target, uint32_t ingress_ifindex, const uint8_t *frame,
		      size_t len, struct hx_result *result)
{
	struct device_target *dt = target->priv;
	struct hwxdp_run_stats stats = {};
	struct hwxdp_frame f;
	int err;

	err = hx_device_run_frame(dt->dp->engine, dt->dp->window, ingress_ifindex, frame, len,
				  result, &f, &stats);
	if (err && err != -EINVAL && err != -EMSGSIZE)
		pr_warn("device target: frame aborted at op %u: %d\n", f.fault_op, err);
	if (err)
		return err;
	dt->last.ops = stats.ops;
	dt->last.bundles = stats.bundles;
	dt->last.cycles = stats.cycles;
	return 0;
}

static int device_stats(struct hx_target *target, struct hx_run_stats *stats)
{
	struct device_target *dt = target->priv;

	*stats = dt->last;
	stats->image_ops = dt->dp->img->line_cnt;
	stats->bpf_insns = dt->dp->prog->insn_cnt;
	return 0;
}

int hx_device_target_set_compiled(struct hx_target *target, bool compiled)
{
	struct device_target *dt = target->priv;
	int err;

	if (target->ops != &hx_device_target)
		return -EINVAL;
	err = hwxdp_engine__set_mode(dt->dp->engine,
				     compiled ? HWXDP_ENGINE_COMPILED : HWXDP_ENGINE_INTERP);
	if (err)
		return err;
	return hwxdp_engine__mode(dt->dp->engine) == HWXDP_ENGINE_COMPILED;
}

const struct hx_target_ops hx_device_target = {
	.name = "device",
	.open = device_open,
	.map_update = device_map_update,
	.map_lookup = device_map_lookup,
	.map_delete = device_map_delete,
	.run = device_run,
	.stats = device_stats,
	.esp_sa = device_esp_sa,
	.close = device_close,
};
