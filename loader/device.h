/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device copy: a program verified for the coprocessor, translated into
 * microcode, its maps in table memory, and an engine to run it.
 */
#ifndef HWXDP_LOADER_DEVICE_H
#define HWXDP_LOADER_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The object and program a device copy holds, fields and all. */
#include "loader/object.h"

struct hxu_image;
struct hwxdp_tables;
struct hwxdp_table;
struct hwxdp_engine;

struct hwxdp_device_prog {
	struct hwxdp_object *obj;
	const struct hwxdp_prog *prog; /* the object's XDP program */
	struct hxu_image *img;
	struct hwxdp_tables *tables;
	bool tables_shared;	     /* opts->tables: not freed on close */
	struct hwxdp_engine *engine; /* NULL with opts->no_engine */
	uint8_t *window;	     /* one packet window for runs */
	/* What the load's steps took (ns): reading the object, the device's
	 * verification, the translation; the board adds its install (the
	 * engines, the compiled code). */
	struct {
		uint64_t open_ns, verify_ns, translate_ns, install_ns;
	} times;
};

/* A board's size for a table, by the map's name: the device's table of that
 * map holds max_entries entries whatever the object says (the object's size
 * is the kernel map's). */
struct hwxdp_table_size {
	const char *name;
	uint32_t max_entries;
};

struct hwxdp_device_prog_opts {
	size_t sz; /* sizeof(struct hwxdp_device_prog_opts) */
	/* Table sizes by map name; a name the object lacks is ignored. */
	const struct hwxdp_table_size *sizes;
	size_t size_cnt;
	/* Table memory already holding the maps of another program: the
	 * program uses it instead of tables of its own, provided every map
	 * has the same id, type and sizes there and its read-only global
	 * data the same bytes. NULL: new tables. */
	struct hwxdp_tables *tables;
	/* No engine and no window: the caller runs the image on its own. */
	bool no_engine;
	/* Engines that will run the program: per-CPU tables get a copy
	 * each. 0: the tables' default. Ignored with shared tables. */
	uint32_t engines;
	/* Memory for an ARRAY table, such as a kernel BPF_F_MMAPABLE map's
	 * mmap, so that both share one content: the callback returns at
	 * least desc->max_entries * round_up(desc->value_size, 8) bytes
	 * (its size in *size), or NULL for the device's own memory. The
	 * memory must outlive the tables. Ignored with shared tables. */
	void *(*array_memory)(const struct hxu_table_desc *desc, size_t *size, void *ctx);
	void *array_memory_ctx;
	/* The XDP program of this name (its function's); NULL: the object's
	 * first XDP program for a port. A devmap entry's program
	 * (SEC("xdp/devmap")) is taken by name only, and is then the image's
	 * only program; a board runs it on no port. */
	const char *prog;
};

/*
 * Opens the object at path with `hwxdp_target` set to the device, verifies
 * its XDP program for the device, translates it, gives every map a table
 * (global data with its initial bytes, as the kernel's maps have), and makes
 * an engine. Seeds are fixed, so two runs over the same frames give the same
 * bytes. 0 or a negative error with the reason in msg; the verifier's log of
 * a refusal goes through hwxdp_print.
 */
int hwxdp_device_prog__open(const char *path, struct hwxdp_device_prog **out, char *msg,
			    size_t msglen);
/* The same with options (opts may be NULL): board table sizes, shared
 * table memory. -EINVAL (with msg) for a size of 0, beyond what the table
 * engine takes, or for global data; -EEXIST when shared tables differ. */
int hwxdp_device_prog__open_opts(const char *path, const struct hwxdp_device_prog_opts *opts,
				 struct hwxdp_device_prog **out, char *msg, size_t msglen);
void hwxdp_device_prog__close(struct hwxdp_device_prog *dp);

/*
 * Gives every map of maps[] without a table one (a map the program does not
 * use still exists for the control plane, as in the kernel; a type the
 * device lacks is skipped) and writes global data's initial bytes. 0 or a
 * negative errno.
 */
struct hwxdp_map_desc;
int hwxdp_device_tables__fill(struct hwxdp_tables *tables, const struct hwxdp_map_desc *maps,
			      size_t map_cnt);

/*
 * Fills each program array of obj that its definition fills (libbpf's
 * `.values`) and that has a table in tables: a slot that holds a program
 * of img gets that program's image index, as the kernel's gets the
 * program (hwxdp_translate_for_device puts every program such an array of
 * the translated program names in its image). 0 or a negative errno.
 */
struct hxu_image;
int hwxdp_device_tables__fill_progs(struct hwxdp_tables *tables, const struct hwxdp_object *obj,
				    const struct hxu_image *img);

/*
 * The number in img (an image of obj) of the devmap program name, the value
 * a device devmap entry's bpf_prog takes where the kernel's takes the
 * program's fd: hwxdp_translate_for_device puts every devmap program of the
 * object that the device takes into the image of a program that redirects
 * into a devmap with 8-byte values. 0 with *index set; -ENOENT when img
 * holds no such program (the reason the device left it out went to the log
 * at translation), -EINVAL when name is a program of another attach type,
 * as the kernel's devmap refuses it.
 */
int hwxdp_device_image__entry_prog(const struct hwxdp_object *obj, const struct hxu_image *img,
				   const char *name, uint32_t *index);
int hwxdp_device_prog__entry_prog(const struct hwxdp_device_prog *dp, const char *name,
				  uint32_t *index);

/* The table of the map named name, or NULL. */
struct hwxdp_table *hwxdp_device_prog__table(struct hwxdp_device_prog *dp, const char *name);

#endif /* HWXDP_LOADER_DEVICE_H */
