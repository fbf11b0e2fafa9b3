// SPDX-License-Identifier: GPL-2.0
/* The accessors of include/hwxdp/object.h: what a user may read of an object. */
#include <string.h>

#include "loader/object.h"

size_t hwxdp_object__prog_cnt(const struct hwxdp_object *obj)
{
	return obj ? obj->prog_cnt : 0;
}

const struct hwxdp_prog *hwxdp_object__prog(const struct hwxdp_object *obj, size_t i)
{
	return obj && i < obj->prog_cnt ? &obj->progs[i] : NULL;
}

size_t hwxdp_object__map_cnt(const struct hwxdp_object *obj)
{
	return obj ? obj->map_cnt : 0;
}

const struct hwxdp_map_desc *hwxdp_object__map(const struct hwxdp_object *obj, size_t i)
{
	return obj && i < obj->map_cnt ? &obj->maps[i] : NULL;
}

const struct hwxdp_map_desc *hwxdp_object__find_map(const struct hwxdp_object *obj,
						    const char *name)
{
	for (size_t i = 0; obj && name && i < obj->map_cnt; i++)
		if (obj->maps[i].origin != HWXDP_MAP_INNER && !strcmp(obj->maps[i].name, name))
			return &obj->maps[i];
	return NULL;
}

const char *hwxdp_object__path(const struct hwxdp_object *obj)
{
	return obj->path;
}

const char *hwxdp_object__license(const struct hwxdp_object *obj)
{
	return obj->license;
}

const struct btf *hwxdp_object__btf(const struct hwxdp_object *obj)
{
	return obj->btf;
}

const char *hwxdp_prog__name(const struct hwxdp_prog *prog)
{
	return prog->name;
}

const char *hwxdp_prog__section(const struct hwxdp_prog *prog)
{
	return prog->section;
}

uint32_t hwxdp_prog__type(const struct hwxdp_prog *prog)
{
	return prog->type;
}

const struct bpf_insn *hwxdp_prog__insns(const struct hwxdp_prog *prog)
{
	return prog->insns;
}

size_t hwxdp_prog__insn_cnt(const struct hwxdp_prog *prog)
{
	return prog->insn_cnt;
}

const char *hwxdp_map__name(const struct hwxdp_map_desc *map)
{
	return map->name;
}

enum hwxdp_map_origin hwxdp_map__origin(const struct hwxdp_map_desc *map)
{
	return map->origin;
}

uint32_t hwxdp_map__type(const struct hwxdp_map_desc *map)
{
	return map->type;
}

uint32_t hwxdp_map__key_size(const struct hwxdp_map_desc *map)
{
	return map->key_size;
}

uint32_t hwxdp_map__value_size(const struct hwxdp_map_desc *map)
{
	return map->value_size;
}

uint32_t hwxdp_map__max_entries(const struct hwxdp_map_desc *map)
{
	return map->max_entries;
}

uint32_t hwxdp_map__btf_key_type_id(const struct hwxdp_map_desc *map)
{
	return map->btf_key_type_id;
}

uint32_t hwxdp_map__btf_value_type_id(const struct hwxdp_map_desc *map)
{
	return map->btf_value_type_id;
}
