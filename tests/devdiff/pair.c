// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "device/engine.h"
#include "device/tables.h"
#include "hwmap/hxu.h"
#include "hwmap/translate.h"
#include "loader/object.h"
#include "loader/device.h"
#include "loader/host.h"
#include "tests/devdiff/pair.h"
#include "verifier/verifier.h"

/* A map index in a raw program's kfunc call may name any of 32768 BTF fds. */
#define FD_ARRAY_LEN 32768

static struct dd_side *side_of(struct hx_target *target)
{
	return (struct dd_side *)target;
}

struct dd_map *dd_side_map(struct dd_side *s, const char *name)
{
	for (size_t i = 0; i < s->map_cnt; i++)
		if (!strcmp(s->maps[i].name, name))
			return &s->maps[i];
	return NULL;
}

int dd_map_lookup(const struct dd_map *m, const void *key, void *value)
{
	if (m->tab)
		return hwxdp_table__lookup(m->tab, key, value);
	return bpf_map_lookup_elem(m->fd, key, value) ? -errno : 0;
}

int dd_map_next_key(const struct dd_map *m, const void *key, void *next)
{
	if (m->tab)
		return hwxdp_table__get_next_key(m->tab, key, next);
	return bpf_map_get_next_key(m->fd, key, next) ? -errno : 0;
}

static int side_update(struct hx_target *target, const char *name, const void *key,
		       const void *value)
{
	struct dd_map *m = dd_side_map(side_of(target), name);

	if (!m)
		return -ENOENT;
	if (m->tab)
		return hwxdp_table__update(m->tab, key, value, BPF_ANY);
	return bpf_map_update_elem(m->fd, key, value, BPF_ANY) ? -errno : 0;
}

static void show_bytes(const char *what, const uint8_t *b, size_t n);

static bool of_maps(uint32_t type)
{
	return type == BPF_MAP_TYPE_ARRAY_OF_MAPS || type == BPF_MAP_TYPE_HASH_OF_MAPS;
}

int dd_side_set_inner(struct dd_side *s, const char *outer, const void *key, const char *inner)
{
	struct dd_map *o = dd_side_map(s, outer), *in = dd_side_map(s, inner);
	uint32_t id;

	if (!o || !in || !of_maps(o->type))
		return -ENOENT;
	/* the kernel takes the inner map's fd, the device its table id */
	if (o->tab) {
		id = in->tab->desc.id;
		return hwxdp_table__update(o->tab, key, &id, BPF_ANY);
	}
	return bpf_map_update_elem(o->fd, key, &in->fd, BPF_ANY) ? -errno : 0;
}

/* The name of the map a map of maps' value names on side s (the kernel's
 * value is a map id, the device's a table id), or NULL. */
static const char *inner_name(const struct dd_side *s, uint32_t value)
{
	for (size_t i = 0; i < s->map_cnt; i++) {
		const struct dd_map *m = &s->maps[i];
		struct bpf_map_info info = {};
		uint32_t len = sizeof(info);

		if (m->tab ? m->tab->desc.id == value
			   : !bpf_obj_get_info_by_fd(m->fd, &info, &len) && info.id == value)
			return m->name;
	}
	return NULL;
}

int dd_side_inner(struct dd_side *s, const char *outer, const void *key, const char **inner)
{
	struct dd_map *o = dd_side_map(s, outer);
	uint32_t value;
	int err;

	if (!o || !of_maps(o->type))
		return -ENOENT;
	err = dd_map_lookup(o, key, &value);
	if (err)
		return err;
	*inner = inner_name(s, value);
	return *inner ? 0 : -ESRCH;
}

/* A map of maps, entry by entry: the same keys, naming maps of the same
 * name on each side. */
static uint64_t walk_outer(struct dd_side *kernel, struct dd_side *device, const struct dd_map *k,
			   uint64_t *entries, unsigned int show, unsigned int *shown)
{
	const struct dd_map *d = dd_side_map(device, k->name);
	uint8_t *key = calloc(2, k->key_size ? k->key_size : 1), *next = key + k->key_size;
	uint64_t differ = 0;

	if (!key)
		return 1;
	for (int side = 0; side < 2; side++) {
		const struct dd_map *a = side ? d : k;
		bool first = true;

		while (!dd_map_next_key(a, first ? NULL : key, next)) {
			const char *kn = NULL, *dn = NULL;
			int ek, ed;

			first = false;
			memcpy(key, next, k->key_size);
			ek = dd_side_inner(kernel, k->name, key, &kn);
			ed = dd_side_inner(device, k->name, key, &dn);
			if (!side)
				(*entries)++;
			if (ek == ed && (ek || !strcmp(kn, dn)))
				continue;
			differ++;
			if ((*shown)++ < show) {
				fprintf(stderr,
					"devdiff: map %s: entry names %s in the kernel, %s on the "
					"device\n",
					k->name, ek ? "nothing" : kn, ed ? "nothing" : dn);
				show_bytes("key   ", key, k->key_size);
			}
		}
	}
	free(key);
	return differ;
}

static int side_lookup(struct hx_target *target, const char *name, const void *key, void *value)
{
	struct dd_map *m = dd_side_map(side_of(target), name);

	return m ? dd_map_lookup(m, key, value) : -ENOENT;
}

static int side_delete(struct hx_target *target, const char *name, const void *key)
{
	struct dd_map *m = dd_side_map(side_of(target), name);

	if (!m)
		return -ENOENT;
	if (m->tab)
		return hwxdp_table__delete(m->tab, key);
	return bpf_map_delete_elem(m->fd, key) ? -errno : 0;
}

static int kernel_run(struct hx_target *target, uint32_t ingress, const uint8_t *frame, size_t len,
		      struct hx_result *result)
{
	return hx_kernel_run_frame(side_of(target)->prog_fd, ingress, frame, len, result);
}

static int device_run(struct hx_target *target, uint32_t ingress, const uint8_t *frame, size_t len,
		      struct hx_result *result)
{
	struct dd_side *s = side_of(target);
	struct hwxdp_run_stats st = {};
	struct hwxdp_frame f;
	int err;

	s->egress = HWXDP_EGRESS_NONE;
	s->fault = 0;
	err = hx_device_run_frame(s->engine, s->window, ingress, frame, len, result, &f, &st);
	if (err == -EINVAL || err == -EMSGSIZE)
		return err;
	if (err) {
		s->fault = err;
		s->fault_op = f.fault_op;
		return err;
	}
	s->egress = f.egress;
	s->last.ops = st.ops;
	s->last.bundles = st.bundles;
	s->last.cycles = st.cycles;
	return 0;
}

static int side_stats(struct hx_target *target, struct hx_run_stats *stats)
{
	*stats = side_of(target)->last;
	return 0;
}

static void side_noop_close(struct hx_target *target)
{
	(void)target;
}

static const struct hx_target_ops kernel_ops = {
	.name = "kernel",
	.map_update = side_update,
	.map_lookup = side_lookup,
	.map_delete = side_delete,
	.run = kernel_run,
	.close = side_noop_close,
};

static const struct hx_target_ops device_ops = {
	.name = "device",
	.map_update = side_update,
	.map_lookup = side_lookup,
	.map_delete = side_delete,
	.run = device_run,
	.stats = side_stats,
	.close = side_noop_close,
};

static void side_init(struct dd_side *s, bool device)
{
	memset(s, 0, sizeof(*s));
	s->target.ops = device ? &device_ops : &kernel_ops;
	s->target.priv = s;
	s->device = device;
	s->prog_fd = -1;
	s->egress = HWXDP_EGRESS_NONE;
}

static void map_from_desc(struct dd_map *m, const struct hwxdp_map_desc *d)
{
	snprintf(m->name, sizeof(m->name), "%s", d->name);
	m->type = d->type;
	m->key_size = d->key_size;
	m->value_size = d->value_size;
	m->max_entries = d->max_entries;
	m->read_only = d->read_only;
	m->fd = -1;
}

int dd_side_open_kernel(struct dd_side *s, const char *path)
{
	return dd_side_open_kernel_prog(s, path, NULL);
}

int dd_side_open_kernel_prog(struct dd_side *s, const char *path, const char *name)
{
	return dd_side_open_kernel_bound(s, path, name, 0);
}

int dd_side_open_kernel_bound(struct dd_side *s, const char *path, const char *name,
			      unsigned int ifindex)
{
	struct hwxdp_host_load_opts opts = { .sz = sizeof(opts), .bind_ifindex = ifindex };
	struct bpf_program *prog;
	struct bpf_map *map;
	size_t n = 0;

	side_init(s, false);
	s->bobj = hwxdp_host_load_opts(path, &opts);
	if (!s->bobj)
		return -errno;
	prog = name ? hwxdp_host_port_program(s->bobj, name) : hwxdp_host_xdp_program(s->bobj);
	if (!prog) {
		dd_side_close(s);
		return -ENOENT;
	}
	s->prog_fd = bpf_program__fd(prog);
	bpf_object__for_each_map(map, s->bobj) n++;
	s->maps = calloc(n ? n : 1, sizeof(*s->maps));
	if (!s->maps) {
		dd_side_close(s);
		return -ENOMEM;
	}
	bpf_object__for_each_map(map, s->bobj)
	{
		struct dd_map *m = &s->maps[s->map_cnt++];

		snprintf(m->name, sizeof(m->name), "%s", bpf_map__name(map));
		m->type = bpf_map__type(map);
		m->key_size = bpf_map__key_size(map);
		m->value_size = bpf_map__value_size(map);
		m->max_entries = bpf_map__max_entries(map);
		m->read_only = bpf_map__map_flags(map) & BPF_F_RDONLY_PROG;
		m->fd = bpf_map__fd(map);
	}
	return 0;
}

static int device_maps(struct dd_side *s, const struct hwxdp_map_desc *maps, size_t map_cnt)
{
	s->maps = calloc(map_cnt ? map_cnt : 1, sizeof(*s->maps));
	if (!s->maps)
		return -ENOMEM;
	for (size_t i = 0; i < map_cnt && i < HXU_TABLES; i++) {
		struct hwxdp_table *tab = hwxdp_tables__get(s->tables, (uint32_t)i);
		struct dd_map *m;

		/* a map only host-only helpers use (a perf event array, a ring
		 * buffer) has no table: the device side has no such map */
		if (!tab)
			continue;
		m = &s->maps[s->map_cnt++];
		map_from_desc(m, &maps[i]);
		m->tab = tab;
	}
	return 0;
}

int dd_side_open_device(struct dd_side *s, const char *path)
{
	return dd_side_open_device_prog(s, path, NULL);
}

int dd_side_open_device_prog(struct dd_side *s, const char *path, const char *name)
{
	struct hwxdp_device_prog_opts opts = { .sz = sizeof(opts), .prog = name };
	char msg[512];
	int err;

	side_init(s, true);
	err = hwxdp_device_prog__open_opts(path, &opts, &s->dp, msg, sizeof(msg));
	if (err) {
		fprintf(stderr, "devdiff: %s\n", msg);
		return err;
	}
	s->tables = s->dp->tables;
	s->engine = s->dp->engine;
	s->window = s->dp->window;
	s->last.image_ops = s->dp->img->line_cnt;
	s->last.bpf_insns = s->dp->prog->insn_cnt;
	err = device_maps(s, s->dp->obj->maps, s->dp->obj->map_cnt);
	if (err)
		dd_side_close(s);
	return err;
}

static int create_map(const struct hwxdp_map_desc *d)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = d->map_flags);
	uint32_t zero = 0;
	int fd, err;

	fd = bpf_map_create(d->type, "devdiff", d->key_size, d->value_size, d->max_entries, &opts);
	if (fd < 0)
		return -errno;
	/* global data is a one-entry array whose entry 0 is the section's image */
	if (d->initial && d->initial_size &&
	    (d->initial_size != d->value_size || bpf_map_update_elem(fd, &zero, d->initial, 0))) {
		err = d->initial_size != d->value_size ? -EINVAL : -errno;
		close(fd);
		return err;
	}
	/* as libbpf: frozen .rodata is constant to the verifier */
	if (d->read_only && bpf_map_freeze(fd)) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

int dd_side_open_kernel_raw(struct dd_side *s, const struct bpf_insn *insns, size_t cnt,
			    const struct hwxdp_map_desc *maps, size_t map_cnt, char *msg,
			    size_t msglen)
{
	struct bpf_insn *copy = NULL;
	int *fd_array = NULL;
	int err = -ENOMEM;

	side_init(s, false);
	s->maps = calloc(map_cnt ? map_cnt : 1, sizeof(*s->maps));
	fd_array = malloc(FD_ARRAY_LEN * sizeof(*fd_array));
	copy = malloc((cnt ? cnt : 1) * sizeof(*copy));
	if (!s->maps || !fd_array || !copy)
		goto out;
	for (size_t i = 0; i < FD_ARRAY_LEN; i++)
		fd_array[i] = -1;
	for (size_t i = 0; i < map_cnt && i < FD_ARRAY_LEN; i++) {
		struct dd_map *m = &s->maps[s->map_cnt++];

		map_from_desc(m, &maps[i]);
		m->fd = create_map(&maps[i]);
		if (m->fd < 0) {
			err = m->fd;
			snprintf(msg, msglen, "map %s: %s", maps[i].name, strerror(-err));
			goto out;
		}
		fd_array[i] = m->fd;
	}
	memcpy(copy, insns, cnt * sizeof(*copy));
	for (size_t i = 0; i + 1 < cnt; i++) {
		struct bpf_insn *in = &copy[i];
		bool known = in->imm >= 0 && (size_t)in->imm < map_cnt;

		if (in->code != (BPF_LD | BPF_DW | BPF_IMM))
			continue;
		if (in->src_reg == BPF_PSEUDO_MAP_FD || in->src_reg == BPF_PSEUDO_MAP_VALUE)
			in->imm = known ? fd_array[in->imm] : -1;
		i++;
	}
	{
		LIBBPF_OPTS(bpf_prog_load_opts, opts, .fd_array = fd_array);

		s->prog_fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "devdiff", "GPL", copy, cnt, &opts);
	}
	if (s->prog_fd < 0) {
		err = -EACCES;
		snprintf(msg, msglen, "the kernel refuses it: %s", strerror(errno));
		goto out;
	}
	err = 0;
out:
	free(copy);
	free(fd_array);
	if (err)
		dd_side_close(s);
	return err;
}

int dd_side_open_device_raw(struct dd_side *s, const struct bpf_insn *insns, size_t cnt,
			    const struct hwxdp_map_desc *maps, size_t map_cnt, char *msg,
			    size_t msglen)
{
	struct hwxdp_verify_opts vopts = { .sz = sizeof(vopts), .device = true };
	struct hwxdp_verify_result *res = NULL;
	uint32_t subprog_start = 0;
	struct hwxdp_prog prog = {
		.name = "devdiff",
		.type = BPF_PROG_TYPE_XDP,
		.insns = (struct bpf_insn *)insns,
		.insn_cnt = cnt,
		.subprog_start = &subprog_start,
		.subprog_cnt = 1,
	};
	/* the translator reads maps and the program, nothing an ELF file gave */
	struct hwxdp_object obj = {
		.maps = (struct hwxdp_map_desc *)maps,
		.map_cnt = map_cnt,
		.progs = &prog,
		.prog_cnt = 1,
	};
	int err;

	side_init(s, true);
	s->window = calloc(1, HXU_WINDOW_SIZE);
	if (!s->window)
		return -ENOMEM;
	err = hwxdp_verify_insns(insns, cnt, maps, map_cnt, &vopts, &res);
	if (err) {
		snprintf(msg, msglen, "the verifier could not run: %s", strerror(-err));
		goto out;
	}
	if (!res->accepted) {
		snprintf(msg, msglen, "refused for the device");
		err = -EACCES;
		goto out;
	}
	for (size_t i = 0; i < res->fact_cnt; i++)
		s->punts |= res->facts[i].reachable && res->facts[i].punt_point;
	err = hwxdp_translate(&obj, &prog, res, &s->img, msg, msglen);
	if (err)
		goto out;
	err = -ENOMEM;
	s->tables = hwxdp_tables__new();
	if (!s->tables)
		goto out;
	hwxdp_tables__set_seed(s->tables, 0x6877786470ull);
	err = hwxdp_tables__create_all(s->tables, s->img);
	if (!err)
		err = hwxdp_device_tables__fill(s->tables, maps, map_cnt);
	if (err) {
		snprintf(msg, msglen, "the device cannot hold its maps: %s", strerror(-err));
		goto out;
	}
	s->engine = hwxdp_engine__new(s->img, s->tables);
	if (!s->engine) {
		err = -errno;
		snprintf(msg, msglen, "the engine refuses the microcode");
		goto out;
	}
	hwxdp_engine__set_rand_seed(s->engine, 1);
	s->last.image_ops = s->img->line_cnt;
	s->last.bpf_insns = cnt;
	err = device_maps(s, maps, map_cnt);
out:
	hwxdp_verify_result__free(res);
	if (err)
		dd_side_close(s);
	return err;
}

void dd_side_close(struct dd_side *s)
{
	if (s->dp) {
		hwxdp_device_prog__close(s->dp);
	} else {
		hwxdp_engine__free(s->engine);
		if (s->tables)
			hwxdp_tables__free(s->tables);
		if (s->img)
			hxu_image__free(s->img);
		free(s->window);
	}
	if (s->bobj) {
		bpf_object__close(s->bobj);
	} else {
		for (size_t i = 0; i < s->map_cnt; i++)
			if (s->maps[i].fd >= 0)
				close(s->maps[i].fd);
		if (s->prog_fd >= 0)
			close(s->prog_fd);
	}
	for (size_t i = 0; i < s->map_cnt; i++)
		free(s->maps[i].value_mask);
	free(s->maps);
	side_init(s, s->device);
}

static void show_bytes(const char *what, const uint8_t *b, size_t n)
{
	fprintf(stderr, "    %s", what);
	for (size_t i = 0; i < n && i < 48; i++)
		fprintf(stderr, " %02x", b[i]);
	fprintf(stderr, "%s\n", n > 48 ? " ..." : "");
}

/* The bits of the type id at bit offset off that its members cover, set in
 * mask (size bytes). */
static void cover_type(const struct btf *btf, uint32_t id, uint64_t off, uint8_t *mask,
		       uint32_t size, int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	uint64_t bits = 0;

	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(btf, id = t->type);
	if (!t || depth > 16)
		return;
	if (btf_is_composite(t)) {
		const struct btf_member *m = btf_members(t);

		for (uint16_t i = 0; i < btf_vlen(t); i++, m++) {
			uint64_t at = off + btf_member_bit_offset(t, i);
			uint32_t field = btf_member_bitfield_size(t, i);

			if (!field) {
				cover_type(btf, m->type, at, mask, size, depth + 1);
				continue;
			}
			for (uint64_t b = at; b < at + field && b / 8 < size; b++)
				mask[b / 8] |= (uint8_t)(1u << (b % 8));
		}
		return;
	}
	if (btf_is_array(t)) {
		const struct btf_array *a = btf_array(t);
		long elem = btf__resolve_size(btf, a->type);

		for (uint32_t i = 0; elem > 0 && i < a->nelems; i++)
			cover_type(btf, a->type, off + (uint64_t)i * (uint64_t)elem * 8, mask, size,
				   depth + 1);
		return;
	}
	/* a scalar, a pointer, an enum: all of its bytes */
	if (btf__resolve_size(btf, id) > 0)
		bits = (uint64_t)btf__resolve_size(btf, id) * 8;
	for (uint64_t b = off; b < off + bits && b / 8 < size; b++)
		mask[b / 8] |= (uint8_t)(1u << (b % 8));
}

int dd_side_mask_padding(struct dd_side *kernel)
{
	const struct btf *btf = kernel->bobj ? bpf_object__btf(kernel->bobj) : NULL;
	int masked = 0;

	for (size_t i = 0; btf && i < kernel->map_cnt; i++) {
		struct dd_map *m = &kernel->maps[i];
		const struct bpf_map *map = bpf_object__find_map_by_name(kernel->bobj, m->name);
		uint32_t id = map ? bpf_map__btf_value_type_id(map) : 0;
		bool holes = false;

		if (!id || btf__resolve_size(btf, id) != (long)m->value_size || m->value_mask)
			continue;
		m->value_mask = calloc(m->value_size ? m->value_size : 1, 1);
		if (!m->value_mask)
			return -ENOMEM;
		cover_type(btf, id, 0, m->value_mask, m->value_size, 0);
		for (uint32_t b = 0; b < m->value_size; b++)
			holes |= m->value_mask[b] != 0xff;
		if (!holes) {
			free(m->value_mask);
			m->value_mask = NULL;
			continue;
		}
		masked++;
	}
	return masked;
}

/* Whether values va (the kernel's) and vb differ in a bit mask covers; the
 * bytes mask leaves out counted in *kernel, when given. */
static bool values_differ(const uint8_t *va, const uint8_t *vb, uint32_t size, const uint8_t *mask,
			  struct dd_side *kernel)
{
	bool differ = false;

	if (!mask)
		return memcmp(va, vb, size);
	for (uint32_t b = 0; b < size; b++) {
		uint8_t x = va[b] ^ vb[b];

		differ |= (x & mask[b]) != 0;
		if (kernel && mask[b] != 0xff) {
			kernel->padding_bytes++;
			kernel->padding_differ += (x & (uint8_t)~mask[b]) != 0;
		}
	}
	return differ;
}

/* Entries of a on b's side: every key of a must be in b with the same value
 * (where a's mask, when a is the kernel's, covers it). */
static uint64_t walk(const struct dd_map *a, const struct dd_map *b, bool a_is_kernel,
		     struct dd_side *kernel, uint64_t *entries, unsigned int show,
		     unsigned int *shown)
{
	uint8_t *key = calloc(2, a->key_size ? a->key_size : 1);
	uint8_t *va = calloc(2, a->value_size ? a->value_size : 1);
	uint8_t *vb = va + a->value_size, *next = key + a->key_size;
	uint64_t differ = 0, n = 0;
	bool first = true;

	if (!key || !va) {
		free(key);
		free(va);
		return 1;
	}
	while (!dd_map_next_key(a, first ? NULL : key, next)) {
		int ra, rb;

		first = false;
		memcpy(key, next, a->key_size);
		n++;
		ra = dd_map_lookup(a, key, va);
		rb = dd_map_lookup(b, key, vb);
		/* the value was compared from the kernel's side already */
		if (!a_is_kernel && !rb)
			continue;
		if (ra == rb && (ra || !values_differ(va, vb, a->value_size,
						      a_is_kernel ? a->value_mask : NULL, kernel)))
			continue;
		differ++;
		if (*shown < show) {
			(*shown)++;
			fprintf(stderr, "devdiff: map %s: entry %s\n", a->name,
				rb ? (a_is_kernel ? "only in the kernel" : "only on the device")
				   : "differs");
			show_bytes("key   ", key, a->key_size);
			show_bytes(a_is_kernel ? "kernel" : "device", va, a->value_size);
			if (!rb)
				show_bytes(a_is_kernel ? "device" : "kernel", vb, a->value_size);
		}
	}
	if (a_is_kernel)
		*entries += n;
	free(key);
	free(va);
	return differ;
}

uint64_t dd_compare_maps(struct dd_side *kernel, struct dd_side *device, uint64_t *entries,
			 unsigned int *maps, unsigned int show, unsigned int *shown)
{
	uint64_t differ = 0;

	for (size_t i = 0; i < kernel->map_cnt; i++) {
		const struct dd_map *k = &kernel->maps[i];
		const struct dd_map *d = dd_side_map(device, k->name);

		/* .rodata holds hwxdp_target, which the loaders set apart on purpose */
		if (k->read_only)
			continue;
		if (!d || d->key_size != k->key_size || d->value_size != k->value_size) {
			fprintf(stderr, "devdiff: map %s: %s on the device\n", k->name,
				d ? "another shape" : "missing");
			differ++;
			continue;
		}
		(*maps)++;
		if (of_maps(k->type)) {
			differ += walk_outer(kernel, device, k, entries, show, shown);
			continue;
		}
		differ += walk(k, d, true, kernel, entries, show, shown);
		differ += walk(d, k, false, NULL, entries, show, shown);
	}
	return differ;
}
