// SPDX-License-Identifier: GPL-2.0
/*
 * Maps of loaded programs, as bpftool shows them: list, show, dump, lookup,
 * update, delete, with bpftool's `key`/`value` byte syntax. A map has two
 * homes here, the host copy's kernel map (pinned) and the board's table;
 * writes go to both, so that what the control plane sets is one content,
 * and the mirror (daemon/mirror.c) carries what each side writes itself.
 * Reads come from the kernel map unless `target device` is asked for. A
 * per-CPU map's value is one copy per CPU of the kernel, or per engine of
 * the board, which shows its engines as CPUs; an update writes the value
 * to every copy on both, as bpftool's does.
 *
 * A devmap holds netdevs: the board's entry names a wire port, the kernel's
 * the port's TAP, so that a redirect by the host copy reaches the same
 * wire through the daemon.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "daemon/btf_json.h"
#include "daemon/internal.h"
#include "daemon/map.h"
#include "daemon/mirror.h"
#include "device/device.h"
#include "device/tables.h"

#define MAP_BYTES_MAX 4096

struct map_ref {
	struct prog *pr;
	struct bpf_map *map;
	struct hwxdp_table *table; /* NULL: the board has no table for it */
	uint32_t key_size, value_size, type;
	/* Per-CPU maps: the kernel's CPUs and the board's engines, a copy
	 * of round_up(value_size, 8) bytes each. */
	bool percpu;
	uint32_t cpus, engines;
};

static bool percpu_type(uint32_t type)
{
	return type == BPF_MAP_TYPE_PERCPU_ARRAY || type == BPF_MAP_TYPE_PERCPU_HASH ||
	       type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

static uint32_t round8(uint32_t n)
{
	return (n + 7) & ~7u;
}

/* Bytes of a lookup's buffer on one side: the value, or every copy. */
static size_t value_buf(const struct map_ref *ref, bool device)
{
	if (!ref->percpu)
		return ref->value_size;
	return (size_t)(device ? ref->engines : ref->cpus) * round8(ref->value_size);
}

/* PROG/MAP, or MAP when one program has it. */
static int find_map(struct hwxdpd *d, const char *spec, struct map_ref *ref, char *msg,
		    size_t msglen)
{
	const char *slash = strchr(spec, '/');
	int found = 0;

	for (int i = 0; i < HWXDPD_PROGS_MAX; i++) {
		struct prog *pr = &d->progs[i];
		const char *name = spec;
		struct bpf_map *map;

		if (!pr->used)
			continue;
		if (slash) {
			if (strncmp(pr->name, spec, (size_t)(slash - spec)) ||
			    pr->name[slash - spec])
				continue;
			name = slash + 1;
		}
		map = bpf_object__find_map_by_name(pr->host, name);
		if (!map || bpf_map__is_internal(map))
			continue;
		if (found++) {
			snprintf(msg, msglen, "map '%s' is in %s and %s: name it PROG/%s", spec,
				 ref->pr->name, pr->name, spec);
			return -EINVAL;
		}
		ref->pr = pr;
		ref->map = map;
		ref->table = hwxdp_device__table(d->board, pr->device_id, name);
		ref->key_size = bpf_map__key_size(map);
		ref->value_size = bpf_map__value_size(map);
		ref->type = (uint32_t)bpf_map__type(map);
	}
	if (!found) {
		snprintf(msg, msglen, "no map '%s' in the loaded programs", spec);
		return -ENOENT;
	}
	ref->percpu = percpu_type(ref->type);
	if (ref->percpu) {
		int cpus = libbpf_num_possible_cpus();

		if (cpus <= 0) {
			snprintf(msg, msglen,
				 "map '%s' is per-CPU, and the host's CPUs are unknown", spec);
			return -EOPNOTSUPP;
		}
		ref->cpus = (uint32_t)cpus;
		ref->engines = ref->table ? ref->table->copies : 0;
	}
	return 0;
}

static bool is_word(const char *w)
{
	return !strcmp(w, "key") || !strcmp(w, "value") || !strcmp(w, "target") ||
	       !strcmp(w, "flags");
}

/* `key [hex] BYTE ...`: each BYTE as strtoul base 0 (base 16 after hex),
 * as bpftool reads them. The number of words used, or a negative errno. */
static int parse_bytes(const char *what, int argc, const char **argv, uint8_t *out, uint32_t want,
		       char *msg, size_t msglen)
{
	int i = 0, base = 0;
	uint32_t n = 0;

	if (i < argc && !strcmp(argv[i], "hex")) {
		base = 16;
		i++;
	}
	for (; i < argc && !is_word(argv[i]); i++) {
		unsigned long v;
		char *end;

		errno = 0;
		v = strtoul(argv[i], &end, base);
		if (!argv[i][0] || *end || errno || v > 0xff) {
			snprintf(msg, msglen, "%s byte '%s' is not a number from 0 to 255", what,
				 argv[i]);
			return -EINVAL;
		}
		if (n == want) {
			snprintf(msg, msglen, "%s has more than the map's %u bytes", what, want);
			return -EINVAL;
		}
		out[n++] = (uint8_t)v;
	}
	if (n != want) {
		snprintf(msg, msglen, "%s has %u bytes, the map's are %u", what, n, want);
		return -EINVAL;
	}
	return i;
}

struct map_args {
	uint8_t key[MAP_BYTES_MAX], value[MAP_BYTES_MAX];
	bool has_key, has_value, device;
	uint64_t flags;
};

static int parse_args(const struct map_ref *ref, int argc, const char **argv, struct map_args *a,
		      char *msg, size_t msglen)
{
	memset(a, 0, sizeof(*a));
	for (int i = 0; i < argc;) {
		int n;

		if (!strcmp(argv[i], "key") || !strcmp(argv[i], "value")) {
			bool key = argv[i][0] == 'k';

			n = parse_bytes(argv[i], argc - i - 1, argv + i + 1,
					key ? a->key : a->value,
					key ? ref->key_size : ref->value_size, msg, msglen);
			if (n < 0)
				return n;
			*(key ? &a->has_key : &a->has_value) = true;
			i += n + 1;
		} else if (!strcmp(argv[i], "target") && i + 1 < argc &&
			   (!strcmp(argv[i + 1], "host") || !strcmp(argv[i + 1], "device"))) {
			a->device = argv[i + 1][0] == 'd';
			i += 2;
		} else if (!strcmp(argv[i], "flags") && i + 1 < argc) {
			if (!strcmp(argv[i + 1], "any"))
				a->flags = BPF_ANY;
			else if (!strcmp(argv[i + 1], "noexist"))
				a->flags = BPF_NOEXIST;
			else if (!strcmp(argv[i + 1], "exist"))
				a->flags = BPF_EXIST;
			else {
				snprintf(msg, msglen, "flags '%s': any, noexist or exist",
					 argv[i + 1]);
				return -EINVAL;
			}
			i += 2;
		} else {
			snprintf(msg, msglen,
				 "unexpected '%s' (key BYTES, value BYTES, flags, "
				 "target host|device)",
				 argv[i]);
			return -EINVAL;
		}
	}
	if (ref->key_size > MAP_BYTES_MAX || ref->value_size > MAP_BYTES_MAX) {
		snprintf(msg, msglen, "keys and values of more than %d bytes are not supported",
			 MAP_BYTES_MAX);
		return -EOPNOTSUPP;
	}
	return 0;
}

static void bytes_json(struct jbuf *b, const char *name, const uint8_t *p, uint32_t n)
{
	char hex[8];

	jbuf_name(b, name);
	jbuf_start_array(b);
	for (uint32_t i = 0; i < n; i++) {
		snprintf(hex, sizeof(hex), "0x%02x", p[i]);
		jbuf_string(b, hex);
	}
	jbuf_end_array(b);
}

/* A value as bpftool prints it: "value", or per CPU "values" (the board's
 * engines are its CPUs). */
static void value_json(struct jbuf *b, const struct map_ref *ref, bool device, const uint8_t *v)
{
	uint32_t n = device ? ref->engines : ref->cpus;

	if (!ref->percpu) {
		bytes_json(b, "value", v, ref->value_size);
		return;
	}
	jbuf_name(b, "values");
	jbuf_start_array(b);
	for (uint32_t i = 0; i < n; i++) {
		jbuf_start_object(b);
		jbuf_uint_field(b, "cpu", i);
		bytes_json(b, "value", v + (size_t)i * round8(ref->value_size), ref->value_size);
		jbuf_end_object(b);
	}
	jbuf_end_array(b);
}

/* bpftool's "formatted", by the object's BTF: the CPUs' (or the engines')
 * values of a per-CPU map. */
static void formatted_json(struct jbuf *b, const struct map_ref *ref, bool device, const void *key,
			   const void *value)
{
	if (!ref->percpu) {
		btf_json_map_entry(b, ref->pr->host, ref->map, key, value);
		return;
	}
	btf_json_formatted_percpu(b, bpf_object__btf(ref->pr->host),
				  bpf_map__btf_key_type_id(ref->map), key, ref->key_size,
				  bpf_map__btf_value_type_id(ref->map), value, ref->value_size,
				  device ? ref->engines : ref->cpus);
}

static void map_info_json(struct hwxdpd *d, const struct map_ref *ref, struct jbuf *b)
{
	struct bpf_map_info info = { 0 };
	uint32_t len = sizeof(info);

	(void)d;
	jbuf_start_object(b);
	jbuf_string_field(b, "program", ref->pr->name);
	jbuf_string_field(b, "name", bpf_map__name(ref->map));
	jbuf_string_field(b, "type", libbpf_bpf_map_type_str(bpf_map__type(ref->map)));
	if (!bpf_obj_get_info_by_fd(bpf_map__fd(ref->map), &info, &len))
		jbuf_uint_field(b, "id", info.id);
	jbuf_uint_field(b, "key_size", ref->key_size);
	jbuf_uint_field(b, "value_size", ref->value_size);
	jbuf_uint_field(b, "max_entries", bpf_map__max_entries(ref->map));
	if (ref->table)
		jbuf_uint_field(b, "device_max_entries", ref->table->desc.max_entries);
	else
		jbuf_string_field(b, "device_max_entries", NULL);
	jbuf_string_field(b, "pin", bpf_map__pin_path(ref->map));
	jbuf_end_object(b);
}

int map_list(struct hwxdpd *d, struct jbuf *b)
{
	jbuf_start_object(b);
	jbuf_name(b, "maps");
	jbuf_start_array(b);
	for (int i = 0; i < HWXDPD_PROGS_MAX; i++) {
		struct prog *pr = &d->progs[i];
		struct bpf_map *map;

		if (!pr->used)
			continue;
		bpf_object__for_each_map(map, pr->host)
		{
			struct map_ref ref = {
				.pr = pr,
				.map = map,
				.table = hwxdp_device__table(d->board, pr->device_id,
							     bpf_map__name(map)),
				.key_size = bpf_map__key_size(map),
				.value_size = bpf_map__value_size(map),
			};

			if (!bpf_map__is_internal(map))
				map_info_json(d, &ref, b);
		}
	}
	jbuf_end_array(b);
	jbuf_end_object(b);
	return 0;
}

int map_show(struct hwxdpd *d, const char *spec, struct jbuf *b, char *msg, size_t msglen)
{
	struct map_ref ref;
	int err = find_map(d, spec, &ref, msg, msglen);

	if (!err)
		map_info_json(d, &ref, b);
	return err;
}

static int lookup(const struct map_ref *ref, bool device, const void *key, void *value)
{
	if (device)
		return ref->table ? hwxdp_table__lookup(ref->table, key, value) : -ENODEV;
	return bpf_map_lookup_elem(bpf_map__fd(ref->map), key, value) ? -errno : 0;
}

static int next_key(const struct map_ref *ref, bool device, const void *key, void *next)
{
	if (device)
		return hwxdp_table__get_next_key(ref->table, key, next);
	return bpf_map_get_next_key(bpf_map__fd(ref->map), key, next) ? -errno : 0;
}

int map_dump(struct hwxdpd *d, const char *spec, int argc, const char **argv, struct jbuf *b,
	     char *msg, size_t msglen)
{
	uint8_t *key = NULL, *next = NULL, *value = NULL;
	struct map_args *a = malloc(sizeof(*a));
	struct map_ref ref;
	int err;

	if (!a)
		return -ENOMEM;
	err = find_map(d, spec, &ref, msg, msglen);
	if (!err)
		err = parse_args(&ref, argc, argv, a, msg, msglen);
	if (!err && (a->has_key || a->has_value)) {
		snprintf(msg, msglen, "usage: map dump MAP [target host|device]");
		err = -EINVAL;
	}
	if (!err && a->device && !ref.table) {
		snprintf(msg, msglen, "map '%s' has no table on the board", spec);
		err = -ENODEV;
	}
	if (err)
		goto out;
	key = calloc(1, ref.key_size);
	next = calloc(1, ref.key_size);
	value = calloc(1, value_buf(&ref, a->device));
	if (!key || !next || !value) {
		err = -ENOMEM;
		goto out;
	}
	jbuf_start_object(b);
	jbuf_string_field(b, "map", bpf_map__name(ref.map));
	jbuf_string_field(b, "target", a->device ? "device" : "host");
	jbuf_name(b, "entries");
	jbuf_start_array(b);
	for (bool first = true;; first = false) {
		err = next_key(&ref, a->device, first ? NULL : key, next);
		if (err)
			break;
		memcpy(key, next, ref.key_size);
		if (lookup(&ref, a->device, key, value))
			continue;
		jbuf_start_object(b);
		bytes_json(b, "key", key, ref.key_size);
		value_json(b, &ref, a->device, value);
		formatted_json(b, &ref, a->device, key, value);
		jbuf_end_object(b);
	}
	jbuf_end_array(b);
	jbuf_end_object(b);
	err = err == -ENOENT ? 0 : err;
	if (err)
		snprintf(msg, msglen, "dumping %s: %s", spec, strerror(-err));
out:
	free(key);
	free(next);
	free(value);
	free(a);
	return err;
}

int map_lookup(struct hwxdpd *d, const char *spec, int argc, const char **argv, struct jbuf *b,
	       char *msg, size_t msglen)
{
	struct map_args *a = malloc(sizeof(*a));
	uint8_t *value = NULL;
	struct map_ref ref;
	int err;

	if (!a)
		return -ENOMEM;
	err = find_map(d, spec, &ref, msg, msglen);
	if (!err)
		err = parse_args(&ref, argc, argv, a, msg, msglen);
	if (!err && (!a->has_key || a->has_value)) {
		snprintf(msg, msglen, "usage: map lookup MAP key BYTES [target host|device]");
		err = -EINVAL;
	}
	if (!err && a->device && !ref.table) {
		snprintf(msg, msglen, "map '%s' has no table on the board", spec);
		err = -ENODEV;
	}
	if (!err) {
		value = calloc(1, value_buf(&ref, a->device));
		err = value ? lookup(&ref, a->device, a->key, value) : -ENOMEM;
		if (err)
			snprintf(msg, msglen, "%s: %s", spec,
				 err == -ENOENT ? "no entry for that key" : strerror(-err));
	}
	if (!err) {
		jbuf_start_object(b);
		bytes_json(b, "key", a->key, ref.key_size);
		value_json(b, &ref, a->device, value);
		formatted_json(b, &ref, a->device, a->key, value);
		jbuf_end_object(b);
	}
	free(value);
	free(a);
	return err;
}

static bool is_array(const struct map_ref *ref)
{
	return ref->type == BPF_MAP_TYPE_ARRAY || ref->type == BPF_MAP_TYPE_PERCPU_ARRAY;
}

/* A per-CPU update, as bpftool makes one: value on every CPU of the kernel
 * and every engine of the board. */
static int percpu_update(struct hwxdpd *d, const struct map_pair *m, const void *key,
			 const void *value, uint64_t flags, bool *board)
{
	uint32_t vs = bpf_map__value_size(m->map), vs8 = round8(vs);
	int cpus = libbpf_num_possible_cpus(), fd = bpf_map__fd(m->map), err;
	uint32_t engines = m->table ? m->table->copies : 0;
	size_t kb = (size_t)(cpus > 0 ? cpus : 0) * vs8, bb = (size_t)engines * vs8;
	uint8_t *rec = calloc(1, kb + bb), *old = malloc(kb);
	bool had;

	*board = false;
	if (!rec || !old || cpus <= 0) {
		err = cpus <= 0 ? -EOPNOTSUPP : -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < (size_t)cpus + engines; i++)
		memcpy(rec + i * vs8, value, vs);
	had = !bpf_map_lookup_elem(fd, key, old);
	if (bpf_map_update_elem(fd, key, rec, flags)) {
		err = -errno;
		goto out;
	}
	err = m->table ? hwxdp_table__update(m->table, key, rec + kb, flags) : 0;
	if (err) {
		*board = true;
		if (had)
			bpf_map_update_elem(fd, key, old, BPF_ANY);
		else if (bpf_map__type(m->map) != BPF_MAP_TYPE_PERCPU_ARRAY)
			bpf_map_delete_elem(fd, key);
		goto out;
	}
	if (m->table)
		mirror_written(d, m->map, key, rec);
out:
	free(rec);
	free(old);
	return err;
}

int pair_update(struct hwxdpd *d, const struct map_pair *m, const void *key, const void *value,
		uint64_t flags, bool *board)
{
	uint32_t vsize = bpf_map__value_size(m->map), type = (uint32_t)bpf_map__type(m->map);
	int fd = bpf_map__fd(m->map), err;
	uint8_t old[MAP_BYTES_MAX], hv[MAP_BYTES_MAX];
	bool had;

	*board = false;
	if (percpu_type(type))
		return percpu_update(d, m, key, value, flags, board);
	if (vsize > MAP_BYTES_MAX)
		return -E2BIG;
	had = !bpf_map_lookup_elem(fd, key, old);
	memcpy(hv, value, vsize);
	if ((type == BPF_MAP_TYPE_DEVMAP || type == BPF_MAP_TYPE_DEVMAP_HASH) && vsize >= 4) {
		uint32_t ifindex;

		memcpy(&ifindex, value, 4);
		for (int i = 0; i < HWXDPD_PORTS_MAX; i++)
			if (d->ports[i].used && d->ports[i].ifindex == ifindex)
				memcpy(hv, &d->ports[i].tap_ifindex, 4);
	}
	if (bpf_map_update_elem(fd, key, hv, flags))
		return -errno;
	if (!m->table)
		return 0;
	err = hwxdp_table__update(m->table, key, value, flags);
	if (err) {
		*board = true;
		if (had)
			bpf_map_update_elem(fd, key, old, BPF_ANY);
		else if (type != BPF_MAP_TYPE_ARRAY)
			bpf_map_delete_elem(fd, key);
		return err;
	}
	mirror_written(d, m->map, key, value);
	return 0;
}

int pair_delete(const struct map_pair *m, const void *key)
{
	int err = bpf_map_delete_elem(bpf_map__fd(m->map), key) ? -errno : 0;
	int dev_err = m->table ? hwxdp_table__delete(m->table, key) : -ENOENT;

	return err && dev_err ? err : 0;
}

/*
 * A map of maps' entry: value is the table id of one of the program's
 * tables (the board's value), whose map the kernel's entry names by its
 * fd, as bpftool takes one. The kernel first, then the board, which checks
 * the table against the template; a board that refuses takes the kernel's
 * entry back.
 */
static int outer_update(const struct map_ref *ref, const void *key, const void *value,
			uint64_t flags, bool *board, char *msg, size_t msglen)
{
	const struct hwxdp_table *in;
	struct bpf_map *inner;
	uint32_t id, old;
	int fd = bpf_map__fd(ref->map), ifd, err;
	bool had;

	*board = false;
	memcpy(&id, value, sizeof(id));
	in = ref->table && id < HXU_TABLES ? ref->table->tables->table[id] : NULL;
	inner = in ? bpf_object__find_map_by_name(ref->pr->host, in->desc.name) : NULL;
	if (!inner) {
		snprintf(msg, msglen, "table %u is none of the program's maps", id);
		return -EBADF;
	}
	/* the board's check first, so that the kernel's entry is seldom undone */
	if (!hxu_inner_fits(&ref->table->desc.inner, &in->desc)) {
		*board = true;
		return -EINVAL;
	}
	ifd = bpf_map__fd(inner);
	had = !bpf_map_lookup_elem(fd, key, &old);
	if (bpf_map_update_elem(fd, key, &ifd, flags))
		return -errno;
	err = hwxdp_table__update(ref->table, key, &id, flags);
	if (err) {
		/* the kernel's old value is its inner map's id */
		int ofd = had ? bpf_map_get_fd_by_id(old) : -1;

		*board = true;
		if (ofd >= 0) {
			bpf_map_update_elem(fd, key, &ofd, BPF_ANY);
			close(ofd);
		} else {
			bpf_map_delete_elem(fd, key);
		}
	}
	return err;
}

int map_update(struct hwxdpd *d, const char *spec, int argc, const char **argv, struct jbuf *b,
	       char *msg, size_t msglen)
{
	struct map_args *a = malloc(sizeof(*a));
	struct map_ref ref;
	bool board;
	int err;

	(void)b;
	if (!a)
		return -ENOMEM;
	err = find_map(d, spec, &ref, msg, msglen);
	if (!err)
		err = parse_args(&ref, argc, argv, a, msg, msglen);
	if (!err && (!a->has_key || !a->has_value || a->device)) {
		snprintf(msg, msglen,
			 "usage: map update MAP key BYTES value BYTES "
			 "[flags any|noexist|exist]");
		err = -EINVAL;
	}
	if (err)
		goto out;
	if (ref.type == BPF_MAP_TYPE_ARRAY_OF_MAPS || ref.type == BPF_MAP_TYPE_HASH_OF_MAPS) {
		err = outer_update(&ref, a->key, a->value, a->flags, &board, msg, msglen);
		if (err == -EBADF && !board)
			goto out;
	} else {
		err = pair_update(d, &(struct map_pair){ ref.map, ref.table }, a->key, a->value,
				  a->flags, &board);
	}
	if (err && board)
		snprintf(msg, msglen, "%s: the board refuses the update (%s); nothing changed",
			 spec, strerror(-err));
	else if (err)
		snprintf(msg, msglen, "%s: the kernel refuses the update: %s", spec,
			 strerror(-err));
	else
		snprintf(msg, msglen, "%s updated on the host%s", spec,
			 ref.table ? " and the board" : "");
out:
	free(a);
	return err;
}

int map_delete(struct hwxdpd *d, const char *spec, int argc, const char **argv, struct jbuf *b,
	       char *msg, size_t msglen)
{
	struct map_args *a = malloc(sizeof(*a));
	struct map_ref ref;
	int err;

	(void)b;
	if (!a)
		return -ENOMEM;
	err = find_map(d, spec, &ref, msg, msglen);
	if (!err)
		err = parse_args(&ref, argc, argv, a, msg, msglen);
	if (!err && (!a->has_key || a->has_value || a->device)) {
		snprintf(msg, msglen, "usage: map delete MAP key BYTES");
		err = -EINVAL;
	}
	if (!err && is_array(&ref)) {
		snprintf(msg, msglen, "%s is an array: its entries cannot be deleted", spec);
		err = -EINVAL;
	}
	if (err)
		goto out;
	err = pair_delete(&(struct map_pair){ ref.map, ref.table }, a->key);
	if (err) {
		snprintf(msg, msglen, "%s: %s", spec,
			 err == -ENOENT ? "no entry for that key" : strerror(-err));
		goto out;
	}
	err = 0;
	snprintf(msg, msglen, "%s: entry deleted", spec);
out:
	free(a);
	return err;
}
