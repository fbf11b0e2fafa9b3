/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the loader tests: where the built objects are, files, messages. */
#ifndef HWXDP_TESTS_LOADER_UTIL_H
#define HWXDP_TESTS_LOADER_UTIL_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "loader/object.h"

#define HX_CORPUS_MAX 64

/* $HWXDP_BUILD, else $BUILD, else "build", joined with rel, in a static buffer. */
const char *hx_build_path(const char *rel);

/* The corpus objects, sorted by name; fails the test when there are none. */
size_t hx_corpus(char paths[][PATH_MAX], size_t max);

/* The whole file; fails the test when it cannot be read. Free it. */
uint8_t *hx_read_file(const char *path, size_t *size);

/* Opens path as the kernel would see it (hwxdp_kernel_kfuncs: no device
 * kfuncs). */
int hx_open_kernel_view(const char *path, struct hwxdp_object **obj);

/* Collects every hwxdp message from now on; hx_messages() returns them. */
void hx_capture_messages(void);
const char *hx_messages(void);

#endif /* HWXDP_TESTS_LOADER_UTIL_H */
