/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Images translated one program at a time, made one image: a program and
 * the programs its tail calls reach (a program array its definition fills,
 * hwmap/translate_prog.c), so that a `tcall` finds them by their image
 * program index.
 */
#ifndef HWXDP_HWMAP_LINK_H
#define HWXDP_HWMAP_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "hwmap/hxu.h"

/*
 * One image of parts[0..cnt-1], each of one program: part i's program is
 * image program i, its operations follow part i-1's (branch and call
 * targets, its entry and its lines moved with them; a line's instruction
 * stays one of its own program), and the tables are the union of the parts',
 * by id. 0 with *out set (free with hxu_image__free); -E2BIG when the
 * operations do not fit the microcode store, -EINVAL when two parts give one
 * table id two shapes or a part has not one program (the reason in err,
 * errlen bytes, may be 0), or -ENOMEM.
 */
int hxu_image__link(const struct hxu_image *const *parts, uint32_t cnt, struct hxu_image **out,
		    char *err, size_t errlen);

/* The image program whose operations hold operation word op in an image
 * hxu_image__link made (program i's run from its entry to the next's), or
 * 0 for one program. */
uint32_t hxu_image__prog_of(const struct hxu_image *img, uint32_t op);

#endif /* HWXDP_HWMAP_LINK_H */
