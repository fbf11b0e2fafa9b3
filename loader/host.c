// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "hwxdp/platform.h"
#include "hwxdp/object.h"
#include "base/file.h"
#include "loader/host.h"
#include "loader/legacy_maps.h"
#include "loader/object.h"
#include "base/log.h"

/* Sets the read-only global `hwxdp_target` in .rodata before load. */
static int set_target(struct bpf_object *obj, enum hwxdp_target target)
{
	struct bpf_map *rodata = bpf_object__find_map_by_name(obj, ".rodata");
	const char *initial;
	size_t size;
	char *data;
	int err;

	initial = rodata ? bpf_map__initial_value(rodata, &size) : NULL;
	if (!initial)
		return 0;
	/* libbpf hands out the image read-only: write a copy back. */
	data = malloc(size);
	if (!data)
		return -ENOMEM;
	memcpy(data, initial, size);
	err = hwxdp_target__write(bpf_object__btf(obj), (uint8_t *)data, size, target);
	if (err > 0)
		err = bpf_map__set_initial_value(rodata, data, size);
	free(data);
	return err;
}

/*
 * libbpf 1.x opens the object as it is, or, where its maps are legacy
 * struct bpf_map_def in SEC("maps") (which libbpf 1.x refuses), as
 * loader/legacy_maps.c rewrites it; from *image, which libbpf may read up
 * to the load and the caller frees after. NULL with the reason recorded on
 * failure.
 */
static struct bpf_object *open_object(const char *path, void **image, int *err)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts);
	char msg[256], why[128], name[BPF_OBJ_NAME_LEN];
	const char *base = strrchr(path, '/');
	struct bpf_object *obj;
	size_t size, image_size;
	bool rewritten;
	void *data;

	*image = NULL;
	*err = hwxdp_file__read(path, "objects", HWXDP_FILE_OBJECT_MAX, &data, &size, msg,
				sizeof(msg));
	if (*err) {
		hwxdp_error(*err, "%s", msg);
		return NULL;
	}
	*err = hwxdp_legacy_maps_rewrite(data, size, path, image, &image_size);
	if (*err < 0) {
		free(data);
		return NULL;
	}
	rewritten = *image;
	if (rewritten) {
		free(data);
	} else {
		*image = data;
		image_size = size;
	}
	/* as bpf_object__open_file names it: its global data maps take the name */
	snprintf(name, sizeof(name), "%s", base ? base + 1 : path);
	name[strcspn(name, ".")] = 0;
	opts.object_name = name;
	/* libbpf would say why it cannot open the file in a line of its own:
	 * the one line here says it instead. */
	libbpf_set_print(NULL);
	obj = bpf_object__open_mem(*image, image_size, &opts);
	*err = obj ? 0 : -errno;
	hwxdp_route_libbpf_print();
	if (!obj) {
		/* libbpf's codes share the range of hwxdp's: its own words */
		libbpf_strerror(*err, why, sizeof(why));
		*err = *err > -HWXDP_ERR_BASE ? *err : -HWXDP_ERR_ELF;
		hwxdp_error(*err, "%s: libbpf cannot open it%s: %s", path,
			    rewritten ? " (its legacy maps rewritten as BTF-defined ones)" : "",
			    why);
	}
	return obj;
}

/* A program in a section libbpf does not know, loaded as hwxdp's loader
 * reads it (loader/object.c): XDP for the sections of older loaders. One of
 * another type (a kprobe, a tc program beside the XDP one) is no part of
 * the host copy and is not loaded. */
static int set_prog_types(struct bpf_object *obj)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, obj)
	{
		int err;

		if (bpf_program__type(prog) != BPF_PROG_TYPE_UNSPEC ||
		    !hwxdp_legacy_xdp_section(bpf_program__section_name(prog))) {
			if (bpf_program__type(prog) != BPF_PROG_TYPE_XDP)
				bpf_program__set_autoload(prog, false);
			continue;
		}
		/* as libbpf has it for SEC("xdp"): the kernel attaches a link
		 * only to a program loaded for BPF_XDP */
		err = bpf_program__set_type(prog, BPF_PROG_TYPE_XDP)
			      ?: bpf_program__set_expected_attach_type(prog, BPF_XDP);
		if (err)
			return err;
	}
	return 0;
}

static int set_mmapable(struct bpf_object *obj)
{
	struct bpf_map *map;

	bpf_object__for_each_map(map, obj)
	{
		struct bpf_map *m = map;
		int err;

		/* an array stored in a map of maps must have its template's
		 * flags, which the kernel compares: both mmapable */
		if (bpf_map__type(map) == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
		    bpf_map__type(map) == BPF_MAP_TYPE_HASH_OF_MAPS)
			m = bpf_map__inner_map(map);
		if (!m || bpf_map__type(m) != BPF_MAP_TYPE_ARRAY || bpf_map__is_internal(m))
			continue;
		err = bpf_map__set_map_flags(m, bpf_map__map_flags(m) | BPF_F_MMAPABLE);
		if (err)
			return err;
	}
	return 0;
}

static bool is_fresh(const struct hwxdp_host_load_opts *o, const char *name)
{
	for (size_t i = 0; i < o->fresh_cnt; i++)
		if (o->fresh[i] && !strcmp(o->fresh[i], name))
			return true;
	return false;
}

/*
 * Without a directory of the caller's, no map is pinned: libbpf would pin
 * one declared LIBBPF_PIN_BY_NAME as /sys/fs/bpf/NAME, outside hwxdp's
 * tree, and reuse whatever map of that name another loader left there.
 */
static void unset_pin_paths(struct bpf_object *obj)
{
	struct bpf_map *map;

	bpf_object__for_each_map(map, obj)
	{
		if (bpf_map__pin_path(map))
			bpf_map__set_pin_path(map, NULL);
	}
}

static int set_pin_paths(struct bpf_object *obj, const char *dir,
			 const struct hwxdp_host_load_opts *o)
{
	struct bpf_map *map;

	bpf_object__for_each_map(map, obj)
	{
		char pin[4096];
		int err;

		if (bpf_map__is_internal(map) || is_fresh(o, bpf_map__name(map)))
			continue;
		if (snprintf(pin, sizeof(pin), "%s/%s", dir, bpf_map__name(map)) >=
		    (int)sizeof(pin))
			return -ENAMETOOLONG;
		err = bpf_map__set_pin_path(map, pin);
		if (err)
			return err;
		/* The kernel makes every devmap read-only for programs and says
		 * so in its flags, which libbpf compares before it reuses one. */
		if (bpf_map__type(map) == BPF_MAP_TYPE_DEVMAP ||
		    bpf_map__type(map) == BPF_MAP_TYPE_DEVMAP_HASH) {
			err = bpf_map__set_map_flags(map,
						     bpf_map__map_flags(map) | BPF_F_RDONLY_PROG);
			if (err)
				return err;
		}
	}
	return 0;
}

#ifndef BPF_F_XDP_DEV_BOUND_ONLY
#define BPF_F_XDP_DEV_BOUND_ONLY (1U << 6)
#endif

static void bind_programs(struct bpf_object *obj, unsigned int ifindex)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, obj)
	{
		if (bpf_program__type(prog) != BPF_PROG_TYPE_XDP)
			continue;
		bpf_program__set_ifindex(prog, ifindex);
		bpf_program__set_flags(prog, bpf_program__flags(prog) | BPF_F_XDP_DEV_BOUND_ONLY);
	}
}

struct bpf_object *hwxdp_host_load(const char *path)
{
	return hwxdp_host_load_opts(path, NULL);
}

struct bpf_object *hwxdp_host_load_opts(const char *path, const struct hwxdp_host_load_opts *opts)
{
	struct hwxdp_host_load_opts o = { .sz = sizeof(o) };
	struct bpf_object *obj;
	void *image;
	int err;

	if (opts) {
		if (opts->sz < sizeof(size_t)) {
			errno = EINVAL;
			return NULL;
		}
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	}
	obj = open_object(path, &image, &err);
	if (!obj) {
		free(image);
		errno = -err;
		return NULL;
	}
	err = set_prog_types(obj);
	if (err) {
		hwxdp_error(err, "%s: cannot set its programs' type: %s", path,
			    hwxdp_strerror(err));
		goto fail;
	}
	err = set_target(obj, HWXDP_TARGET_HOST);
	if (err) {
		hwxdp_error(err, "%s: %s", path, hwxdp_error_message(err));
		goto fail;
	}
	if (o.mmapable_arrays) {
		err = set_mmapable(obj);
		if (err) {
			hwxdp_error(err, "%s: cannot make its arrays mmapable: %s", path,
				    hwxdp_strerror(err));
			goto fail;
		}
	}
	if (o.pin_dir) {
		err = set_pin_paths(obj, o.pin_dir, &o);
		if (err) {
			hwxdp_error(err, "%s: a pin path under %s is too long", path, o.pin_dir);
			goto fail;
		}
	} else {
		unset_pin_paths(obj);
	}
	if (o.bind_ifindex)
		bind_programs(obj, o.bind_ifindex);
	err = bpf_object__load(obj);
	if (err) {
		hwxdp_error(err, "%s: the kernel refused the object: %s", path,
			    hwxdp_strerror(err));
		goto fail;
	}
	free(image);
	return obj;
fail:
	bpf_object__close(obj);
	free(image);
	errno = -err;
	return NULL;
}

struct bpf_program *hwxdp_host_port_program(struct bpf_object *obj, const char *name)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, obj)
	{
		if (hwxdp_port_prog_type(bpf_program__type(prog),
					 bpf_program__expected_attach_type(prog)) &&
		    (!name || !strcmp(bpf_program__name(prog), name)))
			return prog;
	}
	return NULL;
}

struct bpf_program *hwxdp_host_xdp_program(struct bpf_object *obj)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, obj) if (bpf_program__type(prog) ==
						    BPF_PROG_TYPE_XDP) return prog;
	return NULL;
}
