// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "hwxdp/fwd.h"
#include "hwxdp/object.h"
#include "loader/host.h"
#include "loader/log.h"

/* Sets the read-only global `hwxdp_target` in .rodata before load. */
static int set_target(struct bpf_object *obj, __u32 target)
{
	const struct btf_var_secinfo *var;
	const struct btf_type *sec;
	struct bpf_map *rodata;
	struct btf *btf;
	const char *initial;
	size_t size;
	char *data;
	int i, err;

	rodata = bpf_object__find_map_by_name(obj, ".rodata");
	btf = bpf_object__btf(obj);
	if (!rodata || !btf)
		return 0;
	i = btf__find_by_name_kind(btf, ".rodata", BTF_KIND_DATASEC);
	if (i < 0)
		return 0;
	sec = btf__type_by_id(btf, i);
	initial = bpf_map__initial_value(rodata, &size);
	if (!initial)
		return 0;
	var = btf_var_secinfos(sec);
	for (i = 0; i < btf_vlen(sec); i++, var++) {
		const struct btf_type *t = btf__type_by_id(btf, var->type);

		if (strcmp(btf__name_by_offset(btf, t->name_off), "hwxdp_target"))
			continue;
		if (var->size != sizeof(target) || var->offset + var->size > size)
			return -EINVAL;
		/* libbpf hands out the image read-only: write a copy back. */
		data = malloc(size);
		if (!data)
			return -ENOMEM;
		memcpy(data, initial, size);
		memcpy(data + var->offset, &target, sizeof(target));
		err = bpf_map__set_initial_value(rodata, data, size);
		free(data);
		return err;
	}
	return 0;
}

struct bpf_object *hwxdp_host_load(const char *path)
{
	struct bpf_object *obj;
	char why[128];
	int err;

	/* libbpf would say why it cannot open the file in a line of its own:
	 * the one line here says it instead. */
	libbpf_set_print(NULL);
	obj = bpf_object__open_file(path, NULL);
	err = obj ? 0 : -errno;
	hwxdp_route_libbpf_print();
	if (!obj) {
		/* libbpf's codes share the range of hwxdp's: its own words */
		libbpf_strerror(err, why, sizeof(why));
		err = err > -HWXDP_ERR_BASE ? err : -HWXDP_ERR_ELF;
		hwxdp_error(err, "%s: libbpf cannot open it: %s", path, why);
		errno = -err;
		return NULL;
	}
	err = set_target(obj, HWXDP_TARGET_HOST);
	if (err) {
		hwxdp_error(err, "%s: hwxdp_target is not a 4-byte global", path);
		goto fail;
	}
	err = bpf_object__load(obj);
	if (err) {
		hwxdp_error(err, "%s: the kernel refused the object: %s", path,
			    hwxdp_strerror(err));
		goto fail;
	}
	return obj;
fail:
	bpf_object__close(obj);
	errno = -err;
	return NULL;
}

struct bpf_program *hwxdp_host_xdp_program(struct bpf_object *obj)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, obj)
		if (bpf_program__type(prog) == BPF_PROG_TYPE_XDP)
			return prog;
	return NULL;
}
