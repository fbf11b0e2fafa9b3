// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/bpf.h>

#include "device/engine.h"
#include "device/tables.h"
#include "hwmap/hash.h"
#include "hwmap/translate.h"
#include "loader/object.h"
#include "loader/device.h"
#include "base/log.h"
#include "verifier/verifier.h"

/*
 * The slots of maps of maps their definition fills (`.values`), as libbpf
 * fills the kernel's: each with its map's table id (a map's table id is its
 * index), where both have a table.
 */
static int fill_maps_of_maps(struct hwxdp_tables *tables, const struct hwxdp_map_desc *maps,
			     size_t map_cnt)
{
	for (size_t i = 0; i < map_cnt && i < HXU_TABLES; i++) {
		struct hwxdp_table *tab = hwxdp_tables__get(tables, (uint32_t)i);

		for (uint32_t k = 0; tab && k < maps[i].init_map_cnt; k++) {
			const struct hwxdp_init_map *im = &maps[i].init_maps[k];
			int err;

			if (!hwxdp_tables__get(tables, im->map))
				continue;
			err = hwxdp_table__update(tab, &im->slot, &im->map, BPF_ANY);
			if (err)
				return err;
		}
	}
	return 0;
}

int hwxdp_device_tables__fill(struct hwxdp_tables *tables, const struct hwxdp_map_desc *maps,
			      size_t map_cnt)
{
	for (size_t i = 0; i < map_cnt && i < HXU_TABLES; i++) {
		const struct hwxdp_map_desc *m = &maps[i];
		struct hwxdp_table *tab = hwxdp_tables__get(tables, (uint32_t)i);
		uint32_t zero = 0;
		int err;

		/* a map of maps' template is no map of its own */
		if (!tab && m->origin == HWXDP_MAP_INNER)
			continue;
		if (!tab) {
			struct hxu_table_desc desc = {
				.id = (uint32_t)i,
				.type = m->type,
				.key_size = m->key_size,
				.value_size = m->value_size,
				.max_entries = m->max_entries,
				.flags = m->map_flags,
			};

			if (hxu_map_of_maps(m->type) && m->inner_map < map_cnt)
				desc.inner = (struct hxu_inner_desc){
					maps[m->inner_map].type, maps[m->inner_map].key_size,
					maps[m->inner_map].value_size,
					maps[m->inner_map].max_entries, maps[m->inner_map].map_flags
				};
			snprintf(desc.name, sizeof(desc.name), "%s", m->name);
			if (hwxdp_tables__create(tables, &desc))
				continue;
			tab = hwxdp_tables__get(tables, (uint32_t)i);
		}
		if (!m->initial || !m->initial_size)
			continue;
		if (m->initial_size > m->value_size)
			return -EINVAL;
		err = hwxdp_table__update(tab, &zero, m->initial, BPF_ANY);
		if (err)
			return err;
	}
	return fill_maps_of_maps(tables, maps, map_cnt);
}

/* The index in img of the program m's k-th initial slot names, or
 * HWXDP_PROG_NONE where img does not hold it. */
static uint32_t init_prog_index(const struct hwxdp_object *obj, const struct hxu_image *img,
				const struct hwxdp_map_desc *m, uint32_t k)
{
	uint32_t prog = m->init_progs[k].prog;

	for (uint32_t n = 0; prog < obj->prog_cnt && n < img->prog_cnt; n++)
		if (!strncmp(img->progs[n].name, obj->progs[prog].name, HXU_NAME_MAX - 1))
			return n;
	return HWXDP_PROG_NONE;
}

int hwxdp_device_tables__fill_progs(struct hwxdp_tables *tables, const struct hwxdp_object *obj,
				    const struct hxu_image *img)
{
	for (size_t i = 0; i < obj->map_cnt && i < HXU_TABLES; i++) {
		const struct hwxdp_map_desc *m = &obj->maps[i];
		struct hwxdp_table *tab = hwxdp_tables__get(tables, (uint32_t)i);

		if (m->type != BPF_MAP_TYPE_PROG_ARRAY || !tab)
			continue;
		for (uint32_t k = 0; k < m->init_prog_cnt; k++) {
			uint32_t n = init_prog_index(obj, img, m, k);
			int err;

			/* a program no program of img reaches through m */
			if (n == HWXDP_PROG_NONE)
				continue;
			err = hwxdp_table__update(tab, &m->init_progs[k].slot, &n, BPF_ANY);
			if (err)
				return err;
		}
	}
	return 0;
}

/* The table engine's largest table: hwmap/hash.h takes up to 2^30 entries. */
#define TABLE_ENTRIES_MAX (1u << 30)

static bool port_prog(const struct hwxdp_prog *p)
{
	return hwxdp_port_prog_type(p->type, p->expected_attach_type);
}

/* A devmap entry's program, which a devmap's entry names. */
static bool entry_prog(const struct hwxdp_prog *p)
{
	return p->type == BPF_PROG_TYPE_XDP && p->expected_attach_type == BPF_XDP_DEVMAP;
}

/* The program named (NULL: the first a port runs; by name, a devmap
 * entry's program too, translated alone), or msg naming those there are. */
static int pick_prog(struct hwxdp_device_prog *dp, const char *name, const char *path, char *msg,
		     size_t msglen)
{
	const struct hwxdp_object *obj = dp->obj;
	size_t n;
	int w;

	for (size_t i = 0; i < obj->prog_cnt && !dp->prog; i++)
		if ((port_prog(&obj->progs[i]) || (name && entry_prog(&obj->progs[i]))) &&
		    (!name || !strcmp(obj->progs[i].name, name)))
			dp->prog = &obj->progs[i];
	if (dp->prog)
		return 0;
	if (!name) {
		snprintf(msg, msglen, "%s: no XDP program for a port", path);
		return -ENOENT;
	}
	w = snprintf(msg, msglen, "%s: no XDP program '%s' for a port (it has:", path, name);
	n = w < 0 ? msglen : (size_t)w;
	for (size_t i = 0; i < obj->prog_cnt && n < msglen; i++) {
		const struct hwxdp_prog *p = &obj->progs[i];

		w = snprintf(msg + n, msglen - n, " %s%s", p->name,
			     port_prog(p)		    ? ""
			     : entry_prog(p)		    ? " (for a devmap entry)"
			     : p->type != BPF_PROG_TYPE_XDP ? " (not XDP)"
							    : " (for a cpumap entry)");
		n += w < 0 ? msglen : (size_t)w;
	}
	if (n < msglen)
		snprintf(msg + n, msglen - n, ")");
	return -ENOENT;
}

/* The board's sizes replace the object's before anything reads them, so
 * that the verifier, the translator's table descriptors and table memory
 * all see one size. */
static int apply_sizes(struct hwxdp_object *obj, const struct hwxdp_device_prog_opts *opts,
		       const char *path, char *msg, size_t msglen)
{
	/* What the program asks for: `const volatile __u32
	 * hwxdp_entries_MAP = N;` sizes MAP on the device, and the kernel
	 * copy keeps the map's own max_entries (DESIGN.md, "Maps"). */
	for (size_t i = 0; i < obj->map_cnt; i++) {
		struct hwxdp_map_desc *m = &obj->maps[i];
		char name[HWXDP_NAME_MAX + 16];
		uint32_t entries;

		snprintf(name, sizeof(name), "hwxdp_entries_%s", m->name);
		if (m->origin == HWXDP_MAP_GLOBAL ||
		    hwxdp_object__get_global(obj, name, &entries, sizeof(entries)))
			continue;
		if (!entries || entries > TABLE_ENTRIES_MAX) {
			snprintf(msg, msglen,
				 "%s: %s asks for %u entries, the device takes 1 to %u", path, name,
				 entries, TABLE_ENTRIES_MAX);
			return -EINVAL;
		}
		m->max_entries = entries;
	}
	/* then what the user asks for */
	for (size_t s = 0; s < opts->size_cnt; s++) {
		const struct hwxdp_table_size *ts = &opts->sizes[s];

		for (size_t i = 0; i < obj->map_cnt; i++) {
			struct hwxdp_map_desc *m = &obj->maps[i];

			if (strcmp(m->name, ts->name))
				continue;
			if (m->origin == HWXDP_MAP_GLOBAL) {
				snprintf(msg, msglen, "%s: %s is global data, it has one entry",
					 path, m->name);
				return -EINVAL;
			}
			if (!ts->max_entries || ts->max_entries > TABLE_ENTRIES_MAX) {
				snprintf(msg, msglen,
					 "%s: %s: %u entries, the device takes 1 to %u", path,
					 m->name, ts->max_entries, TABLE_ENTRIES_MAX);
				return -EINVAL;
			}
			m->max_entries = ts->max_entries;
		}
	}
	return 0;
}

/* Another program's table memory serves this one only when it holds this
 * object's maps as they are: same ids, types and sizes, and the same bytes
 * of read-only global data, which the verifier took as constants. */
/* Global data's maps are named after their object ("fwd.rodata"): two
 * builds of one program in files of other names still have the same. */
static bool same_map_name(const char *table, const char *map)
{
	static const char *const sections[] = { ".rodata", ".data", ".bss", NULL };
	const char *a = strchr(table, '.'), *b = strchr(map, '.');

	if (!strncmp(table, map, HXU_NAME_MAX - 1))
		return true;
	if (!a || !b || strcmp(a, b))
		return false;
	for (int i = 0; sections[i]; i++)
		if (!strncmp(a, sections[i], strlen(sections[i])))
			return true;
	return false;
}

static bool uses_table(const struct hxu_image *img, size_t id)
{
	for (uint32_t t = 0; t < img->table_cnt; t++)
		if (img->tables[t].id == id)
			return true;
	return false;
}

static int check_shared(const struct hwxdp_device_prog *dp, const char *path, char *msg,
			size_t msglen)
{
	uint8_t value[HWXDP_HASH_VALUE_MAX];
	uint32_t zero = 0;

	for (size_t i = 0; i < dp->obj->map_cnt && i < HXU_TABLES; i++) {
		const struct hwxdp_map_desc *m = &dp->obj->maps[i];
		struct hwxdp_table *tab = hwxdp_tables__get(dp->tables, (uint32_t)i);

		/* A map without a table (a type the device lacks, or one the
		 * first program did not have) is checked by the engine if the
		 * program uses it. */
		if (!tab)
			continue;
		if (!same_map_name(tab->desc.name, m->name) || tab->desc.type != m->type ||
		    tab->desc.key_size != m->key_size || tab->desc.value_size != m->value_size ||
		    tab->desc.max_entries != m->max_entries) {
			snprintf(msg, msglen,
				 "%s: map %u (%s) differs from table %u (%.*s) of the shared table "
				 "memory",
				 path, (unsigned int)i, m->name, (unsigned int)i, HXU_NAME_MAX,
				 tab->desc.name);
			return -EEXIST;
		}
		/* its slots name programs by their index in an image: where
		 * this image's programs use it, its indices must be the ones
		 * the shared table holds */
		for (uint32_t k = 0; m->type == BPF_MAP_TYPE_PROG_ARRAY && uses_table(dp->img, i) &&
				     k < m->init_prog_cnt;
		     k++) {
			uint32_t slot = m->init_progs[k].slot,
				 want = init_prog_index(dp->obj, dp->img, m, k), have;

			if (hwxdp_table__lookup(tab, &slot, &have))
				have = HWXDP_PROG_NONE;
			if (have != want) {
				snprintf(msg, msglen,
					 "%s: program array %s: slot %u holds program %d of the "
					 "shared table memory's image, program %d of this one",
					 path, m->name, slot, (int)have, (int)want);
				return -EEXIST;
			}
		}
		if (!m->read_only || !m->initial || m->initial_size > sizeof(value))
			continue;
		if (hwxdp_table__lookup(tab, &zero, value) ||
		    memcmp(value, m->initial, m->initial_size)) {
			snprintf(msg, msglen, "%s: %s differs from the shared table's bytes", path,
				 m->name);
			return -EEXIST;
		}
	}
	return 0;
}

/* The image's tables, an ARRAY in the caller's memory where it gives some. */
static int create_tables(struct hwxdp_tables *tables, const struct hxu_image *img,
			 const struct hwxdp_device_prog_opts *opts)
{
	for (uint32_t i = 0; i < img->table_cnt; i++) {
		const struct hxu_table_desc *desc = &img->tables[i];
		size_t size = 0;
		void *mem = NULL;
		int err;

		if (opts->array_memory && desc->type == BPF_MAP_TYPE_ARRAY)
			mem = opts->array_memory(desc, &size, opts->array_memory_ctx);
		err = mem ? hwxdp_tables__create_at(tables, desc, mem, size)
			  : hwxdp_tables__create(tables, desc);
		if (err)
			return err;
	}
	return 0;
}

static int build(struct hwxdp_device_prog *dp, const char *path,
		 const struct hwxdp_device_prog_opts *opts, char *msg, size_t msglen)
{
	struct hwxdp_translate_times tt = { 0 };
	struct hwxdp_translate_opts topts = { .sz = sizeof(topts), .times = &tt };
	struct timespec t0, t1;
	char why[512];
	int err;

	if (!opts->no_engine) {
		dp->window = calloc(1, HXU_WINDOW_SIZE);
		if (!dp->window)
			return -ENOMEM;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = hwxdp_object__open(path, &dp->obj);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	dp->times.open_ns = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000u + (uint64_t)t1.tv_nsec -
			    (uint64_t)t0.tv_nsec;
	if (err) {
		snprintf(msg, msglen, "%s", hwxdp_error_message(err));
		return err;
	}
	err = apply_sizes(dp->obj, opts, path, msg, msglen);
	if (err)
		return err;
	err = pick_prog(dp, opts->prog, path, msg, msglen);
	if (err)
		return err;
	err = hwxdp_translate_for_device_opts(dp->obj, dp->prog, &topts, &dp->img, why,
					      sizeof(why));
	dp->times.verify_ns = tt.verify_ns;
	dp->times.translate_ns = tt.translate_ns;
	if (err) {
		if (err == -EACCES)
			snprintf(msg, msglen, "%s: %s: %s (see hwxdp verify %s)", path,
				 dp->prog->name, why, path);
		else
			snprintf(msg, msglen, "%s: %s: %s", path, dp->prog->name, why);
		return err;
	}
	if (opts->tables) {
		dp->tables = opts->tables;
		dp->tables_shared = true;
		err = check_shared(dp, path, msg, msglen);
		if (err)
			return err;
	} else {
		dp->tables = hwxdp_tables__new();
		if (!dp->tables)
			return -ENOMEM;
		hwxdp_tables__set_seed(dp->tables, 0x6877786470ull);
		err = opts->engines ? hwxdp_tables__set_engines(dp->tables, opts->engines) : 0;
		if (!err)
			err = create_tables(dp->tables, dp->img, opts);
		if (!err)
			err = hwxdp_device_tables__fill(dp->tables, dp->obj->maps,
							dp->obj->map_cnt);
		if (!err)
			err = hwxdp_device_tables__fill_progs(dp->tables, dp->obj, dp->img);
		if (err) {
			snprintf(msg, msglen, "%s: the device cannot hold its maps: %s", path,
				 hwxdp_error_message(err));
			return err;
		}
	}
	if (opts->no_engine)
		return 0;
	dp->engine = hwxdp_engine__new(dp->img, dp->tables);
	if (!dp->engine) {
		err = -errno;
		snprintf(msg, msglen, "%s: the engine refuses the microcode: %s", path,
			 hwxdp_error_message(err));
		return err;
	}
	hwxdp_engine__set_rand_seed(dp->engine, 1);
	return 0;
}

int hwxdp_device_prog__open(const char *path, struct hwxdp_device_prog **out, char *msg,
			    size_t msglen)
{
	return hwxdp_device_prog__open_opts(path, NULL, out, msg, msglen);
}

int hwxdp_device_prog__open_opts(const char *path, const struct hwxdp_device_prog_opts *opts,
				 struct hwxdp_device_prog **out, char *msg, size_t msglen)
{
	struct hwxdp_device_prog_opts o = { .sz = sizeof(o) };
	struct hwxdp_device_prog *dp;
	int err;

	*out = NULL;
	if (opts) {
		if (opts->sz < sizeof(size_t)) {
			snprintf(msg, msglen, "%s: bad options", path);
			return -EINVAL;
		}
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
		o.sz = sizeof(o);
	}
	dp = calloc(1, sizeof(*dp));
	if (!dp) {
		snprintf(msg, msglen, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	snprintf(msg, msglen, "%s: %s", path, strerror(ENOMEM));
	err = build(dp, path, &o, msg, msglen);
	if (err) {
		hwxdp_device_prog__close(dp);
		return err;
	}
	*out = dp;
	return 0;
}

void hwxdp_device_prog__close(struct hwxdp_device_prog *dp)
{
	if (!dp)
		return;
	hwxdp_engine__free(dp->engine);
	if (!dp->tables_shared)
		hwxdp_tables__free(dp->tables);
	hxu_image__free(dp->img);
	hwxdp_object__close(dp->obj);
	free(dp->window);
	free(dp);
}

int hwxdp_device_image__entry_prog(const struct hwxdp_object *obj, const struct hxu_image *img,
				   const char *name, uint32_t *index)
{
	const struct hwxdp_prog *p = hwxdp_object__find_prog(obj, name);

	if (!p)
		return -ENOENT;
	if (!entry_prog(p))
		return -EINVAL;
	/* program 0 is the port's: a devmap program there is translated alone */
	for (uint32_t n = 1; n < img->prog_cnt; n++)
		if (!strncmp(img->progs[n].name, p->name, HXU_NAME_MAX - 1)) {
			*index = n;
			return 0;
		}
	return -ENOENT;
}

int hwxdp_device_prog__entry_prog(const struct hwxdp_device_prog *dp, const char *name,
				  uint32_t *index)
{
	return hwxdp_device_image__entry_prog(dp->obj, dp->img, name, index);
}

struct hwxdp_table *hwxdp_device_prog__table(struct hwxdp_device_prog *dp, const char *name)
{
	for (size_t i = 0; i < dp->obj->map_cnt && i < HXU_TABLES; i++)
		if (!strcmp(dp->obj->maps[i].name, name))
			return hwxdp_tables__get(dp->tables, (uint32_t)i);
	return NULL;
}
