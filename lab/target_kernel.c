// SPDX-License-Identifier: GPL-2.0
/* The kernel target: the host copy of the program, run by BPF_PROG_TEST_RUN. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "hwmap/translate.h"
#include "lab/target.h"
#include "loader/host.h"
#include "loader/object.h"

struct kernel_target {
	struct bpf_object *obj;
	int prog_fd;
	char *path;
};

static int kernel_open(struct hx_target *target, const char *object_path)
{
	struct kernel_target *kt;
	struct bpf_program *prog;
	int err;

	kt = calloc(1, sizeof(*kt));
	if (!kt)
		return -ENOMEM;
	kt->obj = hwxdp_host_load(object_path);
	if (!kt->obj) {
		err = -errno;
		free(kt);
		return err;
	}
	prog = hwxdp_host_xdp_program(kt->obj);
	if (!prog) {
		bpf_object__close(kt->obj);
		free(kt);
		return -ENOENT;
	}
	kt->prog_fd = bpf_program__fd(prog);
	kt->path = strdup(object_path);
	if (!kt->path) {
		bpf_object__close(kt->obj);
		free(kt);
		return -ENOMEM;
	}
	target->priv = kt;
	return 0;
}

static int map_fd(struct hx_target *target, const char *name)
{
	struct kernel_target *kt = target->priv;
	struct bpf_map *map = bpf_object__find_map_by_name(kt->obj, name);

	return map ? bpf_map__fd(map) : -ENOENT;
}

static bool of_maps(struct hx_target *target, const char *name)
{
	struct kernel_target *kt = target->priv;
	struct bpf_map *map = bpf_object__find_map_by_name(kt->obj, name);
	enum bpf_map_type type = map ? bpf_map__type(map) : BPF_MAP_TYPE_UNSPEC;

	return type == BPF_MAP_TYPE_ARRAY_OF_MAPS || type == BPF_MAP_TYPE_HASH_OF_MAPS;
}

/*
 * A map of maps' value is, for every target, the index of a map in the
 * object (the device's table id): here the fd of the object's map of that
 * index, as the kernel takes one, and back from the kernel's map id.
 */
static int nth_map_fd(struct hx_target *target, uint32_t index)
{
	struct kernel_target *kt = target->priv;
	struct bpf_map *map;
	uint32_t n = 0;

	bpf_object__for_each_map(map, kt->obj) if (n++ == index) return bpf_map__fd(map);
	return -EBADF;
}

static int map_index_of_id(struct hx_target *target, uint32_t id, uint32_t *index)
{
	struct kernel_target *kt = target->priv;
	struct bpf_map *map;
	uint32_t n = 0;

	bpf_object__for_each_map(map, kt->obj)
	{
		struct bpf_map_info info = {};
		uint32_t len = sizeof(info);

		if (!bpf_obj_get_info_by_fd(bpf_map__fd(map), &info, &len) && info.id == id) {
			*index = n;
			return 0;
		}
		n++;
	}
	return -ESRCH;
}

static bool of_progs(struct hx_target *target, const char *name)
{
	struct kernel_target *kt = target->priv;
	struct bpf_map *map = bpf_object__find_map_by_name(kt->obj, name);

	return map && bpf_map__type(map) == BPF_MAP_TYPE_PROG_ARRAY;
}

/*
 * A program array's value is, for every target, the number of a program in
 * the device's image of the object's XDP program (hwxdp_translate_for_device
 * numbers them: the program, the programs its filled arrays name, its
 * devmap programs), the device's own value: here the fd of the host copy
 * of that program, found by name.
 */
static int image_prog_fd(struct hx_target *target, uint32_t k)
{
	struct kernel_target *kt = target->priv;
	const struct hwxdp_prog *prog;
	struct hwxdp_object *obj;
	struct hxu_image *img;
	struct bpf_program *bp;
	char msg[256];
	int fd = -EBADF;

	if (hwxdp_object__open(kt->path, &obj))
		return -EBADF;
	prog = hwxdp_object__xdp_prog(obj);
	if (prog && !hwxdp_translate_for_device(obj, prog, &img, msg, sizeof(msg))) {
		bp = k < img->prog_cnt
			     ? bpf_object__find_program_by_name(kt->obj, img->progs[k].name)
			     : NULL;
		if (bp)
			fd = bpf_program__fd(bp);
		hxu_image__free(img);
	}
	hwxdp_object__close(obj);
	return fd;
}

static int kernel_map_update(struct hx_target *target, const char *map, const void *key,
			     const void *value)
{
	int fd = map_fd(target, map), inner;
	uint32_t index;

	if (fd < 0)
		return fd;
	if (of_progs(target, map)) {
		memcpy(&index, value, sizeof(index));
		inner = image_prog_fd(target, index);
		if (inner < 0)
			return inner;
		return bpf_map_update_elem(fd, key, &inner, BPF_ANY) ? -errno : 0;
	}
	if (of_maps(target, map)) {
		memcpy(&index, value, sizeof(index));
		inner = nth_map_fd(target, index);
		if (inner < 0)
			return inner;
		return bpf_map_update_elem(fd, key, &inner, BPF_ANY) ? -errno : 0;
	}
	return bpf_map_update_elem(fd, key, value, BPF_ANY) ? -errno : 0;
}

static int kernel_map_lookup(struct hx_target *target, const char *map, const void *key,
			     void *value)
{
	int fd = map_fd(target, map);
	uint32_t id, index;
	int err;

	if (fd < 0)
		return fd;
	if (of_maps(target, map)) {
		if (bpf_map_lookup_elem(fd, key, &id))
			return -errno;
		err = map_index_of_id(target, id, &index);
		if (!err)
			memcpy(value, &index, sizeof(index));
		return err;
	}
	return bpf_map_lookup_elem(fd, key, value) ? -errno : 0;
}

static int kernel_map_delete(struct hx_target *target, const char *map, const void *key)
{
	int fd = map_fd(target, map);

	if (fd < 0)
		return fd;
	return bpf_map_delete_elem(fd, key) ? -errno : 0;
}

int hx_kernel_run_frame(int prog_fd, uint32_t ingress_ifindex, const uint8_t *frame, size_t len,
			struct hx_result *result)
{
	/* Room for what a program may add in front (tag, metadata). */
	static uint8_t out[HX_PKT_MAX + 256];
	struct xdp_md ctx_in = {
		.data_end = len,
		.ingress_ifindex = ingress_ifindex,
	};
	struct xdp_md ctx_out = {};
	LIBBPF_OPTS(bpf_test_run_opts, opts,
		.data_in = frame,
		.data_size_in = len,
		.data_out = out,
		.data_size_out = sizeof(out),
		.ctx_in = &ctx_in,
		.ctx_size_in = sizeof(ctx_in),
		.ctx_out = &ctx_out,
		.ctx_size_out = sizeof(ctx_out),
		.repeat = 1,
	);
	size_t meta_len;

	if (bpf_prog_test_run_opts(prog_fd, &opts))
		return -errno;
	/* The output starts at data_meta; ctx_out.data is the metadata length. */
	meta_len = ctx_out.data;
	if (meta_len > opts.data_size_out || opts.data_size_out - meta_len > sizeof(result->frame))
		return -EMSGSIZE;
	result->action = opts.retval;
	result->egress_known = false;
	/* a result buffer is reused frame after frame: no metadata is no metadata */
	result->has_meta = false;
	memset(&result->meta, 0, sizeof(result->meta));
	if (meta_len >= sizeof(result->meta)) {
		memcpy(&result->meta, out + meta_len - sizeof(result->meta), sizeof(result->meta));
		result->has_meta = true;
	}
	result->meta_len = meta_len < sizeof(result->meta_bytes) ? meta_len
								  : sizeof(result->meta_bytes);
	memcpy(result->meta_bytes, out + meta_len - result->meta_len, result->meta_len);
	result->len = opts.data_size_out - meta_len;
	memcpy(result->frame, out + meta_len, result->len);
	return 0;
}

static int kernel_run(struct hx_target *target, uint32_t ingress_ifindex,
		      const uint8_t *frame, size_t len, struct hx_result *result)
{
	struct kernel_target *kt = target->priv;

	return hx_kernel_run_frame(kt->prog_fd, ingress_ifindex, frame, len, result);
}

static void kernel_close(struct hx_target *target)
{
	struct kernel_target *kt = target->priv;

	if (!kt)
		return;
	bpf_object__close(kt->obj);
	free(kt->path);
	free(kt);
}

const struct hx_target_ops hx_kernel_target = {
	.name = "kernel",
	.open = kernel_open,
	.map_update = kernel_map_update,
	.map_lookup = kernel_map_lookup,
	.map_delete = kernel_map_delete,
	.run = kernel_run,
	.close = kernel_close,
};
