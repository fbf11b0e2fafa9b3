/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device copy: a program verified for the coprocessor, translated into
 * microcode, its maps in table memory, and an engine to run it.
 */
#ifndef HWXDP_LOADER_DEVICE_H
#define HWXDP_LOADER_DEVICE_H

#include <stddef.h>
#include <stdint.h>

struct hwxdp_object;
struct hwxdp_prog;
struct hxu_image;
struct hwxdp_tables;
struct hwxdp_table;
struct hwxdp_engine;

struct hwxdp_device_prog {
	struct hwxdp_object *obj;
	const struct hwxdp_prog *prog;  /* the object's XDP program */
	struct hxu_image *img;
	struct hwxdp_tables *tables;
	struct hwxdp_engine *engine;
	uint8_t *window;                /* one packet window for runs */
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

/* The table of the map named name, or NULL. */
struct hwxdp_table *hwxdp_device_prog__table(struct hwxdp_device_prog *dp, const char *name);

#endif /* HWXDP_LOADER_DEVICE_H */
