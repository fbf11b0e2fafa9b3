/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Both targets of a differential run, opened so that what lab/target.h keeps
 * private is in reach: every map of the program (to walk its keys), the
 * device's redirect target and its faults. Each side is also a struct
 * hx_target, so fwdlab/fwd.h fills its maps.
 */
#ifndef HWXDP_TESTS_DEVDIFF_PAIR_H
#define HWXDP_TESTS_DEVDIFF_PAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loader/object.h"
#include "lab/target.h"

struct hwxdp_device_prog;
struct hwxdp_table;
struct hwxdp_tables;
struct hwxdp_engine;
struct hxu_image;
struct bpf_object;

struct dd_map {
	char name[HWXDP_NAME_MAX];
	uint32_t type, key_size, value_size, max_entries;
	bool read_only;		 /* .rodata: hwxdp_target differs by design */
	int fd;			 /* kernel */
	struct hwxdp_table *tab; /* device */
	/* kernel: per byte of a value, the bits its BTF type's members cover
	 * (dd_side_mask_padding); NULL: every bit counts */
	uint8_t *value_mask;
};

struct dd_side {
	struct hx_target target; /* first: the lab's helpers take &side->target */
	bool device;
	struct dd_map *maps;
	size_t map_cnt;
	/* kernel */
	struct bpf_object *bobj;
	int prog_fd;
	/* device */
	struct hwxdp_device_prog *dp; /* fwd: the loader's device copy */
	struct hxu_image *img;	      /* raw programs: built here */
	struct hwxdp_tables *tables;
	struct hwxdp_engine *engine;
	uint8_t *window;
	bool punts; /* raw: a host-only helper punts on some path */
	/* the last device run */
	uint32_t egress; /* redirect target ifindex, HWXDP_EGRESS_NONE */
	int fault;	 /* -HWXDP_ERR_* when the engine aborted */
	uint32_t fault_op;
	struct hx_run_stats last;
	/* kernel, after dd_compare_maps: value bytes left out as padding, in
	 * the entries compared, and how many of them differed */
	uint64_t padding_bytes, padding_differ;
};

/* progs/NAME.bpf.o style objects: 0 or a negative errno. */
int dd_side_open_kernel(struct dd_side *s, const char *path);
int dd_side_open_device(struct dd_side *s, const char *path);
/* The same for the XDP program of that name; NULL: the object's first. */
int dd_side_open_kernel_prog(struct dd_side *s, const char *path, const char *prog);
int dd_side_open_device_prog(struct dd_side *s, const char *path, const char *prog);
/* The kernel's copy bound to netdev ifindex (loader/host.h's bind_ifindex). */
int dd_side_open_kernel_bound(struct dd_side *s, const char *path, const char *prog,
			      unsigned int ifindex);

/*
 * A raw program (map references by index into maps[]): the kernel copy with
 * fresh maps from the descriptors, the device copy verified for the device
 * and translated. 0; -EACCES when the kernel or hwxdp's device verification
 * refuses it, -HWXDP_ERR_TRANSLATE when it cannot be translated (why in msg).
 */
int dd_side_open_kernel_raw(struct dd_side *s, const struct bpf_insn *insns, size_t cnt,
			    const struct hwxdp_map_desc *maps, size_t map_cnt, char *msg,
			    size_t msglen);
int dd_side_open_device_raw(struct dd_side *s, const struct bpf_insn *insns, size_t cnt,
			    const struct hwxdp_map_desc *maps, size_t map_cnt, char *msg,
			    size_t msglen);
void dd_side_close(struct dd_side *s);

struct dd_map *dd_side_map(struct dd_side *s, const char *name);
int dd_map_lookup(const struct dd_map *m, const void *key, void *value);
/* Entry key of map of maps outer on side s names map inner, as the kernel's
 * holds a map (its fd when written) and the device's a table id. 0 or a
 * negative errno. */
int dd_side_set_inner(struct dd_side *s, const char *outer, const void *key, const char *inner);
/* The name of the map entry key of outer names on side s: 0, -ENOENT for
 * no entry, -ESRCH for one naming no map of s. */
int dd_side_inner(struct dd_side *s, const char *outer, const void *key, const char **inner);
int dd_map_next_key(const struct dd_map *m, const void *key, void *next);

/*
 * The bytes of the kernel side's map values that no member of the value's
 * BTF type covers (the holes between members, the padding at the end, the
 * bits of a bit field's unit no field has) are left out of dd_compare_maps:
 * a program that assigns a value member by member passes them from its
 * stack, what the kernel's stack held and what the device's local memory
 * held. Keys stay whole. Returns the maps given a mask, or a negative errno.
 */
int dd_side_mask_padding(struct dd_side *kernel);

/*
 * Every map of the kernel side against the device's namesake, entry by
 * entry, both ways. Returns the entries that differ or exist on one side;
 * *entries counts the ones compared, *maps the maps. Differences are printed
 * while *shown < show.
 */
uint64_t dd_compare_maps(struct dd_side *kernel, struct dd_side *device, uint64_t *entries,
			 unsigned int *maps, unsigned int show, unsigned int *shown);

#endif /* HWXDP_TESTS_DEVDIFF_PAIR_H */
