/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Translation and images: a program of a BPF object verified for the
 * coprocessor and translated into microcode (an image: operations, the
 * shape of its tables, a line table back to BPF instructions), kept in an
 * HXU image file and read back (docs/isa.md, docs/translator.md).
 */
#ifndef HWXDP_IMAGE_H
#define HWXDP_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwxdp/common.h"
#include "hwxdp/log.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A translated program (opaque). */
struct hwxdp_image;

struct hwxdp_image_translate_opts {
	size_t sz; /* sizeof(struct hwxdp_image_translate_opts) */
	/* The program to translate; NULL: the object's first XDP program. */
	const char *prog_name;
	/* Require a proof (docs/prove.md) that the microcode does what the
	 * program does for every frame of 14 to prove_max_len bytes (0: 128)
	 * on ingress 1, each solver query within prove_timeout_ms (0: 10000):
	 * a translation not proven is refused, -HWXDP_ERR_NOT_PROVEN, with
	 * the prover's reason through the print callback. */
	bool prove;
	uint32_t prove_max_len;
	uint32_t prove_timeout_ms;
};

/*
 * Opens the object at path, sets its `hwxdp_target` global (where it has
 * one) to the device, verifies the program for the device and translates
 * it. 0 with *out set, or a negative error: -EACCES when the verifier
 * refuses it, -HWXDP_ERR_TRANSLATE when it cannot be translated, the
 * loader's errors otherwise; the reason goes through the print callback.
 */
HWXDP_API int hwxdp_image__translate(const char *path,
				     const struct hwxdp_image_translate_opts *opts,
				     struct hwxdp_image **out);
/* Reads an HXU image file: 0, or -HWXDP_ERR_IMAGE_FILE (reason printed),
 * or an errno. The device's check of the operations runs when a board
 * loads it. */
HWXDP_API int hwxdp_image__load(const char *path, struct hwxdp_image **out);
/* Writes img to path whole or not at all: 0 or a negative errno. */
HWXDP_API int hwxdp_image__save(const struct hwxdp_image *img, const char *path);
HWXDP_API void hwxdp_image__free(struct hwxdp_image *img);

/* Microcode words, tables and programs of the image. */
HWXDP_API size_t hwxdp_image__op_cnt(const struct hwxdp_image *img);
HWXDP_API size_t hwxdp_image__table_cnt(const struct hwxdp_image *img);
HWXDP_API size_t hwxdp_image__prog_cnt(const struct hwxdp_image *img);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HWXDP_IMAGE_H */
