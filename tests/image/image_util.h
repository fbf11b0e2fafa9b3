/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fixtures of the image file tests: an object's image as the device target
 * makes it, and a target (lab/target.h) that runs a given image on one
 * engine, so that hx_lab_setup fills its tables and two images can be run
 * side by side on the same frames.
 */
#ifndef HWXDP_TESTS_IMAGE_IMAGE_UTIL_H
#define HWXDP_TESTS_IMAGE_IMAGE_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwmap/hxu.h"
#include "loader/object.h"
#include "lab/target.h"

/*
 * Verifies the first XDP program of the object at path for the device (with
 * hwxdp_target set to the device, as the device target does) and translates
 * it. 0 with *obj and *img set; a negative errno when the object has no
 * program the device takes (a corpus object may not).
 */
int image_translate(const char *path, struct hwxdp_object **obj, struct hxu_image **img);

/* Asserts every field of a and b equal. */
void image_assert_equal(const struct hxu_image *a, const struct hxu_image *b);

/*
 * A target running img (not copied: it must outlive the target) on a new
 * engine whose tables are created from img's descriptors and given global
 * data from obj's maps (obj may be NULL: no global data). Asserts it works.
 */
struct hx_target *image_target_open(const struct hxu_image *img, const struct hwxdp_object *obj);

/* A new folder under /tmp for one test; remove with image_tmpdir_remove. */
void image_tmpdir(char *dir, size_t size);
void image_tmpdir_remove(const char *dir);

/* The file at path, malloc'ed; asserts it reads. */
uint8_t *image_read_file(const char *path, size_t *len);

#endif /* HWXDP_TESTS_IMAGE_IMAGE_UTIL_H */
