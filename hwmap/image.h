/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The HXU image file (docs/isa.md section 6): struct hxu_image as bytes, so
 * that a translated program can be kept, shipped and loaded without the BPF
 * object it came from.
 *
 * The reader enforces the file's rules: magic, version, counts within the
 * machine's limits, a length that matches the counts, the checksum, table
 * descriptors the table engine can hold, NUL-padded names, program entries
 * and line table inside the operations. It does not run the device's check
 * of the operations themselves (device/engine.h, docs/isa.md section 3): a
 * caller that uses a loaded image other than through hwxdp_engine__new,
 * which runs that check itself, must call hwxdp_engine__check first.
 *
 * The image holds the microcode and the shape of its tables, not their
 * contents: as with a BPF object's maps, filling them (global data included)
 * is the control plane's work.
 */
#ifndef HWXDP_HWMAP_IMAGE_H
#define HWXDP_HWMAP_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwmap/hxu.h"

/* HWXDP_ERR_IMAGE_FILE: a file that is not an HXU image, or breaks one of
 * its rules. */
#include "hwxdp/log.h"

/* The file's parts, in bytes (docs/isa.md section 6). */
#define HXU_IMAGE_HEADER_SIZE 32
#define HXU_IMAGE_TABLE_SIZE  112
#define HXU_IMAGE_PROG_SIZE   72
#define HXU_IMAGE_LINE_SIZE   8
#define HXU_IMAGE_WORD_SIZE   8
/* Programs an image may hold: one per port's program slot. */
#define HXU_IMAGE_PROGS_MAX HXU_PORTS
/* The largest file the limits allow; a longer one is refused unread. */
#define HXU_IMAGE_SIZE_MAX                                                                         \
	(HXU_IMAGE_HEADER_SIZE + HXU_TABLES * HXU_IMAGE_TABLE_SIZE +                               \
	 HXU_IMAGE_PROGS_MAX * HXU_IMAGE_PROG_SIZE +                                               \
	 HXU_STORE_WORDS * (HXU_IMAGE_LINE_SIZE + HXU_IMAGE_WORD_SIZE))

/* True when buf starts with the image magic "HXU0" (any version). */
bool hxu_image__has_magic(const void *buf, size_t len);

/* The bytes img takes as a file. */
size_t hxu_image__file_size(const struct hxu_image *img);

/*
 * Writes img to fd from its current position. The bytes are checked with
 * the reader's rules first, so that nothing written is refused when read:
 * -EINVAL (reason in err, errlen bytes, may be 0) for an image that breaks
 * them, -ENOMEM, or the negative errno of a failed write (the file then
 * holds part of the image).
 */
int hxu_image__write(const struct hxu_image *img, int fd, char *err, size_t errlen);

/*
 * Writes img to path atomically: into a new file in path's folder, synced,
 * then renamed over path. On any error path is as it was (absent, or its
 * old bytes) and no temporary file remains. 0 or a negative errno, as
 * hxu_image__write, with the reason in err.
 */
int hxu_image__save(const struct hxu_image *img, const char *path, char *err, size_t errlen);

/*
 * Reads an image from len bytes at buf. 0 with *out set (free with
 * hxu_image__free, hwmap/translate.h), -HWXDP_ERR_IMAGE_FILE with the
 * reason in err ("image: table 3: key size 0"), or -ENOMEM. *out is NULL on
 * error.
 */
int hxu_image__read_mem(const void *buf, size_t len, struct hxu_image **out, char *err,
			size_t errlen);

/* hxu_image__read_mem on the file at path; a file that cannot be read is
 * its negative errno, with "image: PATH: reason" in err. */
int hxu_image__load(const char *path, struct hxu_image **out, char *err, size_t errlen);

#endif /* HWXDP_HWMAP_IMAGE_H */
